// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// What Terraform is told when the service held a write for review (respect_review_settings = true
// and the object's changes need review). The change was not applied, so it is reported as an error
// on the resource, and the state is left as it was: the next plan shows the same change until the
// review is approved in the console, and nothing once it is.

// reviewHeld reports whether err is a write the service held for review; if so it adds the
// diagnostic. summary names the change ("Change to the rules of gate \"x\""), after says what
// Terraform kept.
func reviewHeld(diags *diag.Diagnostics, err error, summary, after string) bool {
	re, ok := console.AwaitingReview(err)
	if !ok {
		return false
	}
	detail := fmt.Sprintf("%s\n\n%s\n\n"+
		"What to do next: have the review approved in the console (or reject it there to drop the change). "+
		"Once it is approved, `terraform plan` shows no change for this resource. Until then every plan shows "+
		"this change again, and applying it again submits it for review again.", failureAccount(re), after)
	diags.AddError(summary+" awaits review", detail)
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
	dv, err := tfprotov6.NewDynamicValue(gateRulesListType.TerraformType(ctx), tv)
	if err != nil {
		return nil
	}
	b, _ := json.Marshal(base64.StdEncoding.EncodeToString(dv.MsgPack))
	return p.SetKey(ctx, pendingRulesKey, b)
}

// pendingRules reads what savePendingRules stored; nothing (and no error) when there is none or it
// cannot be read.
func pendingRules(ctx context.Context, p privateState) []gateRuleModel {
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
	tv, err := (&tfprotov6.DynamicValue{MsgPack: raw}).Unmarshal(gateRulesListType.TerraformType(ctx))
	if err != nil {
		return nil
	}
	v, err := gateRulesListType.ValueFromTerraform(ctx, tv)
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

// warnPendingReview tells, on refresh, that the object has a change waiting for review: until it is
// decided, the service holds what it held, and the plan shows the change again.
func warnPendingReview(diags *diag.Diagnostics, what string, review *console.ActiveReview) {
	if !review.Pending() {
		return
	}
	id := ""
	if review.ReviewID != "" {
		id = fmt.Sprintf(" (review %q)", review.ReviewID)
	}
	diags.AddWarning(fmt.Sprintf("%s has a change waiting for review", what),
		fmt.Sprintf("%s has a change waiting for review%s in the console. Until it is approved the service keeps the "+
			"current configuration, which is what Terraform shows; once it is approved, the next plan reads the change.", what, id))
}
