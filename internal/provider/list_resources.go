// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// List resources (Terraform 1.14+, `terraform query`): one per resource type and named as it. Each
// reads the service's list endpoint page by page and sends its results as the pages arrive; with
// include_resource the resource is built from the list page itself, exactly as Read would build it
// after an import, so that onboarding N objects costs N/page-size requests and the configuration
// Terraform generates from those results plans as imports only.

// errListDone stops the paging once the block's limit is reached or Terraform stops reading.
var errListDone = errors.New("list done")

// listStream turns a paged listing into the result stream. fetch reads the pages, handing each to
// its callback; build makes an object's result, or reports that a filter leaves it out. Paging stops
// as soon as limit results are sent (limit <= 0: no limit). A failed request ends the stream with
// one error result after whatever was sent before it.
func listStream[T any](ctx context.Context, limit int64, failure framework.APIFailure, fetch func(func([]T) error) error, build func(T) (list.ListResult, bool)) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		var sent int64
		err := fetch(func(page []T) error {
			for _, obj := range page {
				res, ok := build(obj)
				if !ok {
					continue
				}
				if !push(res) {
					return errListDone
				}
				sent++
				if limit > 0 && sent >= limit {
					return errListDone
				}
			}
			return nil
		})
		if err != nil && !errors.Is(err, errListDone) {
			var d diag.Diagnostics
			failure.Add(ctx, &d, nil, err)
			push(list.ListResult{Diagnostics: d})
		}
	}
}

// pagedListSpec is one list resource: the filters of its block, read into C (struct{} when it takes
// none), the service's listing of T page by page, and how each T becomes a result.
type pagedListSpec[T, C any] struct {
	typeName    string // the resource's: a list resource is named as the resource it lists
	description string
	config      map[string]listschema.Attribute // nil: the block takes no filter and C is not read
	// filter reads the block's filters into keep, which leaves objects out; a nil keep keeps every
	// object. nil: the block has nothing to filter by.
	filter func(ctx context.Context, cfg *C) (keep func(*T) bool, diags diag.Diagnostics)
	// listOptions, when set, is what the block's filters ask of the service's listing itself.
	listOptions func(cfg *C, opts *console.ListOptions)
	// pages reads the service's listing, handing each page to fn; failure names it in the
	// diagnostic of its failure.
	pages   func(client *console.Client, ctx context.Context, opts console.ListOptions, fn func([]T) error) error
	failure framework.APIFailure
	// identify gives an object's identity (the resource's identityAttr) and display name.
	identityAttr string
	identify     func(*T) (id, displayName string)
	// model builds the resource from the object on the list page, exactly as Read would after an
	// import; nullTO is its `timeouts` (listed objects carry none).
	model func(ctx context.Context, obj *T, nullTO timeouts.Value) (any, diag.Diagnostics)
	// leftOut, when set, names an object the resource cannot manage ("" for one it can): such
	// objects are no results, and one warning after the last result names them (leftOutWarning).
	leftOut        func(*T) string
	leftOutWarning func(names []string) (summary, detail string)
}

type pagedList[T, C any] struct {
	resourceData
	spec pagedListSpec[T, C]
}

var _ list.ListResourceWithConfigure = &pagedList[struct{}, struct{}]{}

func newPagedList[T, C any](spec pagedListSpec[T, C]) list.ListResource {
	return &pagedList[T, C]{resourceData: resourceData{typeName: spec.typeName}, spec: spec}
}

func (l *pagedList[T, C]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{MarkdownDescription: l.spec.description, Attributes: l.spec.config}
}

func (l *pagedList[T, C]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg C
	keep, nullTO, diags := l.start(ctx, req, &cfg)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	// Without a filter the service's page can stop at the limit; with one, pages are read until
	// enough objects pass it.
	opts := console.ListOptions{}
	if l.spec.listOptions != nil {
		l.spec.listOptions(&cfg, &opts)
	}
	if keep == nil {
		opts.MaxRecords = int(max(req.Limit, 0))
	}
	client := l.data.client
	var leftOut []string
	results := listStream(ctx, req.Limit, l.spec.failure,
		func(fn func([]T) error) error { return l.spec.pages(client, ctx, opts, fn) },
		func(obj T) (list.ListResult, bool) {
			if keep != nil && !keep(&obj) {
				return list.ListResult{}, false
			}
			if l.spec.leftOut != nil {
				if name := l.spec.leftOut(&obj); name != "" {
					leftOut = append(leftOut, name)
					return list.ListResult{}, false
				}
			}
			return l.result(ctx, req, &obj, nullTO)
		})
	stream.Results = func(push func(list.ListResult) bool) {
		more := true
		results(func(r list.ListResult) bool { more = push(r); return more })
		if more && len(leftOut) > 0 {
			var d diag.Diagnostics
			d.AddWarning(l.spec.leftOutWarning(leftOut))
			push(list.ListResult{Diagnostics: d})
		}
	}
}

// start is how every List begins: the block's filters, the configured client, and the null
// `timeouts` of the listed objects. The diagnostics are those of the first step that failed.
func (l *pagedList[T, C]) start(ctx context.Context, req list.ListRequest, cfg *C) (keep func(*T) bool, nullTO timeouts.Value, diags diag.Diagnostics) {
	if l.spec.config != nil {
		if diags = req.Config.Get(ctx, cfg); diags.HasError() {
			return nil, nullTO, diags
		}
	}
	diags = nil
	if !requireClient(l.data, &diags) {
		return nil, nullTO, diags
	}
	if nullTO, diags = nullListTimeouts(ctx, req); diags.HasError() || l.spec.filter == nil {
		return nil, nullTO, diags
	}
	keep, diags = l.spec.filter(ctx, cfg)
	return keep, nullTO, diags
}

// result is the result of one listed object (none for an object without an id): its identity
// and display name, and with include_resource the resource built from the list page.
func (l *pagedList[T, C]) result(ctx context.Context, req list.ListRequest, obj *T, nullTO timeouts.Value) (list.ListResult, bool) {
	id, displayName := l.spec.identify(obj)
	if id == "" {
		return list.ListResult{}, false
	}
	res := req.NewListResult(ctx)
	res.DisplayName = displayName
	res.Diagnostics.Append(res.Identity.SetAttribute(ctx, path.Root(l.spec.identityAttr), id)...)
	if req.IncludeResource {
		m, d := l.spec.model(ctx, obj, nullTO)
		res.Diagnostics.Append(d...)
		if !res.Diagnostics.HasError() {
			setListResource(ctx, &res, m)
		}
	}
	return res, true
}

// nullListTimeouts is the null `timeouts` value of a resource schema: listed objects carry none.
func nullListTimeouts(ctx context.Context, req list.ListRequest) (timeouts.Value, diag.Diagnostics) {
	t, diags := req.ResourceSchema.TypeAtPath(ctx, path.Root("timeouts"))
	if diags.HasError() {
		return timeouts.Value{}, diags
	}
	v, err := t.ValueFromTerraform(ctx, tftypes.NewValue(t.TerraformType(ctx), nil))
	if err != nil {
		diags.AddError("Unable to build a listed resource", err.Error())
		return timeouts.Value{}, diags
	}
	tv, ok := v.(timeouts.Value)
	if !ok {
		diags.AddError("Unable to build a listed resource", "the resource's timeouts attribute is not a timeouts value")
	}
	return tv, diags
}

// setListResource stores model as the result's resource.
func setListResource(ctx context.Context, res *list.ListResult, model any) {
	if res.Resource == nil {
		res.Resource = &tfsdk.Resource{}
	}
	res.Diagnostics.Append(res.Resource.Set(ctx, model)...)
}

// What the list resources of objects with tags and a display name (gates, dynamic configs) share.

// tagsFilterAttribute returns the tags filter of a list resource, its objects named by noun (gate, config).
func tagsFilterAttribute(noun string) listschema.ListAttribute {
	return listschema.ListAttribute{
		Optional:            true,
		ElementType:         types.StringType,
		MarkdownDescription: fmt.Sprintf("Only %ss carrying every tag listed. Omit for every %s.", noun, noun),
	}
}

// wantedTags returns what a tags filter asks for: nothing when it is null or unknown.
func wantedTags(ctx context.Context, filter types.List) ([]string, diag.Diagnostics) {
	var tags []string
	if framework.IsKnownList(filter) {
		if d := filter.ElementsAs(ctx, &tags, false); d.HasError() {
			return nil, d
		}
	}
	return tags, nil
}

func hasEveryTag(have, want []string) bool {
	for _, t := range want {
		if !slices.Contains(have, t) {
			return false
		}
	}
	return true
}

// nameOrID returns a listed object's display name: its name, or its id when it has none.
func nameOrID(id, name string) (string, string) {
	if framework.IsBlank(name) {
		return id, id
	}
	return id, name
}
