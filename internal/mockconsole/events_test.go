// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestEvents(t *testing.T) {
	s, c := newClient(t, Config{EventRecords: 100000, PageSizeCap: 1000})
	r := c.do("GET", "/events/checkout_completed?limit=5000&page=100", nil)
	expect(t, r, 200)
	if r.pg()["totalItems"] != json.Number("100000") || r.pg()["itemsPerPage"] != json.Number("1000") || r.pg()["nextPage"] != nil {
		t.Fatalf("pagination %v", r.pg())
	}
	l := r.list()
	if len(l) != 1000 {
		t.Fatalf("len %d", len(l))
	}
	e0 := l[0].(map[string]any)
	if _, ok := e0["timestamp"].(string); !ok || e0["name"] != "checkout_completed" {
		t.Fatalf("event %v", e0)
	}
	if _, ok := e0["metadata"].(map[string]any); !ok {
		t.Fatalf("metadata %v", e0)
	}
	r = c.do("GET", "/events/signup", nil)
	if len(r.list()) != 3 {
		t.Fatalf("signup %s", r.Raw)
	}
	r = c.do("GET", "/events/unknown_event", nil)
	expect(t, r, 200)
	if len(r.list()) != 0 || r.Body["data"] == nil || r.pg()["totalItems"] != json.Number("0") || r.pg()["nextPage"] != nil {
		t.Fatalf("unknown event %s", r.Raw)
	}
	s.SetEvents("checkout_completed", []Event{{Timestamp: "1", Name: "checkout_completed", Metadata: map[string]any{"n": 1.5, "nested": map[string]any{"b": true}}}})
	r = c.do("GET", "/events/checkout_completed", nil)
	if len(r.list()) != 1 || !strings.Contains(string(r.Raw), `"n":1.5`) {
		t.Fatalf("SetEvents %s", r.Raw)
	}
	// increasing timestamps in generated events
	_, c2 := newClient(t, Config{})
	r = c2.do("GET", "/events/checkout_completed?limit=50", nil)
	if r.pg()["totalItems"] != json.Number("2500") {
		t.Fatalf("default records %v", r.pg())
	}
	prev := ""
	for _, x := range r.list() {
		ts := x.(map[string]any)["timestamp"].(string)
		increasing := len(ts) == len(prev) && ts > prev
		if prev != "" && !increasing {
			t.Fatalf("timestamps not increasing: %s after %s", ts, prev)
		}
		prev = ts
	}
}

// New stays fast with many event records because they are generated when read, never stored:
// asserted on the state rather than timed (a timed test fails on a loaded machine).
func TestNewDoesNotMaterialiseEvents(t *testing.T) {
	s := New(Config{EventRecords: 100000})
	s.mu.Lock()
	stored, generated := len(s.events[checkoutEvent]), s.genEvents
	s.mu.Unlock()
	if stored != 0 || generated != 100000 {
		t.Fatalf("%d records stored, %d generated on demand; want 0 and 100000", stored, generated)
	}
	if got := s.EventRecords(checkoutEvent); len(got) != 100000 || got[99999].Name != checkoutEvent {
		t.Fatalf("reading gives %d records", len(got))
	}
}

func BenchmarkEventsPage(b *testing.B) {
	s := New(Config{EventRecords: 100000})
	req := httptest.NewRequest("GET", "/console/v1/events/checkout_completed?page=900&limit=100", nil)
	req.Header.Set("SERVICE-API-KEY", DefaultAPIKey)
	for b.Loop() {
		s.ServeHTTP(httptest.NewRecorder(), req)
	}
}

func TestEventRecords(t *testing.T) {
	s, c := newClient(t, Config{EventRecords: 250})
	recs := s.EventRecords("checkout_completed")
	if len(recs) != 250 {
		t.Fatalf("len %d", len(recs))
	}
	// The records are the ones the listing serves, in the same order.
	r := c.do("GET", "/events/checkout_completed?limit=250", nil)
	want, _ := json.Marshal(recs)
	got, _ := json.Marshal(r.Body["data"])
	var a, b any
	_ = json.Unmarshal(want, &a)
	_ = json.Unmarshal(got, &b)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("EventRecords differ from the listing:\n%s\n%s", want[:200], got[:200])
	}
	if n := len(s.EventRecords("signup")); n != 3 {
		t.Fatalf("signup %d", n)
	}
	if l := s.EventRecords("unknown_event"); l == nil || len(l) != 0 {
		t.Fatalf("unknown event %v", l)
	}
	recs[0].Metadata["currency"] = "XXX"
	if s.EventRecords("checkout_completed")[0].Metadata["currency"] == "XXX" {
		t.Fatal("EventRecords returned shared metadata")
	}
}
