// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

const (
	waitNone       = "none"
	waitState      = "state"
	waitCompletion = "completion"

	defaultInvokeTimeout = 20 * time.Minute
)

var (
	pathGateID    = path.Root("gate_id")
	pathTriggerID = path.Root("trigger_id")
	pathPhase     = path.Root("phase")
)

// triggerInvocation is one invocation of the release pipeline trigger action.
type triggerInvocation struct {
	client    *console.Client
	op        console.TriggerOperation
	gateID    string
	triggerID string
	phase     string
	wait      string
	timeout   time.Duration
	poll      time.Duration
	progress  func(string)

	last *console.ReleasePipelineTrigger // the last state of the run seen
}

func (in *triggerInvocation) invoke(ctx context.Context, diags *diag.Diagnostics) {
	run, ok := in.findRun(ctx, diags)
	if !ok {
		return
	}
	in.last = run
	in.progress(fmt.Sprintf("Run %q of pipeline %q: %s", run.ID, run.ReleasePipelineID, describeRun(run)))
	if !in.checkRunState(run, diags) {
		return
	}

	sentPhase := run.CurrentPhaseID
	res, err := in.client.RunTriggerOperation(ctx, run, in.op)
	if err != nil {
		in.failCall(ctx, framework.APIFailure{Op: string(in.op), Object: fmt.Sprintf("release pipeline run %q", run.ID)}, err, diags)
		return
	}
	in.last = res.Run
	if res.Recovered {
		in.progress(fmt.Sprintf("The answer to %s was lost; run %q records it: %s", in.op, run.ID, describeRun(res.Run)))
	} else {
		in.progress(fmt.Sprintf("Sent %s to run %q: %s", in.op, run.ID, describeRun(res.Run)))
	}
	if in.wait == waitNone {
		return
	}
	in.waitFor(ctx, sentPhase, diags)
}

// findRun reads the run named by trigger_id, or the one active run of gate_id.
func (in *triggerInvocation) findRun(ctx context.Context, diags *diag.Diagnostics) (*console.ReleasePipelineTrigger, bool) {
	if in.triggerID != "" {
		run, err := in.client.GetReleasePipelineTrigger(ctx, in.triggerID)
		if console.NotFound(err) {
			diags.AddAttributeError(pathTriggerID, "Release pipeline run not found",
				fmt.Sprintf("There is no release pipeline run %q: %v", in.triggerID, err))
			return nil, false
		}
		if err != nil {
			in.failCall(ctx, framework.APIFailure{Op: "read", Object: fmt.Sprintf("release pipeline run %q", in.triggerID)}, err, diags)
			return nil, false
		}
		return run, true
	}
	runs, err := activeRuns(ctx, in.client, console.TriggerFilter{GateID: in.gateID})
	if err != nil {
		in.failCall(ctx, framework.APIFailure{Op: "list", Object: fmt.Sprintf("the release pipeline runs of gate %q", in.gateID)}, err, diags)
		return nil, false
	}
	switch len(runs) {
	case 1:
		return &runs[0], true
	case 0:
		// A rollout or abort that already ended the gate's run leaves no active run: the newest
		// run tells whether this invocation is a repeat.
		if in.op == console.TriggerRollout || in.op == console.TriggerAbort {
			all, err := in.client.ListReleasePipelineTriggers(ctx, console.TriggerFilter{GateID: in.gateID}, console.ListOptions{})
			if err == nil && len(all) > 0 {
				newest := newestRun(all)
				if alreadyDone(in.op, newest) {
					in.last = newest
					in.warnDone(newest, diags)
					return nil, false
				}
			}
		}
		diags.AddAttributeError(pathGateID, "No active release pipeline run",
			fmt.Sprintf("Gate %q has no active release pipeline run (IN_PROGRESS, PAUSED or WAITING_FOR_REVIEW), so there is "+
				"nothing to %s. Runs are started in the console when a change of the gate is saved.", in.gateID, in.op))
		return nil, false
	default:
		ids := make([]string, len(runs))
		for i, r := range runs {
			ids[i] = r.ID
		}
		diags.AddAttributeError(pathGateID, "Several active release pipeline runs",
			fmt.Sprintf("Gate %q has %d active release pipeline runs (%s): set trigger_id to the one to %s.",
				in.gateID, len(runs), framework.QuoteList(ids), in.op))
		return nil, false
	}
}

// checkRunState decides, before any request, whether the operation is to be sent: already done is a
// warning; a state the operation does not allow, or another phase, is an error.
func (in *triggerInvocation) checkRunState(run *console.ReleasePipelineTrigger, diags *diag.Diagnostics) bool {
	if run.Final() {
		if alreadyDone(in.op, run) {
			in.warnDone(run, diags)
		} else {
			diags.AddError(fmt.Sprintf("Cannot %s release pipeline run %q", in.op, run.ID),
				fmt.Sprintf("The run is %s (final at phase %q): %s is not possible. Nothing was sent.", run.Status, run.CurrentPhase, in.op))
		}
		return false
	}
	if in.phase != "" && in.phase != run.CurrentPhase {
		diags.AddAttributeError(pathPhase, fmt.Sprintf("Release pipeline run %q is at another phase", run.ID),
			fmt.Sprintf("phase = %q, but the run is at phase %q (%s). Nothing was sent: the action acts only at the phase named.",
				in.phase, run.CurrentPhase, run.Status))
		return false
	}
	if alreadyDone(in.op, run) {
		in.warnDone(run, diags)
		return false
	}
	if !operationAllowed(in.op, run.Status) {
		diags.AddError(fmt.Sprintf("Cannot %s release pipeline run %q", in.op, run.ID),
			fmt.Sprintf("The run is %s at phase %q; %s needs a run that is %s. Nothing was sent.",
				run.Status, run.CurrentPhase, in.op, allowedStates(in.op)))
		return false
	}
	return true
}

func (in *triggerInvocation) warnDone(run *console.ReleasePipelineTrigger, diags *diag.Diagnostics) {
	diags.AddWarning(fmt.Sprintf("Release pipeline run %q: %s already done", run.ID, in.op),
		fmt.Sprintf("The run is %s, so %s has nothing left to do and nothing was sent.", describeRun(run), in.op))
	in.progress(fmt.Sprintf("Run %q is already %s: nothing to %s", run.ID, describeRun(run), in.op))
}

// alreadyDone reports whether the run shows the operation's effect.
func alreadyDone(op console.TriggerOperation, r *console.ReleasePipelineTrigger) bool {
	switch op {
	case console.TriggerApprove:
		return r.Status != console.TriggerWaitingForReview && r.CountActions(op.ActionType(), r.CurrentPhaseID) > 0
	case console.TriggerPause:
		return r.Status == console.TriggerPaused
	case console.TriggerUnpause:
		return r.Status == console.TriggerInProgress
	case console.TriggerRollout:
		return r.Status == console.TriggerCompleted
	case console.TriggerAbort:
		return r.Status == console.TriggerAborted
	}
	return false // skip moves on each time it is sent
}

func operationAllowed(op console.TriggerOperation, status string) bool {
	switch op {
	case console.TriggerApprove:
		return status == console.TriggerWaitingForReview
	case console.TriggerPause:
		return status == console.TriggerInProgress
	case console.TriggerUnpause:
		return status == console.TriggerPaused
	}
	return status == console.TriggerInProgress || status == console.TriggerPaused || status == console.TriggerWaitingForReview
}

func allowedStates(op console.TriggerOperation) string {
	switch op {
	case console.TriggerApprove:
		return console.TriggerWaitingForReview
	case console.TriggerPause:
		return console.TriggerInProgress
	case console.TriggerUnpause:
		return console.TriggerPaused
	}
	return "IN_PROGRESS, PAUSED or WAITING_FOR_REVIEW"
}

// tookEffect reports whether the run shows the operation sent at phase sentPhase.
func tookEffect(op console.TriggerOperation, r *console.ReleasePipelineTrigger, sentPhase string) bool {
	switch op {
	case console.TriggerApprove:
		return r.CurrentPhaseID != sentPhase || r.Status != console.TriggerWaitingForReview
	case console.TriggerPause:
		return r.Status == console.TriggerPaused
	case console.TriggerUnpause:
		return r.Status != console.TriggerPaused
	case console.TriggerSkip:
		return r.CurrentPhaseID != sentPhase || r.Final()
	case console.TriggerRollout:
		return r.Status == console.TriggerCompleted
	case console.TriggerAbort:
		return r.Status == console.TriggerAborted
	}
	return true
}

// waitFor reads the run until wait is satisfied, reporting every change of status or phase.
func (in *triggerInvocation) waitFor(ctx context.Context, sentPhase string, diags *diag.Diagnostics) {
	for {
		r := in.last
		switch in.wait {
		case waitState:
			if tookEffect(in.op, r, sentPhase) {
				return
			}
			if r.Final() {
				diags.AddWarning(fmt.Sprintf("Release pipeline run %q ended", r.ID),
					fmt.Sprintf("The run became %s before %s showed its effect.", describeRun(r), in.op))
				return
			}
		case waitCompletion:
			switch r.Status {
			case console.TriggerCompleted:
				return
			case console.TriggerAborted:
				if in.op != console.TriggerAbort {
					diags.AddError(fmt.Sprintf("Release pipeline run %q was aborted", r.ID),
						fmt.Sprintf("The run was aborted at phase %q while waiting for it to complete.", r.CurrentPhase))
				}
				return
			case console.TriggerWaitingForReview:
				diags.AddError(fmt.Sprintf("Release pipeline run %q waits for a review", r.ID),
					fmt.Sprintf("The run waits for a review of phase %q before it can go on: approve it in the console or with "+
						"operation = \"approve\" and phase = %q. The run cannot complete before then.", r.CurrentPhase, r.CurrentPhase))
				return
			}
		}
		t := time.NewTimer(nextRunPoll(in.poll, r))
		select {
		case <-ctx.Done():
			t.Stop()
			in.failAction(ctx, fmt.Sprintf("Stopped waiting for release pipeline run %q", r.ID), ctx.Err().Error(), diags)
			return
		case <-t.C:
		}
		next, err := in.client.GetReleasePipelineTrigger(ctx, r.ID)
		if err != nil {
			in.failCall(ctx, framework.APIFailure{Op: "read", Object: fmt.Sprintf("release pipeline run %q", r.ID)}, err, diags)
			return
		}
		if next.Status != r.Status || next.CurrentPhaseID != r.CurrentPhaseID {
			in.progress(fmt.Sprintf("Run %q is now %s", next.ID, describeRun(next)))
		}
		in.last = next
	}
}

// failCall reports a failed call to the service through the provider's one wording of it.
func (in *triggerInvocation) failCall(ctx context.Context, f framework.APIFailure, err error, diags *diag.Diagnostics) {
	in.failAction(ctx, f.Summary(), f.Detail(ctx, nil, err), diags)
}

// failAction adds the error, saying why it stopped when the deadline or Terraform ended the invocation,
// and the last state of the run seen. ctx is the invocation's (framework.WithOwnDeadline): its cause tells its
// own deadline from Terraform's cancellation.
func (in *triggerInvocation) failAction(ctx context.Context, summary, detail string, diags *diag.Diagnostics) {
	switch {
	case ctx.Err() != nil && !framework.OwnDeadlinePassed(ctx):
		detail = "Cancelled by Terraform. " + detail
	case framework.OwnDeadlinePassed(ctx):
		detail = fmt.Sprintf("Timed out after %s (raise timeouts.invoke, for example timeouts = { invoke = %q }). %s",
			framework.FormatTimeout(in.timeout), framework.FormatTimeout(2*in.timeout), detail)
	}
	if in.last != nil {
		detail += fmt.Sprintf("\n\nLast state seen of run %q: %s.", in.last.ID, describeRun(in.last))
	} else {
		detail += "\n\nNo state of the run was seen."
	}
	diags.AddError(summary, detail)
}

// configRunToAct is the run the action acts on for dynamic_config_id: the config's one active run;
// with none, for rollout and abort, its newest run (the invocation then says it is done already,
// or names the state it is in); none or several otherwise is an error naming the config.
func configRunToAct(ctx context.Context, client *console.Client, configID string, op console.TriggerOperation, diags *diag.Diagnostics) (string, bool) {
	at := path.Root("dynamic_config_id")
	runs, err := activeRuns(ctx, client, console.TriggerFilter{DynamicConfigID: configID})
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
