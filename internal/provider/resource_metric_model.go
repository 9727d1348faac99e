// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"reflect"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The model of featureconsole_metric (and of its data source and list resource) and its conversion
// to and from the service's metric. The document's lists (events, criteria, values) read null and
// [] alike: a list the service answers empty is null, and configuration may not write [] (the
// schema says to omit it), so that neither plans a change against the other.

// The document's enums of a metric (MetricCreationContractDto, MetricEventsCriteriaDto).
var (
	// metricTypes are the types a metric can be created with: the document's but "undefined".
	metricTypes        = []string{"event_count_custom", "event_user", "sum", "mean", "ratio", "funnel", "composite", "composite_sum", "user_warehouse"}
	metricAggregations = []string{"count", "sum", "mean", "daily_participation", "ratio", "funnel", "count_distinct", "percentile",
		"first_value", "latest_value", "retention", "max", "min"}
	metricEventTypes    = []string{"count", "count_distinct", "value", "metadata"}
	criterionTypes      = []string{"value", "metadata", "user", "user_custom"}
	criterionConditions = []string{"in", "not_in", "=", ">", "<", ">=", "<=", "is_null", "non_null", "contains", "not_contains",
		"sql_filter", "starts_with", "ends_with", "after_exposure", "before_exposure", "is_true", "is_false"}
	funnelEventTypes  = []string{"event_dau", "event_user", "event_count", "event_count_custom"}
	directionalities  = []string{"increase", "decrease"}
	metricArchiveWays = []string{string(console.MetricActive), string(console.MetricArchiveScheduled), string(console.MetricArchived)}
	// eventMetricTypes are measured from events: each names at least one in metric_events.
	eventMetricTypes = []string{"event_count_custom", "event_user", "sum", "mean", "ratio"}
	// compositeMetricTypes are made of other metrics (metric_component_metrics).
	compositeMetricTypes = []string{"composite", "composite_sum"}
)

const metricTypeWarehouse = "user_warehouse"

var (
	metricCriterionType = framework.ResourceObjectType(metricCriterionAttributes())
	metricEventType     = framework.ResourceObjectType(metricEventAttributes())
	metricRefType       = framework.ResourceObjectType(metricRefAttributes())
	funnelEventType     = framework.ResourceObjectType(funnelEventAttributes())
	warehouseNativeType = framework.ResourceObjectType(warehouseNativeAttributes())
)

// metricFields are what the service holds of a metric: the resource's attributes, and all of the
// data source's.
type metricFields struct {
	ID                     types.String `tfsdk:"id"`
	Name                   types.String `tfsdk:"name"`
	Type                   types.String `tfsdk:"type"`
	Description            types.String `tfsdk:"description"`
	Directionality         types.String `tfsdk:"directionality"`
	Tags                   types.Set    `tfsdk:"tags"`
	UnitTypes              types.Set    `tfsdk:"unit_types"`
	IsVerified             types.Bool   `tfsdk:"is_verified"`
	IsReadOnly             types.Bool   `tfsdk:"is_read_only"`
	IsPermanent            types.Bool   `tfsdk:"is_permanent"`
	Team                   types.String `tfsdk:"team"`
	MetricEvents           types.List   `tfsdk:"metric_events"`
	MetricComponentMetrics types.List   `tfsdk:"metric_component_metrics"`
	FunnelEvents           types.List   `tfsdk:"funnel_events"`
	WarehouseNative        types.Object `tfsdk:"warehouse_native"`
	Status                 types.String `tfsdk:"status"`
}

// metricModel is featureconsole_metric: the metric, and what the provider does with it.
type metricModel struct {
	metricFields
	ArchiveOnDestroy types.Bool     `tfsdk:"archive_on_destroy"`
	ValidateOnPlan   types.Bool     `tfsdk:"validate_on_plan"`
	Timeouts         timeouts.Value `tfsdk:"timeouts"`
}

type metricEventModel struct {
	Name        types.String `tfsdk:"name"`
	Type        types.String `tfsdk:"type"`
	MetadataKey types.String `tfsdk:"metadata_key"`
	Criteria    types.List   `tfsdk:"criteria"`
}

type metricCriterionModel struct {
	Type      types.String `tfsdk:"type"`
	Column    types.String `tfsdk:"column"`
	Condition types.String `tfsdk:"condition"`
	Values    types.List   `tfsdk:"values"`
}

type metricRefModel struct {
	Name types.String `tfsdk:"name"`
	Type types.String `tfsdk:"type"`
}

type warehouseNativeModel struct {
	Aggregation                 types.String `tfsdk:"aggregation"`
	MetricSourceName            types.String `tfsdk:"metric_source_name"`
	ValueColumn                 types.String `tfsdk:"value_column"`
	Criteria                    types.List   `tfsdk:"criteria"`
	DenominatorAggregation      types.String `tfsdk:"denominator_aggregation"`
	DenominatorMetricSourceName types.String `tfsdk:"denominator_metric_source_name"`
	DenominatorValueColumn      types.String `tfsdk:"denominator_value_column"`
	DenominatorCriteria         types.List   `tfsdk:"denominator_criteria"`
	MetricDimensionColumns      types.List   `tfsdk:"metric_dimension_columns"`
}

// identity is the metric's id, "<name>::<type>": the state's, or before one is known (a state
// written without one), the one its name and type make.
func (m *metricModel) identity() (string, types.String) {
	if id, ok := framework.KnownString(m.ID); ok && id != "" {
		return metricIdentityAttr, m.ID
	}
	if isKnown(m.Name) && isKnown(m.Type) {
		return metricIdentityAttr, types.StringValue(console.MetricID(m.Name.ValueString(), m.Type.ValueString()))
	}
	return metricIdentityAttr, types.StringUnknown()
}

// expandMetric is the body of a create (name and type included; the client leaves them out of an
// update). Every field is sent, so that an update clears what the configuration no longer sets;
// unit_types unknown (omitted at creation) is left to the service.
func expandMetric(ctx context.Context, m metricFields) (console.MetricFields, diag.Diagnostics) {
	var diags diag.Diagnostics
	f := console.MetricFields{
		Name:           m.Name.ValueString(),
		Type:           m.Type.ValueString(),
		Description:    new(m.Description.ValueString()),
		Directionality: m.Directionality.ValueString(),
		IsVerified:     new(m.IsVerified.ValueBool()),
		IsReadOnly:     new(m.IsReadOnly.ValueBool()),
		IsPermanent:    new(m.IsPermanent.ValueBool()),
		Team:           m.Team.ValueStringPointer(),
		Tags:           setStrings(ctx, m.Tags, &diags),
	}
	if !m.UnitTypes.IsUnknown() {
		f.UnitTypes = setStrings(ctx, m.UnitTypes, &diags)
	}
	for _, e := range listModels[metricEventModel](ctx, m.MetricEvents, &diags) {
		f.MetricEvents = append(f.MetricEvents, console.MetricEvent{Name: e.Name.ValueString(), Type: e.Type.ValueStringPointer(),
			MetadataKey: e.MetadataKey.ValueStringPointer(), Criteria: expandCriteria(ctx, e.Criteria, &diags)})
	}
	for _, c := range listModels[metricRefModel](ctx, m.MetricComponentMetrics, &diags) {
		f.MetricComponentMetrics = append(f.MetricComponentMetrics, console.MetricRef{Name: c.Name.ValueString(), Type: c.Type.ValueString()})
	}
	for _, e := range listModels[metricRefModel](ctx, m.FunnelEvents, &diags) {
		f.FunnelEventList = append(f.FunnelEventList, console.FunnelEvent{Name: e.Name.ValueString(), Type: e.Type.ValueString()})
	}
	if !m.WarehouseNative.IsNull() && !m.WarehouseNative.IsUnknown() {
		var wn warehouseNativeModel
		if framework.AsModel(ctx, m.WarehouseNative, &wn, &diags) {
			f.WarehouseNative = &console.WarehouseNative{
				Aggregation:                 wn.Aggregation.ValueString(),
				MetricSourceName:            wn.MetricSourceName.ValueString(),
				ValueColumn:                 wn.ValueColumn.ValueStringPointer(),
				Criteria:                    expandCriteria(ctx, wn.Criteria, &diags),
				DenominatorAggregation:      wn.DenominatorAggregation.ValueStringPointer(),
				DenominatorMetricSourceName: wn.DenominatorMetricSourceName.ValueStringPointer(),
				DenominatorValueColumn:      wn.DenominatorValueColumn.ValueStringPointer(),
				DenominatorCriteria:         expandCriteria(ctx, wn.DenominatorCriteria, &diags),
				MetricDimensionColumns:      listStrings(ctx, wn.MetricDimensionColumns, &diags),
			}
		}
	}
	return f, diags
}

func expandCriteria(ctx context.Context, l types.List, diags *diag.Diagnostics) []console.MetricCriterion {
	var out []console.MetricCriterion
	for _, c := range listModels[metricCriterionModel](ctx, l, diags) {
		out = append(out, console.MetricCriterion{Type: c.Type.ValueString(), Column: c.Column.ValueStringPointer(),
			Condition: c.Condition.ValueString(), Values: listStrings(ctx, c.Values, diags)})
	}
	return out
}

// listModels returns the elements of a known list; nil for a null or unknown one.
func listModels[T any](ctx context.Context, l types.List, diags *diag.Diagnostics) []T {
	if !framework.IsKnownList(l) {
		return nil
	}
	out, d := framework.ListModels[T](ctx, l)
	diags.Append(d...)
	return out
}

func listStrings(ctx context.Context, l types.List, diags *diag.Diagnostics) []string {
	if !framework.IsKnownList(l) {
		return nil
	}
	var out []string
	diags.Append(l.ElementsAs(ctx, &out, false)...)
	return out
}

func setStrings(ctx context.Context, s types.Set, diags *diag.Diagnostics) []string {
	out := []string{}
	if !s.IsNull() && !s.IsUnknown() {
		diags.Append(s.ElementsAs(ctx, &out, false)...)
	}
	return out
}

// flattenMetric writes what the service holds into m. A read without a description (the document's
// metric has none) keeps the one m holds; lists the service answers empty are null.
func flattenMetric(obj *console.Metric, m *metricFields) {
	if obj.ID != "" {
		m.ID = types.StringValue(obj.ID)
	} else if !isKnown(m.ID) {
		m.ID = types.StringValue(console.MetricID(obj.Name, obj.Type))
	}
	m.Name = types.StringValue(obj.Name)
	m.Type = types.StringValue(obj.Type)
	if obj.Description != nil {
		m.Description = types.StringValue(*obj.Description)
	} else if !isKnown(m.Description) {
		m.Description = types.StringValue("")
	}
	m.Directionality = types.StringValue(obj.Directionality)
	if obj.Directionality == "" {
		m.Directionality = types.StringValue("increase")
	}
	m.Tags = framework.StringSet(nonNil(obj.Tags))
	m.UnitTypes = framework.StringSet(nonNil(obj.UnitTypes))
	m.IsVerified = types.BoolValue(obj.IsVerified)
	m.IsReadOnly = types.BoolValue(obj.IsReadOnly)
	m.IsPermanent = types.BoolValue(obj.IsPermanent)
	m.Team = framework.OptionalString(obj.Team)
	m.MetricEvents = nullIfEmpty(metricEventType, obj.MetricEvents, func(e console.MetricEvent) metricEventModel {
		return metricEventModel{Name: types.StringValue(e.Name), Type: framework.OptionalString(e.Type),
			MetadataKey: framework.OptionalString(e.MetadataKey), Criteria: flattenCriteria(e.Criteria)}
	})
	m.MetricComponentMetrics = nullIfEmpty(metricRefType, obj.MetricComponentMetrics, func(c console.MetricRef) metricRefModel {
		return metricRefModel{Name: types.StringValue(c.Name), Type: types.StringValue(c.Type)}
	})
	m.FunnelEvents = nullIfEmpty(funnelEventType, obj.FunnelEventList, func(e console.FunnelEvent) metricRefModel {
		return metricRefModel{Name: types.StringValue(e.Name), Type: types.StringValue(e.Type)}
	})
	m.WarehouseNative = types.ObjectNull(warehouseNativeType.AttrTypes)
	if wn := obj.WarehouseNative; wn != nil {
		m.WarehouseNative = types.ObjectValueMust(warehouseNativeType.AttrTypes, map[string]attr.Value{
			"aggregation":                    framework.StringOrNull(wn.Aggregation),
			"metric_source_name":             framework.StringOrNull(wn.MetricSourceName),
			"value_column":                   framework.OptionalString(wn.ValueColumn),
			"criteria":                       flattenCriteria(wn.Criteria),
			"denominator_aggregation":        framework.OptionalString(wn.DenominatorAggregation),
			"denominator_metric_source_name": framework.OptionalString(wn.DenominatorMetricSourceName),
			"denominator_value_column":       framework.OptionalString(wn.DenominatorValueColumn),
			"denominator_criteria":           flattenCriteria(wn.DenominatorCriteria),
			"metric_dimension_columns":       stringsOrNull(wn.MetricDimensionColumns),
		})
	}
	m.Status = types.StringValue(string(obj.Archive()))
}

func flattenCriteria(cs []console.MetricCriterion) types.List {
	return nullIfEmpty(metricCriterionType, cs, func(c console.MetricCriterion) metricCriterionModel {
		return metricCriterionModel{Type: types.StringValue(c.Type), Column: framework.OptionalString(c.Column),
			Condition: types.StringValue(c.Condition), Values: stringsOrNull(c.Values)}
	})
}

// nullIfEmpty is the list of items as models, null when there are none.
func nullIfEmpty[S, M any](typ types.ObjectType, items []S, model func(S) M) types.List {
	if len(items) == 0 {
		return types.ListNull(typ)
	}
	return framework.ModelList(typ, items, model)
}

func stringsOrNull(s []string) types.List {
	if len(s) == 0 {
		return types.ListNull(types.StringType)
	}
	return framework.StringList(s)
}

// isKnown reports a string neither null nor unknown.
func isKnown(s types.String) bool { return !s.IsNull() && !s.IsUnknown() }

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// sameMetricFields compares what two bodies hold, by meaning: tags and unit types as sets, absent
// fields as the service's defaults; name and type, which an update never sends, are left out.
func sameMetricFields(a, b console.MetricFields) bool {
	return reflect.DeepEqual(normalizeMetricFields(a), normalizeMetricFields(b))
}

func normalizeMetricFields(f console.MetricFields) console.MetricFields {
	f.Name, f.Type, f.DryRun = "", "", false
	f.Tags = slices.Sorted(slices.Values(nonNil(f.Tags)))
	if f.UnitTypes != nil {
		f.UnitTypes = slices.Sorted(slices.Values(f.UnitTypes))
	}
	if f.Directionality == "" {
		f.Directionality = "increase"
	}
	f.Description = new(framework.Deref(f.Description, ""))
	for _, p := range []**bool{&f.IsVerified, &f.IsReadOnly, &f.IsPermanent} {
		*p = new(framework.Deref(*p, false))
	}
	if f.Team != nil && *f.Team == "" {
		f.Team = nil
	}
	return f
}

// metricFieldsOf returns what a metric the service holds would be written as.
func metricFieldsOf(ctx context.Context, obj *console.Metric) console.MetricFields {
	var m metricFields
	flattenMetric(obj, &m)
	f, _ := expandMetric(ctx, m)
	return f
}

// metricHolds reports whether the metric holds what a create sent: how a create whose answer was
// lost is recognised as this apply's own. A read without a description holds any.
func metricHolds(ctx context.Context, got *console.Metric, sent console.MetricFields) bool {
	held := metricFieldsOf(ctx, got)
	if got.Description == nil {
		held.Description = sent.Description
	}
	if sent.UnitTypes == nil {
		held.UnitTypes = nil
	}
	return got.Name == sent.Name && got.Type == sent.Type && sameMetricFields(held, sent)
}

// The nested objects of the schema; their object types are derived from them.

func metricCriterionAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"type": schema.StringAttribute{Required: true, MarkdownDescription: "What the criterion tests: " + framework.CodeList(criterionTypes) + ".",
			Validators: []validator.String{framework.OneOfDocumented("criterion type", criterionTypes)}},
		"column": schema.StringAttribute{Optional: true, MarkdownDescription: "Column (or metadata key, user field) tested; omit for the event's value.",
			Validators: []validator.String{framework.NotBlank()}},
		"condition": schema.StringAttribute{Required: true, MarkdownDescription: "How it is tested: " + framework.CodeList(criterionConditions) + ".",
			Validators: []validator.String{framework.OneOfDocumented("criterion condition", criterionConditions)}},
		"values": schema.ListAttribute{Optional: true, ElementType: types.StringType,
			MarkdownDescription: "Values the condition compares with; omit for conditions that take none (`is_null`, `is_true`, ...).",
			Validators:          []validator.List{listvalidator.SizeAtLeast(1)}},
	}
}

func criteriaAttribute(desc string) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Optional: true, MarkdownDescription: desc + " Omit for none.",
		Validators:   []validator.List{listvalidator.SizeAtLeast(1)},
		NestedObject: schema.NestedAttributeObject{Attributes: metricCriterionAttributes()}}
}

func metricEventAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name": schema.StringAttribute{Required: true, MarkdownDescription: "Name of the event, such as `purchase`.",
			Validators: []validator.String{framework.NotBlank()}},
		"type": schema.StringAttribute{Optional: true,
			MarkdownDescription: "What of the event is measured: " + framework.CodeList(metricEventTypes) + "; the service's when omitted.",
			Validators:          []validator.String{framework.OneOfDocumented("metric event type", metricEventTypes)}},
		"metadata_key": schema.StringAttribute{Optional: true, MarkdownDescription: "Metadata key whose value is measured (with `type = \"metadata\"`).",
			Validators: []validator.String{framework.NotBlank()}},
		"criteria": criteriaAttribute("Which of the event's records count."),
	}
}

func metricRefAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name": schema.StringAttribute{Required: true, MarkdownDescription: "Name of the metric.", Validators: []validator.String{framework.NotBlank()}},
		"type": schema.StringAttribute{Required: true, MarkdownDescription: "Type of the metric.", Validators: []validator.String{framework.NotBlank()}},
	}
}

func funnelEventAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name": schema.StringAttribute{Required: true, MarkdownDescription: "Name of the event.", Validators: []validator.String{framework.NotBlank()}},
		"type": schema.StringAttribute{Required: true, MarkdownDescription: "How the step counts: " + framework.CodeList(funnelEventTypes) + ".",
			Validators: []validator.String{framework.OneOfDocumented("funnel event type", funnelEventTypes)}},
	}
}

func warehouseNativeAttributes() map[string]schema.Attribute {
	aggregation := func(desc string, required bool) schema.StringAttribute {
		return schema.StringAttribute{Required: required, Optional: !required, MarkdownDescription: desc + ": " + framework.CodeList(metricAggregations) + ".",
			Validators: []validator.String{framework.OneOfDocumented("aggregation", metricAggregations)}}
	}
	text := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, MarkdownDescription: desc, Validators: []validator.String{framework.NotBlank()}}
	}
	return map[string]schema.Attribute{
		"aggregation": aggregation("How the rows are aggregated per unit", true),
		"metric_source_name": schema.StringAttribute{Required: true,
			MarkdownDescription: "Metric source the rows come from, such as `featureconsole_metric_source.orders.name`. " +
				"A source the service lacks fails the plan (its dry run); one created in the same apply is checked at apply.",
			Validators: []validator.String{framework.NotBlank()}},
		"value_column":                   text("Column whose values are aggregated; omit to count rows."),
		"criteria":                       criteriaAttribute("Which rows count."),
		"denominator_aggregation":        aggregation("With `aggregation = \"ratio\"`: how the denominator's rows are aggregated", false),
		"denominator_metric_source_name": text("With `aggregation = \"ratio\"`: the metric source of the denominator; `metric_source_name` when omitted."),
		"denominator_value_column":       text("With `aggregation = \"ratio\"`: the column the denominator aggregates."),
		"denominator_criteria":           criteriaAttribute("With `aggregation = \"ratio\"`: which rows the denominator counts."),
		"metric_dimension_columns": schema.ListAttribute{Optional: true, ElementType: types.StringType,
			MarkdownDescription: "Columns results can be broken down by. Omit for none.",
			Validators:          []validator.List{listvalidator.SizeAtLeast(1)}},
	}
}

// metricIdentityAttr is a metric's id, "<name>::<type>": neither alone names a metric.
const metricIdentityAttr = "id"
