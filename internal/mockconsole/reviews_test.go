// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"net/http"
	"strings"
	"testing"
)

// sendReviewed sends a write with x-respect-review-settings: true and returns the answer's status.
func sendReviewed(t *testing.T, c *client, method, path, body string) int {
	t.Helper()
	req, _ := http.NewRequest(method, c.url+path, strings.NewReader(body))
	req.Header.Set(apiKeyHeader, c.key)
	req.Header.Set(reviewHeader, reviewHeaderTrue)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// held sends a write with x-respect-review-settings: true and returns the review it was held as.
func held(t *testing.T, s *Server, c *client, method, path, body string) Review {
	t.Helper()
	if st := sendReviewed(t, c, method, path, body); st != http.StatusOK {
		t.Fatalf("held %s %s: %d", method, path, st)
	}
	reviews := s.PendingReviews()
	if len(reviews) == 0 {
		t.Fatal("nothing held")
	}
	return reviews[len(reviews)-1]
}

// With ReviewCommits, approval accepts a gate's change without applying it; the commit endpoint
// applies it once, and GET review serves every status.
func TestReviewCommits(t *testing.T) {
	s, c := newClient(t, Config{})
	s.SetHabits(Habits{Reviews: true, ReviewCommits: true})
	expect(t, c.do("POST", "/gates", map[string]any{"id": "g_rev", "description": "before"}), 201)
	rv := held(t, s, c, "PATCH", "/gates/g_rev", `{"description":"after"}`)
	review := func() map[string]any { return c.do("GET", "/gates/g_rev/reviews/"+rv.ID, nil).data() }
	if got := review(); got["status"] != statusPending || got["type"] != "gate" || got["change"].(map[string]any)["description"] != "after" {
		t.Errorf("pending review %v", got)
	}
	expect(t, c.do("PUT", "/gates/g_rev/reviews/"+rv.ID+"/commit", nil), 400) // not approved yet
	if err := s.ApproveReview(rv.ID); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Gate("g_rev"); g.Description != "before" {
		t.Errorf("approval applied the change: %+v", g)
	}
	if ar := c.do("GET", "/gates/g_rev", nil).data()["activeReview"].(map[string]any); ar["reviewStatus"] != reviewApproved || ar["reviewID"] != rv.ID {
		t.Errorf("activeReview %v", ar)
	}
	if got := review(); got["status"] != statusAccepted {
		t.Errorf("approved review %v", got)
	}
	r := c.do("PUT", "/gates/g_rev/reviews/"+rv.ID+"/commit", nil)
	expect(t, r, 200)
	if r.Body["message"] != reviewCommitMsg || r.data()["description"] != "after" || r.data()["activeReview"] != nil {
		t.Errorf("commit answered %s", r.Raw)
	}
	if got := review(); got["status"] != statusCommitted {
		t.Errorf("committed review %v", got)
	}
	expect(t, c.do("PUT", "/gates/g_rev/reviews/"+rv.ID+"/commit", nil), 400) // already committed
	expect(t, c.do("GET", "/gates/other/reviews/"+rv.ID, nil), 404)
	expect(t, c.do("PUT", "/gates/g_rev/reviews/rev_404/commit", nil), 404)

	// Rejected: never applied, the activeReview goes away, the review still reads.
	rv = held(t, s, c, "PATCH", "/gates/g_rev/rules", `{"rules":[{"name":"r","passPercentage":10,"conditions":[],"environments":[]}]}`)
	if err := s.RejectReview(rv.ID); err != nil {
		t.Fatal(err)
	}
	if got := review(); got["status"] != statusRejected || got["type"] != "gate_rules" {
		t.Errorf("rejected review %v", got)
	}
	if ar := c.do("GET", "/gates/g_rev", nil).data()["activeReview"]; ar != nil || len(s.PendingReviews()) != 0 {
		t.Errorf("rejected review still active: %v", ar)
	}
	expect(t, c.do("PUT", "/gates/g_rev/reviews/"+rv.ID+"/commit", nil), 400)

	// Committed in the console.
	rv = held(t, s, c, "PATCH", "/gates/g_rev", `{"description":"console"}`)
	if err := s.CommitReview(rv.ID); err == nil {
		t.Error("a pending review was committed")
	}
	if err := s.ApproveAndCommitAllReviews(); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Gate("g_rev"); g.Description != "console" || s.ReviewStatus(rv.ID) != statusCommitted {
		t.Errorf("console commit: %+v %s", g, s.ReviewStatus(rv.ID))
	}
}

// Without ReviewCommits approval applies, as before; pipelines keep that form with it too.
func TestReviewApprovalApplies(t *testing.T) {
	s, c := newClient(t, Config{})
	s.SetHabits(Habits{Reviews: true})
	expect(t, c.do("POST", "/gates", map[string]any{"id": "g_rev"}), 201)
	rv := held(t, s, c, "PATCH", "/gates/g_rev", `{"description":"after"}`)
	if err := s.ApproveReview(rv.ID); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Gate("g_rev"); g.Description != "after" || s.ReviewStatus(rv.ID) != statusCommitted {
		t.Errorf("approval did not apply: %+v %s", g, s.ReviewStatus(rv.ID))
	}
	if err := s.ApproveReview(rv.ID); err == nil {
		t.Error("approved twice")
	}
}

// A write to an archived gate is refused (400) as without reviews: there is nothing to review
// until the gate is unarchived; after unarchiving, the same write is held again.
func TestReviewArchivedGateRefused(t *testing.T) {
	s, c := newClient(t, Config{})
	s.SetHabits(Habits{Reviews: true, ReviewCommits: true})
	expect(t, c.do("POST", "/gates", map[string]any{"id": "g_arch", "description": "before"}), 201)
	if err := s.ArchiveGateInConsole("g_arch"); err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct{ method, path, body string }{
		{"PATCH", "/gates/g_arch", `{"description":"after"}`},
		{"PATCH", "/gates/g_arch/rules", `{"rules":[]}`},
	} {
		if st := sendReviewed(t, c, w.method, w.path, w.body); st != http.StatusBadRequest {
			t.Errorf("%s %s of an archived gate: %d, want 400", w.method, w.path, st)
		}
	}
	if n := len(s.PendingReviews()); n != 0 {
		t.Errorf("%d reviews held for an archived gate", n)
	}
	expect(t, c.do("PUT", "/gates/g_arch/unarchive", map[string]any{}), 200)
	held(t, s, c, "PATCH", "/gates/g_arch", `{"description":"after"}`)
}
