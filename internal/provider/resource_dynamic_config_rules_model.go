// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// configRulesModel is gateRulesModel with config_id for gate_id.
type configRulesModel struct {
	ConfigID types.String `tfsdk:"config_id"`
	rulesFields
}

func (m *configRulesModel) identity() (string, types.String) { return configIdentityAttr, m.ConfigID }

// flattenConfigRules stores the service's rules in m with their variants (flattenRulesModel).
func flattenConfigRules(ctx context.Context, service []console.Rule, m *configRulesModel, hints []ruleModel) diag.Diagnostics {
	return flattenRulesModel(ctx, variantRuleObjectType, service, m, hints)
}
