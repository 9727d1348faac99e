// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

func NewSegmentsDataSource() datasource.DataSource {
	return newListDataSource(listDataSourceSpec[segmentsModel]{
		typeName:    "segments",
		description: "Lists the segments of the project (every page of `GET /segments`), optionally only those of one type.",
		filters: map[string]schema.Attribute{
			"type": stringFilter("Only segments of this type: `rule_based`, `id_list`, `user_store_id_list` or `analysis_list` (the last two are read here, never managed by `featureconsole_segment`). Omit for every segment.",
				stringvalidator.OneOf(console.SegmentTypes...)),
		},
		listAttr:        "segments",
		listDescription: "The segments, in the order the service lists them.",
		item:            segmentAttributes(),
		fill: func(ctx context.Context, client *console.Client, opts console.ListOptions, m *segmentsModel, _ *diag.Diagnostics) (framework.APIFailure, error) {
			segs, err := client.ListSegments(ctx, opts)
			m.Segments = flattenSegments(segs, m.Type.ValueString())
			return framework.APIFailure{Op: "list", Object: "segments"}, err
		},
	})
}

type segmentsModel struct {
	Type     types.String `tfsdk:"type"`
	Segments types.List   `tfsdk:"segments"`
}

var (
	segmentObjectType      = framework.DataSourceObjectType(segmentAttributes())
	segmentRulesObjectType = framework.NestedObjectType(segmentObjectType, "rules")
)

// segmentAttributes returns the schema of one segment; segmentObjectType is derived from it.
func segmentAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":                 framework.ComputedText("Segment identifier."),
		"is_enabled":         schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the segment is enabled."},
		"description":        framework.ComputedText("Description."),
		"last_modifier_name": framework.ComputedText("Name of the last modifier."),
		"last_modifier_id":   framework.ComputedText("Identifier of the last modifier."),
		"type":               framework.ComputedText("`id_list` or `rule_based`."),
		"count": schema.Int64Attribute{Computed: true, MarkdownDescription: "Number of ids (id lists) or rules (rule-based segments) as the " +
			"service reports it; for a rule-based segment without it, the number of its rules. Null where the service sends no count " +
			"for a list of ids (its ids are not read here): never 0 for a number not known."},
		"tags": schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Tags."},
		"rules": schema.ListNestedAttribute{
			Computed:            true,
			MarkdownDescription: "Every rule of a `rule_based` segment, in the service's order; empty for `id_list` segments.",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"name":            framework.ComputedText("Rule name."),
				"pass_percentage": schema.Float64Attribute{Computed: true, MarkdownDescription: "Percent of matching units that pass, 0 to 100."},
				"conditions": schema.ListNestedAttribute{
					Computed:            true,
					MarkdownDescription: "Conditions, all of which must match.",
					NestedObject:        schema.NestedAttributeObject{Attributes: segmentConditions.dataSourceAttributes()},
				},
				"return_value": schema.StringAttribute{Computed: true, CustomType: jsontypes.NormalizedType{}, MarkdownDescription: "Return value as a JSON string."},
			}},
		},
	}
}

func flattenSegments(segs []console.Segment, typ string) types.List {
	vals := make([]attr.Value, 0, len(segs))
	for _, s := range segs {
		if typ != "" && s.Type != typ {
			continue
		}
		vals = append(vals, types.ObjectValueMust(segmentObjectType.AttrTypes, map[string]attr.Value{
			"id":                 types.StringValue(s.ID),
			"is_enabled":         types.BoolValue(s.IsEnabled),
			"description":        types.StringValue(s.Description),
			"last_modifier_name": types.StringValue(s.LastModifierName),
			"last_modifier_id":   types.StringValue(s.LastModifierID),
			"type":               types.StringValue(s.Type),
			"count":              knownCount(&s),
			"tags":               framework.StringList(s.Tags),
			"rules":              flattenSegmentRules(s.Rules),
		}))
	}
	return types.ListValueMust(segmentObjectType, vals)
}

// knownCount is what the segment's read tells of its number of entries: null, never 0, where it
// tells nothing (an id list read without its pages, from a service that sends no count).
func knownCount(s *console.Segment) types.Int64 {
	if n, ok := s.KnownCount(); ok {
		return types.Int64Value(n)
	}
	return types.Int64Null()
}

func flattenSegmentRules(rules []console.SegmentRule) types.List {
	vals := make([]attr.Value, len(rules))
	for i, r := range rules {
		vals[i] = flattenSegmentRule(r)
	}
	return types.ListValueMust(segmentRulesObjectType, vals)
}

// flattenSegmentRule converts known values, for which the framework uses a context only to log:
// no context is there to pass.
//
//nolint:contextcheck // see above
func flattenSegmentRule(r console.SegmentRule) types.Object {
	conds, _ := segmentConditions.flattenConditions(context.Background(), r.Conditions, segmentConditionObjectType)
	rv := jsontypes.NewNormalizedNull()
	if len(r.ReturnValue) > 0 && string(r.ReturnValue) != "null" && !framework.IsEmptyJSONObject(r.ReturnValue) {
		rv = jsontypes.NewNormalizedValue(framework.CompactJSON(r.ReturnValue))
	}
	return types.ObjectValueMust(segmentRulesObjectType.AttrTypes, map[string]attr.Value{
		"name":            types.StringValue(r.Name),
		"pass_percentage": types.Float64Value(framework.RoundPercentage(r.PassPercentage)), // 12.500000000000002 is 12.5
		"conditions":      conds,
		"return_value":    rv,
	})
}

// segmentConditions are the conditions of the segments data source: the service's values as read.
var segmentConditions = conditionKind{
	typeDesc:     "Condition type, such as `user_id` or `email`.",
	operatorDesc: "Operator, such as `any`.",
	fieldDesc:    "Field, for `custom_field` conditions.",
	customIDDesc: "Custom unit ID type, where the condition uses one.",
	targetDesc:   "Target values as strings; numbers in their shortest decimal form, a single value as a one-element list.",
}

var segmentConditionObjectType = framework.DataSourceObjectType(segmentConditions.dataSourceAttributes())
