// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"regexp"
	"strings"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// seedExperiments puts experiments made in the console into the mock: tfacc_exp_1 (setup, tagged
// checkout), tfacc_exp_2 (active, tagged checkout and web, control group second, metrics), and
// tfacc_exp_3 (decided, no tags).
func seedExperiments(t *testing.T, m *mockconsole.Server) {
	t.Helper()
	groups := func(control string) []mockconsole.ExperimentGroup {
		return []mockconsole.ExperimentGroup{
			{Name: "Green", Size: 60, ParameterValues: []byte(`{"color":"green","n":1.5}`), Description: "green"},
			{Name: control, Size: 40, ParameterValues: []byte(`{ "color" : "grey" }`)},
		}
	}
	m.PutExperiment(mockconsole.Experiment{ID: "tfacc_exp_1", Name: "One", Tags: []string{"checkout"}, Groups: groups("Control")})
	e2 := mockconsole.Experiment{ID: "tfacc_exp_2", Hypothesis: "Green sells", Tags: []string{"checkout", "web"}, Allocation: 20.5,
		Groups:           groups("Control"),
		PrimaryMetrics:   []mockconsole.ExperimentMetric{{Name: "purchase", Type: "event_count", Direction: "increase"}},
		SecondaryMetrics: []mockconsole.ExperimentMetric{{Name: "latency", Type: "event_count"}}}
	m.PutExperiment(e2)
	e2, _ = m.Experiment("tfacc_exp_2")
	e2.ControlGroupID = mockGroupID(e2, "Control")
	m.PutExperiment(e2)
	m.PutExperiment(mockconsole.Experiment{ID: "tfacc_exp_3", Name: "Three", Groups: groups("Base")})
	for _, err := range []error{m.StartExperiment("tfacc_exp_2"), m.StartExperiment("tfacc_exp_3"),
		m.DecideExperiment("tfacc_exp_3", "Green", "Green won")} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// terraform query lists experiments by status and tags, and generates a configuration of every
// experiment, whatever its status, that plans as imports only, applies without a write and plans
// empty after (Terraform 1.14+).
func TestAccOnboarding_experiments(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t, featListResources)
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	seedExperiments(t, m)
	cli.write("main.tf", providerBlock(url))
	cli.write("experiments.tfquery.hcl", `
list "featureconsole_experiment" "checkout" {
  provider = featureconsole
  config {
    tags = ["checkout"]
  }
}
list "featureconsole_experiment" "active_checkout" {
  provider = featureconsole
  config {
    status = "active"
    tags   = ["checkout"]
  }
}
list "featureconsole_experiment" "decided" {
  provider = featureconsole
  config {
    status = "decision_made"
  }
}
`)
	cli.must("init", "-input=false", "-no-color")
	out := cli.must("query", "-no-color")
	for block, want := range map[string][]string{
		"checkout": {"tfacc_exp_1", "tfacc_exp_2"}, "active_checkout": {"tfacc_exp_2"}, "decided": {"tfacc_exp_3"},
	} {
		var got []string
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "list.featureconsole_experiment."+block+" ") {
				got = append(got, regexp.MustCompile(`tfacc_exp_\d`).FindString(line))
			}
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("list %s listed %v, want %v:\n%s", block, got, want, out)
		}
	}
	cli.write("experiments.tfquery.hcl", `
list "featureconsole_experiment" "all" {
  provider         = featureconsole
  include_resource = true
}
`)
	cli.must("query", "-no-color", "-generate-config-out=generated.tf")
	gen := cli.read("generated.tf")
	if got := len(regexp.MustCompile(`(?m)^resource "featureconsole_experiment" `).FindAllString(gen, -1)); got != 3 {
		t.Errorf("generated.tf holds %d experiments, want 3:\n%s", got, gen)
	}
	cli.importsOnlyThenEmpty(m, gen, 3)
}

// seedExampleExperiment puts the examples' experiment checkout_cta, running, into the mock, as the
// examples that read or list experiments expect to find it.
func seedExampleExperiment(t *testing.T, m *mockconsole.Server) {
	t.Helper()
	m.PutExperiment(mockconsole.Experiment{ID: "checkout_cta", Name: "Checkout CTA", Tags: []string{"checkout"},
		Groups: []mockconsole.ExperimentGroup{
			{Name: "Control", Size: 50, ParameterValues: []byte(`{"color":"grey"}`)},
			{Name: "Green", Size: 50, ParameterValues: []byte(`{"color":"green"}`)},
		},
		PrimaryMetrics: []mockconsole.ExperimentMetric{{Name: "purchase", Type: "event_count", Direction: "increase"}}})
	if err := m.StartExperiment("checkout_cta"); err != nil {
		t.Fatal(err)
	}
}

// seedExampleMetric is the metric the examples of the metric data source and list resource read:
// revenue per user on the metric source orders, made in the console.
func seedExampleMetric(m *mockconsole.Server) {
	if _, ok := m.MetricSource("orders"); !ok {
		m.PutMetricSource(mockconsole.MetricSource{Name: "orders", SQL: "SELECT 1", TimestampColumn: "ts",
			IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}}})
	}
	m.PutMetric(mockconsole.Metric{Name: "revenue", Type: "user_warehouse", Description: "Revenue per user", Tags: []string{"checkout"},
		UnitTypes: []string{"userID"}, WarehouseNative: &mockconsole.WarehouseNative{Aggregation: "sum", MetricSourceName: "orders", ValueColumn: "amount"}})
}
