// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

func tagSet(tags ...string) types.Set {
	vals := make([]attr.Value, len(tags))
	for i, t := range tags {
		vals[i] = types.StringValue(t)
	}
	return types.SetValueMust(types.StringType, vals)
}

func body(t *testing.T, f console.GateFields) string {
	t.Helper()
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A create sends the id and what the configuration set; what it left out (unknown in the plan of a
// create) is left out for the service to choose.
func TestGateFieldsFrom(t *testing.T) {
	ctx := context.Background()
	m := gateModel{gateFields: gateFields{
		GateID: types.StringValue("g_1"), Name: types.StringUnknown(), Description: types.StringValue(""),
		IsEnabled: types.BoolValue(false), Tags: types.SetUnknown(types.StringType), Type: types.StringValue("TEMPORARY"),
		IDType: types.StringUnknown(), ReleasePipelineID: types.StringNull(),
	}}
	f, diags := gateFieldsFrom(ctx, m)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if got, want := body(t, f), `{"id":"g_1","description":"","isEnabled":false,"type":"TEMPORARY"}`; got != want {
		t.Errorf("create body %s, want %s", got, want)
	}
	m.Tags = tagSet()
	f, _ = gateFieldsFrom(ctx, m)
	if got, want := body(t, f), `{"id":"g_1","description":"","isEnabled":false,"tags":[],"type":"TEMPORARY"}`; got != want {
		t.Errorf("create body with tags = [] %s, want %s", got, want)
	}
}

// An update sends what changed and nothing else; a pipeline the plan no longer names is detached.
func TestGateChanges(t *testing.T) {
	ctx := context.Background()
	state := gateModel{gateFields: gateFields{
		GateID: types.StringValue("g_1"), Name: types.StringValue("G one"), Description: types.StringValue("d"),
		IsEnabled: types.BoolValue(true), Tags: tagSet("a", "b"), Type: types.StringValue("PERMANENT"),
		IDType: types.StringValue("userID"), ReleasePipelineID: types.StringValue("pl_1"),
	}}
	plan := state
	f, _ := gateChanges(ctx, plan, state)
	if !emptyGateFields(f) {
		t.Errorf("no change sends %s", body(t, f))
	}
	plan.Tags = tagSet("b", "a")
	if f, _ = gateChanges(ctx, plan, state); !emptyGateFields(f) {
		t.Errorf("the same tags in another order send %s", body(t, f))
	}
	plan.Description = types.StringValue("new")
	plan.ReleasePipelineID = types.StringNull()
	plan.Tags = tagSet()
	f, _ = gateChanges(ctx, plan, state)
	if got, want := body(t, f), `{"description":"new","tags":[],"releasePipelineID":null}`; got != want {
		t.Errorf("update body %s, want %s", got, want)
	}
}

// A gate read back after a lost create answer is this apply's own only if it holds what was sent.
func TestGateHolds(t *testing.T) {
	sent := console.GateFields{ID: "g_1", Name: new("G one"), IsEnabled: new(false), Tags: &[]string{"b", "a"}}
	g := &console.Gate{ID: "g_1", Name: "G one", Tags: []string{"a", "b"}, Type: "PERMANENT", Description: "any"}
	if !gateHolds(g, sent) {
		t.Error("the gate as sent (with the service's defaults for the rest) does not hold it")
	}
	for name, edit := range map[string]func(*console.Gate){
		"name":    func(g *console.Gate) { g.Name = "Other" },
		"enabled": func(g *console.Gate) { g.IsEnabled = true },
		"tags":    func(g *console.Gate) { g.Tags = []string{"a"} },
		"id":      func(g *console.Gate) { g.ID = "g_2" },
	} {
		other := *g
		edit(&other)
		if gateHolds(&other, sent) {
			t.Errorf("a gate with another %s holds what was sent", name)
		}
	}
}

// What the service leaves out or sends as null reads as none: no pipeline is null, no tags [].
func TestFlattenGateFields(t *testing.T) {
	var m gateModel
	flattenGateFields(&console.Gate{ID: "g_1", Name: "g_1", IsEnabled: true, Type: "PERMANENT", IDType: "userID",
		CreatedTime: 1700000000000}, &m)
	if !m.ReleasePipelineID.IsNull() || m.Tags.IsNull() || len(m.Tags.Elements()) != 0 || m.Description.ValueString() != "" ||
		m.ID.ValueString() != "g_1" || m.CreatedTime.ValueInt64() != 1700000000000 {
		t.Errorf("flattened %+v", m)
	}
	flattenGateFields(&console.Gate{ID: "g_1", ReleasePipelineID: "pl_1", Tags: []string{"x"}}, &m)
	if m.ReleasePipelineID.ValueString() != "pl_1" || !m.Tags.Equal(tagSet("x")) {
		t.Errorf("flattened %+v", m)
	}
}
