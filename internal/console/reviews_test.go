// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"net/http"
	"reflect"
	"testing"
)

// GET /gates/{id}/reviews/{reviewID} and PUT /gates/{id}/reviews/{reviewID}/commit on the wire: the review read, its status compared regardless of case, and the commit
// answered with the gate (or, without a body, the gate read back).
func TestGateReviewsWire(t *testing.T) {
	ctx := context.Background()
	f := newFake(t, script(
		ok(`{"reviewID":"rev 1","status":"ACCEPTED","type":"gate_rules","change":{"rules":[]},"createdTime":1700000000000.0}`),
		ok(gateJSON),
		reply{Status: 200},
		ok(gateJSON),
	))
	c := f.client()
	rv, err := c.GetGateReview(ctx, "a b/c", "rev 1")
	if err != nil {
		t.Fatal(err)
	}
	if !rv.Is(ReviewAccepted) || rv.Is(ReviewPending) || rv.ReviewID != "rev 1" || rv.Type != "gate_rules" || rv.CreatedTime != 1700000000000 {
		t.Errorf("review %+v", rv)
	}
	g, err := c.CommitGateReview(ctx, "a b/c", "rev 1")
	if err != nil || !reflect.DeepEqual(g, wantGate) {
		t.Errorf("commit: %v %#v", err, g)
	}
	if g, err := c.CommitGateReview(ctx, "a b/c", "rev 1"); err != nil || !reflect.DeepEqual(g, wantGate) {
		t.Errorf("commit without a body: %v %#v", err, g)
	}
	want := []struct{ method, path string }{
		{http.MethodGet, "/console/v1/gates/a%20b%2Fc/reviews/rev%201"},
		{http.MethodPut, "/console/v1/gates/a%20b%2Fc/reviews/rev%201/commit"},
		{http.MethodPut, "/console/v1/gates/a%20b%2Fc/reviews/rev%201/commit"},
		{http.MethodGet, "/console/v1/gates/a%20b%2Fc"},
	}
	reqs := f.requests()
	if len(reqs) != len(want) {
		t.Fatalf("%d requests, want %d", len(reqs), len(want))
	}
	for i, w := range want {
		if reqs[i].Method != w.method || reqs[i].Path != w.path || reqs[i].Body != "" {
			t.Errorf("request %d: %s %s %q, want %s %s", i, reqs[i].Method, reqs[i].Path, reqs[i].Body, w.method, w.path)
		}
	}
}

// A review not approved, or already committed, is the service's 400 in its words.
func TestCommitGateReviewRefused(t *testing.T) {
	f := newFake(t, script(apiErr(400, "Review rev_1 is not approved")))
	_, err := f.client().CommitGateReview(context.Background(), "g", "rev_1")
	if !hasStatus(err, 400) || err.Error() != `Unable to commit review "rev_1" of gate "g": 400 Bad Request: Review rev_1 is not approved` {
		t.Errorf("commit: %v", err)
	}
	if f.count() != 1 {
		t.Errorf("%d requests, want 1", f.count())
	}
}

func TestReviewProposes(t *testing.T) {
	rules := []Rule{{Name: "r", PassPercentage: 50, Environments: []string{}}}
	body := RulesChange(rules)
	cases := map[string]bool{
		`{"rules":[{"name":"r","passPercentage":50.0,"conditions":[],"environments":[]}]}`:             true,
		`{"rules":[{"environments":[],"conditions":[],"passPercentage":5e1,"name":"r"}]}`:              true,
		`"{\"rules\":[{\"name\":\"r\",\"passPercentage\":50,\"conditions\":[],\"environments\":[]}]}"`: true,
		`{"rules":[{"name":"r","passPercentage":51,"conditions":[],"environments":[]}]}`:               false,
		`{"description":"x"}`: false,
		`null`:                false,
		`not json`:            false,
	}
	for change, want := range cases {
		if got := (&Review{Change: []byte(change)}).Proposes(body); got != want {
			t.Errorf("%s proposes %#v: %v, want %v", change, body, got, want)
		}
	}
	if (&Review{}).Proposes(body) || (*Review)(nil).Proposes(body) || (*Review)(nil).Is(ReviewPending) {
		t.Error("no review proposes nothing")
	}
	if ChangeFingerprint(body) != ChangeFingerprint(RulesChange(rules)) || ChangeFingerprint(body) == ChangeFingerprint(GateFieldsChange(GateFields{})) {
		t.Error("fingerprints")
	}
	if !(&ActiveReview{ReviewStatus: "approved"}).Approved() || (&ActiveReview{ReviewStatus: "PENDING"}).Approved() || (*ActiveReview)(nil).Approved() {
		t.Error("Approved")
	}
}
