// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// What Terraform is told when the service held a write for review (respect_review_settings = true
// and the object's changes need review). The change was not applied, so it is reported as an error
// on the resource, and the state is left as it was: the next plan shows the same change until the
// review is approved in the console, and nothing once it is.
//
// A gate's change (its fields, or its rules) is settled by the next apply of the same change
// (changeReview): while its review is pending nothing is sent again, once approved the review is
// committed instead of the change being sent again, and a rejected review is said and the change
// submitted anew. Pipelines keep the form where approval applies.

// reviewHeld reports whether err is a write the service held for review; if so it adds the
// diagnostic. summary names the change ("Change to the rules of gate \"x\""), after says what
// Terraform kept.
func reviewHeld(diags *diag.Diagnostics, err error, summary, after string) bool {
	re, ok := console.AwaitingReview(err)
	if !ok {
		return false
	}
	account := framework.FailureAccount(re)
	next := "What to do next: have the review approved in the console (or reject it there to drop the change). " +
		"Once it is approved, `terraform plan` shows no change for this resource. Until then every plan shows " +
		"this change again, and applying it again submits it for review again."
	var hc *heldGateChange
	if errors.As(err, &hc) {
		next = "What to do next: have the review approved in the console (or reject it there to drop the change). " +
			"Until it is committed every plan shows this change again. Applying the same change again sends nothing " +
			"while the review is pending; once it is approved, the next apply commits it (unless a reviewer committed " +
			"it in the console already) and the plan after it is empty; if it is rejected, the next apply says so and " +
			"submits the change as a new review."
		if hc.again {
			summary += " still"
			account = fmt.Sprintf("The same change was submitted for review %q by an earlier apply and still awaits "+
				"approval, so nothing was sent again (no second review).", re.ReviewID)
		}
	}
	diags.AddError(summary+" awaits review", fmt.Sprintf("%s\n\n%s\n\n%s", account, after, next))
	return true
}

const (
	reviewKeptState    = "The Terraform state keeps what it held before."
	reviewKeptNoState  = "Nothing was saved in the Terraform state: the next apply takes the object over once the review is approved, without writing it again."
	reviewKeptResource = "The resource stays in the Terraform state; once the removal is approved, run `terraform destroy` again: it then finds nothing left to remove and sends nothing."
)

// pendingRulesKey keeps, in the resource's private state, the rule list of a change held for review
// as the configuration wrote it. Once the review is approved, a refresh reads the new rules with it
// as a hint, so that they take the configuration's forms (target_numbers for numbers the service
// holds as strings, [] rather than null) and the plan is empty.
const pendingRulesKey = "pending_rules"

type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

var gateRulesListType = types.ListType{ElemType: gateRuleObjectType}

// savePendingRules stores rules (a planned list) under pendingRulesKey; an empty list clears it.
func savePendingRules(ctx context.Context, p privateState, rules types.List) diag.Diagnostics {
	if rules.IsNull() || rules.IsUnknown() {
		return p.SetKey(ctx, pendingRulesKey, nil)
	}
	tv, err := rules.ToTerraformValue(ctx)
	if err != nil {
		return nil // a hint only: without it the next refresh reads the service's forms
	}
	dv, err := tfprotov6.NewDynamicValue(rules.Type(ctx).TerraformType(ctx), tv)
	if err != nil {
		return nil
	}
	b, _ := json.Marshal(base64.StdEncoding.EncodeToString(dv.MsgPack))
	return p.SetKey(ctx, pendingRulesKey, b)
}

// pendingRules reads what savePendingRules stored of a gate's rules; nothing (and no error) when
// there is none or it cannot be read.
func pendingRules(ctx context.Context, p privateState) []gateRuleModel {
	return pendingRulesOf(ctx, p, gateRulesListType)
}

// pendingRulesOf is pendingRules of rules of listType (a config's rules have variants).
func pendingRulesOf(ctx context.Context, p privateState, listType types.ListType) []gateRuleModel {
	if p == nil {
		return nil
	}
	b, d := p.GetKey(ctx, pendingRulesKey)
	if d.HasError() || len(b) == 0 {
		return nil
	}
	var enc string
	if json.Unmarshal(b, &enc) != nil {
		return nil
	}
	raw, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		return nil
	}
	tv, err := (&tfprotov6.DynamicValue{MsgPack: raw}).Unmarshal(listType.TerraformType(ctx))
	if err != nil {
		return nil
	}
	v, err := listType.ValueFromTerraform(ctx, tv)
	if err != nil {
		return nil
	}
	l, ok := v.(types.List)
	if !ok {
		return nil
	}
	rules, d := ruleModels(ctx, l)
	if d.HasError() {
		return nil
	}
	return rules
}

// warnPendingReview tells, on refresh, that the object has a change waiting for review, or approved
// and waiting to be committed: until then the service holds what it held, and the plan shows the
// change again.
func warnPendingReview(diags *diag.Diagnostics, what string, review *console.ActiveReview) {
	id := ""
	if review != nil && review.ReviewID != "" {
		id = fmt.Sprintf(" (review %q)", review.ReviewID)
	}
	if review.Approved() {
		diags.AddWarning(fmt.Sprintf("%s has an approved change waiting to be committed", what),
			fmt.Sprintf("%s has a change approved%s that is not committed yet. Until it is committed the "+
				"service keeps the current configuration, which is what Terraform shows; the next apply of the same "+
				"change commits it (or a reviewer commits it in the console).", what, id))
		return
	}
	if !review.Pending() {
		return
	}
	diags.AddWarning(fmt.Sprintf("%s has a change waiting for review", what),
		fmt.Sprintf("%s has a change waiting for review%s in the console. Until it is approved the service keeps the "+
			"current configuration, which is what Terraform shows; once it is approved, the next plan reads the change.", what, id))
}

// reviewTrailKey keeps, in a resource's private state, the review a change of a gate was held for
// and what was sent, so that the next apply of the same change settles that review instead of
// submitting the change again.
const reviewTrailKey = "review"

type reviewTrail struct {
	ID     string `json:"id"`
	Change string `json:"change"` // console.ChangeFingerprint of what was sent
}

// heldGateChange is a change of a gate held for review, which the next apply of the same change
// settles; again: it was held by an earlier apply already, and nothing was sent this time.
type heldGateChange struct {
	*console.ReviewPendingError
	again bool
}

func (h *heldGateChange) Unwrap() error { return h.ReviewPendingError }

// changeReview is one apply's write of a change of an object (a gate, a dynamic config, the rules
// of either: T is what the write answers) that the service may hold for review: what an earlier
// apply left (prior, from private state; or active, the object's open review, where a held create
// left no state), and what this apply leaves for the next one (next).
type changeReview[T any] struct {
	gateID, what string // what: "Change to gate \"x\""
	prior        *reviewTrail
	active       *console.ActiveReview
	next         *reviewTrail
	// target is where the object's reviews are read and committed (reviewTarget, below).
	target reviewTarget[T]
}

// newGateReview is newReview of a change of a gate's fields.
func newGateReview(ctx context.Context, p privateState, gateID, what string) *changeReview[console.Gate] {
	return newReview(ctx, p, gateID, what, gateReviews)
}

// newReview reads what an earlier apply left in p (nil on create).
func newReview[T any](ctx context.Context, p privateState, gateID, what string, target reviewTarget[T]) *changeReview[T] {
	rv := &changeReview[T]{gateID: gateID, what: what, target: target}
	if p == nil {
		return rv
	}
	if b, d := p.GetKey(ctx, reviewTrailKey); !d.HasError() && len(b) > 0 {
		var t reviewTrail
		if json.Unmarshal(b, &t) == nil && t.ID != "" {
			rv.prior = &t
		}
	}
	return rv
}

// keep stores in p what the next apply needs: the review this apply's change waits on, or nothing.
func (rv *changeReview[T]) keep(ctx context.Context, p privateState) diag.Diagnostics {
	if rv.next == nil {
		return p.SetKey(ctx, reviewTrailKey, nil)
	}
	b, _ := json.Marshal(rv.next)
	return p.SetKey(ctx, reviewTrailKey, b)
}

// write sends change with send, unless a review of the same change settles it. Still pending:
// nothing is sent and the error is a heldGateChange (again). Approved: the review is committed
// instead, and the gate as it now stands is returned (an error if it does not hold the change,
// by holds). Rejected: said in a warning, and the change is sent as a new review. A different
// change while a review is open is sent as well, and said. A write held for review returns a
// heldGateChange.
func (rv *changeReview[T]) write(ctx context.Context, c *console.Client, change any, holds func(*T) bool,
	diags *diag.Diagnostics, send func() (*T, error)) (*T, error) {
	if !c.RespectsReviewSettings() {
		return send()
	}
	fp := console.ChangeFingerprint(change)
	g, settled, err := rv.settle(ctx, c, change, fp, holds, diags)
	if !settled {
		g, err = send()
	}
	rv.next = nil
	if settled && err != nil {
		rv.next = rv.prior // the review could not be settled: the next apply tries again
	}
	if re, ok := console.AwaitingReview(err); ok {
		var hc *heldGateChange
		if !errors.As(err, &hc) {
			hc = &heldGateChange{ReviewPendingError: re}
			err = hc
		}
		if re.ReviewID != "" {
			rv.next = &reviewTrail{ID: re.ReviewID, Change: fp}
		}
	}
	return g, err
}

// settle looks up the review an earlier apply's change waits on; settled reports that it decided
// this apply's write (g and err are its outcome), otherwise the change is to be sent.
func (rv *changeReview[T]) settle(ctx context.Context, c *console.Client, change any, fp string, holds func(*T) bool,
	diags *diag.Diagnostics) (g *T, settled bool, err error) {
	var id string
	switch {
	case rv.prior != nil:
		id = rv.prior.ID
	case rv.active != nil && rv.active.ReviewID != "" && (rv.active.Pending() || rv.active.Approved()):
		id = rv.active.ReviewID
	default:
		return nil, false, nil
	}
	review, err := rv.target.get(c, ctx, rv.gateID, id)
	if console.NotFound(err) { // superseded, or a service that keeps no reviews: send as ever
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	same := review.Proposes(change)
	if rv.prior != nil {
		same = rv.prior.Change == fp
	}
	open := review.Is(console.ReviewPending) || review.Is(console.ReviewAccepted)
	switch {
	case !same:
		if open {
			diags.AddWarning(fmt.Sprintf("%s: review %q is open for another change", rv.what, id),
				fmt.Sprintf("Review %q (%s) holds an earlier change of %s %q than the one this apply sends. This apply "+
					"submits the change configured now; the service decides what becomes of the earlier review (it may "+
					"replace it). Check the console.", id, strings.ToLower(review.Status), rv.target.noun, rv.gateID))
		}
		return nil, false, nil
	case review.Is(console.ReviewPending):
		return nil, true, &heldGateChange{ReviewPendingError: &console.ReviewPendingError{ReviewID: id}, again: true}
	case review.Is(console.ReviewAccepted):
		g, err := rv.commit(ctx, c, id)
		if err == nil && holds != nil && !holds(g) {
			err = fmt.Errorf("review %q was committed, but %s %q does not hold the change it approved: "+
				"the next plan shows what is left to do", id, rv.target.noun, rv.gateID)
		}
		return g, true, err
	case review.Is(console.ReviewRejected):
		diags.AddWarning(fmt.Sprintf("%s: review %q was rejected", rv.what, id),
			fmt.Sprintf("A reviewer rejected review %q of this change in the console, so it was never applied. This apply "+
				"submits the change again, as a new review. To drop the change instead, change the configuration back "+
				"to what %s %q holds.", id, rv.target.noun, rv.gateID))
	}
	// Committed, yet planned again: the gate changed since; the change is sent as ever.
	return nil, false, nil
}

// commit commits an approved review. A commit refused because the review is committed already (a
// reviewer committed it in the console meanwhile, or an earlier attempt whose answer was lost did)
// reads the gate instead.
func (rv *changeReview[T]) commit(ctx context.Context, c *console.Client, id string) (*T, error) {
	g, err := rv.target.commit(c, ctx, rv.gateID, id)
	if err == nil {
		return g, nil
	}
	if review, rerr := rv.target.get(c, ctx, rv.gateID, id); rerr == nil && review.Is(console.ReviewCommitted) {
		return rv.target.read(c, ctx, rv.gateID)
	}
	return nil, err
}

// gateHoldsChange is whether a gate holds the fields of change: what a committed review of it is
// checked with.
func gateHoldsChange(gateID string, change console.GateFields) func(*console.Gate) bool {
	change.ID = gateID
	return func(g *console.Gate) bool { return gateHolds(g, change) }
}

// reviewTarget is where changeReview reads and commits the reviews of an object's changes: a gate's
// (GET /gates/{id}/reviews/{reviewID}, row 33) or a dynamic config's, the same endpoints under
// /dynamic_configs; T is the object as the write answers it.
type reviewTarget[T any] struct {
	noun   string // in messages: "gate", "dynamic config"
	get    func(c *console.Client, ctx context.Context, objID, reviewID string) (*console.Review, error)
	commit func(c *console.Client, ctx context.Context, objID, reviewID string) (*T, error)
	read   func(c *console.Client, ctx context.Context, objID string) (*T, error)
}

var (
	gateReviews = reviewTarget[console.Gate]{noun: "gate", get: (*console.Client).GetGateReview,
		commit: (*console.Client).CommitGateReview, read: (*console.Client).GetGate}
	configReviews = reviewTarget[console.DynamicConfig]{noun: "dynamic config", get: (*console.Client).GetDynamicConfigReview,
		commit: (*console.Client).CommitDynamicConfigReview, read: (*console.Client).GetDynamicConfig}
	experimentReviews = reviewTarget[console.Experiment]{noun: "experiment", get: (*console.Client).GetExperimentReview,
		commit: (*console.Client).CommitExperimentReview, read: (*console.Client).GetExperiment}
)
