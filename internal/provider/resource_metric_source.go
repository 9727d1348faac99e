package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

var (
	_ resource.ResourceWithConfigure      = &metricSourceResource{}
	_ resource.ResourceWithImportState    = &metricSourceResource{}
	_ resource.ResourceWithModifyPlan     = &metricSourceResource{}
	_ resource.ResourceWithValidateConfig = &metricSourceResource{}
)

func NewMetricSourceResource() resource.Resource { return &metricSourceResource{} }

type metricSourceResource struct{ data *providerData }

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

var (
	idTypeMappingAttrTypes = map[string]attr.Type{
		"service_unit_id": types.StringType,
		"column":          types.StringType,
	}
	customFieldMappingAttrTypes = map[string]attr.Type{
		"key":     types.StringType,
		"formula": types.StringType,
	}
	ownerAttrTypes = map[string]attr.Type{
		"owner_id":    types.StringType,
		"owner_type":  types.StringType,
		"owner_name":  types.StringType,
		"owner_email": types.StringType,
	}
)

func (r *metricSourceResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_metric_source"
}

func (r *metricSourceResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	nonBlank := []validator.String{stringvalidator.RegexMatches(nonBlankRegexp, "must not be empty or only white space")}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A metric source: where the service reads metric data from (a SQL query or a table). " +
			"Every change is checked by the service at plan time with a dry run (see `validate_on_plan`), so an " +
			"invalid statement fails `terraform plan` with the service's own message. Import by name.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Identifier of the source: its `name`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Name of the source, its primary identifier in the service. " +
					"Changing it forces replacement (the service cannot rename a source).",
				Validators:    nonBlank,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"sql": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Query or statement that extracts the data. Updated in place.",
				Validators:          nonBlank,
			},
			"timestamp_column": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Column holding the timestamps. Updated in place.",
				Validators:          nonBlank,
			},
			"id_type_mapping": schema.ListNestedAttribute{
				Required:            true,
				MarkdownDescription: "Which source column holds which unit ID type of the service; at least one. Updated in place.",
				Validators:          []validator.List{listvalidator.SizeAtLeast(1)},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"service_unit_id": schema.StringAttribute{
						Required:            true,
						MarkdownDescription: "Unit ID type of the service, such as `userID` or `stableID`.",
						Validators:          nonBlank,
					},
					"column": schema.StringAttribute{
						Required:            true,
						MarkdownDescription: "Column of the source holding that ID.",
						Validators:          nonBlank,
					},
				}},
			},
			"description": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Description. Defaults to `\"\"`. Updated in place.",
				Default:             stringdefault.StaticString(""),
			},
			"tags": schema.ListAttribute{
				Optional:            true,
				Computed:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "Tags. Defaults to `[]`. Updated in place.",
				Default:             listdefault.StaticValue(types.ListValueMust(types.StringType, []attr.Value{})),
				Validators:          []validator.List{listvalidator.NoNullValues()},
			},
			"timestamp_as_day": schema.BoolAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Treat the timestamps at day granularity. Defaults to `false`. Updated in place.",
				Default:             booldefault.StaticBool(false),
			},
			"source_type": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "`query` (the source is `sql`) or `table` (the source is the table `table_name`). " +
					"Defaults to `query`. Updated in place.",
				Default:    stringdefault.StaticString(sourceTypeQuery),
				Validators: []validator.String{stringvalidator.OneOf(sourceTypeQuery, sourceTypeTable)},
			},
			"table_name": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Name of the table; required when `source_type` is `table`. Defaults to `\"\"`. Updated in place.",
				Default:             stringdefault.StaticString(""),
			},
			"date_partition_column": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Date partition column of a `table` source. Defaults to `\"\"` (none). Updated in place.",
				Default:             stringdefault.StaticString(""),
			},
			"custom_field_mapping": schema.ListNestedAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Fields derived from formulas. Defaults to `[]`. Updated in place.",
				Default: listdefault.StaticValue(types.ListValueMust(
					types.ObjectType{AttrTypes: customFieldMappingAttrTypes}, []attr.Value{})),
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"key": schema.StringAttribute{
						Required:            true,
						MarkdownDescription: "Name of the derived field.",
						Validators:          nonBlank,
					},
					"formula": schema.StringAttribute{
						Required:            true,
						MarkdownDescription: "Formula computing it.",
						Validators:          nonBlank,
					},
				}},
			},
			"is_read_only": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "When `true`, the source can be edited only through the console API (and so Terraform), " +
					"not in the console UI. Defaults to `false`. Updated in place.",
				Default: booldefault.StaticBool(false),
			},
			"is_verified": schema.BoolAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Marks the source as verified. Defaults to `false`. Updated in place.",
				Default:             booldefault.StaticBool(false),
			},
			"team": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Name of the team responsible. Omit for none. Updated in place.",
				Validators:          nonBlank,
			},
			"team_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Identifier of the team responsible. Omit for none. Updated in place.",
				Validators:          nonBlank,
			},
			"validate_on_plan": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "When `true`, `terraform plan` sends every change to the service as a dry run " +
					"(`dryRun: true`, nothing is stored) and fails with the service's message if it rejects the source. " +
					"The dry run is skipped when a value is known only after apply. Provider-side only; " +
					"changing it sends no request. Defaults to `true`.",
				Default: booldefault.StaticBool(true),
			},
			"owner": schema.SingleNestedAttribute{
				Computed: true,
				MarkdownDescription: "Console user owning the source; null for sources created through the API " +
					"(and so by Terraform).",
				PlanModifiers: []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
				Attributes: map[string]schema.Attribute{
					"owner_id":    schema.StringAttribute{Computed: true, MarkdownDescription: "Identifier of the owner."},
					"owner_type":  schema.StringAttribute{Computed: true, MarkdownDescription: "Kind of owner, such as `USER`."},
					"owner_name":  schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the owner."},
					"owner_email": schema.StringAttribute{Computed: true, MarkdownDescription: "E-mail address of the owner."},
				},
			},
			"timeouts": timeoutsAttribute(ctx, "the source", timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, map[string]string{
				"create": "It also bounds the plan-time dry run of a new source (`validate_on_plan`; `" + formatTimeout(defaultDryRunTimeout) + "` when unset), which only warns when it runs out.",
				"update": "It also bounds the plan-time dry run of a change (`validate_on_plan`; `" + formatTimeout(defaultDryRunTimeout) + "` when unset), which only warns when it runs out.",
			}),
		},
	}
}

func (r *metricSourceResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, resp.Diagnostics.AddError)
}

func (r *metricSourceResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan metricSourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	src, diags := expandMetricSource(ctx, plan)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	name := src.Name
	op, cancel, d := startOperation(ctx, plan.Timeouts, "create")
	defer cancel()
	resp.Diagnostics.Append(d...)
	created, err := r.data.client.CreateMetricSource(op.ctx, src)
	if err != nil {
		created, err = r.recoverCreate(op.ctx, src, err)
	}
	if err != nil {
		err = op.explain(fmt.Sprintf("Unable to create metric source %q", name), err)
		var exists *metricSourceExistsError
		if errors.As(err, &exists) {
			resp.Diagnostics.AddAttributeError(path.Root("name"), fmt.Sprintf("Metric source %q already exists", name), err.Error())
			return
		}
		resp.Diagnostics.AddError(fmt.Sprintf("Unable to create metric source %q", name), err.Error())
		return
	}
	// The create response echoes only some fields: state keeps the plan's values, which the
	// service now holds; a difference shows up at the next refresh as drift, never as an error here.
	plan.ID = types.StringValue(name)
	plan.Owner = flattenOwner(created.Owner)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *metricSourceResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state metricSourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	name := state.ID.ValueString()
	if name == "" {
		name = state.Name.ValueString()
	}
	op, cancel, d := startOperation(ctx, state.Timeouts, "read")
	defer cancel()
	resp.Diagnostics.Append(d...)
	src, err := r.data.client.GetMetricSource(op.ctx, name)
	if console.NotFound(err) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		summary := fmt.Sprintf("Unable to read metric source %q", name)
		resp.Diagnostics.AddError(summary, op.explain(summary, err).Error())
		return
	}
	if src.Name == "" {
		src.Name = name
	}
	flattenMetricSource(src, &state)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *metricSourceResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state metricSourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	src, diags := expandMetricSource(ctx, plan)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	old, diags := expandMetricSource(ctx, state)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	// A change of validate_on_plan alone is provider-side: nothing to send.
	if !sameMetricSource(old, src) {
		op, cancel, d := startOperation(ctx, plan.Timeouts, "update")
		defer cancel()
		resp.Diagnostics.Append(d...)
		if _, err := r.data.client.UpdateMetricSource(op.ctx, src.Name, src); err != nil {
			summary := fmt.Sprintf("Unable to update metric source %q", src.Name)
			resp.Diagnostics.AddError(summary, op.explain(summary, err).Error())
			return
		}
	}
	plan.ID = types.StringValue(src.Name)
	if plan.Owner.IsUnknown() {
		plan.Owner = state.Owner
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *metricSourceResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state metricSourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	name := state.Name.ValueString()
	op, cancel, d := startOperation(ctx, state.Timeouts, "delete")
	defer cancel()
	resp.Diagnostics.Append(d...)
	if err := r.data.client.DeleteMetricSource(op.ctx, name); err != nil && !console.NotFound(err) {
		summary := fmt.Sprintf("Unable to delete metric source %q", name)
		resp.Diagnostics.AddError(summary, op.explain(summary, err).Error())
	}
}

func (r *metricSourceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID == "" {
		resp.Diagnostics.AddError("Invalid import ID", "Import a metric source by its name, for example: terraform import featureconsole_metric_source.orders orders")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("validate_on_plan"), true)...)
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

	ids := make([]attr.Value, len(src.IDTypeMapping))
	for i, it := range src.IDTypeMapping {
		ids[i] = types.ObjectValueMust(idTypeMappingAttrTypes, map[string]attr.Value{
			"service_unit_id": types.StringValue(it.ServiceUnitID),
			"column":          types.StringValue(it.Column),
		})
	}
	m.IDTypeMapping = types.ListValueMust(types.ObjectType{AttrTypes: idTypeMappingAttrTypes}, ids)

	m.Description = types.StringValue(deref(src.Description, ""))
	tags := src.Tags
	if tags == nil {
		tags = []string{}
	}
	m.Tags = stringList(tags)
	m.TimestampAsDay = types.BoolValue(deref(src.TimestampAsDay, false))
	m.SourceType = types.StringValue(deref(src.SourceType, sourceTypeQuery))
	if m.SourceType.ValueString() == "" {
		m.SourceType = types.StringValue(sourceTypeQuery)
	}
	m.TableName = types.StringValue(deref(src.TableName, ""))
	m.DatePartitionColumn = types.StringValue(deref(src.DatePartitionColumn, ""))

	cfm := make([]attr.Value, len(src.CustomFieldMapping))
	for i, it := range src.CustomFieldMapping {
		cfm[i] = types.ObjectValueMust(customFieldMappingAttrTypes, map[string]attr.Value{
			"key":     types.StringValue(it.Key),
			"formula": types.StringValue(it.Formula),
		})
	}
	m.CustomFieldMapping = types.ListValueMust(types.ObjectType{AttrTypes: customFieldMappingAttrTypes}, cfm)

	m.IsReadOnly = types.BoolValue(deref(src.IsReadOnly, false))
	m.IsVerified = types.BoolValue(deref(src.IsVerified, false))
	m.Team = optionalString(src.Team)
	m.TeamID = optionalString(src.TeamID)
	m.Owner = flattenOwner(src.Owner)
	if m.ValidateOnPlan.IsNull() || m.ValidateOnPlan.IsUnknown() {
		m.ValidateOnPlan = types.BoolValue(true)
	}
}

func flattenOwner(o *console.Owner) types.Object {
	if o == nil {
		return types.ObjectNull(ownerAttrTypes)
	}
	return types.ObjectValueMust(ownerAttrTypes, map[string]attr.Value{
		"owner_id":    types.StringValue(o.OwnerID),
		"owner_type":  types.StringValue(o.OwnerType),
		"owner_name":  types.StringValue(o.OwnerName),
		"owner_email": types.StringValue(o.OwnerEmail),
	})
}

// optionalString maps an absent or empty service value to null: the schema rejects "".
func optionalString(p *string) types.String { return stringOrNull(deref(p, "")) }

func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}
