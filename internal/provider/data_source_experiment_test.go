// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

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
