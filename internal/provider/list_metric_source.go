// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

var _ list.ListResourceWithConfigure = &metricSourceList{}

func NewMetricSourceList() list.ListResource {
	return &metricSourceList{resourceData{typeName: "metric_source"}}
}

type metricSourceList struct{ resourceData }

func (l *metricSourceList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the metric sources of the project, identified and displayed by `name`. Takes no " +
			"filter. With `include_resource = true` each result carries the whole source, read from the list pages " +
			"themselves (`GET /metrics/metric_source/list`).",
	}
}

func (l *metricSourceList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	client, nullTO, ok := listSetup(ctx, req, stream, l.data)
	if !ok {
		return
	}
	opts := console.ListOptions{MaxRecords: int(max(req.Limit, 0))}
	stream.Results = listStream(req.Limit, apiFailure{"list", "metric sources"},
		func(fn func([]console.MetricSource) error) error { return client.EachMetricSourcesPage(ctx, opts, fn) },
		func(src console.MetricSource) (list.ListResult, bool) {
			return listedResult(ctx, req, sourceIdentityAttr, src.Name, src.Name, func() (any, diag.Diagnostics) {
				m := metricSourceModel{Timeouts: nullTO}
				flattenMetricSource(&src, &m)
				return &m, nil
			})
		})
}
