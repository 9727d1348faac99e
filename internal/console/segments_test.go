// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// idPages answers GET .../id_list from ids, as the service pages them, refusing a limit above 100.
func idPages(ids []string) func(int, seen) reply {
	return func(_ int, r seen) reply {
		q, _ := url.ParseQuery(r.Query)
		page, _ := strconv.Atoi(q.Get("page"))
		limit, _ := strconv.Atoi(q.Get("limit"))
		if limit > 100 {
			return apiErr(400, "limit must not be greater than 100")
		}
		lo := min((page-1)*limit, len(ids))
		hi := min(lo+limit, len(ids))
		next := "null"
		if hi < len(ids) {
			next = fmt.Sprintf(`"/console/v1/segments/s/id_list?page=%d&limit=%d"`, page+1, limit)
		}
		b, _ := json.Marshal(ids[lo:hi])
		return reply{Status: 200, Body: fmt.Sprintf(`{"message":"ok","data":{"name":"s","count":%d,"ids":%s},"pagination":{"itemsPerPage":%d,"pageNumber":%d,"nextPage":%s}}`,
			len(ids), b, limit, page, next)}
	}
}

func TestSegmentIDsPagesAtMost100(t *testing.T) {
	ids := make([]string, 250)
	for i := range ids {
		ids[i] = fmt.Sprintf("u_%d", i)
	}
	f := newFake(t, idPages(ids))
	c := f.client(func(cfg *Config) { cfg.PageSize = 500 })
	got, err := c.SegmentIDs(context.Background(), "s")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 250 || got[0] != "u_0" || got[249] != "u_249" {
		t.Fatalf("got %d ids: %v...", len(got), got[:3])
	}
	for _, r := range f.requests() {
		if !strings.Contains(r.Query, "limit=100") || r.Path != "/console/v1/segments/s/id_list" {
			t.Errorf("request %s?%s", r.Path, r.Query)
		}
	}
	if f.count() != 3 {
		t.Errorf("%d pages, want 3", f.count())
	}
}

func TestSegmentIDsStopAtARepeatedPage(t *testing.T) {
	// A service that ignores page answers the first page forever.
	f := newFake(t, script(ok(`{"name":"s","count":2,"ids":["a","b"]}`)))
	f.respond = func(int, seen) reply {
		return reply{Status: 200, Body: `{"message":"ok","data":{"name":"s","count":2,"ids":["a","b"]},"pagination":{"itemsPerPage":2,"pageNumber":1,"nextPage":"/x?page=2&limit=2"}}`}
	}
	got, err := f.client().SegmentIDs(context.Background(), "s")
	if err != nil || strings.Join(got, ",") != "a,b" || f.count() != 2 {
		t.Fatalf("got %v, %v after %d requests", got, err, f.count())
	}
}

func TestSegmentIDWritesInChunks(t *testing.T) {
	f := newFake(t, script(ok(`{"name":"s","count":1}`)))
	c := f.client(func(cfg *Config) { cfg.IDListPacer = NewPacer(0, 0) })
	ids := make([]string, 2001)
	for i := range ids {
		ids[i] = fmt.Sprintf("u_%d", i)
	}
	if err := c.AddSegmentIDs(context.Background(), "a b", ids); err != nil {
		t.Fatal(err)
	}
	if err := c.RemoveSegmentIDs(context.Background(), "a b", ids[:3]); err != nil {
		t.Fatal(err)
	}
	var sizes []string
	for _, r := range f.requests() {
		var b struct {
			IDs []string `json:"ids"`
		}
		if err := json.Unmarshal([]byte(r.Body), &b); err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, fmt.Sprintf("%s %s %d", r.Method, r.Path, len(b.IDs)))
	}
	want := "PATCH /console/v1/segments/a%20b/id_list 1000,PATCH /console/v1/segments/a%20b/id_list 1000," +
		"PATCH /console/v1/segments/a%20b/id_list 1,DELETE /console/v1/segments/a%20b/id_list 3"
	if got := strings.Join(sizes, ","); got != want {
		t.Errorf("writes\n%s\nwant\n%s", got, want)
	}
}

// TestSegmentIDWritesDoNotStarveOtherWrites: id writes waiting for their own limit leave the
// project's write limit to the other writes, which go out at once.
func TestSegmentIDWritesDoNotStarveOtherWrites(t *testing.T) {
	f := newFake(t, script(ok(`{"id":"g","rules":[]}`)))
	c := f.client(func(cfg *Config) {
		cfg.Pacer = NewPacer(100, 10*time.Second)
		cfg.IDListPacer = NewPacer(1, 300*time.Millisecond)
	})
	ids := make([]string, 5000)
	for i := range ids {
		ids[i] = fmt.Sprintf("u_%d", i)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := c.AddSegmentIDs(context.Background(), "s", ids); err != nil {
			t.Error(err)
		}
	})
	time.Sleep(50 * time.Millisecond) // the id writes are under way
	start := time.Now()
	if _, err := c.UpdateGateRules(context.Background(), "g", nil); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited > 250*time.Millisecond {
		t.Errorf("the gate write waited %v behind the id writes", waited)
	}
	wg.Wait()
	if n := f.count(); n != 6 {
		t.Errorf("%d requests, want 5 id writes and 1 gate write", n)
	}
}

// TestSegmentIDWrites429WaitedOut: the id endpoints' 429 is retried after its Retry-After.
func TestSegmentIDWrites429WaitedOut(t *testing.T) {
	f := newFake(t, func(n int, _ seen) reply {
		if n == 0 {
			return reply{Status: http.StatusTooManyRequests, Body: `{"status":429,"message":"slow down"}`, Header: map[string]string{"Retry-After": "0"}}
		}
		return ok(`{}`)
	})
	c := f.client(func(cfg *Config) { cfg.MaxRetries = 0 })
	if err := c.AddSegmentIDs(context.Background(), "s", []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if f.count() != 2 {
		t.Errorf("%d attempts, want 2", f.count())
	}
}

func TestSetSegmentRulesSendsAnArrayWithoutReturnValue(t *testing.T) {
	f := newFake(t, script(ok(`{"id":"s","type":"rule_based","rules":[{"id":"r1","baseID":"b1","name":"a","passPercentage":10,"conditions":[]}]}`)))
	got, err := f.client().SetSegmentRules(context.Background(), "s", []SegmentRule{{Name: "a", PassPercentage: 10, ReturnValue: json.RawMessage(`{}`)}})
	if err != nil {
		t.Fatal(err)
	}
	r := f.requests()[0]
	if r.Method != http.MethodPost || r.Path != "/console/v1/segments/s/conditional" ||
		r.Body != `[{"name":"a","passPercentage":10,"conditions":[],"environments":null}]` {
		t.Errorf("sent %s %s %s", r.Method, r.Path, r.Body)
	}
	if len(got.Rules) != 1 || got.Rules[0].BaseID != "b1" {
		t.Errorf("answer %+v", got)
	}
}

// The document answers POST /segments/{id}/conditional with a message alone: the rules were taken,
// and the segment is read back rather than the write failing.
func TestSetSegmentRulesAnsweredByAMessage(t *testing.T) {
	f := newFake(t, script(reply{Status: 200, Body: `{"message":"Rules successfully updated"}`},
		ok(`{"id":"s","type":"rule_based","rules":[{"id":"r1","baseID":"b1","name":"a","passPercentage":10,"conditions":[]}]}`)))
	got, err := f.client().SetSegmentRules(context.Background(), "s", []SegmentRule{{Name: "a", PassPercentage: 10}})
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 2 || reqs[1].Method != http.MethodGet || reqs[1].Path != "/console/v1/segments/s" {
		t.Fatalf("sent %+v", reqs)
	}
	if got.ID != "s" || len(got.Rules) != 1 || got.Rules[0].BaseID != "b1" {
		t.Errorf("read back %+v", got)
	}
}

// An id list's read carries the list's name and count (GET /segments/{id}/id_list): the count of the first page, in any
// number form, and nil where the service sends none, which is no count of 0.
func TestSegmentIDListCount(t *testing.T) {
	ids := make([]string, 150)
	for i := range ids {
		ids[i] = fmt.Sprintf("u_%d", i)
	}
	l, err := newFake(t, idPages(ids)).client().SegmentIDList(context.Background(), "s")
	if err != nil {
		t.Fatal(err)
	}
	if l.Name != "s" || l.Count == nil || *l.Count != 150 || len(l.IDs) != 150 || l.IDs[149] != "u_149" {
		t.Errorf("got %s %v %d ids", l.Name, l.Count, len(l.IDs))
	}
	for body, want := range map[string]*WholeNumber{
		`{"name":"s","count":"3.0","ids":["a"]}`: ptr(WholeNumber(3)),
		`{"name":"s","count":null,"ids":["a"]}`:  nil,
		`{"name":"s","ids":["a"]}`:               nil,
		`{"name":"s","count":0,"ids":null}`:      ptr(WholeNumber(0)),
	} {
		l, err := newFake(t, script(ok(body))).client().SegmentIDList(context.Background(), "s")
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if (l.Count == nil) != (want == nil) || want != nil && *l.Count != *want || l.IDs == nil {
			t.Errorf("%s: count %v, ids %v", body, l.Count, l.IDs)
		}
	}
}

func TestCreateSegmentIsNotSentTwice(t *testing.T) {
	f := newFake(t, script(reply{Status: 502, Body: "<html>bad gateway</html>"}))
	_, err := f.client().CreateSegment(context.Background(), NewSegment{ID: "s", Type: SegmentIDList})
	if err == nil || !MaybeApplied(err) {
		t.Fatalf("err %v", err)
	}
	if f.count() != 1 {
		t.Errorf("the create was sent %d times", f.count())
	}
}

// A segment's count where the service sends none (the 2025-12 document) is not 0: only a
// rule-based segment whose rules came as an array tells its number without it.
func TestSegmentKnownCount(t *testing.T) {
	for _, tc := range []struct {
		body  string
		n     int64
		known bool
	}{
		{`{"id":"s","type":"id_list","count":50}`, 50, true},
		{`{"id":"s","type":"id_list","count":0}`, 0, true},
		{`{"id":"s","type":"id_list","count":"12.0"}`, 12, true},
		{`{"id":"s","type":"id_list"}`, 0, false},
		{`{"id":"s","type":"id_list","count":null,"rules":[]}`, 0, false},
		{`{"id":"s","type":"rule_based","rules":[{"name":"a"},{"name":"b"}]}`, 2, true},
		{`{"id":"s","type":"rule_based","rules":[]}`, 0, true},
		{`{"id":"s","type":"rule_based","rules":{"name":"a"}}`, 0, false}, // the seed's form shows one rule of any number
		{`{"id":"s","type":"rule_based","count":3,"rules":{"name":"a"}}`, 3, true},
		{`{"id":"s","type":"analysis_list"}`, 0, false},
	} {
		var s Segment
		if err := json.Unmarshal([]byte(tc.body), &s); err != nil {
			t.Fatalf("%s: %v", tc.body, err)
		}
		if n, known := s.KnownCount(); n != tc.n || known != tc.known {
			t.Errorf("%s: %d, %v; want %d, %v", tc.body, n, known, tc.n, tc.known)
		}
	}
}
