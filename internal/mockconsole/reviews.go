// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
)

// Reviews (habit Reviews): a project whose changes need review does not apply a write to a gate or
// a pipeline sent with x-respect-review-settings: true. It answers 200 with the object as it still
// stands and its pending review, and applies the change once someone approves the review in the
// console, later. Tests play that someone with ApproveReview.

const (
	reviewHeader    = "x-respect-review-settings"
	reviewSubmitted = "Review submitted. Changes will be applied after approval."
	reviewPending   = "PENDING"
	reviewKindGate  = "gate"
	// reviewKindGateFields is a change of a gate's own fields (PATCH /gates/{id}), held apart
	// from a change of its rules: neither supersedes the other.
	reviewKindGateFields = "gate_fields"
	reviewKindPipe       = "release_pipeline"
	reviewIDPrefix       = "rev_"
	reviewHeaderTrue     = "true"
)

// Review is a change held for review.
type Review struct {
	ID       string
	Kind     string // "gate" (its rules), "gate_fields" (its own fields) or "release_pipeline"
	ObjectID string
	Body     []byte // the write as sent
}

type pendingReview struct {
	Review
	seq int
}

// unlessHeld applies a write to the gate or pipeline the path names with write, unless it is held
// for review; s.mu is held.
func (s *Server) unlessHeld(r *http.Request, kind string, body []byte, write func(id string, body []byte) response) response {
	id := r.PathValue("id")
	if resp, held := s.holdForReview(r, kind, id, body); held {
		return resp
	}
	return write(id, body)
}

// holdForReview holds a write to a gate's rules or a pipeline for review when the habit is on and
// the request asks for review settings to be respected; s.mu is held. A write to an object that
// does not exist, or whose body is not valid, is answered as ever.
func (s *Server) holdForReview(r *http.Request, kind, id string, body []byte) (response, bool) {
	if !s.habits.Reviews || !strings.EqualFold(r.Header.Get(reviewHeader), reviewHeaderTrue) {
		return response{}, false
	}
	var current any
	switch kind {
	case reviewKindGate:
		st, ok := s.gates[id]
		if !ok {
			return response{}, false
		}
		var req gateRulesReq
		if decodeStrict(body, &req) != nil || req.Rules == nil {
			return response{}, false
		}
		current = st.gate.clone()
	case reviewKindGateFields:
		st, ok := s.gates[id]
		if !ok {
			return response{}, false
		}
		var req gateFieldsReq
		if decodeStrict(body, &req) != nil || s.gateFieldsRefused(req) != nil {
			return response{}, false
		}
		current = st.gate.clone()
	case reviewKindPipe:
		st, ok := s.pipelines[id]
		if !ok {
			return response{}, false
		}
		var req pipelineUpdateReq
		if decodeStrict(body, &req) != nil {
			return response{}, false
		}
		current = st.p.clone()
	default:
		return response{}, false
	}
	if s.reviews == nil {
		s.reviews = map[string]*pendingReview{}
	}
	// A new change supersedes the one still waiting for the same object.
	for rid, pr := range s.reviews {
		if pr.Kind == kind && pr.ObjectID == id {
			delete(s.reviews, rid)
		}
	}
	s.reviewSeq++
	rv := &pendingReview{
		Review: Review{ID: fmt.Sprintf("%s%d", reviewIDPrefix, s.reviewSeq), Kind: kind, ObjectID: id, Body: append([]byte(nil), body...)},
		seq:    s.reviewSeq,
	}
	s.reviews[rv.ID] = rv
	// The answer carries the object unchanged; decorate adds its activeReview.
	return okResp(reviewSubmitted, current), true
}

// withActiveReview adds activeReview to a gate or pipeline that has a change waiting; s.mu is held.
func (s *Server) withActiveReview(r *http.Request, data any) {
	obj, ok := data.(map[string]any)
	if !ok || len(s.reviews) == 0 {
		return
	}
	p := strings.TrimPrefix(r.URL.Path, basePath)
	var kinds []string
	switch {
	case strings.HasPrefix(p, "/gates"):
		kinds = []string{reviewKindGate, reviewKindGateFields}
	case strings.HasPrefix(p, "/release_pipelines/"):
		kinds = []string{reviewKindPipe}
	default:
		return
	}
	id, _ := obj["id"].(string)
	for _, pr := range s.reviews {
		if slices.Contains(kinds, pr.Kind) && pr.ObjectID == id {
			obj["activeReview"] = map[string]any{
				"reviewID": pr.ID, "reviewStatus": reviewPending, "requestedBy": "Console API", "reviewers": []any{},
			}
			return
		}
	}
}

// PendingReviews lists the changes waiting for review, oldest first.
func (s *Server) PendingReviews() []Review {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := make([]*pendingReview, 0, len(s.reviews))
	for _, pr := range s.reviews {
		list = append(list, pr)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].seq < list[j].seq })
	out := make([]Review, len(list))
	for i, pr := range list {
		out[i] = pr.Review
		out[i].Body = append([]byte(nil), pr.Body...)
	}
	return out
}

// ApproveReview applies the held change, as someone approving it in the console does. The change
// is applied as if written then; it fails as the write would have (a gate since deleted, say).
func (s *Server) ApproveReview(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	pr, ok := s.reviews[id]
	if !ok {
		return fmt.Errorf("no pending review %q", id)
	}
	delete(s.reviews, id)
	var resp response
	switch pr.Kind {
	case reviewKindGate:
		resp = s.updateGateRules(pr.ObjectID, pr.Body)
	case reviewKindGateFields:
		resp = s.updateGate(pr.ObjectID, pr.Body)
	case reviewKindPipe:
		resp = s.updatePipeline(pr.ObjectID, pr.Body)
	}
	if resp.status != http.StatusOK {
		return fmt.Errorf("review %s could not be applied: %d %s", id, resp.status, strings.TrimSpace(string(resp.body)))
	}
	return nil
}

// ApproveAllReviews approves every pending review, oldest first.
func (s *Server) ApproveAllReviews() error {
	for _, rv := range s.PendingReviews() {
		if err := s.ApproveReview(rv.ID); err != nil {
			return err
		}
	}
	return nil
}

// RejectReview drops a held change without applying it.
func (s *Server) RejectReview(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.reviews[id]; !ok {
		return fmt.Errorf("no pending review %q", id)
	}
	delete(s.reviews, id)
	return nil
}
