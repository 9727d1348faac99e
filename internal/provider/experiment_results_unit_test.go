// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
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
