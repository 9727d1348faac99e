// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

var _ managedResource = &releasePipelineResource{}

type releasePipelineResource struct{ resourceData }

func NewReleasePipelineResource() resource.Resource {
	return &releasePipelineResource{resourceData{typeName: "release_pipeline"}}
}

func (r *releasePipelineResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A release pipeline (a phased rollout): its name and complete, ordered phase list.\n\n" +
			"A release pipeline rolls a change out phase after phase. A phase with `required_review = true` waits for a manual " +
			"review before it starts; `time_interval_ms` is how long the rollout waits after the phase before the next phase " +
			"starts. When a phase has both, the timer starts once the review is approved. The rules of a phase say which " +
			"units (matching conditions, in the given environments) the phase releases to.\n\n" +
			"Without `pipeline_id`, Terraform creates the pipeline and destroy deletes it. With `pipeline_id`, Terraform " +
			"takes over that existing pipeline, replacing its name and phases with the configured ones, and destroy " +
			"leaves it on the service. An imported pipeline is deleted by destroy, like a created one. Which of these " +
			"applies is recorded once, when the pipeline first enters the state (see What destroy deletes below).\n\n" +
			"Phases and phase rules keep their identity by name: when a phase (or a rule within a phase) keeps its name, " +
			"its existing `id` is sent back, so inserting, removing or reordering phases does not renumber the others.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Identifier of the resource; the same as `pipeline_id`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"pipeline_id": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "Identifier of the pipeline, such as `pl_web`. Omit it to have Terraform create the pipeline " +
					"(the service chooses the id, known after apply) and delete it on destroy. Set it to take over an existing " +
					"pipeline, which destroy then leaves in place. Changing it from one value to another forces replacement; " +
					"removing it from the configuration after apply changes nothing.",
				Validators:    []validator.String{framework.NotBlank()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), replacedByAnotherPipelineID},
			},
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Display name of the pipeline. Updated in place.",
				Validators:          []validator.String{framework.NotBlank()},
			},
			"phases": schema.ListNestedAttribute{
				Required: true,
				MarkdownDescription: "The complete, ordered list of phases: the rollout runs them in this order. Phases on the " +
					"service that are not listed are removed. Phase names must be unique within the pipeline. `[]` is allowed. " +
					"Updated in place.",
				NestedObject: schema.NestedAttributeObject{Attributes: pipelinePhaseAttributes()},
			},
			"creator_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Identifier of the user who created the pipeline.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"created_time": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "When the pipeline was created, in milliseconds since the Unix epoch.",
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"last_modifier_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Identifier of the user (or API key) that last modified the pipeline; changes with every update.",
			},
			"timeouts": framework.TimeoutsAttribute(ctx, "the pipeline", timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, map[string]string{
				"create": "It covers reading the pipeline before taking it over, or looking for it after a create whose answer was lost.",
				"delete": "Destroy of a pipeline that was taken over sends no request.",
			}),
		},
	}
}

// Create makes the pipeline when the configuration leaves pipeline_id out, and otherwise takes
// over the one it names. Which of the two is recorded in the private state for Delete, which sees
// no configuration.
func (r *releasePipelineResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan releasePipelineModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "create", &resp.Diagnostics)
	defer cancel()
	if plan.PipelineID.IsUnknown() {
		r.create(ctx, op, &plan, resp)
		return
	}
	resp.Diagnostics.Append(setOwnership(ctx, resp.Private, pipelineTakenOver)...)
	r.takeOver(ctx, op, &plan, resp)
}

// create sends POST /release_pipelines and stores the pipeline the service made.
func (r *releasePipelineResource) create(ctx context.Context, op *framework.Operation, plan *releasePipelineModel, resp *resource.CreateResponse) {
	phases, diags := expandPipelinePhases(ctx, plan.Phases, nil)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	name := plan.Name.ValueString()
	p, err := r.data.client.CreateReleasePipeline(ctx, console.ReleasePipelineUpdate{Name: name, Phases: phases})
	if err != nil {
		f := framework.APIFailure{Op: "create", Object: fmt.Sprintf("release pipeline %q", name)}
		detail := f.Detail(ctx, op, err)
		if ae, ok := errors.AsType[*console.AmbiguousCreateError](err); ok {
			// Nothing is stored: a plan would create yet another one. Adopting one is the user's call.
			detail += fmt.Sprintf("\n\nOne of them is this configuration's: bring it under Terraform with "+
				"`terraform import <address> <id>` (one of %s) and delete the others in the console if they are not wanted.",
				strings.Join(ae.IDs, ", "))
		}
		resp.Diagnostics.AddError(f.Summary(), detail)
		return
	}
	plan.PipelineID = types.StringValue(p.ID)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, pipelineIdentityAttr, plan.PipelineID)...)
	resp.Diagnostics.Append(setOwnership(ctx, resp.Private, pipelineCreated)...)
	// The pipeline exists whatever it holds: it is stored, so that destroy can delete it.
	notAsSent(&resp.Diagnostics, p, name, phases, fmt.Sprintf("Release pipeline %q not created as sent", p.ID),
		"The Terraform state holds what the service created; the next plan shows what is left to do.")
	resp.Diagnostics.Append(r.store(ctx, plan, p, &resp.State)...)
}

// takeOver reads the existing pipeline first so that phases and rules whose names already exist
// there keep their ids and history, as an update would; their ids are unknown in the plan, so any
// answer is consistent with it.
func (r *releasePipelineResource) takeOver(ctx context.Context, op *framework.Operation, plan *releasePipelineModel, resp *resource.CreateResponse) {
	id := plan.PipelineID.ValueString()
	existing, err := r.data.client.GetReleasePipeline(ctx, id)
	if err != nil {
		read := framework.APIFailure{Op: "read", Object: fmt.Sprintf("release pipeline %q", id)}
		detail := read.Detail(ctx, op, err)
		if console.NotFound(err) {
			detail += "\n\npipeline_id names an existing pipeline to take over: correct it, or leave it out to have " +
				"Terraform create the pipeline."
		}
		resp.Diagnostics.AddError(read.Summary(), detail)
		return
	}
	phases, diags := expandPipelinePhases(ctx, plan.Phases, existing.Phases)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if samePipeline(existing, plan.Name.ValueString(), phases, true) {
		// Already as configured (a held create approved since, say): taken over without a write.
		resp.Diagnostics.Append(r.store(ctx, plan, existing, &resp.State)...)
		return
	}
	// A held create leaves no state: saved with an error, Terraform would taint it and plan a replacement.
	r.apply(ctx, op, plan, phases, &resp.State, reviewKeptNoState, &resp.Diagnostics)
}

func (r *releasePipelineResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state releasePipelineModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.State, &state) {
		return
	}
	id := state.PipelineID.ValueString()
	readObject(ctx, resp, state.Timeouts, "Release pipeline", id, r.data.client.GetReleasePipeline, func(p *console.ReleasePipeline) diag.Diagnostics {
		var diags diag.Diagnostics
		warnPendingReview(&diags, fmt.Sprintf("Release pipeline %q", id), p.ActiveReview)
		diags.Append(setPipelineModel(ctx, &state, p)...)
		return diags
	}, &state)
}

func (r *releasePipelineResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state releasePipelineModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	if plan.Name.Equal(state.Name) && plan.Phases.Equal(state.Phases) { // only timeouts changed: nothing to send
		state.Timeouts = plan.Timeouts
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return
	}
	// Known ids in the plan already came from the refreshed state; the others are new.
	phases, diags := expandPipelinePhases(ctx, plan.Phases, nil)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "update", &resp.Diagnostics)
	defer cancel()
	if held := r.apply(ctx, op, &plan, phases, &resp.State, reviewKeptState, &resp.Diagnostics); held {
		// Nothing changed on the service: the state keeps what it held, so the next plan shows the change again.
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	}
}

// apply sends the pipeline and stores the service's answer, shaped by the plan (null vs [] choices).
// held reports a write the service held for review: the diagnostic is added, nothing is stored. An
// answer that differs from what was sent is stored with an error naming the differences.
func (r *releasePipelineResource) apply(ctx context.Context, op *framework.Operation, plan *releasePipelineModel, phases []console.Phase, state *tfsdk.State, kept string, diags *diag.Diagnostics) (held bool) {
	id := plan.PipelineID.ValueString()
	p, err := r.data.client.UpdateReleasePipeline(ctx, id, console.ReleasePipelineUpdate{Name: plan.Name.ValueString(), Phases: phases})
	if reviewHeld(diags, err, fmt.Sprintf("Change to release pipeline %q", id), kept) {
		return true
	}
	if err != nil {
		f := framework.APIFailure{Op: "update", Object: fmt.Sprintf("release pipeline %q", id)}
		diags.AddError(f.Summary(), f.Detail(ctx, op, err)+r.lockAdvice(ctx, id, err, "changed"))
		return false
	}
	// What the service holds goes into state, whatever was sent: the next plan shows what is left.
	notAsSent(diags, p, plan.Name.ValueString(), phases, fmt.Sprintf("Release pipeline %q not updated as sent", id),
		"The Terraform state holds what the service holds.")
	diags.Append(r.store(ctx, plan, p, state)...)
	return false
}

// store puts the service's pipeline into state, after checking that ids pinned in the plan were kept.
func (r *releasePipelineResource) store(ctx context.Context, plan *releasePipelineModel, p *console.ReleasePipeline, state *tfsdk.State) diag.Diagnostics {
	planned := *plan
	diags := setPipelineModel(ctx, plan, p)
	if diags.HasError() {
		return diags
	}
	diags.Append(checkPinnedIDs(ctx, planned.Phases, plan.Phases, plan.PipelineID.ValueString())...)
	diags.Append(state.Set(ctx, plan)...)
	return diags
}

func (r *releasePipelineResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if importState(ctx, req, resp, "featureconsole_release_pipeline", pipelineIdentityAttr, "pl_web") {
		resp.Diagnostics.Append(setOwnership(ctx, resp.Private, pipelineImported)...)
	}
}

func (r *releasePipelineResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchema(pipelineIdentityAttr, "Identifier of the release pipeline, such as pl_web.")
}

// Delete deletes the pipeline, or leaves a pipeline Terraform took over in place with a warning.
func (r *releasePipelineResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state releasePipelineModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.PipelineID.ValueString()
	if ownership(ctx, req.Private) == pipelineTakenOver {
		resp.Diagnostics.AddWarning("Release pipeline left in place",
			fmt.Sprintf("Release pipeline %q was removed from the Terraform state only. Terraform took it over (pipeline_id "+
				"was set when the resource was created), so destroy leaves the pipeline and its current name and phases on "+
				"the service.", id))
		return
	}
	if !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, state.Timeouts, "delete", &resp.Diagnostics)
	defer cancel()
	// A pipeline already gone is what destroy wants.
	if err := r.data.client.DeleteReleasePipeline(ctx, id); err != nil && !console.NotFound(err) {
		f := framework.APIFailure{Op: "delete", Object: fmt.Sprintf("release pipeline %q", id)}
		resp.Diagnostics.AddError(f.Summary(), f.Detail(ctx, op, err)+r.lockAdvice(ctx, id, err, "deleted"))
	}
}

// lockAdvice says, after a refused update or delete, what holds the pipeline: its active runs
// (read from the service, whatever the refusal's words) and what to do about them, or else what
// else makes the service refuse.
func (r *releasePipelineResource) lockAdvice(ctx context.Context, id string, err error, what string) string {
	if !console.Refused(err) {
		return ""
	}
	runs, lerr := r.data.client.ActiveReleasePipelineTriggers(ctx, id)
	if lerr == nil && len(runs) > 0 {
		desc := make([]string, len(runs))
		for i, t := range runs {
			desc[i] = fmt.Sprintf("%q (%s at phase %q", t.ID, t.Status, t.CurrentPhase)
			if t.GateID != "" {
				desc[i] += fmt.Sprintf(", for gate %q", t.GateID)
			}
			desc[i] += ")"
		}
		if what == "deleted" {
			// A delete is mostly a destroy, in which the run's gate may be gone already: no talk of its
			// rules, and the way on is the destroy, not an apply.
			blocked := "Run %s of release pipeline %q is active, and an active run blocks the delete. Abort the run"
			wait := "wait for it"
			if len(runs) > 1 {
				blocked = "Runs %s of release pipeline %q are active, and active runs block the delete. Abort the runs"
				wait = "wait for them"
			}
			return fmt.Sprintf("\n\n"+blocked+" (in the console, or with the featureconsole_release_pipeline_trigger "+
				"action's `abort`) or "+wait+" to end, then run `terraform destroy` again.", strings.Join(desc, ", "), id)
		}
		return fmt.Sprintf("\n\nRelease pipeline %q cannot be %s while a run of it is active: run %s. Wait for the run "+
			"to end (the featureconsole_release_pipeline_triggers data source follows it), or end it with the "+
			"featureconsole_release_pipeline_trigger action's `rollout` (release to everyone) or `abort` (put the gate's "+
			"previous rules back), then apply again.", id, what, strings.Join(desc, ", "))
	}
	if what == "deleted" {
		if archived := r.archivedGatesAttached(ctx, id); len(archived) > 0 {
			return fmt.Sprintf("\n\nArchived gate(s) %s are attached to release pipeline %q. The service refuses every change "+
				"of an archived gate, detaching it included, so Terraform cannot detach them: in the console, unarchive each, "+
				"detach it from the pipeline and archive it again, then destroy again. Release pipeline %q stays in the "+
				"Terraform state until then.", strings.Join(archived, ", "), id, id)
		}
		return fmt.Sprintf("\n\nThe service does not delete a pipeline while a gate is attached to it or a run of it is "+
			"active. If a gate is attached, attach it to another pipeline (or none) or delete the gate first, then "+
			"destroy again; featureconsole_gate's release_pipeline_id attaches gates. Release pipeline %q stays in the "+
			"Terraform state until then.", id)
	}
	return ""
}

// archivedGatesAttached names the archived gates attached to the pipeline: what holds a pipeline
// that a destroy cannot free (none when the gates cannot be listed).
func (r *releasePipelineResource) archivedGatesAttached(ctx context.Context, id string) []string {
	var names []string
	_ = r.data.client.EachGatesPage(ctx, console.ListOptions{IncludeArchived: true}, func(page []console.Gate) error {
		for _, g := range page {
			if g.ReleasePipelineID == id && g.Archived() {
				names = append(names, strconv.Quote(g.ID))
			}
		}
		return nil
	})
	return names
}
