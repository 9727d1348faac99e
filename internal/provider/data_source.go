// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The provider's data sources have two shapes, each held here once. Most list what the service
// holds: a few filter attributes in, one computed list of nested objects out; listDataSource is that
// shape, and each such data source is a listDataSourceSpec over its model M (the filters and the
// list, as tfsdk fields) plus its flatten. The others read one object that has rules (a gate, a
// dynamic config) by its id: ruledObjectDataSource, and each is a ruledObjectSpec.

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
	fill func(ctx context.Context, client *console.Client, opts console.ListOptions, m *M, diags *diag.Diagnostics) (framework.APIFailure, error)
}

type listDataSource[M any] struct {
	dataSourceData
	spec listDataSourceSpec[M]
}

func newListDataSource[M any](spec listDataSourceSpec[M]) datasource.DataSource {
	return &listDataSource[M]{dataSourceData: dataSourceData{typeName: spec.typeName}, spec: spec}
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

// Read reads the configuration into the model, lets fill complete it, and sets the model as state.
func (d *listDataSource[M]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m M
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	opts := console.ListOptions{Concurrency: d.data.readConcurrency}
	if what, err := d.spec.fill(ctx, d.data.client, opts, &m, &resp.Diagnostics); err != nil {
		what.Add(ctx, &resp.Diagnostics, nil, err)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// ruledObjectSpec is a data source that reads one object with its rules (T: console.Gate,
// console.DynamicConfig): its own fields as its resource holds them and its rules as its rules
// resource holds them (flattenRules, ruleObjectType).
type ruledObjectSpec[T any] struct {
	typeName      string // after the provider's name: gate for featureconsole_gate
	description   string
	idAttr        string // the required id attribute, such as gate_id
	idDescription string
	kind          string // the object in diagnostics, lower case: gate, dynamic config
	// notFound is the advice of the diagnostic of an id the service does not know.
	notFound         string
	fields           map[string]schema.Attribute // the object's own fields, computed
	rulesDescription string
	get              func(client *console.Client, ctx context.Context, id string) (*T, error)
	rules            func(*T) []console.Rule
	// ruleType is the rules' object type as the rules resource holds them; the gate rule's when unset.
	ruleType types.ObjectType
	// model is the data source's model (a pointer to its tfsdk struct) of obj and its rules.
	model func(obj *T, rules types.List) any
}

func (s ruledObjectSpec[T]) rulesType() types.ObjectType {
	if s.ruleType.AttrTypes == nil {
		return ruleObjectType
	}
	return s.ruleType
}

type ruledObjectDataSource[T any] struct {
	dataSourceData
	spec ruledObjectSpec[T]
}

var _ datasource.DataSourceWithConfigure = &ruledObjectDataSource[struct{}]{}

func newRuledObjectDataSource[T any](spec ruledObjectSpec[T]) datasource.DataSource {
	return &ruledObjectDataSource[T]{dataSourceData: dataSourceData{typeName: spec.typeName}, spec: spec}
}

func (d *ruledObjectDataSource[T]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := map[string]schema.Attribute{
		d.spec.idAttr: schema.StringAttribute{
			Required:            true,
			MarkdownDescription: d.spec.idDescription,
			Validators:          []validator.String{stringvalidator.LengthBetween(3, 100), framework.NotBlank()},
		},
		"rules": schema.ListAttribute{
			Computed: true, ElementType: d.spec.rulesType(), MarkdownDescription: d.spec.rulesDescription,
		},
	}
	maps.Copy(attrs, d.spec.fields)
	resp.Schema = schema.Schema{MarkdownDescription: d.spec.description, Attributes: attrs}
}

// Read is the id from the configuration, one read of the object, then its fields and rules into the
// state.
func (d *ruledObjectDataSource[T]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var id types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(d.spec.idAttr), &id)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	obj, ok := readOne(ctx, d.data.client, d.spec.get, d.spec.kind, d.spec.idAttr, id.ValueString(), d.spec.notFound, &resp.Diagnostics)
	if !ok {
		return
	}
	rules, diags := flattenRulesAs(ctx, d.spec.rulesType(), d.spec.rules(obj), nil)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, d.spec.model(obj, rules))...)
}

// readOne is the one object a data source reads by its id (the idAttr attribute); false when it
// cannot be read, with the diagnostic: an id the service does not know is an error at idAttr whose
// advice is notFound.
func readOne[T any](ctx context.Context, client *console.Client, get func(*console.Client, context.Context, string) (*T, error),
	kind, idAttr, id, notFound string, diags *diag.Diagnostics) (*T, bool) {
	obj, err := get(client, ctx, id)
	object := fmt.Sprintf("%s %q", kind, id)
	read := framework.APIFailure{Op: "read", Object: object}
	if console.NotFound(err) {
		read.AddAt(ctx, diags, path.Root(idAttr), framework.Capitalize(object)+" not found", nil, err, notFound)
		return nil, false
	}
	if err != nil {
		read.Add(ctx, diags, nil, err)
		return nil, false
	}
	return obj, true
}
