// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

const pipelineAddr = "featureconsole_release_pipeline.web"

// pipelineExampleHCL is the example of DESIGN §4.
const pipelineExampleHCL = `
resource "featureconsole_release_pipeline" "web" {
  pipeline_id = "pl_web"
  name        = "Web rollout"
  phases = [
    {
      name             = "Canary"
      time_interval_ms = 3600000
      required_review  = true
      rules = [{
        name         = "internal"
        environments = ["staging"]
        conditions   = [{ type = "user_id", operator = "any", target_value = ["42"] }]
      }]
    },
  ]
}
`

// The pipeline that pipelineExampleHCL describes, as the mock should hold it.
var pipelineExample = mockconsole.Pipeline{Name: "Web rollout", Phases: []mockconsole.Phase{canaryPhase}}

var canaryPhase = mockconsole.Phase{Name: "Canary", TimeIntervalMs: 3600000, RequiredReview: true, Rules: []mockconsole.PipelineRule{{
	Name: "internal", Environments: []string{"staging"},
	Conditions: []mockconsole.Condition{{Type: "user_id", Operator: "any", TargetValue: []any{"42"}}},
}}}

var gaPhase = mockconsole.Phase{Name: "General availability", TimeIntervalMs: 86400000, Rules: []mockconsole.PipelineRule{{
	Name: "everyone", Conditions: []mockconsole.Condition{{Type: "public"}},
}}}

var internalPhase = mockconsole.Phase{Name: "Internal", Rules: []mockconsole.PipelineRule{{Name: "staff"}}}

const canaryHCL = `{
      name             = "Canary"
      time_interval_ms = 3600000
      required_review  = true
      rules = [{
        name         = "internal"
        environments = ["staging"]
        conditions   = [{ type = "user_id", operator = "any", target_value = ["42"] }]
      }]
    }`

const gaHCL = `{
      name             = "General availability"
      time_interval_ms = 86400000
      rules            = [{ name = "everyone", conditions = [{ type = "public" }] }]
    }`

const internalHCL = `{
      name             = "Internal"
      time_interval_ms = 0
      rules            = [{ name = "staff", environments = [] }]
    }`

func webPipelineHCL(name string, phases ...string) string {
	return fmt.Sprintf(`
resource "featureconsole_release_pipeline" "web" {
  pipeline_id = "pl_web"
  name        = %q
  phases = [
    %s
  ]
}
`, name, strings.Join(phases, ",\n    "))
}

func TestAccReleasePipeline_lifecycle(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	seeded, _ := m.Pipeline("pl_web")
	canaryID, internalRuleID := seeded.Phases[0].ID, seeded.Phases[0].Rules[0].ID
	var gaID, internalID string

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			// Destroy releases the pipeline from Terraform only: it stays as last applied.
			checkMockPipeline(m, "pl_web", mockconsole.Pipeline{Name: "Web rollout v2", Phases: []mockconsole.Phase{internalPhase, gaPhase}}),
			func(*terraform.State) error {
				if n := m.CountRequests("DELETE", "/"); n != 0 {
					return fmt.Errorf("destroy sent %d DELETE requests", n)
				}
				return nil
			},
		),
		Steps: []resource.TestStep{
			{
				// Create: the example of DESIGN §4 takes over pl_web; the phase and rule that keep their
				// names keep the service's ids, the other phase is removed.
				Config: providerBlock(url) + pipelineExampleHCL,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(pipelineAddr, tfjsonpath.New("id"), knownvalue.StringExact("pl_web")),
					plancheck.ExpectUnknownValue(pipelineAddr, phasePath(0, "id")),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkMockPipeline(m, "pl_web", pipelineExample),
					checkStateIDsMatchMock(m, "pl_web"),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(pipelineAddr, phasePath(0, "id"), knownvalue.StringExact(canaryID)),
					statecheck.ExpectKnownValue(pipelineAddr, phasePath(0, "rules", 0, "id"), knownvalue.StringExact(internalRuleID)),
					statecheck.ExpectKnownValue(pipelineAddr, phasePath(0, "time_interval_ms"), knownvalue.Int64Exact(3600000)),
					statecheck.ExpectKnownValue(pipelineAddr, phasePath(0, "rules", 0, "conditions"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"type": knownvalue.StringExact("user_id"), "operator": knownvalue.StringExact("any"),
							"field": knownvalue.Null(), "custom_id": knownvalue.Null(),
							"target_value": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("42")}),
						}),
					})),
					statecheck.ExpectKnownValue(pipelineAddr, tfjsonpath.New("creator_id"), knownvalue.StringExact("user_admin_1")),
					statecheck.ExpectKnownValue(pipelineAddr, tfjsonpath.New("created_time"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(pipelineAddr, tfjsonpath.New("last_modifier_id"), knownvalue.NotNull()),
				},
			},
			{
				Config: providerBlock(url) + pipelineExampleHCL,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
			{
				// Rename and append a phase: the new phase's id is unknown, the other is known and kept.
				Config: providerBlock(url) + webPipelineHCL("Web rollout v2", canaryHCL, gaHCL),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(pipelineAddr, tfjsonpath.New("name"), knownvalue.StringExact("Web rollout v2")),
					plancheck.ExpectKnownValue(pipelineAddr, phasePath(0, "id"), knownvalue.StringExact(canaryID)),
					plancheck.ExpectUnknownValue(pipelineAddr, phasePath(1, "id")),
					plancheck.ExpectUnknownValue(pipelineAddr, phasePath(1, "rules", 0, "id")),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkMockPipeline(m, "pl_web", mockconsole.Pipeline{Name: "Web rollout v2", Phases: []mockconsole.Phase{canaryPhase, gaPhase}}),
					checkStateIDsMatchMock(m, "pl_web"),
					phaseIDOf(m, "pl_web", "General availability", &gaID),
				),
			},
			{
				// Insert a phase at the front: every other phase and rule keeps its id, known in the plan.
				Config: providerBlock(url) + webPipelineHCL("Web rollout v2", internalHCL, canaryHCL, gaHCL),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(pipelineAddr, phasePath(0, "id")),
					plancheck.ExpectUnknownValue(pipelineAddr, phasePath(0, "rules", 0, "id")),
					plancheck.ExpectKnownValue(pipelineAddr, phasePath(1, "id"), knownvalue.StringExact(canaryID)),
					plancheck.ExpectKnownValue(pipelineAddr, phasePath(1, "rules", 0, "id"), knownvalue.StringExact(internalRuleID)),
					plancheck.ExpectKnownValue(pipelineAddr, phasePath(2, "id"), equalTo(&gaID)),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkMockPipeline(m, "pl_web", mockconsole.Pipeline{Name: "Web rollout v2", Phases: []mockconsole.Phase{internalPhase, canaryPhase, gaPhase}}),
					checkStateIDsMatchMock(m, "pl_web"),
					phaseIDOf(m, "pl_web", "Internal", &internalID),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(pipelineAddr, phasePath(1, "id"), knownvalue.StringExact(canaryID)),
					statecheck.ExpectKnownValue(pipelineAddr, phasePath(2, "id"), equalTo(&gaID)),
				},
			},
			{
				// Remove the middle phase: the others keep their ids.
				Config: providerBlock(url) + webPipelineHCL("Web rollout v2", internalHCL, gaHCL),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(pipelineAddr, phasePath(0, "id"), equalTo(&internalID)),
					plancheck.ExpectKnownValue(pipelineAddr, phasePath(1, "id"), equalTo(&gaID)),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkMockPipeline(m, "pl_web", mockconsole.Pipeline{Name: "Web rollout v2", Phases: []mockconsole.Phase{internalPhase, gaPhase}}),
					checkStateIDsMatchMock(m, "pl_web"),
				),
			},
			{
				ResourceName:      pipelineAddr,
				ImportState:       true,
				ImportStateId:     "pl_web",
				ImportStateVerify: true,
			},
		},
	})
}

// Omitted, null and [] lists are the same and never show a difference, whichever way round.
func TestAccReleasePipeline_emptyLists(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(rulesA, envR1, condsR1, tvR2, envR3 string) string {
		return providerBlock(url) + fmt.Sprintf(`
resource "featureconsole_release_pipeline" "web" {
  pipeline_id = "pl_api"
  name        = "API rollout"
  phases = [
    { name = "A", time_interval_ms = 0, %s },
    { name = "B", time_interval_ms = 1000, required_review = false, rules = [
      { name = "r1", %s, %s },
      { name = "r2", conditions = [{ type = "public", %s }] },
      { name = "r3", %s, conditions = null },
    ] },
  ]
}
`, rulesA, envR1, condsR1, tvR2, envR3)
	}
	want := mockconsole.Pipeline{Name: "API rollout", Phases: []mockconsole.Phase{
		{Name: "A"},
		{Name: "B", TimeIntervalMs: 1000, Rules: []mockconsole.PipelineRule{
			{Name: "r1"}, {Name: "r2", Conditions: []mockconsole.Condition{{Type: "public"}}}, {Name: "r3"},
		}},
	}}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: cfg("rules = []", "environments = []", "conditions = []", "target_value = []", "environments = null"),
				Check:  checkMockPipeline(m, "pl_api", want),
			},
			{
				Config: cfg("rules = null", "environments = null", "conditions = null", "target_value = null", "environments = []"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
			{
				Config: cfg("required_review = false", "required_review = null", "environments = []", "operator = null", "id = null"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
			{
				ResourceName:      pipelineAddr,
				ImportState:       true,
				ImportStateId:     "pl_api",
				ImportStateVerify: true,
			},
		},
	})
}

func TestAccReleasePipeline_drift(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	seeded, _ := m.Pipeline("pl_mobile")
	hcl := providerBlock(url) + `
resource "featureconsole_release_pipeline" "web" {
  pipeline_id = "pl_mobile"
  name        = "Mobile rollout"
  phases = [{
    name             = "Beta testers"
    time_interval_ms = 7200000
    rules = [{
      name       = "app version"
      conditions = [{ type = "app_version", operator = "any", target_value = ["3.1.0", "3.2.0"] }]
    }]
  }]
}
`
	want := mockconsole.Pipeline{Name: "Mobile rollout", Phases: []mockconsole.Phase{{
		Name: "Beta testers", TimeIntervalMs: 7200000, Rules: []mockconsole.PipelineRule{{
			Name: "app version", Conditions: []mockconsole.Condition{{Type: "app_version", Operator: "any", TargetValue: []any{"3.1.0", "3.2.0"}}},
		}},
	}}}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: hcl,
				Check:  checkMockPipeline(m, "pl_mobile", want),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(pipelineAddr, phasePath(0, "id"), knownvalue.StringExact(seeded.Phases[0].ID)),
				},
			},
			{
				// Changed in the console: the plan reverts it, and apply restores what the HCL says.
				PreConfig: func() {
					p, _ := m.Pipeline("pl_mobile")
					p.Name = "Changed in the console"
					p.Phases[0].TimeIntervalMs = 1
					p.Phases[0].RequiredReview = true
					p.Phases[0].Rules[0].Environments = []string{"production"}
					p.Phases[0].Rules[0].Conditions[0].TargetValue = []any{json.Number("3")}
					p.Phases = append(p.Phases, mockconsole.Phase{Name: "Added in the console"})
					m.PutPipeline(p)
				},
				Config: hcl,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(pipelineAddr, tfjsonpath.New("name"), knownvalue.StringExact("Mobile rollout")),
					plancheck.ExpectKnownValue(pipelineAddr, tfjsonpath.New("phases"), knownvalue.ListSizeExact(1)),
					plancheck.ExpectKnownValue(pipelineAddr, phasePath(0, "id"), knownvalue.StringExact(seeded.Phases[0].ID)),
					plancheck.ExpectKnownValue(pipelineAddr, phasePath(0, "time_interval_ms"), knownvalue.Int64Exact(7200000)),
					plancheck.ExpectKnownValue(pipelineAddr, phasePath(0, "required_review"), knownvalue.Bool(false)),
					plancheck.ExpectKnownValue(pipelineAddr, phasePath(0, "rules", 0, "environments"), knownvalue.ListSizeExact(0)),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkMockPipeline(m, "pl_mobile", want),
					checkStateIDsMatchMock(m, "pl_mobile"),
				),
			},
			{
				// Deleted outside Terraform: the next plan creates it again.
				PreConfig:          func() { m.DeletePipeline("pl_mobile") },
				Config:             hcl,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionCreate),
				}},
			},
			{
				// A refresh drops it from state (Read on 404)...
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: func(s *terraform.State) error {
					if _, ok := s.RootModule().Resources[pipelineAddr]; ok {
						return fmt.Errorf("%s is still in state after the pipeline was deleted", pipelineAddr)
					}
					return nil
				},
			},
			{
				// ...and once the pipeline is back on the service, that create takes it over again.
				PreConfig: func() { m.PutPipeline(seeded) },
				Config:    hcl,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionCreate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkMockPipeline(m, "pl_mobile", want),
					checkStateIDsMatchMock(m, "pl_mobile"),
				),
			},
		},
	})
}

// Invalid configurations fail at plan time, naming the attribute, and never reach the service.
func TestAccReleasePipeline_validation(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	seeded, _ := m.Pipeline("pl_web")
	phase := func(name, interval, rules string) string {
		return fmt.Sprintf(`{ name = %q, time_interval_ms = %s, rules = [%s] }`, name, interval, rules)
	}
	rule := func(name, conds string) string { return fmt.Sprintf(`{ name = %q, conditions = [%s] }`, name, conds) }
	cases := []struct {
		name    string
		hcl     string
		wantErr string
	}{
		{"negative interval", webPipelineHCL("Web", phase("Canary", "-1", "")), `phases[0].time_interval_ms value must be at least 0`},
		{"empty pipeline name", webPipelineHCL("", phase("Canary", "0", "")), `name must not be empty or only white space`},
		{"blank phase name", webPipelineHCL("Web", phase("Canary", "0", ""), phase("  ", "0", "")), `phases[1].name must not be empty or only white space`},
		{"empty rule name", webPipelineHCL("Web", phase("Canary", "0", rule("", ""))), `phases[0].rules[0].name must not be empty`},
		{"duplicate phase names", webPipelineHCL("Web", phase("Canary", "0", ""), phase("GA", "0", ""), phase("Canary", "5", "")), `Phases 0 and 2 are both named "Canary"`},
		{"duplicate rule names", webPipelineHCL("Web", phase("Canary", "0", rule("a", "")+","+rule("b", "")+","+rule("a", ""))), `Rules 0 and 2 of phase "Canary" are both named "a"`},
		{"empty condition type", webPipelineHCL("Web", phase("Canary", "0", rule("a", `{ type = "" }`))), `phases[0].rules[0].conditions[0].type must not be empty`},
		{"condition type mistyped", webPipelineHCL("Web", phase("Canary", "0", rule("a", `{ type = "user_di", operator = "any", target_value = ["1"] }`))),
			`phases[0].rules[0].conditions[0].type: unknown condition type "user_di": did you mean "user_id"?`},
		{"condition operator mistyped", webPipelineHCL("Web", phase("Canary", "0", ""), phase("GA", "0", rule("a", `{ type = "user_id", operator = "anyy", target_value = ["1"] }`))),
			`phases[1].rules[0].conditions[0].operator: unknown condition operator "anyy": did you mean "any"?`},
		{"empty pipeline id", strings.Replace(webPipelineHCL("Web"), `"pl_web"`, `""`, 1), `pipeline_id must not be empty`},
	}
	var steps []resource.TestStep
	for _, c := range cases {
		steps = append(steps, resource.TestStep{
			Config:      providerBlock(url) + c.hcl,
			ExpectError: errRe(c.wantErr),
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
	if reqs := m.Requests(); len(reqs) != 0 {
		t.Fatalf("invalid configurations sent %d requests to the service, first %s %s", len(reqs), reqs[0].Method, reqs[0].Path)
	}
	if err := checkMockPipeline(m, "pl_web", seeded)(nil); err != nil {
		t.Fatal(err)
	}
}

func TestAccReleasePipeline_missingPipeline(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      providerBlock(url) + strings.Replace(pipelineExampleHCL, `"pl_web"`, `"pl_missing"`, 1),
			ExpectError: diagRe(`Unable to read release pipeline "pl_missing"`, `404 Not Found: Release pipeline "pl_missing" not found`),
		}},
	})
	if n := m.CountRequests("POST", "/release_pipelines/"); n != 0 {
		t.Fatalf("a missing pipeline got %d POST requests", n)
	}
}

func TestAccReleasePipeline_locked(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	seeded, _ := m.Pipeline("pl_web")
	lockedErr := diagRe(`Unable to update release pipeline "pl_web"`, `400 Bad Request: Cannot modify release pipeline "pl_web": a rollout is in progress`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// Locked while Terraform takes the pipeline over: nothing changes and nothing is stored.
				PreConfig:   func() { m.LockPipeline("pl_web", true) },
				Config:      providerBlock(url) + pipelineExampleHCL,
				ExpectError: lockedErr,
			},
			{
				PreConfig: func() {
					if p, _ := m.Pipeline("pl_web"); len(p.Phases) != len(seeded.Phases) {
						panic("a locked pipeline was modified")
					}
					m.LockPipeline("pl_web", false)
				},
				Config: providerBlock(url) + pipelineExampleHCL,
				Check:  checkMockPipeline(m, "pl_web", pipelineExample),
			},
			{
				// Locked during an update: the error names the pipeline, the status and the service's message.
				PreConfig:   func() { m.LockPipeline("pl_web", true) },
				Config:      providerBlock(url) + webPipelineHCL("Renamed", canaryHCL),
				ExpectError: lockedErr,
			},
			{
				// The state still holds what the service holds: unlocked, the same change applies.
				PreConfig: func() { m.LockPipeline("pl_web", false) },
				Config:    providerBlock(url) + webPipelineHCL("Renamed", canaryHCL),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionUpdate),
				}},
				Check: checkMockPipeline(m, "pl_web", mockconsole.Pipeline{Name: "Renamed", Phases: []mockconsole.Phase{canaryPhase}}),
			},
		},
	})
}

// An id pinned in the configuration that the service does not keep is a clear error, not an
// inconsistent result.
func TestAccReleasePipeline_pinnedUnknownID(t *testing.T) {
	_, url := startMock(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      providerBlock(url) + webPipelineHCL("Web", `{ id = "ph_bogus", name = "Canary", time_interval_ms = 0 }`),
			ExpectError: errRe(`Release pipeline "pl_web" did not keep the id of phase "Canary"`),
		}},
	})
}
