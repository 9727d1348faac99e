// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/apidoc"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// What a metric's result means: significant when the interval excludes 0, improved when it does so
// on the side the metric's direction calls better; no direction counts as increase.
func TestMetricResultMeaning(t *testing.T) {
	cases := []struct {
		name                string
		change, interval    float64
		direction           string
		significant, better bool
	}{
		{"up, clear", 3.1, 1.2, "increase", true, true},
		{"up, within the interval", 0.9, 1.2, "increase", false, false},
		{"on the edge is not significant", 1.2, 1.2, "increase", false, false},
		{"down for a decrease metric", -2, 0.5, "decrease", true, true},
		{"up for a decrease metric", 2, 0.5, "DECREASE", true, false},
		{"down, no direction", -2, 0.5, "", true, false},
		{"negative interval as the service may write it", 2, -0.5, "", true, true},
	}
	for _, c := range cases {
		r := metricResult(console.MetricResult{MetricName: "m", PercentChange: console.Decimal(c.change),
			PercentConfidenceIntervalDelta: console.Decimal(c.interval)}, true, c.direction)
		if r.Significant.ValueBool() != c.significant || r.Improved.ValueBool() != c.better {
			t.Errorf("%s: significant %v improved %v, want %v %v", c.name, r.Significant, r.Improved, c.significant, c.better)
		}
	}
}

// Each group's metrics by name, primary first: a secondary metric of a primary one's name is left
// out, and a direction the results lack is the experiment's.
func TestMetricResultsByName(t *testing.T) {
	e := &console.Experiment{SecondaryMetrics: []console.ExperimentMetric{{Name: "latency", Direction: "decrease"}}}
	res := &console.PulseResults{
		PrimaryMetrics:   []console.MetricResult{{MetricName: "purchase", PercentChange: 3, PercentConfidenceIntervalDelta: 1}},
		SecondaryMetrics: []console.MetricResult{{MetricName: "latency", PercentChange: -3, PercentConfidenceIntervalDelta: 1}, {MetricName: "purchase"}},
	}
	var diags diag.Diagnostics
	m := metricResults(context.Background(), e, res, &diags)
	var got map[string]metricResultModel
	diags.Append(m.ElementsAs(context.Background(), &got, false)...)
	if diags.HasError() || len(got) != 2 {
		t.Fatalf("metrics %v: %v", m, diags)
	}
	if p := got["purchase"]; !p.Primary.ValueBool() || p.PercentChange.ValueFloat64() != 3 || !p.Improved.ValueBool() {
		t.Errorf("purchase %+v", p)
	}
	if l := got["latency"]; l.Primary.ValueBool() || l.Direction.ValueString() != "decrease" || !l.Improved.ValueBool() {
		t.Errorf("latency %+v", l)
	}
}

// documentedPulseResults is the data of the document's own example answer of GET
// /experiments/{id}/pulse_results: snake_case, no metricName, no ds.
func documentedPulseResults(t *testing.T) []byte {
	t.Helper()
	for _, ex := range apidoc.MustLoad().Examples() {
		if ex.Route == "GET /console/v1/experiments/{id}/pulse_results" {
			b, err := json.Marshal(ex.Value)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
	t.Fatal("the document has no example of pulse results")
	return nil
}

// The results in the document's example form: each metric under the name its metricID holds, with
// its own figures, and the experiment's direction for it (by name and type).
func TestMetricResultsInTheExampleForm(t *testing.T) {
	var env struct {
		Data console.PulseResults `json:"data"`
	}
	if err := json.Unmarshal(documentedPulseResults(t), &env); err != nil {
		t.Fatal(err)
	}
	e := &console.Experiment{
		PrimaryMetrics:   []console.ExperimentMetric{{Name: "Purchase", Type: "other_type", Direction: "increase"}, {Name: "Purchase", Type: "user_warehouse", Direction: "decrease"}},
		SecondaryMetrics: []console.ExperimentMetric{{Name: "Support Success Rate", Type: "user_warehouse"}},
	}
	var diags diag.Diagnostics
	m := metricResults(context.Background(), e, &env.Data, &diags)
	var got map[string]metricResultModel
	diags.Append(m.ElementsAs(context.Background(), &got, false)...)
	if diags.HasError() || len(got) != 2 {
		t.Fatalf("metrics %v: %v", m, diags)
	}
	p := got["Purchase"]
	if p.Name.ValueString() != "Purchase" || p.MetricID.ValueString() != "Purchase::user_warehouse" || !p.Primary.ValueBool() ||
		p.Direction.ValueString() != "decrease" || !near(p.PercentChange.ValueFloat64(), -0.9104559464139017) ||
		!near(p.ConfidenceInterval.ValueFloat64(), 2.145770565507353) || !near(p.PValue.ValueFloat64(), 0.7066986120589813) ||
		!near(p.AbsoluteChange.ValueFloat64(), -0.5656598720428505) || !near(p.ControlMean.ValueFloat64(), 62.12929623567921) ||
		p.TestUnits.ValueInt64() != 1669 || p.ControlUnits.ValueInt64() != 1589 || p.Significant.ValueBool() || p.Improved.ValueBool() {
		t.Errorf("Purchase %+v", p)
	}
	s := got["Support Success Rate"]
	if s.Primary.ValueBool() || s.Direction.ValueString() != "increase" || !near(s.PercentChange.ValueFloat64(), 0.4569873400680713) ||
		!near(s.PValue.ValueFloat64(), 0.5569502167465609) || s.TestUnits.ValueInt64() != 4696 || s.Significant.ValueBool() {
		t.Errorf("Support Success Rate %+v", s)
	}
}

// The results in the schema's form read as the example's do; a change beyond its interval is
// significant.
func TestMetricResultsInTheSchemaForm(t *testing.T) {
	var res console.PulseResults
	body := `{"ds":"2026-11-26","primaryMetrics":[{"metricID":"purchase::event_count","metricName":"purchase","directionality":"increase",` +
		`"percentChange":3.5,"percentConfidenceIntervalDelta":1.25,"pValue":0.001,"controlUnits":1000,"testUnits":"1010"}],` +
		`"secondaryMetrics":[{"metricID":"latency::event_dau","percent_change":-4,"percent_confidence_interval_delta":1,"p_value":0.02}]}`
	if err := json.Unmarshal([]byte(body), &res); err != nil {
		t.Fatal(err)
	}
	e := &console.Experiment{SecondaryMetrics: []console.ExperimentMetric{{Name: "latency", Type: "event_dau", Direction: "decrease"}}}
	var diags diag.Diagnostics
	var got map[string]metricResultModel
	diags.Append(metricResults(context.Background(), e, &res, &diags).ElementsAs(context.Background(), &got, false)...)
	if diags.HasError() || len(got) != 2 {
		t.Fatalf("metrics %v: %v", got, diags)
	}
	if p := got["purchase"]; p.PercentChange.ValueFloat64() != 3.5 || p.PValue.ValueFloat64() != 0.001 || !p.Improved.ValueBool() || p.TestUnits.ValueInt64() != 1010 {
		t.Errorf("purchase %+v", p)
	}
	if l := got["latency"]; l.PercentChange.ValueFloat64() != -4 || l.Direction.ValueString() != "decrease" || !l.Significant.ValueBool() || !l.Improved.ValueBool() {
		t.Errorf("latency %+v", l)
	}
}

// The data source read against the service's documented answer: the group's metrics each under its
// own name with its own figures, and no results_date where the service gives no day.
func TestExperimentResultsReadTheDocumentedAnswer(t *testing.T) {
	const experiment = `{"message":"ok","data":{"id":"a_experiment","status":"active","startTime":1700000000000,"controlGroupID":"g_c",` +
		`"defaultConfidenceInterval":"95","groups":[{"id":"g_c","name":"Control","size":50,"parameterValues":{}},` +
		`{"id":"g_t","name":"Test","size":50,"parameterValues":{}}],"primaryMetrics":[{"name":"Purchase","type":"user_warehouse"}],` +
		`"secondaryMetrics":[{"name":"Support Success Rate","type":"user_warehouse","direction":"increase"}]}}`
	results := documentedPulseResults(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/console/v1/experiments/a_experiment":
			_, _ = w.Write([]byte(experiment))
		case "/console/v1/experiments/a_experiment/pulse_results":
			if q := r.URL.Query(); q.Get("control") != "g_c" || q.Get("test") != "g_t" {
				t.Errorf("results asked with %s", r.URL.RawQuery)
			}
			_, _ = w.Write(results)
		default:
			t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	c, err := console.New(console.Config{BaseURL: srv.URL, APIKey: mockconsole.DefaultAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	d := &experimentResultsDataSource{dataSourceData{typeName: "experiment_results", data: &providerData{client: c}}}
	var sr datasource.SchemaResponse
	d.Schema(ctx, datasource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
	}
	vals["experiment_id"] = tftypes.NewValue(tftypes.String, "a_experiment")
	resp := &datasource.ReadResponse{State: tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)}}
	d.Read(ctx, datasource.ReadRequest{Config: tfsdk.Config{Schema: sr.Schema, Raw: tftypes.NewValue(typ, vals)}}, resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	var m experimentResultsModel
	resp.Diagnostics.Append(resp.State.Get(ctx, &m)...)
	var groups map[string]groupResultsModel
	resp.Diagnostics.Append(m.Groups.ElementsAs(ctx, &groups, false)...)
	var metrics map[string]metricResultModel
	resp.Diagnostics.Append(groups["Test"].Metrics.ElementsAs(ctx, &metrics, false)...)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	if !m.ResultsDate.IsNull() || m.ControlGroup.ValueString() != "Control" || m.Confidence.ValueInt64() != 95 || len(groups) != 1 {
		t.Errorf("results %+v", m)
	}
	p, s := metrics["Purchase"], metrics["Support Success Rate"]
	if len(metrics) != 2 || !near(p.PercentChange.ValueFloat64(), -0.9104559464139017) || !near(p.PValue.ValueFloat64(), 0.7066986120589813) ||
		p.Significant.ValueBool() || !p.Primary.ValueBool() || !near(s.PercentChange.ValueFloat64(), 0.4569873400680713) || s.Primary.ValueBool() {
		t.Errorf("metrics %+v", metrics)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
