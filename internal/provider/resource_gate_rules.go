// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

var _ managedResource = &gateRulesResource{}

func NewGateRulesResource() resource.Resource {
	return &gateRulesResource{resourceData{typeName: "gate_rules"}}
}

type gateRulesResource struct{ resourceData }

func (r *gateRulesResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	computedString := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{
			Computed: true, MarkdownDescription: desc,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseNonNullStateForUnknown()},
		}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The complete, ordered rule list of an existing feature gate. The first rule whose conditions " +
			"match decides, so the order of `rules` is the evaluation order. Rules not listed here are removed from the gate. " +
			"Create and update send the whole list (`PATCH /gates/{id}/rules`); destroy leaves the gate in place with no rules. " +
			"A rule that keeps its `name` keeps its identity (`base_id`) and history, wherever it moves in the list; " +
			"when Terraform first takes over a gate, the rules the gate already has keep theirs if the configuration " +
			"names them (create reads the gate once for that).",
		Attributes: map[string]schema.Attribute{
			"id": computedString("Identifier of this resource: the gate id."),
			"gate_id": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Identifier of the gate, such as `new_checkout`. The gate must already exist: this " +
					"resource manages its rules, not the gate. Changing it forces replacement.",
				Validators:    []validator.String{notBlank()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"rules": schema.ListNestedAttribute{
				Required: true,
				MarkdownDescription: "The gate's rules in evaluation order; `[]` leaves the gate with no rules. " +
					"Changes are made in place.",
				Validators:   []validator.List{listvalidator.NoNullValues()},
				NestedObject: schema.NestedAttributeObject{Attributes: gateRuleAttributes()},
			},
			// Read-only copies of the gate's own fields, which featureconsole_gate may change in the
			// same apply as the rules (before them): a write of the rules reads them anew, so they are
			// promised from the prior state only in a plan that writes nothing.
			"is_enabled": schema.BoolAttribute{
				Computed: true, MarkdownDescription: "Whether the gate is enabled (managed outside this resource, for example by `featureconsole_gate`).",
			},
			"description": schema.StringAttribute{
				Computed: true, MarkdownDescription: "Description of the gate (managed outside this resource, for example by `featureconsole_gate`).",
			},
			"status": schema.StringAttribute{
				Computed: true, MarkdownDescription: "Status of the gate, such as `In Progress` (managed outside this resource).",
			},
			"tags": schema.ListAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "Tags of the gate (managed outside this resource, for example by `featureconsole_gate`).",
			},
			"last_modifier_id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "Identifier of whoever last changed the gate; changes when the rules are updated.",
			},
			"last_modifier_name": schema.StringAttribute{
				Computed: true, MarkdownDescription: "Name of whoever last changed the gate; changes when the rules are updated.",
			},
			"timeouts": timeoutsAttribute(ctx, "the gate's rules", timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, nil),
		},
	}
}

// gateRuleAttributes is the schema of one rule; gateRuleObjectType is derived from it.
func gateRuleAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed: true,
			MarkdownDescription: "Identifier of this version of the rule, assigned by the service (opaque). " +
				"The service may give every rule of the gate a new one on any change of the rule list, so it is " +
				"unknown in the plan of a change; use `base_id` for a rule's lasting identity.",
		},
		"base_id": schema.StringAttribute{
			Computed: true,
			MarkdownDescription: "Lasting identity of the rule, assigned by the service when the rule is first " +
				"created and kept as long as the rule keeps its `name`.",
		},
		"name": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "Name of the rule; unique within the gate and not empty. Rules are matched to " +
				"the gate's existing rules by name: renaming a rule replaces it with a new one (new `base_id`).",
			Validators: []validator.String{notBlank()},
		},
		"pass_percentage": schema.NumberAttribute{
			Required: true,
			MarkdownDescription: "Percentage of the units matching the conditions that pass the gate, " +
				"from `0` to `100` with at most two decimals (for example `12.5` or `33.33`).",
			Validators: []validator.Number{passPercentageValidator{}},
		},
		"environments": schema.ListAttribute{
			Optional:    true,
			ElementType: types.StringType,
			MarkdownDescription: "Environments where the rule applies, such as `production`. Omit (or `[]`) for " +
				"every environment.",
			Validators: []validator.List{listvalidator.NoNullValues(), listvalidator.ValueStringsAre(notBlank())},
		},
		"conditions": schema.ListNestedAttribute{
			Optional: true,
			MarkdownDescription: "Conditions, all of which must match for the rule to apply. Omit (or `[]`) for a " +
				"rule that matches every unit.",
			NestedObject: schema.NestedAttributeObject{Attributes: gateConditions.resourceAttributes()},
		},
		"return_value": schema.StringAttribute{
			Optional:   true,
			CustomType: jsontypes.NormalizedType{},
			MarkdownDescription: "Value returned to units that pass, as a JSON object (use `jsonencode`). " +
				"Omit for `{}`. Formatting and key order do not matter.",
			Validators: []validator.String{jsonObject()},
		},
	}
}

func (r *gateRulesResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan gateRulesModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	op, cancel := startOperation(ctx, plan.Timeouts, "create", &resp.Diagnostics)
	defer cancel()
	// Taking over a gate: rules it already has keep their identity and history when the
	// configuration names them, so their baseID is read once and sent back. A missing gate is
	// reported by the write itself.
	gateID := plan.GateID.ValueString()
	existing, err := r.data.client.GetGate(op.ctx, gateID)
	if err != nil && !console.NotFound(err) {
		apiFailure{"read", fmt.Sprintf("gate %q", gateID)}.add(&resp.Diagnostics, op, err)
		return
	}
	// A held create leaves no state: saved with an error, Terraform would taint it and plan a replacement.
	r.apply(ctx, op, &plan, existing, reviewKeptNoState, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
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
	if plan.Rules.Equal(state.Rules) { // only timeouts changed: nothing to send
		state.Timeouts = plan.Timeouts
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return
	}
	op, cancel := startOperation(ctx, plan.Timeouts, "update", &resp.Diagnostics)
	defer cancel()
	if held := r.apply(ctx, op, &plan, nil, reviewKeptState, &resp.Diagnostics); held {
		// Nothing changed on the service: the state keeps what it held, so the next plan shows the change again.
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		resp.Diagnostics.Append(savePendingRules(ctx, resp.Private, plan.Rules)...)
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
// holds exactly the planned rules is taken as it is, without a write. held reports a write the
// service held for review or answered with other rules than were sent (the diagnostic is added;
// kept says what Terraform kept).
func (r *gateRulesResource) apply(ctx context.Context, op *operation, plan *gateRulesModel, existing *console.Gate, kept string, diags *diag.Diagnostics) (held bool) {
	gateID := plan.GateID.ValueString()
	planned, d := ruleModels(ctx, plan.Rules)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	rules, d := expandRules(ctx, planned)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	if existing != nil {
		baseIDs := make(map[string]string, len(existing.Rules))
		for _, er := range existing.Rules {
			baseIDs[er.Name] = er.BaseID
		}
		for i := range rules {
			if rules[i].BaseID == "" {
				rules[i].BaseID = baseIDs[rules[i].Name]
			}
		}
		if sameGateRules(existing, rules) {
			diags.Append(flattenGate(ctx, existing, plan, planned)...)
			return false
		}
	}
	// The API call is a PATCH of the rules either way; errors name what the user ran (create, update).
	g, err := r.data.client.UpdateGateRules(console.WithOperation(op.ctx, op.name), gateID, rules)
	if reviewHeld(diags, err, fmt.Sprintf("Change to the rules of gate %q", gateID), kept) {
		return true
	}
	if err != nil {
		addGateWriteError(diags, gateID, op, err)
		return false
	}
	if !sameGateRules(g, rules) {
		addNotAsSent(diags, fmt.Sprintf("Rules of gate %q not updated as sent", gateID), firstRuleDifference(g, rules), kept)
		return true
	}
	diags.Append(flattenGate(ctx, g, plan, planned)...)
	return false
}

func (r *gateRulesResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state gateRulesModel
	if !r.begin(ctx, &resp.Diagnostics, nil, req.State, &state) {
		return
	}
	gateID := state.GateID.ValueString()
	op, cancel := startOperation(ctx, state.Timeouts, "delete", &resp.Diagnostics)
	defer cancel()
	if r.data.client.RespectsReviewSettings() {
		// Every write may be held for review, an empty rule list too: a gate already without rules
		// (its removal approved since a held destroy) has nothing left to remove.
		g, err := r.data.client.GetGate(op.ctx, gateID)
		if console.NotFound(err) || err == nil && len(g.Rules) == 0 {
			return
		}
	}
	_, err := r.data.client.UpdateGateRules(op.ctx, gateID, []console.GateRule{})
	if reviewHeld(&resp.Diagnostics, err, fmt.Sprintf("Removal of the rules of gate %q", gateID), reviewKeptResource) {
		return // an error keeps the resource in state
	}
	if err != nil && !console.NotFound(err) { // a gate that is gone has no rules left to remove
		apiFailure{"remove the rules of", fmt.Sprintf("gate %q", gateID)}.add(&resp.Diagnostics, op, err)
	}
}

func (r *gateRulesResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importState(ctx, req, resp, "featureconsole_gate_rules", gateIdentityAttr, "new_checkout")
}

// addGateWriteError reports a failed write of the rules; a missing gate is the configuration's
// mistake (this resource cannot create gates) and is reported on gate_id.
func addGateWriteError(diags *diag.Diagnostics, gateID string, op *operation, err error) {
	write := apiFailure{op.name + " rules of", fmt.Sprintf("gate %q", gateID)}
	if console.NotFound(err) {
		write.addAt(diags, path.Root("gate_id"), fmt.Sprintf("Gate %q not found", gateID), op, err,
			"featureconsole_gate_rules manages the rules of an existing gate and cannot create the gate itself: "+
				"create the gate in the console first, or check gate_id.")
		return
	}
	write.add(diags, op, err)
}
