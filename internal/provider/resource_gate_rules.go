// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

var _ managedResource = &gateRulesResource{}

// gateRulesResource is featureconsole_gate_rules: rulesResource over a gate, with the state
// upgrade of version 0.
type gateRulesResource struct{ rulesResource }

func NewGateRulesResource() resource.Resource {
	return &gateRulesResource{rulesResource{resourceData: resourceData{typeName: "gate_rules"}, target: gateRulesTarget}}
}

var gateRulesTarget = newRulesTarget(rulesTarget{
	noun: "gate", holder: "the gate", typeName: "featureconsole_gate_rules", idAttr: gateIdentityAttr, exampleID: "new_checkout",
	ruleType:      ruleObjectType,
	model:         func() rulesModel { return &gateRulesModel{} },
	filter:        func(id string) console.TriggerFilter { return console.TriggerFilter{GateID: id} },
	runFilterAttr: "gate_id",
	archived:      addArchivedGateWriteError,
	onMissing: "featureconsole_gate_rules manages the rules of a gate that exists. To have Terraform create the gate, " +
		"declare it with a featureconsole_gate resource and reference it: gate_id = featureconsole_gate.<name>.gate_id. " +
		"Otherwise correct gate_id.",
	notTaken: notTakenWords{
		cause: "Some versions of the service apply only changes to rules a gate already holds: they ignore added rules and " +
			"keep removed ones, and still answer success. ",
		remedy: " (or have the gate's project moved to a current service version)",
	},
	archiveKeeps: " with its history",
	// What the gate held, for a featureconsole_gate that destroy archives next (archive_on_destroy)
	// to write back: Terraform destroys the rules first, and the archived gate should keep them.
	removed: func(data *providerData, id string, held []console.Rule) { data.rulesRemoved.Store(id, held) },
}, targetCalls[console.Gate]{
	get: (*console.Client).GetGate, write: (*console.Client).UpdateGateRules,
	review: (*console.Client).GetGateReview, commit: (*console.Client).CommitGateReview, holder: gateHolder,
})

func gateHolder(g *console.Gate) *ruleHolder {
	return &ruleHolder{ID: g.ID, ReleasePipelineID: g.ReleasePipelineID, Rules: g.Rules, ActiveReview: g.ActiveReview}
}

func (r *gateRulesResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
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
		Attributes: rulesAttributes(ctx, rulesSchemaWords{
			id: "Identifier of this resource: the gate id.",
			objectID: "Identifier of the gate, such as `new_checkout`. The gate must already exist: this " +
				"resource manages its rules, not the gate. Where Terraform manages the gate, reference it " +
				"(`featureconsole_gate.<name>.gate_id`): a literal id leaves the two unordered, and rules created before " +
				"their gate fail, saying so. Changing it forces replacement.",
			rules: "The gate's rules in evaluation order; `[]` leaves the gate with no rules. " +
				"Changes are made in place.",
			ruleAttributes: ruleAttributes(),
			onActiveRun: "What a change of the rules does while the gate's rules are locked by an active run of " +
				"its release pipeline (an earlier change still rolling out): `fail` (the default) stops with an error " +
				"naming the run and changes nothing; `abort` aborts that run (the gate's rules it was rolling out are " +
				"replaced) and writes the new rules, which start the next run, as a newer deploy supersedes an older " +
				"one; `wait` waits for the run to complete or be aborted, within the create or update timeout, then " +
				"writes, and a warning lists the states the run went through (`TF_LOG=INFO` shows each as it comes). Destroying this resource, or changing `gate_id`, always aborts the run first. Changing only " +
				"this setting sends no request. Works with every Terraform version, unlike the " +
				"`featureconsole_release_pipeline_trigger` action (Terraform 1.14 or later).",
			keepOnDestroy: "What destroy does with the rules: `false` (the default) removes them and leaves the gate " +
				"with none; `true` leaves them on the gate as they are and only stops managing them. Set it to " +
				"`featureconsole_gate.<name>.archive_on_destroy` for a gate that destroy archives: Terraform destroys the " +
				"rules before the gate: without it, they are removed and the gate's destroy writes them back before archiving " +
				"(they may get new ids). That hand-over holds within one run: where the rules are destroyed in an earlier " +
				"run (`-target` of the rules alone, or the resource removed in an earlier apply), their destroy removes " +
				"them and the gate archived later keeps none. With a `gate_id` written as a literal, Terraform does not " +
				"order the two destroys; the archived gate keeps its rules whichever comes first. Destroy leaves the rules " +
				"of a gate that is archived already in place either way (the service refuses changes of them). Changing it " +
				"sends no request.",
			timeouts: "the gate's rules",
		}, gateIdentityAttr),
	}
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

var _ resource.ResourceWithUpgradeState = &gateRulesResource{}

// gateRulesV0Copies are the read-only copies of the gate's own fields that featureconsole_gate_rules
// carried in schema version 0. A write of the rules read them anew, so every plan that changed the
// rules showed them as known after apply; they belong to featureconsole_gate.
var gateRulesV0Copies = map[string]schema.Attribute{
	"is_enabled":         schema.BoolAttribute{Computed: true},
	"description":        schema.StringAttribute{Computed: true},
	"status":             schema.StringAttribute{Computed: true},
	"tags":               schema.ListAttribute{Computed: true, ElementType: types.StringType},
	"last_modifier_id":   schema.StringAttribute{Computed: true},
	"last_modifier_name": schema.StringAttribute{Computed: true},
}

func upgradeGateRulesV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	m := gateRulesModel{rulesFields: rulesFields{OnActiveRun: types.StringValue(onActiveRunFail)}}
	for name, target := range map[string]any{"id": &m.ID, "gate_id": &m.GateID, "rules": &m.Rules, "timeouts": &m.Timeouts} {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(name), target)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
