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
)

// What a write left on the service, compared with what it sent, by meaning. A create finding the
// object already as configured (a held create approved since) takes it over without a write; a
// write whose answer differs from what was sent is reported in words rather than stored, which
// Terraform would call "Provider produced inconsistent result".

// sameGateRules reports whether the gate already holds exactly the rules to be written (by content,
// in order): a create then adopts them without a write, which matters after a held create was
// approved.
func sameGateRules(g *console.Gate, want []console.GateRule) bool {
	if g == nil || len(g.Rules) != len(want) {
		return false
	}
	for i := range want {
		a, okA := canonicalWireRule(g.Rules[i])
		b, okB := canonicalWireRule(want[i])
		if !okA || !okB || a != b {
			return false
		}
	}
	return true
}

// canonicalWireRule renders a rule's content as the service sees it, ids left out: empty lists,
// null and {} take one form, numbers and strings of numbers compare by value, JSON by meaning.
func canonicalWireRule(r console.GateRule) (string, bool) {
	conds, ok := canonicalConditions(r.Conditions)
	if !ok {
		return "", false
	}
	out := struct {
		Name        string
		Percentage  float64
		Envs        []string
		Conds       []canonicalCondition
		ReturnValue any
	}{Name: r.Name, Percentage: roundPercentage(r.PassPercentage), Envs: r.Environments, Conds: conds}
	if len(out.Envs) == 0 {
		out.Envs = nil
	}
	if !isEmptyJSONObject(r.ReturnValue) {
		if json.Unmarshal(r.ReturnValue, &out.ReturnValue) != nil {
			return "", false
		}
	}
	b, err := json.Marshal(out)
	return string(b), err == nil
}

// samePipeline reports whether the pipeline already has the name and phases to be written (ids
// included, which the request took from it by name).
func samePipeline(p *console.ReleasePipeline, name string, phases []console.Phase, withIDs bool) bool {
	if p == nil || p.Name != name || len(p.Phases) != len(phases) {
		return false
	}
	a, okA := canonicalPhases(p.Phases, withIDs)
	b, okB := canonicalPhases(phases, withIDs)
	return okA && okB && a == b
}

// canonicalPhases renders phases as the service sees them; ids only withIDs (a write sends none
// for new phases and rules).
func canonicalPhases(phases []console.Phase, withIDs bool) (string, bool) {
	type rule struct {
		ID, Name string
		Envs     []string
		Conds    []canonicalCondition
	}
	type phase struct {
		ID, Name string
		Interval int64
		Review   bool
		Rules    []rule
	}
	out := make([]phase, 0, len(phases))
	for _, ph := range phases {
		cp := phase{Name: ph.Name, Interval: int64(ph.TimeIntervalMs), Review: ph.RequiredReview}
		if withIDs {
			cp.ID = ph.ID
		}
		for _, r := range ph.Rules {
			cr := rule{Name: r.Name}
			if withIDs {
				cr.ID = r.ID
			}
			if len(r.Environments) > 0 {
				cr.Envs = r.Environments
			}
			conds, ok := canonicalConditions(r.Conditions)
			if !ok {
				return "", false
			}
			cr.Conds = conds
			cp.Rules = append(cp.Rules, cr)
		}
		out = append(out, cp)
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
			if d, err := shortestDecimal(string(nums[0])); err == nil {
				text = d
			}
		}
		out = append(out, text)
	}
	return out
}

// ruleDifferences names, by rule name, how the gate's rules differ from those sent: rules added
// that the gate does not hold, rules removed that it still holds, rules changed that it holds
// otherwise, and failing those an order other than the one sent. "" when they do not differ.
func ruleDifferences(g *console.Gate, sent []console.GateRule) string {
	held := map[string]string{}
	var heldOrder, sentOrder []string
	for _, r := range g.Rules {
		held[r.Name], _ = canonicalWireRule(r)
		heldOrder = append(heldOrder, strconv.Quote(r.Name))
	}
	var added, changed, removed []string
	sentNames := map[string]bool{}
	for _, r := range sent {
		sentNames[r.Name] = true
		sentOrder = append(sentOrder, strconv.Quote(r.Name))
		got, ok := held[r.Name]
		want, _ := canonicalWireRule(r)
		switch {
		case !ok:
			added = append(added, strconv.Quote(r.Name))
		case got != want:
			changed = append(changed, fmt.Sprintf("%q (sent as %s, the gate holds %s)", r.Name, truncate(want, 300), truncate(got, 300)))
		}
	}
	for _, r := range g.Rules {
		if !sentNames[r.Name] {
			removed = append(removed, strconv.Quote(r.Name))
		}
	}
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "added but not held by the gate: "+strings.Join(added, ", "))
	}
	if len(removed) > 0 {
		parts = append(parts, "removed but still held by the gate: "+strings.Join(removed, ", "))
	}
	if len(changed) > 0 {
		parts = append(parts, "changed but held otherwise: "+strings.Join(changed, "; "))
	}
	switch {
	case len(parts) > 0 || sameGateRules(g, sent):
	case len(g.Rules) != len(sent): // names held twice
		parts = append(parts, fmt.Sprintf("%d rules were sent, the gate holds %d: %s", len(sent), len(g.Rules), strings.Join(heldOrder, ", ")))
	default:
		parts = append(parts, fmt.Sprintf("the rules are in another order: sent %s, the gate holds %s",
			strings.Join(sentOrder, ", "), strings.Join(heldOrder, ", ")))
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
