// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// mockClient serves a mock console API (seeded with gate_001..gate_N) and a client of it.
func mockClient(t *testing.T, cfg mockconsole.Config, opts ...func(*Config)) (*mockconsole.Server, *Client) {
	t.Helper()
	m, ts := mockconsole.NewTestServer(t, cfg)
	return m, mockClientOf(t, ts, opts...)
}

// mockClientOf is a new client, as a new configuration of the provider makes, of the mock at ts.
func mockClientOf(t *testing.T, ts *httptest.Server, opts ...func(*Config)) *Client {
	t.Helper()
	return (&fakeAPI{t: t, srv: ts}).client(append([]func(*Config){func(c *Config) { c.APIKey = mockconsole.DefaultAPIKey }, shareReads}, opts...)...)
}

// readGates reads ids as a refresh does: ten at a time, each id twice (gate and gate rules).
func readGates(t *testing.T, c *Client, ids []string) map[string]*Gate {
	t.Helper()
	var mu sync.Mutex
	got := map[string]*Gate{}
	work := make(chan string)
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range work {
				g, err := c.GetGate(context.Background(), id)
				if err != nil && !NotFound(err) {
					t.Errorf("GetGate(%s): %v", id, err)
				}
				mu.Lock()
				got[id] = g
				mu.Unlock()
			}
		}()
	}
	for range 2 {
		for _, id := range ids {
			work <- id
		}
	}
	close(work)
	wg.Wait()
	return got
}

func benchIDs(from, to int) []string {
	var ids []string
	for i := from; i <= to; i++ {
		ids = append(ids, fmt.Sprintf("gate_%03d", i))
	}
	return ids
}

// gateGETs counts the reads (GET /gates/{id}) and list pages (GET /gates) the mock answered.
func gateGETs(m *mockconsole.Server) (reads, pages int) {
	for _, r := range m.Requests() {
		if r.Method != http.MethodGet {
			continue
		}
		switch p := strings.TrimPrefix(r.Path, "/console/v1"); {
		case p == "/gates":
			pages++
		case strings.HasPrefix(p, "/gates/"):
			reads++
		}
	}
	return reads, pages
}

// TestGetGateSharedInFlight: callers asking for one gate at once send one request, and each gets
// its own copy.
func TestGetGateSharedInFlight(t *testing.T) {
	m, c := mockClient(t, mockconsole.Config{Latency: 50 * time.Millisecond})
	m.PutGate(mockconsole.Gate{ID: "gate_001", Rules: []mockconsole.GateRule{{Name: "employees", PassPercentage: 100}}})
	m.ResetRequests()
	var wg sync.WaitGroup
	got := make([]*Gate, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g, err := c.GetGate(context.Background(), "gate_001")
			if err != nil {
				t.Errorf("GetGate: %v", err)
			}
			got[i] = g
		}()
	}
	wg.Wait()
	if reads, pages := gateGETs(m); reads != 1 || pages != 0 {
		t.Fatalf("8 callers at once sent %d reads and %d list pages, want 1 read", reads, pages)
	}
	got[0].Description = "changed by a caller"
	got[0].Rules[0].Name = "changed"
	again, err := c.GetGate(context.Background(), "gate_001")
	if err != nil {
		t.Fatal(err)
	}
	if again.Description == "changed by a caller" || again.Rules[0].Name == "changed" || got[1].Rules[0].Name == "changed" {
		t.Errorf("a caller's change reached another caller's gate: %+v", again)
	}
	if reads, _ := gateGETs(m); reads != 1 {
		t.Errorf("a second read within the refresh sent a request (%d reads)", reads)
	}
}

// TestGetGateWriteForgets: after any write through the client (of this gate, of another object),
// a read asks the service again and sees the change.
func TestGetGateWriteForgets(t *testing.T) {
	writes := map[string]func(context.Context, *Client) error{
		"the gate's fields": func(ctx context.Context, c *Client) error {
			_, err := c.UpdateGate(ctx, "gate_001", GateFields{Description: ptr("new words")})
			return err
		},
		"the gate's rules": func(ctx context.Context, c *Client) error {
			_, err := c.UpdateGateRules(ctx, "gate_001", []GateRule{})
			return err
		},
		"another gate": func(ctx context.Context, c *Client) error { return c.DeleteGate(ctx, "gate_002") },
	}
	for name, write := range writes {
		t.Run(name, func(t *testing.T) {
			m, c := mockClient(t, mockconsole.Config{})
			ctx := context.Background()
			before, err := c.GetGate(ctx, "gate_001")
			if err != nil {
				t.Fatal(err)
			}
			if err := write(ctx, c); err != nil {
				t.Fatal(err)
			}
			// What the console changes meanwhile must show as well.
			g, _ := m.Gate("gate_001")
			g.Name = "Renamed in the console"
			m.PutGate(g)
			after, err := c.GetGate(ctx, "gate_001")
			if err != nil {
				t.Fatal(err)
			}
			if after.Name != "Renamed in the console" {
				t.Errorf("the read after a write returned the answer from before it: %q (before: %q)", after.Name, before.Name)
			}
			if reads, _ := gateGETs(m); reads < 2 {
				t.Errorf("%d reads of the gate, want one before and one after the write", reads)
			}
		})
	}
}

// TestGetGateReadOverlappingWriteNotKept: a read answered while a write was under way is not
// handed out after the write.
func TestGetGateReadOverlappingWriteNotKept(t *testing.T) {
	release := make(chan struct{})
	arrived := make(chan struct{}, 1)
	var mu sync.Mutex
	desc, blocked := "old", false
	f := newFake(t, func(_ int, r seen) reply {
		if r.Method == http.MethodGet {
			mu.Lock()
			d, first := desc, !blocked
			blocked = true
			mu.Unlock()
			if first {
				arrived <- struct{}{}
				<-release
			}
			return ok(`{"id":"a","description":"` + d + `","rules":[]}`)
		}
		mu.Lock()
		desc = "new"
		mu.Unlock()
		return ok(`{"id":"a","description":"new","rules":[]}`)
	})
	// A read joined to the blocked one would wait for this long before failing the test.
	c := f.client(func(c *Config) { c.Timeout, c.MaxRetries = 2*time.Second, 0 })
	ctx := context.Background()
	done := make(chan *Gate)
	go func() {
		g, err := c.GetGate(ctx, "a")
		if err != nil {
			t.Error(err)
		}
		done <- g
	}()
	<-arrived
	if _, err := c.UpdateGate(ctx, "a", GateFields{Description: ptr("new")}); err != nil {
		t.Fatal(err)
	}
	// Asked after the write, while the read from before it is still in flight: not joined to it.
	g, err := c.GetGate(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if g.Description != "new" {
		t.Errorf("a read asked for after the write joined the read from before it: %q", g.Description)
	}
	close(release)
	if g := <-done; g.Description != "old" {
		t.Fatalf("the overlapping read: %q", g.Description)
	}
	if g, err = c.GetGate(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if g.Description != "new" {
		t.Errorf("after the write the client handed out the read that overlapped it: %q", g.Description)
	}
}

// TestGetGateUncachedReads: a poller's reads go to the service each time.
func TestGetGateUncachedReads(t *testing.T) {
	m, c := mockClient(t, mockconsole.Config{})
	ctx := uncachedReads(context.Background())
	for range 3 {
		if _, err := c.GetGate(ctx, "gate_001"); err != nil {
			t.Fatal(err)
		}
	}
	if reads, _ := gateGETs(m); reads != 3 {
		t.Errorf("%d reads, want 3", reads)
	}
}

// TestGetGateCancelledLeader: a caller whose own context ends does not fail another that waits
// for the same read.
func TestGetGateCancelledLeader(t *testing.T) {
	_, c := mockClient(t, mockconsole.Config{Latency: 100 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	leader := make(chan error)
	go func() {
		_, err := c.GetGate(ctx, "gate_001")
		leader <- err
	}()
	time.Sleep(20 * time.Millisecond)
	follower := make(chan error)
	go func() {
		_, err := c.GetGate(context.Background(), "gate_001")
		follower <- err
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-leader; err == nil {
		t.Error("the cancelled caller got no error")
	}
	if err := <-follower; err != nil {
		t.Errorf("the waiting caller failed with the other's cancellation: %v", err)
	}
}

// TestGetGateCancelledCallers: the caller whose read is in flight returns what its own read met
// (the request it tried), and a caller waiting for another's read leaves as soon as its own context
// ends, while that read goes on for the other.
func TestGetGateCancelledCallers(t *testing.T) {
	_, c := mockClient(t, mockconsole.Config{Latency: 300 * time.Millisecond})
	leaderCtx, cancelLeader := context.WithCancel(context.Background())
	defer cancelLeader()
	leader := make(chan error, 1)
	go func() {
		_, err := c.GetGate(leaderCtx, "gate_001")
		leader <- err
	}()
	time.Sleep(30 * time.Millisecond)
	waiterCtx, cancelWaiter := context.WithCancel(context.Background())
	waiter := make(chan error, 1)
	go func() {
		_, err := c.GetGate(waiterCtx, "gate_001")
		waiter <- err
	}()
	time.Sleep(30 * time.Millisecond)
	cancelWaiter()
	select {
	case err := <-waiter:
		if ce := (*CancelledError)(nil); !errors.As(err, &ce) || ce.Tried() != "" {
			t.Errorf("the waiter got %v (%T), want a CancelledError naming no request of its own", err, err)
		}
	case err := <-leader:
		t.Fatalf("the read ended (%v) before the cancelled waiter left", err)
	}
	cancelLeader()
	err := <-leader
	if ce := (*CancelledError)(nil); !errors.As(err, &ce) || !strings.HasPrefix(ce.Tried(), "GET ") {
		t.Errorf("the cancelled leader got %v (%T), want its own read's CancelledError naming the GET", err, err)
	}
}

// TestGetGatePagesWhenMany: a refresh of 150 of 300 gates reads them from list pages, and every
// gate is what a read of it says.
func TestGetGatePagesWhenMany(t *testing.T) {
	for _, habits := range []struct {
		name string
		h    mockconsole.Habits
	}{
		{"contract", mockconsole.Habits{}},
		{"unpaged lists", mockconsole.Habits{UnpagedLists: true}},
		{"page ignored", mockconsole.Habits{PageIgnored: true}},
		{"limit ceiling", mockconsole.Habits{LimitCeiling: true}},
		{"paging links without a total", mockconsole.Habits{PagingLinks: true}},
		{"every habit", mockconsole.AllHabits()},
	} {
		t.Run(habits.name, func(t *testing.T) {
			m, c := mockClient(t, mockconsole.Config{Latency: 5 * time.Millisecond, PageSizeCap: 0})
			m.SetHabits(habits.h)
			ids := benchIDs(1, 150)
			got := readGates(t, c, ids)
			reads, pages := gateGETs(m)
			t.Logf("%d reads, %d list pages", reads, pages)
			// Without a total, or with every page the first, the gates page 1 does not hold are
			// read on their own.
			if reads+pages > 40 && !habits.h.PagingLinks && !habits.h.PageIgnored {
				t.Errorf("150 gates took %d reads and %d list pages, want at most 40 in all", reads, pages)
			}
			if reads+pages > 150+1 {
				t.Errorf("150 gates took %d reads and %d list pages: more than one read each", reads, pages)
			}
			for _, id := range ids {
				want, err := c.GetGate(uncachedReads(context.Background()), id)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got[id], want) {
					t.Errorf("gate %s from the shared read differs from its own read:\n got %+v\nwant %+v", id, got[id], want)
				}
			}
		})
	}
}

// TestGetGatePagesSwitchRule: a few gates of a large project never list it; the first page is
// read once a second gate is asked for, the rest once as many gates were read on their own.
func TestGetGatePagesSwitchRule(t *testing.T) {
	m, ts := mockconsole.NewTestServer(t, mockconsole.Config{SeedGates: 999, Latency: time.Millisecond})
	readGates(t, mockClientOf(t, ts), benchIDs(901, 905))
	if reads, pages := gateGETs(m); pages > 1 || reads+pages > 2*5 {
		t.Errorf("5 gates of 1,000: %d reads and %d list pages, want at most 1 page and 10 requests", reads, pages)
	}

	m.ResetRequests()
	readGates(t, mockClientOf(t, ts), []string{"gate_500"})
	if reads, pages := gateGETs(m); reads != 1 || pages != 0 {
		t.Errorf("one gate: %d reads and %d list pages, want its read alone", reads, pages)
	}

	// 60 of 1,000 gates (11 pages with the mock's own), none on page 1: the other 10 pages are
	// read once 10 gates were read on their own, and cost less than the 60 reads.
	m.ResetRequests()
	readGates(t, mockClientOf(t, ts), benchIDs(301, 360))
	reads, pages := gateGETs(m)
	if pages != 11 || reads > 25 {
		t.Errorf("60 gates of 1,000: %d reads and %d list pages, want the 11 pages and few reads", reads, pages)
	}
}

// TestGetGateJoinedReadIsNoMiss: a caller that joins a read in flight sends nothing, so it does not
// count towards the single reads after which the remaining pages are read.
func TestGetGateJoinedReadIsNoMiss(t *testing.T) {
	m, ts := mockconsole.NewTestServer(t, mockconsole.Config{SeedGates: 999, Latency: 50 * time.Millisecond})
	c := mockClientOf(t, ts)
	// Page 1 is read at the fifth gate; it says ten pages follow, read after ten single reads.
	for _, id := range append(benchIDs(1, 5), benchIDs(301, 308)...) {
		if _, err := c.GetGate(context.Background(), id); err != nil {
			t.Fatal(err)
		}
	}
	if _, pages := gateGETs(m); pages != 1 {
		t.Fatalf("%d list pages before the test, want page 1 alone", pages)
	}
	m.ResetRequests()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.GetGate(context.Background(), "gate_309"); err != nil {
				t.Error(err)
			}
		}()
		time.Sleep(10 * time.Millisecond)
	}
	wg.Wait()
	if reads, pages := gateGETs(m); reads != 1 || pages != 0 {
		t.Errorf("two callers of one gate sent %d reads and %d list pages, want one read: the second joined it", reads, pages)
	}
}

// TestGetGateMissingFromPages: a gate the pages leave out (archived, or created since) is read on
// its own, and a gate neither holds is not found.
func TestGetGateMissingFromPages(t *testing.T) {
	var list []string
	for i := 1; i <= 150; i++ {
		list = append(list, fmt.Sprintf(`{"id":"g%03d","description":"listed","rules":[]}`, i))
	}
	page := func(n int) string {
		lo, hi := (n-1)*100, min(n*100, len(list))
		next := "null"
		if hi < len(list) {
			next = fmt.Sprintf(`"/console/v1/gates?page=%d&limit=100"`, n+1)
		}
		return fmt.Sprintf(`{"message":"ok","data":[%s],"pagination":{"itemsPerPage":100,"pageNumber":%d,"totalItems":%d,"nextPage":%s}}`,
			strings.Join(list[lo:hi], ","), n, len(list), next)
	}
	f := newFake(t, func(_ int, r seen) reply {
		switch {
		case r.Path == "/console/v1/gates" && strings.Contains(r.Query, "page=2"):
			return reply{Status: 200, Body: page(2)}
		case r.Path == "/console/v1/gates":
			return reply{Status: 200, Body: page(1)}
		case r.Path == "/console/v1/gates/archived":
			return ok(`{"id":"archived","status":"Archived","rules":[]}`)
		case strings.HasPrefix(r.Path, "/console/v1/gates/g"):
			return ok(`{"id":"` + strings.TrimPrefix(r.Path, "/console/v1/gates/") + `","description":"read","rules":[]}`)
		}
		return apiErr(404, "Gate not found")
	})
	c := f.client(shareReads)
	ids := []string{"archived", "missing"}
	for i := 1; i <= 150; i++ {
		ids = append(ids, fmt.Sprintf("g%03d", i))
	}
	got := readGates(t, c, ids)
	if g := got["archived"]; g == nil || g.Status != "Archived" {
		t.Errorf("the archived gate: %+v", g)
	}
	if g := got["missing"]; g != nil {
		t.Errorf("the gone gate: %+v", g)
	}
	if _, err := c.GetGate(context.Background(), "missing"); !NotFound(err) {
		t.Errorf("the gone gate: %v, want not found", err)
	}
	listed := 0
	for _, r := range f.requests() {
		if r.Path == "/console/v1/gates" {
			listed++
		}
	}
	if listed != 2 {
		t.Errorf("%d list pages, want 2", listed)
	}
	if f.count() > 40 {
		t.Errorf("%d requests", f.count())
	}
}

// TestGetGateNoPagesWithReviews: pages may not show a gate's pending review, so a client that
// respects review settings reads each gate (once).
func TestGetGateNoPagesWithReviews(t *testing.T) {
	m, c := mockClient(t, mockconsole.Config{}, func(cfg *Config) { cfg.RespectReviewSettings = true })
	readGates(t, c, benchIDs(1, 30))
	if reads, pages := gateGETs(m); reads != 30 || pages != 0 {
		t.Errorf("%d reads and %d list pages, want 30 reads", reads, pages)
	}
}

// TestGetGateNoPagesAfterWrite: an apply, writing as it goes, reads gates on their own.
func TestGetGateNoPagesAfterWrite(t *testing.T) {
	m, c := mockClient(t, mockconsole.Config{})
	if err := c.DeleteGate(context.Background(), "gate_300"); err != nil {
		t.Fatal(err)
	}
	readGates(t, c, benchIDs(1, 30))
	if reads, pages := gateGETs(m); reads != 30 || pages != 0 {
		t.Errorf("%d reads and %d list pages, want 30 reads", reads, pages)
	}
}

// objectGETs counts the reads (GET prefix/{id}) and list pages (GET prefix) the mock answered.
func objectGETs(m *mockconsole.Server, prefix string) (reads, pages int) {
	for _, r := range m.Requests() {
		switch p := strings.TrimPrefix(r.Path, "/console/v1"); {
		case r.Method != http.MethodGet:
		case p == prefix:
			pages++
		case strings.HasPrefix(p, prefix+"/"):
			reads++
		}
	}
	return reads, pages
}

// readEach reads ids ten at a time with get, and checks each against its own read.
func readEach[T any](t *testing.T, ids []string, get func(context.Context, string) (*T, error)) {
	t.Helper()
	got := make([]*T, len(ids))
	var wg sync.WaitGroup
	work := make(chan int)
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				v, err := get(context.Background(), ids[i])
				if err != nil {
					t.Errorf("%s: %v", ids[i], err)
				}
				got[i] = v
			}
		}()
	}
	for i := range ids {
		work <- i
	}
	close(work)
	wg.Wait()
	for i, id := range ids {
		want, err := get(uncachedReads(context.Background()), id)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("%s from the shared read differs from its own read:\n got %+v\nwant %+v", id, got[i], want)
		}
	}
}

// TestGetReleasePipelinePagesWhenMany: a refresh of 150 pipelines reads them from list pages.
func TestGetReleasePipelinePagesWhenMany(t *testing.T) {
	m, c := mockClient(t, mockconsole.Config{Latency: 2 * time.Millisecond})
	var ids []string
	for i := range 150 {
		id := fmt.Sprintf("pl_many_%03d", i)
		ids = append(ids, id)
		m.PutPipeline(mockconsole.Pipeline{ID: id, Name: "Pipeline " + id,
			Phases: []mockconsole.Phase{{ID: id + "_p1", Name: "canary", TimeIntervalMs: 3600000}}})
	}
	m.ResetRequests()
	readEach(t, ids, c.GetReleasePipeline)
	if reads, pages := objectGETs(m, "/release_pipelines"); reads+pages > 40+150 || pages == 0 {
		// +150: readEach's own reads, one per pipeline.
		t.Errorf("150 pipelines: %d reads and %d list pages, want list pages and at most 40 requests", reads-150, pages)
	}
}

// TestGetSegmentPagesWhenMany: rule-based segments whose rules a page shows whole are taken from
// the pages; id-list segments, and a rule-based one a page shows in part, are read on their own.
func TestGetSegmentPagesWhenMany(t *testing.T) {
	for _, array := range []bool{true, false} {
		t.Run(fmt.Sprintf("rules as an array %t", array), func(t *testing.T) {
			m, c := mockClient(t, mockconsole.Config{Latency: 2 * time.Millisecond})
			m.SetHabits(mockconsole.Habits{SegmentRulesArray: array})
			var ids []string
			for i := range 150 {
				id := fmt.Sprintf("seg_many_%03d", i)
				ids = append(ids, id)
				s := mockconsole.Segment{ID: id, Name: "Segment " + id, Type: "rule_based", IDType: "userID",
					Rules: []mockconsole.SegmentRule{{Name: "a", PassPercentage: 100}, {Name: "b", PassPercentage: 50}}}
				if i%10 == 0 {
					s = mockconsole.Segment{ID: id, Name: "Segment " + id, Type: "id_list", IDType: "userID", IDs: []string{"u1", "u2"}}
				}
				m.PutSegment(s)
			}
			m.ResetRequests()
			readEach(t, ids, c.GetSegment)
			reads, pages := objectGETs(m, "/segments")
			reads -= 150 // readEach's own reads, one per segment
			t.Logf("%d reads, %d list pages", reads, pages)
			if array && (pages == 0 || reads+pages > 40) {
				t.Errorf("150 segments: %d reads and %d list pages, want list pages and at most 40 requests", reads, pages)
			}
			if !array && (pages > 1 || reads+pages > 150+1) {
				t.Errorf("segments no page shows whole: %d reads and %d list pages, want one read each and one page at most", reads, pages)
			}
		})
	}
}

// shareReads configures a client as the provider does: reads shared until its next write.
func shareReads(c *Config) { c.SharedReads = true }

// A client made without SharedReads (a test's or a sweeper's checks, which never write) reads every
// time: a kept answer would hide what changed since.
func TestGetGateUnsharedReadsEveryTime(t *testing.T) {
	m, c := mockClient(t, mockconsole.Config{SeedGates: 150}, func(c *Config) { c.SharedReads = false })
	readGates(t, c, []string{"gate_001", "gate_002", "gate_003"})
	gets := 0
	for _, r := range m.Requests() {
		if r.Method == "GET" {
			gets++
			if r.Path == "/console/v1/gates" {
				t.Errorf("an unshared client listed gates: %+v", r)
			}
		}
	}
	if gets != 6 {
		t.Errorf("%d GETs for three gates read twice, want 6", gets)
	}
}
