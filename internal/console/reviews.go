// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"errors"
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
