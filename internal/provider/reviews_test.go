// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

func TestReviewDiagnostics(t *testing.T) {
	var diags diag.Diagnostics
	held := &console.ReviewPendingError{Op: "update rules of gate", Object: `"g"`, ReviewID: "rev_9", Message: "Review submitted. Changes will be applied after approval."}
	if !reviewHeld(&diags, held, `Change to the rules of gate "g"`, reviewKeptState) || len(diags) != 1 {
		t.Fatalf("held: %v", diags)
	}
	d := diags[0]
	if d.Summary() != `Change to the rules of gate "g" awaits review` || !strings.Contains(d.Detail(), `review "rev_9"`) ||
		!strings.Contains(d.Detail(), reviewKeptState) || !strings.Contains(d.Detail(), "approved in the console") {
		t.Errorf("diagnostic %q: %q", d.Summary(), d.Detail())
	}
	diags = nil
	if reviewHeld(&diags, errors.New("other"), "x", "") || reviewHeld(&diags, nil, "x", "") || len(diags) != 0 {
		t.Errorf("not held: %v", diags)
	}

	warnPendingReview(&diags, `Gate "g"`, &console.ActiveReview{ReviewID: "rev_9", ReviewStatus: "pending"})
	if len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning || !strings.Contains(diags[0].Detail(), `"rev_9"`) {
		t.Errorf("pending: %v", diags)
	}
	diags = nil
	warnPendingReview(&diags, `Gate "g"`, &console.ActiveReview{ReviewID: "rev_9", ReviewStatus: "approved"})
	if len(diags) != 1 || diags[0].Summary() != `Gate "g" has an approved change waiting to be committed` ||
		!strings.Contains(diags[0].Detail(), `approved (review "rev_9")`) || !strings.Contains(diags[0].Detail(), "the next apply of the same change commits it") {
		t.Errorf("approved: %v", diags)
	}
	diags = nil
	warnPendingReview(&diags, `Gate "g"`, &console.ActiveReview{ReviewID: "rev_9", ReviewStatus: "COMMITTED"})
	warnPendingReview(&diags, `Gate "g"`, nil)
	if len(diags) != 0 {
		t.Errorf("not open: %v", diags)
	}

	// A gate's change held again: said as still awaiting, nothing sent.
	diags = nil
	again := &heldChange{ReviewPendingError: &console.ReviewPendingError{ReviewID: "rev_9"}, again: true}
	if !reviewHeld(&diags, again, `Change to gate "g"`, reviewKeptState) || len(diags) != 1 ||
		diags[0].Summary() != `Change to gate "g" still awaits review` || !strings.Contains(diags[0].Detail(), `review "rev_9"`) ||
		!strings.Contains(diags[0].Detail(), "nothing was sent again") || !strings.Contains(diags[0].Detail(), "the next apply commits it") {
		t.Errorf("again: %v", diags)
	}
}

// The rules of a held change survive a round trip through private state.
func TestPendingRulesPrivateState(t *testing.T) {
	ctx := context.Background()
	p := &memPrivate{}
	rules := []ruleModel{testRule(t, "a", "10"), testRule(t, "b", "33.33")}
	l, d := typesListOfRules(ctx, rules)
	if d.HasError() {
		t.Fatal(d)
	}
	if d := savePendingRules(ctx, p, l); d.HasError() {
		t.Fatal(d)
	}
	got := pendingRules(ctx, p)
	if len(got) != 2 || got[1].Name.ValueString() != "b" || !got[1].PassPercentage.Equal(rules[1].PassPercentage) {
		t.Fatalf("read back %+v", got)
	}
	p.data[pendingRulesKey] = []byte(`"not msgpack"`)
	if got := pendingRules(ctx, p); got != nil {
		t.Errorf("garbage read as %+v", got)
	}
}

type memPrivate struct{ data map[string][]byte }

func (m *memPrivate) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return m.data[key], nil
}

func (m *memPrivate) SetKey(_ context.Context, key string, value []byte) diag.Diagnostics {
	if m.data == nil {
		m.data = map[string][]byte{}
	}
	m.data[key] = value
	return nil
}

func typesListOfRules(ctx context.Context, rules []ruleModel) (types.List, diag.Diagnostics) {
	return types.ListValueFrom(ctx, ruleObjectType, rules)
}
