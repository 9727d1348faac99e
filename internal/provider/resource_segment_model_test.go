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

// Segments of the types the API cannot write: the data source reads them as they are (also by
// type); an import of one says why it cannot be managed, and nothing is written.
func TestAccSegment_unwritableTypes(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{})
	seedConsoleSegments(m)
	analysis := map[string]string{"id": "seg_analysis", "type": "analysis_list", "count": "42"}
	storeCount := resource.TestCheckResourceAttr("data.featureconsole_segments.store", "segments.0.count", "120000")
	if m.Habits().SegmentsWithoutCount {
		// No count sent, and these lists' ids are not read: not known, so null (never 0).
		delete(analysis, "count")
		storeCount = resource.TestCheckNoResourceAttr("data.featureconsole_segments.store", "segments.0.count")
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + `
data "featureconsole_segments" "all" {}
data "featureconsole_segments" "store" { type = "user_store_id_list" }
`,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("data.featureconsole_segments.all", "segments.#", "3"),
					resource.TestCheckTypeSetElemNestedAttrs("data.featureconsole_segments.all", "segments.*", analysis),
					resource.TestCheckResourceAttr("data.featureconsole_segments.store", "segments.#", "1"),
					resource.TestCheckResourceAttr("data.featureconsole_segments.store", "segments.0.id", "seg_store"),
					storeCount,
				),
			},
			{
				PreConfig: m.ResetRequests,
				Config: providerBlock(url) + "\nimport {\n  to = featureconsole_segment.store\n  id = \"seg_store\"\n}\n" + `
resource "featureconsole_segment" "store" {
  segment_id = "seg_store"
  type       = "id_list"
}
`,
				ExpectError: wrapped(`Segment "seg_store" is a user_store_id_list segment, which featureconsole_segment cannot manage`,
					"featureconsole_segments data source"),
			},
			{
				PreConfig: func() { noWrites(t, m, "the refused import") },
				Config:    providerBlock(url),
			},
		},
	})
}

// An archived segment refuses every write: the error says so and what to do.
func TestAccSegment_archived(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoSegments(m),
		Steps: []resource.TestStep{
			{Config: providerBlock(url) + segmentRuleConfig(ruleEmail) + idsConfig(0, 10)},
			{
				PreConfig:   func() { m.ArchiveSegment("staff") },
				Config:      providerBlock(url) + segmentRuleConfig(ruleEmail+", "+ruleCountry) + idsConfig(0, 10),
				ExpectError: wrapped(`Segment "staff" is archived`, "no way to unarchive", "new segment_id", "is archived and cannot be modified"),
			},
			{
				PreConfig:   func() { m.ArchiveSegment("beta_testers") },
				Config:      providerBlock(url) + segmentRuleConfig(ruleEmail) + idsConfig(0, 11),
				ExpectError: wrapped(`Segment "beta_testers" is archived`, "no way to unarchive", "new segment_id"),
			},
		},
	})
}
