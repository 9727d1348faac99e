// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// ValidateConfig checks the shape each type needs, before any request: the events of an event
// metric, the warehouse definition of a user_warehouse one, and nothing another type cannot hold.
func (r *metricResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m metricModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	typ, ok := framework.KnownString(m.Type)
	if !ok || !slices.Contains(metricTypes, typ) {
		return // an unknown type is the type's own error
	}
	need := func(attr, what string) {
		resp.Diagnostics.AddAttributeError(path.Root(attr), "Missing "+what,
			fmt.Sprintf("A metric of type %q is computed from %s: set %s.", typ, what, attr))
	}
	refuse := func(attr, only string) {
		resp.Diagnostics.AddAttributeError(path.Root(attr), "Not for type "+typ,
			fmt.Sprintf("%s is only for metrics of type %s; a metric of type %q cannot hold it: remove it, or change the type.", attr, only, typ))
	}
	shapes := []struct {
		attr  string
		set   bool
		types []string
		what  string
	}{
		{"warehouse_native", !m.WarehouseNative.IsNull(), []string{metricTypeWarehouse}, "a metric source in the warehouse"},
		{"metric_events", !m.MetricEvents.IsNull(), eventMetricTypes, "events"},
		{"metric_component_metrics", !m.MetricComponentMetrics.IsNull(), compositeMetricTypes, "other metrics"},
		{"funnel_events", !m.FunnelEvents.IsNull(), []string{"funnel"}, "the steps of a funnel"},
	}
	for _, s := range shapes {
		switch mine := slices.Contains(s.types, typ); {
		case mine && !s.set:
			need(s.attr, s.what)
		case !mine && s.set:
			refuse(s.attr, framework.QuoteList(s.types))
		}
	}
}

// ModifyPlan plans where the metric stands (active: apply takes back an archive) and, when the plan
// changes what the service holds and every value is known, has the service check the planned metric
// in a dry run, so that a metric source it lacks fails the plan.
func (r *metricResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer r.checkAccess(ctx, req, resp)
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan metricModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !plan.Status.Equal(types.StringValue(string(console.MetricActive))) {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("status"), console.MetricActive)...)
	}
	if !plan.ValidateOnPlan.ValueBool() || !req.Config.Raw.IsFullyKnown() || r.data == nil || r.data.client == nil {
		return
	}
	fields, diags := expandMetric(ctx, plan.metricFields)
	if diags.HasError() {
		return // reported by apply, not guessed at here
	}
	id := console.MetricID(fields.Name, fields.Type)
	update := false
	if !req.State.Raw.IsNull() {
		var state metricModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		old, diags := expandMetric(ctx, state.metricFields)
		update = state.Name.Equal(plan.Name) && state.Type.Equal(plan.Type)
		if update && !diags.HasError() && sameMetricFields(old, fields) {
			return // nothing the service would see changes: no request
		}
		if update {
			id = state.ID.ValueString()
			if state.Status.ValueString() == string(console.MetricArchived) {
				// The service checks no change of an archived metric; apply unarchives it first.
				tflog.Info(ctx, "the metric's dry run waits for apply: the metric is archived", map[string]any{"metric": id})
				return
			}
		}
	}
	if src := r.sourceCreatedHere(fields.WarehouseNative); src != "" {
		tflog.Info(ctx, "the metric's dry run waits for apply: a metric source it names is created in this run",
			map[string]any{"metric": id, "metric_source": src})
		return
	}

	fields.DryRun = true
	ctx, op, cancel := dryRunOperation(ctx, plan.Timeouts, update)
	defer cancel()
	var err error
	if update {
		_, err = r.data.client.UpdateMetric(ctx, id, fields)
	} else {
		_, err = r.data.client.CreateMetric(ctx, fields)
	}
	if err == nil {
		return
	}
	dryRunFailure{creation: metricCreation, id: id, update: update,
		exists: func(ctx context.Context, id string) error { _, err := r.data.client.GetMetric(ctx, id); return err },
		refusal: func(err error) (path.Path, string, string, bool) {
			return path.Root("warehouse_native").AtName("metric_source_name"),
				fmt.Sprintf("Metric %q names a metric source the console does not have", id),
				"Create the source first, or declare it with featureconsole_metric_source and refer to it " +
					"(metric_source_name = featureconsole_metric_source.<name>.name), so that Terraform creates it before the metric.",
				console.MetricSourceMissing(err)
		},
	}.add(ctx, &resp.Diagnostics, op, err)
}

// sourceCreatedHere is a metric source the warehouse definition names that this run creates
// (handoffs.go), or "".
func (r *metricResource) sourceCreatedHere(wn *console.WarehouseNative) string {
	if wn == nil {
		return ""
	}
	for _, src := range []string{wn.MetricSourceName, framework.Deref(wn.DenominatorMetricSourceName, "")} {
		if _, ok := r.data.sourcesCreated.Load(src); ok && src != "" {
			return src
		}
	}
	return ""
}
