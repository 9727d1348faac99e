// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// A status moved in the console shows in the plan as what it is: with status omitted the plan
// follows it and writes nothing; a configuration asking for a move the service cannot make from
// there fails at plan, saying why, with nothing sent. The console's decision reads with its reason:
// other words for it fail the plan (the service keeps the reason given with the move), its own
// plan nothing.
func TestAccExperiment_consoleMoves(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(lines ...string) string { return providerBlock(url) + experimentHCL(ctaGroupsHCL, lines...) }
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{Config: cfg()},
			{
				PreConfig: func() {
					if err := m.StartExperiment("tfacc_cta"); err != nil {
						t.Fatal(err)
					}
					m.ResetRequests()
				},
				Config: cfg(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
					plancheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("status"), knownvalue.StringExact("active")),
					plancheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("start_time"), knownvalue.NotNull()),
				}},
			},
			{
				PreConfig: nothingWritten(t, m),
				Config:    cfg(`status = "assignment_stopped"`),
				ExpectError: wrapped(`Experiment "tfacc_cta" is active and cannot move to assignment_stopped: only the service stops an experiment`,
					`set status = "active"`),
			},
			{
				PreConfig: func() {
					nothingWritten(t, m)()
					if err := m.DecideExperiment("tfacc_cta", "Control", "Decided in the console"); err != nil {
						t.Fatal(err)
					}
				},
				Config:      cfg(`status = "active"`),
				ExpectError: wrapped(`Experiment "tfacc_cta" is decision_made and cannot move to active`),
			},
			{
				PreConfig:   nothingWritten(t, m),
				Config:      cfg(`status = "decision_made"`, `launched_group = "Green"`, `decision_reason = "Green wins"`),
				ExpectError: wrapped("A decision cannot change", `shipped group "Control"`),
			},
			{
				PreConfig: nothingWritten(t, m),
				Config:    cfg(`status = "decision_made"`, `launched_group = "Control"`, `decision_reason = "Control holds"`),
				ExpectError: wrapped("A decision's reason cannot change", `decision_reason = "Control holds"`,
					`Experiment "tfacc_cta" is decision_made with the reason "Decided in the console"`, "Nothing was sent",
					`Set decision_reason = "Decided in the console"`),
			},
			{
				// The console's decision, declared with its own words, plans nothing.
				PreConfig: func() {
					nothingWritten(t, m)()
					if err := m.AbandonExperiment("tfacc_cta", "x"); err == nil {
						t.Error("the mock abandoned a decided experiment")
					}
				},
				Config: cfg(`status = "decision_made"`, `launched_group = "Control"`, `decision_reason = "Decided in the console"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
					plancheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("decision_reason"), knownvalue.StringExact("Decided in the console")),
				}},
			},
		},
	})
}

// Created active and abandoned in one apply each; import plans clean (ImportStateVerify); destroy
// with archive_on_destroy archives instead of deleting.
func TestAccExperiment_importAndArchive(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(lines ...string) string {
		return providerBlock(url) + experimentHCL(ctaGroupsHCL, append([]string{protectedDefault, `tags = ["checkout"]`, "duration = 21",
			`secondary_metrics = [{ name = "refund", type = "event_count", direction = "decrease" }]`}, lines...)...)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
			if e.Status != mockconsole.ExperimentArchived {
				return fmt.Errorf("destroy left the experiment %s, want archived", e.Status)
			}
			return nil
		}),
		Steps: []resource.TestStep{
			{
				Config: cfg(`status = "active"`),
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					if e.Status != "active" || e.Duration != 21 || len(e.SecondaryMetrics) != 1 || len(e.Tags) != 1 {
						return fmt.Errorf("mock holds %+v", e)
					}
					return nil
				}),
			},
			{Config: cfg(`status = "active"`), ResourceName: experimentAddr, ImportState: true, ImportStateKind: resource.ImportCommandWithID,
				ImportStateVerify: true, ImportStateVerifyIdentifierAttribute: "experiment_id", ImportStateVerifyIgnore: []string{"timeouts", "archive_on_destroy", "deletion_protection"}},
			{Config: cfg(`status = "active"`), ResourceName: experimentAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID},
			{
				Config: cfg(`status = "abandoned"`, `decision_reason = "No traffic"`, "archive_on_destroy = true"),
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					if e.Status != "abandoned" || e.DecisionReason != "No traffic" || e.EndTime == 0 {
						return fmt.Errorf("mock holds %+v", e)
					}
					return nil
				}),
			},
		},
	})
}

// Removing targeting_gate_id removes the targeting in one apply, with null (the service takes ""
// for a gate's id and refuses it); the experiment's "" read back is null in state, so the plan
// after is empty.
func TestAccExperiment_removeTargetingGateClearsWithNull(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + experimentHCL(ctaGroupsHCL, `targeting_gate_id = "new_checkout"`),
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					if e.TargetingGateID != "new_checkout" {
						return fmt.Errorf("the experiment targets %q, want new_checkout", e.TargetingGateID)
					}
					return nil
				}),
			},
			{
				Config: providerBlock(url) + experimentHCL(ctaGroupsHCL),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(experimentAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("targeting_gate_id"), knownvalue.Null()),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("targeting_gate_id"), knownvalue.Null()),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
						if e.TargetingGateID != "" {
							return fmt.Errorf("the experiment still targets %q", e.TargetingGateID)
						}
						return nil
					}),
					expectLinkClearedWithNull(m, "/console/v1/experiments/tfacc_cta", "targetingGateID"),
				),
			},
		},
	})
}

// A kept group keeps its id when groups are added and reordered in setup; an omitted control group
// is the first; removing the targeting gate clears it.
func TestAccExperiment_groupsInSetup(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	gate := `
resource "featureconsole_gate" "checkout" {
  gate_id = "tfacc_cta_gate"
}
`
	hcl := func(groups string, lines ...string) string {
		return providerBlock(url) + gate + experimentHCL(groups, lines...)
	}
	var greenID string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{
				Config: hcl(ctaGroupsHCL, "targeting_gate_id = featureconsole_gate.checkout.gate_id"),
				Check: func(s *terraform.State) error {
					e, _ := m.Experiment("tfacc_cta")
					greenID = mockGroupID(e, "Green")
					if e.TargetingGateID != "tfacc_cta_gate" {
						return fmt.Errorf("mock holds %+v", e)
					}
					return nil
				},
			},
			{
				Config: hcl(`
    { name = "Control", size = 40, parameter_values = jsonencode({ color = "grey", size = 2 }) },
    { name = "Blue",    size = 20, parameter_values = jsonencode({ color = "blue" }) },
    { name = "Green",   size = 40, parameter_values = jsonencode({ size = 2.0, color = "green" }) },
  `),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(experimentAddr, tfjsonpath.New("groups").AtSliceIndex(1).AtMapKey("id")),
					plancheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("groups").AtSliceIndex(2).AtMapKey("id"), knownvalue.NotNull()),
				}},
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					if e.TargetingGateID != "" || mockGroupID(e, "Green") != greenID || len(e.Groups) != 3 || e.Groups[1].Name != "Blue" ||
						e.ControlGroupID != mockGroupID(e, "Control") {
						return fmt.Errorf("mock holds %+v", e)
					}
					return nil
				}),
			},
		},
	})
}

// The document answers every move with a message alone ({"message": "Experiment successfully
// started."}), and its reads leave out the control group and the ids of groups but the first: each
// move completes in one apply with the experiment read back, and the plan after is empty (the
// framework checks it after every step): active at create, a decision; active at create, an
// abandon; destroy with archive_on_destroy archives both.
func TestAccExperiment_documentedMoves(t *testing.T) {
	t.Parallel()
	for _, forms := range []bool{false, true} {
		t.Run(fmt.Sprintf("example forms %t", forms), func(t *testing.T) {
			m, url := startMock(t, mockconsole.Config{})
			if forms {
				m.SetHabits(mergeHabits(m.Habits(), mockconsole.Habits{ExampleForms: true}))
				m.ServeExperimentsAsExample(true)
			}
			cfg := func(decision, abandon string) string {
				return providerBlock(url) + fmt.Sprintf(`
resource "featureconsole_experiment" "won" {
  experiment_id      = "tfacc_won"
  groups             = [%[1]s]
  archive_on_destroy = true
  %[2]s
}
resource "featureconsole_experiment" "dropped" {
  experiment_id      = "tfacc_dropped"
  groups             = [%[1]s]
  archive_on_destroy = true
  %[3]s
}
`, ctaGroupsHCL, decision, abandon)
			}
			status := func(id, want string) resource.TestCheckFunc { return expectMockStatus(m, id, want) }
			resource.ParallelTest(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				CheckDestroy: resource.ComposeTestCheckFunc(
					status("tfacc_won", mockconsole.ExperimentArchived), status("tfacc_dropped", mockconsole.ExperimentArchived)),
				Steps: []resource.TestStep{
					{
						Config: cfg(`status = "active"`, `status = "active"`),
						Check: resource.ComposeTestCheckFunc(status("tfacc_won", "active"), status("tfacc_dropped", "active"),
							resource.TestCheckResourceAttr("featureconsole_experiment.won", "control_group", "Green")),
					},
					{
						Config: cfg(`status = "decision_made"
  launched_group = "Control"
  decision_reason = "Control holds up"`, `status = "abandoned"
  decision_reason = "No traffic"`),
						Check: resource.ComposeTestCheckFunc(status("tfacc_won", "decision_made"), status("tfacc_dropped", "abandoned"),
							resource.TestCheckResourceAttr("featureconsole_experiment.won", "launched_group", "Control")),
					},
				},
			})
		})
	}
}

// Each move the service cannot make says why and what to do instead.
func TestExperimentMoveRefusal(t *testing.T) {
	for _, c := range []struct{ from, to, why string }{
		{"decision_made", "setup", "a decided experiment is neither reset nor started again"},
		{"decision_made", "active", "a decision has been made"},
		{"decision_made", "abandoned", "a decided experiment cannot be abandoned"},
		{"setup", "decision_made", `start it first (status = "active")`},
		{"abandoned", "decision_made", `an abandoned experiment has no decision to make: to run it again, reset it (status = "setup"`},
		{"assignment_stopped", "abandoned", "the service stopped it"},
		{"active", "experiment_stopped", "only the service stops an experiment"},
	} {
		got := experimentMoveRefusal("cta", c.from, c.to)
		if !strings.Contains(got, c.why) || !strings.Contains(got, "declare a new featureconsole_experiment block") || strings.Contains(got, "new experiment_id") ||
			strings.Contains(got, "delete") || strings.Contains(got, "replace") || !strings.Contains(got, `set status = "`+c.from+`"`) {
			t.Errorf("%s → %s: %s", c.from, c.to, got)
		}
		if _, ok := experimentMoves[experimentMove{c.from, c.to}]; ok {
			t.Errorf("%s → %s is a move", c.from, c.to)
		}
	}
}
