// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

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

// pipeline_id decides at create: a pipeline taken over stays on destroy even after pipeline_id is
// removed from the configuration (which changes nothing), and one imported into a configuration
// that sets pipeline_id is deleted by destroy, as every imported object is.
func TestAccReleasePipeline_ownership(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if _, ok := m.Pipeline("pl_web"); !ok {
				return fmt.Errorf("destroy deleted pl_web, which was taken over")
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: providerBlock(url) + pipelineExampleHCL, Check: checkMockPipeline(m, "pl_web", pipelineExample)},
			{
				// pipeline_id removed from the configuration: kept, nothing planned.
				Config: providerBlock(url) + createdPipelineHCL("Web rollout", canaryHCL),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
			{
				// Another value replaces: the old pipeline is left, the new one taken over.
				Config: providerBlock(url) + strings.Replace(pipelineExampleHCL, `"pl_web"`, `"pl_mobile"`, 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkMockPipeline(m, "pl_web", pipelineExample),
					checkMockPipeline(m, "pl_mobile", pipelineExample),
				),
			},
			{
				// Released from the state (destroy leaves pl_mobile), then imported: imported is deleted by destroy.
				Config: providerBlock(url),
				Check: func(*terraform.State) error {
					if _, ok := m.Pipeline("pl_mobile"); !ok {
						return fmt.Errorf("destroy deleted pl_mobile, which was taken over")
					}
					return nil
				},
			},
			{
				Config:             providerBlock(url) + strings.Replace(pipelineExampleHCL, `"pl_web"`, `"pl_mobile"`, 1),
				ResourceName:       pipelineAddr,
				ImportState:        true,
				ImportStateId:      "pl_mobile",
				ImportStatePersist: true,
			},
			{
				Config:           providerBlock(url) + strings.Replace(pipelineExampleHCL, `"pl_web"`, `"pl_mobile"`, 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: providerBlock(url),
				Check: func(*terraform.State) error {
					if _, ok := m.Pipeline("pl_mobile"); ok {
						return fmt.Errorf("destroy left pl_mobile, which was imported")
					}
					return nil
				},
			},
		},
	})
}

// A service that applies only changes to phases it holds (writes that do not take, HABITS.md):
// the apply fails naming the phase that did not take, the state holds what the service holds, and
// the next plan shows the same change again, never "inconsistent result" nor an empty plan.
func TestAccReleasePipeline_writesThatDoNotTake(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	partial := func(on bool) func() {
		return func() {
			h := m.Habits()
			h.PartialPipelineWrites = on
			m.SetHabits(h)
			if err := m.ServeOldPipelineWrites("pl_web", on); err != nil {
				t.Fatal(err)
			}
		}
	}
	twoPhases := providerBlock(url) + webPipelineHCL("Web rollout", canaryHCL, gaHCL)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: providerBlock(url) + pipelineExampleHCL, Check: checkMockPipeline(m, "pl_web", pipelineExample)},
			{
				PreConfig: partial(true),
				Config:    twoPhases,
				ExpectError: regexp.MustCompile(strings.ReplaceAll(`(?s)Release pipeline "pl_web" not updated as sent.*`+
					`phase "General availability" is missing.*The Terraform state holds what the service holds`, " ", `\s+`)),
			},
			{
				// The state holds the one phase the service holds: the change is planned again.
				Config:             twoPhases,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				Check:              checkMockPipeline(m, "pl_web", pipelineExample),
			},
			{
				PreConfig: partial(false),
				Config:    twoPhases,
				Check:     checkMockPipeline(m, "pl_web", mockconsole.Pipeline{Name: "Web rollout", Phases: []mockconsole.Phase{canaryPhase, gaPhase}}),
			},
			{
				Config:           twoPhases,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// consolePipelineRule is a phase rule as the console writes it (the live service): a condition without
// operator, scalar targets, one a number, and a condition type beyond the gates' list.
var consolePipelineRule = mockconsole.PipelineRule{Name: "console made", Conditions: []mockconsole.Condition{
	{Type: "public"},
	{Type: "experiment_group", Operator: "any", TargetValue: "holdout"},
	{Type: "app_build", Operator: "gte", TargetValue: json.Number("120")},
}}

// consolePipelineHCL is what a user writes for a pipeline holding consolePipelineRule.
const consolePipelineHCL = `
resource "featureconsole_release_pipeline" "web" {
  pipeline_id = "pl_console"
  name        = %q
  phases = [{
    name             = "Staff"
    time_interval_ms = 0
    rules = [{
      name = "console made"
      conditions = [
        { type = "public" },
        { type = "experiment_group", operator = "any", target_value = ["holdout"] },
        { type = "app_build", operator = "gte", target_value = ["120"] },
      ]
    }]
  }]
}
`

// Pipeline rules written in the console, read in the console's forms (ConsolePipelineRules): an
// import plans clean, an update applies without "inconsistent result", the next plan is empty.
func TestAccReleasePipeline_consoleRules(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	h := m.Habits()
	h.ConsolePipelineRules = true
	m.SetHabits(h)
	// Rules written in the console hold condition types the document's list lacks; the provider
	// sends them back as they are.
	m.ServeBeyondDocument("/type: value is not one of the allowed values")
	m.PutPipeline(mockconsole.Pipeline{ID: "pl_console", Name: "Console made", CreatorID: "user_1", LastModifierID: "user_1",
		Phases: []mockconsole.Phase{{Name: "Staff", Rules: []mockconsole.PipelineRule{consolePipelineRule}}}})
	cfg := func(name string) string { return providerBlock(url) + fmt.Sprintf(consolePipelineHCL, name) }
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: cfg("Console made"), ResourceName: pipelineAddr, ImportState: true, ImportStateId: "pl_console",
				ImportStatePersist: true,
				ImportStateCheck: func(s []*terraform.InstanceState) error {
					if len(s) != 1 || s[0].Attributes["phases.0.rules.0.conditions.2.target_value.0"] != "120" ||
						s[0].Attributes["phases.0.rules.0.conditions.1.target_value.0"] != "holdout" {
						return fmt.Errorf("console-written targets not read as lists of strings: %v", s)
					}
					return nil
				},
			},
			{
				Config:           cfg("Console made"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: cfg("Renamed"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionUpdate),
				}},
			},
			{
				Config:           cfg("Renamed"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// Bad input of a pipeline Terraform would create: refused at plan time with
// the attribute path, and nothing, a create least of all, reaches the service.
func TestAccReleasePipeline_createValidation(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	before := m.PipelineIDs()
	cases := []struct{ hcl, wantErr string }{
		{createdPipelineHCL("   ", canaryHCL), `name must not be empty or only white space`},
		{createdPipelineHCL("Web", canaryHCL, canaryHCL), `Phases 0 and 1 are both named "Canary"`},
		{createdPipelineHCL("Web", `{ name = "a", time_interval_ms = 0, rules = [{ name = "r", conditions = [{ type = " " }] }] }`),
			`phases[0].rules[0].conditions[0].type must not be empty`},
	}
	var steps []resource.TestStep
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: providerBlock(url) + c.hcl, ExpectError: errRe(c.wantErr)})
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
	if reqs := m.Requests(); len(reqs) != 0 {
		t.Fatalf("invalid configurations sent %d requests to the service, first %s %s", len(reqs), reqs[0].Method, reqs[0].Path)
	}
	if after := m.PipelineIDs(); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Fatalf("pipelines %v after invalid creates, %v before", after, before)
	}
}

// A pipeline Terraform created is listed like any other (Terraform 1.14+): the list resource finds
// it by its name, with its identity and the resource built from the list page.
func TestAccReleasePipeline_createdListed(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	const name = "tfacc_web_listed"
	var id string
	byName := queryfilter.ByDisplayName(knownvalue.StringExact(name))
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             noPipelineNamed(m, name),
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + createdPipelineHCL(name, canaryHCL),
				Check:  checkCreatedPipeline(m, mockconsole.Pipeline{Name: name, Phases: []mockconsole.Phase{canaryPhase}}, &id),
			},
			{
				Query: true,
				Config: `
list "featureconsole_release_pipeline" "all" {
  provider         = featureconsole
  include_resource = true
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("featureconsole_release_pipeline.all", 4),
					querycheck.ExpectResourceKnownValues("featureconsole_release_pipeline.all", byName, []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("pipeline_id"), KnownValue: equalTo(&id)},
						{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact(name)},
						{Path: phasePath(0, "name"), KnownValue: knownvalue.StringExact("Canary")},
					}),
				},
			},
		},
	})
}
