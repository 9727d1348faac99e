// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"cmp"
	"encoding/json"
	"testing"
)

// TestLinkJSON: a link left out is no key at all, a cleared one null, never "" (which the service
// takes for an id that names nothing); reading a body back gives the same three.
func TestLinkJSON(t *testing.T) {
	type body struct {
		L Link `json:"l,omitzero"`
	}
	for _, tc := range []struct {
		name string
		link Link
		want string
	}{
		{"left out", Link{}, `{}`},
		{"cleared", Unlinked(), `{"l":null}`},
		{"an empty id clears", LinkTo(""), `{"l":null}`},
		{"an id", LinkTo("pl_web"), `{"l":"pl_web"}`},
		{"an id JSON escapes", LinkTo(`a"b`), `{"l":"a\"b"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(body{tc.link})
			if err != nil || string(b) != tc.want {
				t.Fatalf("marshal = %s, %v; want %s", b, err, tc.want)
			}
			var back body
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if want := tc.link; want.ID() == "" && !want.IsZero() {
				if back.L != Unlinked() {
					t.Errorf("read back %#v, want a cleared link", back.L)
				}
			} else if back.L != want {
				t.Errorf("read back %#v, want %#v", back.L, want)
			}
		})
	}
	for in, want := range map[string]Link{`{"l":""}`: Unlinked(), `{"l":null}`: Unlinked(), `{}`: {}, `{"l":"x"}`: LinkTo("x")} {
		var got body
		if err := json.Unmarshal([]byte(in), &got); err != nil || got.L != want {
			t.Errorf("%s read %#v, %v; want %#v", in, got.L, err, want)
		}
	}
	var got body
	if err := json.Unmarshal([]byte(`{"l":7}`), &got); err == nil {
		t.Errorf(`{"l":7} read %#v without an error`, got.L)
	}
}

// TestLinkHeldBy: what a write of a link left in the object it answers: anything when left out,
// no link ("", however the service said it) when cleared, the id else; an empty read matches no id.
func TestLinkHeldBy(t *testing.T) {
	for _, tc := range []struct {
		link Link
		read string
		want bool
	}{
		{Link{}, "", true}, {Link{}, "pl", true},
		{Unlinked(), "", true}, {Unlinked(), "pl", false},
		{LinkTo("pl"), "pl", true}, {LinkTo("pl"), "", false}, {LinkTo("pl"), "pl2", false},
	} {
		if got := tc.link.HeldBy(tc.read); got != tc.want {
			t.Errorf("%#v.HeldBy(%q) = %v, want %v", tc.link, tc.read, got, tc.want)
		}
	}
}

// TestLinkFieldsOfWrites: every write that carries a link (gates, configs, experiments) leaves it
// out unless set, sends null to clear it and the id to set it.
func TestLinkFieldsOfWrites(t *testing.T) {
	for _, w := range []struct {
		name, key string
		body      func(Link) any
	}{
		{"gate", "releasePipelineID", func(l Link) any { return GateFields{ReleasePipelineID: l} }},
		{"config", "releasePipelineID", func(l Link) any { return DynamicConfigFieldsChange(DynamicConfigFields{ReleasePipelineID: l}) }},
		{"experiment", "targetingGateID", func(l Link) any { return ExperimentFields{TargetingGateID: l} }},
	} {
		for _, tc := range []struct {
			link Link
			want string // "" for left out
		}{{Link{}, ""}, {Unlinked(), `null`}, {LinkTo(""), `null`}, {LinkTo("x_1"), `"x_1"`}} {
			b, err := json.Marshal(w.body(tc.link))
			if err != nil {
				t.Fatal(err)
			}
			var fields map[string]json.RawMessage
			if err := json.Unmarshal(b, &fields); err != nil {
				t.Fatal(err)
			}
			if got := string(fields[w.key]); got != tc.want || len(fields) > 1 {
				t.Errorf("%s of a %s, %#v: body %s, want %s", w.key, w.name, tc.link, b, cmp.Or(tc.want, "{}"))
			}
		}
	}
}

// TestNoLinkReads: "", null and no field at all read alike as no link, in every object that carries
// one (the document's GET experiment example says "targetingGateID": "").
func TestNoLinkReads(t *testing.T) {
	for _, field := range []string{`,"releasePipelineID":""`, `,"releasePipelineID":null`, ``} {
		var g Gate
		var d DynamicConfig
		if err := json.Unmarshal([]byte(`{"id":"g"`+field+`}`), &g); err != nil || g.ReleasePipelineID != "" {
			t.Errorf("gate %s: %q, %v", field, g.ReleasePipelineID, err)
		}
		if err := json.Unmarshal([]byte(`{"id":"c"`+field+`}`), &d); err != nil || d.ReleasePipelineID != "" {
			t.Errorf("config %s: %q, %v", field, d.ReleasePipelineID, err)
		}
	}
	for _, field := range []string{`,"targetingGateID":""`, `,"targetingGateID":null`, ``} {
		var e Experiment
		if err := json.Unmarshal([]byte(`{"id":"e"`+field+`}`), &e); err != nil || e.TargetingGateID != "" {
			t.Errorf("experiment %s: %q, %v", field, e.TargetingGateID, err)
		}
	}
}
