// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/hashicorp/terraform-plugin-framework/types"
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

// flattenAnalysis: a setting the answer holds is read, false included; one it leaves out (the
// document's example leaves out sequentialTesting) keeps the value the model holds, null where it
// holds none.
func TestFlattenAnalysis(t *testing.T) {
	var e console.Experiment
	if err := json.Unmarshal([]byte(`{"id":"cta","bonferroniCorrection":false,"defaultConfidenceInterval":"95"}`), &e); err != nil {
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
