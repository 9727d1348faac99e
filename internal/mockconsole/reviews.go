// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
)

// Reviews (habit Reviews): a project whose changes need review does not apply a write to a gate, a
// dynamic config, an experiment's fields or a pipeline sent with x-respect-review-settings: true. It answers 200 with the object as it still
// stands and its pending review, and applies the change once someone approves the review in the
// console, later. Tests play that someone with ApproveReview and RejectReview.
//
// With ReviewCommits as well, approving a change of a gate does not apply it: the review is
// accepted (the gate's activeReview APPROVED) and the change is applied when the review is
// committed, through PUT /gates/{id}/reviews/{reviewID}/commit or in the console (CommitReview).
// Pipelines keep the form without a commit step. GET /gates/{id}/reviews/{reviewID} serves every
// review of a gate, decided ones too.

const (
	reviewHeader    = "x-respect-review-settings"
	reviewSubmitted = "Review submitted. Changes will be applied after approval."
	reviewPending   = "PENDING"
	reviewApproved  = "APPROVED"
	reviewCommitMsg = "Gate review committed successfully"
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
	// Status is pending, accepted (approved, waiting to be committed), rejected or committed.
	Status string
}

// The statuses of a review, as GET /gates/{id}/reviews/{reviewID} writes them.
const (
	statusPending   = "pending"
	statusAccepted  = "accepted"
	statusRejected  = "rejected"
	statusCommitted = "committed"
)

type pendingReview struct {
	Review
	seq int
}

// open reports whether the review still waits: for approval, or for its commit.
func (pr *pendingReview) open() bool {
	return pr.Status == statusPending || pr.Status == statusAccepted
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
// does not exist, whose body is not valid, or to an archived gate (refused until unarchived: there
// is nothing to review) is answered as ever.
func (s *Server) holdForReview(r *http.Request, kind, id string, body []byte) (response, bool) {
	if !s.habits.Reviews || !strings.EqualFold(r.Header.Get(reviewHeader), reviewHeaderTrue) {
		return response{}, false
	}
	var current any
	switch kind {
	case reviewKindGate:
		st, ok := s.gates[id]
		if !ok || archivedRefused(st) != nil {
			return response{}, false
		}
		var req gateRulesReq
		if decodeStrict(body, &req) != nil || req.Rules == nil {
			return response{}, false
		}
		current = st.gate.clone()
	case reviewKindGateFields:
		st, ok := s.gates[id]
		if !ok || archivedRefused(st) != nil {
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
	case reviewKindExperiment:
		cur, ok := s.experimentReviewCurrent(id, body)
		if !ok {
			return response{}, false
		}
		current = cur
	default:
		cur, ok := s.configReviewCurrent(kind, id, body)
		if !ok {
			return response{}, false
		}
		current = cur
	}
	if s.reviews == nil {
		s.reviews = map[string]*pendingReview{}
	}
	// A new change supersedes the one still waiting for the same object.
	for rid, pr := range s.reviews {
		if pr.Kind == kind && pr.ObjectID == id && pr.open() {
			delete(s.reviews, rid)
		}
	}
	s.reviewSeq++
	rv := &pendingReview{
		Review: Review{ID: fmt.Sprintf("%s%d", reviewIDPrefix, s.reviewSeq), Kind: kind, ObjectID: id, Body: append([]byte(nil), body...), Status: statusPending},
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
	case strings.HasPrefix(p, "/dynamic_configs"):
		kinds = []string{reviewKindConfig, reviewKindConfigFields}
	case strings.HasPrefix(p, "/experiments"):
		kinds = []string{reviewKindExperiment}
	default:
		return
	}
	id, _ := obj["id"].(string)
	for _, pr := range s.reviews {
		if slices.Contains(kinds, pr.Kind) && pr.ObjectID == id && pr.open() {
			status := reviewPending
			if pr.Status == statusAccepted {
				status = reviewApproved
			}
			obj["activeReview"] = map[string]any{
				"reviewID": pr.ID, "reviewStatus": status, "requestedBy": "Console API", "reviewers": []any{},
			}
			return
		}
	}
}

// PendingReviews lists the changes waiting for review, or (approved) for their commit, oldest first.
func (s *Server) PendingReviews() []Review {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := make([]*pendingReview, 0, len(s.reviews))
	for _, pr := range s.reviews {
		if pr.open() {
			list = append(list, pr)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].seq < list[j].seq })
	out := make([]Review, len(list))
	for i, pr := range list {
		out[i] = pr.Review
		out[i].Body = append([]byte(nil), pr.Body...)
	}
	return out
}

// ApproveReview approves the held change, as someone approving it in the console does. Without
// ReviewCommits the change is applied as if written then, and fails as the write would have (a gate
// since deleted, say); with ReviewCommits a change of a gate is accepted and waits for its commit.
func (s *Server) ApproveReview(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	pr, ok := s.reviews[id]
	if !ok || pr.Status != statusPending {
		return fmt.Errorf("no pending review %q", id)
	}
	if s.habits.ReviewCommits && pr.Kind != reviewKindPipe {
		pr.Status = statusAccepted
		return nil
	}
	if resp := s.applyReview(pr); resp.status != http.StatusOK {
		return fmt.Errorf("review %s could not be applied: %d %s", id, resp.status, strings.TrimSpace(string(resp.body)))
	}
	return nil
}

// applyReview applies a review's change and marks it committed; s.mu is held. A change that fails
// as its write would have leaves the review as it was.
func (s *Server) applyReview(pr *pendingReview) response {
	var resp response
	switch pr.Kind {
	case reviewKindGate:
		resp = s.updateGateRules(pr.ObjectID, pr.Body)
	case reviewKindGateFields:
		resp = s.updateGate(pr.ObjectID, pr.Body)
	case reviewKindPipe:
		resp = s.updatePipeline(pr.ObjectID, pr.Body)
	case reviewKindExperiment:
		resp = s.updateExperiment(pr.ObjectID, pr.Body)
	default:
		resp = s.applyConfigReview(pr)
	}
	if resp.status == http.StatusOK {
		pr.Status = statusCommitted
	}
	return resp
}

// ApproveAllReviews approves every pending review, oldest first.
func (s *Server) ApproveAllReviews() error {
	for _, rv := range s.PendingReviews() {
		if rv.Status != statusPending {
			continue
		}
		if err := s.ApproveReview(rv.ID); err != nil {
			return err
		}
	}
	return nil
}

// ApproveAndCommitAllReviews approves every review still open and commits those that wait for it,
// as reviewers who approve and commit in the console do: every held change is then in place,
// whether or not ReviewCommits is on.
func (s *Server) ApproveAndCommitAllReviews() error {
	if err := s.ApproveAllReviews(); err != nil {
		return err
	}
	for _, rv := range s.PendingReviews() {
		if err := s.CommitReview(rv.ID); err != nil {
			return err
		}
	}
	return nil
}

// RejectReview rejects a held change, as a reviewer does in the console: it is never applied, and
// the object's activeReview goes away.
func (s *Server) RejectReview(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	pr, ok := s.reviews[id]
	if !ok || !pr.open() {
		return fmt.Errorf("no open review %q", id)
	}
	pr.Status = statusRejected
	return nil
}

// CommitReview commits an approved review in the console, as a reviewer may: the change is applied.
func (s *Server) CommitReview(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	pr, ok := s.reviews[id]
	if !ok || pr.Status != statusAccepted {
		return fmt.Errorf("no approved review %q", id)
	}
	if resp := s.applyReview(pr); resp.status != http.StatusOK {
		return fmt.Errorf("review %s could not be committed: %d %s", id, resp.status, strings.TrimSpace(string(resp.body)))
	}
	return nil
}

// ReviewStatus is the status of the review id ("" for none).
func (s *Server) ReviewStatus(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if pr, ok := s.reviews[id]; ok {
		return pr.Status
	}
	return ""
}

// reviewed is what the review endpoints of gates and dynamic configs (GET {object}/reviews/{reviewID},
// PUT .../commit) differ by: the object's noun, the kinds of its reviews and how each is typed in
// an answer, the message of a commit, and the object as it now stands.
type reviewed struct {
	noun                   string // gate, dynamic config
	rulesKind, rulesType   string // a change of its rules: the review's kind, its type in answers
	fieldsKind, fieldsType string // a change of its own fields
	committed              string // the message of a commit's answer
	current                func(s *Server, id string) (any, bool)
}

// gateReviews serves GET /gates/{id}/reviews/{reviewID} and its commit.
var gateReviews = reviewed{
	noun: "gate", rulesKind: reviewKindGate, rulesType: "gate_rules", fieldsKind: reviewKindGateFields, fieldsType: "gate",
	committed: reviewCommitMsg,
	current: func(s *Server, id string) (any, bool) {
		st, ok := s.gates[id]
		if !ok {
			return nil, false
		}
		return st.clone(), true
	},
}

// review is the review reviewID of a change of object objectID; s.mu is held.
func (s *Server) review(o reviewed, objectID, reviewID string) (*pendingReview, *response) {
	pr, ok := s.reviews[reviewID]
	if !ok || pr.ObjectID != objectID || pr.Kind != o.rulesKind && pr.Kind != o.fieldsKind {
		return nil, ref(errResp(http.StatusNotFound, "Review %s of %s %s not found", reviewID, o.noun, objectID))
	}
	return pr, nil
}

// getReview answers GET /gates/{id}/reviews/{reviewID} (and a config's); s.mu is held.
func (s *Server) getReview(o reviewed, objectID, reviewID string) response {
	pr, refused := s.review(o, objectID, reviewID)
	if refused != nil {
		return *refused
	}
	typ := o.rulesType
	if pr.Kind == o.fieldsKind {
		typ = o.fieldsType
	}
	return okResp("Review read successfully", map[string]any{
		"reviewID": pr.ID, "status": pr.Status, "type": typ, "change": json.RawMessage(pr.Body),
		"createdTime": 1700000000000 + pr.seq,
	})
}

// commitReview answers PUT /gates/{id}/reviews/{reviewID}/commit (and a config's): an accepted
// review is applied and the answer is the object as it now stands; s.mu is held.
func (s *Server) commitReview(o reviewed, objectID, reviewID string) response {
	pr, refused := s.review(o, objectID, reviewID)
	if refused != nil {
		return *refused
	}
	switch pr.Status {
	case statusCommitted:
		return errResp(http.StatusBadRequest, "Review %s is already committed", reviewID)
	case statusAccepted:
	default:
		return errResp(http.StatusBadRequest, "Review %s is not approved (%s)", reviewID, pr.Status)
	}
	if resp := s.applyReview(pr); resp.status != http.StatusOK {
		return resp
	}
	obj, ok := o.current(s, objectID)
	if !ok {
		return errResp(http.StatusNotFound, "%s %s not found", strings.ToUpper(o.noun[:1])+o.noun[1:], objectID)
	}
	return okResp(o.committed, obj)
}
