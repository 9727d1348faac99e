// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

type targetAppResource struct{ resourceData }

var _ managedResource = &targetAppResource{}

func NewTargetAppResource() resource.Resource {
	return &targetAppResource{resourceData{typeName: "target_app"}}
}

const targetAppIdentityAttr = "target_app_id"

// targetAppModel is featureconsole_target_app. Which gates, configs and experiments belong to the
// app is said on those objects (`target_apps`), never here (DESIGN §4).
type targetAppModel struct {
	ID          types.String   `tfsdk:"id"`
	Name        types.String   `tfsdk:"name"`
	Description types.String   `tfsdk:"description"`
	Timeouts    timeouts.Value `tfsdk:"timeouts"`
}

func (m *targetAppModel) identity() (string, types.String) { return targetAppIdentityAttr, m.ID }

func (r *targetAppResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A target app of the project: the web app, the iOS app, a backend. Keys are scoped to it " +
			"(`featureconsole_key.target_app_id`). Which gates, dynamic configs and experiments belong to it is set on them " +
			"(their `target_apps`), never here. Destroy deletes the app. Import by id.",
		Attributes: map[string]schema.Attribute{
			"id": keptString("Identifier of the app, made by the service."),
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Name of the app, unique in the project. Updated in place.",
				Validators:          []validator.String{framework.NotBlank()},
			},
			"description": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Description. Updated in place. The service's reads do not give it back, so a change " +
					"made in the console does not show in the plan, and an imported app has none until set here.",
			},
			"timeouts": framework.TimeoutsAttribute(ctx, "the app", timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, nil),
		},
	}
}

func (r *targetAppResource) write(m targetAppModel) console.TargetAppWrite {
	return console.TargetAppWrite{Name: m.Name.ValueString(), Description: m.Description.ValueString()}
}

func (r *targetAppResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan targetAppModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "create", &resp.Diagnostics)
	defer cancel()
	app, err := r.data.client.CreateTargetApp(ctx, r.write(plan))
	if console.MaybeApplied(err) {
		// The answer was lost: the app of that name is the one this create made (names are unique).
		app, err = adoptLost(ctx, err, plan.Name.ValueString(), r.data.client.FindTargetApp, func(got *console.TargetApp) bool { return got.ID != "" })
	}
	if err != nil {
		framework.APIFailure{Op: "create", Object: fmt.Sprintf("target app %q", plan.Name.ValueString())}.Add(ctx, &resp.Diagnostics, op, err)
		return
	}
	if app.ID == "" {
		resp.Diagnostics.AddError(fmt.Sprintf("Unable to create target app %q", plan.Name.ValueString()),
			"The service created the app but gave no id for it, neither in its answer nor in its list of target apps. "+
				"Find the app's id in the console and import it: terraform import featureconsole_target_app.<name> <id>.")
		return
	}
	plan.ID = types.StringValue(app.ID)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, targetAppIdentityAttr, plan.ID)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *targetAppResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state targetAppModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.State, &state) {
		return
	}
	readObject(ctx, resp, state.Timeouts, "Target app", state.ID.ValueString(), r.data.client.GetTargetApp, func(app *console.TargetApp) diag.Diagnostics {
		flattenTargetApp(app, &state)
		return nil
	}, &state)
}

// flattenTargetApp reads the app into m; the description, which reads do not give, stays m's.
func flattenTargetApp(app *console.TargetApp, m *targetAppModel) {
	if app.ID != "" {
		m.ID = types.StringValue(app.ID)
	}
	m.Name = framework.StringOrPrior(app.Name, m.Name)
}

func (r *targetAppResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan targetAppModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "update", &resp.Diagnostics)
	defer cancel()
	app, err := r.data.client.UpdateTargetApp(ctx, plan.ID.ValueString(), r.write(plan))
	if err != nil {
		framework.APIFailure{Op: "update", Object: fmt.Sprintf("target app %q", plan.ID.ValueString())}.Add(ctx, &resp.Diagnostics, op, err)
		return
	}
	flattenTargetApp(app, &plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *targetAppResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state targetAppModel
	if !r.begin(ctx, &resp.Diagnostics, nil, req.State, &state) {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, state.Timeouts, "delete", &resp.Diagnostics)
	defer cancel()
	if err := r.data.client.DeleteTargetApp(ctx, state.ID.ValueString()); err != nil && !console.NotFound(err) {
		framework.APIFailure{Op: "delete", Object: fmt.Sprintf("target app %q", state.ID.ValueString())}.Add(ctx, &resp.Diagnostics, op, err)
	}
}

func (r *targetAppResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if id, ok := importID(ctx, req, resp, "featureconsole_target_app", targetAppIdentityAttr, "0a1b2c3d4e5f"); ok {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	}
}

func (r *targetAppResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchema(targetAppIdentityAttr, "Identifier of the target app, made by the service.")
}

// ValidateConfig has nothing to check beyond the schema's validators.
func (r *targetAppResource) ValidateConfig(context.Context, resource.ValidateConfigRequest, *resource.ValidateConfigResponse) {
}

// ModifyPlan checks access for a new app; nothing else is planned.
func (r *targetAppResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.checkAccess(ctx, req, resp)
}
