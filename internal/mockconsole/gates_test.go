// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestGateWrites covers rows 19-21: create with the service's defaults and validation, 400 for an
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
	s.PutGate(Gate{ID: "g_rules", Rules: []GateRule{{Name: "r", PassPercentage: 5}}})
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
	expect(t, c.do("PATCH", "/gates/g_rules", map[string]any{"releasePipelineID": ""}), 200)

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
