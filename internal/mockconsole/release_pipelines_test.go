// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPipelineCreateAndDelete(t *testing.T) {
	s, c := newClient(t, Config{})
	for body, want := range map[string]string{
		`{"name":" ","phases":[]}`:                                 "name must not be empty",
		`{"name":"x","phases":[{"name":"a","timeIntervalMs":-1}]}`: "phases[0].timeIntervalMs",
		`{"name":"x","phases":[],"id":"pl_new"}`:                   `"id"`,
	} {
		r := c.do("POST", "/release_pipelines", body)
		expect(t, r, 400)
		if !strings.Contains(r.Body["message"].(string), want) {
			t.Errorf("%s: %v lacks %q", body, r.Body["message"], want)
		}
	}
	r := c.do("POST", "/release_pipelines", `{"name":"New","phases":[{"name":"a","timeIntervalMs":5,"rules":[{"name":"r","conditions":[{"type":"public"}]}]}]}`)
	expect(t, r, 200)
	p := r.data()
	id, _ := p["id"].(string)
	ph := p["phases"].([]any)[0].(map[string]any)
	if id == "" || id == "pl_web" || ph["id"] == "" || ph["rules"].([]any)[0].(map[string]any)["id"] == "" {
		t.Fatalf("create gave no fresh ids: %s", r.Raw)
	}
	if got, ok := s.Pipeline(id); !ok || got.Name != "New" || got.CreatedTime == 0 {
		t.Fatalf("stored %+v %v", got, ok)
	}
	// A second create of the same name is another pipeline: names are not unique.
	r = c.do("POST", "/release_pipelines", `{"name":"New","phases":[]}`)
	expect(t, r, 200)
	if r.data()["id"] == id {
		t.Fatal("a second create reused the id")
	}

	// Refused while a gate is attached, then while a run is active; both named.
	g, _ := s.Gate("dark_mode")
	g.ReleasePipelineID = id
	s.PutGate(g)
	r = c.do("DELETE", "/release_pipelines/"+id, nil)
	expect(t, r, 400)
	if msg := r.Body["message"].(string); !strings.Contains(msg, `gate "dark_mode" is attached`) {
		t.Fatalf("attached: %s", msg)
	}
	g.ReleasePipelineID = ""
	s.PutGate(g)
	s.SetRunSpeed(0) // the phase bakes 5 ms: a stopped clock keeps the run in progress however slow the machine
	run, err := s.StartRun(id, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range [][2]string{{"DELETE", ""}, {"POST", `{"name":"x","phases":[]}`}} {
		var body any
		if req[1] != "" {
			body = req[1]
		}
		r = c.do(req[0], "/release_pipelines/"+id, body)
		expect(t, r, 400)
		if msg := r.Body["message"].(string); !strings.Contains(msg, `release pipeline trigger "`+run+`" is in progress`) {
			t.Fatalf("%s while running: %s", req[0], msg)
		}
	}
	if err := s.SetRun(run, RunAborted, "", nil); err != nil {
		t.Fatal(err)
	}
	expect(t, c.do("DELETE", "/release_pipelines/"+id, nil), 200)
	if _, ok := s.Pipeline(id); ok {
		t.Fatal("deleted pipeline still stored")
	}
	expect(t, c.do("DELETE", "/release_pipelines/"+id, nil), 404)
}

func TestPipelinePartialWrites(t *testing.T) {
	s, c := newClient(t, Config{})
	s.SetHabits(Habits{PartialPipelineWrites: true})
	if err := s.ServeOldPipelineWrites("pl_web", true); err != nil {
		t.Fatal(err)
	}
	before, _ := s.Pipeline("pl_web")
	first := before.Phases[0]
	first.Name = "renamed"
	first.Rules = nil
	r := c.do("POST", "/release_pipelines/pl_web", map[string]any{"name": "x", "phases": []any{
		map[string]any{"name": "added", "timeIntervalMs": 0, "requiredReview": false, "rules": []any{}},
		first,
	}})
	expect(t, r, 200)
	got, _ := s.Pipeline("pl_web")
	if len(got.Phases) != len(before.Phases) || got.Phases[0].ID != first.ID || got.Phases[0].Name != "renamed" {
		t.Fatalf("want the held phases only, the first renamed: %+v", got.Phases)
	}
	if len(got.Phases[0].Rules) != len(before.Phases[0].Rules) {
		t.Fatalf("omitted rules were deleted: %+v", got.Phases[0].Rules)
	}
}

func TestConsolePipelineRules(t *testing.T) {
	s, c := newClient(t, Config{})
	s.PutPipeline(Pipeline{ID: "pl_c", Name: "C", Phases: []Phase{{Name: "S", Rules: []PipelineRule{{Name: "r", Environments: []string{},
		Conditions: []Condition{{Type: "public", TargetValue: []any{}}, {Type: "x", Operator: "any", TargetValue: []any{"a"}}, {Type: "y", TargetValue: "b"}}}}}}})
	s.SetHabits(Habits{ConsolePipelineRules: true})
	for _, path := range []string{"/release_pipelines/pl_c", "/release_pipelines"} {
		r := c.do("GET", path, nil)
		expect(t, r, 200)
		if !strings.Contains(string(r.Raw), `"conditions":[{"customID":"","field":"","operator":null,"targetValue":null,"type":"public"},`+
			`{"customID":"","field":"","operator":"any","targetValue":"a","type":"x"},{"customID":"","field":"","operator":null,"targetValue":"b","type":"y"}],"id"`) ||
			path == "/release_pipelines/pl_c" && strings.Contains(string(r.Raw), `"environments"`) {
			t.Fatalf("%s: not in the console's forms: %s", path, r.Raw)
		}
	}
}

func TestPipelines(t *testing.T) {
	s, c := newClient(t, Config{})
	r := c.do("GET", "/release_pipelines/pl_web", nil)
	expect(t, r, 200)
	p := r.data()
	phases := p["phases"].([]any)
	if len(phases) != 2 || p["creatorID"] == "" {
		t.Fatalf("pipeline %s", r.Raw)
	}
	ph0 := phases[0].(map[string]any)
	rule0 := ph0["rules"].([]any)[0].(map[string]any)
	expect(t, c.do("GET", "/release_pipelines/nope", nil), 404)
	expect(t, c.do("POST", "/release_pipelines/nope", `{"name":"x","phases":[]}`), 404)
	expect(t, c.do("GET", "/release_pipelines/pl_mobile", nil), 200)
	expect(t, c.do("GET", "/release_pipelines/pl_api", nil), 200)

	body := map[string]any{
		"name": "Web rollout 2",
		"phases": []any{
			map[string]any{"name": "New first", "timeIntervalMs": 10, "requiredReview": false},
			map[string]any{"id": ph0["id"], "name": "Canary", "timeIntervalMs": 3600000, "requiredReview": true,
				"rules": []any{
					map[string]any{"id": rule0["id"], "name": "internal", "environments": []any{},
						"conditions": []any{map[string]any{"type": "user_id", "operator": "any", "targetValue": []any{"42"}, "field": "", "customID": ""}}},
					map[string]any{"id": "bogus", "name": "other"},
				}},
		},
	}
	r = c.do("POST", "/release_pipelines/pl_web", body)
	expect(t, r, 200)
	p = r.data()
	phases = p["phases"].([]any)
	n0, n1 := phases[0].(map[string]any), phases[1].(map[string]any)
	if n1["id"] != ph0["id"] || n0["id"] == ph0["id"] || n0["id"] == "" {
		t.Fatalf("phase ids %v %v (old %v)", n0["id"], n1["id"], ph0["id"])
	}
	if n0["rules"] == nil || len(n0["rules"].([]any)) != 0 {
		t.Fatalf("absent rules not []: %s", r.Raw)
	}
	nr := n1["rules"].([]any)
	if nr[0].(map[string]any)["id"] != rule0["id"] || nr[1].(map[string]any)["id"] == "bogus" {
		t.Fatalf("rule ids %s", r.Raw)
	}
	if nr[0].(map[string]any)["environments"] != nil {
		t.Fatalf("environments [] not null: %s", r.Raw)
	}
	if c := nr[1].(map[string]any)["conditions"]; c == nil || len(c.([]any)) != 0 {
		t.Fatalf("absent conditions not []: %s", r.Raw)
	}
	if p["lastModifierID"] != "api_key" || p["name"] != "Web rollout 2" || p["createdTime"] != json.Number("1700000000000") {
		t.Fatalf("pipeline %s", r.Raw)
	}

	for body, want := range map[string]string{
		`{"name":"","phases":[]}`:                                                       "name",
		`{"name":"x","phases":[{"name":""}]}`:                                           "phases[0].name",
		`{"name":"x","phases":[{"name":"a","timeIntervalMs":-1}]}`:                      "phases[0].timeIntervalMs",
		`{"name":"x","phases":[{"name":"a","timeIntervalMs":1.5}]}`:                     "timeIntervalMs",
		`{"name":"x","phases":[{"name":"a","rules":[{"name":"r","conditions":[{}]}]}]}`: "phases[0].rules[0].conditions[0].type",
		`{"name":"x","phases":[],"id":"pl_web"}`:                                        `"id"`,
	} {
		r := c.do("POST", "/release_pipelines/pl_web", body)
		expect(t, r, 400)
		if !strings.Contains(r.Body["message"].(string), want) {
			t.Errorf("%s: %v lacks %q", body, r.Body["message"], want)
		}
	}

	s.LockPipeline("pl_web", true)
	r = c.do("POST", "/release_pipelines/pl_web", `{"name":"x","phases":[]}`)
	expect(t, r, 400)
	if r.Body["message"] != `Cannot modify release pipeline "pl_web": a rollout is in progress` {
		t.Fatalf("locked: %v", r.Body["message"])
	}
	s.LockPipeline("pl_web", false)
	expect(t, c.do("POST", "/release_pipelines/pl_web", `{"name":"x","phases":[]}`), 200)

	s.PutPipeline(Pipeline{ID: "pl_t", Name: "t", Phases: []Phase{{Name: "a", Rules: []PipelineRule{{Name: "r"}}}}})
	pt, _ := s.Pipeline("pl_t")
	if pt.Phases[0].ID == "" || pt.Phases[0].Rules[0].ID == "" {
		t.Fatalf("PutPipeline ids: %+v", pt)
	}
	s.DeletePipeline("pl_t")
	expect(t, c.do("GET", "/release_pipelines/pl_t", nil), 404)
}
