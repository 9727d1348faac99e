// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// Archived gates (PUT /gates/{id}/archive): `archived` is the desired state of the gate, so a
// gate archived in the console is brought back by apply, before any other write of it (the service
// refuses writes of an archived gate's fields and rules); `archive_on_destroy` makes destroy archive
// the gate instead of deleting it.

// setGateArchived archives (archive) or unarchives the gate.
func setGateArchived(ctx context.Context, data *providerData, gateID string, archive bool) (*console.Gate, error) {
	if archive {
		return data.client.ArchiveGate(ctx, gateID, "")
	}
	return data.client.UnarchiveGate(ctx, gateID, "")
}

// archiveGateOnDestroy archives the gate that destroy keeps (archive_on_destroy). A gate attached to a
// release pipeline is detached first, while the service still takes changes of it: an archived gate
// takes no changes at all, detaching included, and the service deletes no pipeline a gate is
// attached to, so an archived gate left attached would keep its pipeline from ever being deleted (in
// this destroy, or any later one). An archived gate fails every check, so the pipeline has nothing
// left to roll out for it; the archive reason names the pipeline it was attached to. A gate already
// archived (archived, as the refresh found it) is done: the service refuses a second archive with a
// 400 ("already archived"), which would fail every destroy of it. The same 400 for a gate archived
// since the refresh is taken as done too, once a read shows it archived.
func archiveGateOnDestroy(ctx context.Context, data *providerData, op *framework.Operation, gateID, pipelineID string, archived bool, diags *diag.Diagnostics) {
	if archived {
		if pipelineID != "" {
			diags.AddWarning(fmt.Sprintf("Archived gate %q stays attached to release pipeline %q", gateID, pipelineID),
				fmt.Sprintf("Gate %[1]q was archived already, so destroy left it as it is (archive_on_destroy = true). The service "+
					"refuses every change of an archived gate, detaching it included, and deletes no release pipeline a gate is "+
					"attached to: release pipeline %[2]q cannot be deleted until the gate is unarchived, detached and archived "+
					"again in the console. Next time, detach a gate (release_pipeline_id = null) before archiving it with "+
					"archived = true.", gateID, pipelineID))
		}
		return
	}
	reason := detachBeforeArchive(ctx, data, gateID, diags)
	restoreRemovedRules(ctx, data, gateID, diags)
	_, err := data.client.ArchiveGate(ctx, gateID, reason)
	if err == nil {
		return
	}
	if console.NotFound(err) {
		return
	}
	if console.Refused(err) {
		if g, gerr := data.client.GetGate(ctx, gateID); gerr == nil && g.Archived() {
			return
		}
	}
	archiveFailure(gateID, true).Add(ctx, diags, op, err)
}

// detachBeforeArchive detaches the gate destroy archives from its release pipeline (see
// archiveGateOnDestroy) and returns the archive reason that says so. A detach that fails (held for
// review, refused) leaves the gate attached with a warning: the archive goes ahead, as destroy asked.
func detachBeforeArchive(ctx context.Context, data *providerData, gateID string, diags *diag.Diagnostics) string {
	g, err := data.client.GetGate(ctx, gateID)
	if err != nil || g.ReleasePipelineID == "" || g.Archived() {
		return ""
	}
	pipelineID := g.ReleasePipelineID
	if _, err := data.client.UpdateGate(ctx, gateID, console.GateFields{ReleasePipelineID: console.Unlinked()}); err != nil {
		diags.AddWarning(fmt.Sprintf("Gate %q archived while attached to release pipeline %q", gateID, pipelineID),
			fmt.Sprintf("Destroy detaches a gate it archives from its release pipeline first, because the service refuses "+
				"every change of an archived gate and deletes no pipeline a gate is attached to. Detaching gate %q failed "+
				"(%s), so release pipeline %q cannot be deleted until the gate is unarchived, detached and archived again in "+
				"the console.", gateID, err.Error(), pipelineID))
		return ""
	}
	return fmt.Sprintf("Archived by terraform destroy (archive_on_destroy); detached from release pipeline %q first.", pipelineID)
}

// restoreRemovedRules writes back, before destroy archives the gate, the rules a
// featureconsole_gate_rules without keep_on_destroy removed earlier in the same destroy: Terraform
// destroys the rules before the gate, and the archived gate is to keep them. A gate attached to a
// pipeline got them back already when its destroy aborted the run that removing them started; where
// they cannot be written back (a pipeline that would roll them out again, a review, a refusal) a
// warning says the archived gate keeps none, and how to keep them next time.
func restoreRemovedRules(ctx context.Context, data *providerData, gateID string, diags *diag.Diagnostics) {
	v, removed := data.rulesRemoved.Load(gateID)
	if !removed {
		return
	}
	rules, _ := v.([]console.Rule)
	if len(rules) == 0 {
		return
	}
	g, err := data.client.GetGate(ctx, gateID)
	if err == nil && len(g.Rules) > 0 {
		return
	}
	why := ""
	switch {
	case err != nil:
		why = "the gate could not be read: " + err.Error()
	case g.ReleasePipelineID != "":
		why = fmt.Sprintf("writing them back would start a run of release pipeline %q", g.ReleasePipelineID)
	case data.client.RespectsReviewSettings():
		why = "writing them back could be held for review"
	default:
		if _, err = data.client.UpdateGateRules(ctx, gateID, rules); err == nil {
			diags.AddWarning(fmt.Sprintf("Rules of gate %q written back before archiving", gateID),
				fmt.Sprintf("Destroy removed the rules of gate %q (its featureconsole_gate_rules has no keep_on_destroy = true), "+
					"then archived the gate (archive_on_destroy = true): the rules were written back first, so the archived gate "+
					"holds them. To leave them untouched next time, set keep_on_destroy = "+
					"featureconsole_gate.<name>.archive_on_destroy in the gate's featureconsole_gate_rules.", gateID))
			return
		}
		why = "the service refused them: " + err.Error()
	}
	diags.AddWarning(fmt.Sprintf("Gate %q archived without its rules", gateID),
		fmt.Sprintf("Destroy archived gate %q (archive_on_destroy = true), but its featureconsole_gate_rules had removed "+
			"its rules earlier in this run, and they were not written back (%s), so the archived gate keeps none. To keep "+
			"them next time, set keep_on_destroy = featureconsole_gate.<name>.archive_on_destroy in the gate's "+
			"featureconsole_gate_rules.", gateID, why))
}

// readNotingArchived is GetGate for the read-back of a failed create, noting in archived whether the
// gate it found is archived.
func readNotingArchived(data *providerData, archived *bool) func(context.Context, string) (*console.Gate, error) {
	return func(ctx context.Context, id string) (*console.Gate, error) {
		g, err := data.client.GetGate(ctx, id)
		*archived = err == nil && g.Archived()
		return g, err
	}
}
