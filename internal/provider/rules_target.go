// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// A complete, ordered rule list of the gate rule's shape belongs to a gate or to a dynamic config;
// both roll changes out through runs of their release pipeline, which lock the rules until they end
// (DESIGN.md §4). rulesTarget is what sets the two apart, so that what a write of the rules does
// about an active run (on_active_run: fail, abort, wait), and what it says, is one piece of code
// over the target kind: rulesResource serves featureconsole_gate_rules and
// featureconsole_dynamic_config_rules over it. The rule model, its plan matching by name and its
// validation are rules.go's.

// ruleHolder is what a target holds: its rules, the pipeline they roll out through and a review
// its changes wait on.
type ruleHolder struct {
	ID                string
	ReleasePipelineID string
	Rules             []console.Rule
	ActiveReview      *console.ActiveReview
}

type rulesTarget struct {
	noun      string // "dynamic config", in messages
	holder    string // "the config", in the differences between what was sent and what is held
	typeName  string // the rules resource: featureconsole_dynamic_config_rules
	idAttr    string // config_id
	exampleID string // checkout_copy, in import's and the identity's words
	ruleType  types.ObjectType
	model     func() rulesModel // a new, empty model of the resource
	read      func(ctx context.Context, c *console.Client, id string) (*ruleHolder, error)
	write     func(ctx context.Context, c *console.Client, id string, rules []console.Rule) (*ruleHolder, error)
	// filter names all the target's runs (activeRuns lists those that can still change).
	filter func(id string) console.TriggerFilter
	// runFilterAttr is the attribute of the runs data source and the action that names the target.
	runFilterAttr string
	reviews       reviewTarget[ruleHolder]
	// archived reports a write refused because the object is archived, and whether it did.
	archived func(ctx context.Context, c *console.Client, diags *diag.Diagnostics, id string, write framework.APIFailure, op *framework.Operation, err error) bool
	// onMissing is what to do when the id names no object.
	onMissing string
	// notTaken explains a write answered with other rules than were sent, and how to get past it
	// (notTakenWords); archiveKeeps is what an archived object keeps its rules with.
	notTaken     notTakenWords
	archiveKeeps string
	// removed hands the rules a destroy removed to the object's own destroy (nil: nothing to hand);
	// outOfOrder reports a write of the rules that Terraform orders before a write of the object
	// they depend on (nil: none does). Both are handoffs.go's.
	removed    func(data *providerData, id string, held []console.Rule)
	outOfOrder func(data *providerData, id string, diags *diag.Diagnostics) bool
	// checkPlan checks a plan that writes rules against what the object asks of them (nil: nothing
	// does; a config's schema does of its return values).
	checkPlan func(ctx context.Context, data *providerData, plan rulesModel, diags *diag.Diagnostics)
}

// targetCalls are the client's calls on the object of a target (a gate, a dynamic config),
// answering T, and holder, which sees a T as the rules' holder.
type targetCalls[T any] struct {
	get    func(c *console.Client, ctx context.Context, id string) (*T, error)
	write  func(c *console.Client, ctx context.Context, id string, rules []console.Rule) (*T, error)
	review func(c *console.Client, ctx context.Context, id, reviewID string) (*console.Review, error)
	commit func(c *console.Client, ctx context.Context, id, reviewID string) (*T, error)
	holder func(*T) *ruleHolder
}

// newRulesTarget returns t reading, writing and reviewing the rules through calls.
func newRulesTarget[T any](t rulesTarget, calls targetCalls[T]) rulesTarget {
	held := func(v *T, err error) (*ruleHolder, error) {
		if v == nil {
			return nil, err
		}
		return calls.holder(v), err
	}
	get := func(c *console.Client, ctx context.Context, id string) (*ruleHolder, error) {
		return held(calls.get(c, ctx, id))
	}
	t.read = func(ctx context.Context, c *console.Client, id string) (*ruleHolder, error) { return get(c, ctx, id) }
	t.write = func(ctx context.Context, c *console.Client, id string, rules []console.Rule) (*ruleHolder, error) {
		return held(calls.write(c, ctx, id, rules))
	}
	t.reviews = reviewTarget[ruleHolder]{noun: t.noun, get: calls.review, read: get,
		commit: func(c *console.Client, ctx context.Context, id, reviewID string) (*ruleHolder, error) {
			return held(calls.commit(c, ctx, id, reviewID))
		}}
	return t
}

// what names one object of the target: `dynamic config "x"`.
func (t rulesTarget) what(id string) string { return fmt.Sprintf("%s %q", t.noun, id) }

// lockingRun is the active run whose lock made the service refuse a write of the rules, if any:
// the target's active runs (the runs endpoint) are read, and the client matches the refusal to
// the one it names (console.LockedByRun). Any other refusal, such as a rule the service finds
// invalid, is not the lock even while a run is active: aborting or waiting for the run would not
// help, and with on_active_run = "abort" it would end a rollout for nothing.
func (t rulesTarget) lockingRun(ctx context.Context, c *console.Client, id string, err error) *console.ReleasePipelineTrigger {
	if !console.Refused(err) {
		return nil
	}
	runs, lerr := activeRuns(ctx, c, t.filter(id))
	if lerr != nil {
		return nil
	}
	return console.LockedByRun(err, runs)
}

// writePastRun writes the rule list past an active run; a refusal for an active run is handled as onActiveRun says:
// stop, abort the run and write again, or wait for it to end and write again. superseded is the
// run aborted. Failures of the abort or the wait are added to diags, with a nil holder and error.
func (t rulesTarget) writePastRun(ctx context.Context, op *framework.Operation, data *providerData, id string, rules []console.Rule, onActiveRun string, diags *diag.Diagnostics) (h *ruleHolder, superseded *console.ReleasePipelineTrigger, err error) {
	wctx := console.WithOperation(ctx, op.Name) // the write named by the operation: "create rules of", "delete rules of"
	h, err = t.write(wctx, data.client, id, rules)
	if err == nil || onActiveRun == onActiveRunFail {
		return h, nil, err
	}
	run := t.lockingRun(ctx, data.client, id, err)
	if run == nil {
		return nil, nil, err
	}
	switch onActiveRun {
	case onActiveRunAbort:
		if !abortRun(ctx, op, data.client, run, diags) {
			return nil, nil, nil
		}
		superseded = run
	case onActiveRunWait:
		if !t.waitForRun(ctx, op, data, id, run, diags) {
			return nil, nil, nil
		}
	}
	h, err = t.write(wctx, data.client, id, rules)
	return h, superseded, err
}

// waitForRun reads the run that locks the rules until it is completed or aborted, logging each
// change of its status or phase; the operation's timeout bounds the wait.
func (t rulesTarget) waitForRun(ctx context.Context, op *framework.Operation, data *providerData, id string, run *console.ReleasePipelineTrigger, diags *diag.Diagnostics) bool {
	poll := data.runPollInterval
	if poll <= 0 {
		poll = defaultRunPollInterval
	}
	last, start := run, time.Now()
	// seen is every state the run was found in, in order: Terraform shows a resource's operation
	// only as "Still modifying...", so the apply's output says afterwards what was waited for.
	seen := []string{runState(run)}
	tflog.Info(ctx, "waiting for the release pipeline run that locks the rules", map[string]any{
		"run": run.ID, t.idAttr: id, "status": run.Status, "phase": run.CurrentPhase})
	// stopped says where the run was when the operation's context ended: the budget may run out
	// while the timer waits or while a read of the run is under way, and both say the same.
	stopped := func() bool {
		why := "Terraform cancelled the apply"
		if op.TimedOut(ctx) {
			why = fmt.Sprintf("The %s timeout (%s) ran out", op.Name, framework.FormatTimeout(op.Timeout))
		}
		diags.AddError(fmt.Sprintf("Stopped waiting for release pipeline run %q of %s", last.ID, t.what(id)),
			fmt.Sprintf("%s while waiting for run %q to end (on_active_run = \"wait\"); nothing was written. Last state "+
				"seen: %s.\n\n%s\n\nStates seen in %s: %s.",
				why, last.ID, describeRun(last), t.waitAdvice(ctx, data.client, id, op, last), framework.HumanDuration(time.Since(start)), strings.Join(seen, " -> ")))
		return false
	}
	for !last.Final() {
		timer := time.NewTimer(nextRunPoll(poll, last))
		select {
		case <-ctx.Done():
			timer.Stop()
			return stopped()
		case <-timer.C:
		}
		next, err := data.client.GetReleasePipelineTrigger(ctx, last.ID)
		if err != nil {
			if ctx.Err() != nil {
				return stopped()
			}
			framework.APIFailure{Op: "read", Object: fmt.Sprintf("release pipeline run %q", last.ID)}.Add(ctx, diags, op, err)
			return false
		}
		if next.Status != last.Status || next.CurrentPhaseID != last.CurrentPhaseID {
			tflog.Info(ctx, fmt.Sprintf("release pipeline run %q is now %s", next.ID, describeRun(next)), map[string]any{
				"run": next.ID, t.idAttr: id, "status": next.Status, "phase": next.CurrentPhase})
			seen = append(seen, runState(next))
		}
		last = next
	}
	diags.AddWarning(fmt.Sprintf("Waited for release pipeline run %q of %s", run.ID, t.what(id)),
		fmt.Sprintf("Run %q of release pipeline %q was rolling out an earlier change of the %s's rules, so this change "+
			"waited %s for it to end (on_active_run = \"wait\"). The run went: %s.", run.ID, run.ReleasePipelineID,
			t.noun, framework.HumanDuration(time.Since(start)), strings.Join(seen, " -> ")))
	return true
}

// waitAdvice is what to do about a run a wait stopped at, and only what can work. A phase waiting
// for review, or a paused run, moves on only when someone acts: more time does not help, so the
// advice is that act, by the action with Terraform 1.14 or later and in the console with any
// Terraform. A run that bakes is over when its bake times are: the advice names what is left (the
// current phase's end, the later phases' bakes, from the pipeline) and a timeout that covers it, or,
// where a later phase waits for review or what is left cannot be told, no timeout at all.
func (t rulesTarget) waitAdvice(ctx context.Context, c *console.Client, id string, op *framework.Operation, last *console.ReleasePipelineTrigger) string {
	abort := "set on_active_run = \"abort\" to supersede the run"
	drive := fmt.Sprintf("the action featureconsole_release_pipeline_trigger (%s = %q)", t.runFilterAttr, id)
	switch last.Status {
	case console.TriggerWaitingForReview:
		return fmt.Sprintf("What to do: phase %q of run %q needs approving before the run moves on, and more time will "+
			"not do that. Approve it with Terraform 1.14 or later through the action featureconsole_release_pipeline_trigger "+
			"(%s = %q, operation = \"approve\", phase = %q), or in the console with any Terraform version, and apply "+
			"again; or %s.", last.CurrentPhase, last.ID, t.runFilterAttr, id, last.CurrentPhase, abort)
	case console.TriggerPaused:
		return fmt.Sprintf("What to do: run %q is paused, and more time will not move it on. Unpause it (in the console, or "+
			"with %s, operation = \"unpause\", with Terraform 1.14 or later) and apply again; or %s.", last.ID, drive, abort)
	}
	left, review, known := runTimeLeft(ctx, c, last)
	shortcut := fmt.Sprintf("%s, or skip or roll out its phases (in the console, or with %s with Terraform 1.14 or "+
		"later), and apply again", abort, drive)
	switch {
	case !known:
		return fmt.Sprintf("What to do: how long run %q has left cannot be told from what the service says of it, so no "+
			"timeout is sure to cover it: %s.", last.ID, shortcut)
	case review != "":
		return fmt.Sprintf("What to do: after %s of bake time, phase %q of the pipeline waits for a review, and more time "+
			"alone will not get the run past it: %s.", roughly(left), review, shortcut)
	}
	cover := (left + 2*time.Minute).Round(time.Minute)
	return fmt.Sprintf("What to do: run %q has %s of bake time left (phase %q until %s, and the phases after it). "+
		"Allow that much (timeouts = { %s = %q }), or %s.", last.ID, roughly(left), last.CurrentPhase,
		time.UnixMilli(last.CurrentPhaseEndTime.Value).UTC().Format(time.RFC3339), op.Name,
		framework.FormatTimeout(max(cover, op.Timeout)), shortcut)
}

// roughly says a bake time as a reader plans with it: hours once it is hours.
func roughly(d time.Duration) string {
	if d >= 2*time.Hour {
		return fmt.Sprintf("about %d hours", int((d+30*time.Minute)/time.Hour))
	}
	return "about " + framework.HumanDuration(d)
}

// runTimeLeft is the bake time a run in progress has left: what is left of its current phase and
// the bake times of the phases after it (read from its pipeline). review names the first later
// phase that waits for a review (the run stops there until approved); known is false when the
// current phase's end or the pipeline's phases cannot be had. The wait's own context may have run
// out: the pipeline is read within a few seconds of its own.
func runTimeLeft(ctx context.Context, c *console.Client, run *console.ReleasePipelineTrigger) (left time.Duration, review string, known bool) {
	if !run.CurrentPhaseEndTime.Set {
		return 0, "", false
	}
	left = max(time.Until(time.UnixMilli(run.CurrentPhaseEndTime.Value)), 0)
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	p, err := c.GetReleasePipeline(rctx, run.ReleasePipelineID)
	if err != nil {
		return 0, "", false
	}
	current := -1
	for i, ph := range p.Phases {
		if ph.ID == run.CurrentPhaseID || current < 0 && run.CurrentPhaseID == "" && ph.Name == run.CurrentPhase {
			current = i
		}
	}
	if current < 0 {
		return 0, "", false
	}
	for _, ph := range p.Phases[current+1:] {
		if ph.RequiredReview {
			return left, ph.Name, true
		}
		left += time.Duration(ph.TimeIntervalMs) * time.Millisecond
	}
	return left, "", true
}

// followAndDrive says how to follow and drive a run of the target.
func (t rulesTarget) followAndDrive(id string) string {
	return fmt.Sprintf("Follow it with the data source featureconsole_release_pipeline_triggers (%s = %q), and drive it "+
		"with the action featureconsole_release_pipeline_trigger (%s = %q, operation = \"approve\", \"pause\", "+
		"\"unpause\", \"skip\", \"rollout\" or \"abort\").", t.runFilterAttr, id, t.runFilterAttr, id)
}

// writeOutcome is what became of a write of the rules.
type writeOutcome int

const (
	outcomeWritten  writeOutcome = iota // applied as sent (or found already so), or failed with an error
	outcomeHeld                         // held for review: nothing changed
	outcomeNotTaken                     // answered with other rules than were sent: plan holds the service's rules
)

// supersedePlan is what the plan of a write of rules needs to know of on_active_run: a write that
// aborts the run rolling out the previous change first gets back the rules the object had before
// that change (PATCH /gates/{id}/rules), and the service gives the rules that change added new base ids when
// they are written again; a wait may end the same way when someone aborts the run meanwhile. So
// while a run of the object is active, the plan of such a write promises no base_id. A run that
// starts between plan and apply rolls out someone else's change, whose abort puts back the rules
// the state holds: their base ids stay. The zero value (segments, on_active_run = "fail", which
// never writes past a run) keeps every base_id it can.
type supersedePlan struct {
	policy types.String
	// activeRuns lists the object's active runs (nil without a configured client).
	activeRuns func(context.Context) ([]console.ReleasePipelineTrigger, error)
	// target and id name the object in the plan's warning of a run that will fail the apply.
	target rulesTarget
	id     string
}

// warnLocked warns, in the plan of a change of the rules under on_active_run = "fail", of an active
// run that locks them: the apply will fail on it, writing nothing, and the reviewer of the plan
// learns that before approving it, with what to do instead. Under abort or wait the plan's unknown
// base_ids already say a run may be met; a run that cannot be listed is left to the apply.
func (sp supersedePlan) warnLocked(ctx context.Context, diags *diag.Diagnostics) {
	if sp.activeRuns == nil || sp.policy.IsUnknown() || !sp.policy.IsNull() && sp.policy.ValueString() != onActiveRunFail {
		return
	}
	runs, err := sp.activeRuns(ctx)
	if err != nil {
		tflog.Warn(ctx, "could not list the active runs at plan time", map[string]any{"error": err.Error()})
		return
	}
	run := newestRun(runs)
	if run == nil {
		return
	}
	t := sp.target
	diags.AddAttributeWarning(path.Root("rules"), fmt.Sprintf("Rules of %s are locked by release pipeline run %q", t.what(sp.id), run.ID),
		fmt.Sprintf("Release pipeline %q is rolling out an earlier change of the rules of %s: run %q, %s. With on_active_run "+
			"= \"fail\" (the default), applying this plan will fail on this change of the rules, writing nothing, unless the "+
			"run has ended by then.\n\nTo go ahead instead: set on_active_run = \"wait\" (apply waits for the run to end, "+
			"within timeouts.update) or on_active_run = \"abort\" (apply aborts the run, which puts back the rules held "+
			"before it, and rolls out this change instead) and plan again; or end the run first, in the console or with "+
			"the action featureconsole_release_pipeline_trigger (%s = %q, operation = \"rollout\" or \"abort\") with "+
			"Terraform 1.14 or later.", run.ReleasePipelineID, t.what(sp.id), run.ID, describeRun(run), t.runFilterAttr, sp.id))
}

// mayRestore says whether the write may meet an active run that brings older rules back: a run is
// active now, or whether one is cannot be known (no client, the list failed, the policy unknown).
func (sp supersedePlan) mayRestore(ctx context.Context) bool {
	if sp.policy.IsNull() || (!sp.policy.IsUnknown() && sp.policy.ValueString() == onActiveRunFail) {
		return false
	}
	if sp.activeRuns == nil {
		return true
	}
	runs, err := sp.activeRuns(ctx)
	if err != nil {
		tflog.Warn(ctx, "could not list the active runs at plan time; base_id is planned unknown", map[string]any{"error": err.Error()})
		return true
	}
	return len(runs) > 0
}

// plannedRules is the planned rule list (of a gate, or a segment's as gate rules) with the ids
// matchPriorRules keeps from the prior state's; when the list changes and sp says the write may
// meet a run whose abort brings older rules back, no base_id is promised.
func plannedRules(ctx context.Context, plan, state types.List, sp supersedePlan) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	planned, d := ruleModels(ctx, plan)
	diags.Append(d...)
	prior, d := ruleModels(ctx, state)
	diags.Append(d...)
	if diags.HasError() {
		return plan, diags
	}
	if !matchPriorRules(ctx, planned, prior) {
		if sp.mayRestore(ctx) {
			for i := range planned {
				planned[i].BaseID = types.StringUnknown()
				planned[i].Variants = plannedVariantIDs(planned[i].Variants, types.List{})
			}
		}
		sp.warnLocked(ctx, &diags)
	}
	rules, d := ruleList(ctx, plan.ElementType(ctx), planned)
	diags.Append(d...)
	return rules, diags
}

// matchPriorRules fills base_id of planned rules from the prior rule of the same name (and the ids
// of its variants from the prior rule's variants of the same name), and says whether the list is
// unchanged. Ids are kept only when the whole list is what the prior state holds, rule for rule: no
// write is sent.
func matchPriorRules(ctx context.Context, planned, prior []ruleModel) (unchanged bool) {
	byName := indexByName(len(prior), func(j int) (string, bool) { return prior[j].Name.ValueString(), true })
	unchanged = len(planned) == len(prior)
	for i := range planned {
		p := &planned[i]
		p.ID, p.BaseID = types.StringUnknown(), types.StringUnknown()
		p.ScheduledRollouts = types.ListUnknown(scheduledRolloutType)
		if p.Name.IsUnknown() {
			p.Variants = plannedVariantIDs(p.Variants, types.List{})
			unchanged = false
			continue
		}
		j, ok := byName.take(p.Name.ValueString())
		if !ok {
			p.Variants = plannedVariantIDs(p.Variants, types.List{})
			unchanged = false
			continue
		}
		p.BaseID = prior[j].BaseID
		p.Variants = plannedVariantIDs(p.Variants, prior[j].Variants)
		if j != i || !sameRuleContent(ctx, *p, prior[j]) {
			unchanged = false
		}
	}
	if unchanged {
		for i := range planned {
			planned[i].ID, planned[i].ScheduledRollouts = prior[i].ID, prior[i].ScheduledRollouts
		}
	}
	return unchanged
}

// notTakenWords explain, for a target, a write answered with other rules than were sent: why the
// service may do that (cause, a sentence or "") and a remedy beside the console (", or ...", or "").
type notTakenWords struct{ cause, remedy string }
