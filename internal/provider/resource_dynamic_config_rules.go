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

var _ managedResource = &configRulesResource{}

func NewDynamicConfigRulesResource() resource.Resource {
	return &configRulesResource{resourceData: resourceData{typeName: "dynamic_config_rules"}, target: configRulesTarget}
}

// missingConfig is what to do when config_id names no config.
const missingConfig = "featureconsole_dynamic_config_rules manages the rules of a dynamic config that exists. To have " +
	"Terraform create the config, declare it with a featureconsole_dynamic_config resource and reference it: " +
	"config_id = featureconsole_dynamic_config.<name>.config_id. Otherwise correct config_id."

func (r *configRulesResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The complete, ordered rule list of an existing dynamic config. The first rule whose conditions " +
			"match returns its `return_value`; the config's `default_value` is served when none does. Rules not listed here " +
			"are removed. The model is the gate rules' (`featureconsole_gate_rules`): a rule that keeps its `name` keeps its " +
			"`base_id`, percentages have at most two decimals, and `on_active_run` says what a change does while a run of " +
			"the config's release pipeline rolls out an earlier one. Every `return_value` is checked at plan time against " +
			"the config's schema (the one this plan gives `featureconsole_dynamic_config`, else the one the service holds), " +
			"with an error per value naming the rule, the JSON path and what the schema wants, before anything is sent. " +
			"A rule may split the units it passes between `variants`, each with its own `return_value` (checked the same " +
			"way, their percentages summing to 100); a variant that keeps its `name` keeps its `id`. " +
			"Destroy leaves the config in place with no rules, or with the rules as they are with `keep_on_destroy = true` " +
			"(for a config that destroy archives). See the guide \"Serve values with dynamic configs\".",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "Identifier of this resource: the config id.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseNonNullStateForUnknown()},
			},
			"config_id": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Identifier of the dynamic config, such as `checkout_copy`. The config must exist (declare " +
					"it with `featureconsole_dynamic_config` and reference its `config_id`). Changing it forces replacement.",
				Validators:    []validator.String{framework.NotBlank()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"rules": schema.ListNestedAttribute{
				Required: true,
				MarkdownDescription: "The config's rules in evaluation order, each with its `return_value` (a JSON object " +
					"written with `jsonencode({...})`, compared as JSON); `[]` leaves the config with no rules. Changes are " +
					"made in place.",
				Validators:   []validator.List{listvalidator.NoNullValues()},
				NestedObject: schema.NestedAttributeObject{Attributes: configRuleAttributes()},
			},
			"on_active_run": schema.StringAttribute{
				Optional: true, Computed: true,
				Default:    stringdefault.StaticString(onActiveRunFail),
				Validators: []validator.String{stringvalidator.OneOf(onActiveRunPolicies...)},
				MarkdownDescription: "What a change of the rules does while an active run of the config's release pipeline " +
					"locks them: `fail` (the default) stops with an error naming the run; `abort` aborts the run and writes " +
					"the new rules, which start the next run (the plan then shows rule `id` and `base_id` as known after " +
					"apply); `wait` waits for the run to end, within the create or update timeout, then writes. Destroying " +
					"this resource always aborts the run first. Changing only this setting sends no request.",
			},
			"keep_on_destroy": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "What destroy does with the rules: `false` (the default) removes them and leaves the " +
					"config with none; `true` leaves them on the config as they are and only stops managing them. Set it to " +
					"`featureconsole_dynamic_config.<name>.archive_on_destroy` for a config that destroy archives, so that the " +
					"archived config keeps its rules: Terraform destroys the rules before the config. Destroy leaves the rules " +
					"of a config that is archived already in place either way (the service refuses changes of them). Changing " +
					"it sends no request.",
			},
			"timeouts": framework.TimeoutsAttribute(ctx, "the config's rules", timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, nil),
		},
	}
}

func (r *configRulesResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchema(configIdentityAttr, "Identifier of the dynamic config, such as checkout_copy.")
}

func (r *configRulesResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan configRulesModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "create", &resp.Diagnostics)
	defer cancel()
	id := plan.ConfigID.ValueString()
	// Rules the config already has keep their identity when the configuration names them.
	existing, err := r.target.read(ctx, r.data.client, id)
	if err != nil && !console.NotFound(err) {
		framework.APIFailure{Op: "read", Object: r.target.what(id)}.Add(ctx, &resp.Diagnostics, op, err)
		return
	}
	// A held create, or one that did not take, leaves no state: saved with an error, Terraform would
	// taint it and plan a replacement, whose destroy would remove rules the config held before.
	review := newConfigRulesReview(ctx, nil, id, fmt.Sprintf("Change to the rules of %s", r.target.what(id)))
	if r.apply(ctx, op, &plan, existing, nil, review, reviewKeptNoState, &resp.Diagnostics) != outcomeWritten || resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *configRulesResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state configRulesModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.State, &state) {
		return
	}
	id := state.ConfigID.ValueString()
	readObject(ctx, resp, state.Timeouts, "Dynamic config", id, r.data.client.GetDynamicConfig, func(c *console.DynamicConfig) diag.Diagnostics {
		hints, diags := ruleModels(ctx, state.Rules)
		if diags.HasError() {
			return diags
		}
		// A change held for review comes first: once approved, its rules are what the config holds.
		hints = append(pendingRulesOf(ctx, req.Private, configRulesListType), hints...)
		warnPendingReview(&diags, fmt.Sprintf("Dynamic config %q", id), c.ActiveReview)
		diags.Append(flattenConfigRules(ctx, c.Rules, &state, hints)...)
		return diags
	}, &state)
}

func (r *configRulesResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state configRulesModel
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
	id := plan.ConfigID.ValueString()
	review := newConfigRulesReview(ctx, req.Private, id, fmt.Sprintf("Change to the rules of %s", r.target.what(id)))
	outcome := r.apply(ctx, op, &plan, nil, prior, review, reviewKeptState, &resp.Diagnostics)
	resp.Diagnostics.Append(review.keep(ctx, resp.Private)...)
	switch outcome {
	case outcomeHeld:
		// Nothing changed on the service: the state keeps what it held, so the next plan shows the change again.
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		resp.Diagnostics.Append(savePendingRules(ctx, resp.Private, plan.Rules)...)
		return
	case outcomeNotTaken:
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, pendingRulesKey, nil)...) // applied: nothing pending
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// apply sends the planned rule list and stores the service's answer in plan, as the gate rules'
// apply does: existing (on create) lends its baseIDs to planned rules of the same name and is taken
// as it is when it holds exactly the planned rules; prior (on update) are the hints for rules the
// config kept although the write removed them. review settles an earlier apply's review of the same
// change (reviews.go); kept says what Terraform kept of a held one.
func (r *configRulesResource) apply(ctx context.Context, op *framework.Operation, plan *configRulesModel, existing *ruleHolder, prior []gateRuleModel,
	review *gateReview, kept string, diags *diag.Diagnostics) writeOutcome {
	id := plan.ConfigID.ValueString()
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
		if sameGateRules(existing.asGate(), rules) {
			diags.Append(flattenConfigRules(ctx, existing.Rules, plan, planned)...)
			return outcomeWritten
		}
	}
	var superseded *console.ReleasePipelineTrigger
	g, err := review.write(ctx, r.data.client, console.GateRulesChange(rules), nil, diags, func() (*console.Gate, error) {
		h, s, err := r.target.writeRules(ctx, op, r.data, id, rules, plan.OnActiveRun.ValueString(), diags)
		superseded = s
		if h == nil {
			return nil, err
		}
		return &console.Gate{ID: h.ID, Rules: h.Rules, ReleasePipelineID: h.ReleasePipelineID, ActiveReview: h.ActiveReview}, err
	})
	if diags.HasError() { // an active run that could not be aborted or waited for, said already
		return outcomeWritten
	}
	if reviewHeld(diags, err, fmt.Sprintf("Change to the rules of %s", r.target.what(id)), kept) {
		return outcomeHeld
	}
	if err != nil {
		r.addWriteError(ctx, diags, id, op, err)
		return outcomeWritten
	}
	h := &ruleHolder{ID: g.ID, ReleasePipelineID: g.ReleasePipelineID, Rules: g.Rules, ActiveReview: g.ActiveReview}
	if difference := heldRuleDifferences("the config", h.asGate(), rules); difference != "" {
		diags.Append(flattenConfigRules(ctx, h.Rules, plan, append(planned, prior...))...)
		diags.AddError(fmt.Sprintf("Rules of %s not written as sent", r.target.what(id)),
			fmt.Sprintf("The service answered the write of the rules of %s with other rules than were sent: %s. The state "+
				"holds what the config holds now, so the next plan shows what is left to do.", r.target.what(id), difference))
		return outcomeNotTaken
	}
	diags.Append(flattenConfigRules(ctx, h.Rules, plan, planned)...)
	r.target.warnRolloutStarted(ctx, r.data.client, diags, id, h, superseded)
	return outcomeWritten
}

func (r *configRulesResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state configRulesModel
	if !r.begin(ctx, &resp.Diagnostics, nil, req.State, &state) {
		return
	}
	id := state.ConfigID.ValueString()
	if state.KeepOnDestroy.ValueBool() {
		// Left for the config's destroy: archived (archive_on_destroy), the config keeps them; deleted,
		// they go with it. A run rolling them out is the config's destroy's to end.
		resp.Diagnostics.AddWarning(fmt.Sprintf("Rules of %s left in place", r.target.what(id)),
			fmt.Sprintf("keep_on_destroy = true: destroy left the rules of %s as they are, and Terraform no longer "+
				"manages them. A config that destroy archives (archive_on_destroy = true) keeps them.", r.target.what(id)))
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, state.Timeouts, "delete", &resp.Diagnostics)
	defer cancel()
	if r.data.client.RespectsReviewSettings() {
		// Every write may be held for review, an empty rule list too: a config already without
		// rules (its removal approved since a held destroy) has nothing left to remove.
		h, err := r.target.read(ctx, r.data.client, id)
		if console.NotFound(err) || err == nil && len(h.Rules) == 0 {
			return
		}
	}
	// Destroy supersedes: a run rolling out rules that are going away is aborted first.
	h, superseded, err := r.target.writeRules(ctx, op, r.data, id, []console.GateRule{}, onActiveRunAbort, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if reviewHeld(&resp.Diagnostics, err, fmt.Sprintf("Removal of the rules of %s", r.target.what(id)), reviewKeptResource) {
		return
	}
	switch {
	case console.NotFound(err): // a config that is gone has no rules left to remove
	case err != nil:
		r.addWriteError(ctx, &resp.Diagnostics, id, op, err)
	case len(h.Rules) > 0:
		resp.Diagnostics.AddError(fmt.Sprintf("Rules of %s not removed", r.target.what(id)),
			fmt.Sprintf("The service answered the removal of the rules with rules still held: %s.", heldRuleDifferences("the config", h.asGate(), nil)))
	default:
		r.target.warnRolloutStarted(ctx, r.data.client, &resp.Diagnostics, id, h, superseded)
	}
}

// addWriteError reports a failed write of the rules: an archived config says so and what to do;
// anything else as every rules target reports it.
func (r *configRulesResource) addWriteError(ctx context.Context, diags *diag.Diagnostics, id string, op *framework.Operation, err error) {
	write := framework.APIFailure{Op: op.Name + " rules of", Object: r.target.what(id)}
	if addArchivedConfigWriteError(ctx, r.data.client, diags, id, write, op, err) {
		return
	}
	r.target.addWriteError(ctx, r.data.client, diags, id, op, err, missingConfig)
}

func (r *configRulesResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importState(ctx, req, resp, "featureconsole_dynamic_config_rules", configIdentityAttr, "checkout_copy")
}

// ValidateConfig: rule names unique within the config, and each rule's variants (names unique,
// percentages summing to 100); each percentage is checked by the rule schema.
func (r *configRulesResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var rules types.List
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("rules"), &rules)...)
	if resp.Diagnostics.HasError() {
		return
	}
	framework.UniqueNames(rules, path.Root("rules"), &resp.Diagnostics, func(first, i int, name string) (string, string) {
		return "Duplicate rule name", fmt.Sprintf("Rule names must be unique within a dynamic config: rules[%d] and rules[%d] are both named %q.", first, i, name)
	})
	validateVariants(rules, &resp.Diagnostics)
}
