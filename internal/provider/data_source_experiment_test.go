// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

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
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[resultsAddr]
		if !ok {
			return fmt.Errorf("%s not in state", resultsAddr)
		}
		attrs := rs.Primary.Attributes
		served, err := m.PulseResult("tfacc_cta", "Control", "Green", 0)
		if err != nil {
			return err
		}
		e, _ := m.Experiment("tfacc_cta")
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

// The experiment data source reads an experiment made and moved in the console as the resource
// would hold it: groups with their ids and values, metrics, the decision by group name.
func TestAccExperimentDataSource(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.PutExperiment(mockconsole.Experiment{
		ID: "tfacc_console", Name: "Console made", Hypothesis: "Blue wins", Tags: []string{"web"}, Allocation: 33.5,
		Groups: []mockconsole.ExperimentGroup{
			{Name: "Control", Size: 50, ParameterValues: []byte(`{"color":"grey"}`)},
			{Name: "Blue", Size: 50, ParameterValues: []byte(`{"color":"blue","n":2}`), Description: "the blue one"},
		},
		PrimaryMetrics: []mockconsole.ExperimentMetric{{Name: "purchase", Type: "event_count", Direction: "increase"}},
	})
	for _, err := range []error{m.StartExperiment("tfacc_console"), m.DecideExperiment("tfacc_console", "Blue", "Blue +4 %")} {
		if err != nil {
			t.Fatal(err)
		}
	}
	e, _ := m.Experiment("tfacc_console")
	const addr = "data.featureconsole_experiment.x"
	at := func(p string) tfjsonpath.Path { return tfjsonpath.New(p) }
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + `
data "featureconsole_experiment" "x" {
  experiment_id = "tfacc_console"
}
output "blue_color" {
  value = jsondecode(data.featureconsole_experiment.x.groups[1].parameter_values).color
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, at("name"), knownvalue.StringExact("Console made")),
					statecheck.ExpectKnownValue(addr, at("status"), knownvalue.StringExact("decision_made")),
					statecheck.ExpectKnownValue(addr, at("launched_group"), knownvalue.StringExact("Blue")),
					statecheck.ExpectKnownValue(addr, at("launched_group_id"), knownvalue.StringExact(mockGroupID(e, "Blue"))),
					statecheck.ExpectKnownValue(addr, at("decision_reason"), knownvalue.StringExact("Blue +4 %")),
					statecheck.ExpectKnownValue(addr, at("control_group"), knownvalue.StringExact("Control")),
					statecheck.ExpectKnownValue(addr, at("allocation"), knownvalue.Float64Exact(33.5)),
					statecheck.ExpectKnownValue(addr, at("tags"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("web")})),
					statecheck.ExpectKnownValue(addr, at("start_time"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, at("groups"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("Control"),
							"id": knownvalue.StringExact(mockGroupID(e, "Control")), "description": knownvalue.Null()}),
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("Blue"),
							"id": knownvalue.StringExact(mockGroupID(e, "Blue")), "size": knownvalue.Int64Exact(50),
							"description": knownvalue.StringExact("the blue one")}),
					})),
					statecheck.ExpectKnownValue(addr, at("primary_metrics"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("purchase"),
							"type": knownvalue.StringExact("event_count"), "direction": knownvalue.StringExact("increase"), "hypothesized_value": knownvalue.Null()}),
					})),
					statecheck.ExpectKnownOutputValue("blue_color", knownvalue.StringExact("blue")),
				},
			},
			{
				Config: providerBlock(url) + `
data "featureconsole_experiment" "x" {
  experiment_id = "tfacc_nothing"
}
`,
				ExpectError: wrapped(`Experiment "tfacc_nothing" not found`, "check experiment_id"),
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
