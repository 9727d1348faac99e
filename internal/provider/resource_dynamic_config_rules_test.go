// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
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

const configRulesAddr = "featureconsole_dynamic_config_rules.copy"

// configWithRules is the checkout config (with its schema) and its rules; extra lines go into the
// config's block, settings into the rules' block.
func configWithRules(rules, configExtra, settings string) string {
	return fmt.Sprintf(`
resource "featureconsole_dynamic_config" "copy" {
  config_id     = "tfacc_copy"
  default_value = jsonencode({ title = "Buy now", max_items = 5 })
  schema        = %s
  %s
}

resource "featureconsole_dynamic_config_rules" "copy" {
  config_id = featureconsole_dynamic_config.copy.config_id
  rules     = [%s]
  %s
}
`, checkoutSchemaHCL, configExtra, rules, settings)
}

func configRuleHCL(name, pct, value string) string {
	return fmt.Sprintf(`{ name = %q, pass_percentage = %s, conditions = [{ type = "country", operator = "any", target_value = ["DE"] }], return_value = jsonencode(%s) }`,
		name, pct, value)
}

var (
	ruleDE = configRuleHCL("germany", "100", `{ title = "Jetzt kaufen", max_items = 5 }`)
	ruleFR = configRuleHCL("france", "50", `{ title = "Acheter", max_items = 3 }`)
)

// countRulesWrites counts the writes of the config's rules the mock received: PATCH of the config
// with {"rules": [...]} (PATCH /dynamic_configs/{id}).
func countRulesWrites(m *mockconsole.Server, id string) int {
	n := 0
	for _, r := range m.Requests() {
		if r.Method == http.MethodPatch && r.Path == "/console/v1/dynamic_configs/"+id && bytes.Contains(r.Body, []byte(`"rules"`)) {
			n++
		}
	}
	return n
}

// Apply and an empty re-plan; the service answering with keys in another order (and 5.0) plans
// nothing; one rule's return value changed plans that rule only and sends one write; a console
// change of a return value shows and apply puts it back; import plans empty; destroy empties the
// list and deletes the config.
func TestAccDynamicConfigRules_lifecycle(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := providerBlock(url) + configWithRules(ruleDE+",\n    "+ruleFR, "", "")
	changed := providerBlock(url) + configWithRules(ruleDE+",\n    "+configRuleHCL("france", "50", `{ title = "Acheter maintenant", max_items = 3 }`), "", "")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockConfig(m, "tfacc_copy"),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(configRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("return_value"),
						knownvalue.StringExact(`{"max_items":5,"title":"Jetzt kaufen"}`)),
				},
				Check: expectMockConfig(m, "tfacc_copy", func(c mockconsole.DynamicConfig) error {
					if len(c.Rules) != 2 || c.Rules[1].Name != "france" {
						return fmt.Errorf("mock rules %+v", c.Rules)
					}
					return nil
				}),
			},
			{
				PreConfig: func() {
					if err := m.ServeConfigValuesReordered("tfacc_copy", true); err != nil {
						t.Fatal(err)
					}
				},
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				PreConfig: func() {
					_ = m.ServeConfigValuesReordered("tfacc_copy", false)
					m.ResetRequests()
				},
				Config: changed,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(configRulesAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("featureconsole_dynamic_config.copy", plancheck.ResourceActionNoop),
					plansOnly(configRulesAddr, "rules.1.return_value", "rules.0.id", "rules.0.scheduled_rollouts",
						"rules.1.id", "rules.1.scheduled_rollouts"),
				}},
				Check: func(*terraform.State) error {
					if n := countRulesWrites(m, "tfacc_copy"); n != 1 {
						return fmt.Errorf("%d writes of the rules, want 1", n)
					}
					return nil
				},
			},
			{
				PreConfig: func() {
					if err := m.SetConfigRuleReturnValue("tfacc_copy", "germany", `{"title":"Edited in the console","max_items":5}`); err != nil {
						t.Fatal(err)
					}
				},
				Config: changed,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(configRulesAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(configRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("return_value"),
						knownvalue.StringExact(`{"max_items":5,"title":"Jetzt kaufen"}`)),
				}},
				Check: expectMockConfig(m, "tfacc_copy", func(c mockconsole.DynamicConfig) error {
					if !sameJSONText(marshalAny(c.Rules[0].ReturnValue), []byte(`{"title":"Jetzt kaufen","max_items":5}`)) {
						return fmt.Errorf("return value %v", c.Rules[0].ReturnValue)
					}
					return nil
				}),
			},
			{
				Config: changed, ResourceName: configRulesAddr,
				ImportState: true, ImportStateId: "tfacc_copy", ImportStateVerify: true,
				ImportStateVerifyIdentifierAttribute: "config_id",
				ImportStateVerifyIgnore:              []string{"timeouts"},
			},
		},
	})
}

// Bad input fails the plan naming the rule, the JSON path and the fix, and nothing is sent: a
// return value that breaks the schema (the schema of the same plan, and the one the service holds),
// a value that is not an object, duplicate names, percentages out of range.
func TestAccDynamicConfigRules_badInput(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	m.PutDynamicConfig(mockconsole.DynamicConfig{ID: "tfacc_held", Schema: []byte(`{"type":"object","required":["color"]}`)})
	held := func(rules string) string {
		return fmt.Sprintf(`
resource "featureconsole_dynamic_config_rules" "held" {
  config_id = "tfacc_held"
  rules     = [%s]
}
`, rules)
	}
	cases := []struct{ config, want string }{
		{configWithRules(ruleDE+", "+configRuleHCL("france", "50", `{ title = 7, max_items = 0 }`)+", "+configRuleHCL("spain", "10", `{ max_items = 2 }`), "", ""),
			`(?s)Return value of rule "france" breaks the schema.*rules\[1\]\.return_value.*at /max_items: minimum.*at /title: got number, want string.*Return value of rule "spain" breaks the schema.*at \(the whole value\): missing property 'title'`},
		{held(`{ name = "all", pass_percentage = 100, return_value = jsonencode({ size = 1 }) }`),
			`(?s)Return value of rule "all" breaks the schema.*the\s+schema\s+the\s+service\s+holds.*missing property 'color'`},
		{held(`{ name = "all", pass_percentage = 100, return_value = jsonencode([1]) }`), `(?s)not a JSON object.*jsonencode\(\{`},
		{held(`{ name = "a", pass_percentage = 100 }, { name = "a", pass_percentage = 1 }`), `(?s)Duplicate rule name.*rules\[0\] and rules\[1\]`},
		{held(`{ name = "a", pass_percentage = 100.5 }`), `(?s)pass_percentage`},
		{held(`{ name = "a", pass_percentage = 12.345 }`), `(?s)pass_percentage`},
	}
	planFailsSendingNothing(t, m, url, cases)
}

// A rules write to a config attached to a pipeline starts a run (said in a warning); with
// on_active_run = "abort" the next change supersedes the run without an inconsistent result; one
// terraform destroy mid-run leaves nothing.
func TestAccDynamicConfigRules_runs(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.SetRunSpeed(0) // runs stay where they are
	attached := `release_pipeline_id = "pl_web"`
	first := providerBlock(url) + configWithRules(ruleDE, attached, `on_active_run = "abort"`)
	second := providerBlock(url) + configWithRules(ruleDE+", "+ruleFR, attached, `on_active_run = "abort"`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if _, ok := m.DynamicConfig("tfacc_copy"); ok {
				return fmt.Errorf("the config is still in the mock")
			}
			for _, id := range m.ConfigRuns("tfacc_copy") {
				if r, _ := m.Run(id); r.Status != mockconsole.RunAborted && r.Status != mockconsole.RunCompleted {
					return fmt.Errorf("run %s is still %s", id, r.Status)
				}
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: first,
				Check: func(*terraform.State) error {
					runs := m.ConfigRuns("tfacc_copy")
					if len(runs) != 1 {
						return fmt.Errorf("runs %v, want one", runs)
					}
					if r, _ := m.Run(runs[0]); r.DynamicConfigID != "tfacc_copy" || r.Status != mockconsole.RunWaitingForReview {
						return fmt.Errorf("run %+v", r)
					}
					return nil
				},
			},
			{
				Config: second,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(configRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("base_id")),
				}},
				Check: func(*terraform.State) error {
					runs := m.ConfigRuns("tfacc_copy")
					if len(runs) != 2 {
						return fmt.Errorf("runs %v, want two", runs)
					}
					if r, _ := m.Run(runs[1]); r.Status != mockconsole.RunAborted {
						return fmt.Errorf("the first run is %s, want aborted", r.Status)
					}
					if c, _ := m.DynamicConfig("tfacc_copy"); len(c.Rules) != 2 {
						return fmt.Errorf("rules %+v", c.Rules)
					}
					return nil
				},
			},
		},
	})
}

func marshalAny(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// A change of a config's rules held for review is never reported as applied: the apply ends with an
// error naming the review, nothing is saved; once the review is approved, the next apply finds the
// rules in place and writes nothing, and the plan after it is empty.
func TestAccDynamicConfigRules_review(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	h := m.Habits()
	h.Reviews, h.ReviewCommits = true, false
	m.SetHabits(h)
	m.PutDynamicConfig(mockconsole.DynamicConfig{ID: "tfacc_reviewed"})
	cfg := providerBlock(url, "respect_review_settings = true") + `
resource "featureconsole_dynamic_config_rules" "r" {
  config_id = "tfacc_reviewed"
  rules     = [{ name = "all", pass_percentage = 100, return_value = jsonencode({ a = 1 }) }]
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      cfg,
				ExpectError: regexp.MustCompile(`(?s)awaits review.*rev_`),
				Check: expectMockConfig(m, "tfacc_reviewed", func(c mockconsole.DynamicConfig) error {
					if len(c.Rules) != 0 {
						return fmt.Errorf("a held change was applied: %+v", c.Rules)
					}
					return nil
				}),
			},
			{
				PreConfig: func() {
					if c, _ := m.DynamicConfig("tfacc_reviewed"); len(c.Rules) != 0 {
						t.Fatalf("a held change was applied: %+v", c.Rules)
					}
					if err := m.ApproveAllReviews(); err != nil {
						t.Fatal(err)
					}
					m.ResetRequests()
				},
				Config: cfg,
				Check: func(*terraform.State) error {
					if n := countRulesWrites(m, "tfacc_reviewed"); n != 0 {
						return fmt.Errorf("the approved change was written again (%d writes)", n)
					}
					return nil
				},
			},
			{
				// A destroy held for review keeps the resource; the destroy after approval sends nothing.
				Config:      providerBlock(url, "respect_review_settings = true"),
				ExpectError: regexp.MustCompile(`(?s)Removal of the rules of dynamic config "tfacc_reviewed" awaits review`),
			},
			{
				PreConfig: func() {
					if err := m.ApproveAllReviews(); err != nil {
						t.Fatal(err)
					}
				},
				Config: providerBlock(url, "respect_review_settings = true"),
				Check: expectMockConfig(m, "tfacc_reviewed", func(c mockconsole.DynamicConfig) error {
					if len(c.Rules) != 0 {
						return fmt.Errorf("rules left after the approved removal: %+v", c.Rules)
					}
					return nil
				}),
			},
		},
	})
}

// A schema change that a return value the config already holds breaks fails the plan, naming the
// rule and the path, and nothing is sent.
func TestAccDynamicConfigRules_schemaChangeBreaksHeldValues(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	narrower := strings.Replace(configWithRules(ruleDE, "", ""), `title = { type = "string" }`, `title = { type = "string", maxLength = 8 }`, 1)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: providerBlock(url) + configWithRules(ruleDE, "", "")},
			{
				PreConfig: m.ResetRequests,
				Config:    providerBlock(url) + narrower, PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Return value of rule "germany" breaks the schema.*rules\[0\]\s+as\s+dynamic\s+config\s+"tfacc_copy"\s+holds\s+it.*at /title: maxLength: got 12, want 8.*Schema change breaks values the config holds`),
			},
			{
				PreConfig: func() {
					for _, r := range m.Requests() {
						if r.Method != http.MethodGet {
							t.Errorf("the refused plan sent %s %s", r.Method, r.Path)
						}
					}
				},
				Config: providerBlock(url) + configWithRules(ruleDE, "", ""),
			},
		},
	})
}

// Reviews as for gates: a change held for review is not sent again while its review is pending;
// once approved, the next apply commits the review instead of sending the change again.
func TestAccDynamicConfigRules_reviewCommit(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.PutDynamicConfig(mockconsole.DynamicConfig{ID: "tfacc_reviewed"})
	cfg := func(v int) string {
		return providerBlock(url, "respect_review_settings = true") + fmt.Sprintf(`
resource "featureconsole_dynamic_config_rules" "r" {
  config_id = "tfacc_reviewed"
  rules     = [{ name = "all", pass_percentage = 100, return_value = jsonencode({ a = %d }) }]
}
`, v)
	}
	setReviews := func(on bool) {
		h := m.Habits()
		h.Reviews, h.ReviewCommits = on, on
		m.SetHabits(h)
	}
	commits := func() int { return m.CountRequests(http.MethodPut, "/dynamic_configs/tfacc_reviewed/reviews/") }
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{PreConfig: func() { setReviews(false) }, Config: cfg(1)},
			{
				PreConfig:   func() { setReviews(true) },
				Config:      cfg(2),
				ExpectError: regexp.MustCompile(`(?s)Change to the rules of dynamic config "tfacc_reviewed" awaits review`),
			},
			{
				PreConfig:   m.ResetRequests,
				Config:      cfg(2),
				ExpectError: regexp.MustCompile(`(?s)still awaits review.*nothing was sent again`),
				Check: func(*terraform.State) error {
					if n := countRulesWrites(m, "tfacc_reviewed"); n != 0 {
						return fmt.Errorf("the pending change was sent again (%d writes)", n)
					}
					return nil
				},
			},
			{
				PreConfig: func() {
					if n := countRulesWrites(m, "tfacc_reviewed"); n != 0 {
						t.Errorf("the pending change was sent again (%d writes)", n)
					}
					if err := m.ApproveAllReviews(); err != nil {
						t.Fatal(err)
					}
					m.ResetRequests()
				},
				Config: cfg(2),
				Check: func(*terraform.State) error {
					if n := countRulesWrites(m, "tfacc_reviewed"); n != 0 || commits() != 1 {
						return fmt.Errorf("%d writes and %d commits: want the review committed, nothing sent again", n, commits())
					}
					return expectMockConfig(m, "tfacc_reviewed", func(c mockconsole.DynamicConfig) error {
						if len(c.Rules) != 1 || !sameJSONText(marshalAny(c.Rules[0].ReturnValue), []byte(`{"a":2}`)) {
							return fmt.Errorf("rules %+v", c.Rules)
						}
						return nil
					})(nil)
				},
			},
			{PreConfig: func() { setReviews(false) }, Config: cfg(2)},
		},
	})
}
