// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// ValidateConfig checks what the service would refuse and single-attribute validators cannot see:
// groups named uniquely with sizes summing to 100 and parameter values JSON objects, control and
// launched groups naming groups, and the reason a decision or an abandonment needs.
func (r *experimentResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m experimentModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	framework.UniqueNames(m.Groups, groupsPath, &resp.Diagnostics, func(first, i int, name string) (string, string) {
		return "Duplicate group name", fmt.Sprintf("Group names must be unique within an experiment (groups are matched by "+
			"name): groups[%d] and groups[%d] are both named %q.", first, i, name)
	})
	// The groups are read attribute by attribute: a model would not take parameter values that are
	// not JSON, which are the ones to explain.
	groups := framework.KnownElements(m.Groups)
	names, sizesKnown, hundredths := map[string]bool{}, framework.ElementsKnown(m.Groups), int64(0)
	for i, el := range groups {
		g, _ := el.(types.Object)
		attrs := g.Attributes()
		if pv, ok := attrs["parameter_values"].(basetypes.StringValuable); ok {
			if sv, d := pv.ToStringValue(ctx); !d.HasError() {
				checkParameterValues(sv, groupsPath.AtListIndex(i).AtName("parameter_values"), &resp.Diagnostics)
			}
		}
		if n, ok := attrs["name"].(types.String); ok && !n.IsUnknown() && !n.IsNull() {
			names[n.ValueString()] = true
		} else {
			sizesKnown = false
		}
		if size, ok := attrs["size"].(types.Number); ok && !size.IsUnknown() && !size.IsNull() {
			f, _ := percentOf(size)
			hundredths += int64(math.Round(f * 100))
		} else {
			sizesKnown = false
		}
	}
	if sizesKnown && len(groups) > 0 && hundredths != 100*100 {
		resp.Diagnostics.AddAttributeError(groupsPath, "Group sizes do not sum to 100",
			fmt.Sprintf("The sizes of an experiment's groups are the shares of its users and must sum to 100; these sum to %s.",
				framework.PercentFromFloat(float64(hundredths)/100).ValueBigFloat().Text('f', -1)))
	}
	known := sizesKnown || (framework.ElementsKnown(m.Groups) && len(names) == len(groups))
	for _, ref := range []struct {
		v    types.String
		at   path.Path
		what string
	}{{m.ControlGroup, controlGroupPath, "control_group"}, {m.LaunchedGroup, launchedGroupPath, "launched_group"}} {
		if name, ok := framework.KnownString(ref.v); ok && known && !names[name] {
			resp.Diagnostics.AddAttributeError(ref.at, "No such group",
				fmt.Sprintf("%s = %q names no group of the experiment; its groups are %s.", ref.what, name, framework.QuoteList(sortedNames(names))))
		}
	}
	status, ok := framework.KnownString(m.Status)
	if !ok && !m.Status.IsNull() {
		return
	}
	if status == console.ExperimentDecisionMade && m.LaunchedGroup.IsNull() {
		resp.Diagnostics.AddAttributeError(launchedGroupPath, "Decision without a launched group",
			`status = "decision_made" ships one group: name it with launched_group (such as launched_group = "Green").`)
	}
	if (status == console.ExperimentDecisionMade || status == console.ExperimentAbandoned) && m.DecisionReason.IsNull() {
		example := "Green: +3.1% purchases"
		if status == console.ExperimentAbandoned {
			example = "Too little traffic to measure"
		}
		resp.Diagnostics.AddAttributeError(decisionReasonPath, "Decision without a reason",
			fmt.Sprintf("status = %q needs decision_reason: the service records why (such as decision_reason = %q).", status, example))
	}
}

func sortedNames(names map[string]bool) []string {
	out := make([]string, 0, len(names))
	for n := range names {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// checkParameterValues requires a JSON object, and says how to write one: the JSON type's own
// error for text that is not JSON says only that.
func checkParameterValues(v types.String, at path.Path, diags *diag.Diagnostics) {
	if v.IsNull() || v.IsUnknown() {
		return
	}
	raw := []byte(v.ValueString())
	what := "is not JSON"
	switch {
	case !json.Valid(raw):
	case framework.JSONKind(raw) != '{':
		what = "is JSON but not an object"
	default:
		return
	}
	diags.AddAttributeError(at, "Parameter values are not a JSON object",
		fmt.Sprintf("%s must be a JSON object, written with jsonencode({...}), such as parameter_values = "+
			"jsonencode({ color = \"green\" }); got %s, which %s.", at, framework.Truncate(string(raw), 80), what))
}

// ModifyPlan plans what the configuration omits as what the service holds, each kept group's id,
// and the times a move sets; and refuses, before anything is sent, a move the service cannot make
// and a change of what a running experiment freezes.
func (r *experimentResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer r.checkAccess(ctx, req, resp)
	if req.Plan.Raw.IsNull() { // destroy
		var state experimentModel
		if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); !resp.Diagnostics.HasError() {
			refuseLosingResults(state, state.DeletionProtection, "destroy", &resp.Diagnostics)
			refuseArchivingRunning(state, "destroy", &resp.Diagnostics)
		}
		return
	}
	var plan, config experimentModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(framework.PlanIDAs(ctx, &resp.Plan, "experiment_id")...)
	id := plan.ExperimentID.ValueString()
	if req.State.Raw.IsNull() {
		if config.Status.IsNull() {
			plan.Status = types.StringValue(console.ExperimentSetup)
		}
		if config.LaunchedGroup.IsNull() {
			plan.LaunchedGroup = types.StringNull()
		}
		if config.DecisionReason.IsNull() {
			plan.DecisionReason = types.StringNull()
		}
		if to, ok := framework.KnownString(plan.Status); ok && (to == console.ExperimentDecisionMade || serviceSetStatus(to)) {
			resp.Diagnostics.AddAttributeError(statusPath, "Experiment cannot be created "+to, experimentCreateRefusal(id, to))
		}
		launchedWithoutDecision(config, plan, &resp.Diagnostics)
		refuseArchiving(id, plan, types.BoolValue(false), &resp.Diagnostics)
		r.planControlGroup(ctx, config, &plan, types.StringNull())
		if gate, ok := framework.KnownString(plan.TargetingGateID); ok && !resp.Diagnostics.HasError() {
			r.checkTargetingGate(ctx, id, gate, plan.Timeouts, false, &resp.Diagnostics)
		}
		resp.Diagnostics.Append(setPlanned(ctx, resp, plan)...)
		return
	}
	var state experimentModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !plan.ExperimentID.Equal(state.ExperimentID) {
		refuseLosingResults(state, plan.DeletionProtection, "replace", &resp.Diagnostics)
		refuseArchivingRunning(state, "replace", &resp.Diagnostics)
		return
	}
	from := state.Status.ValueString()
	for _, keep := range []struct {
		cfg types.String
		dst *types.String
		src types.String
	}{{config.Status, &plan.Status, state.Status}, {config.LaunchedGroup, &plan.LaunchedGroup, state.LaunchedGroup},
		{config.DecisionReason, &plan.DecisionReason, state.DecisionReason}} {
		if keep.cfg.IsNull() {
			*keep.dst = keep.src
		}
	}
	r.planControlGroup(ctx, config, &plan, state.ControlGroup)
	unarchiving := state.Archived.ValueBool() && !plan.Archived.IsUnknown() && !plan.Archived.ValueBool()
	if unarchiving && config.Status.IsNull() {
		plan.Status = types.StringUnknown() // the status the service puts back
	}
	to, known := framework.KnownString(plan.Status)
	if _, ok := experimentMoves[experimentMove{from, to}]; known && to != from && !ok {
		resp.Diagnostics.AddAttributeError(statusPath, "Experiment cannot move to "+to, experimentMoveRefusal(id, from, to))
	} else {
		// Only where the move is one: a refused move (back to active after a decision) says why first.
		launchedWithoutDecision(config, plan, &resp.Diagnostics)
	}
	if known && to == from && from == console.ExperimentDecisionMade && !plan.LaunchedGroup.IsUnknown() && !plan.LaunchedGroup.Equal(state.LaunchedGroup) {
		resp.Diagnostics.AddAttributeError(launchedGroupPath, "A decision cannot change",
			fmt.Sprintf("Experiment %q shipped group %s; a decision, once made, cannot be changed. To ship another group, "+
				"declare a new featureconsole_experiment block with its own experiment_id, or set launched_group = %s.", id, state.LaunchedGroup, state.LaunchedGroup))
	}
	if layer, ok := framework.KnownString(plan.LayerID); ok && !plan.LayerID.Equal(state.LayerID) &&
		(from != console.ExperimentSetup || state.Archived.ValueBool()) {
		resp.Diagnostics.AddAttributeError(path.Root("layer_id"), "Layer cannot change",
			fmt.Sprintf("Experiment %q is %s: it runs in layer %s, which the service takes at creation only, so layer_id = %q "+
				"would send nothing it takes. Nothing was sent. Set layer_id = %s; to run in layer %q, declare a new "+
				"featureconsole_experiment block with its own experiment_id beside this one.", id, from, state.LayerID, layer, state.LayerID, layer))
	}
	resetting := known && resets(from, to)
	if resetting { // the reset comes first, and clears the run the reason and the launched group were of
		planReset(id, config, &plan, &resp.Diagnostics)
	} else {
		frozenChanges(ctx, id, plan, state, &resp.Diagnostics)
		allocationLowered(id, plan, state, &resp.Diagnostics)
	}
	refuseArchiving(id, plan, state.Archived, &resp.Diagnostics)
	if state.Archived.ValueBool() && plan.Archived.ValueBool() && !resp.Diagnostics.HasError() && !experimentWritesNothing(ctx, plan, state) {
		resp.Diagnostics.AddAttributeError(archivedPath, fmt.Sprintf("Experiment %q is archived", id),
			fmt.Sprintf("Experiment %q is archived: the service takes no change of an archived experiment. Nothing was sent. "+
				"Set archived = false to unarchive it and make the change in the same apply (archived = true again in a "+
				"later apply archives it once more), or leave the experiment as it stands.", id))
	}
	moving := known && to != from
	if !resetting {
		unsentReason(id, config, plan, state, moving, &resp.Diagnostics)
	}
	if from == console.ExperimentDecisionMade && !state.RemoveTargeting.IsNull() && !plan.RemoveTargeting.IsUnknown() &&
		!plan.RemoveTargeting.Equal(state.RemoveTargeting) {
		resp.Diagnostics.AddAttributeError(removeTargetingPath, "Whom a decision ships to cannot change",
			fmt.Sprintf("Experiment %q is decision_made: its decision has shipped group %s, and remove_targeting is sent with "+
				"the decision alone (the service's reads do not say it), so a change now would send nothing. Nothing was "+
				"sent. Set remove_targeting = %t, as the state holds (after an import, false: the provider cannot read how "+
				"an earlier decision was made).", id, state.LaunchedGroup, state.RemoveTargeting.ValueBool()))
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if gate, ok := framework.KnownString(plan.TargetingGateID); ok && !plan.TargetingGateID.Equal(state.TargetingGateID) {
		r.checkTargetingGate(ctx, id, gate, plan.Timeouts, true, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	held, _ := framework.ListModels[experimentGroupModel](ctx, state.Groups)
	if framework.IsKnownList(plan.Groups) {
		plan.Groups = framework.MapObjects(ctx, plan.Groups, experimentGroupType, func(g *experimentGroupModel) {
			g.ID = types.StringUnknown()
			for _, s := range held {
				if s.Name.Equal(g.Name) {
					g.ID = s.ID
				}
			}
		}, &resp.Diagnostics)
	}
	plan.LaunchedGroupID, plan.StartTime, plan.EndTime, plan.DecisionTime = state.LaunchedGroupID, state.StartTime, state.EndTime, state.DecisionTime
	if resetting {
		plan.LaunchedGroupID, plan.StartTime, plan.EndTime, plan.DecisionTime = types.StringNull(), types.Int64Null(), types.Int64Null(), types.Int64Null()
	}
	if moving {
		if !resetting {
			plan.EndTime = types.Int64Unknown()
		}
		switch to {
		case console.ExperimentActive:
			plan.StartTime = types.Int64Unknown()
		case console.ExperimentDecisionMade:
			plan.LaunchedGroupID, plan.DecisionTime = types.StringUnknown(), types.Int64Unknown()
		}
	}
	resp.Diagnostics.Append(setPlanned(ctx, resp, plan)...)
	if !moving && experimentWritesNothing(ctx, plan, state) {
		resp.Diagnostics.Append(framework.KeepUnwritten(ctx, req.State, &resp.Plan, "last_modifier_id", "last_modifier_name")...)
	}
}

// launchedWithoutDecision refuses a launched_group configured where the plan makes no decision and
// holds none.
func launchedWithoutDecision(config, plan experimentModel, diags *diag.Diagnostics) {
	to, ok := framework.KnownString(plan.Status)
	if config.LaunchedGroup.IsNull() || config.LaunchedGroup.IsUnknown() || !ok || to == console.ExperimentDecisionMade {
		return
	}
	diags.AddAttributeError(launchedGroupPath, "Launched group without a decision",
		fmt.Sprintf(`launched_group names the group a decision ships, and the experiment would stand %s: set it `+
			`together with status = "decision_made", or remove it.`, to))
}

// planReset plans the reset of a started experiment (status back to setup, or to active from a
// concluded status): the service clears its run, so the decision's reason and launched group go
// with it, and a reason the configuration still gives would be sent with no move.
func planReset(id string, config experimentModel, plan *experimentModel, diags *diag.Diagnostics) {
	if config.DecisionReason.IsNull() {
		plan.DecisionReason = types.StringNull()
	} else if !config.DecisionReason.IsUnknown() {
		diags.AddAttributeError(decisionReasonPath, "A reset clears the reason",
			fmt.Sprintf("status = %q resets experiment %q: the service clears its run, the reason of its abandon or stop "+
				"included, and takes no reason with a reset. Nothing was sent. Remove decision_reason; give one again with "+
				"the next decision or abandon.", plan.Status.ValueString(), id))
	}
	if config.LaunchedGroup.IsNull() {
		plan.LaunchedGroup = types.StringNull()
	}
}

// refuseArchiving fails the plan of an archive (archived = true where held is false) of an
// experiment that the apply leaves where the service archives none: it archives after a decision,
// an abandon or a reset.
func refuseArchiving(id string, plan experimentModel, held types.Bool, diags *diag.Diagnostics) {
	to, ok := framework.KnownString(plan.Status)
	if !plan.Archived.ValueBool() || held.ValueBool() || !ok || archivable(to) {
		return
	}
	diags.AddAttributeError(archivedPath, fmt.Sprintf("Experiment %q cannot be archived %s", id, to),
		fmt.Sprintf("Experiment %q would stand %s when archived: the service archives an experiment after a decision, an "+
			"abandon or a reset (status = \"decision_made\", \"abandoned\" or \"setup\"), which this apply may make "+
			"before it archives. Nothing was sent. Set one of those statuses together with archived = true, or "+
			"archived = false.", id, to))
}

// refuseArchivingRunning fails the plan of a destroy or a replacement that archive_on_destroy would
// make archive an experiment the service archives none from (running, or stopped by the service)
// and destroy cannot abandon first: without abandon_reason_on_destroy, or in assignment_stopped,
// which no abandon leaves.
func refuseArchivingRunning(state experimentModel, what string, diags *diag.Diagnostics) {
	status := state.Status.ValueString()
	if !state.ArchiveOnDestroy.ValueBool() || state.Archived.ValueBool() || archivable(status) ||
		(abandonable(status) && !state.AbandonReasonOnDestroy.IsNull()) {
		return
	}
	id := state.ExperimentID.ValueString()
	how := "Destroying it"
	if what == "replace" {
		how = "Changing experiment_id replaces it, and that"
	}
	instead := "set abandon_reason_on_destroy (such as abandon_reason_on_destroy = \"Stopped early: the checkout was redesigned\") " +
		"and apply first: destroy then abandons it with that reason and archives it; or make a decision or abandon it " +
		"(status) before the destroy"
	if !abandonable(status) {
		instead = "make a decision first (status = \"decision_made\"): the service abandons no experiment in " + status
	}
	diags.AddAttributeError(path.Root("archive_on_destroy"), fmt.Sprintf("Experiment %q cannot be archived %s", id, status),
		fmt.Sprintf("Experiment %q is %s. %s would archive it (archive_on_destroy = true), and the service archives an "+
			"experiment only after a decision, an abandon or a reset. Nothing was sent. To keep it archived with its "+
			"results, %s.", id, status, how, instead))
}

// refuseLosingResults fails the plan of a destroy or a replacement that would delete a started
// experiment, and its results, while deletion_protection holds (the state's for a destroy, the
// configuration's for a replacement: both are the user's word at that plan). Archiving on destroy
// keeps the results, so it needs no protection.
func refuseLosingResults(state experimentModel, protection types.Bool, what string, diags *diag.Diagnostics) {
	status := state.Status.ValueString()
	if status == console.ExperimentSetup || state.ArchiveOnDestroy.ValueBool() || (!protection.IsNull() && !protection.ValueBool()) {
		return
	}
	id := state.ExperimentID.ValueString()
	how, instead, unprotect := "Destroying it", "", "set deletion_protection = false and apply first"
	if what == "replace" {
		unprotect = "set deletion_protection = false"
		how = "Changing experiment_id replaces it: that"
		instead = " To run another experiment, keep this experiment_id and declare a new featureconsole_experiment block " +
			"beside this one, with its own experiment_id."
	}
	diags.AddAttributeError(path.Root("deletion_protection"), fmt.Sprintf("Experiment %q is protected from deletion", id),
		fmt.Sprintf("Experiment %q is %s. %s would delete it and its results. Nothing was sent.%s To keep its results in "+
			"the console when it goes, set archive_on_destroy = true and apply first. Only to delete it with its results, "+
			"%s.", id, status, how, instead, unprotect))
}

// experimentCreateRefusal says why a new experiment cannot be created in the status to: the service
// creates it in setup or active, and the rest are moves of an experiment that has run, or the
// service's own.
func experimentCreateRefusal(id, to string) string {
	why := "a decision is made on an experiment that has run: create it with status = \"active\" and decide once it has results"
	if serviceSetStatus(to) {
		why = "only the console or the service puts an experiment there, once it exists"
	}
	return fmt.Sprintf("Experiment %q does not exist yet and cannot be created %s: %s. Nothing was sent.", id, to, why)
}

func setPlanned(ctx context.Context, resp *resource.ModifyPlanResponse, plan experimentModel) diag.Diagnostics {
	return resp.Plan.Set(ctx, &plan)
}

// planControlGroup plans an omitted control group as the one held (prior) while it stays a group,
// else the first group, as the service makes it.
func (r *experimentResource) planControlGroup(ctx context.Context, config experimentModel, plan *experimentModel, prior types.String) {
	if !config.ControlGroup.IsNull() {
		return
	}
	plan.ControlGroup = types.StringUnknown()
	if !framework.ElementsKnown(plan.Groups) {
		return
	}
	groups, d := framework.ListModels[experimentGroupModel](ctx, plan.Groups)
	if d.HasError() || len(groups) == 0 {
		return
	}
	for _, g := range groups {
		if g.Name.IsUnknown() {
			return
		}
		if g.Name.Equal(prior) {
			plan.ControlGroup = prior
			return
		}
	}
	plan.ControlGroup = groups[0].Name
}

// frozenChanges refuses what a started experiment freezes: while it is active, and after a
// decision, its groups' names, sizes and values (groups are matched by name: their order and
// descriptions may change), and once started its id_type and analytics_type.
func frozenChanges(ctx context.Context, id string, plan, state experimentModel, diags *diag.Diagnostics) {
	from := state.Status.ValueString()
	started := !state.StartTime.IsNull() && !state.StartTime.IsUnknown()
	frozen := from == console.ExperimentActive || from == console.ExperimentDecisionMade
	var fields []string
	if frozen && framework.ElementsKnown(plan.Groups) && framework.ElementsKnown(state.Groups) {
		fields = append(fields, groupChanges(ctx, plan.Groups, state.Groups)...)
	}
	if started {
		for _, f := range []struct {
			name        string
			plan, state types.String
		}{{"id_type", plan.IDType, state.IDType}, {"analytics_type", plan.AnalyticsType, state.AnalyticsType}} {
			if !f.plan.IsUnknown() && !f.plan.Equal(f.state) {
				fields = append(fields, fmt.Sprintf("%s (%s → %s)", f.name, f.state, f.plan))
			}
		}
	}
	if len(fields) == 0 {
		return
	}
	summary, why := "Cannot change a running experiment", "You can't edit the groups without restarting the experiment: "+
		"changing who sees what mid-run spoils its results, and the service refuses it."
	if from == console.ExperimentDecisionMade {
		summary, why = "Cannot change a decided experiment", "A decision has been made on its groups and shipped one of "+
			"them: the groups it was made on stay as they were."
	}
	instead := "To test other groups, declare a new featureconsole_experiment block with its own experiment_id beside this one."
	if from == console.ExperimentActive {
		instead = "To change them, reset the experiment in the same apply (status = \"setup\"), which starts its results " +
			"over; or, to keep this run and its results, declare a new featureconsole_experiment block with its own " +
			"experiment_id beside this one."
	}
	diags.AddError(summary,
		fmt.Sprintf("Experiment %q is %s: it cannot change %s. %s Allocation (only upward while it is active), "+
			"description, hypothesis, tags, metrics, duration, and the groups' order and descriptions may change. %s "+
			"Nothing was sent.", id, from, strings.Join(fields, ", "), why, instead))
}

// allocationLowered refuses a lower allocation of an active experiment: the service's docs say it
// cannot decrease without a reset.
func allocationLowered(id string, plan, state experimentModel, diags *diag.Diagnostics) {
	planned, ok1 := percentOf(plan.Allocation)
	held, ok2 := percentOf(state.Allocation)
	if state.Status.ValueString() != console.ExperimentActive || !ok1 || !ok2 || math.Round(planned*100) >= math.Round(held*100) {
		return
	}
	p, h := strconv.FormatFloat(planned, 'f', -1, 64), strconv.FormatFloat(held, 'f', -1, 64)
	diags.AddAttributeError(path.Root("allocation"), "Allocation cannot decrease while the experiment runs",
		fmt.Sprintf("Experiment %q is active with allocation %s: it cannot decrease to %s. The service lowers the "+
			"allocation of a running experiment only by resetting it, which starts its results over. Nothing was sent. "+
			"Keep allocation = %s, or raise it; to lower it, reset the experiment in the same apply (status = \"setup\"; "+
			"status = \"active\" in a later apply starts it again); to stop it, make a decision or abandon it (status).", id, h, p, h))
}

// unsentReason refuses a decision_reason the apply would not send: one that differs from the
// reason the service recorded with the move (it keeps that one), or one without a move that sends
// it (a decision or an abandon).
func unsentReason(id string, config, plan, state experimentModel, moving bool, diags *diag.Diagnostics) {
	to := plan.Status.ValueString()
	sent := moving && (to == console.ExperimentDecisionMade || to == console.ExperimentAbandoned)
	reason, ok := framework.KnownString(config.DecisionReason)
	if !ok || sent || plan.DecisionReason.Equal(state.DecisionReason) {
		return
	}
	from := state.Status.ValueString()
	if held, ok := framework.KnownString(state.DecisionReason); ok {
		diags.AddAttributeError(decisionReasonPath, "A decision's reason cannot change",
			fmt.Sprintf("Experiment %q is %s with the reason %q. The service keeps the reason given with the move and "+
				"takes no other after it, so decision_reason = %q would send nothing. Nothing was sent. Set "+
				"decision_reason = %q, the reason the service holds.", id, from, held, reason, held))
		return
	}
	diags.AddAttributeError(decisionReasonPath, "A reason without a decision",
		fmt.Sprintf("Experiment %q is %s and this plan makes no decision or abandon: decision_reason is sent with the "+
			"move it explains (status = \"decision_made\" or \"abandoned\"), so alone it would send nothing. Nothing "+
			"was sent. Set it together with that status, or remove it.", id, from))
}

// checkTargetingGate reads, at plan time, the targeting gate the apply would send: one the console
// does not have fails the plan at targeting_gate_id; a read that fails otherwise warns, and the
// plan goes on. A gate this run creates (handoffs.go) is the apply's to check.
func (r *experimentResource) checkTargetingGate(ctx context.Context, id, gate string, t timeouts.Value, update bool, diags *diag.Diagnostics) {
	if r.data == nil || r.data.client == nil {
		return
	}
	if _, ok := r.data.gatesCreated.Load(gate); ok {
		tflog.Info(ctx, "the experiment's targeting gate is checked at apply: this run creates it", map[string]any{"experiment": id, "gate": gate})
		return
	}
	ctx, op, cancel := dryRunOperation(ctx, t, update)
	defer cancel()
	_, err := r.data.client.GetGate(ctx, gate)
	switch {
	case err == nil:
	case console.NotFound(err):
		diags.AddAttributeError(path.Root("targeting_gate_id"), fmt.Sprintf("Targeting gate %q not found", gate),
			fmt.Sprintf("Experiment %q targets gate %q (targeting_gate_id), which the console does not have: the service "+
				"would refuse the experiment. Nothing was sent. Create the gate first, or declare it with "+
				"featureconsole_gate and reference it (targeting_gate_id = featureconsole_gate.<name>.gate_id), so that "+
				"Terraform creates it before the experiment.", id, gate))
	default:
		diags.AddWarning(fmt.Sprintf("Targeting gate %q not checked at plan time", gate),
			fmt.Sprintf("The read that checks experiment %q's targeting gate failed, so the plan was made without it:\n\n", id)+
				framework.APIFailure{Op: "read", Object: fmt.Sprintf("gate %q", gate)}.Detail(ctx, op, err))
	}
}

// groupChanges names what differs between the planned groups and the state's, matched by name: the
// groups added or removed, and the sizes and values changed. Order and descriptions are none of it.
func groupChanges(ctx context.Context, planned, held types.List) []string {
	ps, _ := framework.ListModels[experimentGroupModel](ctx, planned)
	hs, _ := framework.ListModels[experimentGroupModel](ctx, held)
	byName := map[string]experimentGroupModel{}
	for _, h := range hs {
		byName[h.Name.ValueString()] = h
	}
	var out []string
	for i, p := range ps {
		name := p.Name.ValueString()
		h, ok := byName[name]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("groups (adds group %q)", name))
			continue
		case !samePercent(p.Size, h.Size):
			out = append(out, fmt.Sprintf("groups[%d].size of %q (%s → %s)", i, name, h.Size, p.Size))
		}
		if !framework.SameJSON(ctx, p.ParameterValues, h.ParameterValues) {
			out = append(out, fmt.Sprintf("groups[%d].parameter_values of %q", i, name))
		}
		delete(byName, name)
	}
	for _, h := range hs {
		if _, left := byName[h.Name.ValueString()]; left {
			out = append(out, fmt.Sprintf("groups (removes group %q)", h.Name.ValueString()))
		}
	}
	return out
}

// experimentWritesNothing reports whether an update of state to plan sends nothing to the service.
func experimentWritesNothing(ctx context.Context, plan, state experimentModel) bool {
	for _, pair := range [][2]attr.Value{
		{plan.Name, state.Name}, {plan.Description, state.Description}, {plan.Hypothesis, state.Hypothesis},
		{plan.IDType, state.IDType}, {plan.Tags, state.Tags}, {plan.Allocation, state.Allocation},
		{plan.TargetingGateID, state.TargetingGateID}, {plan.Duration, state.Duration}, {plan.AnalyticsType, state.AnalyticsType},
		{plan.ControlGroup, state.ControlGroup}, {plan.PrimaryMetrics, state.PrimaryMetrics},
		{plan.SecondaryMetrics, state.SecondaryMetrics}, {plan.Status, state.Status}, {plan.Archived, state.Archived},
		{plan.LayerID, state.LayerID}, {plan.DefaultConfidenceInterval, state.DefaultConfidenceInterval},
	} {
		if pair[0].IsUnknown() || !pair[0].Equal(pair[1]) {
			return false
		}
	}
	for _, a := range analysisFlags {
		if p := *a.model(&plan.experimentAnalysis); p.IsUnknown() || !p.Equal(*a.model(&state.experimentAnalysis)) {
			return false
		}
	}
	return sameGroupContent(ctx, plan.Groups, state.Groups)
}
