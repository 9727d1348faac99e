// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

func (r *metricSourceResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m metricSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.SourceType.IsUnknown() || m.SourceType.ValueString() != sourceTypeTable || m.TableName.IsUnknown() {
		return
	}
	if framework.IsBlank(m.TableName.ValueString()) {
		resp.Diagnostics.AddAttributeError(path.Root("table_name"), "Missing table name",
			`table_name is required when source_type is "table": set it to the name of the table the source reads.`)
	}
}

// ModifyPlan names the planned id and, when the plan changes the source and every value is
// known, has the service validate the planned source with a dry run so a bad source fails at plan.
func (r *metricSourceResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer r.checkAccess(ctx, req, resp)
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan metricSourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// The id is the name: known with it, unknown with it (a name known only at apply replaces).
	if !plan.ID.Equal(plan.Name) {
		plan.ID = plan.Name
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), plan.ID)...)
	}
	// A source this apply creates: the metrics that name it wait for apply to be checked (handoffs.go).
	if name, ok := framework.KnownString(plan.Name); ok && r.data != nil {
		var prior types.String
		if !req.State.Raw.IsNull() {
			resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("name"), &prior)...)
		}
		if !prior.Equal(plan.Name) {
			r.data.sourcesCreated.Store(name, true)
		}
	}

	if !plan.ValidateOnPlan.ValueBool() || !req.Config.Raw.IsFullyKnown() || r.data == nil || r.data.client == nil {
		return
	}
	src, diags := expandMetricSource(ctx, plan)
	if diags.HasError() {
		return // reported by apply, not guessed at here
	}
	update := false
	if !req.State.Raw.IsNull() {
		var state metricSourceModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		old, diags := expandMetricSource(ctx, state)
		if !diags.HasError() && sameMetricSource(old, src) {
			return // nothing the service would see changes: no request
		}
		update = state.Name.Equal(plan.Name)
	}

	src.DryRun = true
	ctx, op, cancel := dryRunOperation(ctx, plan.Timeouts, update)
	defer cancel()
	var err error
	if update {
		_, err = r.data.client.UpdateMetricSource(ctx, src.Name, src)
	} else {
		_, err = r.data.client.CreateMetricSource(ctx, src)
	}
	if err == nil {
		return
	}
	dryRunFailure{creation: metricSourceCreation, id: src.Name, update: update,
		exists: func(ctx context.Context, name string) error {
			_, err := r.data.client.GetMetricSource(ctx, name)
			return err
		},
	}.add(ctx, &resp.Diagnostics, op, err)
}
