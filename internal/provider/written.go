// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// What a write left on the service, compared with what it sent, by meaning. A create finding the
// object already as configured (a held create approved since) takes it over without a write; a
// write whose answer differs from what was sent is reported in words rather than stored, which
// Terraform would call "Provider produced inconsistent result".

// sameRules reports whether an object (a gate, a dynamic config, a segment) already holds
// exactly the rules to be written (by content, in order): a create then adopts them without a
// write, which matters after a held create was approved.
func sameRules(held, want []console.Rule) bool {
	if len(held) != len(want) {
		return false
	}
	for i := range want {
		a, okA := canonicalWireRule(held[i])
		b, okB := canonicalWireRule(want[i])
		if !okA || !okB || a != b {
			return false
		}
	}
	return true
}

// canonicalWireRule renders a rule's content as the service sees it, ids left out (its variants'
// too): empty lists, null and {} take one form, numbers and strings of numbers compare by value, JSON
// by meaning.
func canonicalWireRule(r console.Rule) (string, bool) {
	conds, ok := canonicalConditions(r.Conditions)
	if !ok {
		return "", false
	}
	variants, ok := canonicalVariants(r.Variants)
	if !ok {
		return "", false
	}
	out := struct {
		Name        string
		Percentage  float64
		Envs        []string
		Conds       []canonicalCondition
		ReturnValue any
		Variants    []canonicalVariant `json:",omitempty"`
	}{Name: r.Name, Percentage: framework.RoundPercentage(r.PassPercentage), Envs: r.Environments, Conds: conds, Variants: variants}
	if len(out.Envs) == 0 {
		out.Envs = nil
	}
	if !framework.IsEmptyJSONObject(r.ReturnValue) {
		if json.Unmarshal(r.ReturnValue, &out.ReturnValue) != nil {
			return "", false
		}
	}
	b, err := json.Marshal(out)
	return string(b), err == nil
}

// canonicalCondition is a condition as the service sees it, whichever rule it is of.
type canonicalCondition struct {
	Type, Operator, Field, CustomID string
	Targets                         []string
}

// canonicalConditions renders conditions as the service sees them: targets that are numbers, or
// strings of numbers, compare by value. False when a target is not a form the service answers.
func canonicalConditions(cs []console.Condition) ([]canonicalCondition, bool) {
	var out []canonicalCondition
	for _, c := range cs {
		l, err := targetValueStrings(c.TargetValue)
		if err != nil {
			return nil, false
		}
		out = append(out, canonicalCondition{c.Type, c.Operator, c.Field, c.CustomID, targetTexts(l)})
	}
	return out, true
}

// targetTexts is a condition's targets as text, numbers (and strings of numbers, the form the
// service may store numbers in) in their shortest decimal form.
func targetTexts(l types.List) []string {
	var out []string
	for _, e := range l.Elements() {
		s, ok := e.(types.String)
		if !ok {
			continue
		}
		text := s.ValueString()
		if nums, ok := numericStrings([]json.RawMessage{json.RawMessage(strconv.Quote(text))}); ok {
			if d, err := framework.ShortestDecimal(string(nums[0])); err == nil {
				text = d
			}
		}
		out = append(out, text)
	}
	return out
}

// heldRuleDifferences names, by rule name, how the rules an object (named by holder: "the gate")
// holds differ from those sent: rules added that it does not hold, rules removed that it still
// holds, rules changed that it holds otherwise, and failing those an order other than the one
// sent. "" when they do not differ.
func heldRuleDifferences(holder string, held, sent []console.Rule) string {
	byName := map[string]string{}
	var heldOrder, sentOrder []string
	for _, r := range held {
		byName[r.Name], _ = canonicalWireRule(r)
		heldOrder = append(heldOrder, strconv.Quote(r.Name))
	}
	var added, changed, removed []string
	sentNames := map[string]bool{}
	for _, r := range sent {
		sentNames[r.Name] = true
		sentOrder = append(sentOrder, strconv.Quote(r.Name))
		got, ok := byName[r.Name]
		want, _ := canonicalWireRule(r)
		switch {
		case !ok:
			added = append(added, strconv.Quote(r.Name))
		case got != want:
			changed = append(changed, fmt.Sprintf("%q (sent as %s, %s holds %s)", r.Name, framework.Truncate(want, 300), holder, framework.Truncate(got, 300)))
		}
	}
	for _, r := range held {
		if !sentNames[r.Name] {
			removed = append(removed, strconv.Quote(r.Name))
		}
	}
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "added but not held by "+holder+": "+strings.Join(added, ", "))
	}
	if len(removed) > 0 {
		parts = append(parts, "removed but still held by "+holder+": "+strings.Join(removed, ", "))
	}
	if len(changed) > 0 {
		parts = append(parts, "changed but held otherwise: "+strings.Join(changed, "; "))
	}
	switch {
	case len(parts) > 0 || sameRules(held, sent):
	case len(held) != len(sent): // names held twice
		parts = append(parts, fmt.Sprintf("%d rules were sent, %s holds %d: %s", len(sent), holder, len(held), strings.Join(heldOrder, ", ")))
	default:
		parts = append(parts, fmt.Sprintf("the rules are in another order: sent %s, %s holds %s",
			strings.Join(sentOrder, ", "), holder, strings.Join(heldOrder, ", ")))
	}
	return strings.Join(parts, "; ")
}

// addNotAsSent reports a write the service answered with something other than what was sent.
func addNotAsSent(diags *diag.Diagnostics, summary, difference, kept string) {
	diags.AddError(summary,
		fmt.Sprintf("The service answered the write with a state that differs from what was sent (%s). The change may "+
			"not have been applied, or may have been changed by the service or by someone else at the same time. %s "+
			"The next plan reads the object again and shows what is left to do.", difference, kept))
}
