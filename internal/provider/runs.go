// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
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

// activeRuns lists the runs that can still change of the one gate or dynamic config that of names,
// newest first. The service filters; the runs are filtered here too, so that a service that
// ignored a filter never makes anything act on another object's run (a run that names no gate
// passes a gate's filter, as the service answers some).
func activeRuns(ctx context.Context, client *console.Client, of console.TriggerFilter) ([]console.ReleasePipelineTrigger, error) {
	of.Statuses = activeStatuses
	runs, err := client.ListReleasePipelineTriggers(ctx, of, console.ListOptions{})
	if err != nil {
		return nil, err
	}
	active := runs[:0]
	for _, r := range runs {
		ours := r.DynamicConfigID == of.DynamicConfigID
		if of.GateID != "" {
			ours = r.GateID == "" || r.GateID == of.GateID
		}
		if ours && !r.Final() {
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
