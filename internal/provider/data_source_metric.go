// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The featureconsole_metric data source: one metric, by id, as featureconsole_metric holds it
// (metricFields, flattenMetric), archived or not.

type metricDataSource struct{ dataSourceData }

var _ datasource.DataSourceWithConfigure = &metricDataSource{}

func NewMetricDataSource() datasource.DataSource {
	return &metricDataSource{dataSourceData{typeName: "metric"}}
}

func (d *metricDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := map[string]dschema.Attribute{}
	for name, a := range metricAttributes(ctx) {
		switch name {
		case "id", "archive_on_destroy", "validate_on_plan", "timeouts":
			continue
		}
		attrs[name] = readAttribute(a)
		if desc, ok := metricReadDescriptions[name]; ok {
			attrs[name] = withDescription(attrs[name], desc)
		}
	}
	attrs["id"] = dschema.StringAttribute{Required: true,
		MarkdownDescription: "Identifier of the metric, `\"<name>::<type>\"`, such as `revenue::user_warehouse`.",
		Validators:          []validator.String{framework.NotBlank()}}
	resp.Schema = dschema.Schema{
		MarkdownDescription: "Reads one metric (`GET /metrics/{id}`) as `featureconsole_metric` holds it: its type, events or " +
			"warehouse definition, tags and where it stands (`status`). An archived metric is read too; one that does not exist " +
			"is an error. An experiment can name it as `{ name = data.featureconsole_metric.x.name, type = data.featureconsole_metric.x.type }`.",
		Attributes: attrs,
	}
}

// writeWords are the sentences of a resource attribute's description that speak of writing it.
var writeWords = regexp.MustCompile(`\s*[^.]*(Updated in place|Defaults to|forces replacement|Changing it|Omit for|Omit to|fails the plan|checked at apply)[^.]*\.`)

// metricReadDescriptions say what the data source reads where the resource's words speak of writes.
var metricReadDescriptions = map[string]string{
	"name":           "Name of the metric.",
	"directionality": "Direction that counts as better: `increase` or `decrease`.",
	"unit_types":     "Unit ID types the metric is computed for, such as `userID`.",
	"status": "Where the metric stands: `active`, `archive_scheduled` (the service archives it the next day) " +
		"or `archived`.",
	"metric_events":            "For the event types (`event_count_custom`, `event_user`, `sum`, `mean`, `ratio`): the events measured, in order; null for other types.",
	"metric_component_metrics": "For `composite` and `composite_sum`: the metrics combined; null for other types.",
	"funnel_events":            "For `funnel`: the funnel's steps, in order; null for other types.",
	"warehouse_native":         "For `user_warehouse`: how the metric is computed in the warehouse from a metric source; null for other types.",
}

// withDescription returns a read attribute with another description.
func withDescription(a dschema.Attribute, desc string) dschema.Attribute {
	switch t := a.(type) {
	case dschema.StringAttribute:
		t.MarkdownDescription = desc
		return t
	case dschema.SetAttribute:
		t.MarkdownDescription = desc
		return t
	case dschema.ListNestedAttribute:
		t.MarkdownDescription = desc
		return t
	case dschema.SingleNestedAttribute:
		t.MarkdownDescription = desc
		return t
	}
	return a
}

// readAttribute is a resource attribute as a data source reads it: computed, of the same type (so
// that one model serves both), with the resource's description less what it says of writes.
func readAttribute(a schema.Attribute) dschema.Attribute {
	desc := strings.TrimSpace(writeWords.ReplaceAllString(a.GetMarkdownDescription(), ""))
	switch t := a.(type) {
	case schema.StringAttribute:
		return dschema.StringAttribute{Computed: true, MarkdownDescription: desc}
	case schema.BoolAttribute:
		return dschema.BoolAttribute{Computed: true, MarkdownDescription: desc}
	case schema.SetAttribute:
		return dschema.SetAttribute{Computed: true, ElementType: t.ElementType, MarkdownDescription: desc}
	case schema.ListAttribute:
		return dschema.ListAttribute{Computed: true, ElementType: t.ElementType, MarkdownDescription: desc}
	case schema.ListNestedAttribute:
		return dschema.ListNestedAttribute{Computed: true, MarkdownDescription: desc,
			NestedObject: dschema.NestedAttributeObject{Attributes: readAttributes(t.NestedObject.Attributes)}}
	case schema.SingleNestedAttribute:
		return dschema.SingleNestedAttribute{Computed: true, MarkdownDescription: desc, Attributes: readAttributes(t.Attributes)}
	}
	panic(fmt.Sprintf("readAttribute: no data source form of %T", a))
}

func readAttributes(in map[string]schema.Attribute) map[string]dschema.Attribute {
	out := make(map[string]dschema.Attribute, len(in))
	for name, a := range in {
		out[name] = readAttribute(a)
	}
	return out
}

func (d *metricDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m metricFields
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	id := m.ID.ValueString()
	got, err := d.data.client.GetMetric(ctx, id)
	if err != nil {
		failure := framework.APIFailure{Op: "read", Object: fmt.Sprintf("metric %q", id)}
		if console.NotFound(err) {
			resp.Diagnostics.AddAttributeError(path.Root("id"), fmt.Sprintf("Metric %q not found", id),
				fmt.Sprintf("The console has no metric %q. A metric's id is \"<name>::<type>\", such as \"revenue::user_warehouse\".\n\n%s",
					id, failure.Detail(ctx, nil, err)))
			return
		}
		failure.Add(ctx, &resp.Diagnostics, nil, err)
		return
	}
	flattenMetric(got, &m)
	m.ID = types.StringValue(id) // as configured

	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
