// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// The model of featureconsole_gate_rules and its conversion to and from the service's gate.

type gateRulesModel struct {
	GateID types.String `tfsdk:"gate_id"`
	rulesFields
}

func (m *gateRulesModel) identity() (string, types.String) { return gateIdentityAttr, m.GateID }

// expandForWrite is expandRules for a write of planned: a rule whose base_id the plan does not know
// takes the one of the rule of the same name that holds (what the object holds, on create) or prior
// (the state's rules) has. A plan that may supersede a run promises no base_id (supersedePlan), yet
// the service keeps the identity of every rule the object still holds when it is sent back.
func expandForWrite(ctx context.Context, planned, prior []gateRuleModel, holds []console.GateRule) ([]console.GateRule, diag.Diagnostics) {
	rules, diags := expandRules(ctx, planned)
	if diags.HasError() {
		return nil, diags
	}
	baseIDs := map[string]string{}
	for _, p := range prior {
		if !p.BaseID.IsUnknown() && !p.BaseID.IsNull() {
			baseIDs[p.Name.ValueString()] = p.BaseID.ValueString()
		}
	}
	for _, h := range holds {
		baseIDs[h.Name] = h.BaseID
	}
	for i := range rules {
		if rules[i].BaseID == "" {
			rules[i].BaseID = baseIDs[rules[i].Name]
		}
	}
	fillVariantIDs(rules, prior, holds)
	return rules, diags
}

// expandStateRules is expandRules of a rule list as state holds it.
func expandStateRules(ctx context.Context, l types.List) ([]console.GateRule, diag.Diagnostics) {
	rules, diags := ruleModels(ctx, l)
	if diags.HasError() {
		return nil, diags
	}
	out, d := expandRules(ctx, rules)
	diags.Append(d...)
	return out, diags
}

// flattenGate stores the service's gate in m (flattenRulesModel).
func flattenGate(ctx context.Context, g *console.Gate, m *gateRulesModel, hints []gateRuleModel) diag.Diagnostics {
	return flattenRulesModel(ctx, gateRuleObjectType, g.Rules, m, hints)
}
