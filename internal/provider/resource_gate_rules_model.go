// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// The model of featureconsole_gate_rules and its conversion to and from the service's gate.

type gateRulesModel struct {
	GateID types.String `tfsdk:"gate_id"`
	rulesFields
}

func (m *gateRulesModel) identity() (string, types.String) { return gateIdentityAttr, m.GateID }

// flattenGate stores the service's gate in m (flattenRulesModel).
func flattenGate(ctx context.Context, g *console.Gate, m *gateRulesModel, hints []ruleModel) diag.Diagnostics {
	return flattenRulesModel(ctx, ruleObjectType, g.Rules, m, hints)
}
