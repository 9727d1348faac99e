// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
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
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

var _ managedResource = &metricSourceResource{}

type metricSourceResource struct{ resourceData }

func NewMetricSourceResource() resource.Resource {
	return &metricSourceResource{resourceData{typeName: "metric_source"}}
}

func (r *metricSourceResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	nonBlank := []validator.String{framework.NotBlank()}
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
				NestedObject:        schema.NestedAttributeObject{Attributes: idTypeMappingAttributes()},
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
					customFieldMappingType, []attr.Value{})),
				NestedObject: schema.NestedAttributeObject{Attributes: customFieldMappingAttributes()},
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
				Attributes:    ownerAttributes(),
			},
			"timeouts": framework.TimeoutsAttribute(ctx, "the source", timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, map[string]string{
				"create": "It also bounds the plan-time dry run of a new source (`validate_on_plan`; `" + framework.FormatTimeout(framework.DefaultDryRunTimeout) + "` when unset), which only warns when it runs out.",
				"update": "It also bounds the plan-time dry run of a change (`validate_on_plan`; `" + framework.FormatTimeout(framework.DefaultDryRunTimeout) + "` when unset), which only warns when it runs out.",
			}),
		},
	}
}

func (r *metricSourceResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan metricSourceModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	src, diags := expandMetricSource(ctx, plan)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	name := src.Name
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "create", &resp.Diagnostics)
	defer cancel()
	created, err := createRecovering(ctx, metricSourceCreation, name,
		func(ctx context.Context) (*console.MetricSource, error) {
			return r.data.client.CreateMetricSource(ctx, src)
		},
		r.data.client.GetMetricSource, func(got *console.MetricSource) bool { return sameMetricSource(src, *got) })
	if err != nil {
		addCreateFailure(ctx, &resp.Diagnostics, path.Root("name"), framework.APIFailure{Op: "create", Object: fmt.Sprintf("metric source %q", name)}, op, err)
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
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.State, &state) {
		return
	}
	_, id := state.identity()
	name := id.ValueString()
	readObject(ctx, resp, state.Timeouts, "Metric source", name, r.data.client.GetMetricSource, func(src *console.MetricSource) diag.Diagnostics {
		if src.Name == "" {
			src.Name = name
		}
		flattenMetricSource(src, &state)
		return nil
	}, &state)
}

func (r *metricSourceResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state metricSourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	src, diags := expandMetricSource(ctx, plan)
	old, stateDiags := expandMetricSource(ctx, state)
	if resp.Diagnostics.Append(append(diags, stateDiags...)...); resp.Diagnostics.HasError() {
		return
	}
	// A change of validate_on_plan alone is provider-side: nothing to send.
	if !sameMetricSource(old, src) {
		ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "update", &resp.Diagnostics)
		defer cancel()
		if _, err := r.data.client.UpdateMetricSource(ctx, src.Name, src); err != nil {
			framework.APIFailure{Op: "update", Object: fmt.Sprintf("metric source %q", src.Name)}.Add(ctx, &resp.Diagnostics, op, err)
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
	if !r.begin(ctx, &resp.Diagnostics, nil, req.State, &state) {
		return
	}
	name := state.Name.ValueString()
	ctx, op, cancel := framework.StartOperation(ctx, state.Timeouts, "delete", &resp.Diagnostics)
	defer cancel()
	if err := r.data.client.DeleteMetricSource(ctx, name); err != nil && !console.NotFound(err) {
		framework.APIFailure{Op: "delete", Object: fmt.Sprintf("metric source %q", name)}.Add(ctx, &resp.Diagnostics, op, err)
	}
}

func (r *metricSourceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if importState(ctx, req, resp, "featureconsole_metric_source", sourceIdentityAttr, "orders") {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("validate_on_plan"), true)...)
	}
}

func (r *metricSourceResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchema(sourceIdentityAttr, "Name of the metric source, such as orders.")
}
