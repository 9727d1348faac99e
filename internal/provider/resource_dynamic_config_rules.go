// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// configRulesResource is featureconsole_dynamic_config_rules: rulesResource over a dynamic config,
// each rule's return_value being what the config serves, checked at plan time against the config's
// schema (checkReturnValues).
type configRulesResource struct{ rulesResource }

var _ managedResource = &configRulesResource{}

func NewDynamicConfigRulesResource() resource.Resource {
	return &configRulesResource{rulesResource{resourceData: resourceData{typeName: "dynamic_config_rules"}, target: configRulesTarget}}
}

var configRulesTarget = newRulesTarget(rulesTarget{
	noun: "dynamic config", holder: "the config", typeName: "featureconsole_dynamic_config_rules", idAttr: configIdentityAttr,
	exampleID: "checkout_copy", ruleType: variantRuleObjectType,
	model:         func() rulesModel { return &configRulesModel{} },
	filter:        func(id string) console.TriggerFilter { return console.TriggerFilter{DynamicConfigID: id} },
	runFilterAttr: "dynamic_config_id",
	archived:      addArchivedConfigWriteError,
	onMissing: "featureconsole_dynamic_config_rules manages the rules of a dynamic config that exists. To have " +
		"Terraform create the config, declare it with a featureconsole_dynamic_config resource and reference it: " +
		"config_id = featureconsole_dynamic_config.<name>.config_id. Otherwise correct config_id.",
	outOfOrder: func(data *providerData, id string, diags *diag.Diagnostics) bool {
		return data.schemas.rulesBeforeSchema(id, diags)
	},
	checkPlan: checkReturnValues,
}, targetCalls[console.DynamicConfig]{
	get: (*console.Client).GetDynamicConfig, write: (*console.Client).UpdateDynamicConfigRules,
	review: (*console.Client).GetDynamicConfigReview, commit: (*console.Client).CommitDynamicConfigReview, holder: configHolder,
})

func configHolder(d *console.DynamicConfig) *ruleHolder {
	return &ruleHolder{ID: d.ID, ReleasePipelineID: d.ReleasePipelineID, Rules: d.Rules, ActiveReview: d.ActiveReview}
}

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
		Attributes: rulesAttributes(ctx, rulesSchemaWords{
			id: "Identifier of this resource: the config id.",
			objectID: "Identifier of the dynamic config, such as `checkout_copy`. The config must exist (declare " +
				"it with `featureconsole_dynamic_config` and reference its `config_id`). The reference also orders the " +
				"plans: return values are checked against the schema the config's plan writes. With a literal id (or " +
				"`-target` of the config alone, or separate applies) they are checked against the schema the service " +
				"holds; rules that Terraform would plan or apply before a schema change that refuses them fail, saying " +
				"to reference the config. Changing it forces replacement.",
			rules: "The config's rules in evaluation order, each with its `return_value` (a JSON object " +
				"written with `jsonencode({...})`, compared as JSON); `[]` leaves the config with no rules. Changes are " +
				"made in place.",
			ruleAttributes: variantRuleAttributes(),
			onActiveRun: "What a change of the rules does while an active run of the config's release pipeline " +
				"locks them: `fail` (the default) stops with an error naming the run; `abort` aborts the run and writes " +
				"the new rules, which start the next run (the plan then shows rule `id` and `base_id` as known after " +
				"apply); `wait` waits for the run to end, within the create or update timeout, then writes. Destroying " +
				"this resource always aborts the run first. Changing only this setting sends no request.",
			keepOnDestroy: "What destroy does with the rules: `false` (the default) removes them and leaves the " +
				"config with none; `true` leaves them on the config as they are and only stops managing them. Set it to " +
				"`featureconsole_dynamic_config.<name>.archive_on_destroy` for a config that destroy archives, so that the " +
				"archived config keeps its rules: Terraform destroys the rules before the config. Destroy leaves the rules " +
				"of a config that is archived already in place either way (the service refuses changes of them). Changing " +
				"it sends no request.",
			timeouts: "the config's rules",
		}, configIdentityAttr),
	}
}
