// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"net/http"
	"testing"
)

// TestLinkWrites: a link (a gate's or a config's releasePipelineID, an experiment's
// targetingGateID) is set by an id the service holds and cleared by null; "" names no object and
// is refused, as the live service refuses it ("release pipeline  not found"), and so is an id it
// does not hold, each leaving the link as it was; a write that leaves the field out leaves it.
func TestLinkWrites(t *testing.T) {
	s, ts := NewTestServer(t, Config{})
	s.PutGate(Gate{ID: "g_link"})
	s.PutDynamicConfig(DynamicConfig{ID: "c_link"})
	if st, b := do(t, ts.URL, http.MethodPost, "/experiments", ctaExperiment(ctaGroups)); st != http.StatusCreated {
		t.Fatalf("create: %d %v", st, b)
	}
	gateLink := func() string { g, _ := s.Gate("g_link"); return g.ReleasePipelineID }
	configLink := func() string { c, _ := s.DynamicConfig("c_link"); return c.ReleasePipelineID }
	experimentLink := func() string { e, _ := s.Experiment("checkout_cta"); return e.TargetingGateID }
	for _, o := range []struct {
		path, field, target, kind, other string
		held                             func() string
	}{
		{"/gates/g_link", "releasePipelineID", "pl_web", "Release pipeline", `"description":"d"`, gateLink},
		{"/dynamic_configs/c_link", "releasePipelineID", "pl_web", "Release pipeline", `"description":"d"`, configLink},
		{"/experiments/checkout_cta", "targetingGateID", "new_checkout", "Gate", `"description":"d"`, experimentLink},
	} {
		patch := func(value string) (int, map[string]any) {
			return do(t, ts.URL, http.MethodPatch, o.path, `{"`+o.field+`":`+value+`}`)
		}
		if st, b := patch(`"` + o.target + `"`); st != http.StatusOK || o.held() != o.target {
			t.Fatalf("%s %s = %q: %d %v, holds %q", o.path, o.field, o.target, st, b, o.held())
		}
		wantRefused(t, ts.URL, http.MethodPatch, o.path, `{"`+o.field+`":""}`, o.kind+` "" not found`)
		wantRefused(t, ts.URL, http.MethodPatch, o.path, `{"`+o.field+`":"nope"}`, o.kind+` "nope" not found`)
		wantRefused(t, ts.URL, http.MethodPatch, o.path, `{"`+o.field+`":7}`, `invalid value for field "`+o.field+`"`)
		if st, b := do(t, ts.URL, http.MethodPatch, o.path, `{`+o.other+`}`); st != http.StatusOK || o.held() != o.target {
			t.Fatalf("%s without %s: %d %v, holds %q", o.path, o.field, st, b, o.held())
		}
		st, b := patch(`null`)
		if st != http.StatusOK || o.held() != "" {
			t.Fatalf("%s %s = null: %d %v, holds %q", o.path, o.field, st, b, o.held())
		}
		if data, _ := b["data"].(map[string]any); data[o.field] != "" {
			t.Errorf("%s answered %s = %#v after null, want \"\"", o.path, o.field, data[o.field])
		}
	}
	// A create is refused alike.
	wantRefused(t, ts.URL, http.MethodPost, "/gates", `{"id":"g_new","releasePipelineID":""}`, `Release pipeline "" not found`)
	wantRefused(t, ts.URL, http.MethodPost, "/dynamic_configs", `{"id":"c_new","name":"C new","releasePipelineID":""}`, `Release pipeline "" not found`)
	wantRefused(t, ts.URL, http.MethodPost, "/experiments",
		`{"id":"x_new","name":"X","groups":`+ctaGroups+`,"targetingGateID":""}`, `Gate "" not found`)
	if st, b := do(t, ts.URL, http.MethodPost, "/gates", `{"id":"g_new","releasePipelineID":null}`); st != http.StatusCreated {
		t.Errorf("create with null: %d %v", st, b)
	}
}
