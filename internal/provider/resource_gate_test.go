// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

const gateAddr = "featureconsole_gate.checkout"

// gateConfig is a gate named tfacc_checkout with the attributes given (HCL lines).
func gateConfig(lines ...string) string {
	return fmt.Sprintf(`
resource "featureconsole_gate" "checkout" {
  gate_id = "tfacc_checkout"
  %s
}
`, strings.Join(lines, "\n  "))
}

var gateFullLines = []string{
	`name                = "New checkout"`,
	`description         = "Checkout rewrite"`,
	`is_enabled          = false`,
	`tags                = ["web", "checkout"]`,
	`type                = "TEMPORARY"`,
	`id_type             = "stableID"`,
	`release_pipeline_id = "pl_web"`,
}

// expectMockGate checks the gate's own fields in the mock.
func expectMockGate(m *mockconsole.Server, id string, check func(mockconsole.Gate) error) resource.TestCheckFunc {
	return expectInMock("gate", id, m.Gate, check)
}

// expectNoMockGate is CheckDestroy: destroy left no gate of that id behind.
func expectNoMockGate(m *mockconsole.Server, id string) resource.TestCheckFunc {
	return expectGoneFromMock("gate", id, m.Gate)
}

func fieldsAre(want mockconsole.Gate) func(mockconsole.Gate) error {
	return func(g mockconsole.Gate) error {
		got := mockconsole.Gate{ID: g.ID, Name: g.Name, Description: g.Description, IsEnabled: g.IsEnabled,
			Tags: append([]string{}, slices.Sorted(slices.Values(g.Tags))...), Type: g.Type, IDType: g.IDType, ReleasePipelineID: g.ReleasePipelineID}
		want.Tags = append([]string{}, want.Tags...)
		if !reflect.DeepEqual(got, want) {
			return fmt.Errorf("mock gate\n got %+v\nwant %+v", got, want)
		}
		return nil
	}
}

// The lifecycle: a gate with only its id takes the service's defaults (unknown in the plan, never
// promised), an update in place changes every field (the computed ones the write changes unknown in
// its plan), import by id verifies the state, removing the pipeline detaches it, destroy deletes.
func TestAccGate_lifecycle(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockGate(m, "tfacc_checkout"),
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + gateConfig(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("id"), knownvalue.StringExact("tfacc_checkout")),
					plancheck.ExpectUnknownValue(gateAddr, tfjsonpath.New("name")),
					plancheck.ExpectUnknownValue(gateAddr, tfjsonpath.New("type")),
					plancheck.ExpectUnknownValue(gateAddr, tfjsonpath.New("tags")),
					plancheck.ExpectUnknownValue(gateAddr, tfjsonpath.New("target_apps")),
					plancheck.ExpectUnknownValue(gateAddr, tfjsonpath.New("status")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("name"), knownvalue.StringExact("tfacc_checkout")),
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("type"), knownvalue.StringExact("PERMANENT")),
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("id_type"), knownvalue.StringExact("userID")),
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("is_enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("description"), knownvalue.StringExact("")),
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("tags"), knownvalue.SetSizeExact(0)),
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("target_apps"), knownvalue.SetSizeExact(0)),
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("release_pipeline_id"), knownvalue.Null()),
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("creator_name"), knownvalue.StringExact("Console API")),
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("created_time"), knownvalue.NotNull()),
				},
				Check: expectMockGate(m, "tfacc_checkout", fieldsAre(mockconsole.Gate{ID: "tfacc_checkout", Name: "tfacc_checkout",
					IsEnabled: true, Type: "PERMANENT", IDType: "userID"})),
			},
			{
				Config: providerBlock(url) + gateConfig(gateFullLines...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(gateAddr, tfjsonpath.New("last_modifier_name")),
					// No write of the gate's fields changes these.
					plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("status"), knownvalue.StringExact("In Progress")),
					plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("created_time"), knownvalue.NotNull()),
					plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("creator_name"), knownvalue.StringExact("Console API")),
				}},
				Check: expectMockGate(m, "tfacc_checkout", fieldsAre(mockconsole.Gate{ID: "tfacc_checkout", Name: "New checkout",
					Description: "Checkout rewrite", Tags: []string{"checkout", "web"}, Type: "TEMPORARY", IDType: "stableID",
					ReleasePipelineID: "pl_web"})),
			},
			{
				Config: providerBlock(url) + gateConfig(gateFullLines...), ResourceName: gateAddr,
				ImportState: true, ImportStateId: "tfacc_checkout", ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
			{
				// Removing an optional attribute the service chose keeps it; removing the pipeline detaches it.
				Config: providerBlock(url) + gateConfig(gateFullLines[:6]...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("release_pipeline_id"), knownvalue.Null()),
				}},
				Check: expectMockGate(m, "tfacc_checkout", fieldsAre(mockconsole.Gate{ID: "tfacc_checkout", Name: "New checkout",
					Description: "Checkout rewrite", Tags: []string{"checkout", "web"}, Type: "TEMPORARY", IDType: "stableID"})),
			},
			{
				Config: providerBlock(url) + gateConfig(`name = "New checkout"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					// is_enabled defaults to true; what the service chose stays as it is.
					plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("type"), knownvalue.StringExact("TEMPORARY")),
					plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("is_enabled"), knownvalue.Bool(true)),
				}},
				Check: func(*terraform.State) error {
					var patches []string
					for _, r := range m.Requests() {
						if r.Method == http.MethodPatch && r.Path == "/console/v1/gates/tfacc_checkout" {
							patches = append(patches, string(r.Body))
						}
					}
					if last := patches[len(patches)-1]; last != `{"isEnabled":true}` {
						return fmt.Errorf("the update sent %s: want only what changed", last)
					}
					return nil
				},
			},
		},
	})
}

// Removing release_pipeline_id detaches the gate in one apply, with null (the service takes "" for
// a pipeline's id and refuses it); the gate's "" read back is null in state, so the plan after is
// empty.
func TestAccGate_removePipelineClearsWithNull(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockGate(m, "tfacc_checkout"),
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + gateConfig(`release_pipeline_id = "pl_web"`),
				Check: expectMockGate(m, "tfacc_checkout", func(g mockconsole.Gate) error {
					if g.ReleasePipelineID != "pl_web" {
						return fmt.Errorf("the gate is attached to %q, want pl_web", g.ReleasePipelineID)
					}
					return nil
				}),
			},
			{
				Config: providerBlock(url) + gateConfig(),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("release_pipeline_id"), knownvalue.Null()),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("release_pipeline_id"), knownvalue.Null()),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectMockGate(m, "tfacc_checkout", func(g mockconsole.Gate) error {
						if g.ReleasePipelineID != "" {
							return fmt.Errorf("the gate is still attached to %q", g.ReleasePipelineID)
						}
						return nil
					}),
					expectLinkClearedWithNull(m, "/console/v1/gates/tfacc_checkout", "releasePipelineID"),
				),
			},
		},
	})
}

// Drift: a change in the console is reverted in place; a gate deleted in the console leaves the
// state on refresh (with a warning) and the next plan creates it again.
func TestAccGate_drift(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := providerBlock(url) + gateConfig(gateFullLines...)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockGate(m, "tfacc_checkout"),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() {
					g, _ := m.Gate("tfacc_checkout")
					g.Description, g.Tags, g.IsEnabled, g.ReleasePipelineID = "edited in the console", []string{"other"}, true, ""
					m.PutGate(g)
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("description"), knownvalue.StringExact("Checkout rewrite")),
				}},
				Check: expectMockGate(m, "tfacc_checkout", fieldsAre(mockconsole.Gate{ID: "tfacc_checkout", Name: "New checkout",
					Description: "Checkout rewrite", Tags: []string{"checkout", "web"}, Type: "TEMPORARY", IDType: "stableID",
					ReleasePipelineID: "pl_web"})),
			},
			{
				PreConfig: func() { m.DeleteGate("tfacc_checkout") },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionCreate),
				}},
				Check: expectMockGate(m, "tfacc_checkout", func(g mockconsole.Gate) error {
					if g.Description != "Checkout rewrite" {
						return fmt.Errorf("recreated gate %+v", g)
					}
					return nil
				}),
			},
		},
	})
}

// Bad input fails the plan with the attribute's path, before any request.
func TestAccGate_validation(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	long := strings.Repeat("x", 101)
	cases := []struct {
		lines []string
		want  *regexp.Regexp
	}{
		{[]string{`name = "ab"`}, wrapped(`name must be 3 to 100 characters of letters A-Z and a-z, digits, spaces, '_', '-' and '.'`, `"ab" has a length of 2`)},
		{[]string{`name = "` + long + `"`}, wrapped(`name must be 3 to 100 characters`, `has a length of 101`)},
		{[]string{`name = "New checkout!"`}, wrapped(`name must be 3 to 100 characters`, `"New checkout!" holds '!', which the service refuses`)},
		{[]string{`name = "Größe"`}, wrapped(`Character the service does not accept`, `"Größe" holds 'ö', 'ß', which the service refuses`)},
		{[]string{`description = "` + strings.Repeat("é", 1001) + `"`}, wrapped(`Attribute description UTF-8 character count must be at most 1000, got: 1001`)},
		{[]string{`type = "permanent"`}, wrapped(`Attribute type value must be one of: ["PERMANENT" "TEMPORARY"]`)},
		{[]string{`id_type = " "`}, wrapped(`Attribute id_type must not be empty`)},
		{[]string{`tags = ["web", ""]`}, wrapped(`Attribute tags[Value("")] must not be empty`)},
		{[]string{`target_apps = ["web", " "]`}, wrapped(`Attribute target_apps[Value(" ")] must not be empty`)},
		{[]string{`release_pipeline_id = ""`}, wrapped(`Attribute release_pipeline_id must not be empty`)},
		{[]string{`timeouts = { create = "0s" }`}, wrapped(`must be a positive duration`)},
	}
	var steps []resource.TestStep
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: providerBlock(url) + gateConfig(c.lines...), ExpectError: c.want})
	}
	for _, id := range []struct{ id, want string }{
		{"ab", `gate_id must be 3 to 100 characters of letters A-Z and a-z, digits, '_', '-' and '.'; "ab" has a length of 2`},
		{long, `gate_id must be 3 to 100 characters of letters A-Z and a-z, digits, '_', '-' and '.'; "` + long + `" has a length of 101`},
		{"new checkout", `"new checkout" holds ' ', which the service refuses`},
		{"checkout/v2", `"checkout/v2" holds '/', which the service refuses`},
	} {
		steps = append(steps, resource.TestStep{
			Config:      providerBlock(url) + `resource "featureconsole_gate" "x" { gate_id = "` + id.id + `" }`,
			ExpectError: wrapped(id.want),
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
	if n := len(m.Requests()); n != 0 {
		t.Errorf("invalid input reached the service: %d requests", n)
	}
}

// The gate and its rules in one configuration (DESIGN.md §4): created together in one apply, then
// the gate and the rules changed in one apply, the gate alone, the rules alone; each plan after
// apply is empty (neither shows the other's changes as drift, and no copy the rules show of the
// gate is promised from before the gate's change). Destroy deletes the gate with its rules.
func TestAccGate_withRules(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	config := func(description, pct string) string {
		return providerBlock(url) + fmt.Sprintf(`
resource "featureconsole_gate" "checkout" {
  gate_id     = "tfacc_checkout"
  description = %q
  tags        = ["web"]
}

resource "featureconsole_gate_rules" "checkout" {
  gate_id = featureconsole_gate.checkout.gate_id
  rules = [{
    name            = "staff"
    pass_percentage = %s
    conditions      = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]
  }]
}
`, description, pct)
	}
	const rulesAddr = "featureconsole_gate_rules.checkout"
	holds := func(description string, pct float64) resource.TestCheckFunc {
		return expectMockGate(m, "tfacc_checkout", func(g mockconsole.Gate) error {
			if g.Description != description || len(g.Rules) != 1 || g.Rules[0].PassPercentage != pct {
				return fmt.Errorf("mock gate %+v", g)
			}
			return nil
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockGate(m, "tfacc_checkout"),
		Steps: []resource.TestStep{
			{
				Config: config("one", "10"),
				Check:  holds("one", 10),
			},
			{
				// The gate and its rules change in one apply: the rules' plan shows the rules only (the
				// rule ids are the service's), never the gate's own fields.
				Config: config("two", "20"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(rulesAddr, plancheck.ResourceActionUpdate),
					expectChangedPaths(rulesAddr, "rules.0.id", "rules.0.pass_percentage", "rules.0.scheduled_rollouts"),
				}},
				Check: holds("two", 20),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(rulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("pass_percentage"),
						knownvalue.NumberExact(big.NewFloat(20))),
				},
			},
			{
				Config: config("three", "20"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(rulesAddr, plancheck.ResourceActionNoop),
				}},
				Check: holds("three", 20),
			},
			{
				Config: config("three", "30"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionNoop),
					plancheck.ExpectResourceAction(rulesAddr, plancheck.ResourceActionUpdate),
				}},
				Check: holds("three", 30),
			},
			{
				// The rules leave the configuration but not the gate: the gate keeps none (gate_rules'
				// destroy), and a rule added in the console goes with the gate on destroy.
				Config: providerBlock(url) + `
resource "featureconsole_gate" "checkout" {
  gate_id     = "tfacc_checkout"
  description = "three"
  tags        = ["web"]
}
`,
				Check: resource.ComposeAggregateTestCheckFunc(
					expectMockGate(m, "tfacc_checkout", func(g mockconsole.Gate) error {
						if len(g.Rules) != 0 {
							return fmt.Errorf("rules left: %+v", g.Rules)
						}
						return nil
					}),
					func(*terraform.State) error {
						g, _ := m.Gate("tfacc_checkout")
						g.Rules = []mockconsole.Rule{{Name: "console made", PassPercentage: 5}}
						m.PutGate(g)
						return nil
					},
				),
			},
		},
	})
}

// The gate list resource on the seeded project: the tags filter (every tag listed), display names
// (the gate's name), identities, and include_resource built from the list pages, not per-gate reads.
func TestAccGate_listResource(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{PageSizeCap: 50})
	g, _ := m.Gate("dark_mode")
	g.Name, g.Type, g.ReleasePipelineID, g.TargetApps = "Dark mode", "TEMPORARY", "pl_web", []string{"web", "ios"}
	m.PutGate(g)
	noSingleReads := checkQueryWith(func() error {
		if n := m.CountRequests(http.MethodGet, "/gates/"); n != 0 {
			return fmt.Errorf("the query read %d single gates", n)
		}
		return nil
	})
	// One list block per step: blocks of one query page in parallel.
	resource.Test(t, queryTestCase(t, providerBlock(url),
		resource.TestStep{
			Query:     true,
			PreConfig: func() { m.ResetRequests() },
			Config: `
list "featureconsole_gate" "all" {
  provider = featureconsole
  limit    = 1000
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("featureconsole_gate.all", 303),
				querycheck.ExpectResourceDisplayName("featureconsole_gate.all", byGate("gate_007"), knownvalue.StringExact("gate_007")),
				noSingleReads,
			},
		},
		resource.TestStep{
			Query: true,
			Config: `
list "featureconsole_gate" "ui" {
  provider         = featureconsole
  include_resource = true
  config {
    tags = ["ui"]
  }
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("featureconsole_gate.ui", 1),
				querycheck.ExpectResourceDisplayName("featureconsole_gate.ui", byGate("dark_mode"), knownvalue.StringExact("Dark mode")),
				querycheck.ExpectResourceKnownValues("featureconsole_gate.ui", byGate("dark_mode"), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("gate_id"), KnownValue: knownvalue.StringExact("dark_mode")},
					{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact("Dark mode")},
					{Path: tfjsonpath.New("type"), KnownValue: knownvalue.StringExact("TEMPORARY")},
					{Path: tfjsonpath.New("release_pipeline_id"), KnownValue: knownvalue.StringExact("pl_web")},
					{Path: tfjsonpath.New("tags"), KnownValue: knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("ui")})},
					{Path: tfjsonpath.New("target_apps"), KnownValue: appSet("web", "ios")},
				}),
				noSingleReads,
			},
		},
		resource.TestStep{
			Query: true,
			Config: `
list "featureconsole_gate" "web_checkout" {
  provider = featureconsole
  config {
    tags = ["web", "checkout"]
  }
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("featureconsole_gate.web_checkout", 1),
				querycheck.ExpectIdentity("featureconsole_gate.web_checkout", map[string]knownvalue.Check{"gate_id": knownvalue.StringExact("new_checkout")}),
			},
		},
	))
}

// Onboarding gates with terraform query -generate-config-out: the generated configuration plans as
// imports only, apply writes nothing, and the next plan is empty (Terraform 1.14+).
func TestAccGate_generatedConfiguration(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t, featListResources)
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	m.PutPipeline(mockconsole.Pipeline{ID: "pl_web", Name: "Web rollout"})
	m.PutGate(mockconsole.Gate{ID: "plain", Tags: []string{"team-a"}})
	m.PutGate(mockconsole.Gate{ID: "every_field", Name: "Every field", Description: "All set", IsEnabled: false,
		Tags: []string{"team-a", "web"}, Type: "TEMPORARY", IDType: "stableID", ReleasePipelineID: "pl_web", TargetApps: []string{"web"},
		Rules: []mockconsole.Rule{{Name: "staff", PassPercentage: 100}}})
	m.PutGate(mockconsole.Gate{ID: "other_team", IsEnabled: true})
	// A stale gate onboards as TEMPORARY: STALE is the service's verdict, which validation refuses.
	if err := m.MarkGateStale("every_field", "STALE_PROBABLY_LAUNCHED"); err != nil {
		t.Fatal(err)
	}

	cli.write("main.tf", providerBlock(url))
	cli.write("gates.tfquery.hcl", `
list "featureconsole_gate" "team_a" {
  provider         = featureconsole
  include_resource = true
  config {
    tags = ["team-a"]
  }
}
`)
	cli.must("init", "-input=false", "-no-color")
	cli.must("query", "-no-color", "-generate-config-out=generated.tf")
	gen := cli.read("generated.tf")
	if n := strings.Count(gen, `resource "featureconsole_gate" `); n != 2 || strings.Contains(gen, "STALE") {
		t.Fatalf("generated.tf holds %d gates, want 2, none STALE:\n%s", n, gen)
	}
	cli.importsOnlyThenEmpty(m, gen, 2)
}

// A change of the gate's fields held for review (respect_review_settings = true) is an error naming
// the review; the state keeps what it held, the next plan shows the same change, and once the review
// is approved in the console the plan is empty.
func TestAccGate_reviewHeld(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.SetHabits(mergeHabits(m.Habits(), mockconsole.Habits{Reviews: true}))
	provider := providerBlock(url, `respect_review_settings = true`)
	changed := provider + gateConfig(`description = "changed"`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockGate(m, "tfacc_checkout"),
		Steps: []resource.TestStep{
			{Config: provider + gateConfig(`description = "first"`)},
			{Config: changed, ExpectError: wrapped(`Change to gate "tfacc_checkout" awaits review`, `rev_`)},
			{
				PreConfig: func() {
					if g, _ := m.Gate("tfacc_checkout"); g.Description != "first" {
						t.Errorf("a held change was applied: %+v", g)
					}
				},
				Config: changed, PlanOnly: true, ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionUpdate),
				}},
			},
			{
				PreConfig: func() {
					if err := m.ApproveAndCommitAllReviews(); err != nil {
						t.Error(err)
					}
				},
				Config:           changed,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// A stale gate reads as declared (TEMPORARY) with its reason, an archived one as archived;
// archive_on_destroy is Terraform's own: kept as it is, false where nothing set it.
func TestFlattenGateFields_staleAndArchived(t *testing.T) {
	var m gateModel
	flattenGateFields(&console.Gate{ID: "g_1", Type: "STALE", TypeReason: "STALE_NO_RULES", Status: "Archived"}, &m)
	if m.Type.ValueString() != "TEMPORARY" || m.TypeReason.ValueString() != "STALE_NO_RULES" || !m.Archived.ValueBool() ||
		m.ArchiveOnDestroy.IsNull() || m.ArchiveOnDestroy.ValueBool() {
		t.Errorf("flattened %+v", m)
	}
	m.ArchiveOnDestroy = types.BoolValue(true)
	flattenGateFields(&console.Gate{ID: "g_1", Type: "PERMANENT", Status: "In Progress"}, &m)
	if m.Type.ValueString() != "PERMANENT" || m.TypeReason.ValueString() != "NONE" || m.Archived.ValueBool() || !m.ArchiveOnDestroy.ValueBool() {
		t.Errorf("flattened %+v", m)
	}
}

func tagSet(tags ...string) types.Set {
	vals := make([]attr.Value, len(tags))
	for i, t := range tags {
		vals[i] = types.StringValue(t)
	}
	return types.SetValueMust(types.StringType, vals)
}

func body(t *testing.T, f console.GateFields) string {
	t.Helper()
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A create sends the id and what the configuration set; what it left out (unknown in the plan of a
// create) is left out for the service to choose.
func TestGateFieldsFrom(t *testing.T) {
	ctx := context.Background()
	m := gateModel{gateFields: gateFields{
		GateID: types.StringValue("g_1"), Name: types.StringUnknown(), Description: types.StringValue(""),
		IsEnabled: types.BoolValue(false), Tags: types.SetUnknown(types.StringType), Type: types.StringValue("TEMPORARY"),
		IDType: types.StringUnknown(), ReleasePipelineID: types.StringNull(), TargetApps: types.SetUnknown(types.StringType),
	}}
	f, diags := gateFieldsFrom(ctx, m)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if got, want := body(t, f), `{"id":"g_1","description":"","isEnabled":false,"type":"TEMPORARY"}`; got != want {
		t.Errorf("create body %s, want %s", got, want)
	}
	m.Tags = tagSet()
	f, _ = gateFieldsFrom(ctx, m)
	if got, want := body(t, f), `{"id":"g_1","description":"","isEnabled":false,"tags":[],"type":"TEMPORARY"}`; got != want {
		t.Errorf("create body with tags = [] %s, want %s", got, want)
	}
	m.TargetApps = tagSet("web")
	f, _ = gateFieldsFrom(ctx, m)
	if got, want := body(t, f), `{"id":"g_1","description":"","isEnabled":false,"tags":[],"type":"TEMPORARY","targetApps":["web"]}`; got != want {
		t.Errorf("create body with target_apps %s, want %s", got, want)
	}
}

// An update sends what changed and nothing else; a pipeline the plan no longer names is detached.
func TestGateChanges(t *testing.T) {
	ctx := context.Background()
	state := gateModel{gateFields: gateFields{
		GateID: types.StringValue("g_1"), Name: types.StringValue("G one"), Description: types.StringValue("d"),
		IsEnabled: types.BoolValue(true), Tags: tagSet("a", "b"), Type: types.StringValue("PERMANENT"),
		IDType: types.StringValue("userID"), ReleasePipelineID: types.StringValue("pl_1"), TargetApps: tagSet("web", "ios"),
	}}
	plan := state
	f, _ := gateChanges(ctx, plan, state)
	if !emptyGateFields(f) {
		t.Errorf("no change sends %s", body(t, f))
	}
	plan.Tags, plan.TargetApps = tagSet("b", "a"), tagSet("ios", "web")
	if f, _ = gateChanges(ctx, plan, state); !emptyGateFields(f) {
		t.Errorf("the same tags and apps in another order send %s", body(t, f))
	}
	plan.TargetApps = tagSet("web")
	if f, _ = gateChanges(ctx, plan, state); body(t, f) != `{"targetApps":["web"]}` {
		t.Errorf("a change of target_apps alone sends %s", body(t, f))
	}
	plan.TargetApps = state.TargetApps
	plan.Description = types.StringValue("new")
	plan.ReleasePipelineID = types.StringNull()
	plan.Tags = tagSet()
	f, _ = gateChanges(ctx, plan, state)
	if got, want := body(t, f), `{"description":"new","tags":[],"releasePipelineID":null}`; got != want {
		t.Errorf("update body %s, want %s", got, want)
	}
}

// A gate read back after a lost create answer is this apply's own only if it holds what was sent.
func TestGateHolds(t *testing.T) {
	sent := console.GateFields{ID: "g_1", Name: new("G one"), IsEnabled: new(false), Tags: &[]string{"b", "a"}, TargetApps: &[]string{"web"}}
	g := &console.Gate{ID: "g_1", Name: "G one", Tags: []string{"a", "b"}, Type: "PERMANENT", Description: "any", TargetApps: []string{"web"}}
	if !gateHolds(g, sent) {
		t.Error("the gate as sent (with the service's defaults for the rest) does not hold it")
	}
	for name, edit := range map[string]func(*console.Gate){
		"name":    func(g *console.Gate) { g.Name = "Other" },
		"enabled": func(g *console.Gate) { g.IsEnabled = true },
		"tags":    func(g *console.Gate) { g.Tags = []string{"a"} },
		"apps":    func(g *console.Gate) { g.TargetApps = nil },
		"id":      func(g *console.Gate) { g.ID = "g_2" },
	} {
		other := *g
		edit(&other)
		if gateHolds(&other, sent) {
			t.Errorf("a gate with another %s holds what was sent", name)
		}
	}
}

// What the service leaves out or sends as null reads as none: no pipeline is null, no tags or apps [].
func TestFlattenGateFields(t *testing.T) {
	var m gateModel
	flattenGateFields(&console.Gate{ID: "g_1", Name: "g_1", IsEnabled: true, Type: "PERMANENT", IDType: "userID",
		CreatedTime: 1700000000000}, &m)
	if !m.ReleasePipelineID.IsNull() || m.Tags.IsNull() || len(m.Tags.Elements()) != 0 || m.Description.ValueString() != "" ||
		m.TargetApps.IsNull() || len(m.TargetApps.Elements()) != 0 ||
		m.ID.ValueString() != "g_1" || m.CreatedTime.ValueInt64() != 1700000000000 {
		t.Errorf("flattened %+v", m)
	}
	flattenGateFields(&console.Gate{ID: "g_1", ReleasePipelineID: "pl_1", Tags: []string{"x"}, TargetApps: []string{"web"}}, &m)
	if m.ReleasePipelineID.ValueString() != "pl_1" || !m.Tags.Equal(tagSet("x")) || !m.TargetApps.Equal(tagSet("web")) {
		t.Errorf("flattened %+v", m)
	}
}

// gateAppsConfig is tfacc_checkout with the target_apps line given, beside the target apps web and
// ios.
func gateAppsConfig(url, targetApps string) string {
	return providerBlock(url) + `
resource "featureconsole_target_app" "web" {
  name        = "web"
  description = "the web app"
}
resource "featureconsole_target_app" "ios" {
  name        = "ios"
  description = "the iOS app"
}
` + gateConfig(targetApps)
}

// gateAppsAre checks the target apps the mock's gate tfacc_checkout holds (want sorted).
func gateAppsAre(m *mockconsole.Server, want ...string) resource.TestCheckFunc {
	return expectMockGate(m, "tfacc_checkout", func(g mockconsole.Gate) error {
		if got := slices.Sorted(slices.Values(g.TargetApps)); !slices.Equal(got, want) {
			return fmt.Errorf("the gate's target apps are %q, want %q", got, want)
		}
		return nil
	})
}

// appSet is the known value of a target_apps set.
func appSet(apps ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(apps))
	for i, a := range apps {
		checks[i] = knownvalue.StringExact(a)
	}
	return knownvalue.SetExact(checks)
}

// driftedApps is a plan check: the plan's refresh found the gate's target_apps changed outside of
// Terraform to want (sorted).
type driftedApps []string

func (want driftedApps) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceDrift {
		if rc.Address != gateAddr {
			continue
		}
		after, _ := rc.Change.After.(map[string]any)
		apps, _ := after["target_apps"].([]any)
		var got []string
		for _, a := range apps {
			got = append(got, fmt.Sprint(a))
		}
		if slices.Sort(got); !slices.Equal(got, want) {
			resp.Error = fmt.Errorf("the plan shows %s's target_apps drifted to %q, want %q", gateAddr, got, []string(want))
		}
		return
	}
	resp.Error = fmt.Errorf("the plan shows no drift of %s", gateAddr)
}

// setGateApps sets the target apps of the mock's gate tfacc_checkout, as a change in the console.
func setGateApps(m *mockconsole.Server, apps ...string) func() {
	return func() {
		g, _ := m.Gate("tfacc_checkout")
		g.TargetApps = apps
		m.PutGate(g)
	}
}

// gateAppsDriftStep changes the target apps of the gate in the console to console; the plan shows
// the drift and an update back to what cfg says, which the mock then holds (want, sorted), and the
// plan after is empty.
func gateAppsDriftStep(m *mockconsole.Server, cfg string, console []string, want ...string) resource.TestStep {
	return resource.TestStep{
		PreConfig: setGateApps(m, console...),
		Config:    cfg,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{
				driftedApps(slices.Sorted(slices.Values(console))),
				plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionUpdate),
				plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("target_apps"), appSet(want...)),
			},
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		},
		Check: gateAppsAre(m, want...),
	}
}

// gateWriteBodies are the bodies of the writes of the gate's own fields (POST /gates, PATCH
// /gates/tfacc_checkout), in order.
func gateWriteBodies(m *mockconsole.Server) []map[string]json.RawMessage {
	var out []map[string]json.RawMessage
	for _, r := range m.Requests() {
		if r.Method == http.MethodPost && r.Path == "/console/v1/gates" ||
			r.Method == http.MethodPatch && r.Path == "/console/v1/gates/tfacc_checkout" {
			var b map[string]json.RawMessage
			_ = json.Unmarshal(r.Body, &b)
			out = append(out, b)
		}
	}
	return out
}

// The gate's target apps (DESIGN.md §4: an app's gates are said on the gate), by the apps' names:
// created as written and sent with the create, the plan after empty; another app added in place with
// a PATCH of targetApps alone; a change made in the console shown as drift and put back; import by id
// (command and import block) plans nothing; [] removes every app; omitted afterwards, the gate's
// apps are kept (nothing planned). Destroy deletes the gate and the apps.
func TestAccGate_targetApps(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	web := gateAppsConfig(url, `target_apps = [featureconsole_target_app.web.name]`)
	both := gateAppsConfig(url, `target_apps = [featureconsole_target_app.web.name, featureconsole_target_app.ios.name]`)
	lastBody := func(want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			bodies := gateWriteBodies(m)
			if len(bodies) == 0 {
				return fmt.Errorf("no write of the gate")
			}
			last := bodies[len(bodies)-1]
			var apps []string
			if err := json.Unmarshal(last["targetApps"], &apps); err != nil {
				return fmt.Errorf("the last write of the gate sent no list of targetApps: %v", last)
			}
			if slices.Sort(apps); strings.Join(apps, ",") != want {
				return fmt.Errorf("the last write of the gate sent targetApps %q, want %s", apps, want)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(expectNoMockGate(m, "tfacc_checkout"), func(*terraform.State) error {
			if ids := m.TargetAppIDs(); len(ids) > 0 {
				return fmt.Errorf("destroy left target apps %v", ids)
			}
			return nil
		}),
		Steps: []resource.TestStep{
			{
				Config: web,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionCreate),
						plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("target_apps"), appSet("web")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("target_apps"), appSet("web")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(gateAppsAre(m, "web"), lastBody("web")),
			},
			{Config: web, PlanOnly: true},
			{
				Config: both,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("target_apps"), appSet("web", "ios")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(gateAppsAre(m, "ios", "web"), lastBody("ios,web"),
					func(*terraform.State) error {
						bodies := gateWriteBodies(m)
						if last := bodies[len(bodies)-1]; len(last) != 1 {
							return fmt.Errorf("the update sent %v: want targetApps alone", last)
						}
						return nil
					}),
			},
			gateAppsDriftStep(m, both, []string{"android"}, "ios", "web"),
			{
				Config: both, ResourceName: gateAddr, ImportState: true, ImportStateId: "tfacc_checkout",
				ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"},
			},
			// An import block of the gate, planned against the configuration: a no-op import.
			{Config: both, ResourceName: gateAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID},
			{
				Config: gateAppsConfig(url, `target_apps = []`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("target_apps"), appSet()),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(gateAppsAre(m), lastBody("")),
			},
			// Omitted, the apps the gate holds are kept, whoever set them.
			{PreConfig: setGateApps(m, "web"), Config: gateAppsConfig(url, ""), PlanOnly: true},
		},
	})
}

// Against a service that answers a gate's one target app as a bare string (the live service, and
// FEATURECONSOLE_MOCK_HABITS=all): the gate is created with one app and the plan after is empty, the
// data source reads the app as a set of one, a console change to another single app is drift put
// back, and import by id reads the same state.
func TestAccGate_targetAppsBareString(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	m.SetHabits(m.Habits().With(mockconsole.Habits{BareTargetApps: true}))
	cfg := gateAppsConfig(url, `target_apps = [featureconsole_target_app.web.name]`) + `
data "featureconsole_gate" "checkout" {
  gate_id = featureconsole_gate.checkout.gate_id
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockGate(m, "tfacc_checkout"),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("target_apps"), appSet("web")),
					statecheck.ExpectKnownValue("data.featureconsole_gate.checkout", tfjsonpath.New("target_apps"), appSet("web")),
				},
				Check: gateAppsAre(m, "web"),
			},
			gateAppsDriftStep(m, cfg, []string{"ios"}, "web"),
			{
				Config: cfg, ResourceName: gateAddr, ImportState: true, ImportStateId: "tfacc_checkout",
				ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"},
			},
		},
	})
}
