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

// The featureconsole_gate data source: one gate, archived and stale ones too, with its own fields as
// featureconsole_gate holds them (flattenGateFields) and its rules as featureconsole_gate_rules holds
// them (flattenRules, ruleObjectType).

func NewGateDataSource() datasource.DataSource {
	return newRuledObjectDataSource(ruledObjectSpec[console.Gate]{
		typeName: "gate",
		description: "Reads one gate with its rules (`GET /gates/{id}`): its own fields as `featureconsole_gate` " +
			"holds them and its rules as `featureconsole_gate_rules` holds them. Archived and stale gates are read too.",
		idAttr:        gateIdentityAttr,
		idDescription: "Identifier of the gate, such as `new_checkout`. A gate that does not exist is an error.",
		kind:          "gate",
		notFound:      "No gate with this id exists in the project (archived gates are found too): check gate_id.",
		fields: map[string]schema.Attribute{
			"name":        framework.ComputedText("Display name."),
			"description": framework.ComputedText("Description; empty when it has none."),
			"is_enabled": schema.BoolAttribute{Computed: true,
				MarkdownDescription: "Whether the gate is enabled: a disabled gate fails every check."},
			"tags": schema.SetAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Tags of the gate."},
			"target_apps": schema.SetAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "Target apps the gate is served to, by name."},
			"type": framework.ComputedText("`PERMANENT` or `TEMPORARY`. A temporary gate the service judges stale (shown as `STALE` " +
				"in the console) reads `TEMPORARY`, as `featureconsole_gate` holds it; `type_reason` says why it is stale."),
			"type_reason": framework.ComputedText("Why the service judges the gate stale, such as `STALE_NO_RULES` or " +
				"`STALE_PROBABLY_LAUNCHED`; `NONE` when it does not."),
			"id_type":             framework.ComputedText("Unit ID type the gate checks, such as `userID`."),
			"release_pipeline_id": framework.ComputedText("Release pipeline the gate's rule changes roll out through; null for none."),
			"status":              framework.ComputedText("Status of the gate, such as `In Progress` or `Archived`."),
			"archived": schema.BoolAttribute{Computed: true,
				MarkdownDescription: "Whether the gate is archived: an archived gate fails every check and its rules have no effect."},
			"creator_name": framework.ComputedText("Name of whoever created the gate."),
			"created_time": schema.Int64Attribute{Computed: true,
				MarkdownDescription: "When the gate was created, in milliseconds since the Unix epoch."},
			"last_modifier_name": framework.ComputedText("Name of whoever last changed the gate, its rules included."),
			"last_modifier_id":   framework.ComputedText("Identifier of whoever last changed the gate, its rules included."),
		},
		rulesDescription: "The gate's rules in evaluation order, each as a rule of `featureconsole_gate_rules` " +
			"holds it (see that resource for what each attribute means).",
		get:   (*console.Client).GetGate,
		rules: func(g *console.Gate) []console.Rule { return g.Rules },
		model: func(g *console.Gate, rules types.List) any {
			var f gateModel
			flattenGateFields(g, &f)
			return &gateDataModel{gateFields: f.gateFields, Rules: rules}
		},
	})
}

type gateDataModel struct {
	gateFields
	Rules types.List `tfsdk:"rules"`
}
