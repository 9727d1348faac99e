// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

type tagResource struct{ resourceData }

var _ managedResource = &tagResource{}

func NewTagResource() resource.Resource {
	return &tagResource{resourceData{typeName: "tag"}}
}

const tagIdentityAttr = "tag_id"

// tagModel is featureconsole_tag; objects carry a tag by its name.
type tagModel struct {
	ID          types.String   `tfsdk:"id"`
	Name        types.String   `tfsdk:"name"`
	Description types.String   `tfsdk:"description"`
	IsCore      types.Bool     `tfsdk:"is_core"`
	Timeouts    timeouts.Value `tfsdk:"timeouts"`
}

func (m *tagModel) identity() (string, types.String) { return tagIdentityAttr, m.ID }

func (r *tagResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A tag of the project. Gates, dynamic configs, experiments, segments and metrics carry tags by " +
			"name: `tags = [featureconsole_tag.checkout.name]` orders the tag first. The service refuses to delete a tag " +
			"that objects still carry: destroy then fails naming them. Import by id.",
		Attributes: map[string]schema.Attribute{
			"id": keptString("Identifier of the tag, made by the service."),
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Name of the tag (1 to 100 characters), unique in the project. Updated in place.",
				Validators:          []validator.String{framework.NotBlank(), stringvalidator.LengthBetween(1, 100)},
			},
			"description": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Description. Omit for none. Updated in place.",
			},
			"is_core": schema.BoolAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Marks the tag as one of the project's core tags. Defaults to `false`. Updated in place.",
				Default:             booldefault.StaticBool(false),
			},
			"timeouts": framework.TimeoutsAttribute(ctx, "the tag", timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, nil),
		},
	}
}

func tagWrite(m tagModel) console.TagWrite {
	return console.TagWrite{Name: m.Name.ValueString(), Description: m.Description.ValueString(), IsCore: m.IsCore.ValueBool()}
}

// flattenTag reads the tag into m. A description the answer leaves out (the document's examples)
// stays m's, and so does null where the service answers "" (none).
func flattenTag(t *console.Tag, m *tagModel) {
	if t.ID != "" {
		m.ID = types.StringValue(t.ID)
	}
	m.Name = framework.StringOrPrior(t.Name, m.Name)
	if t.Description != nil && (*t.Description != "" || !m.Description.IsNull()) {
		m.Description = types.StringValue(*t.Description)
	}
	m.IsCore = types.BoolValue(t.IsCore)
}

func (r *tagResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan tagModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "create", &resp.Diagnostics)
	defer cancel()
	body := tagWrite(plan)
	t, err := r.data.client.CreateTag(ctx, body)
	if console.MaybeApplied(err) {
		// The answer was lost: the tag of that name, as sent, is the one this create made (names are unique).
		t, err = adoptLost(ctx, err, body.Name, r.data.client.FindTag, func(got *console.Tag) bool {
			return got.ID != "" && got.IsCore == body.IsCore && framework.Deref(got.Description, body.Description) == body.Description
		})
	}
	if err != nil {
		framework.APIFailure{Op: "create", Object: fmt.Sprintf("tag %q", plan.Name.ValueString())}.Add(ctx, &resp.Diagnostics, op, err)
		return
	}
	flattenTag(t, &plan)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, tagIdentityAttr, plan.ID)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *tagResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state tagModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.State, &state) {
		return
	}
	readObject(ctx, resp, state.Timeouts, "Tag", state.ID.ValueString(), r.data.client.GetTag, func(t *console.Tag) diag.Diagnostics {
		flattenTag(t, &state)
		return nil
	}, &state)
}

func (r *tagResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan tagModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "update", &resp.Diagnostics)
	defer cancel()
	t, err := r.data.client.UpdateTag(ctx, plan.ID.ValueString(), tagWrite(plan))
	if err != nil {
		framework.APIFailure{Op: "update", Object: fmt.Sprintf("tag %q", plan.Name.ValueString())}.Add(ctx, &resp.Diagnostics, op, err)
		return
	}
	flattenTag(t, &plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete deletes the tag; when the service refuses, the objects that still carry it are named
// (read from their listings), with what to do.
func (r *tagResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state tagModel
	if !r.begin(ctx, &resp.Diagnostics, nil, req.State, &state) {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, state.Timeouts, "delete", &resp.Diagnostics)
	defer cancel()
	err := r.data.client.DeleteTag(ctx, state.ID.ValueString())
	if err == nil || console.NotFound(err) {
		return
	}
	name := state.Name.ValueString()
	failure := framework.APIFailure{Op: "delete", Object: fmt.Sprintf("tag %q", name)}
	if !console.Refused(err) && !console.Conflict(err) {
		failure.Add(ctx, &resp.Diagnostics, op, err)
		return
	}
	carriers, listErr := r.data.client.TagCarriers(ctx, name)
	switch {
	case len(carriers) > 0:
		resp.Diagnostics.AddError(failure.Summary(), fmt.Sprintf("The tag is in use, and the service deletes no tag in use. These objects "+
			"carry it: %s. Remove %q from their tags first (in their configuration, or in the console), then destroy "+
			"the tag again.\n\n%s", strings.Join(carriers, ", "), name, failure.Detail(ctx, op, err)))
	case listErr != nil:
		failure.Add(ctx, &resp.Diagnostics, op, err)
		resp.Diagnostics.AddWarning("Objects carrying the tag not listed",
			fmt.Sprintf("The provider could not list the objects that carry tag %q: %s", name, listErr))
	default:
		failure.Add(ctx, &resp.Diagnostics, op, err)
	}
}

func (r *tagResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if id, ok := importID(ctx, req, resp, "featureconsole_tag", tagIdentityAttr, "0a1b2c3d4e5f"); ok {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("is_core"), false)...)
	}
}

func (r *tagResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchema(tagIdentityAttr, "Identifier of the tag, made by the service.")
}

// ValidateConfig has nothing to check beyond the schema's validators.
func (r *tagResource) ValidateConfig(context.Context, resource.ValidateConfigRequest, *resource.ValidateConfigResponse) {
}

// ModifyPlan checks access for a new tag; nothing else is planned.
func (r *tagResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.checkAccess(ctx, req, resp)
}
