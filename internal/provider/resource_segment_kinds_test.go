// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// Segments as real projects hold them (issue 32): console-made rules,
// the types the API cannot write, archived segments.

// publicRule is a rule the console writes and the API refuses in segment writes.
var publicRule = mockconsole.SegmentRule{Name: "everyone", PassPercentage: 10, Conditions: []mockconsole.Condition{{Type: "public"}}}

// seedConsoleSegments puts a segment with a console-made rule, a user-store list and an analysis
// list into the mock.
func seedConsoleSegments(m *mockconsole.Server) {
	m.PutSegment(mockconsole.Segment{ID: "seg_console", Name: "Console made", Type: "rule_based", IDType: "userID", IsEnabled: true,
		Rules: []mockconsole.SegmentRule{publicRule}})
	m.PutSegment(mockconsole.Segment{ID: "seg_store", Name: "Store list", Type: mockconsole.SegmentUserStoreIDList, IDType: "userID", IsEnabled: true, Count: 120000})
	m.PutSegment(mockconsole.Segment{ID: "seg_analysis", Name: "Analysis list", Type: mockconsole.SegmentAnalysisList, IDType: "userID", IsEnabled: true, Count: 42})
}

const consoleSegmentConfig = `
resource "featureconsole_segment" "console" {
  segment_id = "seg_console"
  name       = "Console made"
  type       = "rule_based"
  rules = [%s]
}
`

const everyoneRule = `{ name = "everyone", pass_percentage = 10, conditions = [{ type = "public" }] }`

// A segment written in the console with a `public` condition is imported and plans clean; the
// 14-type check refuses the type only in a rule the configuration adds or changes, before any
// write; a rule added beside the held one is written with it.
func TestAccSegment_consoleMadeRules(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{})
	seedConsoleSegments(m)
	importBlock := "\nimport {\n  to = featureconsole_segment.console\n  id = \"seg_console\"\n}\n"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + importBlock + fmt.Sprintf(consoleSegmentConfig, everyoneRule),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("featureconsole_segment.console", plancheck.ResourceActionNoop)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				PreConfig: m.ResetRequests,
				Config: providerBlock(url) + fmt.Sprintf(consoleSegmentConfig, everyoneRule+`,
    { name = "visitors", pass_percentage = 5, conditions = [{ type = "public" }] }`),
				ExpectError: wrapped("Condition type not allowed in segments", `rules[1].conditions[0].type: "public" is not a condition type segments accept`),
			},
			{
				// The refused plan wrote nothing. A rule of an accepted type added beside the held
				// one: the rules are written whole and the service refuses `public` in any write,
				// which the plan says before any request.
				PreConfig: func() { noWrites(t, m, "a refused plan") },
				Config:    providerBlock(url) + fmt.Sprintf(consoleSegmentConfig, everyoneRule+", "+ruleEmail),
				ExpectError: wrapped("Segment rules cannot be written while a rule holds a refused condition type",
					`rules[0].conditions[0].type: the segment holds a rule with a "public" condition`),
			},
			{
				// The console-made rule rewritten in the same change: written.
				PreConfig: func() { noWrites(t, m, "a refused plan") },
				Config:    providerBlock(url) + fmt.Sprintf(consoleSegmentConfig, ruleEmail),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: expectSegmentRules(m, "seg_console", "email"),
			},
		},
	})
}

// noWrites fails t if the mock served any request but reads.
func noWrites(t *testing.T, m *mockconsole.Server, what string) {
	t.Helper()
	for _, r := range m.Requests() {
		if r.Method != http.MethodGet {
			t.Errorf("%s sent %s %s", what, r.Method, r.Path)
		}
	}
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

// terraform query -generate-config-out of a project holding console-made segments: the segment
// with a `public` condition is generated as it is, the user-store and analysis lists are left out
// with a warning naming them, and the generated configuration plans as imports only.
func TestAccSegment_onboardConsoleMade(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t, featListResources)
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	seedConsoleSegments(m)
	m.PutSegment(mockconsole.Segment{ID: "seg_vip", Name: "VIP", Type: "id_list", IDType: "userID", IsEnabled: true, IDs: idRange(0, 150)})
	cli.write("main.tf", providerBlock(url))
	cli.write("segments.tfquery.hcl", `
list "featureconsole_segment" "all" {
  provider         = featureconsole
  include_resource = true
}
`)
	cli.must("init", "-input=false", "-no-color")
	out := cli.must("query", "-no-color", "-generate-config-out=generated.tf")
	words := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"Segments left out", `"seg_store" (user_store_id_list)`, `"seg_analysis" (analysis_list)`} {
		if !strings.Contains(words, want) {
			t.Errorf("the query's warning does not say %s:\n%s", want, out)
		}
	}
	gen := cli.read("generated.tf")
	if strings.Contains(gen, "seg_store") || strings.Contains(gen, "seg_analysis") || !strings.Contains(gen, `"public"`) {
		t.Fatalf("generated.tf:\n%s", gen)
	}
	cli.importsOnlyThenEmpty(m, gen, 2)
}
