// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"net/http"
	"strings"
	"testing"
)

const checkoutSchema = `{"type":"object","required":["title"],"properties":{"title":{"type":"string"},"max_items":{"type":"integer","minimum":1}}}`

// schemaString is a schema as a write carries it: a JSON string holding its text.
func schemaString(schema string) string { return string(marshal(schema)) }

func TestDynamicConfigs(t *testing.T) {
	s, ts := NewTestServer(t, Config{NoSeed: true})
	create := `{"id":"checkout_copy","name":"Checkout copy","defaultValue":{"title":"Buy","max_items":5},"schema":` + schemaString(checkoutSchema) + `,"tags":["checkout"]}`
	st, body := do(t, ts.URL, http.MethodPost, "/dynamic_configs", create)
	if st != http.StatusCreated {
		t.Fatalf("create: %d %v", st, body)
	}
	d := body["data"].(map[string]any)
	if d["id"] != "checkout_copy" || d["isEnabled"] != true || d["idType"] != "userID" || len(d["rules"].([]any)) != 0 {
		t.Fatalf("created %v", d)
	}
	if st, _ := do(t, ts.URL, http.MethodPost, "/dynamic_configs", create); st != 400 {
		t.Errorf("duplicate id: %d", st)
	}
	// Without an id the service makes one from the name.
	if st, b := do(t, ts.URL, http.MethodPost, "/dynamic_configs", `{"name":"Price List"}`); st != 201 || b["data"].(map[string]any)["id"] != "price_list" {
		t.Errorf("id from name: %d %v", st, b)
	}

	// The schema is enforced on every write, naming the value.
	for _, c := range []struct{ method, path, body, want string }{
		{http.MethodPost, "/dynamic_configs", `{"id":"bad_default","name":"Bad","schema":` + schemaString(checkoutSchema) + `,"defaultValue":{"max_items":0}}`, "defaultValue does not match the schema"},
		{http.MethodPost, "/dynamic_configs", `{"id":"bad_schema","name":"Bad","schema":` + schemaString(`{"type":"objekt"}`) + `}`, "schema is not a valid JSON Schema"},
		{http.MethodPost, "/dynamic_configs", `{"id":"object_schema","name":"Bad","schema":{"type":"object"}}`, "schema: expected a string holding a JSON Schema"},
		{http.MethodPost, "/dynamic_configs", `{"id":"empty_schema","name":"Bad","schema":{}}`, "schema: expected a string holding a JSON Schema"},
		{http.MethodPost, "/dynamic_configs", `{"id":"not_object","name":"Bad","defaultValue":[1]}`, "defaultValue must be a JSON object"},
		{http.MethodPatch, "/dynamic_configs/checkout_copy", `{"rules":[{"name":"de","passPercentage":100,"conditions":[],"returnValue":{"title":7}}]}`, `rules[0].returnValue (rule "de") does not match the schema:`},
		{http.MethodPatch, "/dynamic_configs/checkout_copy", `{"defaultValue":{"title":"x","max_items":-1}}`, "/max_items"},
		{http.MethodPatch, "/dynamic_configs/checkout_copy", `{"rules":{}}`, "rules"},
	} {
		st, b := do(t, ts.URL, c.method, c.path, c.body)
		if msg, _ := b["message"].(string); st != 400 || !strings.Contains(msg, c.want) {
			t.Errorf("%s %s: %d %q, want 400 with %q", c.method, c.path, st, msg, c.want)
		}
	}
	if _, ok := s.DynamicConfig("bad_default"); ok {
		t.Error("a refused create stored the config")
	}

	rules := `{"rules":[{"name":"de","passPercentage":100,"conditions":[{"type":"country","operator":"any","targetValue":["DE"]}],"returnValue":{"title":"Jetzt kaufen"}}]}`
	if st, b := do(t, ts.URL, http.MethodPatch, "/dynamic_configs/checkout_copy/rules", rules); st != 404 || b["message"] != "Cannot PATCH /console/v1/dynamic_configs/checkout_copy/rules" {
		t.Fatalf("the route the 2025-10 document dropped: %d %v", st, b)
	}
	if st, b := do(t, ts.URL, http.MethodPatch, "/dynamic_configs/checkout_copy", rules); st != 200 {
		t.Fatalf("rules: %d %v", st, b)
	}
	c, _ := s.DynamicConfig("checkout_copy")
	if len(c.Rules) != 1 || c.Rules[0].BaseID == "" || c.Version != 2 {
		t.Fatalf("stored %+v", c)
	}
	// A schema change that a value already held breaks is refused.
	if st, b := do(t, ts.URL, http.MethodPatch, "/dynamic_configs/checkout_copy", `{"schema":`+schemaString(`{"type":"object","properties":{"title":{"maxLength":3}}}`)+`}`); st != 400 ||
		!strings.Contains(b["message"].(string), "does not match") {
		t.Errorf("schema change breaking held values: %d %v", st, b)
	}
	if st, _ := do(t, ts.URL, http.MethodPut, "/dynamic_configs/checkout_copy/disable", ""); st != 200 {
		t.Errorf("disable: %d", st)
	}
	if c, _ := s.DynamicConfig("checkout_copy"); c.IsEnabled {
		t.Error("still enabled")
	}
	if st, b := do(t, ts.URL, http.MethodGet, "/dynamic_configs?limit=1", ""); st != 200 || len(b["data"].([]any)) != 1 || b["pagination"] == nil {
		t.Errorf("list: %d %v", st, b)
	}
	if st, _ := do(t, ts.URL, http.MethodDelete, "/dynamic_configs/checkout_copy", ""); st != 200 {
		t.Errorf("delete: %d", st)
	}
	if st, _ := do(t, ts.URL, http.MethodGet, "/dynamic_configs/checkout_copy", ""); st != 404 {
		t.Errorf("read after delete: %d", st)
	}
}

// A rules write that changes the rules of a config attached to a pipeline with phases starts a run
// carrying dynamicConfigID; the run locks the rules and the config; abort puts the rules back.
func TestDynamicConfigRuns(t *testing.T) {
	s, ts := NewTestServer(t, Config{})
	s.SetRunSpeed(0)
	if st, b := do(t, ts.URL, http.MethodPost, "/dynamic_configs", `{"id":"banner","name":"Banner","releasePipelineID":"pl_web"}`); st != 201 {
		t.Fatalf("create: %d %v", st, b)
	}
	write := func(color string) (int, map[string]any) {
		return do(t, ts.URL, http.MethodPatch, "/dynamic_configs/banner", `{"rules":[{"name":"all","passPercentage":100,"conditions":[],"returnValue":{"color":"`+color+`"}}]}`)
	}
	if st, b := write("red"); st != 200 {
		t.Fatalf("first write: %d %v", st, b)
	}
	runs := s.ConfigRuns("banner")
	if len(runs) != 1 {
		t.Fatalf("runs %v", runs)
	}
	if r, _ := s.Run(runs[0]); r.DynamicConfigID != "banner" || r.GateID != "" {
		t.Fatalf("run %+v", r)
	}
	if st, b := do(t, ts.URL, http.MethodGet, "/release_pipeline_triggers?dynamicConfigID=banner", ""); st != 200 || len(b["data"].([]any)) != 1 {
		t.Errorf("runs of the config: %d %v", st, b)
	}
	if st, b := do(t, ts.URL, http.MethodGet, "/release_pipeline_triggers?dynamicConfigID=other", ""); st != 200 || len(b["data"].([]any)) != 0 {
		t.Errorf("runs of another config: %d %v", st, b)
	}
	if st, b := write("blue"); st != 400 || !strings.Contains(b["message"].(string), runs[0]) {
		t.Errorf("write during the run: %d %v", st, b)
	}
	if st, _ := do(t, ts.URL, http.MethodDelete, "/dynamic_configs/banner", ""); st != 400 {
		t.Errorf("delete during the run: %d", st)
	}
	if st, _ := do(t, ts.URL, http.MethodPut, "/release_pipeline_triggers/"+runs[0]+"/abort", ""); st != 200 {
		t.Fatalf("abort: %d", st)
	}
	if c, _ := s.DynamicConfig("banner"); len(c.Rules) != 0 {
		t.Errorf("abort left rules %+v", c.Rules)
	}
	// Writing the same rules as held starts nothing; a change starts the next run.
	if st, _ := write("blue"); st != 200 || len(s.ConfigRuns("banner")) != 2 {
		t.Errorf("write after abort: %d, runs %v", st, s.ConfigRuns("banner"))
	}
}

// Reviews hold config writes as gate writes are held; the config shows its activeReview, and the
// review is served and committed on the config's path.
func TestDynamicConfigReviews(t *testing.T) {
	s, c := newClient(t, Config{NoSeed: true})
	s.SetHabits(Habits{Reviews: true, ReviewCommits: true})
	if st, _ := do(t, strings.TrimSuffix(c.url, basePath), http.MethodPost, "/dynamic_configs", `{"id":"cfg","name":"Cfg"}`); st != 201 {
		t.Fatalf("create: %d", st)
	}
	rv := held(t, s, c, http.MethodPatch, "/dynamic_configs/cfg", `{"rules":[{"name":"r","passPercentage":10,"conditions":[],"returnValue":{"a":1}}]}`)
	if got, _ := s.DynamicConfig("cfg"); len(got.Rules) != 0 {
		t.Fatal("a held write was applied")
	}
	r := c.do(http.MethodGet, "/dynamic_configs/cfg", nil)
	if ar, _ := r.data()["activeReview"].(map[string]any); ar["reviewID"] != rv.ID {
		t.Errorf("activeReview %v", r.data())
	}
	if r := c.do(http.MethodGet, "/dynamic_configs/cfg/reviews/"+rv.ID, nil); r.data()["type"] != "dynamic_config_rules" {
		t.Errorf("review %v", r.data())
	}
	if r := c.do(http.MethodGet, "/gates/cfg/reviews/"+rv.ID, nil); r.Status != 404 {
		t.Errorf("a config's review on a gate's path: %d", r.Status)
	}
	if err := s.ApproveReview(rv.ID); err != nil {
		t.Fatal(err)
	}
	if r := c.do(http.MethodPut, "/dynamic_configs/cfg/reviews/"+rv.ID+"/commit", nil); r.Status != 200 {
		t.Fatalf("commit: %d", r.Status)
	}
	if got, _ := s.DynamicConfig("cfg"); len(got.Rules) != 1 {
		t.Error("the committed review was not applied")
	}
}

// ServeConfigValuesReordered writes the same JSON differently.
func TestReorderedJSON(t *testing.T) {
	got := string(reorderedJSON([]byte(`{"a":1,"b":{"c":[2,"x"],"d":1.5}}`)))
	if got != `{ "b": { "d": 1.5, "c": [ 2.0, "x" ] }, "a": 1.0 }` {
		t.Errorf("got %s", got)
	}
}
