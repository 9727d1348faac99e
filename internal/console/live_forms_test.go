// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// The forms the live service answers in (internal/mockconsole/HABITS.md), one decoder at a time.

func TestWholeNumber(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		err  bool
	}{
		{`3600000`, 3600000, false},
		{`3600000.0`, 3600000, false},
		{`3.6e6`, 3600000, false},
		{`3600000.0000000005`, 3600000, false},
		{`"3600000"`, 3600000, false},
		{`"3600000.0"`, 3600000, false},
		{`null`, 0, false},
		{`-0.0`, 0, false},
		{`-12.5`, -13, false},
		{`12.4`, 12, false},
		{`9223372036854775807`, 9223372036854775807, false},
		{`1e30`, 0, true},
		{`-1e30`, 0, true},
		{`"abc"`, 0, true},
		{`true`, 0, true},
		{`[1]`, 0, true},
		{`{}`, 0, true},
		{`"1e99999999"`, 0, true},
	}
	for _, tc := range cases {
		var n WholeNumber
		err := json.Unmarshal([]byte(tc.in), &n)
		if tc.err != (err != nil) || (!tc.err && int64(n) != tc.want) {
			t.Errorf("%s: got %d, %v; want %d, error %v", tc.in, n, err, tc.want, tc.err)
		}
	}
	// In a pipeline as the service writes it.
	var p ReleasePipeline
	if err := json.Unmarshal([]byte(`{"id":"p","createdTime":1.7e12,"phases":[{"name":"a","timeIntervalMs":3600000.0}]}`), &p); err != nil {
		t.Fatal(err)
	}
	if p.CreatedTime != 1700000000000 || p.Phases[0].TimeIntervalMs != 3600000 {
		t.Errorf("decoded %+v", p)
	}
}

func TestSegmentRulesForms(t *testing.T) {
	cases := []struct {
		name, rules string
		want        string // names of the rules kept, "" for none
		err         bool
	}{
		{"object", `{"name":"r","passPercentage":50,"conditions":[]}`, "r", false},
		{"array", `[{"name":"r","passPercentage":50.0,"conditions":[{"type":"user_id","targetValue":["1"]}]}]`, "r", false},
		{"array of two", `[{"name":"first"},{"name":"second"}]`, "first,second", false},
		{"empty array", `[]`, "", false},
		{"null", `null`, "", false},
		{"string", `"none"`, "", true},
		{"array of strings", `["x"]`, "", true},
	}
	for _, tc := range cases {
		var s Segment
		err := json.Unmarshal([]byte(`{"id":"s","type":"rule_based","count":3.0,"extra":{"a":1},"rules":`+tc.rules+`}`), &s)
		if tc.err {
			if err == nil {
				t.Errorf("%s: no error", tc.name)
			} else if !strings.Contains(err.Error(), `segment "s"`) {
				t.Errorf("%s: error %q does not name the segment", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var names []string
		for _, r := range s.Rules {
			names = append(names, r.Name)
		}
		got := strings.Join(names, ",")
		if got != tc.want || s.ID != "s" || s.Count == nil || *s.Count != 3 {
			t.Errorf("%s: rules %q, segment %+v", tc.name, got, s)
		}
	}
	var s Segment
	if err := json.Unmarshal([]byte(`{"id":"s"}`), &s); err != nil || s.Rules != nil {
		t.Errorf("rules absent: %+v, %v", s, err)
	}
}

func TestNestJSErrors(t *testing.T) {
	cases := []struct{ body, want string }{
		{`{"statusCode":400,"message":["sql must not be empty","timestampColumn must be a string"],"error":"Bad Request"}`,
			`Unable to read gate "g": 400 Bad Request: sql must not be empty; timestampColumn must be a string`},
		{`{"statusCode":400,"message":"name is taken","error":"Bad Request"}`, `Unable to read gate "g": 400 Bad Request: name is taken`},
		{`{"statusCode":400,"message":[],"error":"Bad Request"}`, `Unable to read gate "g": 400 Bad Request: Bad Request`},
		{`{"statusCode":400,"message":["a",{"b":1},"  "]}`, `Unable to read gate "g": 400 Bad Request: a; {"b":1}`},
	}
	for _, tc := range cases {
		f := newFake(t, script(reply{Status: 400, Body: tc.body}))
		_, err := f.client().GetGate(context.Background(), "g")
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.body, err, tc.want)
		}
	}
	// A 403 whose body says 401 keeps the HTTP status and the body's, from which the provider
	// says what a 401 says (TestFailureDetail).
	f := newFake(t, script(reply{Status: 403, Body: `{"statusCode":401,"message":"Unauthorized"}`}))
	_, err := f.client().GetGate(context.Background(), "g")
	var ae *APIError
	if !hasStatus(err, http.StatusForbidden) || !errors.As(err, &ae) || ae.BodyStatus != http.StatusUnauthorized {
		t.Errorf("got %v", err)
	}
}

// A write answered 200 without a body is read back.
func TestWriteWithoutBodyReadBack(t *testing.T) {
	gate := `{"id":"g","rules":[{"id":"b:50:1","baseID":"b","name":"r","passPercentage":50}]}`
	pipe := `{"id":"p","name":"n","phases":[]}`
	f := newFake(t, func(_ int, r seen) reply {
		switch {
		case r.Method != http.MethodGet:
			return reply{Status: 200}
		case strings.HasPrefix(r.Path, "/console/v1/gates/"):
			return ok(gate)
		case strings.HasPrefix(r.Path, "/console/v1/release_pipelines/"):
			return ok(pipe)
		}
		return ok(`{"name":"m","sql":"SELECT 1","timestampColumn":"ts"}`)
	})
	c := f.client()
	ctx := context.Background()
	g, err := c.UpdateGateRules(ctx, "g", []Rule{{Name: "r", PassPercentage: 50}})
	if err != nil || len(g.Rules) != 1 || g.Rules[0].BaseID != "b" {
		t.Errorf("gate: %+v, %v", g, err)
	}
	p, err := c.UpdateReleasePipeline(ctx, "p", ReleasePipelineUpdate{Name: "n"})
	if err != nil || p.Name != "n" {
		t.Errorf("pipeline: %+v, %v", p, err)
	}
	m, err := c.CreateMetricSource(ctx, MetricSource{Name: "m", SQL: "SELECT 1", TimestampColumn: "ts"})
	if err != nil || m.SQL != "SELECT 1" {
		t.Errorf("metric source: %+v, %v", m, err)
	}
	if _, err := c.CreateMetricSource(ctx, MetricSource{Name: "m", DryRun: true}); err != nil {
		t.Errorf("dry run: %v", err)
	}
	var methods []string
	for _, r := range f.requests() {
		methods = append(methods, r.Method)
	}
	if got := strings.Join(methods, " "); got != "PATCH GET POST GET POST GET POST" {
		t.Errorf("requests %s", got)
	}
}

// A write held for review is told from the answer: a pending activeReview or the message.
func TestHeldForReview(t *testing.T) {
	const held = `{"message":"Review submitted. Changes will be applied after approval.","data":` +
		`{"id":"g","rules":[],"activeReview":{"reviewID":"rev_7","reviewStatus":"PENDING","extra":1}}}`
	ctx := context.Background()
	respect := func(c *Config) { c.RespectReviewSettings = true }

	f := newFake(t, script(reply{Status: 200, Body: held}))
	_, err := f.client(respect).UpdateGateRules(ctx, "g", nil)
	re, isHeld := AwaitingReview(err)
	if !isHeld || re.ReviewID != "rev_7" || !strings.Contains(err.Error(), `Unable to update rules of gate "g": the change awaits review (review rev_7)`) ||
		!strings.Contains(err.Error(), "Review submitted") {
		t.Fatalf("got %v", err)
	}
	if f.requests()[0].Header.Get("x-respect-review-settings") != "true" {
		t.Error("no review header")
	}

	// The message alone says so, too.
	f = newFake(t, script(ok(`{"id":"p","name":"n","phases":[]}`), reply{Status: 200, Body: `{"message":"Review submitted. Changes will be applied after approval.","data":{"id":"p","name":"n","phases":[]}}`}))
	c := f.client(respect)
	if _, err := c.GetReleasePipeline(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateReleasePipeline(ctx, "p", ReleasePipelineUpdate{Name: "n"}); !errors.As(err, new(*ReviewPendingError)) {
		t.Errorf("pipeline: %v", err)
	}

	// Without review settings asked for, the service applies writes: an activeReview someone else
	// started says nothing about this one.
	f = newFake(t, script(reply{Status: 200, Body: strings.Replace(held, "Review submitted. Changes will be applied after approval.", "Gate rules updated", 1)}))
	if _, err := f.client().UpdateGateRules(ctx, "g", nil); err != nil {
		t.Errorf("without review settings: %v", err)
	}
	// A review that is no longer pending holds nothing.
	f = newFake(t, script(reply{Status: 200, Body: `{"message":"ok","data":{"id":"g","rules":[],"activeReview":{"reviewID":"r","reviewStatus":"APPROVED"}}}`}))
	if _, err := f.client(respect).UpdateGateRules(ctx, "g", nil); err != nil {
		t.Errorf("approved review: %v", err)
	}
	// An empty answer read back with a pending review is a held write.
	f = newFake(t, script(reply{Status: 200}, reply{Status: 200, Body: held}))
	if _, err := f.client(respect).UpdateGateRules(ctx, "g", nil); !errors.As(err, new(*ReviewPendingError)) {
		t.Errorf("empty answer: %v", err)
	}
}

// An answer that leaves out the list it was sent is completed by a read.
func TestWriteAnswerWithoutListReadBack(t *testing.T) {
	f := newFake(t, func(_ int, r seen) reply {
		if r.Method == http.MethodGet {
			return ok(`{"id":"g","rules":[{"id":"b","baseID":"b","name":"r","passPercentage":50}]}`)
		}
		return ok(`{"id":"g","isEnabled":true}`)
	})
	g, err := f.client().UpdateGateRules(context.Background(), "g", []Rule{{Name: "r", PassPercentage: 50}})
	if err != nil || len(g.Rules) != 1 || f.count() != 2 {
		t.Errorf("got %+v, %v after %d requests", g, err, f.count())
	}
	// Emptying the list: an answer without rules is the empty list, no read needed.
	f = newFake(t, script(ok(`{"id":"g","rules":null}`)))
	if _, err := f.client().UpdateGateRules(context.Background(), "g", nil); err != nil || f.count() != 1 {
		t.Errorf("empty list: %v after %d requests", err, f.count())
	}
}

// A gate's targetApps comes as a list of strings or as one bare string (the live service).
// The provider has no attribute for it, so either form must read as the same gate, whole.
func TestGateTargetAppsForms(t *testing.T) {
	for _, ta := range []string{`["web","ios"]`, `"web"`, `null`, `[]`} {
		raw := `{"data":{"id":"g","name":"G","isEnabled":true,"type":"TEMPORARY","typeReason":"NONE","targetApps":` + ta +
			`,"rules":[{"id":"r","baseID":"b","name":"all","passPercentage":50,"conditions":[{"type":"public","targetApps":` + ta + `}]}]}}`
		var env envelope[Gate]
		if err := decodeEnvelope(request{method: http.MethodGet, path: "/gates/g"}, []byte(raw), &env); err != nil {
			t.Errorf("targetApps %s: %v", ta, err)
			continue
		}
		g := env.Data
		if g.ID != "g" || g.Type != "TEMPORARY" || len(g.Rules) != 1 || g.Rules[0].PassPercentage != 50 {
			t.Errorf("targetApps %s: decoded %+v", ta, g)
		}
	}
}
