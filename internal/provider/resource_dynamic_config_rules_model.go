// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// configRulesResource is featureconsole_dynamic_config_rules: the gate rules' model and behaviour
// (gateRuleAttributes, plannedRules, expandRules, flattenRules) over a dynamic config (rulesTarget),
// each rule's return_value being what the config serves.
type configRulesResource struct {
	resourceData
	target rulesTarget
}

// configRulesModel is gateRulesModel with config_id for gate_id.
type configRulesModel struct {
	ID          types.String `tfsdk:"id"`
	ConfigID    types.String `tfsdk:"config_id"`
	Rules       types.List   `tfsdk:"rules"`
	OnActiveRun types.String `tfsdk:"on_active_run"`
	// KeepOnDestroy is Terraform's only: never sent.
	KeepOnDestroy types.Bool     `tfsdk:"keep_on_destroy"`
	Timeouts      timeouts.Value `tfsdk:"timeouts"`
}

func (m *configRulesModel) identity() (string, types.String) { return configIdentityAttr, m.ConfigID }

// flattenConfigRules stores the service's rules in m with their variants, matched by name to hints
// (flattenRulesAs).
func flattenConfigRules(ctx context.Context, service []console.GateRule, m *configRulesModel, hints []gateRuleModel) diag.Diagnostics {
	m.ID = types.StringValue(m.ConfigID.ValueString())
	if m.OnActiveRun.IsNull() || m.OnActiveRun.IsUnknown() { // imported, or listed: the default
		m.OnActiveRun = types.StringValue(onActiveRunFail)
	}
	rules, diags := flattenRulesAs(ctx, configRuleObjectType, service, hints)
	if !diags.HasError() {
		m.Rules = rules
	}
	return diags
}

var configRulesTarget = rulesTarget{
	noun: "dynamic config", typeName: "featureconsole_dynamic_config_rules", idAttr: configIdentityAttr,
	read: func(ctx context.Context, c *console.Client, id string) (*ruleHolder, error) {
		d, err := c.GetDynamicConfig(ctx, id)
		return configHolder(d), err
	},
	write: func(ctx context.Context, c *console.Client, id string, rules []console.GateRule) (*ruleHolder, error) {
		d, err := c.UpdateDynamicConfigRules(ctx, id, rules)
		return configHolder(d), err
	},
	runs:   activeRunsOfConfig,
	filter: func(id string) console.TriggerFilter { return console.TriggerFilter{DynamicConfigID: id} },
}

func configHolder(d *console.DynamicConfig) *ruleHolder {
	if d == nil {
		return nil
	}
	return &ruleHolder{ID: d.ID, ReleasePipelineID: d.ReleasePipelineID, Rules: d.Rules, ActiveReview: d.ActiveReview}
}
