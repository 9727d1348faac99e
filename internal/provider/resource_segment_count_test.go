// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// Segments as the 2025 documents put them (POST /segments): created with a name (the id
// when the configuration has none), and without a count in any answer.

// segmentCountConfig is a 50-id list without a name, a rule-based segment of two rules, and the
// segments data source of each type, read after them.
func segmentCountConfig(url string) string {
	return providerBlock(url) + idsConfig(0, 50) + segmentRuleConfig(ruleEmail+", "+ruleCountry) + `
data "featureconsole_segments" "lists" {
  type       = "id_list"
  depends_on = [featureconsole_segment.beta, featureconsole_segment.staff]
}

data "featureconsole_segments" "ruled" {
  type       = "rule_based"
  depends_on = [featureconsole_segment.beta, featureconsole_segment.staff]
}
`
}

// A segment declared without a name is created with its id as name, which state shows. The service
// sends no count: entry_count is the ids written (50), stays 50 after a refresh that reads no page
// and after an import that reads them, and the next plan is empty; the rule-based segment counts its
// rules. The data source cannot know the list's size (its ids are not read there): null, never 0.
func TestAccSegment_withoutNameOrCount(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{NoIDListLimits: true})
	h := mergeHabits(m.Habits(), mockconsole.Habits{SegmentsWithoutCount: true})
	h.SegmentRuleObject = false // every rule shown, so that their number tells the count
	m.SetHabits(h)
	cfg := segmentCountConfig(url)
	fifty := statecheck.ExpectKnownValue(segIDsAddr, tfjsonpath.New("entry_count"), knownvalue.Int64Exact(50))
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoSegments(m),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(segIDsAddr, tfjsonpath.New("name"))},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					fifty,
					statecheck.ExpectKnownValue(segIDsAddr, tfjsonpath.New("name"), knownvalue.StringExact("beta_testers")),
					statecheck.ExpectKnownValue(segRulesAddr, tfjsonpath.New("entry_count"), knownvalue.Int64Exact(2)),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					func(*terraform.State) error {
						if sg, _ := m.Segment("beta_testers"); sg.Name != "beta_testers" {
							return fmt.Errorf("the mock holds the name %q, want the id", sg.Name)
						}
						return nil
					},
					resource.TestCheckResourceAttr("data.featureconsole_segments.lists", "segments.#", "1"),
					resource.TestCheckNoResourceAttr("data.featureconsole_segments.lists", "segments.0.count"),
					resource.TestCheckResourceAttr("data.featureconsole_segments.ruled", "segments.#", "1"),
					resource.TestCheckResourceAttr("data.featureconsole_segments.ruled", "segments.0.count", "2"),
				),
			},
			{
				PreConfig:    m.ResetRequests,
				RefreshState: true,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(segIDsAddr, "entry_count", "50"),
					func(*terraform.State) error {
						if n := requestsTo(m, "GET", "/segments/beta_testers/id_list"); n != 0 {
							return fmt.Errorf("the refresh of an unchanged list read %d pages", n)
						}
						return nil
					}),
			},
			{Config: cfg, PlanOnly: true},
			{
				Config: cfg, ResourceName: segIDsAddr, ImportState: true, ImportStateId: "beta_testers",
				ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"},
			},
		},
	})
}
