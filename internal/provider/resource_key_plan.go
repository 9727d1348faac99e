// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// ValidateConfig has nothing to check across attributes: the type is a schema validator, and the
// environments need the service, which ModifyPlan reads.
func (r *keyResource) ValidateConfig(context.Context, resource.ValidateConfigRequest, *resource.ValidateConfigResponse) {
}

// ModifyPlan plans a rotation (the secret unknown) when rotation_triggers change, and refuses
// environments the project lacks (`GET /environments`), before anything is sent.
func (r *keyResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer r.checkAccess(ctx, req, resp)
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan keyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	var state *keyModel
	if !req.State.Raw.IsNull() {
		state = &keyModel{}
		resp.Diagnostics.Append(req.State.Get(ctx, state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if state == nil && plan.Description.IsNull() {
		// POST /keys requires a description; an imported key may have none (the answers leave it out).
		resp.Diagnostics.AddAttributeError(path.Root("description"), "Missing key description",
			"The service requires a description to create a key: say what the key is for in description.")
		return
	}
	if state != nil && rotates(state.RotationTriggers, plan.RotationTriggers) {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("secret"), types.StringUnknown())...)
	}
	if state == nil || !plan.Environments.Equal(state.Environments) {
		r.checkEnvironments(ctx, plan.Environments, resp)
	}
}

// rotates reports whether a change of rotation_triggers rotates the key: any change of triggers
// the key had, or triggers known only at apply. Triggers added to a key without any (an imported
// key) are recorded without rotating, and removing them rotates nothing.
func rotates(prior, planned types.Map) bool {
	if prior.IsNull() || planned.IsNull() {
		return false
	}
	return planned.IsUnknown() || !prior.Equal(planned)
}

// checkEnvironments fails the plan at `environments` for each environment the project lacks. A
// listing that fails only warns: the service still refuses an unknown environment at apply.
func (r *keyResource) checkEnvironments(ctx context.Context, envs types.Set, resp *resource.ModifyPlanResponse) {
	if envs.IsNull() || envs.IsUnknown() || r.data == nil || r.data.client == nil {
		return
	}
	wanted := stringsOf(envs)
	if len(wanted) == 0 || slices.ContainsFunc(envs.Elements(), func(v attr.Value) bool { return v.IsUnknown() }) {
		return
	}
	have, err := r.data.client.ListEnvironments(ctx)
	if err != nil {
		f := framework.APIFailure{Op: "list", Object: "environments"}
		resp.Diagnostics.AddAttributeWarning(path.Root("environments"), "Environments not checked",
			"The plan could not read the project's environments; the service checks them at apply.\n\n"+f.Detail(ctx, nil, err))
		return
	}
	names := make([]string, len(have))
	for i, e := range have {
		names[i] = e.Name
	}
	for _, e := range wanted {
		if slices.Contains(names, e) {
			continue
		}
		meant := ""
		if near := framework.Nearest(e, names); len(near) > 0 {
			meant = fmt.Sprintf(" Did you mean %q?", near[0])
		}
		resp.Diagnostics.AddAttributeError(path.Root("environments").AtSetValue(types.StringValue(e)), "Unknown environment",
			fmt.Sprintf("environments: the project has no environment %q.%s Its environments are: %s.", e, meant, strings.Join(names, ", ")))
	}
}
