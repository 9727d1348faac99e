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
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// Plans say only what changes (issue 27): for each resource, a create leaves unknown only what the
// service chooses, and a change of one attribute plans that attribute and what the service may
// change on that write (last_modifier_*, ...), never "known after apply" for what no write changes
// (creation time, creator, status, ids of phases that keep their name, ...).

// planSteps are a create and a change of one attribute, each with the paths its plan may show
// (plansOnly), and an empty plan after each.
func planSteps(url, addr, create string, createUnknown []string, change string, changed []string) []resource.TestStep {
	return []resource.TestStep{
		{
			Config: providerBlock(url) + create,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate), plansOnly(addr, createUnknown...)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		},
		{
			Config: providerBlock(url) + change,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate), plansOnly(addr, changed...)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		},
	}
}

// timeoutsOnlyStep adds timeouts to config (a resource block): a change that writes nothing plans
// the timeouts alone and sends no request but reads.
func timeoutsOnlyStep(m *mockconsole.Server, url, addr, config string) resource.TestStep {
	return settingsOnlyStep(m, url, addr, config, `timeouts = { update = "30m" }`, "timeouts.update")
}

// settingsOnlyStep adds lines of Terraform-side settings to config (a resource block): the plan
// changes the paths planned alone, and the apply sends no request but reads.
func settingsOnlyStep(m *mockconsole.Server, url, addr, config, lines string, planned ...string) resource.TestStep {
	return resource.TestStep{
		PreConfig: m.ResetRequests,
		Config:    providerBlock(url) + strings.Replace(config, "\n}", "\n  "+lines+"\n}", 1),
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate), plansOnly(addr, planned...)},
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		},
		Check: func(*terraform.State) error {
			for _, r := range m.Requests() {
				if r.Method != http.MethodGet {
					return fmt.Errorf("a change of %s sent %s %s", strings.Join(planned, " and "), r.Method, r.Path)
				}
			}
			return nil
		},
	}
}

func TestAccPlans_gate(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockGate(m, "tfacc_checkout"),
		Steps: append(planSteps(url, gateAddr,
			gateConfig(), []string{"name", "description", "tags", "target_apps", "type", "type_reason", "id_type",
				"status", "creator_name", "created_time", "last_modifier_id", "last_modifier_name"},
			gateConfig(`description = "Checkout rewrite"`), []string{"description", "last_modifier_id", "last_modifier_name"}),
			// Terraform's own settings change nothing on the service, so nothing it records is unknown.
			timeoutsOnlyStep(m, url, gateAddr, gateConfig(`description = "Checkout rewrite"`))),
	})
}

func TestAccPlans_segment(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{})
	changedCountry := `{ name = "country", pass_percentage = 25, conditions = [{ type = "country", operator = "any", target_value = ["US", "CA"] }] }`
	changed := segmentRuleConfig(ruleEmail + ", " + changedCountry)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoSegments(m),
		Steps: append(planSteps(url, segRulesAddr,
			segmentRuleConfig(ruleEmail+", "+ruleCountry), []string{"id_type", "rules.0.id", "rules.0.base_id",
				"rules.1.id", "rules.1.base_id", "entry_count", "is_enabled", "last_modifier_id", "last_modifier_name"},
			// A rule's id is the service's and may change on any write of the rules; its base_id stays.
			changed, []string{"rules.1.pass_percentage", "rules.0.id", "rules.1.id",
				"entry_count", "last_modifier_id", "last_modifier_name"}),
			timeoutsOnlyStep(m, url, segRulesAddr, changed)),
	})
}

func TestAccPlans_segmentIDs(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoSegments(m),
		Steps: planSteps(url, segIDsAddr,
			idsConfig(0, 20), []string{"name", "id_type", "entry_count", "is_enabled", "last_modifier_id", "last_modifier_name"},
			idsConfig(1, 21), []string{"ids", "entry_count", "last_modifier_id", "last_modifier_name"}),
	})
}

func TestAccPlans_metricSource(t *testing.T) {
	m, url := mockWithoutSources(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectMockSourceNames(m),
		Steps: planSteps(url, msAddr,
			msMinimalConfig, []string{"owner"},
			strings.Replace(msMinimalConfig, "\n}", "\n  description = \"Orders table\"\n}", 1), []string{"description"}),
	})
}

func TestAccPlans_releasePipeline(t *testing.T) {
	const name = "tfacc plans"
	m, url := startMock(t, mockconsole.Config{})
	slowerGA := `{
      name             = "General availability"
      time_interval_ms = 172800000
      rules            = [{ name = "everyone", conditions = [{ type = "public" }] }]
    }`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             noPipelineNamed(m, name),
		Steps: append(planSteps(url, pipelineAddr,
			createdPipelineHCL(name, canaryHCL, gaHCL), []string{"id", "pipeline_id", "phases.0.id", "phases.0.rules.0.id",
				"phases.1.id", "phases.1.rules.0.id", "creator_id", "created_time", "last_modifier_id"},
			createdPipelineHCL(name, canaryHCL, slowerGA), []string{"phases.1.time_interval_ms", "last_modifier_id"}),
			timeoutsOnlyStep(m, url, pipelineAddr, createdPipelineHCL(name, canaryHCL, slowerGA))),
	})
}

func TestAccPlans_gateRules(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.PutGate(mockconsole.Gate{ID: "tfacc_plans", IsEnabled: true, Type: "PERMANENT"})
	rules := func(percentage string) string {
		return `{ name = "staff", pass_percentage = 100, conditions = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }] },
    { name = "everyone", pass_percentage = ` + percentage + ` }`
	}
	config := func(percentage string) string {
		return fmt.Sprintf(`
resource "featureconsole_gate_rules" "checkout" {
  gate_id = "tfacc_plans"
  rules   = [%s]
}
`, rules(percentage))
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: append(planSteps(url, gateRulesAddr,
			// gate_id names the gate, so id is known; the service gives each rule its ids, and a
			// rule's schedule is the service's.
			config("10"), []string{"rules.0.id", "rules.0.base_id", "rules.0.scheduled_rollouts",
				"rules.1.id", "rules.1.base_id", "rules.1.scheduled_rollouts"},
			// One percentage: a rule keeps its base_id by name; ids and schedules may change on any
			// write of the list.
			config("20"), []string{"rules.1.pass_percentage", "rules.0.id", "rules.0.scheduled_rollouts",
				"rules.1.id", "rules.1.scheduled_rollouts"}),
			// Terraform-side settings only: nothing sent, nothing unknown.
			timeoutsOnlyStep(m, url, gateRulesAddr, config("20")),
			settingsOnlyStep(m, url, gateRulesAddr, config("20"), `timeouts = { update = "30m" }
  on_active_run = "abort"`, "on_active_run"),
		),
	})
}
