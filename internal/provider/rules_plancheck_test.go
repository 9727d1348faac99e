// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// How a plan of the rules treats their ids, checked from the plan's JSON.

// ruleIdentity asserts, in a plan, how the rule named name relates to the same-named rule of the
// prior state: idKept means its id is known and unchanged (else unknown); baseKept means its
// base_id is known and unchanged (else unknown, for a new rule).
type ruleIdentity struct {
	addr             string // the rules resource's address: gateRulesAddr when empty
	name             string
	idKept, baseKept bool
}

func (c ruleIdentity) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.ruleAddr() {
			continue
		}
		before := ruleByName(rc.Change.Before, c.name)
		after := ruleByName(rc.Change.After, c.name)
		idx := ruleIndex(rc.Change.After, c.name)
		if idx < 0 {
			resp.Error = fmt.Errorf("rule %q not in the planned rules", c.name)
			return
		}
		for _, k := range []struct {
			attr string
			kept bool
		}{{"id", c.idKept}, {"base_id", c.baseKept}} {
			unknown := afterUnknown(rc.Change.AfterUnknown, idx, k.attr)
			switch {
			case k.kept && unknown:
				resp.Error = fmt.Errorf("rule %q: %s is unknown in the plan, want it kept", c.name, k.attr)
				return
			case k.kept && (before == nil || after[k.attr] != before[k.attr] || after[k.attr] == nil):
				resp.Error = fmt.Errorf("rule %q: planned %s %v, prior %v", c.name, k.attr, after[k.attr], before)
				return
			case !k.kept && !unknown:
				resp.Error = fmt.Errorf("rule %q: %s is known (%v) in the plan, want unknown", c.name, k.attr, after[k.attr])
				return
			}
		}
		return
	}
	resp.Error = fmt.Errorf("no planned change for %s", c.ruleAddr())
}

func ruleIndex(obj any, name string) int {
	m, _ := obj.(map[string]any)
	rules, _ := m["rules"].([]any)
	for i, r := range rules {
		if rm, _ := r.(map[string]any); rm["name"] == name {
			return i
		}
	}
	return -1
}

func ruleByName(obj any, name string) map[string]any {
	i := ruleIndex(obj, name)
	if i < 0 {
		return nil
	}
	return obj.(map[string]any)["rules"].([]any)[i].(map[string]any)
}

func afterUnknown(au any, idx int, attr string) bool {
	m, _ := au.(map[string]any)
	switch rules := m["rules"].(type) {
	case bool:
		return rules
	case []any:
		if idx >= len(rules) {
			return false
		}
		switch r := rules[idx].(type) {
		case bool:
			return r
		case map[string]any:
			b, _ := r[attr].(bool)
			return b
		}
	}
	return false
}
