// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The rules sent and the rules the service answers compare by meaning: the live service's forms of
// the same rules are the same, any change of content is not.
func TestSameGateRulesByMeaning(t *testing.T) {
	sent := []console.Rule{{
		Name: "employees", PassPercentage: 33.33, Environments: nil,
		Conditions: []console.Condition{
			{Type: "email", Operator: "str_contains_any", TargetValue: json.RawMessage(`["@example.com"]`)},
			{Type: "custom_field", Field: "age", Operator: "gt", TargetValue: json.RawMessage(`[18,21.5]`)},
			{Type: "public", TargetValue: json.RawMessage(`[]`)},
		},
		ReturnValue: json.RawMessage(`{"color":"blue","size":3}`),
	}, {Name: "everyone", PassPercentage: 100, Conditions: []console.Condition{}, ReturnValue: json.RawMessage(`{}`)}}
	answer := func(mod func(rs []console.Rule)) *console.Gate {
		rs := []console.Rule{{
			ID: "b1", BaseID: "b1", Name: "employees", PassPercentage: 33.330000000000005, Environments: []string{},
			Conditions: []console.Condition{
				{Type: "email", Operator: "str_contains_any", TargetValue: json.RawMessage(`"@example.com"`)},
				{Type: "custom_field", Field: "age", Operator: "gt", TargetValue: json.RawMessage(`["18","21.50"]`)},
				{Type: "public", TargetValue: json.RawMessage(`null`)},
			},
			ReturnValue: json.RawMessage(`{ "size": 3.0, "color": "blue" }`),
		}, {ID: "x:100:2", BaseID: "x", Name: "everyone", PassPercentage: 100.0, ReturnValue: json.RawMessage(`null`)}}
		if mod != nil {
			mod(rs)
		}
		return &console.Gate{ID: "g", Rules: rs}
	}
	if g := answer(nil); !sameRules(g.Rules, sent) {
		t.Fatalf("the same rules in the service's forms differ: %s", heldRuleDifferences("the gate", g.Rules, sent))
	}
	for name, mod := range map[string]func([]console.Rule){
		"percentage":   func(rs []console.Rule) { rs[0].PassPercentage = 33.34 },
		"target":       func(rs []console.Rule) { rs[0].Conditions[1].TargetValue = json.RawMessage(`["18"]`) },
		"environment":  func(rs []console.Rule) { rs[1].Environments = []string{"staging"} },
		"return value": func(rs []console.Rule) { rs[0].ReturnValue = json.RawMessage(`{"color":"red","size":3}`) },
		"operator":     func(rs []console.Rule) { rs[0].Conditions[0].Operator = "any" },
		"order":        func(rs []console.Rule) { rs[0], rs[1] = rs[1], rs[0] },
	} {
		if g := answer(mod); sameRules(g.Rules, sent) {
			t.Errorf("%s: a different rule list compares the same", name)
		} else if d := heldRuleDifferences("the gate", g.Rules, sent); !strings.Contains(d, `"employees"`) && !strings.Contains(d, `"everyone"`) {
			t.Errorf("%s: difference %q does not say which rule", name, d)
		}
	}
	if d := heldRuleDifferences("the gate", nil, sent); d != `added but not held by the gate: "employees", "everyone"` {
		t.Errorf("unchanged gate: %q", d)
	}
	// A write that did not take: an added rule ignored, an omitted one kept, a change not made.
	old := &console.Gate{Rules: []console.Rule{sent[0], {Name: "legacy", PassPercentage: 1}}}
	old.Rules[0].PassPercentage = 10
	want := `added but not held by the gate: "everyone"; removed but still held by the gate: "legacy"; changed but held otherwise: "employees" (sent as`
	if d := heldRuleDifferences("the gate", old.Rules, sent); !strings.HasPrefix(d, want) || !strings.Contains(d, `"Percentage":10`) {
		t.Errorf("write that did not take: %q", d)
	}
	if d := heldRuleDifferences("the gate", answer(nil).Rules, sent); d != "" {
		t.Errorf("no difference: %q", d)
	}
}

func TestSamePipelineByMeaning(t *testing.T) {
	sent := []console.Phase{{Name: "Canary", TimeIntervalMs: 3600000, RequiredReview: true, Rules: []console.PipelineRule{{
		Name: "internal", Environments: []string{}, Conditions: []console.Condition{{Type: "user_id", Operator: "any", TargetValue: json.RawMessage(`["42"]`)}},
	}}}, {Name: "GA", Rules: []console.PipelineRule{}}}
	got := &console.ReleasePipeline{Name: "Web", Phases: []console.Phase{{ID: "ph_1", Name: "Canary", TimeIntervalMs: 3600000, RequiredReview: true, Rules: []console.PipelineRule{{
		ID: "pr_1", Name: "internal", Conditions: []console.Condition{{Type: "user_id", Operator: "any", TargetValue: json.RawMessage(`"42"`)}},
	}}}, {ID: "ph_2", Name: "GA"}}}
	if !samePipeline(got, "Web", sent, false) {
		t.Error("the same pipeline in the service's forms differs")
	}
	if samePipeline(got, "Web", sent, true) {
		t.Error("ids compared though the request had none")
	}
	if samePipeline(got, "Web 2", sent, false) {
		t.Error("another name compares the same")
	}
	got.Phases[0].TimeIntervalMs = 60000
	if samePipeline(got, "Web", sent, false) {
		t.Error("another interval compares the same")
	}
}

func TestPipelineDifferences(t *testing.T) {
	rule := func(name, env string) console.PipelineRule {
		return console.PipelineRule{Name: name, Environments: []string{env}, Conditions: []console.Condition{{Type: "public"}}}
	}
	sent := []console.Phase{
		{Name: "a", TimeIntervalMs: 1, Rules: []console.PipelineRule{rule("r1", "prod"), rule("r2", "prod")}},
		{Name: "b", TimeIntervalMs: 2},
	}
	for _, c := range []struct {
		name string
		got  console.ReleasePipeline
		want []string
	}{
		{"took", console.ReleasePipeline{Name: "P", Phases: sent}, nil},
		{"ids and number forms do not count", console.ReleasePipeline{Name: "P", Phases: []console.Phase{
			{ID: "ph_1", Name: "a", TimeIntervalMs: 1, Rules: []console.PipelineRule{rule("r1", "prod"), rule("r2", "prod")}},
			{ID: "ph_2", Name: "b", TimeIntervalMs: 2, Rules: []console.PipelineRule{}},
		}}, nil},
		{"everything", console.ReleasePipeline{Name: "Q", Phases: []console.Phase{
			{Name: "a", TimeIntervalMs: 5, Rules: []console.PipelineRule{rule("r1", "staging"), rule("r3", "prod")}},
			{Name: "c"},
		}}, []string{
			`the name was sent as "P", the pipeline holds "Q"`,
			`phase "a" holds another time_interval_ms or required_review`,
			`rule "r1" of phase "a" holds other environments or conditions`,
			`rule "r2" of phase "a" is missing`,
			`rule "r3" of phase "a" was not sent`,
			`phase "b" is missing`,
			`phase "c" was not sent`,
		}},
		{"order", console.ReleasePipeline{Name: "P", Phases: []console.Phase{sent[1], sent[0]}}, []string{
			"the phases, or the rules of a phase, are in another order",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := pipelineDifferences(&c.got, "P", sent)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// The seed's rules of new_checkout, as a configuration writes them.
var (
	seedEmployeesHCL = ruleHCL("employees", "100", `environments = ["production"]`,
		`conditions = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]`)
	seedBetaHCL = func(pct string) string {
		return ruleHCL("beta", pct, `conditions = [{ type = "custom_field", operator = "gt", field = "age", target_numbers = [18] }]`,
			`return_value = jsonencode({ color = "blue", size = 3 })`)
	}
)

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
