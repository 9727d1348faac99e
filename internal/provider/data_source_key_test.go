// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// TestAccKeyDataSource: a key made in the console read by its fingerprint, secret included; a
// secret given as id is refused before any request, naming the fingerprint's form; a fingerprint
// no key has is an error.
func TestAccKeyDataSource(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	secret := m.PutKey(mockconsole.Key{Type: "CLIENT", Description: "mobile apps", Environments: []string{"production"}})
	read := func(id string) string {
		return providerBlock(url) + fmt.Sprintf(`
data "featureconsole_key" "k" {
  id = %q
}
`, id)
	}
	const addr = "data.featureconsole_key.k"
	// The document's key answers leave the description out (ExampleForms): the data source then has none.
	var description knownvalue.Check = knownvalue.StringExact("mobile apps")
	if m.Habits().ExampleForms {
		description = knownvalue.Null()
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: read(console.Fingerprint(secret)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("secret"), knownvalue.StringExact(secret)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("type"), knownvalue.StringExact("CLIENT")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), description),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("environments"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("production")})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("target_app_id"), knownvalue.Null()),
				},
			},
			{
				PreConfig:   m.ResetRequests,
				Config:      read(secret),
				ExpectError: regexp.MustCompile(`(?s)Not a key fingerprint.*"sha256:"`),
			},
			{
				PreConfig: func() {
					if n := m.CountRequests("", "/keys"); n > 0 {
						t.Errorf("a secret as id sent %d requests", n)
					}
				},
				Config:      read("sha256:0123456789abcdef"),
				ExpectError: regexp.MustCompile(`(?s)Unable to read key sha256:0123456789abcdef.*no key of the project has this fingerprint`),
			},
		},
	})
}
