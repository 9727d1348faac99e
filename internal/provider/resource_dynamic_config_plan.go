// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// ValidateConfig checks the default value against the schema, both from the configuration: the
// service refuses a config whose default value breaks its schema.
func (r *dynamicConfigResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var dv, sch framework.JSONValue
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("default_value"), &dv)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("schema"), &sch)...)
	if resp.Diagnostics.HasError() || dv.IsUnknown() || sch.IsUnknown() {
		return
	}
	raw, _ := framework.KnownJSON(sch)
	what, where := "The default value", "default_value"
	if dv.IsNull() {
		what, where = "The default value {}", "default_value is omitted"
	}
	value, _ := framework.KnownJSON(dv)
	checkValue(compiledSchema(raw), value, path.Root("default_value"), what, where, "the schema", &resp.Diagnostics)
}

// ModifyPlan names the planned id, keeps what only a write changes where nothing is written, hands
// the planned schema to the config's rules (provider_data.go), and checks a changed schema against
// the return values the service holds: the service refuses a schema that a value it holds breaks.
func (r *dynamicConfigResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer r.checkAccess(ctx, req, resp)
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan dynamicConfigModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var state dynamicConfigModel
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	if id, ok := framework.KnownString(plan.ConfigID); ok && r.data != nil {
		raw, _ := framework.KnownJSON(plan.Schema)
		writes := req.State.Raw.IsNull() || !framework.SameJSON(ctx, plan.Schema, state.Schema)
		r.data.schemas.set(id, plannedSchema{raw: raw, known: !plan.Schema.IsUnknown(), pending: writes})
		if writes && !plan.Schema.IsUnknown() {
			r.data.schemas.plannedAfterRules(id, raw, &resp.Diagnostics)
		}
	}
	resp.Diagnostics.Append(framework.PlanIDAs(ctx, &resp.Plan, "config_id")...)
	if req.State.Raw.IsNull() {
		return
	}
	if configWritesNothing(ctx, plan, state) {
		resp.Diagnostics.Append(framework.KeepUnwritten(ctx, req.State, &resp.Plan, "last_modifier_id", "last_modifier_name")...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("version"), state.Version)...)
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("version"), types.Int64Unknown())...)
	if plan.ConfigID.Equal(state.ConfigID) && !plan.Schema.IsUnknown() && !framework.SameJSON(ctx, plan.Schema, state.Schema) && r.data != nil && r.data.client != nil {
		r.checkHeldValues(ctx, plan, resp)
	}
}

// checkHeldValues checks the rules' return values the service holds against a changed schema.
func (r *dynamicConfigResource) checkHeldValues(ctx context.Context, plan dynamicConfigModel, resp *resource.ModifyPlanResponse) {
	raw, _ := framework.KnownJSON(plan.Schema)
	s := compiledSchema(raw)
	if s == nil {
		return
	}
	id := plan.ConfigID.ValueString()
	c, err := r.data.client.GetDynamicConfig(ctx, id)
	if console.NotFound(err) {
		return
	}
	if err != nil {
		framework.APIFailure{Op: "read", Object: fmt.Sprintf("dynamic config %q", id)}.Add(ctx, &resp.Diagnostics, nil, err)
		return
	}
	for i, rule := range c.Rules {
		value := []byte(rule.ReturnValue)
		if framework.IsEmptyJSONObject(value) {
			value = nil
		}
		checkValue(s, value, path.Root("schema"), fmt.Sprintf("Return value of rule %q", rule.Name),
			fmt.Sprintf("rules[%d] as dynamic config %q holds it", i, id), "the planned schema", &resp.Diagnostics)
		checkHeldVariantValues(s, rule, i, id, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() {
		resp.Diagnostics.AddAttributeError(path.Root("schema"), "Schema change breaks values the config holds",
			fmt.Sprintf("The service refuses a schema that a value the config already holds breaks, and the config's rules "+
				"are written after its schema. Change the rules first (in featureconsole_dynamic_config_rules, applied with a "+
				"schema both forms match), then the schema. Nothing was sent."))
	}
}

// configWritesNothing reports whether an update of state to plan sends nothing to the service.
func configWritesNothing(ctx context.Context, plan, state dynamicConfigModel) bool {
	for _, pair := range [][2]attr.Value{
		{plan.Name, state.Name}, {plan.Description, state.Description}, {plan.IsEnabled, state.IsEnabled},
		{plan.IDType, state.IDType}, {plan.Tags, state.Tags}, {plan.TargetApps, state.TargetApps},
		{plan.ReleasePipelineID, state.ReleasePipelineID}, {plan.ConfigID, state.ConfigID}, {plan.Archived, state.Archived},
	} {
		if pair[0].IsUnknown() || !pair[0].Equal(pair[1]) {
			return false
		}
	}
	return framework.SameJSON(ctx, plan.DefaultValue, state.DefaultValue) && framework.SameJSON(ctx, plan.Schema, state.Schema)
}
