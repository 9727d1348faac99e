// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"net/http"
	"testing"
)

// TestCollectionRequests pins what each object's collection sends and how errors name it: the
// exported methods of every object file are built on these.
func TestCollectionRequests(t *testing.T) {
	cases := []struct {
		name               string
		read, list         request
		readPath, listPath string
		readOp, listOp     string
	}{
		{"gates", gates.readRequest("a/b"), gates.listRequest(), "/gates/a%2Fb", "/gates", "read gate", "list gates"},
		{"release pipelines", releasePipelines.readRequest("a/b"), releasePipelines.listRequest(), "/release_pipelines/a%2Fb", "/release_pipelines", "read release pipeline", "list release pipelines"},
		{"metric sources", metricSources.readRequest("a/b"), metricSources.listRequest(), "/metrics/metric_source/a%2Fb", "/metrics/metric_source/list", "read metric source", "list metric sources"},
		{"runs", releasePipelineTriggers.readRequest("a/b"), releasePipelineTriggers.listRequest(), "/release_pipeline_triggers/a%2Fb", "/release_pipeline_triggers", "read release pipeline run", "list release pipeline runs"},
		{"segments", segments.readRequest("a/b"), segments.listRequest(), "/segments/a%2Fb", "/segments", "read segment", "list segments"},
		{"users", users.readRequest("a/b"), users.listRequest(), "/users/a%2Fb", "/users", "read user", "list users"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.read.method != http.MethodGet || tc.read.path != tc.readPath || tc.read.op != tc.readOp || tc.read.object != `"a/b"` {
				t.Errorf("read request = %+v, want GET %s op %q object %q", tc.read, tc.readPath, tc.readOp, `"a/b"`)
			}
			if tc.list.method != http.MethodGet || tc.list.path != tc.listPath || tc.list.op != tc.listOp || tc.list.object != "" {
				t.Errorf("list request = %+v, want GET %s op %q without object", tc.list, tc.listPath, tc.listOp)
			}
		})
	}
}

func TestOrEmpty(t *testing.T) {
	if got := orEmpty[string](nil); got == nil || len(got) != 0 {
		t.Errorf("orEmpty(nil) = %#v, want an empty non-nil slice", got)
	}
	in := []int{1, 2}
	if got := orEmpty(in); len(got) != 2 || &got[0] != &in[0] {
		t.Errorf("orEmpty(%v) = %v, want the same slice", in, got)
	}
}

// TestWriteReviewed covers the three ways a reviewed write ends: the answer as it came, an answer
// completed by a read, and a write held for review (returned with the object).
func TestWriteReviewed(t *testing.T) {
	const full = `{"id":"g","rules":[{"name":"r","passPercentage":1,"conditions":[],"environments":null}]}`
	const held = `{"id":"g","rules":[],"activeReview":{"reviewID":"rv1","reviewStatus":"PENDING"}}`
	cases := []struct {
		name     string
		replies  []reply
		review   bool
		requests int
		wantErr  bool
	}{
		{"complete answer", []reply{ok(full)}, false, 1, false},
		{"empty answer read back", []reply{{Status: 200}, ok(full)}, false, 2, false},
		{"answer without the rules read back", []reply{ok(`{"id":"g"}`), ok(full)}, false, 2, false},
		{"held for review", []reply{ok(held)}, true, 1, true},
		{"pending review ignored without review settings", []reply{ok(held)}, false, 1, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, script(tc.replies...))
			c := f.client(func(cfg *Config) { cfg.RespectReviewSettings = tc.review })
			r := request{method: http.MethodPatch, path: "/gates/g/rules", body: map[string]any{}, op: "update rules of gate", object: `"g"`}
			ctx := context.Background()
			g, err := writeReviewed(ctx, c, r, func() (*Gate, error) { return c.GetGate(ctx, "g") },
				func(g *Gate) bool { return g.Rules == nil })
			if n := f.count(); n != tc.requests {
				t.Errorf("requests = %d, want %d", n, tc.requests)
			}
			var rp *ReviewPendingError
			if tc.wantErr {
				if !errors.As(err, &rp) || rp.ReviewID != "rv1" || g == nil || g.ID != "g" {
					t.Fatalf("got %+v, %v; want the gate with a ReviewPendingError for rv1", g, err)
				}
				return
			}
			if err != nil || g == nil || g.ID != "g" {
				t.Fatalf("got %+v, %v; want gate g", g, err)
			}
		})
	}
}
