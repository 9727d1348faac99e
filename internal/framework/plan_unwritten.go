// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// KeepUnwritten plans the state's values of what the service records on every write (the
// last_modifier_* attributes, named in attrs) for a ModifyPlan that found the plan writes nothing:
// only Terraform-side settings, such as timeouts, change, or values equal by meaning. The framework
// marks them unknown on any change of the resource, yet with no write the state keeps them.
func KeepUnwritten(ctx context.Context, state tfsdk.State, plan *tfsdk.Plan, attrs ...string) diag.Diagnostics {
	var diags diag.Diagnostics
	for _, name := range attrs {
		var v types.String
		diags.Append(state.GetAttribute(ctx, path.Root(name), &v)...)
		diags.Append(plan.SetAttribute(ctx, path.Root(name), v)...)
	}
	return diags
}

// PlanIDAs plans id as the configured attribute that names the object (gate_id, segment_id) once
// that is known: the service keeps the id it is given, so a create's plan need not say "known
// after apply" for it.
func PlanIDAs(ctx context.Context, plan *tfsdk.Plan, from string) diag.Diagnostics {
	var id, name types.String
	diags := plan.GetAttribute(ctx, path.Root("id"), &id)
	diags.Append(plan.GetAttribute(ctx, path.Root(from), &name)...)
	if diags.HasError() || name.IsUnknown() || name.IsNull() || id.Equal(name) {
		return diags
	}
	return append(diags, plan.SetAttribute(ctx, path.Root("id"), name)...)
}
