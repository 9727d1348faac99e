// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"reflect"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The model of featureconsole_metric_source and its conversion to and from the service's source.

var (
	idTypeMappingType      = framework.ResourceObjectType(idTypeMappingAttributes())
	customFieldMappingType = framework.ResourceObjectType(customFieldMappingAttributes())
	ownerType              = framework.ResourceObjectType(ownerAttributes())
)

type metricSourceModel struct {
	ID                  types.String   `tfsdk:"id"`
	Name                types.String   `tfsdk:"name"`
	SQL                 types.String   `tfsdk:"sql"`
	TimestampColumn     types.String   `tfsdk:"timestamp_column"`
	IDTypeMapping       types.List     `tfsdk:"id_type_mapping"`
	Description         types.String   `tfsdk:"description"`
	Tags                types.List     `tfsdk:"tags"`
	TimestampAsDay      types.Bool     `tfsdk:"timestamp_as_day"`
	SourceType          types.String   `tfsdk:"source_type"`
	TableName           types.String   `tfsdk:"table_name"`
	DatePartitionColumn types.String   `tfsdk:"date_partition_column"`
	CustomFieldMapping  types.List     `tfsdk:"custom_field_mapping"`
	IsReadOnly          types.Bool     `tfsdk:"is_read_only"`
	IsVerified          types.Bool     `tfsdk:"is_verified"`
	Team                types.String   `tfsdk:"team"`
	TeamID              types.String   `tfsdk:"team_id"`
	ValidateOnPlan      types.Bool     `tfsdk:"validate_on_plan"`
	Owner               types.Object   `tfsdk:"owner"`
	Timeouts            timeouts.Value `tfsdk:"timeouts"`
}

type idTypeMappingModel struct {
	ServiceUnitID types.String `tfsdk:"service_unit_id"`
	Column        types.String `tfsdk:"column"`
}

type customFieldMappingModel struct {
	Key     types.String `tfsdk:"key"`
	Formula types.String `tfsdk:"formula"`
}

const (
	sourceTypeQuery = "query"
	sourceTypeTable = "table"
)

// identity is the source's name: its id, or before the id is known (a state written without one),
// its name attribute.
func (m *metricSourceModel) identity() (string, types.String) {
	if id, ok := framework.KnownString(m.ID); ok && id != "" {
		return sourceIdentityAttr, m.ID
	}
	return sourceIdentityAttr, m.Name
}

// expandMetricSource builds the request body. Every optional field is sent, zero values
// included, so that an update clears what the configuration no longer sets.
func expandMetricSource(ctx context.Context, m metricSourceModel) (console.MetricSource, diag.Diagnostics) {
	var diags diag.Diagnostics
	src := console.MetricSource{
		Name:                m.Name.ValueString(),
		SQL:                 m.SQL.ValueString(),
		TimestampColumn:     m.TimestampColumn.ValueString(),
		Description:         new(m.Description.ValueString()),
		TimestampAsDay:      new(m.TimestampAsDay.ValueBool()),
		SourceType:          new(m.SourceType.ValueString()),
		TableName:           new(m.TableName.ValueString()),
		DatePartitionColumn: new(m.DatePartitionColumn.ValueString()),
		IsReadOnly:          new(m.IsReadOnly.ValueBool()),
		IsVerified:          new(m.IsVerified.ValueBool()),
		Team:                m.Team.ValueStringPointer(),
		TeamID:              m.TeamID.ValueStringPointer(),
	}
	if src.SourceType != nil && *src.SourceType == "" {
		src.SourceType = new(sourceTypeQuery)
	}

	var ids []idTypeMappingModel
	diags.Append(m.IDTypeMapping.ElementsAs(ctx, &ids, false)...)
	src.IDTypeMapping = make([]console.IDTypeMapping, len(ids))
	for i, it := range ids {
		src.IDTypeMapping[i] = console.IDTypeMapping{ServiceUnitID: it.ServiceUnitID.ValueString(), Column: it.Column.ValueString()}
	}

	src.Tags = []string{}
	if !m.Tags.IsNull() && !m.Tags.IsUnknown() {
		diags.Append(m.Tags.ElementsAs(ctx, &src.Tags, false)...)
	}

	src.CustomFieldMapping = []console.CustomFieldMapping{}
	if !m.CustomFieldMapping.IsNull() && !m.CustomFieldMapping.IsUnknown() {
		var cfm []customFieldMappingModel
		diags.Append(m.CustomFieldMapping.ElementsAs(ctx, &cfm, false)...)
		for _, it := range cfm {
			src.CustomFieldMapping = append(src.CustomFieldMapping, console.CustomFieldMapping{Key: it.Key.ValueString(), Formula: it.Formula.ValueString()})
		}
	}
	return src, diags
}

// flattenMetricSource writes what the service holds into m; fields the service leaves out read
// as the schema's defaults, so an omitted attribute never differs from a source that lacks it.
// validate_on_plan is provider-side and kept (true after import).
func flattenMetricSource(src *console.MetricSource, m *metricSourceModel) {
	m.ID = types.StringValue(src.Name)
	m.Name = types.StringValue(src.Name)
	m.SQL = types.StringValue(src.SQL)
	m.TimestampColumn = types.StringValue(src.TimestampColumn)

	m.IDTypeMapping = framework.ModelList(idTypeMappingType, src.IDTypeMapping, func(it console.IDTypeMapping) idTypeMappingModel {
		return idTypeMappingModel{ServiceUnitID: types.StringValue(it.ServiceUnitID), Column: types.StringValue(it.Column)}
	})

	m.Description = types.StringValue(framework.Deref(src.Description, ""))
	tags := src.Tags
	if tags == nil {
		tags = []string{}
	}
	m.Tags = framework.StringList(tags)
	m.TimestampAsDay = types.BoolValue(framework.Deref(src.TimestampAsDay, false))
	m.SourceType = types.StringValue(framework.Deref(src.SourceType, sourceTypeQuery))
	if m.SourceType.ValueString() == "" {
		m.SourceType = types.StringValue(sourceTypeQuery)
	}
	m.TableName = types.StringValue(framework.Deref(src.TableName, ""))
	m.DatePartitionColumn = types.StringValue(framework.Deref(src.DatePartitionColumn, ""))

	m.CustomFieldMapping = framework.ModelList(customFieldMappingType, setMappings(src.CustomFieldMapping), func(it console.CustomFieldMapping) customFieldMappingModel {
		return customFieldMappingModel{Key: types.StringValue(it.Key), Formula: types.StringValue(it.Formula)}
	})

	m.IsReadOnly = types.BoolValue(framework.Deref(src.IsReadOnly, false))
	m.IsVerified = types.BoolValue(framework.Deref(src.IsVerified, false))
	m.Team = framework.OptionalString(src.Team)
	m.TeamID = framework.OptionalString(src.TeamID)
	m.Owner = flattenOwner(src.Owner)
	if m.ValidateOnPlan.IsNull() || m.ValidateOnPlan.IsUnknown() {
		m.ValidateOnPlan = types.BoolValue(true)
	}
}

// setMappings leaves out the placeholder the service writes for "no custom fields": a mapping
// whose key and formula are both empty, which no configuration could hold (both are required and
// non-blank).
func setMappings(in []console.CustomFieldMapping) []console.CustomFieldMapping {
	out := in[:0:0]
	for _, it := range in {
		if strings.TrimSpace(it.Key) != "" || strings.TrimSpace(it.Formula) != "" {
			out = append(out, it)
		}
	}
	return out
}

func flattenOwner(o *console.Owner) types.Object {
	if o == nil {
		return types.ObjectNull(ownerType.AttrTypes)
	}
	return types.ObjectValueMust(ownerType.AttrTypes, map[string]attr.Value{
		"owner_id":    types.StringValue(o.OwnerID),
		"owner_type":  types.StringValue(o.OwnerType),
		"owner_name":  types.StringValue(o.OwnerName),
		"owner_email": types.StringValue(o.OwnerEmail),
	})
}

// The nested objects of the schema; their object types are derived from them.
func idTypeMappingAttributes() map[string]schema.Attribute {
	return requiredTexts(map[string]string{
		"service_unit_id": "Unit ID type of the service, such as `userID` or `stableID`.",
		"column":          "Column of the source holding that ID.",
	})
}

func customFieldMappingAttributes() map[string]schema.Attribute {
	return requiredTexts(map[string]string{
		"key":     "Name of the derived field.",
		"formula": "Formula computing it.",
	})
}

func ownerAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"owner_id":    schema.StringAttribute{Computed: true, MarkdownDescription: "Identifier of the owner."},
		"owner_type":  schema.StringAttribute{Computed: true, MarkdownDescription: "Kind of owner, such as `USER`."},
		"owner_name":  schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the owner."},
		"owner_email": schema.StringAttribute{Computed: true, MarkdownDescription: "E-mail address of the owner."},
	}
}

// requiredTexts is a nested object of required, non-blank strings, given as name: description.
func requiredTexts(descriptions map[string]string) map[string]schema.Attribute {
	attrs := make(map[string]schema.Attribute, len(descriptions))
	for name, desc := range descriptions {
		attrs[name] = schema.StringAttribute{Required: true, MarkdownDescription: desc, Validators: []validator.String{framework.NotBlank()}}
	}
	return attrs
}

const sourceIdentityAttr = "name"

// metricSourceCreation names metric sources in the errors of a create that meets an existing one.
var metricSourceCreation = creation{typeName: "featureconsole_metric_source", kind: "Metric source", noun: "A metric source named", plural: "sources", idWord: "name"}

// sameMetricSource compares what two sources hold, reading absent fields as the service's
// defaults; owner and dryRun are not part of the definition.
func sameMetricSource(a, b console.MetricSource) bool {
	return reflect.DeepEqual(normalizeMetricSource(a), normalizeMetricSource(b))
}

func normalizeMetricSource(m console.MetricSource) console.MetricSource {
	m.Owner = nil
	m.DryRun = false
	m.IDTypeMapping = append([]console.IDTypeMapping{}, m.IDTypeMapping...)
	m.Tags = append([]string{}, m.Tags...)
	m.CustomFieldMapping = append([]console.CustomFieldMapping{}, setMappings(m.CustomFieldMapping)...)
	m.Description = new(framework.Deref(m.Description, ""))
	m.TimestampAsDay = new(framework.Deref(m.TimestampAsDay, false))
	st := framework.Deref(m.SourceType, "")
	if st == "" {
		st = sourceTypeQuery
	}
	m.SourceType = &st
	m.TableName = new(framework.Deref(m.TableName, ""))
	m.DatePartitionColumn = new(framework.Deref(m.DatePartitionColumn, ""))
	m.IsReadOnly = new(framework.Deref(m.IsReadOnly, false))
	m.IsVerified = new(framework.Deref(m.IsVerified, false))
	m.Team = framework.OptionalString(m.Team).ValueStringPointer()
	m.TeamID = framework.OptionalString(m.TeamID).ValueStringPointer()
	return m
}
