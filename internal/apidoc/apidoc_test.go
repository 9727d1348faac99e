// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package apidoc

import "testing"

// TestNestedExamples: the named examples the document nests under one `example` (GET
// /segments/{id}) come out one by one, by name, each an answer; an example that is an answer, or a
// bare object (the overrides' examples), stays one.
func TestNestedExamples(t *testing.T) {
	var names []string
	for _, ex := range MustLoad().Examples() {
		if ex.Route != "GET /console/v1/segments/{id}" {
			continue
		}
		names = append(names, ex.Name)
		if m, ok := ex.Value.(map[string]any); !ok || !isEnvelope(m) {
			t.Errorf("%q is no answer: %v", ex.Name, ex.Value)
		}
	}
	if len(names) != 2 || names[0] != "id_list" || names[1] != "rule_based" {
		t.Errorf("GET /segments/{id} examples %q, want id_list and rule_based", names)
	}
	for _, v := range []any{
		map[string]any{"message": "ok", "data": map[string]any{"a": map[string]any{"message": "x"}}},
		map[string]any{"failingUserIDs": []any{"u"}, "passingUserIDs": []any{"v"}},
		map[string]any{"a": map[string]any{"message": "x"}, "b": "y"},
		map[string]any{},
	} {
		if _, split := nestedExamples(v); split {
			t.Errorf("%v split into examples", v)
		}
	}
}

// TestRoute names the document's operation for a request path, with its query, and "" for none.
func TestRoute(t *testing.T) {
	d := MustLoad()
	for _, c := range []struct{ method, path, want string }{
		{"GET", "/console/v1/gates/a_gate", "GET /console/v1/gates/{id}"},
		{"GET", "/console/v1/experiments/e%201/pulse_results?control=a&test=b", "GET /console/v1/experiments/{id}/pulse_results"},
		{"GET", "/console/v1/metrics/metric_source/list?page=1&limit=100", "GET /console/v1/metrics/metric_source/list"},
		{"PUT", "/console/v1/gates/g/reviews/r/commit", ""},
	} {
		if got := d.Route(c.method, c.path); got != c.want {
			t.Errorf("Route(%s %s) = %q, want %q", c.method, c.path, got, c.want)
		}
	}
}
