// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

func NewMetricList() list.ListResource {
	return newPagedList(pagedListSpec[console.Metric, metricListModel]{
		typeName: "metric",
		description: "Lists the metrics of the project, one `featureconsole_metric` per metric, identified by `id` " +
			"(`\"<name>::<type>\"`) and displayed by name. With `include_resource = true` each result carries the whole " +
			"metric, read from the list pages themselves (`GET /metrics/list`), not one read per metric. Metrics the resource " +
			"cannot manage (a type the service no longer creates, a name it no longer accepts) are left out with a warning " +
			"naming them; the `featureconsole_metric` data source reads them.",
		config: map[string]listschema.Attribute{
			"type": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only metrics of this type: " + framework.CodeList(metricTypes) + ". Omit for every metric.",
				Validators:          []validator.String{framework.OneOfDocumented("metric type", metricTypes)},
			},
			"tags": tagsFilterAttribute("metric"),
		},
		filter: func(ctx context.Context, cfg *metricListModel) (func(*console.Metric) bool, diag.Diagnostics) {
			tags, diags := wantedTags(ctx, cfg.Tags)
			typ, _ := framework.KnownString(cfg.Type)
			if len(tags) == 0 && typ == "" {
				return nil, diags
			}
			return func(m *console.Metric) bool { return (typ == "" || m.Type == typ) && hasEveryTag(m.Tags, tags) }, diags
		},
		pages:        (*console.Client).EachMetricsPage,
		failure:      framework.APIFailure{Op: "list", Object: "metrics"},
		identityAttr: metricIdentityAttr,
		identify: func(m *console.Metric) (string, string) {
			id := m.ID
			if id == "" && m.Name != "" {
				id = console.MetricID(m.Name, m.Type)
			}
			return nameOrID(id, m.Name)
		},
		leftOut: func(m *console.Metric) string {
			if slices.Contains(metricTypes, m.Type) && metricNameAccepted(m.Name) {
				return ""
			}
			return fmt.Sprintf("%q", m.ID)
		},
		leftOutWarning: func(ids []string) (string, string) {
			return "Metrics left out: featureconsole_metric cannot manage them",
				fmt.Sprintf("These metrics have a type the service no longer creates, or a name it no longer accepts (4 to 100 "+
					"letters, digits, spaces, '_' and '-'), so no featureconsole_metric is listed or generated for them: %s. "+
					"Read them with the featureconsole_metric data source.", strings.Join(ids, ", "))
		},
		model: func(_ context.Context, obj *console.Metric, nullTO timeouts.Value) (any, diag.Diagnostics) {
			m := metricModel{ArchiveOnDestroy: types.BoolValue(false), ValidateOnPlan: types.BoolValue(true), Timeouts: nullTO}
			flattenMetric(obj, &m.metricFields)
			return &m, nil
		},
	})
}

type metricListModel struct {
	Type types.String `tfsdk:"type"`
	Tags types.List   `tfsdk:"tags"`
}

// metricNameAccepted reports whether the resource accepts name (framework.MetricName).
func metricNameAccepted(name string) bool {
	var resp validator.StringResponse
	framework.MetricName().ValidateString(context.Background(),
		validator.StringRequest{Path: path.Root("name"), ConfigValue: types.StringValue(name)}, &resp)
	return !resp.Diagnostics.HasError()
}
