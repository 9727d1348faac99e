// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

func groupList(t *testing.T, groups ...experimentGroupModel) types.List {
	t.Helper()
	l, d := types.ListValueFrom(context.Background(), experimentGroupType, groups)
	if d.HasError() {
		t.Fatal(d)
	}
	return l
}

func group(name string, size float64, values string) experimentGroupModel {
	return experimentGroupModel{ID: types.StringUnknown(), Name: types.StringValue(name), Size: framework.NumberFromFloat(size),
		ParameterValues: framework.NewJSONValue(values), Description: types.StringNull()}
}

// The service's experiment, in the live forms (float noise, values in another key order and
// spacing), reads as the configuration wrote it: sizes at two decimals, a group's values keeping
// the prior text that means the same, groups and their control and launched group by name, times
// null until set.
func TestFlattenExperiment(t *testing.T) {
	ctx := context.Background()
	e := &console.Experiment{
		ID: "cta", Name: "CTA", Status: console.ExperimentDecisionMade, Allocation: 33.330000000000005, Duration: new(console.WholeNumber(14)),
		Groups: []console.ExperimentGroup{
			{ID: "g1", Name: "Green", Size: 66.67, ParameterValues: console.JSONObject(`{ "size": 2.0, "color": "green" }`)},
			{ID: "g2", Name: "Control", Size: 33.330000000000005, ParameterValues: nil},
		},
		ControlGroupID: "g2", LaunchedGroupID: "g1", DecisionReason: "Green wins",
		StartTime: console.Millis{Value: 1700000000000, Set: true}, DecisionTime: console.Millis{Value: 1700000100000, Set: true},
		PrimaryMetrics: []console.ExperimentMetric{{Name: "purchase", Type: "event_count"}},
	}
	m := experimentFields{Groups: groupList(t, group("Green", 66.67, `{"color":"green","size":2}`))}
	flattenExperiment(ctx, e, &m)
	groups, _ := framework.ListModels[experimentGroupModel](ctx, m.Groups)
	if len(groups) != 2 || groups[0].ID.ValueString() != "g1" || groups[0].ParameterValues.ValueString() != `{"color":"green","size":2}` ||
		groups[1].ParameterValues.ValueString() != `{}` || groups[1].Size.ValueBigFloat().Text('f', -1) != "33.33" {
		t.Errorf("groups %+v", groups)
	}
	if m.Allocation.ValueBigFloat().Text('f', -1) != "33.33" || m.ControlGroup.ValueString() != "Control" || m.LaunchedGroup.ValueString() != "Green" ||
		m.LaunchedGroupID.ValueString() != "g1" || !m.EndTime.IsNull() || m.StartTime.ValueInt64() != 1700000000000 || !m.TargetingGateID.IsNull() {
		t.Errorf("flattened %+v", m)
	}
	if m.Duration.ValueInt64() != 14 || !m.AnalyticsType.IsNull() {
		t.Errorf("duration %s, analytics type %s", m.Duration, m.AnalyticsType)
	}
	// A duration left out or null (a target set by exposures) is null, never a 0 that the
	// attribute's own validator (at least 2) would refuse in generated configuration.
	e.Duration = nil
	flattenExperiment(ctx, e, &m)
	if !m.Duration.IsNull() {
		t.Errorf("a duration left out reads as %s", m.Duration)
	}
	metrics, _ := framework.ListModels[experimentMetricModel](ctx, m.PrimaryMetrics)
	if len(metrics) != 1 || !metrics[0].Direction.IsNull() {
		t.Errorf("metrics %+v", metrics)
	}

	// What a write sends is what the service holds, read back: experimentHolds recognises it.
	f := console.ExperimentFields{ID: "cta", Name: new("CTA"), Groups: &[]console.ExperimentGroup{
		{Name: "Green", Size: 66.67, ParameterValues: console.JSONObject(`{"color":"green","size":2}`)}, {Name: "Control", Size: 33.33, ParameterValues: console.JSONObject(`{}`)}}}
	if !experimentHolds(e, f) {
		t.Error("the experiment as sent is not recognised")
	}
	(*f.Groups)[1].Size = 33
	if experimentHolds(e, f) {
		t.Error("another size is recognised")
	}
}

// Groups go out in the configuration's order with their values compacted; an update sends the
// groups only when their content changed, by meaning.
func TestExpandAndChangeGroups(t *testing.T) {
	ctx := context.Background()
	a := groupList(t, group("Control", 50, `{ "color": "grey" }`), group("Green", 50, `{"color":"green"}`))
	models, _ := framework.ListModels[experimentGroupModel](ctx, a)
	out := expandGroups(models)
	if len(out) != 2 || out[0].Name != "Control" || string(out[0].ParameterValues) != `{"color":"grey"}` || out[1].Size != 50 {
		t.Fatalf("expanded %+v", out)
	}
	same := groupList(t, group("Control", 50.0, `{"color":"grey"}`), group("Green", 50, `{"color": "green"}`))
	if !sameGroupContent(ctx, a, same) {
		t.Error("the same groups written differently differ")
	}
	for name, other := range map[string]types.List{
		"size":  groupList(t, group("Control", 40, `{"color":"grey"}`), group("Green", 60, `{"color":"green"}`)),
		"value": groupList(t, group("Control", 50, `{"color":"grey"}`), group("Green", 50, `{"color":"lime"}`)),
		"order": groupList(t, group("Green", 50, `{"color":"green"}`), group("Control", 50, `{"color":"grey"}`)),
	} {
		if sameGroupContent(ctx, a, other) {
			t.Errorf("a change of %s is the same", name)
		}
	}
	changes := groupChanges(ctx, groupList(t, group("Control", 40, `{"color":"grey"}`), group("Blue", 60, `{}`)), a)
	want := []string{`groups[0].size of "Control" (50 → 40)`, `groups (adds group "Blue")`, `groups (removes group "Green")`}
	if strings.Join(changes, "; ") != strings.Join(want, "; ") {
		t.Errorf("changes %q", changes)
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

// After a decision that removed the targeting, the service holds no gate: the state keeps the one
// configured. Without remove_targeting, or before a decision, the service's word stands.
func TestKeepRemovedTargeting(t *testing.T) {
	prior := experimentFields{TargetingGateID: types.StringValue("new_checkout")}
	for _, c := range []struct {
		remove bool
		status string
		want   types.String
	}{{true, "decision_made", types.StringValue("new_checkout")}, {false, "decision_made", types.StringNull()}, {true, "active", types.StringNull()}} {
		m := experimentFields{Status: types.StringValue(c.status), TargetingGateID: types.StringNull()}
		keepRemovedTargeting(prior, types.BoolValue(c.remove), &m)
		if !m.TargetingGateID.Equal(c.want) {
			t.Errorf("remove %t, %s: %s", c.remove, c.status, m.TargetingGateID)
		}
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

// flattenAnalysis: a setting the answer holds is read, false included; one it leaves out (the
// document's example leaves out sequentialTesting) keeps the value the model holds, null where it
// holds none.
func TestFlattenAnalysis(t *testing.T) {
	var e console.Experiment
	if err := e.UnmarshalJSON([]byte(`{"id":"cta","bonferroniCorrection":false,"defaultConfidenceInterval":"95"}`)); err != nil {
		t.Fatal(err)
	}
	m := experimentAnalysis{SequentialTesting: types.BoolValue(true), BonferroniCorrection: types.BoolValue(true),
		BenjaminiHochbergPerMetric: types.BoolUnknown(), DefaultConfidenceInterval: types.Int64Unknown()}
	flattenAnalysis(&e, &m)
	if !m.SequentialTesting.ValueBool() || m.BonferroniCorrection.ValueBool() || !m.BenjaminiHochbergPerMetric.IsNull() ||
		m.DefaultConfidenceInterval.ValueInt64() != 95 {
		t.Errorf("read %+v", m)
	}
}
