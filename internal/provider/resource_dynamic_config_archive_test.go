// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// A config archived in the console plans archived = true -> false, and one apply unarchives it
// before it writes the config's fields and rules.
func TestAccDynamicConfig_consoleArchive(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	rulesHCL := func(rule string) string {
		return `
resource "featureconsole_dynamic_config_rules" "copy" {
  config_id = featureconsole_dynamic_config.copy.config_id
  rules = [` + rule + `]
}
`
	}
	base := providerBlock(url) + dynamicConfigHCL(configFullLines...)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockConfig(m, "tfacc_copy"),
		Steps: []resource.TestStep{
			{Config: base + rulesHCL(ruleDE)},
			{
				PreConfig: func() {
					if err := m.ArchiveDynamicConfig("tfacc_copy", true); err != nil {
						t.Fatal(err)
					}
					m.ResetRequests()
				},
				Config: providerBlock(url) + dynamicConfigHCL(append(configFullLines[1:], `name = "Checkout texts"`)...) + rulesHCL(ruleFR),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(configAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(configAddr, tfjsonpath.New("archived"), knownvalue.Bool(false)),
				}},
				Check: func(*terraform.State) error {
					c, _ := m.DynamicConfig("tfacc_copy")
					if c.Status == "Archived" || c.Name != "Checkout texts" || len(c.Rules) != 1 || c.Rules[0].Name != "france" {
						return fmt.Errorf("mock holds %+v", c)
					}
					w := configWrites(m, "tfacc_copy")
					if len(w) < 3 || !strings.HasSuffix(w[0].Path, "/unarchive") {
						return fmt.Errorf("writes %+v: the unarchive is not first", w)
					}
					for _, r := range w {
						if r.Status >= 300 {
							return fmt.Errorf("%s %s answered %d", r.Method, r.Path, r.Status)
						}
					}
					return nil
				},
			},
			{Config: providerBlock(url) + dynamicConfigHCL(append(configFullLines[1:], `name = "Checkout texts"`)...) + rulesHCL(ruleFR),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}

// A rules write refused because the config is archived (archived = true in the configuration)
// names the archive and what to do.
func TestAccDynamicConfig_archivedRefusal(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.PutDynamicConfig(mockconsole.DynamicConfig{ID: "tfacc_copy"})
	if err := m.ArchiveDynamicConfig("tfacc_copy", true); err != nil {
		t.Fatal(err)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
resource "featureconsole_dynamic_config_rules" "copy" {
  config_id = "tfacc_copy"
  rules = [` + ruleDE + `]
}
`,
			ExpectError: phrasesRe(`Dynamic config "tfacc_copy" is archived`, "Set `archived = false`", "is archived and cannot be modified"),
		}},
	})
}

// archive_on_destroy with keep_on_destroy: destroy archives the config and keeps it with its rules.
func TestAccDynamicConfig_archiveOnDestroy(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := providerBlock(url) + dynamicConfigHCL(append(configFullLines, `archive_on_destroy = true`)...) + `
resource "featureconsole_dynamic_config_rules" "copy" {
  config_id       = featureconsole_dynamic_config.copy.config_id
  keep_on_destroy = featureconsole_dynamic_config.copy.archive_on_destroy
  rules           = [` + ruleDE + `]
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			c, ok := m.DynamicConfig("tfacc_copy")
			if !ok || c.Status != "Archived" || len(c.Rules) != 1 || c.Rules[0].Name != "germany" {
				return fmt.Errorf("destroy left %v %+v, want the config archived with its rule", ok, c)
			}
			return nil
		},
		Steps: []resource.TestStep{{Config: cfg}},
	})
}
