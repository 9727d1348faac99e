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

// TestAccTagDataSource: a tag read by name; a name no tag has is an error at name.
func TestAccTagDataSource(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	id := m.PutTag(mockconsole.Tag{Name: "growth", Description: "the growth team's", IsCore: true})
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + `data "featureconsole_tag" "t" { name = "growth" }`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.featureconsole_tag.t", tfjsonpath.New("id"), knownvalue.StringExact(id)),
					statecheck.ExpectKnownValue("data.featureconsole_tag.t", tfjsonpath.New("is_core"), knownvalue.Bool(true)),
				},
			},
			{
				Config:      providerBlock(url) + `data "featureconsole_tag" "t" { name = "nope" }`,
				ExpectError: regexp.MustCompile(`Tag "nope" not found`),
			},
		},
	})
}
