// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The model of featureconsole_key and its conversion to and from the service's key. The secret is
// the key's id on the wire; the resource's id is its fingerprint (DESIGN §4).

const keyIdentityAttr = "fingerprint"

type keyModel struct {
	ID                    types.String   `tfsdk:"id"`
	Type                  types.String   `tfsdk:"type"`
	Description           types.String   `tfsdk:"description"`
	Environments          types.Set      `tfsdk:"environments"`
	Scopes                types.Set      `tfsdk:"scopes"`
	TargetAppID           types.String   `tfsdk:"target_app_id"`
	SecondaryTargetAppIDs types.Set      `tfsdk:"secondary_target_app_ids"`
	RotationTriggers      types.Map      `tfsdk:"rotation_triggers"`
	Deactivated           types.Bool     `tfsdk:"deactivated"`
	Secret                types.String   `tfsdk:"secret"`
	Timeouts              timeouts.Value `tfsdk:"timeouts"`
}

// identity is the key's fingerprint, its id: the fingerprint of the secret Terraform first met.
func (m *keyModel) identity() (string, types.String) { return keyIdentityAttr, m.ID }

// expandKey is the body of a create or an update: every field the configuration manages, so an
// update clears what it no longer sets.
func expandKey(ctx context.Context, m keyModel) (console.KeyWrite, diag.Diagnostics) {
	var diags diag.Diagnostics
	k := console.KeyWrite{Type: m.Type.ValueString(), Description: m.Description.ValueStringPointer()}
	diags.Append(m.Environments.ElementsAs(ctx, &k.Environments, true)...)
	if !m.Scopes.IsUnknown() && !m.Scopes.IsNull() {
		diags.Append(m.Scopes.ElementsAs(ctx, &k.Scopes, true)...)
	}
	diags.Append(m.SecondaryTargetAppIDs.ElementsAs(ctx, &k.SecondaryTargetAppIDs, true)...)
	if app, ok := framework.KnownString(m.TargetAppID); ok && app != "" {
		k.TargetAppID = console.LinkTo(app)
	}
	return k, diags
}

// flattenKey reads the key into m. What the answer leaves out keeps m's value (the description,
// which the document's examples leave out); a set the service answers empty where m holds null
// stays null (the service answers [] for none).
func flattenKey(k *console.Key, m *keyModel) {
	if k.Secret != "" {
		m.Secret = types.StringValue(k.Secret)
	}
	if k.Type != "" {
		m.Type = types.StringValue(k.Type)
	}
	if k.Description != nil {
		m.Description = types.StringValue(*k.Description)
	}
	m.Environments = setOrNull(k.Environments, m.Environments)
	m.Scopes = framework.StringSet(k.Scopes)
	m.SecondaryTargetAppIDs = setOrNull(k.SecondaryTargetApps, m.SecondaryTargetAppIDs)
	m.TargetAppID = framework.OptionalString(k.PrimaryTargetApp)
	m.Deactivated = types.BoolValue(k.Status == console.KeyStatusDeactivated)
	if m.ID.IsNull() || m.ID.IsUnknown() {
		m.ID = types.StringValue(console.Fingerprint(k.Secret))
	}
}

// setOrNull is s as a set, or null where s is empty and prior is null (or unknown: a plan's
// value the configuration leaves out).
func setOrNull(s []string, prior types.Set) types.Set {
	if len(s) == 0 && (prior.IsNull() || prior.IsUnknown()) {
		return types.SetNull(types.StringType)
	}
	return framework.StringSet(s)
}
