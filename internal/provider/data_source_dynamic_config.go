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

// The featureconsole_dynamic_config data source: one config with its own fields as
// featureconsole_dynamic_config holds them (flattenConfigFields) and its rules as
// featureconsole_dynamic_config_rules holds them (flattenRules, gateRuleObjectType).

var _ datasource.DataSourceWithConfigure = &configDataSource{}

func NewDynamicConfigDataSource() datasource.DataSource { return &configDataSource{} }

type configDataSource struct{ data *providerData }

type configDataModel struct {
	dynamicConfigFields
	Rules types.List `tfsdk:"rules"`
}

func (d *configDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_dynamic_config"
}

func (d *configDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, resp.Diagnostics.AddError)
}

func (d *configDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	json := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, CustomType: jsonValueType{}, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one dynamic config with its rules (`GET /dynamic_configs/{id}`): its own fields, default " +
			"value and schema as `featureconsole_dynamic_config` holds them, and its rules with their return values as " +
			"`featureconsole_dynamic_config_rules` holds them.",
		Attributes: map[string]schema.Attribute{
			"config_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Identifier of the config, such as `checkout_copy`. A config that does not exist is an error.",
				Validators:          []validator.String{stringvalidator.LengthBetween(3, 100), notBlank()},
			},
			"name":        computedText("Display name."),
			"description": computedText("Description; empty when it has none."),
			"is_enabled": schema.BoolAttribute{Computed: true,
				MarkdownDescription: "Whether the config is enabled: a disabled config serves its default value to everyone."},
			"id_type":             computedText("Unit ID type the rules check, such as `userID`."),
			"tags":                schema.SetAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Tags of the config."},
			"target_apps":         schema.SetAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Target apps the config is served to."},
			"default_value":       json("Value served when no rule passes, as a JSON string (`jsondecode` it); null when it is `{}`."),
			"schema":              json("JSON Schema every value must match, as a JSON string; null when the config has none."),
			"release_pipeline_id": computedText("Release pipeline the config's rule changes roll out through; null for none."),
			"version":             schema.Int64Attribute{Computed: true, MarkdownDescription: "The service's version of the config."},
			"creator_name":        computedText("Name of whoever created the config."),
			"created_time": schema.Int64Attribute{Computed: true,
				MarkdownDescription: "When the config was created, in milliseconds since the Unix epoch."},
			"last_modifier_name": computedText("Name of whoever last changed the config, its rules included."),
			"last_modifier_id":   computedText("Identifier of whoever last changed the config, its rules included."),
			"rules": schema.ListAttribute{
				Computed: true, ElementType: gateRuleObjectType,
				MarkdownDescription: "The config's rules in evaluation order, each with its `return_value`, as a rule of " +
					"`featureconsole_dynamic_config_rules` holds it (see that resource for what each attribute means).",
			},
		},
	}
}

func (d *configDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m configDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	id := m.ConfigID.ValueString()
	c, err := d.data.client.GetDynamicConfig(ctx, id)
	read := apiFailure{"read", fmt.Sprintf("dynamic config %q", id)}
	if console.NotFound(err) {
		read.addAt(ctx, &resp.Diagnostics, path.Root("config_id"), fmt.Sprintf("Dynamic config %q not found", id), nil, err,
			"No dynamic config with this id exists in the project: check config_id.")
		return
	}
	if err != nil {
		read.add(ctx, &resp.Diagnostics, nil, err)
		return
	}
	var f dynamicConfigFields
	flattenConfigFields(c, &f)
	rules, diags := flattenRules(ctx, c.Rules, nil)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &configDataModel{dynamicConfigFields: f, Rules: rules})...)
}
