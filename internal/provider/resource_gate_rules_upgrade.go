// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

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
