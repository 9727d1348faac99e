// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// Where an experiment stands is moved the service's way (PUT /experiments/{id}/start, make_decision, abandon, archive), never by writing status:
// after its fields are written, the control group is set by id (known once the groups are) and the
// moves from the service's status to the planned one are made, in one apply.

// experimentMove is one move of the service's from one status to another.
type experimentMove struct {
	from, to string
}

// experimentMoves are the moves a configuration may ask for, and what each does; setup →
// decision_made is none of them: a decision rests on an experiment that has run. A reset (PUT /experiments/{id}/reset)
// puts a started experiment but a decided one back in setup; to active from a concluded status
// it is followed by a start.
var experimentMoves = map[experimentMove]string{
	{console.ExperimentSetup, console.ExperimentActive}:        "start",
	{console.ExperimentSetup, console.ExperimentAbandoned}:     "abandon",
	{console.ExperimentActive, console.ExperimentDecisionMade}: "make a decision on",
	{console.ExperimentActive, console.ExperimentAbandoned}:    "abandon",
	// Stopped by the service, its decision deferred: a decision or (experiment_stopped) an abandon
	// may still follow.
	{console.ExperimentStopped, console.ExperimentDecisionMade}: "make a decision on",
	{console.AssignmentStopped, console.ExperimentDecisionMade}: "make a decision on",
	{console.ExperimentStopped, console.ExperimentAbandoned}:    "abandon",
	{console.ExperimentActive, console.ExperimentSetup}:         "reset",
	{console.ExperimentAbandoned, console.ExperimentSetup}:      "reset",
	{console.ExperimentStopped, console.ExperimentSetup}:        "reset",
	{console.AssignmentStopped, console.ExperimentSetup}:        "reset",
	{console.ExperimentAbandoned, console.ExperimentActive}:     "reset and start",
	{console.ExperimentStopped, console.ExperimentActive}:       "reset and start",
	{console.AssignmentStopped, console.ExperimentActive}:       "reset and start",
}

// resets reports a move that begins with a reset.
func resets(from, to string) bool {
	what := experimentMoves[experimentMove{from, to}]
	return what == "reset" || what == "reset and start"
}

// settleExperiment sets the planned control group and makes the planned move of e, the experiment as the
// write before answered it; it returns the experiment as the service last answered, also when a
// step fails (the error is in diags), so that the state holds what the service holds.
// prior is the control group the state holds (null at create): a read without controlGroupID keeps
// it, and it is written again only when the plan changes it.
func settleExperiment(ctx context.Context, data *providerData, op *framework.Operation, e *console.Experiment, plan experimentModel,
	prior types.String, diags *diag.Diagnostics) *console.Experiment {
	c := data.client
	id := e.ID
	fail := func(what string, err error) *console.Experiment {
		framework.APIFailure{Op: what, Object: fmt.Sprintf("experiment %q", id)}.Add(ctx, diags, op, err)
		return e
	}
	if name, ok := framework.KnownString(plan.ControlGroup); ok && name != controlGroupName(e, prior) {
		if want := groupIDOf(ctx, e, plan, name); want != "" && want != e.ControlGroupID {
			got, err := c.UpdateExperiment(ctx, id, console.ExperimentFields{ControlGroupID: &want})
			if err != nil {
				return fail("set the control group of", err)
			}
			e = keepGroupIDs(got, e)
		}
	}
	to, ok := framework.KnownString(plan.Status)
	// An experiment that stays archived keeps, beneath the archive, the status the plan holds
	// (readArchived); ModifyPlan refused any move of it.
	if !ok || to == e.Status || e.Status == console.ExperimentArchived {
		return e
	}
	what, allowed := experimentMoves[experimentMove{e.Status, to}]
	if !allowed { // the plan checked the state's status; the service's moved since
		diags.AddAttributeError(statusPath, "Experiment cannot move to "+to, experimentMoveRefusal(id, e.Status, to))
		return e
	}
	reason := plan.DecisionReason.ValueString()
	var got *console.Experiment
	var err error
	if resets(e.Status, to) {
		if got, err = c.ResetExperiment(ctx, id); err != nil {
			return fail("reset", err)
		}
		e = keepGroupIDs(got, e)
	}
	switch to {
	case console.ExperimentSetup:
		return e
	case console.ExperimentActive:
		got, err = c.StartExperiment(ctx, id)
	case console.ExperimentAbandoned:
		got, err = c.AbandonExperiment(ctx, id, reason)
	case console.ExperimentDecisionMade:
		name := plan.LaunchedGroup.ValueString()
		group := groupIDOf(ctx, e, plan, name)
		if group == "" {
			diags.AddAttributeError(launchedGroupPath, "Launched group not in the experiment",
				fmt.Sprintf("Experiment %q has no group named %q to ship: it holds %s.", id, name, framework.QuoteList(groupNamesOf(e))))
			return e
		}
		got, err = c.MakeExperimentDecision(ctx, id, group, reason, plan.RemoveTargeting.ValueBool())
	}
	if err != nil {
		return fail(what, err)
	}
	return keepGroupIDs(got, e)
}

// keepGroupIDs fills the group ids a later answer leaves out (the document's reads give the first
// group's alone) with those an earlier answer gave the group of the same name.
func keepGroupIDs(later, earlier *console.Experiment) *console.Experiment {
	for i := range later.Groups {
		g := &later.Groups[i]
		if g.ID != "" {
			continue
		}
		if was := earlier.GroupNamed(g.Name); was != nil {
			g.ID = was.ID
		}
	}
	return later
}

// groupIDOf is the service's id of the group named name: the read's, else the plan's (which holds
// the state's), since a read may leave a group's id out.
func groupIDOf(ctx context.Context, e *console.Experiment, plan experimentModel, name string) string {
	if id := groupIDs(e)[name]; id != "" {
		return id
	}
	if e.GroupNamed(name) == nil || !framework.ElementsKnown(plan.Groups) {
		return ""
	}
	groups, _ := framework.ListModels[experimentGroupModel](ctx, plan.Groups)
	for _, g := range groups {
		if id, ok := framework.KnownString(g.ID); ok && g.Name.ValueString() == name {
			return id
		}
	}
	return ""
}

func groupNamesOf(e *console.Experiment) []string {
	names := make([]string, len(e.Groups))
	for i, g := range e.Groups {
		names[i] = g.Name
	}
	return names
}

// experimentMoveRefusal says why the service cannot move an experiment from one status to another,
// and what to do instead.
func experimentMoveRefusal(id, from, to string) string {
	var why string
	switch {
	case to == console.ExperimentStopped || to == console.AssignmentStopped:
		why = "only the service stops an experiment"
	case from == console.ExperimentAbandoned:
		why = "an abandoned experiment has no decision to make: to run it again, reset it (status = \"setup\", or \"active\" to start it again at once), which starts its results over"
	case from == console.ExperimentStopped || from == console.AssignmentStopped:
		why = "the service stopped it (" + from + "): a decision (status = \"decision_made\") may still follow"
		if from == console.ExperimentStopped {
			why += ", or an abandon (status = \"abandoned\")"
		}
	case from == console.ExperimentDecisionMade && to == console.ExperimentAbandoned:
		why = "a decision has been made and shipped a group: a decided experiment cannot be abandoned"
	case from == console.ExperimentDecisionMade:
		why = "a decision has been made and shipped a group: a decided experiment is neither reset nor started again"
	case from == console.ExperimentSetup && to == console.ExperimentDecisionMade:
		why = "a decision is made on an experiment that has run: start it first (status = \"active\") and decide once it has results"
	default:
		why = "the service has no such move"
	}
	return fmt.Sprintf("Experiment %q is %s and cannot move to %s: %s. To run another experiment, declare a new "+
		"featureconsole_experiment block with its own experiment_id beside this one; to keep it as it is, set status = %q.", id, from, to, why, from)
}

// setExperimentArchived archives (archive) or unarchives e, the experiment as last answered; it returns the
// experiment as the service then answers, or e when the move fails (the error is in diags).
func setExperimentArchived(ctx context.Context, data *providerData, op *framework.Operation, e *console.Experiment, archive bool,
	diags *diag.Diagnostics) *console.Experiment {
	var got *console.Experiment
	var err error
	what := "archive"
	if archive {
		got, err = data.client.ArchiveExperiment(ctx, e.ID, "Archived by Terraform (archived = true)")
	} else {
		what = "unarchive"
		got, err = data.client.UnarchiveExperiment(ctx, e.ID)
	}
	if err != nil {
		framework.APIFailure{Op: what, Object: fmt.Sprintf("experiment %q", e.ID)}.Add(ctx, diags, op, err)
		return e
	}
	return keepGroupIDs(got, e)
}

// archiveExperiment archives the experiment on destroy; one already archived, or gone, is left. A
// running one is abandoned first with reason (abandon_reason_on_destroy; ModifyPlan refused the
// destroy without one): the service archives an experiment after a decision, an abandon or a reset.
func archiveExperiment(ctx context.Context, op *framework.Operation, c *console.Client, id, reason string, diags *diag.Diagnostics) {
	e, err := c.GetExperiment(ctx, id)
	switch {
	case console.NotFound(err):
		return
	case err == nil && e.Status == console.ExperimentArchived:
		return
	case err == nil && !archivable(e.Status) && abandonable(e.Status) && reason != "":
		if _, err := c.AbandonExperiment(ctx, id, reason); err != nil {
			framework.APIFailure{Op: "abandon", Object: fmt.Sprintf("experiment %q", id)}.Add(ctx, diags, op, err)
			return
		}
	}
	_, err = c.ArchiveExperiment(ctx, id, "Archived by Terraform on destroy")
	if err == nil || console.NotFound(err) {
		return
	}
	if console.Refused(err) {
		if e, rerr := c.GetExperiment(ctx, id); rerr == nil && strings.EqualFold(e.Status, console.ExperimentArchived) {
			return
		}
	}
	framework.APIFailure{Op: "archive", Object: fmt.Sprintf("experiment %q", id)}.Add(ctx, diags, op, err)
}
