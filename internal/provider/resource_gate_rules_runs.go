// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// What featureconsole_gate_rules says about what a write of the rules set going beyond the rules:
// a gate attached to a release pipeline rolls every change of its rules out through a run of it,
// which locks the rules until it ends (and puts the old ones back if aborted); some service
// versions apply only changes to rules the gate already holds.

// startedRun is the run a write of the rules of a gate attached to a release pipeline started: the
// gate's newest active run. nil with a nil error is a write the service applied at once, without a
// run (contract §2 round four).
func (r *gateRulesResource) startedRun(ctx context.Context, gateID string) (*console.ReleasePipelineTrigger, error) {
	runs, err := activeRunsOfGate(ctx, r.data.client, gateID)
	return newestRun(runs), err
}

// warnRolloutStarted warns, after a write to a gate attached to a release pipeline, of the run the
// write started, or that it started none and the change is live now; runs that cannot be listed
// are said too, without failing the apply that wrote. superseded is the run the write aborted
// first, if any.
func (r *gateRulesResource) warnRolloutStarted(ctx context.Context, diags *diag.Diagnostics, gateID string, g *console.Gate, superseded *console.ReleasePipelineTrigger) {
	if superseded != nil {
		diags.AddWarning(fmt.Sprintf("Release pipeline run %q of gate %q aborted", superseded.ID, gateID),
			fmt.Sprintf("Run %q was rolling out an earlier change of the rules of gate %q (%s); it was aborted so that "+
				"this change could be written, which puts back the rules the gate had before that earlier change and then "+
				"replaces them with this change's.", superseded.ID, gateID, describeRun(superseded)))
	}
	if g.ReleasePipelineID == "" {
		return
	}
	run, err := r.startedRun(ctx, gateID)
	switch {
	case err != nil:
		diags.AddWarning(fmt.Sprintf("Rules of gate %q may roll out through release pipeline %q", gateID, g.ReleasePipelineID),
			fmt.Sprintf("The gate is attached to release pipeline %q, so the service may roll the change out through a run "+
				"of it, but its runs could not be listed: %s. %s", g.ReleasePipelineID, framework.FailureAccount(err), gateRulesTarget.followAndDrive(gateID)))
	case run == nil:
		diags.AddWarning(fmt.Sprintf("Rules of gate %q are live now, without a rollout", gateID),
			fmt.Sprintf("The gate is attached to release pipeline %q, but the service applied this change of its rules at "+
				"once and started no run of the pipeline: the new rules are live now wherever they apply, without a staged "+
				"rollout.", g.ReleasePipelineID))
	default:
		diags.AddWarning(fmt.Sprintf("Rules of gate %q roll out through release pipeline run %q", gateID, run.ID),
			fmt.Sprintf("The gate is attached to release pipeline %q: this change of its rules started run %q (%s, phase %q), "+
				"which rolls the new rules out phase by phase. %s\n\nUntil the run ends, the service refuses further changes of "+
				"the gate's rules (on_active_run says what an apply does then). Aborting the run puts back the rules the gate had before this apply; the next plan then "+
				"shows them as a change to make again.", run.ReleasePipelineID, run.ID, run.Status, run.CurrentPhase, gateRulesTarget.followAndDrive(gateID)))
	}
}

// warnRulesRemoved says what a destroy of the rules of a gate attached to a release pipeline did:
// the run it aborted first (superseded), and the run, if any, the removal started. Nothing is left
// to follow or drive: destroying the gate too aborts that run, and otherwise it only rolls out the
// removal.
func (r *gateRulesResource) warnRulesRemoved(ctx context.Context, diags *diag.Diagnostics, gateID string, g *console.Gate, superseded *console.ReleasePipelineTrigger) {
	var did []string
	if superseded != nil {
		did = append(did, fmt.Sprintf("Destroy aborted run %q of release pipeline %q (%s), which was rolling out an "+
			"earlier change of the rules of gate %q, and then removed the gate's rules.", superseded.ID,
			superseded.ReleasePipelineID, describeRun(superseded), gateID))
	}
	if g.ReleasePipelineID != "" {
		switch run, err := r.startedRun(ctx, gateID); {
		case err != nil:
			did = append(did, fmt.Sprintf("The runs of release pipeline %q could not be listed to tell whether the removal "+
				"rolls out through one: %s.", g.ReleasePipelineID, framework.FailureAccount(err)))
		case run != nil:
			did = append(did, fmt.Sprintf("The service rolls the removal out through run %q of release pipeline %q (%s, "+
				"phase %q); destroying the gate as well aborts it.", run.ID, run.ReleasePipelineID, run.Status, run.CurrentPhase))
		case superseded != nil:
			did = append(did, "The removal is live now.")
		}
	}
	if len(did) == 0 {
		return
	}
	summary := fmt.Sprintf("Rules of gate %q removed", gateID)
	if superseded != nil {
		summary = fmt.Sprintf("Release pipeline run %q of gate %q aborted", superseded.ID, gateID)
	}
	diags.AddWarning(summary, strings.Join(did, " "))
}

// lockedByRun says what to do about a run that locks the gate's rules, once: on_active_run for
// every Terraform version, the action for 1.14 and later.
// timeout is the operation whose timeout bounds a wait (create or update).
func lockedByRun(gateID, timeout string, run *console.ReleasePipelineTrigger) string {
	return fmt.Sprintf("Release pipeline %q is rolling out an earlier change of the rules of gate %q (%s), and the "+
		"service refuses changes of the gate's rules until the run ends. Nothing was changed.\n\n"+
		"What to do: set on_active_run = \"wait\" in this featureconsole_gate_rules to wait for the run to end before "+
		"writing (within timeouts.%s), or on_active_run = \"abort\" to abort the run and roll out this change "+
		"instead, and apply again. With Terraform 1.14 or later you may instead end the run with the action "+
		"featureconsole_release_pipeline_trigger (gate_id = %q, operation = \"rollout\" or \"abort\"); the data source "+
		"featureconsole_release_pipeline_triggers follows it.",
		run.ReleasePipelineID, gateID, describeRun(run), timeout, gateID)
}

// writeRules writes the gate's rules through the run handling gates and dynamic configs share
// (rulesTarget.writeRules): a refusal for an active run's lock is handled as onActiveRun says.
// superseded is the run aborted.
func (r *gateRulesResource) writeRules(ctx context.Context, op *framework.Operation, gateID string, rules []console.GateRule, onActiveRun string, diags *diag.Diagnostics) (g *console.Gate, superseded *console.ReleasePipelineTrigger, err error) {
	h, superseded, err := gateRulesTarget.writeRules(ctx, op, r.data, gateID, rules, onActiveRun, diags)
	if h != nil {
		g = h.gate
	}
	return g, superseded, err
}

// addRulesNotTaken reports a write of the rules that the service answered with other rules than
// were sent: some service versions apply only changes to rules the gate already holds. created
// says whether it was a create (which saves nothing).
func addRulesNotTaken(diags *diag.Diagnostics, gateID, difference string, created bool, rerun string) {
	kept := "The Terraform state holds the rules the gate holds now, so the next plan shows what is left to do."
	if created {
		kept = "Nothing was saved in the Terraform state; the gate keeps the rules listed above."
	}
	diags.AddError(fmt.Sprintf("Rules of gate %q not written as sent", gateID),
		fmt.Sprintf("The service answered the write of the rules of gate %q with other rules than were sent: %s.\n\n"+
			"Some versions of the service apply only changes to rules a gate already holds: they ignore added rules and "+
			"keep removed ones, and still answer success. %s Add or remove those rules in the console (or have the "+
			"gate's project moved to a current service version), then run %s again.", gateID, difference, kept, rerun))
}

var gateRulesTarget = rulesTarget{
	noun: "gate", typeName: "featureconsole_gate_rules", idAttr: gateIdentityAttr,
	read: func(ctx context.Context, c *console.Client, id string) (*ruleHolder, error) {
		g, err := c.GetGate(ctx, id)
		return gateHolder(g), err
	},
	write: func(ctx context.Context, c *console.Client, id string, rules []console.GateRule) (*ruleHolder, error) {
		g, err := c.UpdateGateRules(ctx, id, rules)
		return gateHolder(g), err
	},
	runs:   activeRunsOfGate,
	filter: func(id string) console.TriggerFilter { return console.TriggerFilter{GateID: id} },
}

func gateHolder(g *console.Gate) *ruleHolder {
	if g == nil {
		return nil
	}
	return &ruleHolder{ID: g.ID, ReleasePipelineID: g.ReleasePipelineID, Rules: g.Rules, ActiveReview: g.ActiveReview, gate: g}
}
