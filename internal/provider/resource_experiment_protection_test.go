// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// protectedDefault is a line that leaves deletion_protection to its default (experimentHCL sets it
// false unless a line names it).
const protectedDefault = "# deletion_protection left to its default"

// A started experiment is never deleted by surprise: with deletion_protection left to its default,
// its destroy and its replacement (a changed experiment_id) fail at plan, naming it and its
// results, with nothing sent; with deletion_protection = false the replacement plans and the
// destroy deletes it.
func TestAccExperiment_deletionProtection(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(lines ...string) string {
		return providerBlock(url) + experimentHCL(ctaGroupsHCL, append([]string{`status = "active"`}, lines...)...)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{Config: cfg(protectedDefault), Check: resource.TestCheckResourceAttr(experimentAddr, "deletion_protection", "true")},
			{
				PreConfig: m.ResetRequests,
				Config:    providerBlock(url),
				ExpectError: wrapped(`Experiment "tfacc_cta" is protected from deletion`, `Experiment "tfacc_cta" is active.`,
					"Destroying it would delete it and its results. Nothing was sent.", "archive_on_destroy = true",
					"deletion_protection = false and apply first"),
			},
			{
				PreConfig: nothingWritten(t, m),
				Config:    strings.Replace(cfg(protectedDefault), `"tfacc_cta"`, `"tfacc_cta_v2"`, 1),
				ExpectError: wrapped(`Experiment "tfacc_cta" is protected from deletion`,
					"Changing experiment_id replaces it: that would delete it and its results. Nothing was sent.",
					"declare a new featureconsole_experiment block"),
			},
			{
				PreConfig:          nothingWritten(t, m),
				Config:             strings.Replace(cfg(), `"tfacc_cta"`, `"tfacc_cta_v2"`, 1),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				PreConfig: nothingWritten(t, m),
				Config:    cfg(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(experimentAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.TestCheckResourceAttr(experimentAddr, "deletion_protection", "false"),
			},
		},
	})
}

// Parameter values are compared as JSON: written as other JSON text (5.0 for 5, keys reordered,
// spacing) they plan nothing, on a running experiment and on its import.
func TestAccExperiment_parameterValuesAsJSON(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	other := strings.NewReplacer(`jsonencode({ color = "green", size = 2 })`, `"{ \"size\": 2.0, \"color\": \"green\" }"`,
		`jsonencode({ color = "grey", size = 2 })`, `"{\"size\":2e0,\"color\":\"grey\"}"`).Replace(ctaGroupsHCL)
	cfg := func(groups string, lines ...string) string {
		return providerBlock(url) + experimentHCL(groups, append([]string{`status = "active"`}, lines...)...)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{Config: cfg(ctaGroupsHCL)},
			{
				PreConfig:        m.ResetRequests,
				Config:           cfg(other),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				// The document's example reads name no control group: an import under them takes the
				// first group for it (the control here is second), which this step is not about.
				SkipFunc:      func() (bool, error) { return envHabits(t).ExampleForms, nil },
				PreConfig:     nothingWritten(t, m),
				Config:        cfg(other, protectedDefault),
				ResourceName:  experimentAddr,
				ImportState:   true,
				ImportStateId: "tfacc_cta", ImportStateKind: resource.ImportBlockWithID,
			},
			{Config: cfg(other), PlanOnly: true},
		},
	})
}

// The statuses the service sets itself read and plan cleanly: an experiment the service stopped
// (experiment_stopped) plans empty with its status omitted or said; a decision from there applies
// and the plan after is empty; moving to a status only the service sets fails at plan.
func TestAccExperiment_stoppedByTheService(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(lines ...string) string { return providerBlock(url) + experimentHCL(ctaGroupsHCL, lines...) }
	stop := func() {
		e, _ := m.Experiment("tfacc_cta")
		e.Status = mockconsole.ExperimentStopped
		m.PutExperiment(e)
		m.ResetRequests()
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{Config: cfg(`status = "active"`)},
			{
				PreConfig:   m.ResetRequests,
				Config:      cfg(`status = "experiment_stopped"`),
				ExpectError: wrapped(`Experiment "tfacc_cta" is active and cannot move to experiment_stopped: only the service stops an experiment`),
			},
			{
				PreConfig:        func() { nothingWritten(t, m)(); stop() },
				Config:           cfg(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{Config: cfg(`status = "experiment_stopped"`), PlanOnly: true},
			{
				Config: cfg(`status = "decision_made"`, `launched_group = "Green"`, `decision_reason = "Green sells more"`),
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					if e.Status != mockconsole.ExperimentDecisionMade || e.LaunchedGroupID != mockGroupID(e, "Green") {
						return fmt.Errorf("mock holds %s, launched %q", e.Status, e.LaunchedGroupID)
					}
					return nil
				}),
			},
		},
	})
}
