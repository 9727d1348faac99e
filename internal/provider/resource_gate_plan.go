// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// ValidateConfig has nothing to check across attributes: each attribute's validators say what the
// service refuses (POST /gates), with the attribute's path.
func (r *gateResource) ValidateConfig(context.Context, resource.ValidateConfigRequest, *resource.ValidateConfigResponse) {
}

// ModifyPlan names the planned id: the gate id, known with it. A write never makes a fresh gate
// stale, so its type_reason stays NONE; archiving or unarchiving changes its status.
func (r *gateResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer r.checkAccess(ctx, req, resp)
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	if req.Plan.Raw.Equal(req.State.Raw) && planIDIsGateID(ctx, req.Plan) {
		return // nothing changes: each step below would keep the plan as it is
	}
	var plan gateModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// A gate this apply creates: the experiments that target it read it at apply (handoffs.go).
	if id, ok := framework.KnownString(plan.GateID); ok && r.data != nil {
		var prior types.String
		if !req.State.Raw.IsNull() {
			resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("gate_id"), &prior)...)
		}
		if !prior.Equal(plan.GateID) {
			r.data.gatesCreated.Store(id, true)
		}
	}
	if !req.State.Raw.IsNull() {
		var state gateModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		if plan.TypeReason.IsUnknown() && state.TypeReason.ValueString() == console.TypeReasonNone {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("type_reason"), state.TypeReason)...)
		}
		if !plan.Archived.Equal(state.Archived) && !plan.Status.IsUnknown() {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("status"), types.StringUnknown())...)
		}
		if gateWritesNothing(plan, state) { // only Terraform's own settings (timeouts, archive_on_destroy) change
			resp.Diagnostics.Append(framework.KeepUnwritten(ctx, req.State, &resp.Plan, "last_modifier_id", "last_modifier_name")...)
		}
	}
	resp.Diagnostics.Append(framework.PlanIDAs(ctx, &resp.Plan, "gate_id")...)
}

// gateWritesNothing reports whether an update of state to plan sends nothing to the service: every
// attribute the service holds is known and unchanged. An unknown one may turn out to differ, so it
// counts as a write.
func gateWritesNothing(plan, state gateModel) bool {
	for _, pair := range [][2]attr.Value{
		{plan.Name, state.Name}, {plan.Description, state.Description}, {plan.IsEnabled, state.IsEnabled},
		{plan.Tags, state.Tags}, {plan.TargetApps, state.TargetApps}, {plan.Type, state.Type}, {plan.IDType, state.IDType},
		{plan.ReleasePipelineID, state.ReleasePipelineID}, {plan.Archived, state.Archived},
	} {
		if pair[0].IsUnknown() || !pair[0].Equal(pair[1]) {
			return false
		}
	}
	return true
}

// planIDIsGateID tells whether the plan's id is its gate_id already. It reads the two attributes
// alone: decoding the whole model into a gateModel costs more than the rest of an unchanged
// gate's plan, and a refresh of many gates plans each of them.
func planIDIsGateID(ctx context.Context, p tfsdk.Plan) bool {
	var id, gateID types.String
	if p.GetAttribute(ctx, path.Root("id"), &id).HasError() || p.GetAttribute(ctx, path.Root("gate_id"), &gateID).HasError() {
		return false
	}
	return id.Equal(gateID)
}
