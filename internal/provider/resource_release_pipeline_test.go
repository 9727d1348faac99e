// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
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

func TestReleasePipelineDelete_warnsAndLeavesPipeline(t *testing.T) {
	ctx := context.Background()
	r := &releasePipelineResource{} // no client: destroy must not need the service
	var sr fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &sr)
	state := tfsdk.State{Schema: sr.Schema}
	diags := state.Set(ctx, &releasePipelineModel{
		ID: types.StringValue("pl_web"), PipelineID: types.StringValue("pl_web"), Name: types.StringValue("Web"),
		Phases:    types.ListValueMust(pipelinePhaseType, []attr.Value{}),
		CreatorID: types.StringValue("u"), CreatedTime: types.Int64Value(1), LastModifierID: types.StringValue("u"),
		Timeouts: nullTimeouts(ctx, r),
	})
	if diags.HasError() {
		t.Fatal(diags)
	}
	resp := fwresource.DeleteResponse{State: state}
	r.Delete(ctx, fwresource.DeleteRequest{State: state}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("delete failed: %v", resp.Diagnostics)
	}
	warnings := resp.Diagnostics.Warnings()
	if len(warnings) != 1 || !strings.Contains(warnings[0].Detail(), `"pl_web"`) || !strings.Contains(warnings[0].Detail(), "leaves the pipeline") {
		t.Fatalf("want one warning naming the pipeline and saying it stays, got %v", warnings)
	}
}

// During a destroy the gate of the run may be gone already: the delete's advice names the run and
// that it blocks the delete, says to abort it or wait and then destroy again, and neither speaks of
// putting the gate's rules back nor of applying.
func TestReleasePipelineDeleteAdvice_runOfDeletedGate(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	run, err := m.StartRun("pl_web", "new_checkout")
	if err != nil {
		t.Fatal(err)
	}
	m.DeleteGate("new_checkout")
	c, err := console.New(console.Config{BaseURL: url, APIKey: mockconsole.DefaultAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	r := &releasePipelineResource{resourceData{data: &providerData{client: c}}}
	got := r.lockAdvice(context.Background(), "pl_web", &console.APIError{StatusCode: 400}, "deleted")
	for _, want := range []string{
		fmt.Sprintf(`Run %q (`, run), `phase "Canary", for gate "new_checkout") of release pipeline "pl_web" is active, and an active run blocks the delete.`,
		"Abort the run (in the console, or with the featureconsole_release_pipeline_trigger action's `abort`) or wait for it to end, " +
			"then run `terraform destroy` again.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("advice lacks %q:\n%s", want, got)
		}
	}
	for _, untrue := range []string{"apply", "previous rules", "rollout"} {
		if strings.Contains(got, untrue) {
			t.Errorf("advice speaks of %q:\n%s", untrue, got)
		}
	}
}

func TestReleasePipelineSchema_markdownEverywhere(t *testing.T) {
	var sr fwresource.SchemaResponse
	(&releasePipelineResource{}).Schema(context.Background(), fwresource.SchemaRequest{}, &sr)
	if sr.Schema.MarkdownDescription == "" {
		t.Fatal("resource has no MarkdownDescription")
	}
	var missing []string
	var walk func(prefix string, attrs map[string]rschema.Attribute)
	walk = func(prefix string, attrs map[string]rschema.Attribute) {
		for name, a := range attrs {
			if a.GetMarkdownDescription() == "" {
				missing = append(missing, prefix+name)
			}
			if ln, ok := a.(rschema.ListNestedAttribute); ok {
				walk(prefix+name+".", ln.NestedObject.Attributes)
			}
		}
	}
	walk("", sr.Schema.Attributes)
	if len(missing) > 0 {
		t.Fatalf("attributes without MarkdownDescription: %v", missing)
	}
}

// Duplicate names are reported on the attribute path of the second occurrence.
func TestReleasePipelineValidateConfig_paths(t *testing.T) {
	ctx := context.Background()
	r := &releasePipelineResource{}
	var sr fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &sr)
	var diags diag.Diagnostics
	phases := framework.ListOf(pipelinePhaseType, []attr.Value{
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("", "A", testPipelineRule("", "x"), testPipelineRule("", "y"), testPipelineRule("", "x")), &diags),
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("", "B"), &diags),
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("", "A"), &diags),
	}, &diags)
	state := tfsdk.State{Schema: sr.Schema}
	diags.Append(state.Set(ctx, &releasePipelineModel{
		ID: types.StringNull(), PipelineID: types.StringValue("pl_web"), Name: types.StringValue("Web"), Phases: phases,
		CreatorID: types.StringNull(), CreatedTime: types.Int64Null(), LastModifierID: types.StringNull(),
		Timeouts: nullTimeouts(ctx, r),
	})...)
	if diags.HasError() {
		t.Fatal(diags)
	}
	var resp fwresource.ValidateConfigResponse
	r.ValidateConfig(ctx, fwresource.ValidateConfigRequest{Config: tfsdk.Config{Schema: sr.Schema, Raw: state.Raw}}, &resp)
	var got []string
	for _, d := range resp.Diagnostics.Errors() {
		if wp, ok := d.(diag.DiagnosticWithPath); ok {
			got = append(got, d.Summary()+" at "+wp.Path().String())
		}
	}
	want := []string{"Duplicate rule name at phases[0].rules[2].name", "Duplicate phase name at phases[2].name"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Fatalf("diagnostics = %q, want %q", got, want)
	}
}

func TestPlanPipelinePhases_idsFollowNames(t *testing.T) {
	ctx := context.Background()
	var diags diag.Diagnostics
	prior := []pipelinePhaseModel{
		testPhase("ph_a", "A", testPipelineRule("pr_1", "one"), testPipelineRule("pr_2", "two")),
		testPhase("ph_b", "B"),
	}
	cfg := framework.ListOf(pipelinePhaseType, []attr.Value{
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("", "New"), &diags),
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("", "B"), &diags),
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("", "A", testPipelineRule("", "two"), testPipelineRule("", "three"), testPipelineRule("pr_9", "one")), &diags),
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("ph_pinned", "Pinned"), &diags),
	}, &diags)
	planned := phaseModels(ctx, planPipelinePhases(ctx, cfg, prior, &diags), &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	wantIDs := []types.String{types.StringUnknown(), types.StringValue("ph_b"), types.StringValue("ph_a"), types.StringValue("ph_pinned")}
	for i, w := range wantIDs {
		if !planned[i].ID.Equal(w) {
			t.Errorf("phase %s id = %s, want %s", planned[i].Name, planned[i].ID, w)
		}
		if !planned[i].RequiredReview.Equal(types.BoolValue(false)) {
			t.Errorf("phase %s required_review = %s, want false", planned[i].Name, planned[i].RequiredReview)
		}
	}
	var rules []pipelineRuleModel
	diags.Append(planned[2].Rules.ElementsAs(ctx, &rules, false)...)
	wantRuleIDs := []types.String{types.StringValue("pr_2"), types.StringUnknown(), types.StringValue("pr_9")}
	for i, w := range wantRuleIDs {
		if !rules[i].ID.Equal(w) {
			t.Errorf("rule %s id = %s, want %s", rules[i].Name, rules[i].ID, w)
		}
		if !rules[i].Environments.Equal(framework.EmptyListOf(types.StringType)) || !rules[i].Conditions.Equal(framework.EmptyListOf(pipelineConditionType)) {
			t.Errorf("rule %s: omitted lists should be planned as [], got %s and %s", rules[i].Name, rules[i].Environments, rules[i].Conditions)
		}
	}
	if !planned[0].Rules.Equal(framework.EmptyListOf(pipelineRuleType)) {
		t.Errorf("omitted rules should be planned as [], got %s", planned[0].Rules)
	}
}

func TestExpandPipelinePhases(t *testing.T) {
	ctx := context.Background()
	var diags diag.Diagnostics
	cond := conditionModel{
		Type: types.StringValue("user_id"), Operator: types.StringValue("any"), Field: types.StringNull(), CustomID: types.StringNull(),
		TargetValue: types.ListValueMust(types.StringType, []attr.Value{types.StringValue("42")}),
	}
	withCond := testPipelineRule("", "internal")
	withCond.Conditions = framework.ListOf(pipelineConditionType, []attr.Value{framework.ObjectOf(ctx, pipelineConditionType, cond, &diags)}, &diags)
	withCond.Environments = types.ListValueMust(types.StringType, []attr.Value{types.StringValue("staging")})
	plan := framework.ListOf(pipelinePhaseType, []attr.Value{
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("", "Canary", withCond, testPipelineRule("", "new")), &diags),
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("ph_pinned", "GA"), &diags),
	}, &diags)
	existing := []console.Phase{
		{ID: "ph_ga", Name: "GA"},
		{ID: "ph_canary", Name: "Canary", Rules: []console.PipelineRule{{ID: "pr_internal", Name: "internal"}}},
	}
	got, d := expandPipelinePhases(ctx, plan, existing)
	diags.Append(d...)
	if diags.HasError() {
		t.Fatal(diags)
	}
	b, _ := json.Marshal(got)
	want := `[{"id":"ph_canary","name":"Canary","timeIntervalMs":0,"requiredReview":false,"rules":[` +
		`{"id":"pr_internal","name":"internal","conditions":[{"type":"user_id","operator":"any","targetValue":["42"]}],"environments":["staging"]},` +
		`{"name":"new","conditions":[],"environments":[]}]},` +
		`{"id":"ph_pinned","name":"GA","timeIntervalMs":0,"requiredReview":false,"rules":[]}]`
	if string(b) != want {
		t.Fatalf("request phases\n got %s\nwant %s", b, want)
	}
	// Without existing phases (update), unknown ids are sent empty for the service to assign.
	got, _ = expandPipelinePhases(ctx, plan, nil)
	if got[0].ID != "" || got[0].Rules[0].ID != "" || got[1].ID != "ph_pinned" {
		t.Fatalf("update ids = %q %q %q", got[0].ID, got[0].Rules[0].ID, got[1].ID)
	}
}

func TestFlattenPipelinePhases_canonicalEmpties(t *testing.T) {
	ctx := context.Background()
	l, diags := flattenPipelinePhases(ctx, []console.Phase{{
		ID: "ph_1", Name: "P", TimeIntervalMs: 3600000, Rules: []console.PipelineRule{{
			ID: "pr_1", Name: "r", Environments: nil, Conditions: []console.Condition{
				{Type: "public"},
				{Type: "user_id", Operator: "any", TargetValue: json.RawMessage(`[42, "x"]`)},
			},
		}},
	}, {ID: "ph_2", Name: "Q"}})
	if diags.HasError() {
		t.Fatal(diags)
	}
	phases := phaseModels(ctx, l, &diags)
	var rules []pipelineRuleModel
	diags.Append(phases[0].Rules.ElementsAs(ctx, &rules, false)...)
	var conds []conditionModel
	diags.Append(rules[0].Conditions.ElementsAs(ctx, &conds, false)...)
	switch {
	case phases[0].TimeIntervalMs.ValueInt64() != 3600000:
		t.Errorf("time_interval_ms = %s", phases[0].TimeIntervalMs)
	case !rules[0].Environments.Equal(framework.EmptyListOf(types.StringType)):
		t.Errorf("null environments should be [], got %s", rules[0].Environments)
	case !conds[0].TargetValue.Equal(framework.EmptyListOf(types.StringType)) || !conds[0].Operator.IsNull():
		t.Errorf("public condition = %s %s", conds[0].Operator, conds[0].TargetValue)
	case conds[1].TargetValue.String() != `["42","x"]`:
		t.Errorf("numbers should become strings, got %s", conds[1].TargetValue)
	case !phases[1].Rules.Equal(framework.EmptyListOf(pipelineRuleType)):
		t.Errorf("no rules should be [], got %s", phases[1].Rules)
	}
}

func testPhase(id, name string, rules ...pipelineRuleModel) pipelinePhaseModel {
	var diags diag.Diagnostics
	p := pipelinePhaseModel{
		ID: types.StringNull(), Name: types.StringValue(name), TimeIntervalMs: types.Int64Value(0),
		RequiredReview: types.BoolNull(), Rules: types.ListNull(pipelineRuleType),
	}
	if id != "" {
		p.ID = types.StringValue(id)
	}
	if len(rules) > 0 {
		vals := make([]attr.Value, len(rules))
		for i, r := range rules {
			vals[i] = framework.ObjectOf(context.Background(), pipelineRuleType, r, &diags)
		}
		p.Rules = framework.ListOf(pipelineRuleType, vals, &diags)
	}
	return p
}

func testPipelineRule(id, name string) pipelineRuleModel {
	r := pipelineRuleModel{ID: types.StringNull(), Name: types.StringValue(name),
		Environments: types.ListNull(types.StringType), Conditions: types.ListNull(pipelineConditionType)}
	if id != "" {
		r.ID = types.StringValue(id)
	}
	return r
}

// checkMockPipeline asserts the service holds exactly want: name, phases in order and every field
// of them. Empty and null environments and target values are the same to the service.
func checkMockPipeline(m *mockconsole.Server, id string, want mockconsole.Pipeline) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, ok := m.Pipeline(id)
		if !ok {
			return fmt.Errorf("pipeline %q is not on the service", id)
		}
		if got.Name != want.Name {
			return fmt.Errorf("pipeline name = %q, want %q", got.Name, want.Name)
		}
		if len(got.Phases) != len(want.Phases) {
			return fmt.Errorf("pipeline has %d phases %v, want %d", len(got.Phases), phaseNames(got.Phases), len(want.Phases))
		}
		for i, w := range want.Phases {
			g := got.Phases[i]
			if g.Name != w.Name || g.TimeIntervalMs != w.TimeIntervalMs || g.RequiredReview != w.RequiredReview {
				return fmt.Errorf("phase %d = {%q %d %v}, want {%q %d %v}", i, g.Name, g.TimeIntervalMs, g.RequiredReview, w.Name, w.TimeIntervalMs, w.RequiredReview)
			}
			if len(g.Rules) != len(w.Rules) {
				return fmt.Errorf("phase %q has %d rules, want %d", w.Name, len(g.Rules), len(w.Rules))
			}
			for j, wr := range w.Rules {
				gr := g.Rules[j]
				if gr.Name != wr.Name || strings.Join(gr.Environments, ",") != strings.Join(wr.Environments, ",") {
					return fmt.Errorf("phase %q rule %d = {%q %v}, want {%q %v}", w.Name, j, gr.Name, gr.Environments, wr.Name, wr.Environments)
				}
				if a, b := conditionsJSON(gr.Conditions), conditionsJSON(wr.Conditions); a != b {
					return fmt.Errorf("phase %q rule %q conditions = %s, want %s", w.Name, wr.Name, a, b)
				}
			}
		}
		return nil
	}
}

func conditionsJSON(cs []mockconsole.Condition) string {
	norm := make([]mockconsole.Condition, len(cs))
	for i, c := range cs {
		if tv, ok := c.TargetValue.([]any); ok && len(tv) == 0 {
			c.TargetValue = nil
		}
		norm[i] = c
	}
	b, _ := json.Marshal(norm)
	return string(b)
}

func phaseNames(ps []mockconsole.Phase) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// checkStateIDsMatchMock asserts that every phase and rule id in state is the service's.
func checkStateIDsMatchMock(m *mockconsole.Server, id string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		p, _ := m.Pipeline(id)
		rs, ok := s.RootModule().Resources[pipelineAddr]
		if !ok {
			return fmt.Errorf("%s not in state", pipelineAddr)
		}
		a := rs.Primary.Attributes
		for i, ph := range p.Phases {
			if got := a[fmt.Sprintf("phases.%d.id", i)]; got != ph.ID {
				return fmt.Errorf("phases.%d.id = %q, the service says %q", i, got, ph.ID)
			}
			for j, r := range ph.Rules {
				if got := a[fmt.Sprintf("phases.%d.rules.%d.id", i, j)]; got != r.ID {
					return fmt.Errorf("phases.%d.rules.%d.id = %q, the service says %q", i, j, got, r.ID)
				}
			}
		}
		return nil
	}
}

// phaseIDOf captures the service's id of the named phase into *dst.
func phaseIDOf(m *mockconsole.Server, id, phase string, dst *string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		p, _ := m.Pipeline(id)
		for _, ph := range p.Phases {
			if ph.Name == phase {
				*dst = ph.ID
				return nil
			}
		}
		return fmt.Errorf("no phase %q on the service", phase)
	}
}

// equalTo checks a string against a value captured by an earlier step.
func equalTo(want *string) knownvalue.Check {
	return knownvalue.StringFunc(func(v string) error {
		if *want == "" || v != *want {
			return fmt.Errorf("got %q, want %q", v, *want)
		}
		return nil
	})
}

// wrapped matches text that Terraform may have wrapped over several lines.
func phasePath(i int, rest ...any) tfjsonpath.Path {
	p := tfjsonpath.New("phases").AtSliceIndex(i)
	for _, r := range rest {
		switch r := r.(type) {
		case string:
			p = p.AtMapKey(r)
		case int:
			p = p.AtSliceIndex(r)
		}
	}
	return p
}

// createdPipelineHCL is a pipeline Terraform creates: no pipeline_id.
func createdPipelineHCL(name string, phases ...string) string {
	return fmt.Sprintf(`
resource "featureconsole_release_pipeline" "web" {
  name   = %q
  phases = [
    %s
  ]
}
`, name, strings.Join(phases, ",\n    "))
}

// pipelinesNamed is the ids of the pipelines the mock holds under name.
func pipelinesNamed(m *mockconsole.Server, name string) []string {
	var ids []string
	for _, id := range m.PipelineIDs() {
		if p, ok := m.Pipeline(id); ok && p.Name == name {
			ids = append(ids, id)
		}
	}
	return ids
}

// checkCreatedPipeline asserts the mock holds exactly one pipeline called want.Name, as want, and
// that it is the one in state; its id goes to *id.
func checkCreatedPipeline(m *mockconsole.Server, want mockconsole.Pipeline, id *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		ids := pipelinesNamed(m, want.Name)
		if len(ids) != 1 {
			return fmt.Errorf("the service holds %d pipelines named %q (%v), want 1", len(ids), want.Name, ids)
		}
		*id = ids[0]
		rs := s.RootModule().Resources[pipelineAddr]
		if rs == nil || rs.Primary.Attributes["pipeline_id"] != ids[0] || rs.Primary.ID != ids[0] {
			return fmt.Errorf("state does not hold pipeline %q: %v", ids[0], rs)
		}
		return resource.ComposeAggregateTestCheckFunc(checkMockPipeline(m, ids[0], want), checkStateIDsMatchMock(m, ids[0]))(s)
	}
}

// noPipelineNamed is CheckDestroy of a created pipeline: the service holds none of that name.
func noPipelineNamed(m *mockconsole.Server, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if ids := pipelinesNamed(m, name); len(ids) != 0 {
			return fmt.Errorf("destroy left pipelines named %q: %v", name, ids)
		}
		return nil
	}
}

// A pipeline Terraform creates (DESIGN §4, the first way): created from nothing with ids the
// service chooses, re-planned empty, updated in place, imported by id, drift shown and undone, a
// destroy refused while a gate is attached (said in words), and destroyed to nothing.
func TestAccReleasePipeline_created(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	const name = "tfacc_web_created"
	var id string
	created := mockconsole.Pipeline{Name: name, Phases: []mockconsole.Phase{canaryPhase}}
	updated := mockconsole.Pipeline{Name: name, Phases: []mockconsole.Phase{internalPhase, canaryPhase, gaPhase}}
	cfg1 := providerBlock(url) + createdPipelineHCL(name, canaryHCL)
	cfg2 := providerBlock(url) + createdPipelineHCL(name, internalHCL, canaryHCL, gaHCL)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             noPipelineNamed(m, name),
		Steps: []resource.TestStep{
			{
				Config: cfg1,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectUnknownValue(pipelineAddr, tfjsonpath.New("pipeline_id")),
					plancheck.ExpectUnknownValue(pipelineAddr, tfjsonpath.New("id")),
					plancheck.ExpectUnknownValue(pipelineAddr, phasePath(0, "id")),
				}},
				Check: checkCreatedPipeline(m, created, &id),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(pipelineAddr, tfjsonpath.New("creator_id"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(pipelineAddr, tfjsonpath.New("created_time"), knownvalue.NotNull()),
				},
			},
			{
				Config:           cfg1,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				// Updated in place: pipeline_id is kept in the plan, nothing is replaced.
				Config: cfg2,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(pipelineAddr, tfjsonpath.New("pipeline_id"), equalTo(&id)),
				}},
				Check: checkCreatedPipeline(m, updated, &id),
			},
			{
				ResourceName:            pipelineAddr,
				ImportState:             true,
				ImportStateIdFunc:       func(*terraform.State) (string, error) { return id, nil },
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
			{
				// Drift: someone renames the pipeline and drops a phase in the console; the plan puts it back.
				PreConfig: func() {
					p, _ := m.Pipeline(id)
					p.Name, p.Phases = "Renamed in the console", p.Phases[:1]
					m.PutPipeline(p)
				},
				Config: cfg2,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(pipelineAddr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
				}},
				Check: checkCreatedPipeline(m, updated, &id),
			},
			{
				// Destroy refused while a gate is attached: said in words, and the pipeline stays in state.
				PreConfig:   func() { attachGate(m, "dark_mode", id) },
				Config:      providerBlock(url),
				ExpectError: regexp.MustCompile(strings.ReplaceAll(`(?s)Unable to delete release pipeline "pl_\d+".*gate "dark_mode" is attached.*attach it to another pipeline`, " ", `\s+`)),
			},
			{
				PreConfig: func() {
					if len(pipelinesNamed(m, name)) != 1 {
						panic("a pipeline with a gate attached was deleted")
					}
					attachGate(m, "dark_mode", "")
				},
				Config: providerBlock(url),
				Check:  noPipelineNamed(m, name),
			},
		},
	})
}

func attachGate(m *mockconsole.Server, gateID, pipelineID string) {
	g, _ := m.Gate(gateID)
	g.ReleasePipelineID = pipelineID
	m.PutGate(g)
}

// A created pipeline that a run of it locks: the update and the destroy are refused with the run
// named and what to do; once the run ends, both go through.
func TestAccReleasePipeline_lockedByRun(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	const name = "tfacc_web_locked"
	var id, run string
	runAdvice := func(what string) *regexp.Regexp {
		// Spaces match however Terraform wraps the lines.
		return regexp.MustCompile(strings.ReplaceAll(`(?s)Unable to `+what+` release pipeline "pl_\d+".*release pipeline trigger "rpt_\d+" is in progress.*`+
			`run "rpt_\d+" \(WAITING_FOR_REVIEW at phase "Canary"\).*featureconsole_release_pipeline_trigger action's `+"`rollout`.*`abort`", " ", `\s+`))
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             noPipelineNamed(m, name),
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + createdPipelineHCL(name, canaryHCL),
				Check:  checkCreatedPipeline(m, mockconsole.Pipeline{Name: name, Phases: []mockconsole.Phase{canaryPhase}}, &id),
			},
			{
				PreConfig: func() {
					var err error
					if run, err = m.StartRun(id, ""); err != nil {
						panic(err)
					}
				},
				Config:      providerBlock(url) + createdPipelineHCL(name, canaryHCL, gaHCL),
				ExpectError: runAdvice("update"),
			},
			{
				// Destroy: the run blocks the delete; abort it or wait, then destroy again.
				Config: providerBlock(url),
				ExpectError: regexp.MustCompile(strings.ReplaceAll(`(?s)Unable to delete release pipeline "pl_\d+".*release pipeline trigger "rpt_\d+" is in progress.*`+
					`Run "rpt_\d+" \(WAITING_FOR_REVIEW at phase "Canary"\) of release pipeline "pl_\d+" is active, and an active run blocks the delete. `+
					"Abort the run .*featureconsole_release_pipeline_trigger action's `abort`\\) or wait for it to end, then run `terraform destroy` again.", " ", `\s+`)),
			},
			{
				// The run aborted, the same change applies, and destroy deletes.
				PreConfig: func() {
					if err := m.SetRun(run, mockconsole.RunAborted, "", nil); err != nil {
						panic(err)
					}
				},
				Config: providerBlock(url) + createdPipelineHCL(name, canaryHCL, gaHCL),
				Check:  checkCreatedPipeline(m, mockconsole.Pipeline{Name: name, Phases: []mockconsole.Phase{canaryPhase, gaPhase}}, &id),
			},
		},
	})
}
