// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The featureconsole_gate data source reads a fresh gate with its rules and target apps, a stale one
// (TEMPORARY with its type_reason) and an archived one; a gate that does not exist is an error
// naming it.
func TestAccGateDataSource(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	m.PutPipeline(mockconsole.Pipeline{ID: "pl_web", Name: "Web rollout"})
	m.PutGate(mockconsole.Gate{ID: "fresh_gate", Name: "Fresh gate", Description: "d", IsEnabled: true, Tags: []string{"web"},
		Type: "PERMANENT", IDType: "stableID", ReleasePipelineID: "pl_web", TargetApps: []string{"web", "ios"},
		Rules: []mockconsole.Rule{{Name: "staff", PassPercentage: 50, Conditions: []mockconsole.Condition{
			{Type: "email", Operator: "str_contains_any", TargetValue: []any{"@example.com"}}}}}})
	m.PutGate(mockconsole.Gate{ID: "stale_gate", Type: "TEMPORARY"})
	m.PutGate(mockconsole.Gate{ID: "archived_gate", Rules: []mockconsole.Rule{{Name: "r", PassPercentage: 1}}})
	if err := m.MarkGateStale("stale_gate", "STALE_NO_RULES"); err != nil {
		t.Fatal(err)
	}
	if err := m.ArchiveGateInConsole("archived_gate"); err != nil {
		t.Fatal(err)
	}
	config := providerBlock(url) + `
data "featureconsole_gate" "fresh" {
  gate_id = "fresh_gate"
}
data "featureconsole_gate" "stale" {
  gate_id = "stale_gate"
}
data "featureconsole_gate" "archived" {
  gate_id = "archived_gate"
}
`
	const fresh, stale, archived = "data.featureconsole_gate.fresh", "data.featureconsole_gate.stale", "data.featureconsole_gate.archived"
	at := func(name string) tfjsonpath.Path { return tfjsonpath.New(name) }
	rule := at("rules").AtSliceIndex(0)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(fresh, at("name"), knownvalue.StringExact("Fresh gate")),
					statecheck.ExpectKnownValue(fresh, at("description"), knownvalue.StringExact("d")),
					statecheck.ExpectKnownValue(fresh, at("is_enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(fresh, at("tags"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("web")})),
					statecheck.ExpectKnownValue(fresh, at("target_apps"), appSet("web", "ios")),
					statecheck.ExpectKnownValue(fresh, at("type"), knownvalue.StringExact("PERMANENT")),
					statecheck.ExpectKnownValue(fresh, at("type_reason"), knownvalue.StringExact("NONE")),
					statecheck.ExpectKnownValue(fresh, at("id_type"), knownvalue.StringExact("stableID")),
					statecheck.ExpectKnownValue(fresh, at("release_pipeline_id"), knownvalue.StringExact("pl_web")),
					statecheck.ExpectKnownValue(fresh, at("status"), knownvalue.StringExact("In Progress")),
					statecheck.ExpectKnownValue(fresh, at("archived"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(fresh, rule.AtMapKey("name"), knownvalue.StringExact("staff")),
					statecheck.ExpectKnownValue(fresh, rule.AtMapKey("base_id"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(fresh, rule.AtMapKey("pass_percentage"), knownvalue.NumberExact(big.NewFloat(50))),
					statecheck.ExpectKnownValue(fresh, rule.AtMapKey("conditions").AtSliceIndex(0).AtMapKey("target_value"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("@example.com")})),
					statecheck.ExpectKnownValue(stale, at("type"), knownvalue.StringExact("TEMPORARY")),
					statecheck.ExpectKnownValue(stale, at("type_reason"), knownvalue.StringExact("STALE_NO_RULES")),
					statecheck.ExpectKnownValue(stale, at("release_pipeline_id"), knownvalue.Null()),
					statecheck.ExpectKnownValue(stale, at("rules"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue(stale, at("target_apps"), knownvalue.SetSizeExact(0)),
					statecheck.ExpectKnownValue(archived, at("archived"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(archived, at("status"), knownvalue.StringExact("Archived")),
					statecheck.ExpectKnownValue(archived, at("rules"), knownvalue.ListSizeExact(1)),
				},
			},
			{
				Config:      providerBlock(url) + `data "featureconsole_gate" "x" { gate_id = "no_such_gate" }`,
				ExpectError: wrapped(`Gate "no_such_gate" not found`, `check gate_id`, `404 Not Found`),
			},
		},
	})
}
