// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

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
			m.SetHabits(mockconsole.Habits{SegmentRuleObject: !array})
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
