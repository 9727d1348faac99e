package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

var _ datasource.DataSourceWithConfigure = &segmentsDataSource{}

func NewSegmentsDataSource() datasource.DataSource { return &segmentsDataSource{} }

type segmentsDataSource struct{ data *providerData }

type segmentsModel struct {
	Type     types.String `tfsdk:"type"`
	Segments types.List   `tfsdk:"segments"`
}

var (
	segmentConditionAttrTypes = map[string]attr.Type{
		"type":         types.StringType,
		"operator":     types.StringType,
		"field":        types.StringType,
		"custom_id":    types.StringType,
		"target_value": types.ListType{ElemType: types.StringType},
	}
	segmentRulesAttrTypes = map[string]attr.Type{
		"name":            types.StringType,
		"pass_percentage": types.Float64Type,
		"conditions":      types.ListType{ElemType: types.ObjectType{AttrTypes: segmentConditionAttrTypes}},
		"return_value":    jsontypes.NormalizedType{},
	}
	segmentAttrTypes = map[string]attr.Type{
		"id":                 types.StringType,
		"is_enabled":         types.BoolType,
		"description":        types.StringType,
		"last_modifier_name": types.StringType,
		"last_modifier_id":   types.StringType,
		"type":               types.StringType,
		"count":              types.Int64Type,
		"tags":               types.ListType{ElemType: types.StringType},
		"rules":              types.ObjectType{AttrTypes: segmentRulesAttrTypes},
	}
)

func (d *segmentsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_segments"
}

func (d *segmentsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computedString := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the segments of the project (every page of `GET /segments`), optionally only those of one type.",
		Attributes: map[string]schema.Attribute{
			"type": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only segments of this type: `id_list` or `rule_based`. Omit for every segment.",
				Validators:          []validator.String{stringvalidator.OneOf("id_list", "rule_based")},
			},
			"segments": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The segments, in the order the service lists them.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":                 computedString("Segment identifier."),
					"is_enabled":         schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the segment is enabled."},
					"description":        computedString("Description."),
					"last_modifier_name": computedString("Name of the last modifier."),
					"last_modifier_id":   computedString("Identifier of the last modifier."),
					"type":               computedString("`id_list` or `rule_based`."),
					"count":              schema.Int64Attribute{Computed: true, MarkdownDescription: "Number of members (id lists) as reported by the service."},
					"tags":               schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Tags."},
					"rules": schema.SingleNestedAttribute{
						Computed:            true,
						MarkdownDescription: "The rule of a `rule_based` segment; null for `id_list` segments.",
						Attributes: map[string]schema.Attribute{
							"name":            computedString("Rule name."),
							"pass_percentage": schema.Float64Attribute{Computed: true, MarkdownDescription: "Percent of matching units that pass, 0 to 100."},
							"conditions": schema.ListNestedAttribute{
								Computed:            true,
								MarkdownDescription: "Conditions, all of which must match.",
								NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
									"type":      computedString("Condition type, such as `user_id` or `email`."),
									"operator":  computedString("Operator, such as `any`."),
									"field":     computedString("Field, for `custom_field` conditions."),
									"custom_id": computedString("Custom unit ID type, where the condition uses one."),
									"target_value": schema.ListAttribute{
										Computed: true, ElementType: types.StringType,
										MarkdownDescription: "Target values as strings; numbers in their shortest decimal form, a single value as a one-element list.",
									},
								}},
							},
							"return_value": schema.StringAttribute{Computed: true, CustomType: jsontypes.NormalizedType{}, MarkdownDescription: "Return value as a JSON string."},
						},
					},
				}},
			},
		},
	}
}

func (d *segmentsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, resp.Diagnostics.AddError)
}

func (d *segmentsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m segmentsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	segs, err := d.data.client.ListSegments(ctx, console.ListOptions{Concurrency: d.data.readConcurrency})
	if err != nil {
		resp.Diagnostics.AddError("Unable to list segments", err.Error())
		return
	}
	m.Segments = flattenSegments(segs, m.Type.ValueString())
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func flattenSegments(segs []console.Segment, typ string) types.List {
	vals := make([]attr.Value, 0, len(segs))
	for _, s := range segs {
		if typ != "" && s.Type != typ {
			continue
		}
		vals = append(vals, types.ObjectValueMust(segmentAttrTypes, map[string]attr.Value{
			"id":                 types.StringValue(s.ID),
			"is_enabled":         types.BoolValue(s.IsEnabled),
			"description":        types.StringValue(s.Description),
			"last_modifier_name": types.StringValue(s.LastModifierName),
			"last_modifier_id":   types.StringValue(s.LastModifierID),
			"type":               types.StringValue(s.Type),
			"count":              types.Int64Value(s.Count),
			"tags":               stringList(s.Tags),
			"rules":              flattenSegmentRules(s.Rules),
		}))
	}
	return types.ListValueMust(types.ObjectType{AttrTypes: segmentAttrTypes}, vals)
}

func flattenSegmentRules(r *console.SegmentRules) types.Object {
	if r == nil {
		return types.ObjectNull(segmentRulesAttrTypes)
	}
	condType := types.ObjectType{AttrTypes: segmentConditionAttrTypes}
	conds := make([]attr.Value, len(r.Conditions))
	for i, c := range r.Conditions {
		tv, _ := targetValueStrings(c.TargetValue)
		conds[i] = types.ObjectValueMust(segmentConditionAttrTypes, map[string]attr.Value{
			"type":         types.StringValue(c.Type),
			"operator":     types.StringValue(c.Operator),
			"field":        types.StringValue(c.Field),
			"custom_id":    types.StringValue(c.CustomID),
			"target_value": tv,
		})
	}
	rv := jsontypes.NewNormalizedNull()
	if len(r.ReturnValue) > 0 && string(r.ReturnValue) != "null" {
		rv = jsontypes.NewNormalizedValue(compactJSON(r.ReturnValue))
	}
	return types.ObjectValueMust(segmentRulesAttrTypes, map[string]attr.Value{
		"name":            types.StringValue(r.Name),
		"pass_percentage": types.Float64Value(r.PassPercentage),
		"conditions":      types.ListValueMust(condType, conds),
		"return_value":    rv,
	})
}
