// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// reportingTB is a testing.TB whose Errorf and Cleanup the test reads instead of failing.
type reportingTB struct {
	testing.TB
	errors   []string
	cleanups []func()
}

func (r *reportingTB) Helper()          {}
func (r *reportingTB) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *reportingTB) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// TestHoldToDocument: a request and an answer the service's document forbids each fail the test
// that held the mock to it, naming the route and the field; a documented exchange, a route the
// document lacks that the live service serves, and a field the test accepts do not.
func TestHoldToDocument(t *testing.T) {
	s, c := newClient(t, Config{})
	tb := &reportingTB{TB: t}
	s.HoldToDocument(tb)

	c.do("GET", "/gates/new_checkout", nil)                                            // documented
	c.do("PUT", "/gates/new_checkout/reviews/r1/commit", nil)                          // a review: served beyond the document
	c.do("PUT", "/experiments/checkout_cta/make_decision", `{"decisionReason":"won"}`) // no group: forbidden
	// An answer the document forbids: a move answered with the experiment, as the mock once did.
	s.mu.Lock()
	r := httptest.NewRequest(http.MethodPut, "/console/v1/experiments/checkout_cta/start", nil)
	s.checkAnswer(r, okResp("Experiment updated successfully", map[string]any{"id": "checkout_cta"}))
	s.mu.Unlock()

	for _, f := range tb.cleanups {
		f()
	}
	if len(tb.errors) != 2 {
		t.Fatalf("want 2 breaks reported, got %d: %q", len(tb.errors), tb.errors)
	}
	for i, want := range [][]string{
		{"request PUT /console/v1/experiments/{id}/make_decision", "/console/v1/experiments/checkout_cta/make_decision", `property "id" is missing`},
		{"answer 200 to PUT /console/v1/experiments/{id}/start", "/data: the document's answer has no such field"},
	} {
		for _, w := range want {
			if !strings.Contains(tb.errors[i], w) {
				t.Errorf("break %d does not name %q: %s", i, w, tb.errors[i])
			}
		}
	}

	s.ServeBeyondDocument(`property "id" is missing`)
	c.do("PUT", "/experiments/checkout_cta/make_decision", `{"decisionReason":"won"}`)
	if got := s.DocumentBreaks(); len(got) != 2 {
		t.Errorf("a break the test accepts was reported: %q", got[2:])
	}
}
