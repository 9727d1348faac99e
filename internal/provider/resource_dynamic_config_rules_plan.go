// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// ModifyPlan is the gate rules' (rules followed by name, ids promised only when nothing is
// written), and checks every rule's return value against the config's schema before anything is
// sent. With on_active_run = "abort" or "wait" a change may meet a run that puts back the rules held
// before it: while a run of the config is active, base_ids are the service's to choose, unknown.
func (r *configRulesResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer r.checkAccess(ctx, req, resp)
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan configRulesModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() {
		resp.Diagnostics.Append(framework.PlanIDAs(ctx, &resp.Plan, "config_id")...)
		r.checkReturnValues(ctx, plan, &resp.Diagnostics)
		return
	}
	if req.Plan.Raw.Equal(req.State.Raw) {
		return
	}
	var state configRulesModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !framework.ElementsKnown(plan.Rules) || !plan.ConfigID.Equal(state.ConfigID) {
		return
	}
	// As for gate rules (supersedePlan): while a run of the config is active, a write with abort or
	// wait may bring older rules back first, and the rules it took away get new base_ids.
	var activeRuns func(context.Context) ([]console.ReleasePipelineTrigger, error)
	if r.data != nil && r.data.client != nil {
		configID := plan.ConfigID.ValueString()
		activeRuns = func(ctx context.Context) ([]console.ReleasePipelineTrigger, error) {
			return activeRunsOfConfig(ctx, r.data.client, configID)
		}
	}
	rules, d := plannedRules(ctx, plan.Rules, state.Rules, supersedePlan{policy: plan.OnActiveRun, activeRuns: activeRuns,
		target: configRulesTarget, id: plan.ConfigID.ValueString()})
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
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
	id, ok := framework.KnownString(plan.ConfigID)
	if !ok || r.data == nil || !framework.ElementsKnown(plan.Rules) {
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
			framework.APIFailure{Op: "read", Object: fmt.Sprintf("dynamic config %q", id)}.Add(ctx, diags, nil, err)
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
		if !m.ReturnValue.IsUnknown() {
			value, _ := knownJSON(m.ReturnValue)
			checkValue(s, value, path.Root("rules").AtListIndex(i).AtName("return_value"),
				fmt.Sprintf("Return value of rule %q", m.Name.ValueString()), fmt.Sprintf("rules[%d].return_value", i), from, diags)
		}
		checkVariantValues(ctx, s, m, i, from, diags)
	}
}
