// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// configRulesResource is featureconsole_dynamic_config_rules: rulesResource over a dynamic config,
// each rule's return_value being what the config serves, checked at plan time against the config's
// schema (ModifyPlan).
type configRulesResource struct{ rulesResource }

// configRulesModel is gateRulesModel with config_id for gate_id.
type configRulesModel struct {
	ConfigID types.String `tfsdk:"config_id"`
	rulesFields
}

func (m *configRulesModel) identity() (string, types.String) { return configIdentityAttr, m.ConfigID }

// flattenConfigRules stores the service's rules in m with their variants (flattenRulesModel).
func flattenConfigRules(ctx context.Context, service []console.GateRule, m *configRulesModel, hints []gateRuleModel) diag.Diagnostics {
	return flattenRulesModel(ctx, configRuleObjectType, service, m, hints)
}

var configRulesTarget = newRulesTarget(rulesTarget{
	noun: "dynamic config", holder: "the config", typeName: "featureconsole_dynamic_config_rules", idAttr: configIdentityAttr,
	exampleID: "checkout_copy", ruleType: configRuleObjectType,
	model:    func() rulesModel { return &configRulesModel{} },
	runs:     activeRunsOfConfig,
	filter:   func(id string) console.TriggerFilter { return console.TriggerFilter{DynamicConfigID: id} },
	archived: addArchivedConfigWriteError,
	onMissing: "featureconsole_dynamic_config_rules manages the rules of a dynamic config that exists. To have " +
		"Terraform create the config, declare it with a featureconsole_dynamic_config resource and reference it: " +
		"config_id = featureconsole_dynamic_config.<name>.config_id. Otherwise correct config_id.",
	outOfOrder: func(data *providerData, id string, diags *diag.Diagnostics) bool {
		return data.schemas.rulesBeforeSchema(id, diags)
	},
}, targetCalls[console.DynamicConfig]{
	get: (*console.Client).GetDynamicConfig, write: (*console.Client).UpdateDynamicConfigRules,
	review: (*console.Client).GetDynamicConfigReview, commit: (*console.Client).CommitDynamicConfigReview, holder: configHolder,
})

func configHolder(d *console.DynamicConfig) *ruleHolder {
	return &ruleHolder{ID: d.ID, ReleasePipelineID: d.ReleasePipelineID, Rules: d.Rules, ActiveReview: d.ActiveReview}
}
