// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// ModifyPlan follows rules by name rather than by list position: a rule whose name is in the prior
// state keeps its base_id in the plan wherever it moves. The framework alone would match by index,
// so inserting a rule at the top would show every rule below it as changed. A rule's id is the
// service's and may change on any write of the list (the service may give every rule of the gate a
// new one), so it is promised only when nothing is written: when the list is unchanged; so is a
// rule's schedule, which is the service's. A write that may abort a run, or wait for one, promises
// no base_id either (supersedePlan).
func (r *gateRulesResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer r.checkAccess(ctx, req, resp)
	if req.Plan.Raw.IsNull() {
		return
	}
	if req.State.Raw.IsNull() { // create: the rules' ids are unknown until the service assigns them
		resp.Diagnostics.Append(framework.PlanIDAs(ctx, &resp.Plan, "gate_id")...)
		return
	}
	if req.Plan.Raw.Equal(req.State.Raw) {
		// Nothing changes, so the framework left every id as the state has it, rule for rule, which
		// is what plannedRules would give: skipping it spares decoding both models, most of the
		// provider's work in the plan of an unchanged gate.
		return
	}
	var plan, state gateRulesModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !framework.ElementsKnown(plan.Rules) || !plan.GateID.Equal(state.GateID) {
		return
	}
	var activeRuns func(context.Context) ([]console.ReleasePipelineTrigger, error)
	if r.data != nil && r.data.client != nil {
		gateID := plan.GateID.ValueString()
		activeRuns = func(ctx context.Context) ([]console.ReleasePipelineTrigger, error) {
			return activeRunsOfGate(ctx, r.data.client, gateID)
		}
	}
	rules, d := plannedRules(ctx, plan.Rules, state.Rules, supersedePlan{policy: plan.OnActiveRun, activeRuns: activeRuns,
		target: gateRulesTarget, id: plan.GateID.ValueString()})
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("rules"), rules)...)
}

// ValidateConfig checks what single-attribute validators cannot: rule names unique within the gate
// (a return value that is not JSON is the JSON type's to say, with how to write it).
func (r *gateRulesResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var rules types.List
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("rules"), &rules)...)
	if resp.Diagnostics.HasError() {
		return
	}
	framework.UniqueNames(rules, path.Root("rules"), &resp.Diagnostics, func(first, i int, name string) (string, string) {
		return "Duplicate rule name", fmt.Sprintf("Rule names must be unique within a gate: rules[%d] and rules[%d] are both named %q.", first, i, name)
	})
}
