// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The featureconsole_tag data source: one tag, by name.

type tagDataSource struct{ dataSourceData }

var _ datasource.DataSourceWithConfigure = &tagDataSource{}

func NewTagDataSource() datasource.DataSource {
	return &tagDataSource{dataSourceData{typeName: "tag"}}
}

type tagDataModel struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
	IsCore      types.Bool   `tfsdk:"is_core"`
}

func (d *tagDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Reads one tag of the project by name (from `GET /tags`). A tag that does not exist is an error.",
		Attributes: map[string]dschema.Attribute{
			"name": dschema.StringAttribute{Required: true, MarkdownDescription: "Name of the tag.",
				Validators: []validator.String{framework.NotBlank()}},
			"id":          dschema.StringAttribute{Computed: true, MarkdownDescription: "Identifier of the tag, made by the service."},
			"description": dschema.StringAttribute{Computed: true, MarkdownDescription: "Description; null when the service does not say."},
			"is_core":     dschema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the tag is one of the project's core tags."},
		},
	}
}

func (d *tagDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m tagDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	name := m.Name.ValueString()
	t, ok := readOne(ctx, d.data.client, (*console.Client).FindTag, "tag", "name", name,
		fmt.Sprintf("The project has no tag named %q.", name), &resp.Diagnostics)
	if !ok {
		return
	}
	m.ID = types.StringValue(t.ID)
	m.Description = framework.OptionalString(t.Description)
	m.IsCore = types.BoolValue(t.IsCore)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
