// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// ModifyPlan is the gate rules' (rules followed by name, ids promised only when nothing is
// written), and checks every rule's return value against the config's schema before anything is
// sent. With on_active_run = "abort" a change may abort a run first, which puts back the rules held
// before it: the rules' ids and base_ids are then the service's to choose, unknown in the plan.
func (r *configRulesResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan configRulesModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() {
		resp.Diagnostics.Append(planIDAs(ctx, &resp.Plan, "config_id")...)
		r.checkReturnValues(ctx, plan, &resp.Diagnostics)
		return
	}
	if req.Plan.Raw.Equal(req.State.Raw) {
		return
	}
	var state configRulesModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !elementsKnown(plan.Rules) || !plan.ConfigID.Equal(state.ConfigID) {
		return
	}
	rules, d := plannedRules(ctx, plan.Rules, state.Rules)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !rules.Equal(state.Rules) && plan.OnActiveRun.ValueString() == onActiveRunAbort {
		rules = mapObjects(ctx, rules, gateRuleObjectType, func(m *gateRuleModel) {
			m.ID, m.BaseID = types.StringUnknown(), types.StringUnknown()
		}, &resp.Diagnostics)
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("rules"), rules)...)
	if !rules.Equal(state.Rules) {
		r.checkReturnValues(ctx, plan, &resp.Diagnostics)
	}
}

// checkReturnValues checks each rule's return value against the config's schema: the one this plan
// gives featureconsole_dynamic_config (planned first, as config_id refers to it), else the one the
// service holds. One error per value that breaks it, on that rule's return_value.
func (r *configRulesResource) checkReturnValues(ctx context.Context, plan configRulesModel, diags *diag.Diagnostics) {
	id, ok := knownString(plan.ConfigID)
	if !ok || r.data == nil || !elementsKnown(plan.Rules) {
		return
	}
	ps, planned := r.data.schemas.get(id)
	if planned && !ps.known {
		return // the schema is known only after apply: the service checks the values then
	}
	raw, from := ps.raw, "the schema this plan gives featureconsole_dynamic_config"
	if !planned {
		if r.data.client == nil {
			return
		}
		c, err := r.data.client.GetDynamicConfig(ctx, id)
		if console.NotFound(err) {
			return // reported on apply, naming what to do
		}
		if err != nil {
			apiFailure{"read", fmt.Sprintf("dynamic config %q", id)}.add(diags, nil, err)
			return
		}
		raw, from = []byte(c.Schema), "the schema the service holds for the config"
	}
	s := compiledSchema(raw)
	if s == nil {
		return
	}
	rules, d := ruleModels(ctx, plan.Rules)
	diags.Append(d...)
	for i, m := range rules {
		if m.ReturnValue.IsUnknown() {
			continue
		}
		value, _ := knownJSON(m.ReturnValue)
		checkValue(s, value, path.Root("rules").AtListIndex(i).AtName("return_value"),
			fmt.Sprintf("Return value of rule %q", m.Name.ValueString()), fmt.Sprintf("rules[%d].return_value", i), from, diags)
	}
}
