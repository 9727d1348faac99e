// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

var _ managedResource = &dynamicConfigResource{}

type dynamicConfigResource struct{ resourceData }

func NewDynamicConfigResource() resource.Resource {
	return &dynamicConfigResource{resourceData{typeName: "dynamic_config"}}
}

// configCreation names configs in the errors of a create that meets an existing one.
var configCreation = creation{typeName: "featureconsole_dynamic_config", kind: "Dynamic config", noun: "A dynamic config with id",
	plural: "dynamic configs", idWord: "config id"}

func (r *dynamicConfigResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A dynamic config: a JSON object served by ordered rules, the first rule that passes " +
			"returning its value and `default_value` served when none does. This resource holds the config's own fields, " +
			"its default value and its JSON Schema; its rules belong to `featureconsole_dynamic_config_rules`. Every value " +
			"is checked against `schema` at plan time, before anything is sent. A config attached to a release pipeline " +
			"rolls every change of its rules out through a run of it. Destroy aborts an active run of the config, then " +
			"deletes it with its rules, unless `archive_on_destroy` is set: destroy then archives the config and keeps it. " +
			"Import by config id. See the guide \"Serve values with dynamic configs\".",
		Attributes: dynamicConfigAttributes(ctx),
	}
	maps.Copy(resp.Schema.Attributes, configArchiveAttributes())
}

func dynamicConfigAttributes(ctx context.Context) map[string]schema.Attribute {
	set := func(desc string) schema.SetAttribute {
		return schema.SetAttribute{
			Optional: true, Computed: true, ElementType: types.StringType, MarkdownDescription: desc,
			Validators:    []validator.Set{setvalidator.ValueStringsAre(framework.NotBlank())},
			PlanModifiers: []planmodifier.Set{setplanmodifier.UseStateForUnknown()},
		}
	}
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed: true, MarkdownDescription: "Identifier of the config: its `config_id`.",
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"config_id": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "Identifier of the config, such as `checkout_copy` or `checkout.copy`: 3 to 100 letters, digits, " +
				"`_`, `-` and `.`. Changing it forces replacement.",
			Validators:    []validator.String{framework.ObjectID()},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"name": chosenString("Display name: 3 to 100 letters A-Z and a-z, digits, spaces, `_`, `-` and `.` (no other letters, such "+
			"as `ö`); the `config_id` when omitted. Updated in place.",
			framework.ObjectName()),
		"description": chosenString("Description, at most 1,000 characters. Empty when omitted at creation. Updated in place.",
			stringvalidator.UTF8LengthAtMost(maxDescription)),
		"is_enabled": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(true),
			MarkdownDescription: "Whether the config is enabled: a disabled config serves its default value to everyone. " +
				"Defaults to `true`. Updated in place.",
		},
		"id_type": chosenString("Unit ID type the rules check, such as `userID` or `stableID`; the service chooses `userID` when "+
			"it is omitted. Updated in place.", framework.NotBlank()),
		"tags":        set("Tags of the config. None when omitted at creation. Updated in place."),
		"target_apps": set("Target apps the config is served to, such as `web`. None when omitted at creation. Updated in place."),
		"default_value": schema.StringAttribute{
			Optional: true, CustomType: framework.JSONValueType{},
			MarkdownDescription: "Value served when no rule passes, as a JSON object written with `jsonencode({...})`; " +
				"`{}` when omitted. Compared as JSON: key order, spacing and `1` against `1.0` plan nothing. Checked " +
				"against `schema` at plan time. Updated in place.",
			Validators:    []validator.String{configValue("Default value")},
			PlanModifiers: []planmodifier.String{framework.PlanPriorJSON()},
		},
		"schema": schema.StringAttribute{
			Optional: true, CustomType: framework.JSONValueType{},
			MarkdownDescription: "JSON Schema (Draft 2020-12) that the default value and every rule's return value must " +
				"match, written with `jsonencode({...})`; none when omitted. Compared as JSON: key order, spacing and " +
				"`1` against `1.0` plan nothing. The schema itself, the default value and the " +
				"return values the service holds are checked at plan time, so a value that breaks it fails the plan with " +
				"the value, the JSON path and what the schema wants. References to other documents (`$ref` to a URL) are " +
				"not supported; keep definitions in `$defs`. Updated in place.",
			Validators:    []validator.String{jsonSchemaValue()},
			PlanModifiers: []planmodifier.String{framework.PlanPriorJSON()},
		},
		"release_pipeline_id": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Release pipeline the config's rule changes roll out through (for example " +
				"`featureconsole_release_pipeline.web.id`): each change of the rules then starts a run of it. Omit for none; " +
				"removing it detaches the config. Updated in place.",
			Validators: []validator.String{framework.NotBlank()},
		},
		"version": schema.Int64Attribute{
			Computed: true, MarkdownDescription: "The service's version of the config, raised by every change of it or its rules.",
		},
		"creator_name": keptString("Name of whoever created the config."),
		"created_time": schema.Int64Attribute{
			Computed: true, MarkdownDescription: "When the config was created, in milliseconds since the Unix epoch.",
			PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
		},
		"last_modifier_id":   schema.StringAttribute{Computed: true, MarkdownDescription: "Identifier of whoever last changed the config, its rules included."},
		"last_modifier_name": schema.StringAttribute{Computed: true, MarkdownDescription: "Name of whoever last changed the config, its rules included."},
		"timeouts":           framework.TimeoutsAttribute(ctx, "the dynamic config", timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, nil),
	}
}

func (r *dynamicConfigResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchema(configIdentityAttr, "Identifier of the dynamic config, such as checkout_copy.")
}

func (r *dynamicConfigResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan dynamicConfigModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	defer r.schemaWritten(plan.ConfigID.ValueString(), &resp.Diagnostics)
	fields, diags := configFieldsFrom(ctx, plan)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "create", &resp.Diagnostics)
	defer cancel()
	c, err := createRecovering(ctx, configCreation, fields.ID,
		func(ctx context.Context) (*console.DynamicConfig, error) {
			return r.data.client.CreateDynamicConfig(ctx, fields)
		},
		r.data.client.GetDynamicConfig, func(got *console.DynamicConfig) bool { return configHolds(got, fields) })
	if err != nil {
		addCreateFailure(ctx, &resp.Diagnostics, path.Root("config_id"), framework.APIFailure{Op: "create", Object: fmt.Sprintf("dynamic config %q", fields.ID)}, op, err)
		return
	}
	if plan.Archived.ValueBool() && !c.Archived() {
		if a, err := setConfigArchived(ctx, r.data, fields.ID, true); err != nil {
			// The config exists: the state holds it as it is, unarchived.
			configArchiveFailure(fields.ID, true).Add(ctx, &resp.Diagnostics, op, err)
		} else {
			c = a
		}
	}
	plan.flatten(c)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *dynamicConfigResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state dynamicConfigModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.State, &state) {
		return
	}
	id := state.ConfigID.ValueString()
	readObject(ctx, resp, state.Timeouts, "Dynamic config", id, r.data.client.GetDynamicConfig, func(c *console.DynamicConfig) diag.Diagnostics {
		var diags diag.Diagnostics
		warnPendingReview(&diags, fmt.Sprintf("Dynamic config %q", id), c.ActiveReview)
		state.flatten(c)
		return diags
	}, &state)
}

// schemaWritten tells the config's rules, applied next, that the schema this apply planned is
// written (plannedSchemas), unless the write failed.
func (r *dynamicConfigResource) schemaWritten(id string, diags *diag.Diagnostics) {
	if !diags.HasError() {
		r.data.schemas.written(id)
	}
}

func (r *dynamicConfigResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state dynamicConfigModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	id := plan.ConfigID.ValueString()
	defer r.schemaWritten(id, &resp.Diagnostics)
	changes, diags := configChanges(ctx, plan, state)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	archive := !plan.Archived.IsUnknown() && !plan.Archived.Equal(state.Archived)
	state.Timeouts, state.ArchiveOnDestroy = plan.Timeouts, plan.ArchiveOnDestroy
	if emptyConfigFields(changes) && !archive { // only Terraform's settings changed: nothing to send
		// A JSON value may change form only ({} for an omitted one): the state takes the plan's.
		state.DefaultValue, state.Schema = plan.DefaultValue, plan.Schema
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "update", &resp.Diagnostics)
	defer cancel()
	// The service refuses writes of an archived config: unarchive first, archive last.
	if archive && !plan.Archived.ValueBool() {
		c, err := setConfigArchived(ctx, r.data, id, false)
		if err != nil {
			configArchiveFailure(id, false).Add(ctx, &resp.Diagnostics, op, err)
			return
		}
		state.flatten(c)
		if emptyConfigFields(changes) {
			plan.flatten(c)
			resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
			return
		}
	}
	if emptyConfigFields(changes) { // archive only
		r.archiveAfter(ctx, op, id, nil, &plan, resp)
		return
	}
	// A change held for review by an earlier apply is settled, as for gates: not sent again while
	// pending, committed once approved.
	what := fmt.Sprintf("Change to dynamic config %q", id)
	review := newReview(ctx, req.Private, id, what, configReviews)
	sent := false
	c, err := review.write(ctx, r.data.client, console.DynamicConfigFieldsChange(changes), nil, &resp.Diagnostics, func() (*console.DynamicConfig, error) {
		sent = true
		return r.data.client.UpdateDynamicConfig(ctx, id, changes)
	})
	resp.Diagnostics.Append(review.keep(ctx, resp.Private)...)
	if reviewHeld(&resp.Diagnostics, err, what, reviewKeptState) {
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return
	}
	if err == nil && !sent { // settled by committing the approved review: read what it applied
		c, err = r.data.client.GetDynamicConfig(ctx, id)
	}
	if err != nil {
		write := framework.APIFailure{Op: "update", Object: fmt.Sprintf("dynamic config %q", id)}
		if !addArchivedConfigWriteError(ctx, r.data.client, &resp.Diagnostics, id, write, op, err) {
			write.Add(ctx, &resp.Diagnostics, op, err)
		}
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...) // an unarchive before it stays done
		return
	}
	if archive && plan.Archived.ValueBool() {
		r.archiveAfter(ctx, op, id, c, &plan, resp)
		return
	}
	plan.flatten(c)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// archiveAfter archives the config once its fields are written (written, nil when none were) and
// stores the outcome: a failed archive leaves the state holding the config unarchived.
func (r *dynamicConfigResource) archiveAfter(ctx context.Context, op *framework.Operation, id string, written *console.DynamicConfig,
	plan *dynamicConfigModel, resp *resource.UpdateResponse) {
	a, err := setConfigArchived(ctx, r.data, id, true)
	if err != nil {
		configArchiveFailure(id, true).Add(ctx, &resp.Diagnostics, op, err)
		if written == nil {
			return
		}
		a = written
	}
	plan.flatten(a)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

func (r *dynamicConfigResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state dynamicConfigModel
	if !r.begin(ctx, &resp.Diagnostics, nil, req.State, &state) {
		return
	}
	id := state.ConfigID.ValueString()
	ctx, op, cancel := framework.StartOperation(ctx, state.Timeouts, "delete", &resp.Diagnostics)
	defer cancel()
	// The service refuses to delete a config while a run of it is active; the run has nothing left
	// to roll out.
	if !abortConfigRuns(ctx, op, r.data.client, id, &resp.Diagnostics) {
		return
	}
	if state.ArchiveOnDestroy.ValueBool() { // kept, archived, with its rules; a config gone is gone
		archiveConfigOnDestroy(ctx, r.data, op, id, state.Archived.ValueBool(), &resp.Diagnostics)
		return
	}
	if err := r.data.client.DeleteDynamicConfig(ctx, id); err != nil && !console.NotFound(err) {
		framework.APIFailure{Op: "delete", Object: fmt.Sprintf("dynamic config %q", id)}.Add(ctx, &resp.Diagnostics, op, err)
	}
}

func (r *dynamicConfigResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importState(ctx, req, resp, "featureconsole_dynamic_config", configIdentityAttr, "checkout_copy")
}

// abortConfigRuns aborts the active runs of a config that is being destroyed.
func abortConfigRuns(ctx context.Context, op *framework.Operation, client *console.Client, configID string, diags *diag.Diagnostics) bool {
	runs, err := activeRuns(ctx, client, console.TriggerFilter{DynamicConfigID: configID})
	if err != nil {
		framework.APIFailure{Op: "list", Object: fmt.Sprintf("the release pipeline runs of dynamic config %q", configID)}.Add(ctx, diags, op, err)
		return false
	}
	for i := range runs {
		if !abortRun(ctx, op, client, &runs[i], diags) {
			return false
		}
		diags.AddWarning(fmt.Sprintf("Release pipeline run %q of dynamic config %q aborted", runs[i].ID, configID),
			fmt.Sprintf("The config is being destroyed, so run %q of release pipeline %q, which was rolling out a change of "+
				"its rules, was aborted first.", runs[i].ID, runs[i].ReleasePipelineID))
	}
	return true
}
