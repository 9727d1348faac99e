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

// The data source reads one config: its fields, default value, schema and rules with return values;
// a config that does not exist is an error naming it.
func TestAccDynamicConfigDataSource(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	seedConfigs(m, 2)
	addr := "data.featureconsole_dynamic_config.c"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + `data "featureconsole_dynamic_config" "c" { config_id = "config_01" }`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("Config 1")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tags"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("checkout")})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("default_value"), knownvalue.StringExact(`{"max_items":1,"title":"Default 1"}`)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("schema"), knownvalue.StringExact(`{"required":["title"],"type":"object"}`)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact("germany")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("return_value"),
						knownvalue.StringExact(`{"nested":{"a":["x"],"b":1.5},"title":"Jetzt kaufen"}`)),
				},
			},
			{
				Config:      providerBlock(url) + `data "featureconsole_dynamic_config" "c" { config_id = "no_such_config" }`,
				ExpectError: regexp.MustCompile(`Dynamic config "no_such_config" not found`),
			},
		},
	})
}
