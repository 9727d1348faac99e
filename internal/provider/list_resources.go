// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"iter"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
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
func listStream[T any](limit int64, failure apiFailure, fetch func(func([]T) error) error, build func(T) (list.ListResult, bool)) iter.Seq[list.ListResult] {
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
			failure.add(&d, nil, err)
			push(list.ListResult{Diagnostics: d})
		}
	}
}

// listSetup is how every List begins: the configured client, and the null `timeouts` of the
// listed objects (they carry none). ok is false when the stream already carries the error.
func listSetup(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream, data *providerData) (client *console.Client, nullTO timeouts.Value, ok bool) {
	var d diag.Diagnostics
	if !requireClient(data, &d) {
		stream.Results = list.ListResultsStreamDiagnostics(d)
		return nil, nullTO, false
	}
	nullTO, d = nullListTimeouts(ctx, req)
	if d.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(d)
		return nil, nullTO, false
	}
	return data.client, nullTO, true
}

// listedResult is the result of one listed object (none for an object without an id): its identity
// and display name, and with include_resource the resource that model builds from the list page,
// exactly as Read would build it after an import.
func listedResult(ctx context.Context, req list.ListRequest, identityAttr, id, displayName string, model func() (any, diag.Diagnostics)) (list.ListResult, bool) {
	if id == "" {
		return list.ListResult{}, false
	}
	res := req.NewListResult(ctx)
	res.DisplayName = displayName
	res.Diagnostics.Append(res.Identity.SetAttribute(ctx, path.Root(identityAttr), id)...)
	if req.IncludeResource {
		m, d := model()
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
