// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The featureconsole_experiment_results data source (GET /experiments/{id}/pulse_results): each test
// group of a started experiment against its control group, computed with the experiment's own
// analysis, as the console shows it. Groups and metrics are maps by name so that a check block or a
// precondition reads as the question it asks: groups["Green"].metrics["purchase"].improved.

type experimentResultsDataSource struct{ dataSourceData }

var _ datasource.DataSourceWithConfigure = &experimentResultsDataSource{}

func NewExperimentResultsDataSource() datasource.DataSource {
	return &experimentResultsDataSource{dataSourceData{typeName: "experiment_results"}}
}

type experimentResultsModel struct {
	ExperimentID   types.String `tfsdk:"experiment_id"`
	Confidence     types.Int64  `tfsdk:"confidence"`
	CUPED          types.Bool   `tfsdk:"cuped"`
	Sequential     types.Bool   `tfsdk:"sequential_testing"`
	AnalyticsType  types.String `tfsdk:"analytics_type"`
	Status         types.String `tfsdk:"status"`
	ControlGroup   types.String `tfsdk:"control_group"`
	ControlGroupID types.String `tfsdk:"control_group_id"`
	ResultsDate    types.String `tfsdk:"results_date"`
	Groups         types.Map    `tfsdk:"groups"`
}

type groupResultsModel struct {
	ID      types.String `tfsdk:"id"`
	Name    types.String `tfsdk:"name"`
	Metrics types.Map    `tfsdk:"metrics"`
}

type metricResultModel struct {
	Name               types.String  `tfsdk:"name"`
	MetricID           types.String  `tfsdk:"metric_id"`
	Primary            types.Bool    `tfsdk:"primary"`
	Direction          types.String  `tfsdk:"direction"`
	PercentChange      types.Float64 `tfsdk:"percent_change"`
	ConfidenceInterval types.Float64 `tfsdk:"confidence_interval"`
	SequentialInterval types.Float64 `tfsdk:"sequential_confidence_interval"`
	PValue             types.Float64 `tfsdk:"p_value"`
	ControlMean        types.Float64 `tfsdk:"control_mean"`
	TestMean           types.Float64 `tfsdk:"test_mean"`
	AbsoluteChange     types.Float64 `tfsdk:"absolute_change"`
	ControlUnits       types.Int64   `tfsdk:"control_units"`
	TestUnits          types.Int64   `tfsdk:"test_units"`
	Significant        types.Bool    `tfsdk:"significant"`
	Improved           types.Bool    `tfsdk:"improved"`
}

var (
	metricResultType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"name": types.StringType, "metric_id": types.StringType, "primary": types.BoolType, "direction": types.StringType,
		"percent_change": types.Float64Type, "confidence_interval": types.Float64Type, "p_value": types.Float64Type,
		"sequential_confidence_interval": types.Float64Type,
		"control_mean":                   types.Float64Type, "test_mean": types.Float64Type, "absolute_change": types.Float64Type,
		"control_units": types.Int64Type, "test_units": types.Int64Type, "significant": types.BoolType, "improved": types.BoolType,
	}}
	groupResultsType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"id": types.StringType, "name": types.StringType, "metrics": types.MapType{ElemType: metricResultType},
	}}
)

func (d *experimentResultsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	number := func(desc string) schema.Float64Attribute {
		return schema.Float64Attribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads the results of a started experiment (`GET /experiments/{id}/pulse_results`): each test " +
			"group measured against the control group on each primary and secondary metric. `groups` and each group's " +
			"`metrics` are maps by name, so a `check` block or a precondition reads as the question it asks, such as " +
			"`groups[\"Green\"].metrics[\"purchase\"].improved`. An experiment that has not started (`setup`) has no " +
			"results: reading it is an error that says so.\n\n" +
			"The results are computed as the console computes them, with the experiment's own analysis settings: its " +
			"default confidence level (unless `confidence` says another), and the Bonferroni and Benjamini-Hochberg " +
			"corrections it applies, which widen the intervals. `significant` and `improved` come from the interval the " +
			"console judges the experiment by. With sequential testing on (`sequential_testing = true`), that is the " +
			"sequential interval (`sequential_confidence_interval`), wider than the plain one early in the experiment; " +
			"where the service's answer carries none, `significant` and `improved` are null rather than a guess. " +
			"Otherwise it is the plain confidence interval (`confidence_interval`). A `bayesian` or `sprt` experiment " +
			"(`analytics_type`) is judged by the console in its own terms, which the service's results do not carry: " +
			"there `significant` and `improved` are null, and the figures (change, interval, p-value, means, units) are " +
			"reported as the service gives them.\n\n" +
			"A `check` block or a precondition that reads `improved` should therefore allow for null, " +
			"such as `coalesce(...improved, false)`.",
		Attributes: map[string]schema.Attribute{
			"experiment_id": experimentIDArgument("Identifier of the experiment, such as `checkout_cta`. Referring to " +
				"`featureconsole_experiment.<name>.experiment_id` reads the results after the apply that starts it."),
			"confidence": schema.Int64Attribute{
				Optional: true, Computed: true,
				MarkdownDescription: "Confidence level of the intervals, in percent from `80` to `99`; the experiment's own " +
					"default confidence level when omitted, as the console shows it.",
				Validators: []validator.Int64{int64validator.Between(80, 99)},
			},
			"cuped": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether the results apply CUPED (variance reduction from what users did before the " +
					"experiment), which narrows the intervals. Omitted, the service applies its own default, as the console does.",
			},
			"sequential_testing": schema.BoolAttribute{Computed: true,
				MarkdownDescription: "Whether the experiment has sequential testing on: then `significant` and `improved` " +
					"come from each metric's `sequential_confidence_interval`."},
			"analytics_type": framework.ComputedText("The experiment's analysis: `frequentist`, `bayesian` or `sprt`; null " +
				"where the service gives none (its default, `frequentist`). For `bayesian` and `sprt`, `significant` and " +
				"`improved` are null."),
			"status":           framework.ComputedText("Status of the experiment, such as `active` or `decision_made`."),
			"control_group":    framework.ComputedText("Name of the control group every test group is measured against."),
			"control_group_id": framework.ComputedText("Identifier of the control group."),
			"results_date":     framework.ComputedText("Day the service computed the results for, as it writes it (such as `2026-11-27`); null where it gives none."),
			"groups": schema.MapNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The test groups (every group but the control group), by name.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":   framework.ComputedText("Identifier of the group."),
					"name": framework.ComputedText("Name of the group."),
					"metrics": schema.MapNestedAttribute{
						Computed: true,
						MarkdownDescription: "The group's result on each metric of the experiment, by metric name, the primary " +
							"metrics first should a name repeat.",
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"name":      framework.ComputedText("Name of the metric."),
							"metric_id": framework.ComputedText("The service's identifier of the metric."),
							"primary": schema.BoolAttribute{Computed: true,
								MarkdownDescription: "Whether the metric is a primary metric (one the decision rests on)."},
							"direction": framework.ComputedText("Direction that counts as better: `increase` or `decrease` " +
								"(`increase` when the service holds none)."),
							"percent_change": number("Change of the test group's mean against the control group's, in percent."),
							"confidence_interval": number("Half-width of the confidence interval of `percent_change`, in percent: the change is " +
								"`percent_change` ± this, at `confidence` and with the experiment's corrections; null where the service " +
								"gives none (then `significant` and `improved` are null too, never judged against an interval of 0)."),
							"sequential_confidence_interval": number("Half-width of the sequential-testing interval of `percent_change`, in " +
								"percent, as the service computes it for an experiment with sequential testing on; null otherwise."),
							"p_value":         number("p-value of the change."),
							"control_mean":    number("Mean of the metric in the control group."),
							"test_mean":       number("Mean of the metric in the test group."),
							"absolute_change": number("`test_mean` minus `control_mean`."),
							"control_units": schema.Int64Attribute{Computed: true,
								MarkdownDescription: "Units (users, or whatever `id_type` counts) measured in the control group."},
							"test_units": schema.Int64Attribute{Computed: true, MarkdownDescription: "Units measured in the test group."},
							"significant": schema.BoolAttribute{Computed: true,
								MarkdownDescription: "Whether the interval the console judges by excludes 0: " +
									"`abs(percent_change) > sequential_confidence_interval` with sequential testing on, else " +
									"`abs(percent_change) > confidence_interval`. Null for a `bayesian` or `sprt` experiment, and " +
									"with sequential testing on where the service gives no sequential interval."},
							"improved": schema.BoolAttribute{Computed: true,
								MarkdownDescription: "Whether the change is significant in the metric's direction: up for `increase`, " +
									"down for `decrease`. Null where `significant` is."},
						}},
					},
				}},
			},
		},
	}
}

func (d *experimentResultsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m experimentResultsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	id := m.ExperimentID.ValueString()
	e, ok := readExperimentForData(ctx, d.data.client, id, &resp.Diagnostics)
	if !ok {
		return
	}
	if !experimentStarted(e) {
		resp.Diagnostics.AddAttributeError(path.Root("experiment_id"), fmt.Sprintf("Experiment %q has not started", id),
			fmt.Sprintf("The experiment's status is %q and it has no results until it starts: start it (status = \"active\" "+
				"on its featureconsole_experiment, or in the console) and read the results after that apply.", e.Status))
		return
	}
	control := controlGroupOf(e)
	if control == nil {
		resp.Diagnostics.AddAttributeError(path.Root("experiment_id"), fmt.Sprintf("Experiment %q has no groups", id),
			"The service holds no groups for this experiment, so there is nothing to compare.")
		return
	}
	// The experiment's own analysis, as the console computes its results; the arguments override.
	query := console.PulseQueryOf(e)
	if !m.Confidence.IsNull() && !m.Confidence.IsUnknown() {
		query.Confidence = int(m.Confidence.ValueInt64())
	}
	if !m.CUPED.IsNull() && !m.CUPED.IsUnknown() {
		query.CUPED = m.CUPED.ValueBoolPointer()
	}
	judge := judgeOf(e)
	// The service asks for results by group id; a read may leave a group's id out (the document's
	// example gives the first group's alone), and "" would ask for another route's answer.
	for _, g := range e.Groups {
		if g.ID == "" {
			resp.Diagnostics.AddAttributeError(path.Root("experiment_id"), fmt.Sprintf("No id for group %q of experiment %q", g.Name, id),
				"The service's answer gives no id for this group, and results are asked for by group id. Nothing was read: "+
					"read the results again once the service's answer carries the group's id.")
			return
		}
	}
	groups := map[string]groupResultsModel{}
	for _, g := range e.Groups {
		if g.ID == control.ID {
			continue
		}
		res, err := d.data.client.GetPulseResults(ctx, id, control.ID, g.ID, query)
		if err != nil {
			framework.APIFailure{Op: "read results of", Object: fmt.Sprintf("experiment %q (group %q against %q)", id, g.Name, control.Name)}.
				Add(ctx, &resp.Diagnostics, nil, err)
			return
		}
		// The document's example form carries no day: the date is then unknown to the provider, null.
		if res.DS != "" {
			m.ResultsDate = types.StringValue(string(res.DS))
		}
		groups[g.Name] = groupResultsModel{ID: types.StringValue(g.ID), Name: types.StringValue(g.Name),
			Metrics: metricResults(ctx, e, res, judge, &resp.Diagnostics)}
	}
	if m.ResultsDate.IsUnknown() || m.ResultsDate.IsNull() {
		m.ResultsDate = types.StringNull()
	}
	if query.Confidence == 0 {
		m.Confidence = types.Int64Null()
	} else {
		m.Confidence = types.Int64Value(int64(query.Confidence))
	}
	m.Sequential = types.BoolValue(console.IsOn(e.SequentialTesting))
	m.AnalyticsType = framework.StringOrNull(e.AnalyticsType)
	m.Status = types.StringValue(e.Status)
	m.ControlGroup = types.StringValue(control.Name)
	m.ControlGroupID = types.StringValue(control.ID)
	gm, diags := types.MapValueFrom(ctx, groupResultsType, groups)
	resp.Diagnostics.Append(diags...)
	m.Groups = gm
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// readExperimentForData is the experiment a data source reads by its experiment_id.
func readExperimentForData(ctx context.Context, client *console.Client, id string, diags *diag.Diagnostics) (*console.Experiment, bool) {
	return readOne(ctx, client, (*console.Client).GetExperiment, "experiment", experimentIdentityAttr, id,
		"No experiment with this id exists in the project: check experiment_id.", diags)
}

// experimentStarted reports whether the experiment ever ran: results exist from its start on, also
// once it is decided or abandoned; an experiment abandoned in setup never started.
func experimentStarted(e *console.Experiment) bool {
	return e.Status != console.ExperimentSetup && e.StartTime.Set && e.StartTime.Value != 0
}

// controlGroupOf is the experiment's control group: the first group when the service names none.
func controlGroupOf(e *console.Experiment) *console.ExperimentGroup {
	if g := e.Group(e.ControlGroupID); g != nil {
		return g
	}
	if len(e.Groups) == 0 {
		return nil
	}
	return &e.Groups[0]
}

// resultJudge is the interval significant and improved come from.
type resultJudge int

const (
	judgePlain      resultJudge = iota // the confidence interval
	judgeSequential                    // the sequential-testing interval
	judgeNone                          // none the results carry: significant and improved are null
)

// judgeOf is the interval the console judges an experiment's results by: none for a bayesian or
// sprt experiment (the console judges those by figures the results do not carry), the sequential
// one with sequential testing on, else the plain one.
func judgeOf(e *console.Experiment) resultJudge {
	switch {
	case strings.EqualFold(e.AnalyticsType, "bayesian"), strings.EqualFold(e.AnalyticsType, "sprt"):
		return judgeNone
	case console.IsOn(e.SequentialTesting):
		return judgeSequential
	}
	return judgePlain
}

// metricResults is one test group's results by metric name, the primary metrics first: a
// secondary metric whose name a primary one already holds is left out. The client names a metric
// the service sends without metricName by its metricID ("<name>::<type>"); a direction the results
// lack is the experiment's for that metric, found by name and type, else by name.
func metricResults(ctx context.Context, e *console.Experiment, res *console.PulseResults, judge resultJudge, diags *diag.Diagnostics) types.Map {
	directions := map[string]string{}
	for _, ms := range [][]console.ExperimentMetric{e.SecondaryMetrics, e.PrimaryMetrics} {
		for _, m := range ms {
			directions[m.Name] = m.Direction
			directions[m.Name+"::"+m.Type] = m.Direction
		}
	}
	out := map[string]attr.Value{}
	add := func(rs []console.MetricResult, primary bool) {
		for _, r := range rs {
			if _, seen := out[r.MetricName]; seen {
				continue
			}
			dir := r.Directionality
			if dir == "" {
				dir = directions[r.MetricID]
			}
			if dir == "" {
				dir = directions[r.MetricName]
			}
			v, d := types.ObjectValueFrom(ctx, metricResultType.AttrTypes, metricResult(r, primary, dir, judge))
			diags.Append(d...)
			out[r.MetricName] = v
		}
	}
	add(res.PrimaryMetrics, true)
	add(res.SecondaryMetrics, false)
	v, d := types.MapValue(metricResultType, out)
	diags.Append(d...)
	return v
}

// metricResult is one metric's result with what it means under judge: significant when the
// interval judged by excludes 0 (its size: the service may write a half-width below 0), improved
// when it does so on the side the direction calls better (up unless "decrease"); both null where
// there is no interval to judge by.
func metricResult(r console.MetricResult, primary bool, dir string, judge resultJudge) metricResultModel {
	direction := "increase"
	if strings.EqualFold(dir, "decrease") {
		direction = "decrease"
	}
	change, interval := float64(r.PercentChange), math.Abs(float64(r.PercentConfidenceIntervalDelta))
	sequential := types.Float64Null()
	if r.HasSequentialInterval {
		sequential = types.Float64Value(math.Abs(float64(r.PercentSequentialTestingConfidenceIntervalDelta)))
	}
	significant, improved := types.BoolNull(), types.BoolNull()
	plain := types.Float64Value(interval)
	if r.NoInterval {
		plain = types.Float64Null()
	}
	judged, ok := interval, judge == judgePlain && !r.NoInterval
	if judge == judgeSequential && r.HasSequentialInterval {
		judged, ok = sequential.ValueFloat64(), true
	}
	if ok {
		better := change > 0
		if direction == "decrease" {
			better = change < 0
		}
		sig := math.Abs(change) > judged
		significant, improved = types.BoolValue(sig), types.BoolValue(sig && better)
	}
	return metricResultModel{
		Name: types.StringValue(r.MetricName), MetricID: types.StringValue(r.MetricID), Primary: types.BoolValue(primary),
		Direction: types.StringValue(direction), PercentChange: types.Float64Value(change),
		ConfidenceInterval: plain, SequentialInterval: sequential, PValue: types.Float64Value(float64(r.PValue)),
		ControlMean: types.Float64Value(float64(r.ControlMean)), TestMean: types.Float64Value(float64(r.TestMean)),
		AbsoluteChange: types.Float64Value(float64(r.AbsoluteChange)),
		ControlUnits:   types.Int64Value(int64(r.ControlUnits)), TestUnits: types.Int64Value(int64(r.TestUnits)),
		Significant: significant, Improved: improved,
	}
}

// experimentIDArgument returns the experiment_id argument that the experiment's data sources read by.
func experimentIDArgument(desc string) schema.StringAttribute {
	return schema.StringAttribute{Required: true, MarkdownDescription: desc,
		Validators: []validator.String{stringvalidator.LengthBetween(3, 100), framework.NotBlank()}}
}
