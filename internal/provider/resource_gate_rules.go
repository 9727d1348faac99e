// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

var _ managedResource = &gateRulesResource{}

func NewGateRulesResource() resource.Resource {
	return &gateRulesResource{resourceData{typeName: "gate_rules"}}
}

func (r *gateRulesResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	computedString := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{
			Computed: true, MarkdownDescription: desc,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseNonNullStateForUnknown()},
		}
	}
	resp.Schema = schema.Schema{
		// Version 1 dropped the copies of the gate's own fields (UpgradeState).
		Version: 1,
		MarkdownDescription: "The complete, ordered rule list of an existing feature gate. The first rule whose conditions " +
			"match decides, so the order of `rules` is the evaluation order. Rules not listed here are removed from the gate. " +
			"Create and update send the whole list (`PATCH /gates/{id}/rules`); destroy leaves the gate in place with no rules, " +
			"or with the rules as they are with `keep_on_destroy = true` (for a gate that destroy archives). " +
			"A rule that keeps its `name` keeps its identity (`base_id`) and history, wherever it moves in the list; " +
			"when Terraform first takes over a gate, the rules the gate already has keep theirs if the configuration " +
			"names them (create reads the gate once for that). A gate attached to a release pipeline rolls every change " +
			"of its rules out through a run, its first rules included, which apply names in a warning; until the run ends, " +
			"the service refuses further changes of the rules, and `on_active_run` says what apply does then. Where the " +
			"service applies a change at once and starts no run, apply says the change is live now. A write the service answers " +
			"with other rules than were sent is an error naming those rules, with the state holding what the gate " +
			"holds. See the guide \"Writing gate rules\".",
		Attributes: map[string]schema.Attribute{
			"id": computedString("Identifier of this resource: the gate id."),
			"gate_id": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Identifier of the gate, such as `new_checkout`. The gate must already exist: this " +
					"resource manages its rules, not the gate. Changing it forces replacement.",
				Validators:    []validator.String{framework.NotBlank()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"rules": schema.ListNestedAttribute{
				Required: true,
				MarkdownDescription: "The gate's rules in evaluation order; `[]` leaves the gate with no rules. " +
					"Changes are made in place.",
				Validators:   []validator.List{listvalidator.NoNullValues()},
				NestedObject: schema.NestedAttributeObject{Attributes: gateRuleAttributes()},
			},
			"on_active_run": schema.StringAttribute{
				Optional: true, Computed: true,
				Default:    stringdefault.StaticString(onActiveRunFail),
				Validators: []validator.String{stringvalidator.OneOf(onActiveRunPolicies...)},
				MarkdownDescription: "What a change of the rules does while the gate's rules are locked by an active run of " +
					"its release pipeline (an earlier change still rolling out): `fail` (the default) stops with an error " +
					"naming the run and changes nothing; `abort` aborts that run (the gate's rules it was rolling out are " +
					"replaced) and writes the new rules, which start the next run, as a newer deploy supersedes an older " +
					"one; `wait` waits for the run to complete or be aborted, within the create or update timeout, then " +
					"writes, and a warning lists the states the run went through (`TF_LOG=INFO` shows each as it comes). Destroying this resource, or changing `gate_id`, always aborts the run first. Changing only " +
					"this setting sends no request. Works with every Terraform version, unlike the " +
					"`featureconsole_release_pipeline_trigger` action (Terraform 1.14 or later).",
			},
			"keep_on_destroy": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "What destroy does with the rules: `false` (the default) removes them and leaves the gate " +
					"with none; `true` leaves them on the gate as they are and only stops managing them. Set it to " +
					"`featureconsole_gate.<name>.archive_on_destroy` for a gate that destroy archives: Terraform destroys the " +
					"rules before the gate: without it, they are removed and the gate's destroy writes them back before archiving " +
					"(they may get new ids). Destroy leaves the rules of " +
					"a gate that is archived already in place either way (the service refuses changes of them). Changing it " +
					"sends no request.",
			},
			"timeouts": framework.TimeoutsAttribute(ctx, "the gate's rules", timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, nil),
		},
	}
}

func (r *gateRulesResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan gateRulesModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "create", &resp.Diagnostics)
	defer cancel()
	// Taking over a gate: rules it already has keep their identity and history when the
	// configuration names them, so their baseID is read once and sent back. A missing gate is
	// reported by the write itself.
	gateID := plan.GateID.ValueString()
	existing, err := r.data.client.GetGate(ctx, gateID)
	if err != nil && !console.NotFound(err) {
		framework.APIFailure{Op: "read", Object: fmt.Sprintf("gate %q", gateID)}.Add(ctx, &resp.Diagnostics, op, err)
		return
	}
	// A held create, or one that did not take, leaves no state: saved with an error, Terraform
	// would taint it and plan a replacement, whose destroy would remove rules the gate held before.
	review := newGateReview(ctx, nil, gateID, fmt.Sprintf("Change to the rules of gate %q", gateID))
	if r.apply(ctx, op, &plan, existing, nil, review, reviewKeptNoState, &resp.Diagnostics) != outcomeWritten || resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *gateRulesResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state gateRulesModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.State, &state) {
		return
	}
	gateID := state.GateID.ValueString()
	readObject(ctx, resp, state.Timeouts, "Gate", gateID, r.data.client.GetGate, func(g *console.Gate) diag.Diagnostics {
		hints, diags := ruleModels(ctx, state.Rules)
		if diags.HasError() {
			return diags
		}
		// A change held for review comes first: once approved, its rules are what the gate holds.
		hints = append(pendingRules(ctx, req.Private), hints...)
		warnPendingReview(&diags, fmt.Sprintf("Gate %q", gateID), g.ActiveReview)
		diags.Append(flattenGate(ctx, g, &state, hints)...)
		return diags
	}, &state)
}

func (r *gateRulesResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state gateRulesModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	if plan.Rules.Equal(state.Rules) { // only Terraform's settings changed: nothing to send
		state.Timeouts, state.OnActiveRun, state.KeepOnDestroy = plan.Timeouts, plan.OnActiveRun, plan.KeepOnDestroy
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "update", &resp.Diagnostics)
	defer cancel()
	prior, d := ruleModels(ctx, state.Rules)
	resp.Diagnostics.Append(d...)
	review := newGateReview(ctx, req.Private, plan.GateID.ValueString(), fmt.Sprintf("Change to the rules of gate %q", plan.GateID.ValueString()))
	outcome := r.apply(ctx, op, &plan, nil, prior, review, reviewKeptState, &resp.Diagnostics)
	resp.Diagnostics.Append(review.keep(ctx, resp.Private)...)
	switch outcome {
	case outcomeHeld:
		// Nothing changed on the service: the state keeps what it held, so the next plan shows the change again.
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		resp.Diagnostics.Append(savePendingRules(ctx, resp.Private, plan.Rules)...)
		return
	case outcomeNotTaken:
		// The state holds what the service holds, so the next plan shows what is left to do.
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, pendingRulesKey, nil)...) // applied: nothing pending
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// apply sends the planned rule list and replaces plan's computed values with the service's answer;
// existing (on create) lends its baseIDs to planned rules of the same name, and a gate that already
// holds exactly the planned rules is taken as it is, without a write. prior (on update) is the
// state's rules, the hints for rules the gate kept although the write removed them. Held and
// notTaken writes are reported (kept says what Terraform kept for a held one). review settles an
// earlier apply's review of the same change (reviews.go).
func (r *gateRulesResource) apply(ctx context.Context, op *framework.Operation, plan *gateRulesModel, existing *console.Gate, prior []gateRuleModel, review *gateReview, kept string, diags *diag.Diagnostics) writeOutcome {
	gateID := plan.GateID.ValueString()
	planned, d := ruleModels(ctx, plan.Rules)
	diags.Append(d...)
	if diags.HasError() {
		return outcomeWritten
	}
	var holds []console.GateRule
	if existing != nil {
		review.active = existing.ActiveReview
		holds = existing.Rules
	}
	rules, d := expandForWrite(ctx, planned, prior, holds)
	diags.Append(d...)
	if diags.HasError() {
		return outcomeWritten
	}
	if existing != nil {
		if sameGateRules(existing, rules) {
			diags.Append(flattenGate(ctx, existing, plan, planned)...)
			return outcomeWritten
		}
	}
	// The API call is a PATCH of the rules either way; errors name what the user ran (create, update).
	var superseded *console.ReleasePipelineTrigger
	g, err := review.write(ctx, r.data.client, console.GateRulesChange(rules), nil, diags, func() (*console.Gate, error) {
		g, s, err := r.writeRules(ctx, op, gateID, rules, plan.OnActiveRun.ValueString(), diags)
		superseded = s
		return g, err
	})
	if diags.HasError() { // an active run that could not be aborted or waited for, said already
		return outcomeWritten
	}
	if reviewHeld(diags, err, fmt.Sprintf("Change to the rules of gate %q", gateID), kept) {
		return outcomeHeld
	}
	if err != nil {
		r.addGateWriteError(ctx, diags, gateID, op, err)
		return outcomeWritten
	}
	if difference := ruleDifferences(g, rules); difference != "" {
		diags.Append(flattenGate(ctx, g, plan, append(planned, prior...))...)
		addRulesNotTaken(diags, gateID, difference, existing != nil, "terraform apply")
		return outcomeNotTaken
	}
	diags.Append(flattenGate(ctx, g, plan, planned)...)
	r.warnRolloutStarted(ctx, diags, gateID, g, superseded)
	return outcomeWritten
}

func (r *gateRulesResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state gateRulesModel
	if !r.begin(ctx, &resp.Diagnostics, nil, req.State, &state) {
		return
	}
	gateID := state.GateID.ValueString()
	if state.KeepOnDestroy.ValueBool() {
		// Left for the gate's destroy: archived (archive_on_destroy), the gate keeps them with its
		// history; deleted, they go with it. A run rolling them out is the gate's destroy's to end.
		resp.Diagnostics.AddWarning(fmt.Sprintf("Rules of gate %q left in place", gateID),
			fmt.Sprintf("keep_on_destroy = true: destroy left the rules of gate %q as they are, and Terraform no longer "+
				"manages them. A gate that destroy archives (archive_on_destroy = true) keeps them with its history.", gateID))
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, state.Timeouts, "delete", &resp.Diagnostics)
	defer cancel()
	if r.data.client.RespectsReviewSettings() {
		// Every write may be held for review, an empty rule list too: a gate already without rules
		// (its removal approved since a held destroy) has nothing left to remove.
		g, err := r.data.client.GetGate(ctx, gateID)
		if console.NotFound(err) || err == nil && len(g.Rules) == 0 {
			return
		}
	}
	// What the gate held, for a featureconsole_gate that destroy archives next (archive_on_destroy)
	// to write back: Terraform destroys the rules first, and the archived gate should keep them.
	held, _ := expandStateRules(ctx, state.Rules)
	// Destroy supersedes: a run rolling out rules that are going away is aborted first, whatever
	// on_active_run says.
	g, superseded, err := r.writeRules(ctx, op, gateID, []console.GateRule{}, onActiveRunAbort, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if reviewHeld(&resp.Diagnostics, err, fmt.Sprintf("Removal of the rules of gate %q", gateID), reviewKeptResource) {
		return // an error keeps the resource in state
	}
	switch {
	case console.NotFound(err): // a gate that is gone has no rules left to remove
	case err != nil:
		r.addGateWriteError(ctx, &resp.Diagnostics, gateID, op, err)
	case len(g.Rules) > 0: // the write did not take: destroy is not done while the gate holds rules
		addRulesNotTaken(&resp.Diagnostics, gateID, ruleDifferences(g, nil), false, "terraform destroy")
	default:
		r.data.rulesRemoved.Store(gateID, held)
		r.warnRulesRemoved(ctx, &resp.Diagnostics, gateID, g, superseded)
	}
}

func (r *gateRulesResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importState(ctx, req, resp, "featureconsole_gate_rules", gateIdentityAttr, "new_checkout")
}

// addGateWriteError reports a failed write of the rules; a missing gate is the configuration's
// mistake (this resource cannot create gates) and is reported on gate_id, and a gate locked by a
// run of its release pipeline is said with the run and what to do.
func (r *gateRulesResource) addGateWriteError(ctx context.Context, diags *diag.Diagnostics, gateID string, op *framework.Operation, err error) {
	write := framework.APIFailure{Op: op.Name + " rules of", Object: fmt.Sprintf("gate %q", gateID)}
	if console.NotFound(err) {
		write.AddAt(ctx, diags, path.Root("gate_id"), fmt.Sprintf("Gate %q does not exist", gateID), op, err,
			"featureconsole_gate_rules manages the rules of a gate that exists. To have Terraform create the gate, "+
				"declare it with a featureconsole_gate resource and reference it: gate_id = featureconsole_gate.<name>.gate_id. "+
				"Otherwise correct gate_id.")
		return
	}
	if addArchivedGateWriteError(ctx, r.data.client, diags, gateID, write, op, err) {
		return
	}
	if run := gateRulesTarget.lockingRun(ctx, r.data.client, gateID, err); run != nil {
		diags.AddError(fmt.Sprintf("Rules of gate %q are locked by release pipeline run %q", gateID, run.ID),
			lockedByRun(gateID, op.Name, run)+"\n\n"+write.Detail(ctx, op, err))
		return
	}
	write.Add(ctx, diags, op, err)
}

func (r *gateRulesResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchema(gateIdentityAttr, "Identifier of the gate, such as new_checkout.")
}

// UpgradeState upgrades states written with the copies (version 0) silently: the copies are
// dropped, and on_active_run, which version 0 did not have, takes its default (keep_on_destroy
// stays null: false).
func (r *gateRulesResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	var current resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &current)
	v0 := current.Schema
	v0.Version = 0
	v0.Attributes = maps.Clone(v0.Attributes)
	delete(v0.Attributes, "on_active_run")
	delete(v0.Attributes, "keep_on_destroy")
	maps.Copy(v0.Attributes, gateRulesV0Copies)
	return map[int64]resource.StateUpgrader{0: {PriorSchema: &v0, StateUpgrader: upgradeGateRulesV0}}
}
