// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestGateWrites covers POST /gates, PATCH /gates/{id} and DELETE /gates/{id}: create with the service's defaults and validation, 400 for an
// existing id, PATCH of any subset of the fields (404 before 400, rules untouched), DELETE.
func TestGateWrites(t *testing.T) {
	s, c := newClient(t, Config{})
	r := c.do("POST", "/gates", map[string]any{"id": "gate.new-1"})
	expect(t, r, http.StatusCreated)
	g := r.data()
	want := map[string]any{"id": "gate.new-1", "name": "gate.new-1", "type": "PERMANENT", "idType": "userID",
		"isEnabled": true, "description": "", "releasePipelineID": "", "creatorName": modifierName}
	for k, v := range want {
		if g[k] != v {
			t.Errorf("created %s = %v, want %v", k, g[k], v)
		}
	}
	if rules, ok := g["rules"].([]any); !ok || len(rules) != 0 || g["createdTime"] == nil {
		t.Errorf("created gate %s", r.Raw)
	}
	r = c.do("POST", "/gates", map[string]any{"id": "gate.new-1", "name": "Other"})
	expect(t, r, 400)
	if !strings.Contains(r.Body["message"].(string), "already exists") {
		t.Errorf("duplicate: %s", r.Raw)
	}
	if got, _ := s.Gate("gate.new-1"); got.Name != "gate.new-1" {
		t.Errorf("a refused create changed the gate: %+v", got)
	}

	full := map[string]any{"id": "g_full", "name": "Full gate 2", "description": "d", "isEnabled": false,
		"tags": []string{"a"}, "type": "TEMPORARY", "idType": "stableID", "releasePipelineID": "pl_web"}
	expect(t, c.do("POST", "/gates", full), 201)
	got, _ := s.Gate("g_full")
	if got.Name != "Full gate 2" || got.IsEnabled || got.Type != "TEMPORARY" || got.IDType != "stableID" ||
		got.ReleasePipelineID != "pl_web" || len(got.Tags) != 1 {
		t.Errorf("stored %+v", got)
	}

	// A PATCH changes what it carries and nothing else, rules included.
	s.PutGate(Gate{ID: "g_rules", Rules: []Rule{{Name: "r", PassPercentage: 5}}})
	r = c.do("PATCH", "/gates/g_rules", map[string]any{"description": "changed", "tags": []string{}})
	expect(t, r, 200)
	got, _ = s.Gate("g_rules")
	if got.Description != "changed" || got.Name != "g_rules" || len(got.Rules) != 1 || got.LastModifierName != modifierName {
		t.Errorf("patched %+v", got)
	}
	expect(t, c.do("PATCH", "/gates/missing", "not json"), 404)
	for _, body := range []string{`{"id":"x"}`, `{"rules":[]}`, `{"type":"BETA"}`, `{"name":"ab"}`,
		`{"description":"` + strings.Repeat("x", 1001) + `"}`, `{"releasePipelineID":"pl_missing"}`} {
		expect(t, c.do("PATCH", "/gates/g_rules", body), 400)
	}
	expect(t, c.do("PATCH", "/gates/g_rules", map[string]any{"releasePipelineID": nil}), 200)

	r = c.do("DELETE", "/gates/g_rules", nil)
	expect(t, r, 200)
	if r.Body["message"] != "Gate deleted successfully." {
		t.Errorf("delete message %v", r.Body["message"])
	}
	if _, ok := s.Gate("g_rules"); ok {
		t.Error("gate still there")
	}
	expect(t, c.do("DELETE", "/gates/g_rules", nil), 404)
}

// TestGateTargetApps: a gate's targetApps are stored as sent, changed by a PATCH that carries them
// and left by one that does not, answered as a list ([] for none), and with BareTargetApps one app
// as a bare string, in a read and a listing alike.
func TestGateTargetApps(t *testing.T) {
	s, c := newClient(t, Config{NoSeed: true})
	expect(t, c.do("POST", "/gates", map[string]any{"id": "g_apps", "targetApps": []string{"web", "ios"}}), 201)
	expect(t, c.do("POST", "/gates", map[string]any{"id": "g_none"}), 201)
	if got, _ := s.Gate("g_apps"); strings.Join(got.TargetApps, ",") != "web,ios" {
		t.Errorf("stored %q", got.TargetApps)
	}
	if apps := c.do("GET", "/gates/g_none", nil).data()["targetApps"]; apps == nil || len(apps.([]any)) != 0 {
		t.Errorf("a gate without apps answers targetApps %v", apps)
	}
	expect(t, c.do("PATCH", "/gates/g_apps", map[string]any{"description": "d"}), 200)
	expect(t, c.do("PATCH", "/gates/g_apps", map[string]any{"targetApps": []string{"web"}}), 200)
	if got, _ := s.Gate("g_apps"); strings.Join(got.TargetApps, ",") != "web" || got.Description != "d" {
		t.Errorf("patched %+v", got)
	}
	if apps := c.do("GET", "/gates/g_apps", nil).data()["targetApps"]; len(apps.([]any)) != 1 {
		t.Errorf("without the habit one app is answered %v", apps)
	}
	s.SetHabits(Habits{BareTargetApps: true})
	if apps := c.do("GET", "/gates/g_apps", nil).data()["targetApps"]; apps != "web" {
		t.Errorf("with BareTargetApps one app is answered %v", apps)
	}
	for _, g := range c.do("GET", "/gates", nil).Body["data"].([]any) {
		if g := g.(map[string]any); g["id"] == "g_apps" && g["targetApps"] != "web" {
			t.Errorf("with BareTargetApps the listing answers %v", g["targetApps"])
		}
	}
}

// TestGateCreateValidation: every field the service checks on a create is refused with a 400 and
// stores nothing.
func TestGateCreateValidation(t *testing.T) {
	s, c := newClient(t, Config{NoSeed: true})
	for _, body := range []map[string]any{
		{}, {"id": "ab"}, {"id": strings.Repeat("a", 101)}, {"id": "a b c"}, {"id": "a/bc"},
		{"id": "okay", "name": "no!"}, {"id": "okay", "name": "Größe"}, {"id": "okay", "name": strings.Repeat("n", 101)},
		{"id": "okay", "description": strings.Repeat("é", 1001)}, {"id": "okay", "type": "permanent"},
		{"id": "okay", "idType": " "}, {"id": "okay", "tags": []string{""}}, {"id": "okay", "rules": []any{}},
	} {
		r := c.do("POST", "/gates", body)
		if r.Status != 400 {
			b, _ := json.Marshal(body)
			t.Errorf("%s: %d %s", b, r.Status, r.Raw)
		}
	}
	if ids := s.GateIDs(); len(ids) != 0 {
		t.Errorf("stored %v", ids)
	}
	expect(t, c.do("POST", "/gates", map[string]any{"id": strings.Repeat("a", 100), "name": "Cafe au lait 1.0_-",
		"description": strings.Repeat("é", 1000)}), 201)
}

// TestGateWriteHabits: the new writes take the habits as the other writes do.
func TestGateWriteHabits(t *testing.T) {
	s, c := newClient(t, Config{})
	s.SetHabits(Habits{EmptyWrites: true, Reviews: true})
	r := c.do("POST", "/gates", map[string]any{"id": "g_empty"})
	if r.Status != 201 || len(strings.TrimSpace(string(r.Raw))) != 0 {
		t.Errorf("create with EmptyWrites: %d %q", r.Status, r.Raw)
	}
	req, _ := http.NewRequest("PATCH", c.url+"/gates/g_empty", strings.NewReader(`{"description":"held"}`))
	req.Header.Set(apiKeyHeader, c.key)
	req.Header.Set(reviewHeader, "true")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("held PATCH: %d", resp.StatusCode)
	}
	if got, _ := s.Gate("g_empty"); got.Description != "" {
		t.Errorf("held change applied: %+v", got)
	}
	reviews := s.PendingReviews()
	if len(reviews) != 1 || reviews[0].Kind != reviewKindGateFields {
		t.Fatalf("reviews %+v", reviews)
	}
	s.SetHabits(Habits{})
	if r := c.do("GET", "/gates/g_empty", nil); r.data()["activeReview"] == nil {
		t.Errorf("no activeReview on read: %s", r.Raw)
	}
	if err := s.ApproveReview(reviews[0].ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Gate("g_empty"); got.Description != "held" {
		t.Errorf("approved change not applied: %+v", got)
	}
}

func TestGates(t *testing.T) {
	s, c := newClient(t, Config{})
	r := c.do("GET", "/gates/new_checkout", nil)
	expect(t, r, 200)
	g := r.data()
	rules := g["rules"].([]any)
	if len(rules) != 2 || g["status"] != "In Progress" {
		t.Fatalf("gate %s", r.Raw)
	}
	r = c.do("GET", "/gates/missing", nil)
	expect(t, r, 404)
	if r.Body["message"] != `Gate "missing" not found` {
		t.Fatalf("message %v", r.Body["message"])
	}
	expect(t, c.do("PATCH", "/gates/missing/rules", map[string]any{"rules": []any{}}), 404)
	for _, id := range []string{"dark_mode", "search_v2", "gate_001", "gate_300"} {
		expect(t, c.do("GET", "/gates/"+id, nil), 200)
	}

	// Send rule 0 back unchanged with its baseID, change rule 1, add a new rule.
	r0 := rules[0].(map[string]any)
	r1 := rules[1].(map[string]any)
	body := `{"rules":[
	  {"name":"employees","baseID":"` + r0["baseID"].(string) + `","passPercentage":100,
	   "conditions":[{"type":"email","operator":"str_contains_any","targetValue":["@example.com"]}],
	   "returnValue":{},"environments":["production"]},
	  {"name":"beta","baseID":"` + r1["baseID"].(string) + `","passPercentage":12.5,
	   "conditions":[{"type":"custom_field","operator":"gt","field":"age","targetValue":[21]}],
	   "returnValue":{"color":"blue","size":3}},
	  {"name":"fresh","passPercentage":33.33,"environments":[],"conditions":[{"type":"country","operator":"any","targetValue":["US",12.5,100]}]}
	]}`
	r = c.do("PATCH", "/gates/new_checkout/rules", body)
	expect(t, r, 200)
	out := r.data()["rules"].([]any)
	if len(out) != 3 {
		t.Fatalf("rules %s", r.Raw)
	}
	o0, o1, o2 := out[0].(map[string]any), out[1].(map[string]any), out[2].(map[string]any)
	if o0["baseID"] != r0["baseID"] || o0["id"] != r0["id"] {
		t.Fatalf("unchanged rule lost identity: %v vs %v", o0, r0)
	}
	if o1["baseID"] != r1["baseID"] || o1["id"] == r1["id"] {
		t.Fatalf("changed rule: %v vs %v", o1, r1)
	}
	if !strings.HasPrefix(o1["id"].(string), r1["baseID"].(string)+":12.5:") {
		t.Fatalf("id format %v", o1["id"])
	}
	if o2["baseID"] == "" || len(o2["baseID"].(string)) != 22 || !strings.Contains(o2["id"].(string), ":33.33:") {
		t.Fatalf("new rule %v", o2)
	}
	if o2["environments"] != nil {
		t.Fatalf("environments [] not returned as null: %v", o2["environments"])
	}
	if rv, ok := o2["returnValue"].(map[string]any); !ok || len(rv) != 0 {
		t.Fatalf("absent returnValue not {}: %v", o2["returnValue"])
	}
	if !strings.Contains(string(r.Raw), `"targetValue":["US",12.5,100]`) || !strings.Contains(string(r.Raw), `"passPercentage":12.5`) {
		t.Fatalf("numbers not preserved: %s", r.Raw)
	}
	if r.data()["lastModifierName"] != "Console API" || r.data()["lastModifierID"] != "api_key" {
		t.Fatalf("modifier %s", r.Raw)
	}
	// Absent conditions → [].
	r = c.do("PATCH", "/gates/dark_mode/rules", `{"rules":[{"name":"a","passPercentage":1}]}`)
	expect(t, r, 200)
	if !strings.Contains(string(r.Raw), `"conditions":[]`) {
		t.Fatalf("conditions %s", r.Raw)
	}

	// Counter behaviour: resend the same list → same ids.
	g2, _ := s.Gate("new_checkout")
	b, _ := json.Marshal(map[string]any{"rules": g2.Rules})
	r = c.do("PATCH", "/gates/new_checkout/rules", string(b))
	expect(t, r, 200)
	g3, _ := s.Gate("new_checkout")
	for i := range g2.Rules {
		if g2.Rules[i].ID != g3.Rules[i].ID {
			t.Fatalf("id changed on identical resend: %s → %s", g2.Rules[i].ID, g3.Rules[i].ID)
		}
	}
	// Unknown baseID → a new one.
	r = c.do("PATCH", "/gates/search_v2/rules", `{"rules":[{"name":"x","baseID":"doesnotexist","passPercentage":5}]}`)
	expect(t, r, 200)
	if r.data()["rules"].([]any)[0].(map[string]any)["baseID"] == "doesnotexist" {
		t.Fatal("unknown baseID kept")
	}
	// Clear.
	r = c.do("PATCH", "/gates/search_v2/rules", `{"rules":[]}`)
	expect(t, r, 200)
	if !strings.Contains(string(r.Raw), `"rules":[]`) {
		t.Fatalf("clear: %s", r.Raw)
	}
}

func TestGateValidation(t *testing.T) {
	s, c := newClient(t, Config{})
	before, _ := s.Gate("new_checkout")
	cases := map[string]string{
		`{"rules":[{"name":"a","passPercentage":1},{"name":"b","passPercentage":101}]}`: "rules[1].passPercentage must be between 0 and 100",
		`{"rules":[{"name":"a","passPercentage":-1}]}`:                                  "rules[0].passPercentage",
		`{"rules":[{"name":"","passPercentage":1}]}`:                                    "rules[0].name",
		`{"rules":[{"name":"a"},{"name":"a"}]}`:                                         "rules[1].name",
		`{"rules":[{"name":"a","conditions":[{"operator":"any"}]}]}`:                    "rules[0].conditions[0].type",
		`{"rules":[{"name":"a","returnValue":"x"}]}`:                                    "rules[0].returnValue",
		`{"rules":[{"name":"a","returnValue":[1]}]}`:                                    "rules[0].returnValue",
		`{"rules":[{"name":"a","bogus":1}]}`:                                            `"bogus"`,
		`{"rules":[{"name":"a","passPercentage":"50"}]}`:                                "passPercentage",
		`{"rules":[{"name":"a"}],"extra":true}`:                                         `"extra"`,
		`{"rules":`:                                                                     "invalid JSON",
		`{}`:                                                                            "rules is required",
		``:                                                                              "empty",
		`{"rules":[]} {}`:                                                               "unexpected data",
		`{"rules":[{"name":"a","environments":"prod"}]}`:                                "environments",
		`{"rules":[{"name":"a","conditions":[{"type":"x","targetValue":[1]}],"id":5}]}`: "id",
		`{"rules":[{"name":"a","conditions":[{"type":"x","customID":false}]}]}`:         "customID",
	}
	for body, want := range cases {
		r := c.do("PATCH", "/gates/new_checkout/rules", body)
		expect(t, r, 400)
		if msg := r.Body["message"].(string); !strings.Contains(msg, want) {
			t.Errorf("body %s: message %q does not contain %q", body, msg, want)
		}
	}
	after, _ := s.Gate("new_checkout")
	if after.Rules[0].ID != before.Rules[0].ID || len(after.Rules) != 2 {
		t.Fatal("invalid request changed state")
	}
}

func TestPutGateAndAccessors(t *testing.T) {
	s := New(Config{NoSeed: true})
	if _, ok := s.Gate("new_checkout"); ok {
		t.Fatal("NoSeed has gates")
	}
	s.PutGate(Gate{ID: "g", Rules: []Rule{
		{Name: "a", PassPercentage: 12.5, Conditions: []Condition{{Type: "t", TargetValue: []string{"x"}}}},
		{Name: "b", BaseID: "fixedbase", ID: "fixedbase:100:7", PassPercentage: 100},
	}})
	g, _ := s.Gate("g")
	if g.Rules[0].BaseID == "" || !strings.Contains(g.Rules[0].ID, ":12.5:") || g.Rules[1].ID != "fixedbase:100:7" {
		t.Fatalf("ids %+v", g.Rules)
	}
	if g.Tags == nil || g.Rules[1].Conditions == nil {
		t.Fatal("nil slices")
	}
	// deep copy
	g.Rules[0].Conditions[0].TargetValue.([]any)[0] = "mutated"
	g2, _ := s.Gate("g")
	if g2.Rules[0].Conditions[0].TargetValue.([]any)[0] != "x" {
		t.Fatal("Gate() does not return a deep copy")
	}
	s.DeleteGate("g")
	if _, ok := s.Gate("g"); ok {
		t.Fatal("not deleted")
	}
}
