// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package apidoc

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestCheckRequest(t *testing.T) {
	d := MustLoad()
	for _, tc := range []struct {
		name, method, path, body string
		want                     []string // "" : no break
	}{
		{"a documented create", "POST", "/console/v1/gates", `{"name":"checkout","description":"d"}`, nil},
		{"a decision without the group", "PUT", "/console/v1/experiments/e1/make_decision", `{"decisionReason":"won"}`,
			[]string{"PUT /console/v1/experiments/{id}/make_decision", "/console/v1/experiments/e1/make_decision", `property "id" is missing`}},
		{"a start without the body the document requires", "PUT", "/console/v1/experiments/e1/start", ``,
			[]string{"PUT /console/v1/experiments/{id}/start", "body", "required"}},
		{"a field of the wrong type", "POST", "/console/v1/gates", `{"name":"checkout","isEnabled":"yes"}`,
			[]string{"POST /console/v1/gates", "/isEnabled", "boolean"}},
		{"a route the document lacks", "PATCH", "/console/v1/experiments/e1/start", `{}`,
			[]string{"PATCH /console/v1/experiments/e1/start", ErrNotDocumented.Error()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, tc.path, nil)
			r.Header.Set("Content-Type", "application/json")
			err := d.CheckRequest(r, []byte(tc.body))
			if tc.want == nil {
				if err != nil {
					t.Fatalf("a request the document allows breaks it: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("a request the document forbids passed")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the break does not name %q: %v", w, err)
				}
			}
		})
	}
}

func TestCheckResponse(t *testing.T) {
	d := MustLoad()
	for _, tc := range []struct {
		name, method, path string
		status             int
		body               string
		want               []string
	}{
		{"a move answered by a message", "PUT", "/console/v1/experiments/e1/start", 200, `{"message":"Experiment successfully started."}`, nil},
		// The document's moves answer a message alone: an experiment in data is the client's guess.
		{"a move answered with data", "PUT", "/console/v1/experiments/e1/start", 200, `{"message":"ok","data":{"id":"e1"}}`,
			[]string{"answer 200 to PUT /console/v1/experiments/{id}/start", "/data: the document's answer has no such field"}},
		{"a gate without its required fields", "GET", "/console/v1/gates/g1", 200, `{"message":"ok","data":{"id":"g1"}}`,
			[]string{"GET /console/v1/gates/{id}", "/data/isEnabled", "missing"}},
		{"an error in the documented form", "PUT", "/console/v1/experiments/e1/start", 404, `{"status":404,"message":"Experiment not found"}`, nil},
		{"an error in another form", "PUT", "/console/v1/experiments/e1/start", 404, `{"statusCode":404,"error":"Not Found"}`,
			[]string{"answer 404", `property "status" is missing`}},
		{"a status the document does not list", "PUT", "/console/v1/experiments/e1/start", 409, `{"status":409,"message":"conflict"}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, tc.path, nil)
			err := d.CheckResponse(r, []byte(tc.body), tc.status, "application/json")
			if tc.want == nil {
				if err != nil {
					t.Fatalf("an answer the document allows breaks it: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("an answer the document forbids passed")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the break does not name %q: %v", w, err)
				}
			}
		})
	}
}

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

func TestRoute(t *testing.T) {
	d := MustLoad()
	for path, want := range map[string]string{
		"/console/v1/metrics/metric_source/list":                       "GET /console/v1/metrics/metric_source/list",
		"/console/v1/metrics/metric_source/x":                          "GET /console/v1/metrics/metric_source/{name}",
		"/console/v1/experiments/e%2F1":                                "GET /console/v1/experiments/{id}",
		"/console/v1/nothing":                                          "",
		"/console/v1/experiments/e%201/pulse_results?control=a&test=b": "GET /console/v1/experiments/{id}/pulse_results",
		"/console/v1/metrics/metric_source/list?page=1&limit=100":      "GET /console/v1/metrics/metric_source/list",
	} {
		if got := d.Route("GET", path); got != want {
			t.Errorf("Route(GET %s) = %q, want %q", path, got, want)
		}
	}
}

func TestExamples(t *testing.T) {
	d := MustLoad()
	seen := map[string]bool{}
	for _, ex := range d.Examples() {
		if ex.Status < 200 || ex.Status > 299 || ex.Value == nil {
			t.Errorf("%s %d %s: not a 2xx example", ex.Route, ex.Status, ex.Name)
		}
		seen[ex.Route] = true
	}
	for _, r := range []string{"GET /console/v1/gates/{id}", "PUT /console/v1/experiments/{id}/start", "GET /console/v1/experiments/{id}/pulse_results"} {
		if !seen[r] {
			t.Errorf("no example of %s", r)
		}
	}
}
