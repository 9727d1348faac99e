// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import "encoding/json"

// The rule list is the same object in gates and dynamic configs (PATCH /gates/{id}/rules, PATCH
// /dynamic_configs/{id}/rules), and its conditions are those of segments and pipeline phases too.

// Condition is shared by gate rules, pipeline rules and segment rules. TargetValue keeps the JSON
// the service sent (strings, numbers, or a single scalar in segments).
type Condition struct {
	Type        string          `json:"type"`
	Operator    string          `json:"operator,omitempty"`
	TargetValue json.RawMessage `json:"targetValue,omitempty"`
	Field       string          `json:"field,omitempty"`
	CustomID    string          `json:"customID,omitempty"`
}

// Rule is one rule of a gate or a dynamic config (segments and pipeline phases have their own). ID is
// opaque; BaseID is the rule's lasting identity.
type Rule struct {
	ID             string          `json:"id,omitempty"`
	BaseID         string          `json:"baseID,omitempty"`
	Name           string          `json:"name"`
	PassPercentage float64         `json:"passPercentage"`
	Conditions     []Condition     `json:"conditions"`
	ReturnValue    json.RawMessage `json:"returnValue,omitempty"`
	Environments   []string        `json:"environments"`
	// Variants split the users a config rule passes (rule_variants.go); gate rules have none.
	Variants []RuleVariant `json:"variants,omitempty"`
	// The rule's schedule (read-only): at each step's time the service sets passPercentage.
	PendingAutomatedRollouts   []AutomatedRollout `json:"pendingAutomatedRollouts,omitempty"`
	CompletedAutomatedRollouts []AutomatedRollout `json:"completedAutomatedRollouts,omitempty"`
}

// AutomatedRollout is one step of a rule's schedule: at Time the rule's passPercentage becomes
// PassPercent.
type AutomatedRollout struct {
	Time        Millis  `json:"time"`
	PassPercent float64 `json:"passPercent"`
}

type rulesBody struct {
	Rules []Rule `json:"rules"`
}

// writtenRulesBody is what PATCH /gates/{id}/rules is sent for rules.
func writtenRulesBody(rules []Rule) rulesBody {
	out := make([]Rule, len(rules))
	for i, r := range rules {
		r.Conditions = orEmpty(r.Conditions)
		// Read-only: the service refuses a write that carries them.
		r.PendingAutomatedRollouts, r.CompletedAutomatedRollouts = nil, nil
		out[i] = r
	}
	return rulesBody{out}
}
