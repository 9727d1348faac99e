// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The seed's rules of new_checkout, as a configuration writes them.
var (
	seedEmployeesHCL = ruleHCL("employees", "100", `environments = ["production"]`,
		`conditions = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]`)
	seedBetaHCL = func(pct string) string {
		return ruleHCL("beta", pct, `conditions = [{ type = "custom_field", operator = "gt", field = "age", target_numbers = [18] }]`,
			`return_value = jsonencode({ color = "blue", size = 3 })`)
	}
)

// guideBlock is the terraform block of a guide that holds marker.
func guideBlock(t *testing.T, guide, marker string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(guidesDir, guide))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range guideHCLRe.FindAllStringSubmatch(string(b), -1) {
		if strings.Contains(m[1], marker) {
			return m[1]
		}
	}
	t.Fatalf("guide %s has no terraform block with %s", guide, marker)
	return ""
}

// phrasesRe matches the phrases in order, however Terraform wraps its lines.
func phrasesRe(phrases ...string) *regexp.Regexp {
	for i, p := range phrases {
		phrases[i] = wordsRe(p)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(phrases, `.*`))
}

// checkMockRuleNames checks the names of the gate's rules in the mock, in order.
func checkMockRuleNames(m *mockconsole.Server, gateID, want string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := mockRuleNames(m, gateID); got != want {
			return fmt.Errorf("mock rules of %q: %s, want %s", gateID, got, want)
		}
		return nil
	}
}

// Rule writes that do not take (PartialRuleWrites on a gate of an old service version): every
// write whose answer differs from what was sent is an error naming the rules, the state holds what
// the service holds, and destroy is not reported done while the gate holds rules.
func TestAccGateRules_writesNotTaken(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	m.SetHabits(mergeHabits(m.Habits(), mockconsole.Habits{PartialRuleWrites: true}))
	if err := m.ServeOldRuleWrites("new_checkout", true); err != nil {
		t.Fatal(err)
	}
	seed := gateRulesConfig(url, "new_checkout", seedEmployeesHCL+seedBetaHCL("12.5"))
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkGateHasNoRules(m, "new_checkout"),
		Steps: []resource.TestStep{
			{
				// Create adding a rule: the rule is not added; nothing is saved, and the error names it.
				Config:      gateRulesConfig(url, "new_checkout", seedEmployeesHCL+seedBetaHCL("12.5")+ruleHCL("gamma", "5")),
				ExpectError: phrasesRe(`Rules of gate "new_checkout" not written as sent`, `added but not held by the gate: "gamma".`, `Nothing was saved`),
				Check:       checkMockRuleNames(m, "new_checkout", "employees,beta"),
			},
			{
				// Create of the rules the gate holds: taken over without a write.
				Config: seed,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(gateRulesAddr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: checkMockRuleNames(m, "new_checkout", "employees,beta"),
			},
			{
				// Update adding, removing and changing: only the change of a held rule takes.
				Config: gateRulesConfig(url, "new_checkout", seedBetaHCL("20")+ruleHCL("gamma", "5")),
				ExpectError: phrasesRe(`Rules of gate "new_checkout" not written as sent`,
					`added but not held by the gate: "gamma"; removed but still held by the gate: "employees".`,
					`The Terraform state holds the rules the gate holds now`),
				Check: checkMockRuleNames(m, "new_checkout", "employees,beta"),
			},
			{
				// The state holds what the service holds (the change of beta took), so the plan
				// shows exactly what is left to do.
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(gateRulesAddr, "rules.#", "2"),
					resource.TestCheckResourceAttr(gateRulesAddr, "rules.0.name", "employees"),
					resource.TestCheckResourceAttr(gateRulesAddr, "rules.1.name", "beta"),
					resource.TestCheckResourceAttr(gateRulesAddr, "rules.1.pass_percentage", "20"),
					func(*terraform.State) error {
						if g, _ := m.Gate("new_checkout"); g.Rules[1].PassPercentage != 20 {
							return fmt.Errorf("beta holds %v in the mock, want 20", g.Rules[1].PassPercentage)
						}
						return nil
					},
				),
			},
			{
				// A change of held rules only takes, and the plan is empty after it.
				Config: gateRulesConfig(url, "new_checkout", seedEmployeesHCL+seedBetaHCL("30")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(gateRulesAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.TestCheckResourceAttr(gateRulesAddr, "rules.1.pass_percentage", "30"),
			},
			{
				// Destroy that leaves the rules is an error naming them; the resource stays.
				Config:      gateRulesConfig(url, "new_checkout", seedEmployeesHCL+seedBetaHCL("30")),
				Destroy:     true,
				ExpectError: phrasesRe(`Rules of gate "new_checkout" not written as sent`, `removed but still held by the gate: "employees", "beta".`, `then run terraform destroy again`),
			},
			{
				// Moved to a current service version, the destroy of the test case empties the gate.
				PreConfig: func() {
					if err := m.ServeOldRuleWrites("new_checkout", false); err != nil {
						t.Fatal(err)
					}
				},
				Config:   gateRulesConfig(url, "new_checkout", seedEmployeesHCL+seedBetaHCL("30")),
				PlanOnly: true,
			},
		},
	})
	// No write ever sent an empty id (the mock refuses them) or a read-only field.
	for _, r := range m.Requests() {
		if strings.HasSuffix(r.Path, "/rules") && (strings.Contains(string(r.Body), `"id":""`) || strings.Contains(string(r.Body), `"baseID":""`) ||
			strings.Contains(string(r.Body), "AutomatedRollouts")) {
			t.Errorf("%s %s sent %s", r.Method, r.Path, r.Body)
		}
	}
}

// Scheduled rollouts (ScheduledRollouts): the schedule shows per rule; a step the service made
// shows as the schedule's doing; ignore_changes lets the schedule own the percentage; a write
// never sends the schedule back and leaves it unknown in its plan.
func TestAccGateRules_scheduledRollouts(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	m.SetHabits(mergeHabits(m.Habits(), mockconsole.Habits{ScheduledRollouts: true}))
	m.SetRunSpeed(0)
	// The guide's example lets the schedule own the percentage; without its lifecycle block, the
	// configuration owns it.
	owned := providerBlock(url) + guideBlock(t, "gate-rules.md.tmpl", "ignore_changes")
	cfg := regexp.MustCompile(`(?s)\n  lifecycle \{.*?\n  \}\n`).ReplaceAllString(owned, "\n")
	if cfg == owned {
		t.Fatal("the example has no lifecycle block")
	}
	const addr = "featureconsole_gate_rules.dark_mode"
	var start time.Time
	scheduled := func(i int, pct string, done bool) resource.TestCheckFunc {
		at := func() string { return start.Add(time.Duration(i+1) * time.Hour).UTC().Format(time.RFC3339) }
		return func(s *terraform.State) error {
			return resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr(addr, fmt.Sprintf("rules.0.scheduled_rollouts.%d.time", i), at()),
				resource.TestCheckResourceAttr(addr, fmt.Sprintf("rules.0.scheduled_rollouts.%d.pass_percentage", i), pct),
				resource.TestCheckResourceAttr(addr, fmt.Sprintf("rules.0.scheduled_rollouts.%d.done", i), fmt.Sprint(done)),
			)(s)
		}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkGateHasNoRules(m, "dark_mode"),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(addr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("scheduled_rollouts"))},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.TestCheckResourceAttr(addr, "rules.0.scheduled_rollouts.#", "0"),
			},
			{
				// A schedule set in the console shows, and changes nothing to do.
				PreConfig: func() {
					start = m.RunClock().Truncate(time.Second)
					if err := m.ScheduleRollouts("dark_mode", "ramp",
						mockconsole.AutomatedRollout{Time: start.Add(time.Hour).UnixMilli(), PassPercent: 30},
						mockconsole.AutomatedRollout{Time: start.Add(2 * time.Hour).UnixMilli(), PassPercent: 60}); err != nil {
						t.Fatal(err)
					}
				},
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "rules.0.scheduled_rollouts.#", "2"),
					scheduled(0, "30", false), scheduled(1, "60", false),
				),
			},
			{
				// The first step made: the percentage moved, and the schedule says why.
				PreConfig:          func() { m.AdvanceRunClock(time.Hour) },
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "rules.0.pass_percentage", "30"),
					scheduled(0, "30", true), scheduled(1, "60", false),
				),
			},
			{
				// ignore_changes on the rule's percentage lets the schedule own it: nothing to do.
				Config:           owned,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraform.State) error {
					if g, _ := m.Gate("dark_mode"); g.Rules[0].PassPercentage != 30 {
						return fmt.Errorf("the mock holds %v, want 30", g.Rules[0].PassPercentage)
					}
					return nil
				},
			},
			{
				// Without it, apply sets the configured percentage back; the schedule stays the
				// service's, unknown until the write's answer.
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(addr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("scheduled_rollouts")),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("pass_percentage"), knownvalue.Int64Exact(10)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "rules.0.pass_percentage", "10"),
					scheduled(0, "30", true), scheduled(1, "60", false),
				),
			},
		},
	})
	for _, r := range m.Requests() {
		var body struct {
			Rules []map[string]json.RawMessage `json:"rules"`
		}
		if strings.HasSuffix(r.Path, "/rules") && json.Unmarshal(r.Body, &body) == nil {
			for _, rule := range body.Rules {
				if _, sent := rule["pendingAutomatedRollouts"]; sent {
					t.Errorf("a write sent the schedule back: %s", r.Body)
				}
			}
		}
	}
}
