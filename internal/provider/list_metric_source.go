// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

func NewMetricSourceList() list.ListResource {
	return newPagedList(pagedListSpec[console.MetricSource, struct{}]{
		typeName: "metric_source",
		description: "Lists the metric sources of the project, identified and displayed by `name`. Takes no " +
			"filter. With `include_resource = true` each result carries the whole source, read from the list pages " +
			"themselves (`GET /metrics/metric_source/list`).",
		pages:        (*console.Client).EachMetricSourcesPage,
		failure:      framework.APIFailure{Op: "list", Object: "metric sources"},
		identityAttr: sourceIdentityAttr,
		identify:     func(src *console.MetricSource) (string, string) { return src.Name, src.Name },
		model: func(_ context.Context, src *console.MetricSource, nullTO timeouts.Value) (any, diag.Diagnostics) {
			m := metricSourceModel{Timeouts: nullTO}
			flattenMetricSource(src, &m)
			return &m, nil
		},
	})
}
