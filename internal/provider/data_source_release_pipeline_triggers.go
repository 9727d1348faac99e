// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

func NewReleasePipelineTriggersDataSource() datasource.DataSource {
	return newListDataSource(listDataSourceSpec[releasePipelineTriggersModel]{
		typeName: "release_pipeline_triggers",
		description: "Lists release pipeline runs (\"triggers\": one rollout of a pipeline for one saved change of a gate or of a dynamic config's rules), " +
			"every page of `GET /release_pipeline_triggers`, filtered by the service. Use it to find the run an action " +
			"`featureconsole_release_pipeline_trigger` should act on, or to report where rollouts stand.",
		filters: map[string]schema.Attribute{
			"release_pipeline_id": stringFilter("Only runs of this release pipeline.", framework.NotBlank()),
			"gate_id":             stringFilter("Only runs rolling out a change of this gate.", framework.NotBlank()),
			"dynamic_config_id":   stringFilter("Only runs rolling out a change of this dynamic config's rules.", framework.NotBlank()),
			"statuses": schema.ListAttribute{
				Optional:    true,
				ElementType: types.StringType,
				MarkdownDescription: "Only runs in one of these statuses: `IN_PROGRESS`, `PAUSED`, `WAITING_FOR_REVIEW`, " +
					"`COMPLETED`, `ABORTED`. Omit for every status.",
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.ValueStringsAre(stringvalidator.OneOf(console.TriggerStatuses...)),
				},
			},
		},
		listAttr:        "triggers",
		listDescription: "The runs, in the order the service lists them.",
		item:            triggerAttributes(),
		fill:            fillTriggers,
	})
}

type releasePipelineTriggersModel struct {
	ReleasePipelineID types.String `tfsdk:"release_pipeline_id"`
	GateID            types.String `tfsdk:"gate_id"`
	DynamicConfigID   types.String `tfsdk:"dynamic_config_id"`
	Statuses          types.List   `tfsdk:"statuses"`
	Triggers          types.List   `tfsdk:"triggers"`
}

var (
	triggerObjectType = framework.DataSourceObjectType(triggerAttributes())
	triggerActionType = framework.NestedObjectType(triggerObjectType, "actions")
)

// triggerAttributes returns the schema of one run; triggerObjectType is derived from it.
func triggerAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":                  framework.ComputedText("Identifier of the run (the `trigger_id` of the action)."),
		"release_pipeline_id": framework.ComputedText("The pipeline the run rolls out."),
		"gate_id":             framework.ComputedText("The gate whose change the run rolls out; null when the service names none."),
		"dynamic_config_id":   framework.ComputedText("The dynamic config whose change of rules the run rolls out; null for a gate's run."),
		"status": framework.ComputedText("`IN_PROGRESS` (a phase bakes), `PAUSED` (the bake timer is stopped), " +
			"`WAITING_FOR_REVIEW` (a phase with `required_review` waits for approval), `COMPLETED` or `ABORTED` (final)."),
		"current_phase":    framework.ComputedText("Name of the current phase."),
		"current_phase_id": framework.ComputedText("Identifier of the current phase."),
		"current_phase_end_time": schema.Int64Attribute{Computed: true, MarkdownDescription: "When the current phase's bake " +
			"time ends, in milliseconds since the Unix epoch; null while paused, waiting for review, or once final."},
		"created_time": schema.Int64Attribute{Computed: true, MarkdownDescription: "When the run started, in milliseconds since the Unix epoch."},
		"actions": schema.ListNestedAttribute{
			Computed:            true,
			MarkdownDescription: "The operations recorded on the run, oldest first.",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"type": framework.ComputedText("`APPROVED_FOR`, `PAUSED`, `UNPAUSED`, `SKIPPED`, `FULL_ROLL_OUT` or `ABORTED`."),
				"time_ms": schema.Int64Attribute{Computed: true, MarkdownDescription: "When, in milliseconds " +
					"since the Unix epoch; null when the service does not say."},
				"phase_id":   framework.ComputedText("The phase the run was at."),
				"actor_name": framework.ComputedText("Who did it."),
			}},
		},
	}
}

func fillTriggers(ctx context.Context, client *console.Client, opts console.ListOptions, m *releasePipelineTriggersModel, diags *diag.Diagnostics) (framework.APIFailure, error) {
	f := console.TriggerFilter{ReleasePipelineID: m.ReleasePipelineID.ValueString(), GateID: m.GateID.ValueString(),
		DynamicConfigID: m.DynamicConfigID.ValueString()}
	if diags.Append(m.Statuses.ElementsAs(ctx, &f.Statuses, false)...); diags.HasError() {
		return framework.APIFailure{}, nil
	}
	runs, err := client.ListReleasePipelineTriggers(ctx, f, opts)
	m.Triggers = flattenTriggers(runs)
	return framework.APIFailure{Op: "list", Object: "release pipeline runs"}, err
}

func flattenTriggers(runs []console.ReleasePipelineTrigger) types.List {
	vals := make([]attr.Value, 0, len(runs))
	for _, r := range runs {
		actions := make([]attr.Value, 0, len(r.Actions))
		for _, a := range r.Actions {
			actions = append(actions, types.ObjectValueMust(triggerActionType.AttrTypes, map[string]attr.Value{
				"type":       types.StringValue(a.Type),
				"time_ms":    millisValue(a.TimeMs),
				"phase_id":   types.StringValue(a.PhaseID),
				"actor_name": types.StringValue(a.ActorName),
			}))
		}
		gate := types.StringNull()
		if r.GateID != "" {
			gate = types.StringValue(r.GateID)
		}
		vals = append(vals, types.ObjectValueMust(triggerObjectType.AttrTypes, map[string]attr.Value{
			"id":                     types.StringValue(r.ID),
			"release_pipeline_id":    types.StringValue(r.ReleasePipelineID),
			"gate_id":                gate,
			"dynamic_config_id":      framework.StringOrNull(r.DynamicConfigID),
			"status":                 types.StringValue(r.Status),
			"current_phase":          types.StringValue(r.CurrentPhase),
			"current_phase_id":       types.StringValue(r.CurrentPhaseID),
			"current_phase_end_time": millisValue(r.CurrentPhaseEndTime),
			"created_time":           millisValue(r.CreatedTime),
			"actions":                types.ListValueMust(triggerActionType, actions),
		}))
	}
	return types.ListValueMust(triggerObjectType, vals)
}

func millisValue(m console.Millis) types.Int64 {
	if !m.Set {
		return types.Int64Null()
	}
	return types.Int64Value(m.Value)
}
