// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// controlBlue names a control group the examples do not have.
const controlBlue = `control_group = "Blue"`

// Every bad input fails at plan, at its attribute, saying what to write, and nothing is sent.
func TestAccExperiment_badInput(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cases := []struct {
		groups string
		lines  []string
		want   *regexp.Regexp
	}{
		{strings.Replace(ctaGroupsHCL, "size = 50", "size = 40", 1), nil,
			wrapped("Group sizes do not sum to 100", "these sum to 90")},
		{strings.Replace(ctaGroupsHCL, `name = "Green"`, `name = "Control"`, 1), nil,
			wrapped("Duplicate group name", `groups[0] and groups[1] are both named "Control"`)},
		{`{ name = "Control", size = 100, parameter_values = "{}" }`, nil, errRe("groups list must contain at least 2 elements")},
		{ctaGroupsHCL, []string{controlBlue}, wrapped("No such group", `control_group = "Blue" names no group of the experiment; its groups are "Control", "Green"`)},
		{ctaGroupsHCL, []string{`status = "decision_made"`, `launched_group = "Blue"`, `decision_reason = "x"`},
			wrapped(`launched_group = "Blue" names no group`)},
		{ctaGroupsHCL, []string{`launched_group = "Green"`}, wrapped("Launched group without a decision", "would stand setup", `status = "decision_made"`)},
		// Shown on the group's line, not on the experiment's own description or name.
		{strings.Replace(ctaGroupsHCL, `size = 2 }) },`, `size = 2 }), description = "" },`, 1), []string{`description = "About the CTA"`},
			wrapped("Empty value", `description = "" },`, "Attribute groups[0].description must not be empty")},
		{strings.Replace(ctaGroupsHCL, `name = "Green"`, `name = " "`, 1), nil,
			wrapped("Empty value", `{ name = " ",`, "Attribute groups[0].name must not be empty")},
		{ctaGroupsHCL, []string{`status = "decision_made"`, `launched_group = "Green"`}, wrapped("Decision without a reason", "decision_reason")},
		{ctaGroupsHCL, []string{`status = "abandoned"`}, wrapped("Decision without a reason", `status = "abandoned" needs decision_reason`, `"Too little traffic to measure"`)},
		{ctaGroupsHCL, []string{`status = "decision_made"`, `decision_reason = "x"`}, wrapped("Decision without a launched group")},
		{ctaGroupsHCL, []string{`status = "decision_made"`, `launched_group = "Green"`, `decision_reason = "x"`},
			wrapped(`Experiment "tfacc_cta" does not exist yet and cannot be created decision_made`, `create it with status = "active"`)},
		{ctaGroupsHCL, []string{`status = "experiment_stopped"`}, wrapped(`cannot be created experiment_stopped: only the console or the service`)},
		{strings.Replace(ctaGroupsHCL, `jsonencode({ color = "green", size = 2 })`, `"green"`, 1), nil,
			wrapped("Parameter values are not a JSON object", "groups[0].parameter_values must be a JSON object, written with jsonencode({...})", "which is not JSON")},
		{strings.Replace(ctaGroupsHCL, `jsonencode({ color = "green", size = 2 })`, `jsonencode(["green"])`, 1), nil,
			wrapped("Parameter values are not a JSON object", "which is JSON but not an object")},
		{ctaGroupsHCL, []string{"allocation = 101"}, wrapped("Allocation out of range", "allocation must be between 0 and 100, got 101")},
		{ctaGroupsHCL, []string{"allocation = -1"}, wrapped("Allocation out of range")},
		{strings.Replace(ctaGroupsHCL, "size = 50", "size = 49.999", 1), nil, wrapped("Too many decimals in group size")},
		{ctaGroupsHCL, []string{`status = "running"`}, errRe(`value must be one of`)},
		{ctaGroupsHCL, []string{"duration = 1"}, errRe("duration value must be at least 2")},
	}
	var steps []resource.TestStep
	for _, c := range cases {
		cfg := experimentHCL(c.groups, c.lines...)
		if slices.Contains(c.lines, controlBlue) {
			cfg = strings.Replace(cfg, `control_group   = "Control"`, "", 1)
		}
		steps = append(steps, resource.TestStep{
			Config:      providerBlock(url) + cfg,
			ExpectError: c.want,
		})
	}
	steps = append(steps, resource.TestStep{
		Config: providerBlock(url),
		Check:  func(*terraform.State) error { return noStoredWrite(m) },
	})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
	if ids := m.ExperimentIDs(); len(ids) != 0 {
		t.Errorf("bad input created %v", ids)
	}
}

// Groups are matched by name: reordered, or with a description changed, they change nothing the
// service freezes mid-run (the write still sends them: sameGroupContent tells them apart).
func TestGroupChangesMatchByName(t *testing.T) {
	ctx := context.Background()
	a := groupList(t, group("Control", 50, `{"color":"grey"}`), group("Green", 50, `{"color":"green"}`))
	described := group("Control", 50, `{"color":"grey"}`)
	described.Description = types.StringValue("The grey button")
	for name, other := range map[string]types.List{
		"order":       groupList(t, group("Green", 50, `{"color":"green"}`), group("Control", 50, `{"color":"grey"}`)),
		"description": groupList(t, described, group("Green", 50, `{"color":"green"}`)),
	} {
		if changes := groupChanges(ctx, other, a); len(changes) != 0 {
			t.Errorf("a change of %s is frozen: %q", name, changes)
		}
		if sameGroupContent(ctx, a, other) {
			t.Errorf("a change of %s writes nothing", name)
		}
	}
}

// A lower allocation of an active experiment is refused at allocation; a higher one, or a lower
// one in setup, is not.
func TestAllocationLowered(t *testing.T) {
	model := func(status string, allocation float64) experimentModel {
		var m experimentModel
		m.Status, m.Allocation = types.StringValue(status), framework.NumberFromFloat(allocation)
		return m
	}
	for _, c := range []struct {
		status   string
		from, to float64
		refused  bool
	}{{"active", 50, 40, true}, {"active", 50, 49.99, true}, {"active", 50, 60, false}, {"active", 50, 50, false}, {"setup", 50, 40, false}} {
		var diags diag.Diagnostics
		allocationLowered("cta", model(c.status, c.to), model(c.status, c.from), &diags)
		if diags.HasError() != c.refused || c.refused && !strings.Contains(diagText(diags), "cannot decrease") {
			t.Errorf("%s %v → %v: %s", c.status, c.from, c.to, diagText(diags))
		}
	}
}

// A reason the apply would not send is refused: another than the one the move recorded, or one
// without a move; the reason sent with a move, or the one held, is not.
func TestUnsentReason(t *testing.T) {
	model := func(status, reason string) experimentModel {
		var m experimentModel
		m.Status, m.DecisionReason = types.StringValue(status), types.StringNull()
		if reason != "" {
			m.DecisionReason = types.StringValue(reason)
		}
		return m
	}
	for _, c := range []struct {
		from, to, held, said string
		want                 string
	}{
		{"decision_made", "decision_made", "Green sells", "Green wins", "The service keeps the reason given with the move"},
		{"decision_made", "decision_made", "Green sells", "Green sells", ""},
		{"decision_made", "decision_made", "Green sells", "", ""},
		{"active", "active", "", "Too early", "A reason without a decision"},
		{"active", "decision_made", "", "Green wins", ""},
		{"active", "abandoned", "", "No traffic", ""},
		{"abandoned", "abandoned", "No traffic", "Too little traffic", `is abandoned with the reason "No traffic"`},
	} {
		var diags diag.Diagnostics
		plan := model(c.to, c.said)
		if c.said == "" {
			plan.DecisionReason = types.StringValue(c.held)
		}
		unsentReason("cta", model(c.to, c.said), plan, model(c.from, c.held), c.from != c.to, &diags)
		text := diagText(diags)
		if c.want == "" && diags.HasError() || c.want != "" && (!strings.Contains(text, c.want) || !strings.Contains(text, "Nothing was sent")) {
			t.Errorf("%s → %s, %q then %q: %s", c.from, c.to, c.held, c.said, text)
		}
	}
}

// checkParameterValues: text that is not JSON and JSON that is not an object are both refused with
// how to write the values; an object passes.
func TestCheckParameterValues(t *testing.T) {
	for value, want := range map[string]string{`green`: "which is not JSON", `["a"]`: "which is JSON but not an object", `{"a":1}`: ""} {
		var diags diag.Diagnostics
		checkParameterValues(types.StringValue(value), groupsPath.AtListIndex(0).AtName("parameter_values"), &diags)
		text := diagText(diags)
		if want == "" && diags.HasError() || want != "" && (!strings.Contains(text, want) || !strings.Contains(text, "jsonencode({...})")) {
			t.Errorf("%s: %s", value, text)
		}
	}
}

// refuseArchivingRunning: a destroy that archive_on_destroy makes archive needs an abandon first
// where the experiment runs; assignment_stopped takes none, and says to decide first.
func TestRefuseArchivingRunning(t *testing.T) {
	for _, c := range []struct {
		status, reason, want string
	}{
		{"setup", "", ""}, {"decision_made", "", ""}, {"abandoned", "", ""},
		{"active", "Stopped early", ""},
		{"active", "", "set abandon_reason_on_destroy"},
		{"experiment_stopped", "", "set abandon_reason_on_destroy"},
		{"assignment_stopped", "Stopped early", `make a decision first (status = "decision_made")`},
	} {
		state := experimentModel{ArchiveOnDestroy: types.BoolValue(true), Archived: types.BoolValue(false),
			AbandonReasonOnDestroy: types.StringNull(), experimentFields: experimentFields{
				ExperimentID: types.StringValue("cta"), Status: types.StringValue(c.status)}}
		if c.reason != "" {
			state.AbandonReasonOnDestroy = types.StringValue(c.reason)
		}
		var diags diag.Diagnostics
		refuseArchivingRunning(state, "destroy", &diags)
		got := ""
		if diags.HasError() {
			got = diags.Errors()[0].Detail()
		}
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s, reason %q: %q", c.status, c.reason, got)
		}
	}
}

// protectedDefault is a line that leaves deletion_protection to its default (experimentHCL sets it
// false unless a line names it).
const protectedDefault = "# deletion_protection left to its default"

// A started experiment is never deleted by surprise: with deletion_protection left to its default,
// its destroy and its replacement (a changed experiment_id) fail at plan, naming it and its
// results, with nothing sent; with deletion_protection = false the replacement plans and the
// destroy deletes it.
func TestAccExperiment_deletionProtection(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(lines ...string) string {
		return providerBlock(url) + experimentHCL(ctaGroupsHCL, append([]string{`status = "active"`}, lines...)...)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{Config: cfg(protectedDefault), Check: resource.TestCheckResourceAttr(experimentAddr, "deletion_protection", "true")},
			{
				PreConfig: m.ResetRequests,
				Config:    providerBlock(url),
				ExpectError: wrapped(`Experiment "tfacc_cta" is protected from deletion`, `Experiment "tfacc_cta" is active.`,
					"Destroying it would delete it and its results. Nothing was sent.", "archive_on_destroy = true",
					"deletion_protection = false and apply first"),
			},
			{
				PreConfig: nothingWritten(t, m),
				Config:    strings.Replace(cfg(protectedDefault), `"tfacc_cta"`, `"tfacc_cta_v2"`, 1),
				ExpectError: wrapped(`Experiment "tfacc_cta" is protected from deletion`,
					"Changing experiment_id replaces it: that would delete it and its results. Nothing was sent.",
					"declare a new featureconsole_experiment block"),
			},
			{
				PreConfig:          nothingWritten(t, m),
				Config:             strings.Replace(cfg(), `"tfacc_cta"`, `"tfacc_cta_v2"`, 1),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				PreConfig: nothingWritten(t, m),
				Config:    cfg(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(experimentAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.TestCheckResourceAttr(experimentAddr, "deletion_protection", "false"),
			},
		},
	})
}

// Parameter values are compared as JSON: written as other JSON text (5.0 for 5, keys reordered,
// spacing) they plan nothing, on a running experiment and on its import.
func TestAccExperiment_parameterValuesAsJSON(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	other := strings.NewReplacer(`jsonencode({ color = "green", size = 2 })`, `"{ \"size\": 2.0, \"color\": \"green\" }"`,
		`jsonencode({ color = "grey", size = 2 })`, `"{\"size\":2e0,\"color\":\"grey\"}"`).Replace(ctaGroupsHCL)
	cfg := func(groups string, lines ...string) string {
		return providerBlock(url) + experimentHCL(groups, append([]string{`status = "active"`}, lines...)...)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{Config: cfg(ctaGroupsHCL)},
			{
				PreConfig:        m.ResetRequests,
				Config:           cfg(other),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				// The document's example reads name no control group: an import under them takes the
				// first group for it (the control here is second), which this step is not about.
				SkipFunc:      func() (bool, error) { return envHabits(t).ExampleForms, nil },
				PreConfig:     nothingWritten(t, m),
				Config:        cfg(other, protectedDefault),
				ResourceName:  experimentAddr,
				ImportState:   true,
				ImportStateId: "tfacc_cta", ImportStateKind: resource.ImportBlockWithID,
			},
			{Config: cfg(other), PlanOnly: true},
		},
	})
}

// The statuses the service sets itself read and plan cleanly: an experiment the service stopped
// (experiment_stopped) plans empty with its status omitted or said; a decision from there applies
// and the plan after is empty; moving to a status only the service sets fails at plan.
func TestAccExperiment_stoppedByTheService(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(lines ...string) string { return providerBlock(url) + experimentHCL(ctaGroupsHCL, lines...) }
	stop := func() {
		e, _ := m.Experiment("tfacc_cta")
		e.Status = mockconsole.ExperimentStopped
		m.PutExperiment(e)
		m.ResetRequests()
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{Config: cfg(`status = "active"`)},
			{
				PreConfig:   m.ResetRequests,
				Config:      cfg(`status = "experiment_stopped"`),
				ExpectError: wrapped(`Experiment "tfacc_cta" is active and cannot move to experiment_stopped: only the service stops an experiment`),
			},
			{
				PreConfig:        func() { nothingWritten(t, m)(); stop() },
				Config:           cfg(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{Config: cfg(`status = "experiment_stopped"`), PlanOnly: true},
			{
				Config: cfg(`status = "decision_made"`, `launched_group = "Green"`, `decision_reason = "Green sells more"`),
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					if e.Status != mockconsole.ExperimentDecisionMade || e.LaunchedGroupID != mockGroupID(e, "Green") {
						return fmt.Errorf("mock holds %s, launched %q", e.Status, e.LaunchedGroupID)
					}
					return nil
				}),
			},
		},
	})
}

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
