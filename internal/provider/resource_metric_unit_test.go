// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// A metric as the listing's example shows one: an id that is not its name's, an event without a
// type, an empty list of criteria and a criterion's empty column. The id is read, never made from
// the name; what is empty reads as none.
func TestFlattenMetricDocumentedForms(t *testing.T) {
	var obj console.Metric
	if err := json.Unmarshal([]byte(`{"id":"___RENAME_FAILED___::composite_sum","name":"rename_test_success","type":"composite_sum",
		"directionality":"increase","tags":["dashboard_test"],"team":null,"unitTypes":["userID"],
		"metricEvents":[{"name":"add_to_cart","criteria":[{"type":"value","column":"","condition":"in","values":["sports"]}]},{"name":"view","criteria":[]}],
		"metricComponentMetrics":[{"name":"add_to_cart_games","type":"event_count_custom"}]}`), &obj); err != nil {
		t.Fatal(err)
	}
	var m metricFields
	flattenMetric(&obj, &m)
	if m.ID.ValueString() != "___RENAME_FAILED___::composite_sum" || m.Name.ValueString() != "rename_test_success" {
		t.Errorf("id %s, name %s", m.ID, m.Name)
	}
	if m.Description.ValueString() != "" || !m.Team.IsNull() || m.Status.ValueString() != "active" || !m.WarehouseNative.IsNull() {
		t.Errorf("description %s, team %s, status %s, warehouse %s", m.Description, m.Team, m.Status, m.WarehouseNative)
	}
	events, d := listModelsOf[metricEventModel](m.MetricEvents)
	if d.HasError() || len(events) != 2 || !events[0].Type.IsNull() || !events[1].Criteria.IsNull() {
		t.Fatalf("events %v (%v)", m.MetricEvents, d)
	}
	criteria, _ := listModelsOf[metricCriterionModel](events[0].Criteria)
	if len(criteria) != 1 || !criteria[0].Column.IsNull() || criteria[0].Condition.ValueString() != "in" {
		t.Errorf("criteria %v", events[0].Criteria)
	}
	// What the configuration generated from it would write is what the service holds.
	f, diags := expandMetric(context.Background(), m)
	if diags.HasError() || !sameMetricFields(f, metricFieldsOf(context.Background(), &obj)) {
		t.Errorf("round trip: %+v (%v)", f, diags)
	}
}

func listModelsOf[T any](l types.List) ([]T, diag.Diagnostics) {
	return framework.ListModels[T](context.Background(), l)
}

// A read without a description keeps the one in state (the document's metric has none); with one,
// the service's word stands.
func TestFlattenMetricDescription(t *testing.T) {
	m := metricFields{Description: types.StringValue("revenue per user")}
	flattenMetric(&console.Metric{ID: "r::sum", Name: "r", Type: "sum"}, &m)
	if m.Description.ValueString() != "revenue per user" {
		t.Errorf("kept %s", m.Description)
	}
	flattenMetric(&console.Metric{ID: "r::sum", Name: "r", Type: "sum", Description: new("changed")}, &m)
	if m.Description.ValueString() != "changed" {
		t.Errorf("read %s", m.Description)
	}
	var imported metricFields
	flattenMetric(&console.Metric{ID: "r::sum", Name: "r", Type: "sum"}, &imported)
	if imported.Description.ValueString() != "" || imported.ID.ValueString() != "r::sum" {
		t.Errorf("imported %s %s", imported.Description, imported.ID)
	}
}

// Two bodies are the same by meaning: tags and unit types in any order, absent fields as the
// service's defaults; a create answered without a description, or without the unit types the
// configuration left to the service, holds what was sent.
func TestSameMetricFields(t *testing.T) {
	a := console.MetricFields{Name: "r", Type: "sum", Tags: []string{"b", "a"}, UnitTypes: []string{"stableID", "userID"}, Team: new("")}
	b := console.MetricFields{Tags: []string{"a", "b"}, UnitTypes: []string{"userID", "stableID"}, Directionality: "increase",
		Description: new(""), IsVerified: new(false)}
	if !sameMetricFields(a, b) {
		t.Error("the same metric compared different")
	}
	b.Description = new("x")
	if sameMetricFields(a, b) {
		t.Error("a description change compared the same")
	}
	sent := console.MetricFields{Name: "r", Type: "sum", Description: new("d"), Directionality: "increase", Tags: []string{},
		MetricEvents: []console.MetricEvent{{Name: "purchase"}}}
	got := &console.Metric{ID: "r::sum", Name: "r", Type: "sum", Directionality: "increase", UnitTypes: []string{"userID"},
		MetricEvents: []console.MetricEvent{{Name: "purchase"}}}
	if !metricHolds(context.Background(), got, sent) {
		t.Error("a create read back without a description does not hold what was sent")
	}
	got.MetricEvents[0].Name = "refund"
	if metricHolds(context.Background(), got, sent) {
		t.Error("another metric holds what was sent")
	}
}

func TestMetricNameAccepted(t *testing.T) {
	for name, want := range map[string]bool{"revenue": true, "Revenue per user_2-b": true, "rev": false, "    ": false,
		"a::b c": false, "[LOCAL] Time Spent": false, "revenue (EUR)": false} {
		if got := metricNameAccepted(name); got != want {
			t.Errorf("%q accepted %v, want %v", name, got, want)
		}
	}
}
