// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"strings"
)

// ActiveReview is the review a gate or pipeline waits on. With x-respect-review-settings, a write to
// an object whose changes need review is not applied: the service answers 200 with the object as it
// still stands and this review, pending, and someone approves it in the console later.
type ActiveReview struct {
	ReviewID     string `json:"reviewID"`
	ReviewStatus string `json:"reviewStatus"`
}

// Pending reports whether the review still waits for approval.
func (r *ActiveReview) Pending() bool {
	return r != nil && strings.EqualFold(strings.TrimSpace(r.ReviewStatus), "PENDING")
}

// ReviewPendingError is a write the service accepted for review instead of applying it.
type ReviewPendingError struct {
	Op, Object string
	ReviewID   string
	// Message is the service's own words ("Review submitted. Changes will be applied after approval.").
	Message string
}

func (e *ReviewPendingError) Error() string {
	var b strings.Builder
	b.WriteString(unable(e.Op, e.Object) + ": the change awaits review")
	if e.ReviewID != "" {
		b.WriteString(" (review " + e.ReviewID + ")")
	}
	b.WriteString(" and was not applied")
	if m := strings.TrimSpace(e.Message); m != "" {
		b.WriteString("; the service says: " + m)
	}
	return b.String()
}

// AwaitingReview returns the ReviewPendingError in err's chain, if any.
func AwaitingReview(err error) (*ReviewPendingError, bool) {
	var re *ReviewPendingError
	ok := errors.As(err, &re)
	return re, ok
}

// RespectsReviewSettings reports whether requests ask the service to follow the project's review
// settings, so that a write may be held for review.
func (c *Client) RespectsReviewSettings() bool { return c.review }

// heldForReview tells, from the answer to a write, whether the service held the change for review:
// only when the request asked for review settings to be respected, and then when the object comes
// back with a pending review or the message says a review was submitted. Values are never compared:
// an unchanged object may as well be a change that was already in place.
func (c *Client) heldForReview(r request, message string, review *ActiveReview) error {
	if !c.review {
		return nil
	}
	msg := strings.ToLower(message)
	submitted := strings.Contains(msg, "after approval") || strings.Contains(msg, "review") &&
		(strings.Contains(msg, "submitted") || strings.Contains(msg, "pending") || strings.Contains(msg, "awaiting"))
	if !review.Pending() && !submitted {
		return nil
	}
	e := &ReviewPendingError{Op: r.op, Object: r.object, Message: message}
	if review != nil {
		e.ReviewID = review.ReviewID
	}
	return e
}

// Approved reports whether the review was approved and waits to be committed: until then the
// object holds what it held before.
func (r *ActiveReview) Approved() bool {
	return r != nil && strings.EqualFold(strings.TrimSpace(r.ReviewStatus), "APPROVED")
}

// Review is one review of a gate's change (GET /gates/{id}/reviews/{reviewID}).
type Review struct {
	ReviewID string `json:"reviewID"`
	// Status is pending, accepted (approved, not committed yet), rejected or committed, in any case.
	Status string `json:"status"`
	Type   string `json:"type"`
	// Change is the change under review as the service keeps it.
	Change      json.RawMessage `json:"change"`
	CreatedTime WholeNumber     `json:"createdTime"`
}

// The statuses of a Review.
const (
	ReviewPending   = "pending"
	ReviewAccepted  = "accepted"
	ReviewRejected  = "rejected"
	ReviewCommitted = "committed"
)

// Is reports whether the review's status is status (one of the Review* constants), compared as the
// service's documents ask: regardless of case.
func (r *Review) Is(status string) bool {
	return r != nil && strings.EqualFold(strings.TrimSpace(r.Status), status)
}

// Proposes reports whether the review's change is body, compared by meaning (key order, number
// forms and a change kept as a JSON string do not matter).
func (r *Review) Proposes(body any) bool {
	if r == nil || len(r.Change) == 0 {
		return false
	}
	sent, err := json.Marshal(body)
	if err != nil {
		return false
	}
	held := []byte(r.Change)
	var s string
	if json.Unmarshal(held, &s) == nil { // a change kept as a JSON document in a string
		held = []byte(s)
	}
	a, okA := decodeMeaning(held)
	b, okB := decodeMeaning(sent)
	return okA && okB && reflect.DeepEqual(a, b)
}

// decodeMeaning decodes JSON with numbers as float64 values, so that 50, 50.0 and 5e1 are one.
func decodeMeaning(b []byte) (any, bool) {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil, false
	}
	return v, true
}

// ChangeFingerprint names a change (a write's body) by its content, so that an apply can tell
// whether it is about to send the same change an earlier apply sent for review.
func ChangeFingerprint(body any) string {
	b, err := json.Marshal(body)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// RulesChange returns the body a write of a rule list sends (a gate's or a dynamic config's): what a
// review of the change is compared with.
func RulesChange(rules []Rule) any { return writtenRulesBody(rules) }

// GateFieldsChange is the body UpdateGate sends for g.
func GateFieldsChange(g GateFields) any {
	g.ID = ""
	return g
}

func reviewPath(gateID, reviewID string) string {
	return gates.path + "/" + pathEscape(gateID) + "/reviews/" + pathEscape(reviewID)
}

// GetGateReview reads GET /gates/{id}/reviews/{reviewID}.
func (c *Client) GetGateReview(ctx context.Context, gateID, reviewID string) (*Review, error) {
	return getObject[Review](ctx, c, request{method: http.MethodGet, path: reviewPath(gateID, reviewID),
		op: "read review " + strconv.Quote(reviewID) + " of gate", object: strconv.Quote(gateID)})
}

// CommitGateReview applies an approved review (PUT /gates/{id}/reviews/{reviewID}/commit) and
// returns the gate as it now stands; the service refuses (400) a review not approved or already
// committed. An answer without a body is completed by reading the gate.
func (c *Client) CommitGateReview(ctx context.Context, gateID, reviewID string) (*Gate, error) {
	var out Gate
	r := request{method: http.MethodPut, path: reviewPath(gateID, reviewID) + "/commit",
		op: "commit review " + strconv.Quote(reviewID) + " of gate", object: strconv.Quote(gateID)}
	err := c.do(ctx, r, &out)
	if emptyAnswer(err) || err == nil && out.ID == "" {
		return c.GetGate(ctx, gateID)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}
