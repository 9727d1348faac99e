// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

const consoleSegmentConfig = `
resource "featureconsole_segment" "console" {
  segment_id = "seg_console"
  name       = "Console made"
  type       = "rule_based"
  rules = [%s]
}
`

const everyoneRule = `{ name = "everyone", pass_percentage = 10, conditions = [{ type = "public" }] }`

// A segment written in the console with a `public` condition is imported and plans clean; the
// 14-type check refuses the type only in a rule the configuration adds or changes, before any
// write; a rule added beside the held one is written with it.
func TestAccSegment_consoleMadeRules(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{})
	seedConsoleSegments(m)
	importBlock := "\nimport {\n  to = featureconsole_segment.console\n  id = \"seg_console\"\n}\n"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + importBlock + fmt.Sprintf(consoleSegmentConfig, everyoneRule),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("featureconsole_segment.console", plancheck.ResourceActionNoop)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				PreConfig: m.ResetRequests,
				Config: providerBlock(url) + fmt.Sprintf(consoleSegmentConfig, everyoneRule+`,
    { name = "visitors", pass_percentage = 5, conditions = [{ type = "public" }] }`),
				ExpectError: wrapped("Condition type not allowed in segments", `rules[1].conditions[0].type: "public" is not a condition type segments accept`),
			},
			{
				// The refused plan wrote nothing. A rule of an accepted type added beside the held
				// one: the rules are written whole and the service refuses `public` in any write,
				// which the plan says before any request.
				PreConfig: func() { noWrites(t, m, "a refused plan") },
				Config:    providerBlock(url) + fmt.Sprintf(consoleSegmentConfig, everyoneRule+", "+ruleEmail),
				ExpectError: wrapped("Segment rules cannot be written while a rule holds a refused condition type",
					`rules[0].conditions[0].type: the segment holds a rule with a "public" condition`),
			},
			{
				// The console-made rule rewritten in the same change: written.
				PreConfig: func() { noWrites(t, m, "a refused plan") },
				Config:    providerBlock(url) + fmt.Sprintf(consoleSegmentConfig, ruleEmail),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: expectSegmentRules(m, "seg_console", "email"),
			},
		},
	})
}
