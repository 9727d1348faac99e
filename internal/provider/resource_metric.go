// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

var _ managedResource = &metricResource{}

type metricResource struct{ resourceData }

func NewMetricResource() resource.Resource {
	return &metricResource{resourceData{typeName: "metric"}}
}

// metricCreation names metrics in the errors of a create that meets an existing one.
var metricCreation = creation{typeName: "featureconsole_metric", kind: "Metric", noun: "A metric with id", plural: "metrics", idWord: "name"}

func (r *metricResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A metric: what an experiment measures, such as revenue per user computed in the warehouse from a " +
			"`featureconsole_metric_source`, or the purchases of an event. Its id is `\"<name>::<type>\"`, which an experiment " +
			"names in `primary_metrics`. Every value the service's document enumerates, and the shape each type needs, is " +
			"checked at plan time, and the service checks the rest in a dry run (`validate_on_plan`), so that a metric source " +
			"the service lacks fails `terraform plan`. Changing the name or the type replaces the metric; everything else is " +
			"updated in place. Destroy deletes the metric, or schedules its archive with `archive_on_destroy`. Import by id.",
		Attributes: metricAttributes(ctx),
	}
}

func metricAttributes(ctx context.Context) map[string]schema.Attribute {
	strings := func(desc string) schema.SetAttribute {
		return schema.SetAttribute{Optional: true, Computed: true, ElementType: types.StringType, MarkdownDescription: desc,
			Validators: []validator.Set{setvalidator.ValueStringsAre(framework.NotBlank())}}
	}
	flag := func(desc string) schema.BoolAttribute {
		return schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: desc + " Defaults to `false`. Updated in place."}
	}
	tags := strings("Tags of the metric. Defaults to none. Updated in place.")
	tags.Default = setdefault.StaticValue(types.SetValueMust(types.StringType, []attr.Value{}))
	unitTypes := strings("Unit ID types the metric is computed for, such as `userID`; the service's when omitted. Updated in place.")
	unitTypes.PlanModifiers = []planmodifier.Set{setplanmodifier.UseStateForUnknown()}
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed: true, MarkdownDescription: "Identifier of the metric, `\"<name>::<type>\"`, as the service makes it.",
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"name": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "Name of the metric, such as `revenue`: 4 to 100 letters, digits, spaces, `_` and `-` (never `::`, " +
				"which the id puts between the name and the type). Changing it forces replacement (the service cannot rename a metric).",
			Validators:    []validator.String{framework.MetricName()},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"type": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "Type of the metric: " + framework.CodeList(metricTypes) + ". `user_warehouse` is computed in the " +
				"warehouse (`warehouse_native`); `event_count_custom`, `event_user`, `sum`, `mean` and `ratio` from events " +
				"(`metric_events`); `composite` and `composite_sum` from other metrics (`metric_component_metrics`); `funnel` " +
				"from steps (`funnel_events`). Changing it forces replacement.",
			Validators:    []validator.String{framework.OneOfDocumented("metric type", metricTypes)},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"description": schema.StringAttribute{
			Optional: true, Computed: true, Default: stringdefault.StaticString(""),
			MarkdownDescription: "Description. Defaults to `\"\"`. Updated in place.",
		},
		"directionality": schema.StringAttribute{
			Optional: true, Computed: true, Default: stringdefault.StaticString("increase"),
			MarkdownDescription: "Direction that counts as better: `increase` (the default) or `decrease`. Updated in place.",
			Validators:          []validator.String{framework.OneOfDocumented("directionality", directionalities)},
		},
		"tags":         tags,
		"unit_types":   unitTypes,
		"is_verified":  flag("Marks the metric as verified."),
		"is_read_only": flag("When `true`, the metric can be edited only through the console API (and so Terraform), not in the console."),
		"is_permanent": flag("Marks the metric as permanent."),
		"team": schema.StringAttribute{Optional: true, MarkdownDescription: "Name of the team responsible. Omit for none. Updated in place.",
			Validators: []validator.String{framework.NotBlank()}},
		"metric_events": schema.ListNestedAttribute{
			Optional: true,
			MarkdownDescription: "For the event types (`event_count_custom`, `event_user`, `sum`, `mean`, `ratio`; required for them): " +
				"the events measured, in order (a ratio's numerator first). Omit for other types. Updated in place.",
			Validators:   []validator.List{listvalidator.SizeAtLeast(1)},
			NestedObject: schema.NestedAttributeObject{Attributes: metricEventAttributes()},
		},
		"metric_component_metrics": schema.ListNestedAttribute{
			Optional:            true,
			MarkdownDescription: "For `composite` and `composite_sum` (required for them): the metrics combined. Updated in place.",
			Validators:          []validator.List{listvalidator.SizeAtLeast(1)},
			NestedObject:        schema.NestedAttributeObject{Attributes: metricRefAttributes()},
		},
		"funnel_events": schema.ListNestedAttribute{
			Optional:            true,
			MarkdownDescription: "For `funnel` (required for it): the funnel's steps, in order. Updated in place.",
			Validators:          []validator.List{listvalidator.SizeAtLeast(1)},
			NestedObject:        schema.NestedAttributeObject{Attributes: funnelEventAttributes()},
		},
		"warehouse_native": schema.SingleNestedAttribute{
			Optional: true,
			MarkdownDescription: "For `user_warehouse` (required for it): how the metric is computed in the warehouse from a metric " +
				"source. Updated in place.",
			Attributes: warehouseNativeAttributes(),
		},
		"status": schema.StringAttribute{
			Computed: true,
			MarkdownDescription: "Where the metric stands: " + framework.CodeList(metricArchiveWays) + ". A metric whose archive was " +
				"scheduled (in the console, or by a destroy with `archive_on_destroy`) or carried out shows in the plan as a change " +
				"back to `active`: apply cancels the archive, or unarchives the metric, before any other write.",
		},
		"archive_on_destroy": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "What destroy does with the metric: `false` (the default) deletes it; `true` schedules its archive " +
				"instead (the service archives it the next day, keeping its history). Changing it sends no request.",
		},
		"validate_on_plan": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(true),
			MarkdownDescription: "When `true`, `terraform plan` sends every change to the service as a dry run (`dryRun: true`, " +
				"nothing is stored) and fails with the service's message if it rejects the metric, such as for a metric source it " +
				"lacks. The dry run waits for apply when a value is known only then, or when a metric source it names is created " +
				"in the same apply. Provider-side only; changing it sends no request. Defaults to `true`.",
		},
		"timeouts": framework.TimeoutsAttribute(ctx, "the metric", timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, map[string]string{
			"create": "It also bounds the plan-time dry run of a new metric (`validate_on_plan`; `" + framework.FormatTimeout(framework.DefaultDryRunTimeout) + "` when unset), which only warns when it runs out.",
			"update": "It also bounds the plan-time dry run of a change (`validate_on_plan`; `" + framework.FormatTimeout(framework.DefaultDryRunTimeout) + "` when unset), which only warns when it runs out.",
		}),
	}
}

func (r *metricResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan metricModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	fields, diags := expandMetric(ctx, plan.metricFields)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	id := console.MetricID(fields.Name, fields.Type)
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "create", &resp.Diagnostics)
	defer cancel()
	created, err := createRecovering(ctx, metricCreation, id,
		func(ctx context.Context) (*console.Metric, error) { return r.data.client.CreateMetric(ctx, fields) },
		r.data.client.GetMetric, func(got *console.Metric) bool { return metricHolds(ctx, got, fields) })
	if err != nil {
		addCreateFailure(ctx, &resp.Diagnostics, path.Root("name"), framework.APIFailure{Op: "create", Object: fmt.Sprintf("metric %q", id)}, op, err)
		return
	}
	r.written(&plan, created, id)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, metricIdentityAttr, plan.ID)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// written completes the plan's model with what the service chose in the answer to a write: the
// id and the unit types when the configuration omits them. What the configuration set the service
// now holds, and a metric just created or written is active (the plan says so); a difference shows
// at the next refresh as drift.
func (r *metricResource) written(plan *metricModel, got *console.Metric, id string) {
	plan.ID = types.StringValue(id)
	if got.ID != "" {
		plan.ID = types.StringValue(got.ID)
	}
	if plan.UnitTypes.IsUnknown() {
		plan.UnitTypes = framework.StringSet(nonNil(got.UnitTypes))
	}
	plan.Status = types.StringValue(string(console.MetricActive))
}

func (r *metricResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state metricModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.State, &state) {
		return
	}
	if state.ArchiveOnDestroy.IsNull() { // imported
		state.ArchiveOnDestroy = types.BoolValue(false)
	}
	if state.ValidateOnPlan.IsNull() {
		state.ValidateOnPlan = types.BoolValue(true)
	}
	_, id := state.identity()
	readObject(ctx, resp, state.Timeouts, "Metric", id.ValueString(), r.data.client.GetMetric, func(m *console.Metric) diag.Diagnostics {
		flattenMetric(m, &state.metricFields)
		return nil
	}, &state)
}

func (r *metricResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state metricModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	fields, diags := expandMetric(ctx, plan.metricFields)
	old, stateDiags := expandMetric(ctx, state.metricFields)
	if resp.Diagnostics.Append(append(diags, stateDiags...)...); resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "update", &resp.Diagnostics)
	defer cancel()
	// A metric archived, or about to be, is taken back first: an archived metric refuses writes.
	var err error
	var undo framework.APIFailure
	switch console.MetricArchive(state.Status.ValueString()) {
	case console.MetricArchiveScheduled:
		undo = framework.APIFailure{Op: "cancel the archive of", Object: fmt.Sprintf("metric %q", id)}
		err = r.data.client.CancelMetricArchive(ctx, id)
	case console.MetricArchived:
		undo = framework.APIFailure{Op: "unarchive", Object: fmt.Sprintf("metric %q", id)}
		err = r.data.client.UnarchiveMetric(ctx, id)
	}
	if err != nil {
		undo.Add(ctx, &resp.Diagnostics, op, err)
		return
	}
	// A change of archive_on_destroy or validate_on_plan alone is provider-side: nothing to send.
	got := &console.Metric{ID: id}
	if !sameMetricFields(old, fields) {
		if got, err = r.data.client.UpdateMetric(ctx, id, fields); err != nil {
			framework.APIFailure{Op: "update", Object: fmt.Sprintf("metric %q", id)}.Add(ctx, &resp.Diagnostics, op, err)
			return
		}
	}
	if plan.UnitTypes.IsUnknown() {
		plan.UnitTypes = state.UnitTypes
	}
	r.written(&plan, got, id)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *metricResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state metricModel
	if !r.begin(ctx, &resp.Diagnostics, nil, req.State, &state) {
		return
	}
	id := state.ID.ValueString()
	ctx, op, cancel := framework.StartOperation(ctx, state.Timeouts, "delete", &resp.Diagnostics)
	defer cancel()
	if state.ArchiveOnDestroy.ValueBool() {
		if state.Status.ValueString() == string(console.MetricArchived) {
			return // archived already: nothing to schedule
		}
		if err := r.data.client.ScheduleMetricArchive(ctx, id); err != nil && !console.NotFound(err) {
			framework.APIFailure{Op: "schedule the archive of", Object: fmt.Sprintf("metric %q", id)}.Add(ctx, &resp.Diagnostics, op, err)
		}
		return
	}
	if err := r.data.client.DeleteMetric(ctx, id); err != nil && !console.NotFound(err) {
		framework.APIFailure{Op: "delete", Object: fmt.Sprintf("metric %q", id)}.Add(ctx, &resp.Diagnostics, op, err)
	}
}

func (r *metricResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if importState(ctx, req, resp, "featureconsole_metric", metricIdentityAttr, "revenue::user_warehouse") {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("validate_on_plan"), true)...)
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("archive_on_destroy"), false)...)
	}
}

func (r *metricResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchema(metricIdentityAttr, "Identifier of the metric, \"<name>::<type>\", such as revenue::user_warehouse.")
}
