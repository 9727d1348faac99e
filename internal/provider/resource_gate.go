// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

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

var _ managedResource = &gateResource{}

type gateResource struct{ resourceData }

func NewGateResource() resource.Resource {
	return &gateResource{resourceData{typeName: "gate"}}
}

const (
	gateTypePermanent = "PERMANENT"
	gateTypeTemporary = "TEMPORARY"
)

// gateCreation names gates in the errors of a create that meets an existing one.
var gateCreation = creation{typeName: "featureconsole_gate", kind: "Gate", noun: "A gate with id", plural: "gates", idWord: "gate id"}

func (r *gateResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	// What the service sets on a write is unknown in the write's plan (DESIGN.md §4).
	written := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A feature gate itself: its id, display name, description, whether it is enabled, tags, " +
			"target apps, type, unit ID type and the release pipeline its changes roll out through. Its rules belong to " +
			"`featureconsole_gate_rules`, which works on a gate created in the same apply " +
			"(`gate_id = featureconsole_gate.x.gate_id`); neither resource changes what the other manages. " +
			"Destroy deletes the gate together with any rules it still has and its history, unless `archive_on_destroy` " +
			"is set: destroy then archives the gate and keeps it. Import by gate id.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Identifier of the gate: its `gate_id`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"gate_id": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Identifier of the gate, such as `new_checkout`: 3 to 100 letters, digits, `_`, `-` " +
					"and `.`. Changing it forces replacement (the service cannot rename a gate's id).",
				Validators:    []validator.String{framework.ObjectID()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"name": chosenString("Display name: 3 to 100 letters A-Z and a-z, digits, spaces, `_`, `-` and `.` (no other letters, "+
				"such as `ö`). The service uses the gate id when it is omitted. Updated in place.",
				framework.ObjectName()),
			"description": chosenString("Description, at most 1,000 characters. Empty when omitted at creation. Updated in place.",
				stringvalidator.UTF8LengthAtMost(maxDescription)),
			"is_enabled": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(true),
				MarkdownDescription: "Whether the gate is enabled: a disabled gate fails every check. Defaults to `true`. Updated in place.",
			},
			"tags": schema.SetAttribute{
				Optional: true, Computed: true, ElementType: types.StringType,
				MarkdownDescription: "Tags of the gate. None when omitted at creation. Updated in place.",
				Validators:          []validator.Set{setvalidator.ValueStringsAre(framework.NotBlank())},
				PlanModifiers:       []planmodifier.Set{setplanmodifier.UseStateForUnknown()},
			},
			"target_apps": schema.SetAttribute{
				Optional: true, Computed: true, ElementType: types.StringType,
				MarkdownDescription: "Target apps the gate is served to, by name, such as `web` or " +
					"`featureconsole_target_app.web.name`. None when omitted at creation. Updated in place.",
				Validators:    []validator.Set{setvalidator.ValueStringsAre(framework.NotBlank())},
				PlanModifiers: []planmodifier.Set{setplanmodifier.UseStateForUnknown()},
			},
			"type": chosenString("`PERMANENT` or `TEMPORARY`; the service chooses `PERMANENT` when it is omitted. Updated in place. "+
				"A temporary gate the service judges stale (shown as `STALE` in the console) keeps `TEMPORARY` here: "+
				"that is the service's verdict, not a change, and `type_reason` says why.",
				stringvalidator.OneOf(gateTypePermanent, gateTypeTemporary)),
			"type_reason": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "Why the service judges the gate stale, such as `STALE_NO_RULES` or " +
					"`STALE_PROBABLY_LAUNCHED`; `NONE` when it does not. Any change of the gate or its rules makes it " +
					"fresh again (`NONE`).",
			},
			"archived": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "Whether the gate is archived. An archived gate fails every check (its rules have no " +
					"effect), keeps its history, and neither its fields nor its rules can change until it is unarchived. " +
					"`true` archives the gate, `false` (the default) unarchives it: a gate archived in the console shows as " +
					"`archived = true -> false`, and apply unarchives it before any other change of the gate or its rules. " +
					"Updated in place.",
			},
			"archive_on_destroy": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "What destroy does with the gate: `false` (the default) deletes it with its rules and " +
					"history; `true` archives it instead and leaves it in the console with its history, detached from its " +
					"release pipeline first (the service deletes no pipeline an archived gate is attached to, and refuses to " +
					"detach an archived gate). A gate already archived is left as it is. Terraform destroys a `featureconsole_gate_rules` of the gate before the gate: " +
					"which removes them, so destroy writes them back before it archives the gate; to leave them untouched, with " +
					"their ids and history, set that resource's `keep_on_destroy` to this value " +
					"(`keep_on_destroy = featureconsole_gate.<name>.archive_on_destroy`). A run still rolling out a change of " +
					"the rules is aborted first, which puts back the rules the gate had before that change. Changing it " +
					"sends no request: it only changes what a later destroy does.",
			},
			"id_type": chosenString("Unit ID type the gate checks, such as `userID` or `stableID`; the service chooses `userID` "+
				"when it is omitted. Updated in place.", framework.NotBlank()),
			"release_pipeline_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Release pipeline the gate's rule changes roll out through (for example " +
					"`featureconsole_release_pipeline.web.id`): each change of the rules then starts a run of it. " +
					"Omit for none; removing it detaches the gate. Updated in place.",
				Validators: []validator.String{framework.NotBlank()},
			},
			"status":             keptString("Status of the gate, such as `In Progress`."),
			"creator_name":       keptString("Name of whoever created the gate."),
			"last_modifier_id":   written("Identifier of whoever last changed the gate, its rules included; changes with every write."),
			"last_modifier_name": written("Name of whoever last changed the gate, its rules included; changes with every write."),
			"created_time": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "When the gate was created, in milliseconds since the Unix epoch.",
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"timeouts": framework.TimeoutsAttribute(ctx, "the gate", timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, nil),
		},
	}
}

func (r *gateResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan gateModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	fields, diags := gateFieldsFrom(ctx, plan)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "create", &resp.Diagnostics)
	defer cancel()
	var archived bool
	g, err := createRecovering(ctx, gateCreation, fields.ID,
		func(ctx context.Context) (*console.Gate, error) { return r.data.client.CreateGate(ctx, fields) },
		readNotingArchived(r.data, &archived), func(got *console.Gate) bool { return gateHolds(got, fields) })
	if err != nil && archived {
		existsArchived(err)
	}
	if err != nil {
		addCreateFailure(ctx, &resp.Diagnostics, path.Root("gate_id"), framework.APIFailure{Op: "create", Object: fmt.Sprintf("gate %q", fields.ID)}, op, err)
		return
	}
	if plan.Archived.ValueBool() && !g.Archived() {
		a, err := setGateArchived(ctx, r.data, fields.ID, true)
		if err != nil {
			// The gate exists: the state holds it as it is, unarchived.
			archiveFailure(fields.ID, true).Add(ctx, &resp.Diagnostics, op, err)
		} else {
			g = a
		}
	}
	flattenGateFields(g, &plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *gateResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state gateModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.State, &state) {
		return
	}
	gateID := state.GateID.ValueString()
	readObject(ctx, resp, state.Timeouts, "Gate", gateID, r.data.client.GetGate, func(g *console.Gate) diag.Diagnostics {
		var diags diag.Diagnostics
		warnPendingReview(&diags, fmt.Sprintf("Gate %q", gateID), g.ActiveReview)
		flattenGateFields(g, &state)
		return diags
	}, &state)
}

func (r *gateResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state gateModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	gateID := plan.GateID.ValueString()
	changes, diags := gateChanges(ctx, plan, state)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	archive := !plan.Archived.IsUnknown() && !plan.Archived.Equal(state.Archived)
	// Terraform's own settings are taken as they are.
	state.Timeouts, state.ArchiveOnDestroy = plan.Timeouts, plan.ArchiveOnDestroy
	if emptyGateFields(changes) && !archive { // only Terraform's settings changed: nothing to send
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "update", &resp.Diagnostics)
	defer cancel()
	var g *console.Gate
	var err error
	// The service refuses writes of an archived gate: unarchive first, archive last.
	if archive && !plan.Archived.ValueBool() {
		if g, err = setGateArchived(ctx, r.data, gateID, false); err != nil {
			archiveFailure(gateID, false).Add(ctx, &resp.Diagnostics, op, err)
			return
		}
		flattenGateFields(g, &state)
	}
	if !emptyGateFields(changes) {
		review := newGateReview(ctx, req.Private, gateID, fmt.Sprintf("Change to gate %q", gateID))
		g, err = review.write(ctx, r.data.client, console.GateFieldsChange(changes), gateHoldsChange(gateID, changes),
			&resp.Diagnostics, func() (*console.Gate, error) { return r.data.client.UpdateGate(ctx, gateID, changes) })
		resp.Diagnostics.Append(review.keep(ctx, resp.Private)...)
	}
	if reviewHeld(&resp.Diagnostics, err, fmt.Sprintf("Change to gate %q", gateID), reviewKeptState) {
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return
	}
	if err != nil {
		framework.APIFailure{Op: "update", Object: fmt.Sprintf("gate %q", gateID)}.Add(ctx, &resp.Diagnostics, op, err)
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...) // an unarchive before it stays done
		return
	}
	if archive && plan.Archived.ValueBool() {
		a, err := setGateArchived(ctx, r.data, gateID, true)
		if err != nil {
			archiveFailure(gateID, true).Add(ctx, &resp.Diagnostics, op, err)
			if g != nil { // the fields were written: the state holds them, unarchived
				flattenGateFields(g, &plan)
				resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
			}
			return
		}
		g = a
	}
	flattenGateFields(g, &plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *gateResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state gateModel
	if !r.begin(ctx, &resp.Diagnostics, nil, req.State, &state) {
		return
	}
	gateID := state.GateID.ValueString()
	ctx, op, cancel := framework.StartOperation(ctx, state.Timeouts, "delete", &resp.Diagnostics)
	defer cancel()
	if state.ArchiveOnDestroy.ValueBool() {
		// Not while its rules' destroy runs: the archived gate keeps the rules whichever ends first
		// (handoffs.go), also where Terraform does not order the two (a literal gate_id).
		defer r.data.handOffs.lock(gateID)()
	}
	if !abortGateRuns(ctx, op, r.data.client, gateID, state.ArchiveOnDestroy.ValueBool(), &resp.Diagnostics) {
		return
	}
	if state.ArchiveOnDestroy.ValueBool() { // kept, archived, with its history; a gate gone is gone
		archiveGateOnDestroy(ctx, r.data, op, gateID, state.ReleasePipelineID.ValueString(), state.Archived.ValueBool(), &resp.Diagnostics)
		return
	}
	// The service deletes the gate's rules with it; a gate already gone is what destroy wants.
	if err := r.data.client.DeleteGate(ctx, gateID); err != nil && !console.NotFound(err) {
		framework.APIFailure{Op: "delete", Object: fmt.Sprintf("gate %q", gateID)}.Add(ctx, &resp.Diagnostics, op, err)
	}
}

func (r *gateResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importState(ctx, req, resp, "featureconsole_gate", gateIdentityAttr, "new_checkout")
}

func (r *gateResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchema(gateIdentityAttr, "Identifier of the gate, such as new_checkout.")
}

// abortGateRuns aborts the active runs of a gate that is being destroyed: they have nothing left
// to roll out, and a run outlives its gate and keeps its pipeline from being deleted. archiving
// says the gate is kept archived (archive_on_destroy): the abort puts back the rules it had before
// the change the run was rolling out, and those are the rules it keeps.
func abortGateRuns(ctx context.Context, op *framework.Operation, client *console.Client, gateID string, archiving bool, diags *diag.Diagnostics) bool {
	runs, err := activeRuns(ctx, client, console.TriggerFilter{GateID: gateID})
	if err != nil {
		framework.APIFailure{Op: "list", Object: fmt.Sprintf("the release pipeline runs of gate %q", gateID)}.Add(ctx, diags, op, err)
		return false
	}
	for i := range runs {
		if !abortRun(ctx, op, client, &runs[i], diags) {
			return false
		}
		what := fmt.Sprintf("The gate is being destroyed, so run %q of release pipeline %q, which was rolling out a change of "+
			"its rules, was aborted first.", runs[i].ID, runs[i].ReleasePipelineID)
		if archiving {
			what = fmt.Sprintf("The gate is being archived (archive_on_destroy = true), so run %q of release pipeline %q, "+
				"which was rolling out a change of its rules, was aborted first: the archived gate keeps the rules it had "+
				"before that change.", runs[i].ID, runs[i].ReleasePipelineID)
		}
		diags.AddWarning(fmt.Sprintf("Release pipeline run %q of gate %q aborted", runs[i].ID, gateID), what)
	}
	return true
}
