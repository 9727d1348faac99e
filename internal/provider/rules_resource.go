// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

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
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// rulesResource is featureconsole_gate_rules and featureconsole_dynamic_config_rules: one
// implementation of the complete, ordered rule list of an object that exists, over its target
// (rulesTarget). What sets the two apart is the target's: the schema and the model's id attribute,
// the rule type (variants for configs), keep_on_destroy's hand-off to the object's destroy and the
// words for the object.
type rulesResource struct {
	resourceData
	target rulesTarget
}

func (r *rulesResource) flatten(ctx context.Context, service []console.Rule, m rulesModel, hints []ruleModel) diag.Diagnostics {
	return flattenRulesModel(ctx, r.target.ruleType, service, m, hints)
}

// changeWhat names a change of the rules in review messages: `Change to the rules of gate "x"`.
func (t rulesTarget) changeWhat(id string) string {
	return fmt.Sprintf("Change to the rules of %s", t.what(id))
}

func (r *rulesResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan := r.target.model()
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, plan) {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.fields().Timeouts, "create", &resp.Diagnostics)
	defer cancel()
	// Taking over an object: rules it already has keep their identity and history when the
	// configuration names them, so their baseID is read once and sent back. A missing object is
	// reported by the write itself.
	id := objectID(plan)
	existing, err := r.target.read(ctx, r.data.client, id)
	if err != nil && !console.NotFound(err) {
		framework.APIFailure{Op: "read", Object: r.target.what(id)}.Add(ctx, &resp.Diagnostics, op, err)
		return
	}
	// A held create, or one that did not take, leaves no state: saved with an error, Terraform
	// would taint it and plan a replacement, whose destroy would remove rules the object held before.
	review := newReview(ctx, nil, id, r.target.changeWhat(id), r.target.reviews)
	if r.apply(ctx, op, plan, existing, nil, review, reviewKeptNoState, &resp.Diagnostics) != outcomeWritten || resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

func (r *rulesResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state := r.target.model()
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.State, state) {
		return
	}
	id := objectID(state)
	read := func(ctx context.Context, id string) (*ruleHolder, error) {
		return r.target.read(ctx, r.data.client, id)
	}
	readObject(ctx, resp, state.fields().Timeouts, framework.Capitalize(r.target.noun), id, read, func(h *ruleHolder) diag.Diagnostics {
		hints, diags := ruleModels(ctx, state.fields().Rules)
		if diags.HasError() {
			return diags
		}
		// A change held for review comes first: once approved, its rules are what the object holds.
		hints = append(pendingRulesOf(ctx, req.Private, types.ListType{ElemType: r.target.ruleType}), hints...)
		warnPendingReview(&diags, framework.Capitalize(r.target.what(id)), h.ActiveReview)
		diags.Append(r.flatten(ctx, h.Rules, state, hints)...)
		return diags
	}, state)
}

func (r *rulesResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, state := r.target.model(), r.target.model()
	resp.Diagnostics.Append(req.State.Get(ctx, state)...)
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, plan) {
		return
	}
	p, s := plan.fields(), state.fields()
	if p.Rules.Equal(s.Rules) { // only Terraform's settings changed: nothing to send
		s.Timeouts, s.OnActiveRun, s.KeepOnDestroy = p.Timeouts, p.OnActiveRun, p.KeepOnDestroy
		resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, p.Timeouts, "update", &resp.Diagnostics)
	defer cancel()
	prior, d := ruleModels(ctx, s.Rules)
	resp.Diagnostics.Append(d...)
	id := objectID(plan)
	review := newReview(ctx, req.Private, id, r.target.changeWhat(id), r.target.reviews)
	outcome := r.apply(ctx, op, plan, nil, prior, review, reviewKeptState, &resp.Diagnostics)
	resp.Diagnostics.Append(review.keep(ctx, resp.Private)...)
	switch outcome {
	case outcomeHeld:
		// Nothing changed on the service: the state keeps what it held, so the next plan shows the change again.
		resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
		resp.Diagnostics.Append(savePendingRules(ctx, resp.Private, p.Rules)...)
		return
	case outcomeNotTaken:
		// The state holds what the service holds, so the next plan shows what is left to do.
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
		return
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, pendingRulesKey, nil)...) // applied: nothing pending
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

// apply sends the planned rule list and replaces plan's computed values with the service's answer;
// existing (on create) lends its baseIDs to planned rules of the same name, and an object that
// already holds exactly the planned rules is taken as it is, without a write. prior (on update) is
// the state's rules, the hints for rules the object kept although the write removed them. Held and
// notTaken writes are reported (kept says what Terraform kept for a held one). review settles an
// earlier apply's review of the same change (reviews.go).
func (r *rulesResource) apply(ctx context.Context, op *framework.Operation, plan rulesModel, existing *ruleHolder, prior []ruleModel,
	review *changeReview[ruleHolder], kept string, diags *diag.Diagnostics) writeOutcome {
	id := objectID(plan)
	if r.target.outOfOrder != nil && r.target.outOfOrder(r.data, id, diags) {
		return outcomeWritten
	}
	planned, d := ruleModels(ctx, plan.fields().Rules)
	diags.Append(d...)
	if diags.HasError() {
		return outcomeWritten
	}
	var holds []console.Rule
	if existing != nil {
		review.active = existing.ActiveReview
		holds = existing.Rules
	}
	rules, d := expandForWrite(ctx, planned, prior, holds)
	diags.Append(d...)
	if diags.HasError() {
		return outcomeWritten
	}
	if existing != nil && sameRules(existing.Rules, rules) {
		diags.Append(r.flatten(ctx, existing.Rules, plan, planned)...)
		return outcomeWritten
	}
	// The API call is a PATCH of the rules either way; errors name what the user ran (create, update).
	var superseded *console.ReleasePipelineTrigger
	h, err := review.write(ctx, r.data.client, console.RulesChange(rules), nil, diags, func() (*ruleHolder, error) {
		h, s, err := r.target.writePastRun(ctx, op, r.data, id, rules, plan.fields().OnActiveRun.ValueString(), diags)
		superseded = s
		return h, err
	})
	if diags.HasError() { // an active run that could not be aborted or waited for, said already
		return outcomeWritten
	}
	if reviewHeld(diags, err, r.target.changeWhat(id), kept) {
		return outcomeHeld
	}
	if err != nil {
		r.target.addWriteError(ctx, r.data.client, diags, id, op, err)
		return outcomeWritten
	}
	if difference := heldRuleDifferences(r.target.holder, h.Rules, rules); difference != "" {
		diags.Append(r.flatten(ctx, h.Rules, plan, append(planned, prior...))...)
		r.target.addRulesNotTaken(diags, id, difference, existing != nil, "terraform apply")
		return outcomeNotTaken
	}
	diags.Append(r.flatten(ctx, h.Rules, plan, planned)...)
	r.target.warnRolloutStarted(ctx, r.data.client, diags, id, h, superseded)
	return outcomeWritten
}

func (r *rulesResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state := r.target.model()
	if !r.begin(ctx, &resp.Diagnostics, nil, req.State, state) {
		return
	}
	id := objectID(state)
	if state.fields().KeepOnDestroy.ValueBool() {
		// Left for the object's destroy: archived (archive_on_destroy), the object keeps them; deleted,
		// they go with it. A run rolling them out is the object's destroy's to end.
		r.target.warnLeftInPlace(&resp.Diagnostics, id)
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, state.fields().Timeouts, "delete", &resp.Diagnostics)
	defer cancel()
	if r.target.removed != nil {
		// One destroy of the object's at a time: handing the rules over (or not) holds in every order.
		defer r.data.handOffs.lock(id)()
	}
	if r.data.client.RespectsReviewSettings() {
		// Every write may be held for review, an empty rule list too: an object already without
		// rules (its removal approved since a held destroy) has nothing left to remove.
		h, err := r.target.read(ctx, r.data.client, id)
		if console.NotFound(err) || err == nil && len(h.Rules) == 0 {
			return
		}
	}
	// What the object held, for its destroy to write back (the archive hand-off).
	held, _ := expandStateRules(ctx, state.fields().Rules)
	// Destroy supersedes: a run rolling out rules that are going away is aborted first, whatever
	// on_active_run says.
	h, superseded, err := r.target.writePastRun(ctx, op, r.data, id, []console.Rule{}, onActiveRunAbort, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if reviewHeld(&resp.Diagnostics, err, fmt.Sprintf("Removal of the rules of %s", r.target.what(id)), reviewKeptResource) {
		return // an error keeps the resource in state
	}
	switch {
	case console.NotFound(err): // an object that is gone has no rules left to remove
	case err != nil:
		r.target.addWriteError(ctx, r.data.client, &resp.Diagnostics, id, op, err)
	case len(h.Rules) > 0: // the write did not take: destroy is not done while the object holds rules
		r.target.addRulesNotTaken(&resp.Diagnostics, id, heldRuleDifferences(r.target.holder, h.Rules, nil), false, "terraform destroy")
	default:
		if r.target.removed != nil {
			r.target.removed(r.data, id, held)
		}
		r.target.warnRulesRemoved(ctx, r.data.client, &resp.Diagnostics, id, h, superseded)
	}
}

func (r *rulesResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importState(ctx, req, resp, r.target.typeName, r.target.idAttr, r.target.exampleID)
}

func (r *rulesResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchema(r.target.idAttr, fmt.Sprintf("Identifier of the %s, such as %s.", r.target.noun, r.target.exampleID))
}

// ValidateConfig checks what single-attribute validators cannot: rule names unique within the
// object, and each rule's variants where the rules have them (names unique, percentages summing to
// 100; each percentage is checked by the rule schema). A return value that is not JSON is the JSON
// type's to say, with how to write it.
func (r *rulesResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var rules types.List
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("rules"), &rules)...)
	if resp.Diagnostics.HasError() {
		return
	}
	framework.UniqueNames(rules, path.Root("rules"), &resp.Diagnostics, func(first, i int, name string) (string, string) {
		return "Duplicate rule name", fmt.Sprintf("Rule names must be unique within a %s: rules[%d] and rules[%d] are both named %q.", r.target.noun, first, i, name)
	})
	if r.target.ruleType.Equal(variantRuleObjectType) {
		validateVariants(rules, &resp.Diagnostics)
	}
}

// ModifyPlan follows rules by name rather than by list position (modifyPlan), then checks rules to
// be written against what the object asks of them (rulesTarget.checkPlan).
func (r *rulesResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer r.checkAccess(ctx, req, resp)
	if plan := r.modifyPlan(ctx, req, resp); plan != nil && r.target.checkPlan != nil {
		r.target.checkPlan(ctx, r.data, plan, &resp.Diagnostics)
	}
}

// modifyPlan follows rules by name rather than by list position: a rule whose name is in the prior
// state keeps its base_id in the plan wherever it moves. The framework alone would match by index,
// so inserting a rule at the top would show every rule below it as changed. A rule's id is the
// service's and may change on any write of the list (the service may give every rule a new one),
// so it is promised only when nothing is written: when the list is unchanged; so is a rule's
// schedule, which is the service's. A write that may abort a run, or wait for one, promises no
// base_id either (supersedePlan). It returns the plan when its rules are to be written (a create,
// or a changed list), nil otherwise.
func (r *rulesResource) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) rulesModel {
	if req.Plan.Raw.IsNull() {
		return nil
	}
	plan := r.target.model()
	if req.State.Raw.IsNull() { // create: the rules' ids are unknown until the service assigns them
		resp.Diagnostics.Append(framework.PlanIDAs(ctx, &resp.Plan, r.target.idAttr)...)
		resp.Diagnostics.Append(req.Plan.Get(ctx, plan)...)
		if resp.Diagnostics.HasError() {
			return nil
		}
		return plan
	}
	if req.Plan.Raw.Equal(req.State.Raw) {
		// Nothing changes, so the framework left every id as the state has it, rule for rule, which
		// is what plannedRules would give: skipping it spares decoding both models, most of the
		// provider's work in the plan of an unchanged object.
		return nil
	}
	state := r.target.model()
	resp.Diagnostics.Append(req.Plan.Get(ctx, plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, state)...)
	_, planID := plan.identity()
	_, stateID := state.identity()
	if resp.Diagnostics.HasError() || !framework.ElementsKnown(plan.fields().Rules) || !planID.Equal(stateID) {
		return nil
	}
	var listRuns func(context.Context) ([]console.ReleasePipelineTrigger, error)
	id := planID.ValueString()
	if r.data != nil && r.data.client != nil {
		listRuns = func(ctx context.Context) ([]console.ReleasePipelineTrigger, error) {
			return activeRuns(ctx, r.data.client, r.target.filter(id))
		}
	}
	rules, d := plannedRules(ctx, plan.fields().Rules, state.fields().Rules, supersedePlan{policy: plan.fields().OnActiveRun,
		activeRuns: listRuns, target: r.target, id: id})
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return nil
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("rules"), rules)...)
	if rules.Equal(state.fields().Rules) {
		return nil
	}
	return plan
}

// rulesSchemaWords are what the rules resources' schemas say of each attribute.
type rulesSchemaWords struct {
	id, objectID, rules, onActiveRun, keepOnDestroy, timeouts string
	ruleAttributes                                            map[string]schema.Attribute
}

// rulesAttributes returns a rules resource's attributes, its object's id named idAttr.
func rulesAttributes(ctx context.Context, w rulesSchemaWords, idAttr string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed: true, MarkdownDescription: w.id,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseNonNullStateForUnknown()},
		},
		idAttr: schema.StringAttribute{
			Required: true, MarkdownDescription: w.objectID,
			Validators:    []validator.String{framework.NotBlank()},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"rules": schema.ListNestedAttribute{
			Required: true, MarkdownDescription: w.rules,
			Validators:   []validator.List{listvalidator.NoNullValues()},
			NestedObject: schema.NestedAttributeObject{Attributes: w.ruleAttributes},
		},
		"on_active_run": schema.StringAttribute{
			Optional: true, Computed: true, MarkdownDescription: w.onActiveRun,
			Default:    stringdefault.StaticString(onActiveRunFail),
			Validators: []validator.String{stringvalidator.OneOf(onActiveRunPolicies...)},
		},
		"keep_on_destroy": schema.BoolAttribute{Optional: true, MarkdownDescription: w.keepOnDestroy},
		"timeouts":        framework.TimeoutsAttribute(ctx, w.timeouts, timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, nil),
	}
}
