// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// Release pipeline runs as the rules resources, their destroy and the pipeline-run action see them:
// which runs of a gate or config are active, how a run is named in messages, aborting and polling.

// activeStatuses are the statuses of a run that can still change.
var activeStatuses = []string{console.TriggerInProgress, console.TriggerPaused, console.TriggerWaitingForReview}

// nextRunPoll is poll, or sooner when the run's current phase's bake time ends before it.
func nextRunPoll(poll time.Duration, r *console.ReleasePipelineTrigger) time.Duration {
	d := poll
	if r.Status == console.TriggerInProgress && r.CurrentPhaseEndTime.Set {
		if until := time.Until(time.UnixMilli(r.CurrentPhaseEndTime.Value)) + 100*time.Millisecond; until > 0 && until < d {
			d = max(until, 200*time.Millisecond)
		}
	}
	return d
}

// describeRun is how diagnostics and progress messages name a run's state.
func describeRun(r *console.ReleasePipelineTrigger) string {
	s := fmt.Sprintf("%s at phase %q", r.Status, r.CurrentPhase)
	if r.CurrentPhaseEndTime.Set && r.Status == console.TriggerInProgress {
		s += " (bakes until " + time.UnixMilli(r.CurrentPhaseEndTime.Value).UTC().Format(time.RFC3339) + ")"
	}
	return s
}

// defaultRunPollInterval paces the reads of a run while the action waits: a phase bakes for
// minutes or hours, and reads share the service's limits with everyone else.
const defaultRunPollInterval = 5 * time.Second

// activeRunsOfGate lists the runs of a gate that can still change, newest first. The service
// filters; the runs are filtered here too, so that a service that ignored a filter never makes
// anything act on another gate's run.
func activeRunsOfGate(ctx context.Context, client *console.Client, gateID string) ([]console.ReleasePipelineTrigger, error) {
	runs, err := client.ListReleasePipelineTriggers(ctx, console.TriggerFilter{GateID: gateID, Statuses: activeStatuses}, console.ListOptions{})
	if err != nil {
		return nil, err
	}
	active := runs[:0]
	for _, r := range runs {
		if (r.GateID == "" || r.GateID == gateID) && !r.Final() {
			active = append(active, r)
		}
	}
	return active, nil
}

// newestRun is the run created last.
func newestRun(runs []console.ReleasePipelineTrigger) *console.ReleasePipelineTrigger {
	var newest *console.ReleasePipelineTrigger
	for i := range runs {
		if newest == nil || runs[i].CreatedTime.Value > newest.CreatedTime.Value {
			newest = &runs[i]
		}
	}
	return newest
}

// abortRun aborts a run that locks a gate's rules; a run that ended meanwhile needs nothing more.
func abortRun(ctx context.Context, op *framework.Operation, client *console.Client, run *console.ReleasePipelineTrigger, diags *diag.Diagnostics) bool {
	tflog.Info(ctx, "aborting the release pipeline run that locks the gate's rules", map[string]any{
		"run": run.ID, "gate_id": run.GateID, "status": run.Status, "phase": run.CurrentPhase})
	_, err := client.RunTriggerOperation(ctx, run, console.TriggerAbort)
	if err == nil {
		return true
	}
	if now, rerr := client.GetReleasePipelineTrigger(ctx, run.ID); rerr == nil && now.Final() {
		return true
	}
	framework.APIFailure{Op: "abort", Object: fmt.Sprintf("release pipeline run %q", run.ID)}.Add(ctx, diags, op, err)
	return false
}

// abortGateRuns aborts the active runs of a gate that is being destroyed: they have nothing left
// to roll out, and a run outlives its gate and keeps its pipeline from being deleted. archiving
// says the gate is kept archived (archive_on_destroy): the abort puts back the rules it had before
// the change the run was rolling out, and those are the rules it keeps.
func abortGateRuns(ctx context.Context, op *framework.Operation, client *console.Client, gateID string, archiving bool, diags *diag.Diagnostics) bool {
	runs, err := activeRunsOfGate(ctx, client, gateID)
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

// runState is a run's status and phase, without the bake time describeRun adds.
func runState(r *console.ReleasePipelineTrigger) string {
	if r.Final() {
		return r.Status
	}
	return fmt.Sprintf("%s at phase %q", r.Status, r.CurrentPhase)
}

// On a gate whose rules an active run locks, a write of the rules fails, aborts the run first, or
// waits for it to end (on_active_run; destroy always aborts).
const (
	onActiveRunFail  = "fail"
	onActiveRunAbort = "abort"
	onActiveRunWait  = "wait"
)

var onActiveRunPolicies = []string{onActiveRunFail, onActiveRunAbort, onActiveRunWait}

// activeRunsOfConfig lists the runs of a config that can still change. The service filters; the
// runs are filtered here too, so that a service that ignored the filter never makes anything act
// on another object's run.
func activeRunsOfConfig(ctx context.Context, client *console.Client, configID string) ([]console.ReleasePipelineTrigger, error) {
	runs, err := client.ListReleasePipelineTriggers(ctx, console.TriggerFilter{DynamicConfigID: configID, Statuses: activeStatuses}, console.ListOptions{})
	if err != nil {
		return nil, err
	}
	active := runs[:0]
	for _, r := range runs {
		if r.DynamicConfigID == configID && !r.Final() {
			active = append(active, r)
		}
	}
	return active, nil
}

// abortConfigRuns aborts the active runs of a config that is being destroyed.
func abortConfigRuns(ctx context.Context, op *framework.Operation, client *console.Client, configID string, diags *diag.Diagnostics) bool {
	runs, err := activeRunsOfConfig(ctx, client, configID)
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

// configRunToAct is the run the action acts on for dynamic_config_id: the config's one active run;
// with none, for rollout and abort, its newest run (the invocation then says it is done already,
// or names the state it is in); none or several otherwise is an error naming the config.
func configRunToAct(ctx context.Context, client *console.Client, configID string, op console.TriggerOperation, diags *diag.Diagnostics) (string, bool) {
	at := path.Root("dynamic_config_id")
	runs, err := activeRunsOfConfig(ctx, client, configID)
	if err != nil {
		framework.APIFailure{Op: "list", Object: fmt.Sprintf("the release pipeline runs of dynamic config %q", configID)}.Add(ctx, diags, nil, err)
		return "", false
	}
	switch len(runs) {
	case 1:
		return runs[0].ID, true
	case 0:
		if op == console.TriggerRollout || op == console.TriggerAbort {
			all, err := client.ListReleasePipelineTriggers(ctx, console.TriggerFilter{DynamicConfigID: configID}, console.ListOptions{})
			if newest := newestRun(all); err == nil && newest != nil && newest.DynamicConfigID == configID {
				return newest.ID, true
			}
		}
		diags.AddAttributeError(at, "No active release pipeline run",
			fmt.Sprintf("Dynamic config %q has no active release pipeline run (IN_PROGRESS, PAUSED or WAITING_FOR_REVIEW), so "+
				"there is nothing to %s. Runs start when a change of the config's rules is saved.", configID, op))
	default:
		ids := make([]string, len(runs))
		for i, r := range runs {
			ids[i] = r.ID
		}
		diags.AddAttributeError(at, "Several active release pipeline runs",
			fmt.Sprintf("Dynamic config %q has %d active release pipeline runs (%s): set trigger_id to the one to %s.",
				configID, len(runs), framework.QuoteList(ids), op))
	}
	return "", false
}
