// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"net/http"
	"testing"
)

// TestGateArchiveWire checks PUT /gates/{id}/archive and PUT /gates/{id}/unarchive on the wire (PUT, escaped path, the reason only when
// given) and that an answer without a body is completed by a read.
func TestGateArchiveWire(t *testing.T) {
	archived := `{"id":"g.1","status":"Archived","type":"STALE","typeReason":"STALE_NO_RULES"}`
	cases := []struct {
		name       string
		call       func(context.Context, *Client) (*Gate, error)
		replies    []reply
		path, body string
		requests   int
	}{
		{"archive with a reason", func(ctx context.Context, c *Client) (*Gate, error) { return c.ArchiveGate(ctx, "g.1", "launched") },
			[]reply{ok(archived)}, "/console/v1/gates/g.1/archive", `{"archiveReason":"launched"}`, 1},
		{"archive without", func(ctx context.Context, c *Client) (*Gate, error) { return c.ArchiveGate(ctx, "g.1", "") },
			[]reply{{Status: 200}, ok(archived)}, "/console/v1/gates/g.1/archive", `{}`, 2},
		{"unarchive", func(ctx context.Context, c *Client) (*Gate, error) { return c.UnarchiveGate(ctx, "a b", "back") },
			[]reply{ok(`{"id":"a b","status":"In Progress"}`)}, "/console/v1/gates/a%20b/unarchive", `{"unarchiveReason":"back"}`, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, script(tc.replies...))
			g, err := tc.call(context.Background(), f.client())
			if err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			if len(reqs) != tc.requests || reqs[0].Method != http.MethodPut || reqs[0].Path != tc.path || reqs[0].Body != tc.body {
				t.Fatalf("sent %+v", reqs)
			}
			if tc.requests > 1 && (reqs[1].Method != http.MethodGet || reqs[1].Path != "/console/v1/gates/g.1") {
				t.Errorf("read back with %s %s", reqs[1].Method, reqs[1].Path)
			}
			if wantArchived := tc.path[len(tc.path)-len("/archive"):] == "/archive"; g.Archived() != wantArchived {
				t.Errorf("Archived() = %v for %+v", g.Archived(), g)
			}
		})
	}
}

// TestGateStaleVerdict: STALE is the service's verdict on a TEMPORARY gate, not its type; a gate
// without typeReason is not stale.
func TestGateStaleVerdict(t *testing.T) {
	for _, tc := range []struct{ typ, reason, wantType, wantReason string }{
		{"STALE", "STALE_PROBABLY_LAUNCHED", "TEMPORARY", "STALE_PROBABLY_LAUNCHED"},
		{"stale", "STALE_NO_RULES", "TEMPORARY", "STALE_NO_RULES"},
		{"TEMPORARY", "NONE", "TEMPORARY", "NONE"},
		{"PERMANENT", "", "PERMANENT", "NONE"},
	} {
		g := Gate{Type: tc.typ, TypeReason: tc.reason}
		if g.DeclaredType() != tc.wantType || g.StaleReason() != tc.wantReason {
			t.Errorf("%s/%q: %s/%s, want %s/%s", tc.typ, tc.reason, g.DeclaredType(), g.StaleReason(), tc.wantType, tc.wantReason)
		}
	}
}

// TestGatesIncludeArchived: GET /gates asks for archived gates with includeArchived=true on every page;
// without it the query carries only the paging.
func TestGatesIncludeArchived(t *testing.T) {
	page := func(n, next string) reply {
		return reply{Status: 200, Body: `{"message":"ok","data":[{"id":"g` + n + `"}],"pagination":{"itemsPerPage":1,"pageNumber":` + n + `,"nextPage":` + next + `}}`}
	}
	f := newFake(t, script(page("1", `"/console/v1/gates?page=2&limit=1"`), page("2", "null"), page("1", "null")))
	c := f.client()
	var got []string
	collect := func(gs []Gate) error {
		for _, g := range gs {
			got = append(got, g.ID)
		}
		return nil
	}
	if err := c.EachGatesPage(context.Background(), ListOptions{IncludeArchived: true}, collect); err != nil {
		t.Fatal(err)
	}
	if err := c.EachGatesPage(context.Background(), ListOptions{}, collect); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 3 || len(got) != 3 {
		t.Fatalf("%d requests, gates %v", len(reqs), got)
	}
	for i, want := range []string{"includeArchived=true&limit=100&page=1", "includeArchived=true&limit=1&page=2", "limit=100&page=1"} {
		if reqs[i].Query != want {
			t.Errorf("request %d query %q, want %q", i, reqs[i].Query, want)
		}
	}
}
