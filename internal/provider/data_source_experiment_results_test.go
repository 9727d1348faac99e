// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/apidoc"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

const resultsAddr = "data.featureconsole_experiment_results.cta"

// resultsHCL reads the results of the experiment tfacc_cta (of experimentHCL) with an output that
// holds a launch of Green to what the experiment measured, as the guide shows.
const resultsHCL = `
data "featureconsole_experiment_results" "cta" {
  experiment_id = featureconsole_experiment.cta.experiment_id
}

output "ship_green" {
  value = data.featureconsole_experiment_results.cta.groups["Green"].metrics["purchase"].percent_change
  precondition {
    condition     = data.featureconsole_experiment_results.cta.groups["Green"].metrics["purchase"].improved
    error_message = "Green has not improved purchases."
  }
}
`

// expectResultsServed checks that the results data source holds, for Green against Control, what
// the mock serves for each metric, and (want: significant, improved by metric; nil: not checked)
// what it means.
func expectResultsServed(m *mockconsole.Server, want map[string][2]bool) resource.TestCheckFunc {
	return expectServed(m, resultsAddr, "tfacc_cta", want)
}

// lastResultsQuery is the query of the last request for the results of the group named group of
// experiment id.
func lastResultsQuery(m *mockconsole.Server, id, group string) (url.Values, error) {
	e, _ := m.Experiment(id)
	reqs := m.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if reqs[i].Path != "/console/v1/experiments/"+id+"/pulse_results" {
			continue
		}
		if q, err := url.ParseQuery(reqs[i].RawQuery); err == nil && q.Get("test") == mockGroupID(e, group) {
			return q, nil
		}
	}
	return nil, fmt.Errorf("no results of %s's group %s were asked for", id, group)
}

// expectServed checks that the results data source at addr holds, for Green against Control of
// experiment id, what the mock serves for each metric asked as the provider asked for it, and (want:
// significant, improved by metric; nil: not checked) what it means.
func expectServed(m *mockconsole.Server, addr, id string, want map[string][2]bool) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s not in state", addr)
		}
		attrs := rs.Primary.Attributes
		asked, err := lastResultsQuery(m, id, "Green")
		if err != nil {
			return err
		}
		served, err := m.PulseResult(id, "Control", "Green", asked)
		if err != nil {
			return err
		}
		e, _ := m.Experiment(id)
		prefix := "groups.Green."
		day := served.DS
		if m.Habits().ExampleForms { // the document's example carries no day
			day = ""
		}
		if attrs[prefix+"id"] != mockGroupID(e, "Green") || attrs["control_group"] != "Control" || attrs["results_date"] != day {
			return fmt.Errorf("results hold %v", attrs)
		}
		metrics := append(append([]mockconsole.PulseMetric{}, served.PrimaryMetrics...), served.SecondaryMetrics...)
		if attrs[prefix+"metrics.%"] != strconv.Itoa(len(metrics)) || len(metrics) != 2 {
			return fmt.Errorf("served %d metrics, state holds %s", len(metrics), attrs[prefix+"metrics.%"])
		}
		for i, pm := range metrics {
			at := prefix + "metrics." + pm.MetricName + "."
			for name, v := range map[string]float64{
				"percent_change": pm.PercentChange, "confidence_interval": pm.PercentConfidenceIntervalDelta, "p_value": pm.PValue,
				"control_mean": pm.ControlMean, "test_mean": pm.TestMean, "absolute_change": pm.AbsoluteChange,
				"control_units": float64(pm.ControlUnits), "test_units": float64(pm.TestUnits),
			} {
				if got, err := strconv.ParseFloat(attrs[at+name], 64); err != nil || got != v {
					return fmt.Errorf("%s%s = %q, the mock serves %v", at, name, attrs[at+name], v)
				}
			}
			seq, held := attrs[at+"sequential_confidence_interval"]
			if pm.PercentSequentialTestingConfidenceIntervalDelta == nil && held {
				return fmt.Errorf("%ssequential_confidence_interval = %q, the mock serves none", at, seq)
			}
			if v := pm.PercentSequentialTestingConfidenceIntervalDelta; v != nil && seq != strconv.FormatFloat(*v, 'g', -1, 64) {
				return fmt.Errorf("%ssequential_confidence_interval = %q, the mock serves %v", at, seq, *v)
			}
			w, ok := want[pm.MetricName]
			if want != nil && !ok {
				return fmt.Errorf("metric %q served, not expected", pm.MetricName)
			}
			if want == nil {
				w = [2]bool{attrs[at+"significant"] == "true", attrs[at+"improved"] == "true"}
			}
			if attrs[at+"significant"] != strconv.FormatBool(w[0]) || attrs[at+"improved"] != strconv.FormatBool(w[1]) ||
				attrs[at+"primary"] != strconv.FormatBool(i < len(served.PrimaryMetrics)) {
				return fmt.Errorf("%s: significant %s, improved %s, primary %s; want %v", pm.MetricName,
					attrs[at+"significant"], attrs[at+"improved"], attrs[at+"primary"], w)
			}
		}
		return nil
	}
}

// The results of a started experiment: read once the apply that starts it is done (the data source
// refers to the resource), each metric as the mock serves it with what it means; a clear win lets
// the launch through and a flat result stops it at plan.
func TestAccExperimentResults_started(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := providerBlock(url) + experimentHCL(ctaGroupsHCL, `status = "active"`,
		`secondary_metrics = [{ name = "latency", type = "event_count", direction = "decrease" }]`)
	arrange := func(purchase, purchaseCI, latency, latencyCI float64) func() {
		return func() {
			for _, err := range []error{
				m.SetPulseResult("tfacc_cta", "Green", "purchase", purchase, purchaseCI),
				m.SetPulseResult("tfacc_cta", "Green", "latency", latency, latencyCI),
			} {
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	decide := providerBlock(url) + `
data "featureconsole_experiment_results" "by_id" {
  experiment_id = "tfacc_cta"
}
` + experimentHCL(ctaGroupsHCL, `status = "decision_made"`, `launched_group = "Green"`, `decision_reason = "Green sold more"`,
		`secondary_metrics = [{ name = "latency", type = "event_count", direction = "decrease" }]`, `lifecycle {
    precondition {
      condition     = data.featureconsole_experiment_results.by_id.groups["Green"].metrics["purchase"].improved
      error_message = "The results do not support shipping Green."
    }
  }`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{
				// Created, started and read in one apply: the mock's own numbers.
				Config: cfg + `
data "featureconsole_experiment_results" "cta" {
  experiment_id = featureconsole_experiment.cta.experiment_id
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(resultsAddr, tfjsonpath.New("confidence"), knownvalue.Int64Exact(95)),
					statecheck.ExpectKnownValue(resultsAddr, tfjsonpath.New("status"), knownvalue.StringExact("active")),
					statecheck.ExpectKnownValue(resultsAddr, tfjsonpath.New("groups").AtMapKey("Green").AtMapKey("metrics").
						AtMapKey("latency").AtMapKey("direction"), knownvalue.StringExact("decrease")),
				},
				Check: expectResultsServed(m, nil),
			},
			{
				PreConfig: arrange(3.1, 1.2, 2, 0.5),
				Config:    cfg + resultsHCL,
				Check: resource.ComposeAggregateTestCheckFunc(
					expectResultsServed(m, map[string][2]bool{"purchase": {true, true}, "latency": {true, false}}),
					resource.TestCheckOutput("ship_green", "3.1"),
				),
			},
			{
				PreConfig:   arrange(-0.5, 1, -2, 0.5),
				Config:      cfg + resultsHCL,
				ExpectError: errRe("Green has not improved purchases"),
			},
			{
				// The guide's decision: held by a precondition to the results, read by id.
				PreConfig:   m.ResetRequests,
				Config:      decide,
				ExpectError: errRe("The results do not support shipping Green"),
			},
			{
				PreConfig: func() { nothingWritten(t, m)(); arrange(3.1, 1.2, -2, 0.5)() },
				Config:    decide,
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					if e.Status != "decision_made" || e.LaunchedGroupID != mockGroupID(e, "Green") {
						return fmt.Errorf("mock holds %+v", e)
					}
					return nil
				}),
			},
		},
	})
}

// An experiment in setup has no results: reading them is an error at plan that says it has not
// started, and no results are asked of the service.
func TestAccExperimentResults_setupIsAnError(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := providerBlock(url) + experimentHCL(ctaGroupsHCL)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: m.ResetRequests,
				Config: cfg + `
data "featureconsole_experiment_results" "cta" {
  experiment_id = "tfacc_cta"
}
`,
				ExpectError: wrapped(`Experiment "tfacc_cta" has not started`, `status is "setup"`),
			},
			{
				PreConfig: func() {
					for _, r := range m.Requests() {
						if strings.Contains(r.Path, "pulse_results") {
							t.Errorf("results were asked of an experiment in setup: %s %s", r.Method, r.Path)
						}
					}
				},
				Config: cfg + `
data "featureconsole_experiment_results" "missing" {
  experiment_id = "tfacc_missing"
}
`,
				ExpectError: wrapped(`Experiment "tfacc_missing" not found`),
			},
		},
	})
}

// Results are asked for by group id: where the service's read leaves a group's id out (the form of
// its document's example), the data source says which group, and asks for nothing with no id.
func TestAccExperimentResults_groupWithoutID(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := providerBlock(url) + experimentHCL(ctaGroupsHCL, `status = "active"`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() {
					m.SetHabits(mergeHabits(m.Habits(), mockconsole.Habits{ExampleForms: true}))
					m.ServeExperimentsAsExample(true)
					m.ResetRequests()
				},
				Config: cfg + `
data "featureconsole_experiment_results" "cta" {
  experiment_id = "tfacc_cta"
}
`,
				ExpectError: wrapped(`No id for group "Control" of experiment "tfacc_cta"`, "Nothing was read"),
			},
			{
				PreConfig: func() {
					if n := m.CountRequests(http.MethodGet, "/experiments/tfacc_cta/pulse_results"); n != 0 {
						t.Errorf("results asked for %d times without a group id", n)
					}
					m.ServeExperimentsAsExample(false)
				},
				Config: cfg,
			},
		},
	})
}

// putResultsExperiment puts the started experiment tfacc_seq in the mock as the console would make it:
// groups Control, Green and Blue, purchase (primary) and latency (secondary, lower is better), with
// the analysis settings set applies.
func putResultsExperiment(t *testing.T, m *mockconsole.Server, set func(e *mockconsole.Experiment)) {
	t.Helper()
	e := mockconsole.Experiment{ID: "tfacc_seq", Name: "Sequential", Allocation: 100,
		Groups: []mockconsole.ExperimentGroup{
			{Name: "Control", Size: 34, ParameterValues: []byte(`{}`)},
			{Name: "Green", Size: 33, ParameterValues: []byte(`{}`)},
			{Name: "Blue", Size: 33, ParameterValues: []byte(`{}`)},
		},
		PrimaryMetrics:   []mockconsole.ExperimentMetric{{Name: "purchase", Type: "event_count", Direction: "increase"}},
		SecondaryMetrics: []mockconsole.ExperimentMetric{{Name: "latency", Type: "event_count", Direction: "decrease"}},
	}
	if old, ok := m.Experiment(e.ID); ok {
		e = old
	}
	set(&e)
	m.PutExperiment(e)
	if e.Status == "" || e.Status == mockconsole.ExperimentSetup {
		if err := m.StartExperiment(e.ID); err != nil {
			t.Fatal(err)
		}
	}
}

const seqAddr = "data.featureconsole_experiment_results.seq"

// seqHCL reads the results of tfacc_seq (putResultsExperiment) by its id.
const seqHCL = `
data "featureconsole_experiment_results" "seq" {
  experiment_id = "tfacc_seq"
}
`

// seqMetric is the path of an attribute of Green's result on a metric.
func seqMetric(metric, name string) tfjsonpath.Path {
	return tfjsonpath.New("groups").AtMapKey("Green").AtMapKey("metrics").AtMapKey(metric).AtMapKey(name)
}

// With sequential testing on, significant and improved come from the service's sequential
// interval: purchase's +3.1 % is outside its plain ±2.5 but inside its sequential interval, so it is
// neither significant nor improved, and a precondition on it stops the plan; latency's -2 % is
// outside both. Turned off in the console, the plain interval judges and the sequential one is null.
// A bayesian or sprt experiment has no verdict in the service's results: null, the figures kept.
func TestAccExperimentResults_sequentialTesting(t *testing.T) {
	m, endpoint := startMock(t, mockconsole.Config{})
	putResultsExperiment(t, m, func(e *mockconsole.Experiment) { e.SequentialTesting = true })
	for _, err := range []error{
		m.SetPulseResult("tfacc_seq", "Green", "purchase", 3.1, 2.5),
		m.SetPulseResult("tfacc_seq", "Green", "latency", -2, 0.5),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	cfg := providerBlock(endpoint) + seqHCL
	gated := cfg + `
output "ship_green" {
  value = "Green"
  precondition {
    condition     = coalesce(data.featureconsole_experiment_results.seq.groups["Green"].metrics["purchase"].improved, false)
    error_message = "Green has not improved purchases."
  }
}
`
	seq := 2.5 * mockconsole.SequentialWidening
	judged := func(purchase, latency knownvalue.Check) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(seqAddr, seqMetric("purchase", "significant"), purchase),
			statecheck.ExpectKnownValue(seqAddr, seqMetric("purchase", "improved"), purchase),
			statecheck.ExpectKnownValue(seqAddr, seqMetric("latency", "significant"), latency),
			statecheck.ExpectKnownValue(seqAddr, seqMetric("latency", "improved"), latency),
			statecheck.ExpectKnownValue(seqAddr, seqMetric("purchase", "confidence_interval"), knownvalue.Float64Exact(2.5)),
			statecheck.ExpectKnownValue(seqAddr, seqMetric("purchase", "percent_change"), knownvalue.Float64Exact(3.1)),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: append(judged(knownvalue.Bool(false), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(seqAddr, tfjsonpath.New("sequential_testing"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(seqAddr, seqMetric("purchase", "sequential_confidence_interval"),
						knownvalue.Float64Func(func(v float64) error {
							if math.Abs(v-seq) > 1e-3 {
								return fmt.Errorf("sequential interval %v, want %v", v, seq)
							}
							return nil
						})),
				),
				Check: expectServed(m, seqAddr, "tfacc_seq", map[string][2]bool{"purchase": {false, false}, "latency": {true, true}}),
			},
			{Config: gated, ExpectError: errRe("Green has not improved purchases")},
			{
				PreConfig: func() { putResultsExperiment(t, m, func(e *mockconsole.Experiment) { e.SequentialTesting = false }) },
				Config:    gated,
				ConfigStateChecks: append(judged(knownvalue.Bool(true), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(seqAddr, tfjsonpath.New("sequential_testing"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(seqAddr, seqMetric("purchase", "sequential_confidence_interval"), knownvalue.Null()),
				),
				Check: expectServed(m, seqAddr, "tfacc_seq", map[string][2]bool{"purchase": {true, true}, "latency": {true, true}}),
			},
			{
				PreConfig: func() { putResultsExperiment(t, m, func(e *mockconsole.Experiment) { e.AnalyticsType = "bayesian" }) },
				Config:    cfg,
				ConfigStateChecks: append(judged(knownvalue.Null(), knownvalue.Null()),
					statecheck.ExpectKnownValue(seqAddr, tfjsonpath.New("analytics_type"), knownvalue.StringExact("bayesian"))),
			},
			{
				// Judged by the plain interval, purchase would have improved: the error says it is null.
				PreConfig:   func() { putResultsExperiment(t, m, func(e *mockconsole.Experiment) { e.AnalyticsType = "sprt" }) },
				Config:      gated,
				ExpectError: errRe("Green has not improved purchases"),
			},
		},
	})
}

// The results are asked for with the experiment's own analysis, as the console computes them: its
// confidence level and each correction it applies go to the service as the document's parameters,
// and the figures are those the service answers for them (wider than the plain ones); the data
// source's confidence and cuped override, and nothing else is asked of the service but reads.
func TestAccExperimentResults_experimentSettings(t *testing.T) {
	m, endpoint := startMock(t, mockconsole.Config{})
	putResultsExperiment(t, m, func(e *mockconsole.Experiment) {
		e.DefaultConfidenceInterval, e.BonferroniCorrection, e.BenjaminiHochbergPerMetric = "99", true, true
	})
	asked := func(want url.Values) func() {
		return func() {
			q, err := lastResultsQuery(m, "tfacc_seq", "Green")
			if err != nil {
				t.Fatal(err)
			}
			q.Del("control")
			q.Del("test")
			if !reflect.DeepEqual(q, want) {
				t.Errorf("results asked with %s, want %s", q.Encode(), want.Encode())
			}
			for _, r := range m.Requests() {
				if r.Method != http.MethodGet {
					t.Errorf("%s %s sent by a data source", r.Method, r.Path)
				}
			}
		}
	}
	cfg := providerBlock(endpoint) + seqHCL
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(seqAddr, tfjsonpath.New("confidence"), knownvalue.Int64Exact(99)),
					statecheck.ExpectKnownValue(seqAddr, tfjsonpath.New("cuped"), knownvalue.Null()),
				},
				Check: expectServed(m, seqAddr, "tfacc_seq", nil),
			},
			{
				PreConfig: asked(url.Values{"confidence": {"99"}, "applyBonferroniPerVariant": {"true"}, "applyBenjaminiHochbergPerMetric": {"true"}}),
				Config: providerBlock(endpoint) + `
data "featureconsole_experiment_results" "seq" {
  experiment_id = "tfacc_seq"
  confidence    = 80
  cuped         = true
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(seqAddr, tfjsonpath.New("confidence"), knownvalue.Int64Exact(80)),
				},
				Check: expectServed(m, seqAddr, "tfacc_seq", nil),
			},
			{
				PreConfig: func() {
					asked(url.Values{"confidence": {"80"}, "cuped": {"true"}, "applyBonferroniPerVariant": {"true"},
						"applyBenjaminiHochbergPerMetric": {"true"}})()
					putResultsExperiment(t, m, func(e *mockconsole.Experiment) {
						e.BonferroniCorrection, e.BenjaminiHochbergPerMetric = false, false
						e.BonferroniCorrectionPerMetric, e.BenjaminiHochbergPerVariant = true, true
					})
				},
				Config: cfg,
				Check:  expectServed(m, seqAddr, "tfacc_seq", nil),
			},
			{
				PreConfig: asked(url.Values{"confidence": {"99"}, "applyBonferroniPerMetric": {"true"}, "applyBenjaminiHochbergPerVariant": {"true"}}),
				Config:    cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					// Corrected at 99 %: wider than the plain 99 % interval the mock serves unasked.
					statecheck.ExpectKnownValue(seqAddr, seqMetric("purchase", "confidence_interval"), knownvalue.Float64Func(func(v float64) error {
						plain, err := m.PulseResult("tfacc_seq", "Control", "Green", nil)
						if err != nil || v <= plain.PrimaryMetrics[0].PercentConfidenceIntervalDelta {
							return fmt.Errorf("interval %v is not wider than the uncorrected %+v (%v)", v, plain.PrimaryMetrics, err)
						}
						return nil
					})),
				},
			},
		},
	})
}

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
			PercentConfidenceIntervalDelta: console.Decimal(c.interval)}, true, c.direction, judgePlain)
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
	m := metricResults(context.Background(), e, res, judgePlain, &diags)
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
	m := metricResults(context.Background(), e, &env.Data, judgePlain, &diags)
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
	diags.Append(metricResults(context.Background(), e, &res, judgePlain, &diags).ElementsAs(context.Background(), &got, false)...)
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
			if q := r.URL.Query(); q.Get("control") != "g_c" || q.Get("test") != "g_t" || q.Get("confidence") != "95" {
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

// What the interval judged by makes of a result: the sequential one with sequential testing on (its
// size: the document's example writes it below 0), null where the answer lacks it; none for a
// bayesian or sprt experiment, whose figures are kept.
func TestMetricResultJudged(t *testing.T) {
	seq := func(change, plain, sequential float64) console.MetricResult {
		return console.MetricResult{MetricName: "m", PercentChange: console.Decimal(change), PercentConfidenceIntervalDelta: console.Decimal(plain),
			PercentSequentialTestingConfidenceIntervalDelta: console.Decimal(sequential), HasSequentialInterval: true}
	}
	plainOnly := console.MetricResult{MetricName: "m", PercentChange: 3.1, PercentConfidenceIntervalDelta: 2.5}
	cases := []struct {
		name                  string
		r                     console.MetricResult
		judge                 resultJudge
		significant, improved *bool
	}{
		{"plain significant, sequential not", seq(3.1, 2.5, 3.5), judgeSequential, new(false), new(false)},
		{"the same judged plain", seq(3.1, 2.5, 3.5), judgePlain, new(true), new(true)},
		{"sequential below 0, as the example writes it", seq(3.1, 2.5, -3.5), judgeSequential, new(false), new(false)},
		{"outside both", seq(-4, 1, -2), judgeSequential, new(true), new(false)},
		{"no sequential interval answered", plainOnly, judgeSequential, nil, nil},
		{"bayesian or sprt", seq(3.1, 1, 2), judgeNone, nil, nil},
		{"no plain interval answered", console.MetricResult{MetricName: "m", PercentChange: 3.1, NoInterval: true}, judgePlain, nil, nil},
	}
	for _, c := range cases {
		r := metricResult(c.r, true, "increase", c.judge)
		if !sameBool(r.Significant, c.significant) || !sameBool(r.Improved, c.improved) {
			t.Errorf("%s: significant %v improved %v", c.name, r.Significant, r.Improved)
		}
		if r.PercentChange.ValueFloat64() != float64(c.r.PercentChange) || r.ConfidenceInterval.IsNull() != c.r.NoInterval {
			t.Errorf("%s: figures %+v", c.name, r)
		}
		if c.r.HasSequentialInterval != !r.SequentialInterval.IsNull() || r.SequentialInterval.ValueFloat64() < 0 {
			t.Errorf("%s: sequential interval %v", c.name, r.SequentialInterval)
		}
	}
}

func sameBool(v types.Bool, want *bool) bool {
	if want == nil {
		return v.IsNull()
	}
	return !v.IsNull() && v.ValueBool() == *want
}

// The interval an experiment is judged by follows its analysis settings.
func TestJudgeOf(t *testing.T) {
	for _, c := range []struct {
		e    console.Experiment
		want resultJudge
	}{
		{console.Experiment{}, judgePlain},
		{console.Experiment{AnalyticsType: "frequentist"}, judgePlain},
		{console.Experiment{SequentialTesting: new(true)}, judgeSequential},
		{console.Experiment{AnalyticsType: "bayesian"}, judgeNone},
		{console.Experiment{AnalyticsType: "sprt", SequentialTesting: new(true)}, judgeNone},
	} {
		if got := judgeOf(&c.e); got != c.want {
			t.Errorf("%+v: judged %v, want %v", c.e, got, c.want)
		}
	}
}
