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

func upgradeGateRulesV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	m := gateRulesModel{OnActiveRun: types.StringValue(onActiveRunFail)}
	for name, target := range map[string]any{"id": &m.ID, "gate_id": &m.GateID, "rules": &m.Rules, "timeouts": &m.Timeouts} {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(name), target)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
