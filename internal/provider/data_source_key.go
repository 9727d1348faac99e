// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The featureconsole_key data source: one key, by the fingerprint of its secret, as
// featureconsole_key holds it, secret included (sensitive). A key made in the console is read
// this way into a secret store.

type keyDataSource struct{ dataSourceData }

var _ datasource.DataSourceWithConfigure = &keyDataSource{}

func NewKeyDataSource() datasource.DataSource {
	return &keyDataSource{dataSourceData{typeName: "key"}}
}

// keyDataModel is keyModel less what only the resource manages.
type keyDataModel struct {
	ID                    types.String `tfsdk:"id"`
	Type                  types.String `tfsdk:"type"`
	Description           types.String `tfsdk:"description"`
	Environments          types.Set    `tfsdk:"environments"`
	Scopes                types.Set    `tfsdk:"scopes"`
	TargetAppID           types.String `tfsdk:"target_app_id"`
	SecondaryTargetAppIDs types.Set    `tfsdk:"secondary_target_app_ids"`
	Deactivated           types.Bool   `tfsdk:"deactivated"`
	Secret                types.String `tfsdk:"secret"`
}

func (d *keyDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	set := func(desc string) dschema.SetAttribute {
		return dschema.SetAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: desc}
	}
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Reads one key of the project by the fingerprint of its secret (`sha256:` and the first 16 hex " +
			"digits of its SHA-256), found in the project's keys (`GET /keys`). Its `secret` is sensitive: it is held in the " +
			"state, never shown in plan output. One that does not exist (or was rotated since the fingerprint was taken) is an error.",
		Attributes: map[string]dschema.Attribute{
			"id": dschema.StringAttribute{Required: true,
				MarkdownDescription: "Fingerprint of the key's secret, such as `sha256:0123456789abcdef`.",
				Validators:          []validator.String{framework.NotBlank()}},
			"type":                     dschema.StringAttribute{Computed: true, MarkdownDescription: "`SERVER`, `CLIENT` or `CONSOLE`."},
			"description":              dschema.StringAttribute{Computed: true, MarkdownDescription: "What the key is for; null when the service does not say."},
			"environments":             set("Environments the key serves; null for none."),
			"scopes":                   set("What the key may do."),
			"target_app_id":            dschema.StringAttribute{Computed: true, MarkdownDescription: "Id of the key's target app; null for none."},
			"secondary_target_app_ids": set("Ids of further target apps the key serves; null for none."),
			"deactivated":              dschema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the key was deactivated."},
			"secret":                   dschema.StringAttribute{Computed: true, Sensitive: true, MarkdownDescription: "The key itself. Sensitive."},
		},
	}
}

func (d *keyDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m keyDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	fp := m.ID.ValueString()
	if !console.IsFingerprint(fp) {
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Not a key fingerprint",
			// The value is not repeated: it may be the secret itself.
			"id: not a key's fingerprint, which is \"sha256:\" and 16 hex digits of the secret's SHA-256, such as "+
				"\"sha256:0123456789abcdef\" (never the secret itself).")
		return
	}
	k, err := d.data.client.FindKey(ctx, fp)
	if err != nil {
		framework.APIFailure{Op: "read", Object: "key " + fp}.Add(ctx, &resp.Diagnostics, nil, err)
		return
	}
	full := keyModel{ID: m.ID, Environments: types.SetNull(types.StringType), SecondaryTargetAppIDs: types.SetNull(types.StringType), Description: types.StringNull()}
	flattenKey(k, &full)
	m = keyDataModel{ID: m.ID, Type: full.Type, Description: full.Description, Environments: full.Environments, Scopes: full.Scopes,
		TargetAppID: full.TargetAppID, SecondaryTargetAppIDs: full.SecondaryTargetAppIDs, Deactivated: full.Deactivated, Secret: full.Secret}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
