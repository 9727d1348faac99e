// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
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
