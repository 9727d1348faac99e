// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// A service that applies only changes to phases it holds (writes that do not take, HABITS.md):
// the apply fails naming the phase that did not take, the state holds what the service holds, and
// the next plan shows the same change again, never "inconsistent result" nor an empty plan.
func TestAccReleasePipeline_writesThatDoNotTake(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	partial := func(on bool) func() {
		return func() {
			h := m.Habits()
			h.PartialPipelineWrites = on
			m.SetHabits(h)
			if err := m.ServeOldPipelineWrites("pl_web", on); err != nil {
				t.Fatal(err)
			}
		}
	}
	twoPhases := providerBlock(url) + webPipelineHCL("Web rollout", canaryHCL, gaHCL)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: providerBlock(url) + pipelineExampleHCL, Check: checkMockPipeline(m, "pl_web", pipelineExample)},
			{
				PreConfig: partial(true),
				Config:    twoPhases,
				ExpectError: regexp.MustCompile(strings.ReplaceAll(`(?s)Release pipeline "pl_web" not updated as sent.*`+
					`phase "General availability" is missing.*The Terraform state holds what the service holds`, " ", `\s+`)),
			},
			{
				// The state holds the one phase the service holds: the change is planned again.
				Config:             twoPhases,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				Check:              checkMockPipeline(m, "pl_web", pipelineExample),
			},
			{
				PreConfig: partial(false),
				Config:    twoPhases,
				Check:     checkMockPipeline(m, "pl_web", mockconsole.Pipeline{Name: "Web rollout", Phases: []mockconsole.Phase{canaryPhase, gaPhase}}),
			},
			{
				Config:           twoPhases,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// consolePipelineRule is a phase rule as the console writes it (the live service): a condition without
// operator, scalar targets, one a number, and a condition type beyond the gates' list.
var consolePipelineRule = mockconsole.PipelineRule{Name: "console made", Conditions: []mockconsole.Condition{
	{Type: "public"},
	{Type: "experiment_group", Operator: "any", TargetValue: "holdout"},
	{Type: "app_build", Operator: "gte", TargetValue: json.Number("120")},
}}

// consolePipelineHCL is what a user writes for a pipeline holding consolePipelineRule.
const consolePipelineHCL = `
resource "featureconsole_release_pipeline" "web" {
  pipeline_id = "pl_console"
  name        = %q
  phases = [{
    name             = "Staff"
    time_interval_ms = 0
    rules = [{
      name = "console made"
      conditions = [
        { type = "public" },
        { type = "experiment_group", operator = "any", target_value = ["holdout"] },
        { type = "app_build", operator = "gte", target_value = ["120"] },
      ]
    }]
  }]
}
`

// Pipeline rules written in the console, read in the console's forms (ConsolePipelineRules): an
// import plans clean, an update applies without "inconsistent result", the next plan is empty.
func TestAccReleasePipeline_consoleRules(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	h := m.Habits()
	h.ConsolePipelineRules = true
	m.SetHabits(h)
	// Rules written in the console hold condition types the document's list lacks; the provider
	// sends them back as they are.
	m.ServeBeyondDocument("/type: value is not one of the allowed values")
	m.PutPipeline(mockconsole.Pipeline{ID: "pl_console", Name: "Console made", CreatorID: "user_1", LastModifierID: "user_1",
		Phases: []mockconsole.Phase{{Name: "Staff", Rules: []mockconsole.PipelineRule{consolePipelineRule}}}})
	cfg := func(name string) string { return providerBlock(url) + fmt.Sprintf(consolePipelineHCL, name) }
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: cfg("Console made"), ResourceName: pipelineAddr, ImportState: true, ImportStateId: "pl_console",
				ImportStatePersist: true,
				ImportStateCheck: func(s []*terraform.InstanceState) error {
					if len(s) != 1 || s[0].Attributes["phases.0.rules.0.conditions.2.target_value.0"] != "120" ||
						s[0].Attributes["phases.0.rules.0.conditions.1.target_value.0"] != "holdout" {
						return fmt.Errorf("console-written targets not read as lists of strings: %v", s)
					}
					return nil
				},
			},
			{
				Config:           cfg("Console made"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: cfg("Renamed"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionUpdate),
				}},
			},
			{
				Config:           cfg("Renamed"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}
