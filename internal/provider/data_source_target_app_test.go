// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// TestAccTargetAppDataSource: an app made in the console, read by name for its id, scopes a key
// Terraform creates; a name no app has is an error at name.
func TestAccTargetAppDataSource(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	id := m.PutTargetApp(mockconsole.TargetApp{Name: "ios"})
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + `
data "featureconsole_target_app" "ios" { name = "ios" }
resource "featureconsole_key" "ios" {
  type          = "CLIENT"
  description   = "ios app"
  target_app_id = data.featureconsole_target_app.ios.id
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.featureconsole_target_app.ios", tfjsonpath.New("id"), knownvalue.StringExact(id)),
					statecheck.ExpectKnownValue("featureconsole_key.ios", tfjsonpath.New("target_app_id"), knownvalue.StringExact(id)),
				},
			},
			{
				Config:      providerBlock(url) + `data "featureconsole_target_app" "x" { name = "nope" }`,
				ExpectError: regexp.MustCompile(`Target app "nope" not found`),
			},
		},
	})
}
