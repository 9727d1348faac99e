// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The featureconsole_target_app data source: one target app, by name, for its id (a key's
// target_app_id).

type targetAppDataSource struct{ dataSourceData }

var _ datasource.DataSourceWithConfigure = &targetAppDataSource{}

func NewTargetAppDataSource() datasource.DataSource {
	return &targetAppDataSource{dataSourceData{typeName: "target_app"}}
}

type targetAppDataModel struct {
	ID   types.String `tfsdk:"id"`
	Name types.String `tfsdk:"name"`
}

func (d *targetAppDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Reads one target app of the project by name (from `GET /target_app`), for its id: a key made " +
			"by Terraform can be scoped to an app made in the console (`target_app_id = data.featureconsole_target_app.web.id`). " +
			"No app, or several, of that name is an error.",
		Attributes: map[string]dschema.Attribute{
			"name": dschema.StringAttribute{Required: true, MarkdownDescription: "Name of the app.",
				Validators: []validator.String{framework.NotBlank()}},
			"id": dschema.StringAttribute{Computed: true, MarkdownDescription: "Identifier of the app, made by the service."},
		},
	}
}

func (d *targetAppDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m targetAppDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	name := m.Name.ValueString()
	app, ok := readOne(ctx, d.data.client, (*console.Client).FindTargetApp, "target app", "name", name,
		fmt.Sprintf("The project has no target app named %q.", name), &resp.Diagnostics)
	if !ok {
		return
	}
	if app.ID == "" {
		resp.Diagnostics.AddAttributeError(path.Root("name"), fmt.Sprintf("Target app %q has no id", name),
			"The service's list of target apps gives no id for this app.")
		return
	}
	m.ID = types.StringValue(app.ID)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
