// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// Destroy of a release pipeline: a pipeline Terraform took over is left in place (the ownership kept
// in private state, resource_release_pipeline_owner.go); a refused update or delete says what holds
// the pipeline.

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
