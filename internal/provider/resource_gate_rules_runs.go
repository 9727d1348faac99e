// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// What featureconsole_gate_rules says about what a write of the rules set going beyond the rules:
// a gate attached to a release pipeline rolls every change of its rules out through a run of it,
// which locks the rules until it ends (and puts the old ones back if aborted); some service
// versions apply only changes to rules the gate already holds.

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

// followAndDrive says how to follow a run and how to drive it.
func followAndDrive(gateID string) string {
	return fmt.Sprintf("Follow it with the data source featureconsole_release_pipeline_triggers (gate_id = %q), and drive it "+
		"with the action featureconsole_release_pipeline_trigger (gate_id = %q, operation = \"approve\", \"pause\", "+
		"\"unpause\", \"skip\", \"rollout\" or \"abort\").", gateID, gateID)
}

// warnRolloutStarted warns, after a write to a gate attached to a release pipeline, of the run the
// write started; a run that cannot be found is said too, without failing the apply that wrote.
func (r *gateRulesResource) warnRolloutStarted(ctx context.Context, diags *diag.Diagnostics, gateID string, g *console.Gate) {
	if g.ReleasePipelineID == "" {
		return
	}
	runs, err := activeRunsOfGate(ctx, r.data.client, gateID)
	run := newestRun(runs)
	if err != nil || run == nil {
		why := "no active run of it was found"
		if err != nil {
			why = "its runs could not be listed: " + failureAccount(err)
		}
		diags.AddWarning(fmt.Sprintf("Rules of gate %q roll out through release pipeline %q", gateID, g.ReleasePipelineID),
			fmt.Sprintf("The gate is attached to release pipeline %q, so the service rolls the change out through a run of it, "+
				"but %s. %s", g.ReleasePipelineID, why, followAndDrive(gateID)))
		return
	}
	diags.AddWarning(fmt.Sprintf("Rules of gate %q roll out through release pipeline run %q", gateID, run.ID),
		fmt.Sprintf("The gate is attached to release pipeline %q: this change of its rules started run %q (%s, phase %q), "+
			"which rolls the new rules out phase by phase. %s\n\nUntil the run ends, the service refuses further changes of "+
			"the gate's rules. Aborting the run puts back the rules the gate had before this apply; the next plan then "+
			"shows them as a change to make again.", run.ReleasePipelineID, run.ID, run.Status, run.CurrentPhase, followAndDrive(gateID)))
}

// activeRun is the run that locks a gate's rules, when err is the service refusing a write (400)
// while the gate has one.
func (r *gateRulesResource) activeRun(ctx context.Context, gateID string, err error) *console.ReleasePipelineTrigger {
	var ae *console.APIError
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusBadRequest {
		return nil
	}
	runs, lerr := activeRunsOfGate(ctx, r.data.client, gateID)
	if lerr != nil {
		return nil
	}
	return newestRun(runs)
}

// lockedByRun says which run locks the gate's rules and what to do.
func lockedByRun(gateID string, run *console.ReleasePipelineTrigger) string {
	return fmt.Sprintf("Release pipeline %q is rolling out an earlier change of the rules of gate %q in run %q (%s, phase %q), "+
		"and the service refuses changes of the gate's rules until the run ends. Nothing was changed; the Terraform state "+
		"keeps what the service holds.\n\nWhat to do: wait for the run to complete, or end it with the action "+
		"featureconsole_release_pipeline_trigger: operation = \"rollout\" to finish rolling out the earlier change, or "+
		"\"abort\" to put back the rules the gate had before it. Then apply again. %s",
		run.ReleasePipelineID, gateID, run.ID, run.Status, run.CurrentPhase, followAndDrive(gateID))
}

// addRulesNotTaken reports a write of the rules that the service answered with other rules than
// were sent: some service versions apply only changes to rules the gate already holds. created
// says whether it was a create (which saves nothing).
func addRulesNotTaken(diags *diag.Diagnostics, gateID, difference string, created bool) {
	kept := "The Terraform state holds the rules the gate holds now, so the next plan shows what is left to do."
	if created {
		kept = "Nothing was saved in the Terraform state; the gate keeps the rules listed above."
	}
	diags.AddError(fmt.Sprintf("Rules of gate %q not written as sent", gateID),
		fmt.Sprintf("The service answered the write of the rules of gate %q with other rules than were sent: %s.\n\n"+
			"Some versions of the service apply only changes to rules a gate already holds: they ignore added rules and "+
			"keep removed ones, and still answer success. %s Add or remove those rules in the console (or have the "+
			"gate's project moved to a current service version), then apply again.", gateID, difference, kept))
}
