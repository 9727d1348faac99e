// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The featureconsole_dynamic_config data source: one config with its own fields as
// featureconsole_dynamic_config holds them (flattenConfigFields) and its rules as
// featureconsole_dynamic_config_rules holds them (flattenRulesAs, variantRuleObjectType: with variants).

func NewDynamicConfigDataSource() datasource.DataSource {
	json := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, CustomType: framework.JSONValueType{}, MarkdownDescription: desc}
	}
	return newRuledObjectDataSource(ruledObjectSpec[console.DynamicConfig]{
		typeName: "dynamic_config",
		description: "Reads one dynamic config with its rules (`GET /dynamic_configs/{id}`): its own fields, default " +
			"value and schema as `featureconsole_dynamic_config` holds them, and its rules with their return values as " +
			"`featureconsole_dynamic_config_rules` holds them.",
		idAttr:        configIdentityAttr,
		idDescription: "Identifier of the config, such as `checkout_copy`. A config that does not exist is an error.",
		kind:          "dynamic config",
		notFound:      "No dynamic config with this id exists in the project: check config_id.",
		fields: map[string]schema.Attribute{
			"name":        framework.ComputedText("Display name."),
			"description": framework.ComputedText("Description; empty when it has none."),
			"is_enabled": schema.BoolAttribute{Computed: true,
				MarkdownDescription: "Whether the config is enabled: a disabled config serves its default value to everyone."},
			"id_type":             framework.ComputedText("Unit ID type the rules check, such as `userID`."),
			"tags":                schema.SetAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Tags of the config."},
			"target_apps":         schema.SetAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Target apps the config is served to."},
			"default_value":       json("Value served when no rule passes, as a JSON string (`jsondecode` it); null when it is `{}`."),
			"schema":              json("JSON Schema every value must match, as a JSON string; null when the config has none."),
			"release_pipeline_id": framework.ComputedText("Release pipeline the config's rule changes roll out through; null for none."),
			"version":             schema.Int64Attribute{Computed: true, MarkdownDescription: "The service's version of the config."},
			"creator_name":        framework.ComputedText("Name of whoever created the config."),
			"created_time": schema.Int64Attribute{Computed: true,
				MarkdownDescription: "When the config was created, in milliseconds since the Unix epoch."},
			"last_modifier_name": framework.ComputedText("Name of whoever last changed the config, its rules included."),
			"last_modifier_id":   framework.ComputedText("Identifier of whoever last changed the config, its rules included."),
			"archived": schema.BoolAttribute{Computed: true,
				MarkdownDescription: "Whether the config is archived: it refuses changes until it is unarchived."},
		},
		rulesDescription: "The config's rules in evaluation order, each with its `return_value` and `variants`, as a rule of " +
			"`featureconsole_dynamic_config_rules` holds it (see that resource for what each attribute means).",
		get:      (*console.Client).GetDynamicConfig,
		rules:    func(c *console.DynamicConfig) []console.Rule { return c.Rules },
		ruleType: variantRuleObjectType,
		model: func(c *console.DynamicConfig, rules types.List) any {
			m := &configDataModel{Rules: rules}
			flattenConfigFields(c, &m.dynamicConfigFields)
			return m
		},
	})
}

type configDataModel struct {
	dynamicConfigFields
	Rules types.List `tfsdk:"rules"`
}
