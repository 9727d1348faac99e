// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// The featureconsole_gate data source: one gate, archived and stale ones too, with its own fields as
// featureconsole_gate holds them (flattenGateFields) and its rules as featureconsole_gate_rules holds
// them (flattenRules, gateRuleObjectType).

var _ datasource.DataSourceWithConfigure = &gateDataSource{}

func NewGateDataSource() datasource.DataSource { return &gateDataSource{} }

type gateDataSource struct{ data *providerData }

type gateDataModel struct {
	gateFields
	Rules types.List `tfsdk:"rules"`
}

func (d *gateDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_gate"
}

func (d *gateDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, resp.Diagnostics.AddError)
}

func (d *gateDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one gate with its rules (`GET /gates/{id}`): its own fields as `featureconsole_gate` " +
			"holds them and its rules as `featureconsole_gate_rules` holds them. Archived and stale gates are read too.",
		Attributes: map[string]schema.Attribute{
			"gate_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Identifier of the gate, such as `new_checkout`. A gate that does not exist is an error.",
				Validators:          []validator.String{stringvalidator.LengthBetween(3, 100), notBlank()},
			},
			"name":        computedText("Display name."),
			"description": computedText("Description; empty when it has none."),
			"is_enabled": schema.BoolAttribute{Computed: true,
				MarkdownDescription: "Whether the gate is enabled: a disabled gate fails every check."},
			"tags": schema.SetAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Tags of the gate."},
			"type": computedText("`PERMANENT` or `TEMPORARY`. A temporary gate the service judges stale (shown as `STALE` " +
				"in the console) reads `TEMPORARY`, as `featureconsole_gate` holds it; `type_reason` says why it is stale."),
			"type_reason": computedText("Why the service judges the gate stale, such as `STALE_NO_RULES` or " +
				"`STALE_PROBABLY_LAUNCHED`; `NONE` when it does not."),
			"id_type":             computedText("Unit ID type the gate checks, such as `userID`."),
			"release_pipeline_id": computedText("Release pipeline the gate's rule changes roll out through; null for none."),
			"status":              computedText("Status of the gate, such as `In Progress` or `Archived`."),
			"archived": schema.BoolAttribute{Computed: true,
				MarkdownDescription: "Whether the gate is archived: an archived gate fails every check and its rules have no effect."},
			"creator_name": computedText("Name of whoever created the gate."),
			"created_time": schema.Int64Attribute{Computed: true,
				MarkdownDescription: "When the gate was created, in milliseconds since the Unix epoch."},
			"last_modifier_name": computedText("Name of whoever last changed the gate, its rules included."),
			"last_modifier_id":   computedText("Identifier of whoever last changed the gate, its rules included."),
			"rules": schema.ListAttribute{
				Computed: true, ElementType: gateRuleObjectType,
				MarkdownDescription: "The gate's rules in evaluation order, each as a rule of `featureconsole_gate_rules` " +
					"holds it (see that resource for what each attribute means).",
			},
		},
	}
}

func (d *gateDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m gateDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	gateID := m.GateID.ValueString()
	g, err := d.data.client.GetGate(ctx, gateID)
	read := apiFailure{"read", fmt.Sprintf("gate %q", gateID)}
	if console.NotFound(err) {
		read.addAt(ctx, &resp.Diagnostics, path.Root("gate_id"), fmt.Sprintf("Gate %q not found", gateID), nil, err,
			"No gate with this id exists in the project (archived gates are found too): check gate_id.")
		return
	}
	if err != nil {
		read.add(ctx, &resp.Diagnostics, nil, err)
		return
	}
	var f gateModel
	flattenGateFields(g, &f)
	rules, diags := flattenRules(ctx, g.Rules, nil)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	m = gateDataModel{gateFields: f.gateFields, Rules: rules}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
