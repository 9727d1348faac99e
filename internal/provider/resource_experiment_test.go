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
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

const experimentAddr = "featureconsole_experiment.cta"

// experimentHCL is the experiment tfacc_cta with its control group second, the groups given (HCL
// list elements) and further attribute lines; deletion_protection = false unless a line sets it, so
// that the harness's destroy of a started experiment deletes it.
func experimentHCL(groups string, lines ...string) string {
	if !strings.Contains(strings.Join(lines, "\n"), "deletion_protection") {
		lines = append(lines, "deletion_protection = false")
	}
	return fmt.Sprintf(`
resource "featureconsole_experiment" "cta" {
  experiment_id   = "tfacc_cta"
  name            = "Checkout CTA"
  hypothesis      = "A green button sells more"
  groups          = [%s]
  control_group   = "Control"
  primary_metrics = [{ name = "purchase", type = "event_count", direction = "increase" }]
  %s
}
`, groups, strings.Join(lines, "\n  "))
}

// ctaGroupsHCL are the groups of the examples, Green first and Control second.
const ctaGroupsHCL = `
    { name = "Green",   size = 50, parameter_values = jsonencode({ color = "green", size = 2 }) },
    { name = "Control", size = 50, parameter_values = jsonencode({ color = "grey", size = 2 }) },
  `

// expectMockExperiment checks the experiment the mock holds.
func expectMockExperiment(m *mockconsole.Server, id string, check func(mockconsole.Experiment) error) resource.TestCheckFunc {
	return expectInMock("experiment", id, m.Experiment, check)
}

// expectNoMockExperiment is CheckDestroy: destroy deleted the experiment.
func expectNoMockExperiment(m *mockconsole.Server, id string) resource.TestCheckFunc {
	return expectGoneFromMock("experiment", id, m.Experiment)
}

// mockGroupID is the id the mock gave the experiment's group of the name.
func mockGroupID(e mockconsole.Experiment, name string) string {
	for _, g := range e.Groups {
		if g.Name == name {
			return g.ID
		}
	}
	return ""
}

// nothingWritten is a PreConfig that fails the test when the step before sent a write (a refused
// plan sends nothing), then clears the log.
func nothingWritten(t *testing.T, m *mockconsole.Server) func() {
	return func() {
		if w := writes(m); len(w) > 0 {
			t.Errorf("a refused plan sent %d writes, the first %s %s", len(w), w[0].Method, w[0].Path)
		}
		m.ResetRequests()
	}
}

// The workflow of an experiment: created in setup with its control group second (set by id once the
// create answered the groups' ids), started with status = "active", plans empty; a size or value
// change while it runs fails at plan with nothing sent; a higher allocation applies; a decision
// ships Green; going back to active fails at plan; destroy deletes.
func TestAccExperiment_workflow(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(groups string, lines ...string) string {
		return providerBlock(url) + experimentHCL(groups, lines...)
	}
	var greenID string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{
				Config: cfg(ctaGroupsHCL, "allocation = 20"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(experimentAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("status"), knownvalue.StringExact("setup")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("status"), knownvalue.StringExact("setup")),
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("control_group"), knownvalue.StringExact("Control")),
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("allocation"), knownvalue.Int64Exact(20)),
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("start_time"), knownvalue.Null()),
				},
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					greenID = mockGroupID(e, "Green")
					if e.Status != "setup" || e.ControlGroupID != mockGroupID(e, "Control") || e.ControlGroupID == "" || len(e.PrimaryMetrics) != 1 {
						return fmt.Errorf("mock holds %+v", e)
					}
					return nil
				}),
			},
			{
				Config: cfg(ctaGroupsHCL, `status = "active"`, "allocation = 20"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(experimentAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("groups").AtSliceIndex(0).AtMapKey("id"), knownvalue.NotNull()),
				}},
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					if e.Status != "active" || e.StartTime == 0 || mockGroupID(e, "Green") != greenID {
						return fmt.Errorf("mock holds %+v", e)
					}
					return nil
				}),
			},
			{
				PreConfig:   m.ResetRequests,
				Config:      cfg(strings.Replace(ctaGroupsHCL, "size = 50", "size = 60", 1)+`{ name = "X", size = -10, parameter_values = "{}" }`, `status = "active"`),
				ExpectError: errRe("out of range"),
			},
			{
				PreConfig: nothingWritten(t, m),
				Config:    cfg(strings.Replace(strings.Replace(ctaGroupsHCL, "size = 50", "size = 60", 1), "size = 50", "size = 40", 1), `status = "active"`),
				ExpectError: wrapped(`Experiment "tfacc_cta" is active: it cannot change groups[0].size of "Green" (50 → 60), groups[1].size of "Control" (50 → 40)`,
					"You can't edit the groups without restarting the experiment", "Nothing was sent."),
			},
			{
				PreConfig:   nothingWritten(t, m),
				Config:      cfg(strings.Replace(ctaGroupsHCL, `color = "green"`, `color = "lime"`, 1), `status = "active"`),
				ExpectError: wrapped(`cannot change groups[0].parameter_values of "Green"`),
			},
			{
				PreConfig: nothingWritten(t, m),
				Config:    cfg(ctaGroupsHCL, `status = "active"`, `allocation = 20.5`, `description = "Which button sells"`),
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					if e.Allocation != 20.5 || e.Description != "Which button sells" || e.Status != "active" {
						return fmt.Errorf("mock holds %+v", e)
					}
					return nil
				}),
			},
			{
				Config: cfg(ctaGroupsHCL, `status = "decision_made"`, `launched_group = "Green"`, `decision_reason = "Green: +3.1 % purchases"`,
					`allocation = 20.5`, `description = "Which button sells"`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("launched_group"), knownvalue.StringExact("Green")),
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("decision_time"), knownvalue.NotNull()),
				},
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					if e.Status != "decision_made" || e.LaunchedGroupID != greenID || e.DecisionReason != "Green: +3.1 % purchases" {
						return fmt.Errorf("mock holds %+v", e)
					}
					return nil
				}),
			},
			{
				PreConfig: m.ResetRequests,
				Config:    cfg(ctaGroupsHCL, `status = "active"`, `allocation = 20.5`, `description = "Which button sells"`),
				ExpectError: wrapped(`Experiment "tfacc_cta" is decision_made and cannot move to active: a decision has been made`,
					"declare a new featureconsole_experiment block"),
			},
			{
				PreConfig: nothingWritten(t, m),
				Config: cfg(ctaGroupsHCL, `status = "decision_made"`, `launched_group = "Green"`, `decision_reason = "Green: +3.1 % purchases"`,
					`allocation = 20.5`, `description = "Which button sells"`),
				PlanOnly: true,
			},
		},
	})
}
