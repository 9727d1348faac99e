// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// What a rules resource says about a write of the rules beyond the rules, for gates and configs
// alike: an object attached to a release pipeline rolls every change of its rules out through a
// run of it, which locks the rules until it ends (and puts the old ones back if aborted); a write
// may be refused, or answered with other rules than were sent.

// warnRolloutStarted warns, after a write to an object attached to a release pipeline, of the run
// the write started, or that it started none and the change is live now, or that the newest run
// ended already (phases without bake time); runs that cannot be listed are said too, without
// failing the apply that wrote. superseded is the run the write aborted first, if any.
func (t rulesTarget) warnRolloutStarted(ctx context.Context, c *console.Client, diags *diag.Diagnostics, id string, h *ruleHolder, superseded *console.ReleasePipelineTrigger) {
	if superseded != nil {
		diags.AddWarning(fmt.Sprintf("Release pipeline run %q of %s aborted", superseded.ID, t.what(id)),
			fmt.Sprintf("Run %q was rolling out an earlier change of the rules of %s (%s); it was aborted so that "+
				"this change could be written, which puts back the rules the %s had before that earlier change and then "+
				"replaces them with this change's.", superseded.ID, t.what(id), describeRun(superseded), t.noun))
	}
	if h == nil || h.ReleasePipelineID == "" {
		return
	}
	runs, err := activeRuns(ctx, c, t.filter(id))
	run := newestRun(runs)
	switch {
	case err != nil:
		diags.AddWarning(fmt.Sprintf("Rules of %s may roll out through release pipeline %q", t.what(id), h.ReleasePipelineID),
			fmt.Sprintf("The %s is attached to release pipeline %q, so the service may roll the change out through a run "+
				"of it, but its runs could not be listed: %s. %s", t.noun, h.ReleasePipelineID, framework.FailureAccount(err), t.followAndDrive(id)))
	case run == nil:
		t.warnNoRollout(ctx, c, diags, id, h, superseded)
	default:
		diags.AddWarning(fmt.Sprintf("Rules of %s roll out through release pipeline run %q", t.what(id), run.ID),
			fmt.Sprintf("The %s is attached to release pipeline %q: this change of its rules started run %q (%s, phase %q), "+
				"which rolls the new rules out phase by phase. %s\n\nUntil the run ends, the service refuses further changes of "+
				"the %s's rules (on_active_run says what an apply does then). Aborting the run puts back the rules the %s had "+
				"before this apply; the next plan then shows them as a change to make again.", t.noun, run.ReleasePipelineID,
				run.ID, run.Status, run.CurrentPhase, t.followAndDrive(id), t.noun, t.noun))
	}
}

// warnNoRollout says that no run is active after a write: the service started none, and the change
// is live now, unless the newest run of the object, which may be this change's, ended
// already (phases without bake time).
func (t rulesTarget) warnNoRollout(ctx context.Context, c *console.Client, diags *diag.Diagnostics, id string, h *ruleHolder, superseded *console.ReleasePipelineTrigger) {
	if all, err := c.ListReleasePipelineTriggers(ctx, t.filter(id), console.ListOptions{}); err == nil {
		if last := newestRun(all); last != nil && (superseded == nil || last.ID != superseded.ID) {
			diags.AddWarning(fmt.Sprintf("Rules of %s: no rollout under way", t.what(id)),
				fmt.Sprintf("The %s is attached to release pipeline %q, but no run of it is active after this change. Where "+
					"the service starts no run for a change, the new rules are live everywhere now, not rolled out phase by "+
					"phase. The newest run of it, %q, is %s already: if it is this change's, the rollout is over.",
					t.noun, h.ReleasePipelineID, last.ID, last.Status))
			return
		}
	}
	diags.AddWarning(fmt.Sprintf("Rules of %s are live now, without a rollout", t.what(id)),
		fmt.Sprintf("The %s is attached to release pipeline %q, but the service applied this change of its rules at "+
			"once and started no run of the pipeline: the new rules are live now wherever they apply, without a staged "+
			"rollout.", t.noun, h.ReleasePipelineID))
}

// warnRulesRemoved says what a destroy of the rules of an object attached to a release pipeline
// did: the run it aborted first (superseded), and the run, if any, the removal started. Nothing is
// left to follow or drive: destroying the object too aborts that run, and otherwise it only rolls
// out the removal.
func (t rulesTarget) warnRulesRemoved(ctx context.Context, c *console.Client, diags *diag.Diagnostics, id string, h *ruleHolder, superseded *console.ReleasePipelineTrigger) {
	var did []string
	if superseded != nil {
		did = append(did, fmt.Sprintf("Destroy aborted run %q of release pipeline %q (%s), which was rolling out an "+
			"earlier change of the rules of %s, and then removed the %s's rules.", superseded.ID,
			superseded.ReleasePipelineID, describeRun(superseded), t.what(id), t.noun))
	}
	if h.ReleasePipelineID != "" {
		runs, err := activeRuns(ctx, c, t.filter(id))
		switch run := newestRun(runs); {
		case err != nil:
			did = append(did, fmt.Sprintf("The runs of release pipeline %q could not be listed to tell whether the removal "+
				"rolls out through one: %s.", h.ReleasePipelineID, framework.FailureAccount(err)))
		case run != nil:
			did = append(did, fmt.Sprintf("The service rolls the removal out through run %q of release pipeline %q (%s, "+
				"phase %q); destroying the %s as well aborts it.", run.ID, run.ReleasePipelineID, run.Status, run.CurrentPhase, t.noun))
		case superseded != nil:
			did = append(did, "The removal is live now.")
		}
	}
	if len(did) == 0 {
		return
	}
	summary := fmt.Sprintf("Rules of %s removed", t.what(id))
	if superseded != nil {
		summary = fmt.Sprintf("Release pipeline run %q of %s aborted", superseded.ID, t.what(id))
	}
	diags.AddWarning(summary, strings.Join(did, " "))
}

// warnLeftInPlace says that destroy with keep_on_destroy = true left the rules as they are.
func (t rulesTarget) warnLeftInPlace(diags *diag.Diagnostics, id string) {
	diags.AddWarning(fmt.Sprintf("Rules of %s left in place", t.what(id)),
		fmt.Sprintf("keep_on_destroy = true: destroy left the rules of %s as they are, and Terraform no longer "+
			"manages them. A %s that destroy archives (archive_on_destroy = true) keeps them%s.", t.what(id), t.noun, t.archiveKeeps))
}

// lockedByRun says what to do about a run that locks the rules, once: on_active_run for every
// Terraform version, the action for 1.14 and later. timeout is the operation whose timeout bounds a
// wait (create or update).
func (t rulesTarget) lockedByRun(id, timeout string, run *console.ReleasePipelineTrigger) string {
	return fmt.Sprintf("Release pipeline %q is rolling out an earlier change of the rules of %s (%s), and the "+
		"service refuses changes of the %s's rules until the run ends. Nothing was changed.\n\n"+
		"What to do: set on_active_run = \"wait\" in this %s to wait for the run to end before "+
		"writing (within timeouts.%s), or on_active_run = \"abort\" to abort the run and roll out this change "+
		"instead, and apply again. With Terraform 1.14 or later you may instead end the run with the action "+
		"featureconsole_release_pipeline_trigger (%s = %q, operation = \"rollout\" or \"abort\"); the data source "+
		"featureconsole_release_pipeline_triggers follows it.",
		run.ReleasePipelineID, t.what(id), describeRun(run), t.noun, t.typeName, timeout, t.runFilterAttr, id)
}

// addWriteError reports a failed write of the rules: an object that does not exist is the
// configuration's mistake (a rules resource cannot create it), reported on its id attribute; an
// archived object says so and what to do; a lock by a run says the run and what to do.
func (t rulesTarget) addWriteError(ctx context.Context, c *console.Client, diags *diag.Diagnostics, id string, op *framework.Operation, err error) {
	write := framework.APIFailure{Op: op.Name + " rules of", Object: t.what(id)}
	if console.NotFound(err) {
		write.AddAt(ctx, diags, path.Root(t.idAttr), fmt.Sprintf("%s %q does not exist", framework.Capitalize(t.noun), id), op, err, t.onMissing)
		return
	}
	if t.archived(ctx, c, diags, id, write, op, err) {
		return
	}
	if run := t.lockingRun(ctx, c, id, err); run != nil {
		diags.AddError(fmt.Sprintf("Rules of %s are locked by release pipeline run %q", t.what(id), run.ID),
			t.lockedByRun(id, op.Name, run)+"\n\n"+write.Detail(ctx, op, err))
		return
	}
	write.Add(ctx, diags, op, err)
}

// addRulesNotTaken reports a write of the rules that the service answered with other rules than
// were sent. created says whether it was a create (which saves nothing); rerun is the command to
// run again.
func (t rulesTarget) addRulesNotTaken(diags *diag.Diagnostics, id, difference string, created bool, rerun string) {
	kept := fmt.Sprintf("The Terraform state holds the rules the %s holds now, so the next plan shows what is left to do.", t.noun)
	if created {
		kept = fmt.Sprintf("Nothing was saved in the Terraform state; the %s keeps the rules listed above.", t.noun)
	}
	diags.AddError(fmt.Sprintf("Rules of %s not written as sent", t.what(id)),
		fmt.Sprintf("The service answered the write of the rules of %s with other rules than were sent: %s.\n\n"+
			"%s%s Add or remove those rules in the console%s, then run %s again.", t.what(id), difference,
			t.notTaken.cause, kept, t.notTaken.remedy, rerun))
}
