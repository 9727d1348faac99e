// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// ctaReorderedHCL are the groups of ctaGroupsHCL with Control first and a description on it.
const ctaReorderedHCL = `
    { name = "Control", size = 50, parameter_values = jsonencode({ color = "grey", size = 2 }), description = "The grey button" },
    { name = "Green",   size = 50, parameter_values = jsonencode({ color = "green", size = 2 }) },
  `

// sentBody is the body of the last request of the method to the path (with /console/v1) that the
// mock took (2xx), decoded into out.
func sentBody(m *mockconsole.Server, method, path string, out any) error {
	var body []byte
	for _, r := range m.Requests() {
		if r.Method == method && r.Path == path && r.Status/100 == 2 {
			body = r.Body
		}
	}
	if body == nil {
		return fmt.Errorf("no %s %s was taken", method, path)
	}
	return json.Unmarshal(body, out)
}

// What the service refuses of an experiment is refused at plan, at its attribute, in words, with
// nothing sent: a name outside its charset; a targeting gate the console lacks, at create and at
// update; a lower allocation while active; after a decision, changed group sizes and an added
// group. What it takes mid-run applies: groups matched by name, reordered and with a description
// changed while active, and again after the decision.
func TestAccExperiment_refusedAtPlan(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(groups string, lines ...string) string {
		return providerBlock(url) + experimentHCL(groups, lines...)
	}
	const active, gate = `status = "active"`, `targeting_gate_id = "new_checkout"`
	decided := []string{`status = "decision_made"`, `launched_group = "Green"`, `decision_reason = "Green sells more"`, gate, "allocation = 60"}
	var greenID, controlID string
	groupsAre := func(names ...string) resource.TestCheckFunc {
		return expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
			if len(e.Groups) != len(names) {
				return fmt.Errorf("mock holds groups %+v", e.Groups)
			}
			for i, n := range names {
				if e.Groups[i].Name != n {
					return fmt.Errorf("mock holds groups %+v, want %v", e.Groups, names)
				}
			}
			if mockGroupID(e, "Green") != greenID || mockGroupID(e, "Control") != controlID || e.ControlGroupID != controlID {
				return fmt.Errorf("groups lost their ids: %+v", e.Groups)
			}
			return nil
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{
				Config: strings.Replace(cfg(ctaGroupsHCL), `"Checkout CTA"`, `"Checkout CTA (v2)"`, 1),
				ExpectError: wrapped(`name = "Checkout CTA (v2)"`,
					`Attribute name must contain only letters A-Z and a-z, digits, spaces, '_' and '-'`),
			},
			{
				PreConfig: nothingWritten(t, m),
				Config:    cfg(ctaGroupsHCL, `targeting_gate_id = "no_such_gate"`),
				ExpectError: wrapped(`Targeting gate "no_such_gate" not found`, `targeting_gate_id = "no_such_gate"`,
					`Experiment "tfacc_cta" targets gate "no_such_gate" (targeting_gate_id), which the console does not have`,
					"Nothing was sent", "featureconsole_gate.<name>.gate_id"),
			},
			{
				PreConfig: nothingWritten(t, m),
				Config:    cfg(ctaGroupsHCL, active, gate, "allocation = 50"),
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					greenID, controlID = mockGroupID(e, "Green"), mockGroupID(e, "Control")
					if e.Status != mockconsole.ExperimentActive || e.Allocation != 50 || e.TargetingGateID != "new_checkout" {
						return fmt.Errorf("mock holds %+v", e)
					}
					return nil
				}),
			},
			{
				PreConfig: m.ResetRequests,
				Config:    cfg(ctaGroupsHCL, active, gate, "allocation = 40"),
				ExpectError: wrapped("Allocation cannot decrease while the experiment runs", "allocation = 40",
					`Experiment "tfacc_cta" is active with allocation 50: it cannot decrease to 40`, "Nothing was sent"),
			},
			{
				PreConfig:   nothingWritten(t, m),
				Config:      cfg(ctaGroupsHCL, active, `targeting_gate_id = "no_such_gate"`, "allocation = 50"),
				ExpectError: wrapped(`Targeting gate "no_such_gate" not found`, `targeting_gate_id = "no_such_gate"`, "Nothing was sent"),
			},
			{
				// Reordered, a description set, allocation raised: one write the service takes.
				PreConfig: nothingWritten(t, m),
				Config:    cfg(ctaReorderedHCL, active, gate, "allocation = 60"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(experimentAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("groups").AtSliceIndex(0).AtMapKey("id"), knownvalue.NotNull()),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					groupsAre("Control", "Green"),
					expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
						if e.Status != mockconsole.ExperimentActive || e.Allocation != 60 || e.Groups[0].Description != "The grey button" {
							return fmt.Errorf("mock holds %+v", e)
						}
						return nil
					}),
					func(_ *terraform.State) error {
						var sent struct {
							Groups []struct {
								Name        string `json:"name"`
								Description string `json:"description"`
							} `json:"groups"`
						}
						if err := sentBody(m, http.MethodPatch, "/console/v1/experiments/tfacc_cta", &sent); err != nil {
							return err
						}
						if len(sent.Groups) != 2 || sent.Groups[0].Name != "Control" || sent.Groups[0].Description != "The grey button" {
							return fmt.Errorf("the update sent groups %+v", sent.Groups)
						}
						return nil
					},
				),
			},
			{
				Config: cfg(ctaReorderedHCL, decided...),
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					if e.Status != mockconsole.ExperimentDecisionMade || e.LaunchedGroupID != greenID {
						return fmt.Errorf("mock holds %+v", e)
					}
					return nil
				}),
			},
			{
				PreConfig: m.ResetRequests,
				Config:    cfg(strings.Replace(strings.Replace(ctaReorderedHCL, "size = 50", "size = 40", 1), "size = 50", "size = 60", 1), decided...),
				ExpectError: wrapped("Cannot change a decided experiment",
					`Experiment "tfacc_cta" is decision_made: it cannot change groups[0].size of "Control" (50 → 40), groups[1].size of "Green" (50 → 60)`,
					"the groups it was made on stay as they were", "Nothing was sent"),
			},
			{
				PreConfig: nothingWritten(t, m),
				Config: cfg(strings.Replace(ctaReorderedHCL, "size = 50", "size = 30", 1)+
					`{ name = "Blue", size = 20, parameter_values = jsonencode({ color = "blue" }) }`, decided...),
				ExpectError: wrapped("Cannot change a decided experiment", `groups (adds group "Blue")`, "Nothing was sent"),
			},
			{
				// Order and descriptions stay free after the decision.
				PreConfig: nothingWritten(t, m),
				Config:    cfg(ctaGroupsHCL, decided...),
				Check: resource.ComposeAggregateTestCheckFunc(groupsAre("Green", "Control"),
					expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
						if e.Status != mockconsole.ExperimentDecisionMade || e.Groups[1].Description != "" {
							return fmt.Errorf("mock holds %+v", e)
						}
						return nil
					})),
			},
		},
	})
}

// After a move, decision_reason is the service's: a reason without a move, and another reason
// after the decision, fail the plan in words with nothing sent; an omitted one follows the
// service's. remove_targeting = true is sent with the decision, which then ships to everyone (the
// service removes the targeting; the state keeps the gate as configured, and the plan after is
// empty); a change of it after the decision fails the plan.
func TestAccExperiment_decisionReason(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(lines ...string) string { return providerBlock(url) + experimentHCL(ctaGroupsHCL, lines...) }
	const gate, removing = `targeting_gate_id = "new_checkout"`, "remove_targeting = true"
	decide := func(reason string, lines ...string) string {
		return cfg(append([]string{`status = "decision_made"`, `launched_group = "Green"`, `decision_reason = "` + reason + `"`, gate}, lines...)...)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{Config: cfg(`status = "active"`, gate)},
			{
				PreConfig: m.ResetRequests,
				Config:    cfg(`status = "active"`, gate, `decision_reason = "Too early to say"`),
				ExpectError: wrapped("A reason without a decision", `decision_reason = "Too early to say"`,
					`Experiment "tfacc_cta" is active and this plan makes no decision or abandon`, "Nothing was sent"),
			},
			{
				PreConfig: nothingWritten(t, m),
				Config:    decide("Green sells more", removing),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("decision_reason"), knownvalue.StringExact("Green sells more")),
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("targeting_gate_id"), knownvalue.StringExact("new_checkout")),
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("remove_targeting"), knownvalue.Bool(true)),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
						if e.Status != mockconsole.ExperimentDecisionMade || e.DecisionReason != "Green sells more" || e.TargetingGateID != "" {
							return fmt.Errorf("mock holds %s, reason %q, targeting %q", e.Status, e.DecisionReason, e.TargetingGateID)
						}
						return nil
					}),
					expectDecisionSent(m, true),
				),
			},
			{
				PreConfig: m.ResetRequests,
				Config:    decide("Green: +3 % purchases", removing),
				ExpectError: wrapped("A decision's reason cannot change", `decision_reason = "Green: +3 % purchases"`,
					`Experiment "tfacc_cta" is decision_made with the reason "Green sells more"`,
					"The service keeps the reason given with the move", "Nothing was sent", `decision_reason = "Green sells more"`),
			},
			{
				PreConfig:   nothingWritten(t, m),
				Config:      decide("Green sells more", "remove_targeting = false"),
				ExpectError: wrapped("Whom a decision ships to cannot change", "remove_targeting = false", "Nothing was sent"),
			},
			{
				// Omitted, the status, the launched group and the reason follow the service's.
				PreConfig: nothingWritten(t, m),
				Config:    cfg(gate, removing),
				PlanOnly:  true,
			},
		},
	})
}

// By default a decision removes no targeting: removeTargeting false is sent, and the experiment
// keeps its targeting gate (the group ships to the users who pass it).
func TestAccExperiment_decisionKeepsTargeting(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(lines ...string) string {
		return providerBlock(url) + experimentHCL(ctaGroupsHCL, append([]string{`targeting_gate_id = "new_checkout"`}, lines...)...)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{Config: cfg(`status = "active"`)},
			{
				Config: cfg(`status = "decision_made"`, `launched_group = "Green"`, `decision_reason = "Green sells more"`),
				Check: resource.ComposeAggregateTestCheckFunc(
					expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
						if e.Status != mockconsole.ExperimentDecisionMade || e.TargetingGateID != "new_checkout" {
							return fmt.Errorf("mock holds %s, targeting %q", e.Status, e.TargetingGateID)
						}
						return nil
					}),
					expectDecisionSent(m, false),
				),
			},
		},
	})
}

// expectDecisionSent checks the decision the mock took sent removeTargeting as want.
func expectDecisionSent(m *mockconsole.Server, want bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var sent struct {
			RemoveTargeting *bool `json:"removeTargeting"`
		}
		if err := sentBody(m, http.MethodPut, "/console/v1/experiments/tfacc_cta/make_decision", &sent); err != nil {
			return err
		}
		if sent.RemoveTargeting == nil || *sent.RemoveTargeting != want {
			return fmt.Errorf("the decision sent removeTargeting %v, want %t", sent.RemoveTargeting, want)
		}
		return nil
	}
}
