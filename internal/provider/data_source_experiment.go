// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The featureconsole_experiment data source: one experiment as featureconsole_experiment holds it
// (experimentFields, flattenExperiment), whatever its status.

type experimentDataSource struct{ dataSourceData }

var _ datasource.DataSourceWithConfigure = &experimentDataSource{}

func NewExperimentDataSource() datasource.DataSource {
	return &experimentDataSource{dataSourceData{typeName: "experiment"}}
}

func (d *experimentDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	text := framework.ComputedText
	number := func(desc string) schema.NumberAttribute {
		return schema.NumberAttribute{Computed: true, MarkdownDescription: desc}
	}
	millis := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc + ", in milliseconds since the Unix epoch; null until then."}
	}
	flag := func(desc string) schema.BoolAttribute {
		return schema.BoolAttribute{Computed: true, MarkdownDescription: desc + "; null where the service does not say."}
	}
	metrics := func(desc string) schema.ListNestedAttribute {
		return schema.ListNestedAttribute{Computed: true, MarkdownDescription: desc,
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"name":      text("Name of the metric."),
				"type":      text("Type of the metric, such as `event_count`."),
				"direction": text("Direction that counts as better: `increase` or `decrease`; null when the service holds none."),
				"hypothesized_value": schema.Float64Attribute{Computed: true,
					MarkdownDescription: "The change the experiment expects of the metric; null when it has none."},
			}}}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one experiment (`GET /experiments/{id}`) as `featureconsole_experiment` holds it: its " +
			"fields, groups with their ids and parameter values, metrics and where it stands. An experiment in any status " +
			"is read, archived ones too; one that does not exist is an error. Its results are read by " +
			"`featureconsole_experiment_results`.",
		Attributes: map[string]schema.Attribute{
			"experiment_id":      experimentIDArgument("Identifier of the experiment, such as `checkout_cta`."),
			"name":               text("Display name."),
			"description":        text("Description; empty when it has none."),
			"hypothesis":         text("What the experiment expects to find; empty when it has none."),
			"id_type":            text("Unit ID type users are split by, such as `userID`."),
			"tags":               schema.SetAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Tags of the experiment."},
			"allocation":         number("Percentage of users in the experiment."),
			"targeting_gate_id":  text("Gate whose passing users alone take part; null for none."),
			"duration":           schema.Int64Attribute{Computed: true, MarkdownDescription: "Planned length of the experiment in days."},
			"analytics_type":     text("How results are computed: `frequentist`, `bayesian` or `sprt`."),
			"layer_id":           text("Layer the experiment runs in; null for none."),
			"sequential_testing": flag("Whether results use sequential testing"),
			"default_confidence_interval": schema.Int64Attribute{Computed: true,
				MarkdownDescription: "Confidence level of the results, in percent; null where the service does not say."},
			"bonferroni_correction":            flag("Whether the Bonferroni correction is applied across the test groups"),
			"bonferroni_correction_per_metric": flag("Whether the Bonferroni correction is applied across the metrics too"),
			"benjamini_hochberg_per_variant":   flag("Whether the Benjamini-Hochberg procedure is applied across the test groups"),
			"benjamini_hochberg_per_metric":    flag("Whether the Benjamini-Hochberg procedure is applied across the metrics"),
			"benjamini_primary_metrics_only":   flag("Whether the Benjamini-Hochberg procedure counts the primary metrics alone"),
			"groups": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "The groups users are split between, in the service's order.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":   text("Identifier the service gave the group."),
					"name": text("Name of the group."),
					"size": number("Percentage of the experiment's users in the group."),
					"parameter_values": schema.StringAttribute{Computed: true, CustomType: framework.JSONValueType{},
						MarkdownDescription: "Values the group's users are served, as a JSON object string (`jsondecode` it)."},
					"description": text("Description of the group; null when it has none."),
					"disabled": schema.BoolAttribute{Computed: true,
						MarkdownDescription: "Whether the group is disabled: its users are served the control group's values."},
				}}},
			"control_group":     text("Name of the group the others are measured against."),
			"primary_metrics":   metrics("Metrics the decision rests on."),
			"secondary_metrics": metrics("Further metrics measured."),
			"status": text("Where the experiment stands: `setup`, `active`, `decision_made`, `abandoned`, or one the service " +
				"sets itself (`archived`, `experiment_stopped`, `assignment_stopped`)."),
			"launched_group":     text("Name of the group the decision shipped; null until one is made."),
			"launched_group_id":  text("Identifier of the group the decision shipped; null until one is made."),
			"decision_reason":    text("Why the decision was made or the experiment abandoned; null before."),
			"start_time":         millis("When the experiment started"),
			"end_time":           millis("When the experiment ended"),
			"decision_time":      millis("When the decision was made"),
			"creator_name":       text("Name of whoever created the experiment."),
			"created_time":       schema.Int64Attribute{Computed: true, MarkdownDescription: "When the experiment was created, in milliseconds since the Unix epoch."},
			"last_modifier_id":   text("Identifier of whoever last changed the experiment."),
			"last_modifier_name": text("Name of whoever last changed the experiment."),
		},
	}
}

func (d *experimentDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m experimentFields
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	e, ok := readExperimentForData(ctx, d.data.client, m.ExperimentID.ValueString(), &resp.Diagnostics)
	if !ok {
		return
	}
	flattenExperiment(ctx, e, &m)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
