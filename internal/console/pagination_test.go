// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// pagedUsers serves total users, capping limit at pageCap, with links of the documented form.
// linkLimit controls whether nextPage carries a limit parameter.
func pagedUsers(total, pageCap int, linkLimit bool) func(int, seen) reply {
	return func(_ int, r seen) reply {
		q, _ := url.ParseQuery(r.Query)
		page, _ := strconv.Atoi(q.Get("page"))
		limit, _ := strconv.Atoi(q.Get("limit"))
		if page < 1 {
			page = 1
		}
		if limit < 1 || limit > pageCap {
			limit = pageCap
		}
		var users []User
		for i := (page - 1) * limit; i < min(page*limit, total); i++ {
			users = append(users, User{Email: fmt.Sprintf("u%04d@example.com", i), Role: "member"})
		}
		if users == nil {
			users = []User{}
		}
		link := func(p int) *string {
			s := "/console/v1/users?page=" + strconv.Itoa(p)
			if linkLimit {
				s += "&limit=" + strconv.Itoa(limit)
			}
			return &s
		}
		pg := Pagination{ItemsPerPage: limit, PageNumber: page, TotalItems: total, All: "/console/v1/users"}
		if page*limit < total {
			pg.NextPage = link(page + 1)
		}
		if page > 1 {
			pg.PreviousPage = link(page - 1)
		}
		b, _ := json.Marshal(map[string]any{"message": "ok", "data": users, "pagination": pg})
		return reply{Status: 200, Body: string(b)}
	}
}

func emails(us []User) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.Email
	}
	return out
}

func wantEmails(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("u%04d@example.com", i)
	}
	return out
}

func queries(f *fakeAPI) []string {
	var out []string
	for _, r := range f.requests() {
		out = append(out, r.Query)
	}
	return out
}

func TestPagingFollowsNextPage(t *testing.T) {
	f := newFake(t, pagedUsers(250, 100, true))
	us, err := f.client().ListUsers(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(emails(us), wantEmails(250)) {
		t.Errorf("got %d users", len(us))
	}
	want := []string{"limit=100&page=1", "limit=100&page=2", "limit=100&page=3"}
	if got := queries(f); !reflect.DeepEqual(got, want) {
		t.Errorf("queries %v, want %v", got, want)
	}
}

// The service caps limit at 7: the client must use 7 from then on, whether or not the link says so.
func TestPagingUsesReportedPageSize(t *testing.T) {
	for _, linkLimit := range []bool{true, false} {
		f := newFake(t, pagedUsers(20, 7, linkLimit))
		us, err := f.client().ListUsers(context.Background(), ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(emails(us), wantEmails(20)) {
			t.Errorf("link limit %v: got %v", linkLimit, emails(us))
		}
		want := []string{"limit=100&page=1", "limit=7&page=2", "limit=7&page=3"}
		if got := queries(f); !reflect.DeepEqual(got, want) {
			t.Errorf("link limit %v: queries %v, want %v", linkLimit, got, want)
		}
	}
}

func TestPagingPageSizeConfig(t *testing.T) {
	f := newFake(t, pagedUsers(5, 100, true))
	if _, err := f.client(func(c *Config) { c.PageSize = 2 }).ListUsers(context.Background(), ListOptions{}); err != nil {
		t.Fatal(err)
	}
	want := []string{"limit=2&page=1", "limit=2&page=2", "limit=2&page=3"}
	if got := queries(f); !reflect.DeepEqual(got, want) {
		t.Errorf("queries %v, want %v", got, want)
	}
}

func TestPagingMaxRecords(t *testing.T) {
	cases := []struct {
		max     int
		queries []string
	}{
		{5, []string{"limit=5&page=1"}},
		{100, []string{"limit=100&page=1"}},
		{150, []string{"limit=100&page=1", "limit=100&page=2"}},
		{250, []string{"limit=100&page=1", "limit=100&page=2", "limit=100&page=3"}},
		{1000, []string{"limit=100&page=1", "limit=100&page=2", "limit=100&page=3"}},
	}
	for _, tc := range cases {
		f := newFake(t, pagedUsers(250, 100, true))
		us, err := f.client().ListUsers(context.Background(), ListOptions{MaxRecords: tc.max})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(emails(us), wantEmails(min(tc.max, 250))) {
			t.Errorf("MaxRecords %d: got %d records", tc.max, len(us))
		}
		if got := queries(f); !reflect.DeepEqual(got, tc.queries) {
			t.Errorf("MaxRecords %d: queries %v, want %v", tc.max, got, tc.queries)
		}
	}
}

// MaxRecords below a capped page size: stop exactly, and the events path is escaped on every page.
func TestPagingEventsMaxRecordsWithCap(t *testing.T) {
	f := newFake(t, func(n int, r seen) reply {
		q, _ := url.ParseQuery(r.Query)
		page, _ := strconv.Atoi(q.Get("page"))
		next := fmt.Sprintf(`"/console/v1/events/a%%20b?page=%d&limit=3"`, page+1)
		var evs []string
		for i := 0; i < 3; i++ {
			evs = append(evs, fmt.Sprintf(`{"timestamp":"%d","name":"a b","value":%d}`, (page-1)*3+i, (page-1)*3+i))
		}
		return reply{Status: 200, Body: `{"message":"ok","data":[` + strings.Join(evs, ",") +
			`],"pagination":{"itemsPerPage":3,"pageNumber":` + strconv.Itoa(page) + `,"totalItems":1000,"nextPage":` + next + `}}`}
	})
	evs, err := f.client().ListEvents(context.Background(), "a b", ListOptions{MaxRecords: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 8 || evs[7].Value != "7" || evs[0].Timestamp != "0" {
		t.Errorf("got %+v", evs)
	}
	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for _, r := range reqs {
		if r.Path != "/console/v1/events/a%20b" {
			t.Errorf("path %s", r.Path)
		}
	}
	if reqs[0].Query != "limit=8&page=1" || reqs[1].Query != "limit=3&page=2" {
		t.Errorf("queries %v", queries(f))
	}
}

func TestPagingConcurrentMatchesSequential(t *testing.T) {
	for _, tc := range []struct{ total, cap, max int }{{1000, 7, 0}, {333, 10, 0}, {1000, 7, 500}, {10, 100, 0}, {701, 7, 700}} {
		seq := newFake(t, pagedUsers(tc.total, tc.cap, true))
		want, err := seq.client().ListUsers(context.Background(), ListOptions{MaxRecords: tc.max})
		if err != nil {
			t.Fatal(err)
		}
		var inFlight, peak atomic.Int32
		par := newFake(t, func(n int, r seen) reply {
			cur := inFlight.Add(1)
			defer inFlight.Add(-1)
			for {
				p := peak.Load()
				if cur <= p || peak.CompareAndSwap(p, cur) {
					break
				}
			}
			time.Sleep(time.Millisecond)
			return pagedUsers(tc.total, tc.cap, true)(n, r)
		})
		got, err := par.client().ListUsers(context.Background(), ListOptions{MaxRecords: tc.max, Concurrency: 4})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: concurrent result differs from sequential (%d vs %d records)", tc, len(got), len(want))
		}
		n := tc.total
		if tc.max > 0 {
			n = min(n, tc.max)
		}
		if !reflect.DeepEqual(emails(got), wantEmails(n)) {
			t.Errorf("%+v: records out of order or missing", tc)
		}
		if p := peak.Load(); p > 4 {
			t.Errorf("%+v: %d requests in flight, limit 4", tc, p)
		}
		if par.count() != seq.count() {
			t.Errorf("%+v: %d requests concurrently, %d sequentially", tc, par.count(), seq.count())
		}
	}
}

// Records added while the pages are fetched concurrently are picked up by following nextPage.
func TestPagingConcurrentGrowth(t *testing.T) {
	var total atomic.Int32
	total.Store(30)
	f := newFake(t, func(n int, r seen) reply {
		if n == 0 {
			defer total.Store(45)
		}
		return pagedUsers(int(total.Load()), 10, true)(n, r)
	})
	got, err := f.client().ListUsers(context.Background(), ListOptions{Concurrency: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(emails(got), wantEmails(45)) {
		t.Errorf("got %d records", len(got))
	}
}

func TestPagingConcurrentError(t *testing.T) {
	f := newFake(t, func(n int, r seen) reply {
		if strings.Contains(r.Query, "page=5&") || strings.HasSuffix(r.Query, "page=5") {
			return apiErr(403, "forbidden page")
		}
		return pagedUsers(100, 10, true)(n, r)
	})
	_, err := f.client().ListUsers(context.Background(), ListOptions{Concurrency: 4})
	if !hasStatus(err, 403) || !strings.Contains(err.Error(), "Unable to list users: 403 Forbidden: forbidden page") {
		t.Errorf("got %v", err)
	}
}

func pageReply(data string, pg string) reply {
	return reply{Status: 200, Body: `{"message":"ok","data":` + data + `,"pagination":` + pg + `}`}
}

func TestPagingNonAdvancingNextPage(t *testing.T) {
	for _, next := range []string{
		`"/console/v1/users?page=1&limit=2"`,
		`"/console/v1/users?limit=2"`,
		`"/console/v1/users?page=0"`,
		`"/console/v1/users?page=abc"`,
		`"%zz"`,
	} {
		f := newFake(t, script(pageReply(`[{"email":"a"},{"email":"b"}]`, `{"itemsPerPage":2,"pageNumber":1,"totalItems":10,"nextPage":`+next+`}`)))
		for _, conc := range []int{0, 4} {
			done := make(chan error, 1)
			go func() {
				_, err := f.client().ListUsers(context.Background(), ListOptions{Concurrency: conc})
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "nextPage") || !strings.HasPrefix(err.Error(), "Unable to list users") {
					t.Errorf("nextPage %s: got %v", next, err)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("nextPage %s: the listing did not stop", next)
			}
		}
	}
	// A later page pointing back is caught too.
	f := newFake(t, func(n int, r seen) reply {
		if n == 0 {
			return pageReply(`[{"email":"a"}]`, `{"itemsPerPage":1,"nextPage":"/console/v1/users?page=2&limit=1"}`)
		}
		return pageReply(`[{"email":"b"}]`, `{"itemsPerPage":1,"nextPage":"/console/v1/users?page=2&limit=1"}`)
	})
	if _, err := f.client().ListUsers(context.Background(), ListOptions{}); err == nil || f.count() != 2 {
		t.Errorf("got %v after %d requests", err, f.count())
	}
}

func TestPagingEmptyAndMissing(t *testing.T) {
	for _, body := range []string{
		`{"message":"ok","data":[],"pagination":{"itemsPerPage":100,"pageNumber":1,"totalItems":0,"nextPage":null,"previousPage":null}}`,
		`{"message":"ok","data":null,"pagination":{"nextPage":null}}`,
		`{"message":"ok","data":[],"pagination":{"nextPage":""}}`,
		`{"message":"ok","data":[]}`,
	} {
		f := newFake(t, script(reply{Status: 200, Body: body}))
		us, err := f.client().ListUsers(context.Background(), ListOptions{Concurrency: 4})
		if err != nil || len(us) != 0 {
			t.Errorf("%s: got %v %v", body, us, err)
		}
		if f.count() != 1 {
			t.Errorf("%s: %d requests", body, f.count())
		}
	}
}

// A link's path is ignored: only page and limit are taken from it.
func TestPagingIgnoresLinkPath(t *testing.T) {
	f := newFake(t, func(n int, r seen) reply {
		if n == 0 {
			return pageReply(`[{"email":"a"}]`, `{"itemsPerPage":1,"nextPage":"https://evil.example.com/steal?page=2&limit=1"}`)
		}
		return pageReply(`[{"email":"b"}]`, `{"itemsPerPage":1,"nextPage":null}`)
	})
	us, err := f.client().ListUsers(context.Background(), ListOptions{})
	if err != nil || len(us) != 2 {
		t.Fatalf("got %v %v", us, err)
	}
	if r := f.requests()[1]; r.Path != "/console/v1/users" || r.Query != "limit=1&page=2" {
		t.Errorf("second request %s?%s", r.Path, r.Query)
	}
}

func TestPagingBadItemsPerPage(t *testing.T) {
	f := newFake(t, script(pageReply(`[{"email":"a"}]`, `{"itemsPerPage":0,"nextPage":"/console/v1/users?page=2"}`)))
	_, err := f.client().ListUsers(context.Background(), ListOptions{})
	if err == nil || !strings.Contains(err.Error(), "itemsPerPage") {
		t.Errorf("got %v", err)
	}
}

// An absurd totalItems must not make the client plan billions of requests or allocate for them.
func TestPagingAbsurdTotal(t *testing.T) {
	f := newFake(t, func(n int, r seen) reply {
		q, _ := url.ParseQuery(r.Query)
		page, _ := strconv.Atoi(q.Get("page"))
		if page == 3 {
			return pageReply(`[{"email":"c"}]`, `{"itemsPerPage":1,"totalItems":9000000000000000000,"nextPage":null}`)
		}
		if page > 3 {
			return pageReply(`[]`, `{"itemsPerPage":1,"totalItems":3,"nextPage":null}`)
		}
		// Pages differ: a page repeating one already read would end the listing.
		return pageReply(fmt.Sprintf(`[{"email":"a%d"}]`, page), fmt.Sprintf(`{"itemsPerPage":1,"totalItems":9000000000000000000,"nextPage":"/console/v1/users?page=%d&limit=1"}`, page+1))
	})
	us, err := f.client().ListUsers(context.Background(), ListOptions{Concurrency: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(emails(us), []string{"a1", "a2", "c"}) {
		t.Errorf("got %v", emails(us))
	}
	if f.count() > 40 {
		t.Errorf("%d requests for 3 pages", f.count())
	}
}

func TestPagingCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := newFake(t, func(n int, r seen) reply {
		if n == 2 {
			cancel()
		}
		return pagedUsers(1000, 10, true)(n, r)
	})
	for _, conc := range []int{0, 4} {
		_, err := f.client().ListUsers(ctx, ListOptions{Concurrency: conc})
		if err == nil || !strings.Contains(err.Error(), "canceled") {
			t.Errorf("concurrency %d: got %v", conc, err)
		}
	}
}

// Records shrank after the first page: the page that says it is the last ends the listing,
// concurrently as sequentially.
func TestPagingConcurrentStopsAtLastPage(t *testing.T) {
	respond := func(n int, r seen) reply {
		q, _ := url.ParseQuery(r.Query)
		page, _ := strconv.Atoi(q.Get("page"))
		next := fmt.Sprintf(`"/console/v1/users?page=%d&limit=1"`, page+1)
		if page == 2 {
			next = "null"
		}
		return pageReply(fmt.Sprintf(`[{"email":"u%04d@example.com"}]`, page-1), `{"itemsPerPage":1,"totalItems":10,"nextPage":`+next+`}`)
	}
	for _, conc := range []int{0, 4} {
		f := newFake(t, respond)
		us, err := f.client().ListUsers(context.Background(), ListOptions{Concurrency: conc})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(emails(us), wantEmails(2)) {
			t.Errorf("concurrency %d: got %v", conc, emails(us))
		}
	}
}

// A list answered whole, without a pagination object, is complete: one request.
func TestPagingWithoutPaginationIsComplete(t *testing.T) {
	f := newFake(t, script(reply{Status: 200, Body: `{"message":"ok","data":[{"email":"a"},{"email":"b"},{"email":"c"}]}`}))
	for _, conc := range []int{0, 4} {
		us, err := f.client().ListUsers(context.Background(), ListOptions{Concurrency: conc})
		if err != nil || !reflect.DeepEqual(emails(us), []string{"a", "b", "c"}) {
			t.Errorf("concurrency %d: got %v %v", conc, emails(us), err)
		}
	}
	if f.count() != 2 {
		t.Errorf("%d requests for two listings", f.count())
	}
}

// A list that ignores page answers the first page every time, still linking a next one: paging
// stops at the first repeat, sequentially and concurrently, with each record read once.
func TestPagingStopsAtRepeatedPage(t *testing.T) {
	for _, total := range []string{"", `"totalItems":6,`} {
		for _, conc := range []int{0, 4} {
			f := newFake(t, script(pageReply(`[{"email":"a"},{"email":"b"}]`,
				`{"itemsPerPage":2,"pageNumber":1,`+total+`"nextPage":"/console/v1/users?page=2&limit=2"}`)))
			done := make(chan error, 1)
			var us []User
			go func() {
				var err error
				us, err = f.client().ListUsers(context.Background(), ListOptions{Concurrency: conc})
				done <- err
			}()
			select {
			case err := <-done:
				if err != nil || !reflect.DeepEqual(emails(us), []string{"a", "b"}) {
					t.Errorf("total %q, concurrency %d: got %v %v", total, conc, emails(us), err)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("total %q, concurrency %d: the listing did not stop", total, conc)
			}
			if n := f.count(); n > 1+maxWindowPages {
				t.Errorf("total %q, concurrency %d: %d requests", total, conc, n)
			}
		}
	}
	// A page holding nothing, though a next one is linked, ends the listing too.
	f := newFake(t, func(n int, _ seen) reply {
		if n == 0 {
			return pageReply(`[{"email":"a"}]`, `{"itemsPerPage":1,"nextPage":"/console/v1/users?page=2&limit=1"}`)
		}
		return pageReply(`[]`, fmt.Sprintf(`{"itemsPerPage":1,"nextPage":"/console/v1/users?page=%d&limit=1"}`, n+2))
	})
	if us, err := f.client().ListUsers(context.Background(), ListOptions{}); err != nil || len(us) != 1 || f.count() != 2 {
		t.Errorf("got %v %v after %d requests", emails(us), err, f.count())
	}
}

// Some lists refuse a limit above 100 with a 400: no page size configured, and no link, makes the
// client ask for more.
func TestPagingNeverAsksAbove100(t *testing.T) {
	refuse := func(inner func(int, seen) reply) func(int, seen) reply {
		return func(n int, r seen) reply {
			q, _ := url.ParseQuery(r.Query)
			if l, _ := strconv.Atoi(q.Get("limit")); l > MaxPageSize {
				return apiErr(400, "limit must not be greater than 100")
			}
			return inner(n, r)
		}
	}
	f := newFake(t, refuse(pagedUsers(250, 1000, true)))
	us, err := f.client(func(c *Config) { c.PageSize = 500 }).ListUsers(context.Background(), ListOptions{})
	if err != nil || len(us) != 250 {
		t.Fatalf("got %d users, %v", len(us), err)
	}
	// A link that names a larger limit is followed at 100.
	f = newFake(t, refuse(func(n int, r seen) reply {
		if n == 0 {
			return pageReply(`[{"email":"a"}]`, `{"itemsPerPage":500,"nextPage":"/console/v1/users?page=2&limit=500"}`)
		}
		return pageReply(`[{"email":"b"}]`, `{"itemsPerPage":500,"nextPage":null}`)
	}))
	if us, err := f.client().ListUsers(context.Background(), ListOptions{Concurrency: 4}); err != nil || len(us) != 2 {
		t.Fatalf("got %v %v", emails(us), err)
	}
	for _, q := range queries(f) {
		if !strings.Contains(q, "limit=100") {
			t.Errorf("asked %s", q)
		}
	}
}
