// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// Every data source of the provider lists what the service holds: a few filter attributes in, one
// computed list of nested objects out. listDataSource is that shape once; each data source is a
// listDataSourceSpec over its model M (the filters and the list, as tfsdk fields) plus its flatten.

var _ datasource.DataSourceWithConfigure = &listDataSource[struct{}]{}

type listDataSourceSpec[M any] struct {
	typeName        string // after the provider's name: users for featureconsole_users
	description     string
	filters         map[string]schema.Attribute
	listAttr        string // the computed list, such as users
	listDescription string
	item            map[string]schema.Attribute // one element of the list
	// fill lists what the service holds into m, whose filters are read from the configuration,
	// given the provider's read concurrency in opts. It names what it read, for the diagnostic of
	// its failure; a problem that is not the service's it adds to diags.
	fill func(ctx context.Context, client *console.Client, opts console.ListOptions, m *M, diags *diag.Diagnostics) (apiFailure, error)
}

type listDataSource[M any] struct {
	spec listDataSourceSpec[M]
	data *providerData
}

func newListDataSource[M any](spec listDataSourceSpec[M]) datasource.DataSource {
	return &listDataSource[M]{spec: spec}
}

func (d *listDataSource[M]) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.spec.typeName
}

func (d *listDataSource[M]) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, resp.Diagnostics.AddError)
}

func (d *listDataSource[M]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := map[string]schema.Attribute{d.spec.listAttr: schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: d.spec.listDescription,
		NestedObject:        schema.NestedAttributeObject{Attributes: d.spec.item},
	}}
	maps.Copy(attrs, d.spec.filters)
	resp.Schema = schema.Schema{MarkdownDescription: d.spec.description, Attributes: attrs}
}

// stringFilter is an optional string attribute that narrows what a data source lists.
func stringFilter(desc string, checks ...validator.String) schema.StringAttribute {
	return schema.StringAttribute{Optional: true, MarkdownDescription: desc, Validators: checks}
}

// computedText is a string attribute of what a data source read.
func computedText(desc string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
}

// Read is the configuration into the model, then fill, then the model into the state.
func (d *listDataSource[M]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m M
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	opts := console.ListOptions{Concurrency: d.data.readConcurrency}
	if what, err := d.spec.fill(ctx, d.data.client, opts, &m, &resp.Diagnostics); err != nil {
		what.add(ctx, &resp.Diagnostics, nil, err)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
