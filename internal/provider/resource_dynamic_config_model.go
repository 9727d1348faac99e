// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The model of featureconsole_dynamic_config and its conversion to and from the service's config:
// the config's own fields only; its rules belong to featureconsole_dynamic_config_rules.

type dynamicConfigModel struct {
	ID types.String `tfsdk:"id"`
	dynamicConfigFields
	// ArchiveOnDestroy is Terraform's alone: never sent.
	ArchiveOnDestroy types.Bool     `tfsdk:"archive_on_destroy"`
	Timeouts         timeouts.Value `tfsdk:"timeouts"`
}

// dynamicConfigFields are the config's own fields, shared with the data source.
type dynamicConfigFields struct {
	ConfigID          types.String        `tfsdk:"config_id"`
	Name              types.String        `tfsdk:"name"`
	Description       types.String        `tfsdk:"description"`
	IsEnabled         types.Bool          `tfsdk:"is_enabled"`
	IDType            types.String        `tfsdk:"id_type"`
	Tags              types.Set           `tfsdk:"tags"`
	TargetApps        types.Set           `tfsdk:"target_apps"`
	DefaultValue      framework.JSONValue `tfsdk:"default_value"`
	Schema            framework.JSONValue `tfsdk:"schema"`
	ReleasePipelineID types.String        `tfsdk:"release_pipeline_id"`
	Version           types.Int64         `tfsdk:"version"`
	CreatorName       types.String        `tfsdk:"creator_name"`
	CreatedTime       types.Int64         `tfsdk:"created_time"`
	LastModifierID    types.String        `tfsdk:"last_modifier_id"`
	LastModifierName  types.String        `tfsdk:"last_modifier_name"`
	Archived          types.Bool          `tfsdk:"archived"`
}

func (m *dynamicConfigModel) identity() (string, types.String) { return configIdentityAttr, m.ConfigID }

// jsonOrEmpty returns the JSON a value attribute sends: its text, or {} for null (the service's "none").
func jsonOrEmpty(v framework.JSONValue) *json.RawMessage {
	if v.IsUnknown() {
		return nil
	}
	raw := json.RawMessage("{}")
	if b, ok := framework.KnownJSON(v); ok {
		raw = json.RawMessage(framework.CompactJSON(b))
	}
	return &raw
}

// configFieldsFrom returns the body of a create: the id and every field the plan knows.
func configFieldsFrom(ctx context.Context, m dynamicConfigModel) (console.DynamicConfigFields, diag.Diagnostics) {
	f := console.DynamicConfigFields{
		ID:                m.ConfigID.ValueString(),
		Name:              knownPointer(m.Name),
		Description:       knownPointer(m.Description),
		IDType:            knownPointer(m.IDType),
		ReleasePipelineID: knownLink(m.ReleasePipelineID),
		DefaultValue:      jsonOrEmpty(m.DefaultValue),
	}
	if b, ok := framework.KnownJSON(m.Schema); ok && !framework.IsEmptyJSONObject(b) { // none: left out
		f.Schema = &console.SchemaText{Text: framework.CompactJSON(b)}
	}
	if f.Name == nil { // the service would make one from the id's words; the contract says the id
		f.Name = m.ConfigID.ValueStringPointer()
	}
	if !m.IsEnabled.IsNull() && !m.IsEnabled.IsUnknown() {
		f.IsEnabled = m.IsEnabled.ValueBoolPointer()
	}
	tags, diags := knownTags(ctx, m.Tags)
	f.Tags = tags
	apps, d := knownTags(ctx, m.TargetApps)
	diags.Append(d...)
	f.TargetApps = apps
	return f, diags
}

// configChanges is the body of an update: the fields whose planned value differs from the state,
// JSON values compared by meaning. A pipeline the plan no longer names is detached (null).
func configChanges(ctx context.Context, plan, state dynamicConfigModel) (console.DynamicConfigFields, diag.Diagnostics) {
	all, diags := configFieldsFrom(ctx, plan)
	var f console.DynamicConfigFields
	ifChanged(plan.Name, state.Name, func() { f.Name = all.Name })
	ifChanged(plan.Description, state.Description, func() { f.Description = all.Description })
	ifChanged(plan.IsEnabled, state.IsEnabled, func() { f.IsEnabled = all.IsEnabled })
	ifChanged(plan.IDType, state.IDType, func() { f.IDType = all.IDType })
	ifChanged(plan.Tags, state.Tags, func() { f.Tags = all.Tags })
	ifChanged(plan.TargetApps, state.TargetApps, func() { f.TargetApps = all.TargetApps })
	if !framework.SameJSON(ctx, plan.DefaultValue, state.DefaultValue) {
		f.DefaultValue = all.DefaultValue
	}
	if !framework.SameJSON(ctx, plan.Schema, state.Schema) && !plan.Schema.IsUnknown() {
		f.Schema = cmp.Or(all.Schema, &console.NoSchema) // a schema removed is sent as null
	}
	ifChanged(plan.ReleasePipelineID, state.ReleasePipelineID, func() { f.ReleasePipelineID = plannedLink(plan.ReleasePipelineID) })
	return f, diags
}

func emptyConfigFields(f console.DynamicConfigFields) bool {
	return f.Name == nil && f.Description == nil && f.IsEnabled == nil && f.IDType == nil && f.Tags == nil &&
		f.TargetApps == nil && f.DefaultValue == nil && f.Schema == nil && f.ReleasePipelineID.IsZero() && f.Team == nil
}

// configHolds reports whether the config holds what was sent: how a create whose answer was lost
// is recognised as this apply's own.
func configHolds(c *console.DynamicConfig, f console.DynamicConfigFields) bool {
	same := func(p *string, v string) bool { return p == nil || *p == v }
	sameSchema := f.Schema == nil || sameConfigValue(jsonText(f.Schema.Text), c.Schema)
	return c.ID == f.ID && same(f.Name, c.Name) && same(f.Description, c.Description) && same(f.IDType, c.IDType) &&
		f.ReleasePipelineID.HeldBy(c.ReleasePipelineID) && (f.IsEnabled == nil || *f.IsEnabled == c.IsEnabled) &&
		(f.Tags == nil || sameStringSet(*f.Tags, c.Tags)) && (f.TargetApps == nil || sameStringSet(*f.TargetApps, c.TargetApps)) &&
		sameConfigValue(f.DefaultValue, c.DefaultValue) && sameSchema
}

func jsonText(s string) *json.RawMessage {
	raw := json.RawMessage(s)
	return &raw
}

// sameConfigValue compares a JSON value sent with the one the service holds, {} and none alike.
func sameConfigValue(p *json.RawMessage, v console.JSONObject) bool {
	if p == nil {
		return true
	}
	if framework.IsEmptyJSONObject(*p) || framework.IsEmptyJSONObject(json.RawMessage(v)) {
		return framework.IsEmptyJSONObject(*p) && framework.IsEmptyJSONObject(json.RawMessage(v))
	}
	return framework.SameJSONMeaning(*p, v)
}

// flattenJSONValue is a value the service holds as the attribute stores it: null for {} where the
// state or plan holds null (the configuration omits it), else the service's text; the framework
// keeps the prior text where it means the same (jsontypes.Normalized).
func flattenJSONValue(service console.JSONObject, prior framework.JSONValue) framework.JSONValue {
	raw := json.RawMessage(service)
	if framework.IsEmptyJSONObject(raw) {
		if prior.IsNull() || prior.IsUnknown() {
			return framework.NewJSONNull()
		}
		if b, _ := framework.KnownJSON(prior); framework.IsEmptyJSONObject(b) {
			return prior
		}
		return framework.NewJSONValue("{}")
	}
	return framework.NewJSONValue(framework.CanonicalJSON(raw))
}

// flattenConfigFields puts what the service holds into the model.
func flattenConfigFields(c *console.DynamicConfig, m *dynamicConfigFields) {
	m.ConfigID = types.StringValue(c.ID)
	m.Name = framework.StringOrPrior(c.Name, m.Name)
	m.Description = types.StringValue(c.Description)
	m.IsEnabled = types.BoolValue(c.IsEnabled)
	m.IDType = types.StringValue(c.IDType)
	m.Tags = framework.StringSet(c.Tags)
	m.TargetApps = framework.StringSet(c.TargetApps)
	m.DefaultValue = flattenJSONValue(c.DefaultValue, m.DefaultValue)
	m.Schema = flattenJSONValue(c.Schema, m.Schema)
	m.ReleasePipelineID = framework.StringOrNull(c.ReleasePipelineID)
	m.Version = types.Int64Value(int64(c.Version))
	m.CreatorName = types.StringValue(c.CreatorName)
	m.CreatedTime = types.Int64Value(int64(c.CreatedTime))
	m.LastModifierID = types.StringValue(c.LastModifierID)
	m.LastModifierName = types.StringValue(c.LastModifierName)
	m.Archived = types.BoolValue(c.Archived())
}

// flatten puts what the service holds into the resource's model; archive_on_destroy is kept, false
// where nothing set it (import, a listing).
func (m *dynamicConfigModel) flatten(c *console.DynamicConfig) {
	m.ID = types.StringValue(c.ID)
	flattenConfigFields(c, &m.dynamicConfigFields)
	if m.ArchiveOnDestroy.IsNull() || m.ArchiveOnDestroy.IsUnknown() {
		m.ArchiveOnDestroy = types.BoolValue(false)
	}
}

// configReviews is where the reviews of a dynamic config's changes are read and committed.
var configReviews = reviewTarget[console.DynamicConfig]{noun: "dynamic config", get: (*console.Client).GetDynamicConfigReview,
	commit: (*console.Client).CommitDynamicConfigReview, read: (*console.Client).GetDynamicConfig}

const configIdentityAttr = "config_id"

// configArchiveAttributes are `archived` and `archive_on_destroy` of featureconsole_dynamic_config.
func configArchiveAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"archived": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "Whether the config is archived. An archived config keeps its rules and history, and " +
				"neither its fields nor its rules can change until it is unarchived. `true` archives the config, `false` " +
				"(the default) unarchives it: a config archived in the console shows as `archived = true -> false`, and " +
				"apply unarchives it before any other change of the config or its rules. Updated in place.",
		},
		"archive_on_destroy": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "What destroy does with the config: `false` (the default) deletes it with its rules; " +
				"`true` archives it instead and leaves it in the console with its rules and history. A config already " +
				"archived is left as it is. Terraform destroys a `featureconsole_dynamic_config_rules` of the config " +
				"before the config, which removes the rules: set that resource's `keep_on_destroy` to this value " +
				"(`keep_on_destroy = featureconsole_dynamic_config.<name>.archive_on_destroy`) to keep them. Changing it " +
				"sends no request: it only changes what a later destroy does.",
		},
	}
}

// configArchiveFailure names a failed archive or unarchive of a config in its diagnostic.
func configArchiveFailure(id string, archive bool) framework.APIFailure {
	verb := "unarchive"
	if archive {
		verb = "archive"
	}
	return framework.APIFailure{Op: verb, Object: fmt.Sprintf("dynamic config %q", id)}
}

// addArchivedConfigWriteError reports a write of a config's fields or rules that the service refused
// because the config is archived, and reports whether it did (archivedWrite).
func addArchivedConfigWriteError(ctx context.Context, client *console.Client, diags *diag.Diagnostics, id string, write framework.APIFailure, op *framework.Operation, err error) bool {
	return configArchivedWrite.add(ctx, diags, id, write, op, err, func() bool {
		c, gerr := client.GetDynamicConfig(ctx, id)
		return gerr == nil && c.Archived()
	})
}

var configArchivedWrite = archivedWrite{
	kind: "Dynamic config", noun: "dynamic config", ownType: "featureconsole_dynamic_config",
	rulesType: "featureconsole_dynamic_config_rules", idAttr: "config_id",
	refused: "The service refuses changes of an archived config's fields and rules.",
	leftInPlace: "The config is archived, and the service refuses changes of an archived config's rules. They are " +
		"deleted with the config, or kept with it while it stays archived. Terraform no longer manages them.",
	before: "any other write of the config, and before ",
}
