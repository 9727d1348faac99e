// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"strings"
	"testing"
)

func warehouseMetric(name, source string) map[string]any {
	return map[string]any{
		"name": name, "type": "user_warehouse", "description": "revenue per user", "tags": []any{"checkout"},
		"unitTypes": []any{"userID"},
		"warehouseNative": map[string]any{
			"aggregation": "sum", "metricSourceName": source, "valueColumn": "amount",
			"criteria": []any{map[string]any{"type": "value", "column": "amount", "condition": ">", "values": []any{"0"}}},
		},
	}
}

// Metrics as the document shapes them, every exchange held to it: a dry run stores nothing and
// names a metric source the project lacks; the id is made from name and type; an update keeps
// both; the archive moves answer a message alone and show in reads.
func TestMetrics(t *testing.T) {
	s, c := newClient(t, Config{})
	s.HoldToDocument(t)
	s.PutMetricSource(MetricSource{Name: "orders", SQL: "SELECT 1", TimestampColumn: "ts",
		IDTypeMapping: []IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}}})

	body := warehouseMetric("revenue", "nowhere")
	body["dryRun"] = true
	r := c.do("POST", "/metrics", body)
	expect(t, r, 400)
	if msg, _ := r.Body["message"].(string); !strings.Contains(msg, `Metric source "nowhere" not found`) {
		t.Fatalf("missing source: %s", r.Raw)
	}
	body = warehouseMetric("revenue", "orders")
	body["dryRun"] = true
	expect(t, c.do("POST", "/metrics", body), 200)
	if ids := s.MetricIDs(); len(ids) != 0 {
		t.Fatalf("a dry run stored %v", ids)
	}
	delete(body, "dryRun")
	r = c.do("POST", "/metrics", body)
	expect(t, r, 201)
	if d := r.data(); d["id"] != "revenue::user_warehouse" || d["description"] != "revenue per user" {
		t.Fatalf("create answered %s", r.Raw)
	}
	expect(t, c.do("POST", "/metrics", body), 400) // exists

	for _, bad := range []map[string]any{
		{"name": "has::colons", "type": "sum", "metricEvents": []any{map[string]any{"name": "e"}}},
		{"name": "no events", "type": "event_count_custom"},
		{"name": "no warehouse", "type": "user_warehouse"},
	} {
		if r := c.do("POST", "/metrics", bad); r.Status != 400 {
			t.Errorf("%v: answered %d %s", bad, r.Status, r.Raw)
		}
	}

	r = c.do("POST", "/metrics/revenue::user_warehouse", map[string]any{"description": "changed", "tags": []any{}})
	expect(t, r, 200)
	if m, _ := s.Metric("revenue::user_warehouse"); m.Description != "changed" || len(m.Tags) != 0 || m.WarehouseNative.Aggregation != "sum" {
		t.Fatalf("update: %+v", m)
	}
	expect(t, c.do("POST", "/metrics/revenue::user_warehouse", map[string]any{"name": "renamed"}), 400)

	r = c.do("PUT", "/metrics/revenue::user_warehouse/schedule_archive", nil)
	expect(t, r, 200)
	if _, ok := r.Body["data"]; ok {
		t.Fatalf("the archive move answered data: %s", r.Raw)
	}
	if m, _ := s.Metric("revenue::user_warehouse"); m.ScheduledArchiveTime == nil || m.IsArchived {
		t.Fatalf("scheduled: %+v", m)
	}
	expect(t, c.do("PUT", "/metrics/revenue::user_warehouse/cancel_archive", nil), 200)
	if m, _ := s.Metric("revenue::user_warehouse"); m.ScheduledArchiveTime != nil {
		t.Fatalf("cancelled: %+v", m)
	}
	s.ArchiveMetricNow("revenue::user_warehouse")
	expect(t, c.do("POST", "/metrics/revenue::user_warehouse", map[string]any{"description": "x"}), 400)
	expect(t, c.do("PUT", "/metrics/revenue::user_warehouse/unarchive", nil), 200)
	if m, _ := s.Metric("revenue::user_warehouse"); m.IsArchived {
		t.Fatalf("unarchived: %+v", m)
	}

	r = c.do("GET", "/metrics/list?page=1&limit=10", nil)
	expect(t, r, 200)
	expect(t, c.do("DELETE", "/metrics/revenue::user_warehouse", nil), 200)
	expect(t, c.do("DELETE", "/metrics/revenue::user_warehouse", nil), 404)
	expect(t, c.do("GET", "/metrics/revenue::user_warehouse", nil), 404)
}
