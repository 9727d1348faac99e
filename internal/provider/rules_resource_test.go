// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
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

// What featureconsole_gate_rules and featureconsole_dynamic_config_rules share (rulesResource),
// proven for both: each runs the cases of rulesCases as subtests of TestAcc<Resource>_rules, so
// that -run 'TestAccDynamicConfigRules_' runs the config rules' share too.

// rulesKind is what the shared rules tests need of a rules resource.
type rulesKind struct {
	typeName string // featureconsole_gate_rules; the configuration's resource is <typeName>.checkout
	idAttr   string // gate_id
	noun     string // "Gate", as its errors start
	// seed puts an object of id without rules in the mock, made in the console; drop deletes it.
	seed func(m *mockconsole.Server, id string)
	drop func(m *mockconsole.Server, id string)
	// held is what the mock holds of the object's rules.
	held func(m *mockconsole.Server, id string) ([]mockconsole.Rule, bool)
}

var (
	gateRulesKind = rulesKind{
		typeName: "featureconsole_gate_rules", idAttr: "gate_id", noun: "Gate",
		seed: func(m *mockconsole.Server, id string) { m.PutGate(mockconsole.Gate{ID: id, IsEnabled: true}) },
		drop: func(m *mockconsole.Server, id string) { m.DeleteGate(id) },
		held: func(m *mockconsole.Server, id string) ([]mockconsole.Rule, bool) {
			g, ok := m.Gate(id)
			return g.Rules, ok
		},
	}
	configRulesKind = rulesKind{
		typeName: "featureconsole_dynamic_config_rules", idAttr: "config_id", noun: "Dynamic config",
		seed: func(m *mockconsole.Server, id string) {
			m.PutDynamicConfig(mockconsole.DynamicConfig{ID: id, IsEnabled: true, DefaultValue: json.RawMessage(`{}`)})
		},
		drop: func(m *mockconsole.Server, id string) { m.DeleteDynamicConfig(id) },
		held: func(m *mockconsole.Server, id string) ([]mockconsole.Rule, bool) {
			c, ok := m.DynamicConfig(id)
			return c.Rules, ok
		},
	}
)

func (k rulesKind) addr() string { return k.typeName + ".checkout" }

// edit changes the mock's rules of the object, as the console would.
func (k rulesKind) edit(m *mockconsole.Server, id string, f func(rules []mockconsole.Rule) []mockconsole.Rule) {
	if g, ok := m.Gate(id); ok && k.idAttr == gateIdentityAttr {
		g.Rules = f(g.Rules)
		m.PutGate(g)
	} else if c, ok := m.DynamicConfig(id); ok {
		c.Rules = f(c.Rules)
		m.PutDynamicConfig(c)
	}
}

// config is the rules resource "checkout" of object id with the given rules HCL.
func (k rulesKind) config(url, id, rules string) string {
	return providerBlock(url) + fmt.Sprintf(`
resource %q "checkout" {
  %s = %q
  rules = [%s]
}
`, k.typeName, k.idAttr, id, rules)
}

// lines renders the mock's rules of the object the way the service holds them, one
// name|percentage|environments|conditions|returnValue line per rule.
func (k rulesKind) lines(m *mockconsole.Server, id string) ([]string, bool) {
	rules, ok := k.held(m, id)
	if !ok {
		return nil, false
	}
	out := make([]string, len(rules))
	for i, r := range rules {
		envs, _ := json.Marshal(r.Environments)
		conds, _ := json.Marshal(r.Conditions)
		rv, _ := json.Marshal(r.ReturnValue)
		out[i] = fmt.Sprintf("%s|%v|%s|%s|%s", r.Name, r.PassPercentage, envs, conds, rv)
	}
	return out, true
}

// checkRules checks the mock's rules of the object, as lines renders them.
func (k rulesKind) checkRules(m *mockconsole.Server, id string, want ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, ok := k.lines(m, id)
		if !ok {
			return fmt.Errorf("%s %q not in the mock", strings.ToLower(k.noun), id)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			return fmt.Errorf("mock rules of %q:\n%s\nwant:\n%s", id, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		return nil
	}
}

// checkNoRules is the CheckDestroy of the rules tests: destroy leaves the object, without rules.
func (k rulesKind) checkNoRules(m *mockconsole.Server, id string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		rules, ok := k.held(m, id)
		if !ok {
			return fmt.Errorf("%s %q was deleted; destroy must only remove its rules", strings.ToLower(k.noun), id)
		}
		if len(rules) != 0 {
			return fmt.Errorf("%s %q still has %d rules after destroy", strings.ToLower(k.noun), id, len(rules))
		}
		return nil
	}
}

// mockRuleLines is rulesKind.lines of a gate.
func mockRuleLines(m *mockconsole.Server, gateID string) ([]string, bool) {
	return gateRulesKind.lines(m, gateID)
}

func checkMockRules(m *mockconsole.Server, gateID string, want ...string) resource.TestCheckFunc {
	return gateRulesKind.checkRules(m, gateID, want...)
}

// checkGateHasNoRules is rulesKind.checkNoRules of a gate.
func checkGateHasNoRules(m *mockconsole.Server, gateID string) resource.TestCheckFunc {
	return gateRulesKind.checkNoRules(m, gateID)
}

// mockBaseIDs maps rule names to their base ids in the mock.
func mockBaseIDs(m *mockconsole.Server, gateID string) map[string]string {
	g, _ := m.Gate(gateID)
	out := map[string]string{}
	for _, r := range g.Rules {
		out[r.Name] = r.BaseID
	}
	return out
}

var rulesCases = []struct {
	name string
	run  func(t *testing.T, k rulesKind)
}{
	{"missing", rulesMissing},
	{"drift", rulesDrift},
	{"replace", rulesReplace},
	{"unknownValues", rulesUnknownValues},
	{"import", rulesImport},
}

func TestAccGateRules_rules(t *testing.T) {
	t.Parallel()
	testAccRules(t, gateRulesKind)
}

func TestAccDynamicConfigRules_rules(t *testing.T) {
	t.Parallel()
	testAccRules(t, configRulesKind)
}

func testAccRules(t *testing.T, k rulesKind) {
	for _, c := range rulesCases {
		t.Run(c.name, func(t *testing.T) { c.run(t, k) })
	}
}

// An object that does not exist is the configuration's mistake: the error says to declare and
// reference it.
func rulesMissing(t *testing.T, k rulesKind) {
	_, url := startMock(t, mockconsole.Config{})
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: k.config(url, "no_such_object", ruleHCL("a", "10")),
			ExpectError: wrapped(fmt.Sprintf(`%s "no_such_object" does not exist`, k.noun),
				fmt.Sprintf("declare it with a %s resource", strings.TrimSuffix(k.typeName, "_rules")),
				fmt.Sprintf("%s = %s.<name>.%s", k.idAttr, strings.TrimSuffix(k.typeName, "_rules"), k.idAttr), `404 Not Found`),
		}},
	})
}

// Rules changed in the console: the refresh shows what the service holds (numbers and strings
// mixed in one condition come back as strings), and the plan reverts exactly what changed, each
// rule keeping its base id; the object deleted in the console, the plan creates the rules again and
// the apply says the object is missing; the object back, they are created on it.
func rulesDrift(t *testing.T, k rulesKind) {
	m, url := startMock(t, mockconsole.Config{})
	// Console-written targets mixing strings and numbers (the document's targetValue is a list of
	// one or the other).
	m.ServeBeyondDocument("/targetValue")
	k.seed(m, "tfacc_drift")
	cfg := k.config(url, "tfacc_drift", ruleHCL("employees", "100",
		`conditions = [{ type = "custom_field", field = "age", operator = "gt", target_numbers = [18] }]`)+ruleHCL("beta", "12.5"))
	var before []mockconsole.Rule
	addr := k.addr()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             k.checkNoRules(m, "tfacc_drift"),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check:  func(*terraform.State) error { before, _ = k.held(m, "tfacc_drift"); return nil },
			},
			{
				PreConfig: func() {
					k.edit(m, "tfacc_drift", func(rules []mockconsole.Rule) []mockconsole.Rule {
						rules[0].PassPercentage = 50
						rules[0].ID = ""
						rules[0].Conditions[0].TargetValue = []any{"18", json.Number("19.50")}
						rules[1].Environments = []string{"staging"}
						return append(rules, mockconsole.Rule{Name: "added_outside", PassPercentage: 1})
					})
				},
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "rules.#", "3"),
					resource.TestCheckResourceAttr(addr, "rules.0.pass_percentage", "50"),
					resource.TestCheckResourceAttr(addr, "rules.0.conditions.0.target_value.#", "2"),
					resource.TestCheckResourceAttr(addr, "rules.0.conditions.0.target_value.1", "19.5"),
					resource.TestCheckNoResourceAttr(addr, "rules.0.conditions.0.target_numbers.#"),
					resource.TestCheckResourceAttr(addr, "rules.1.environments.0", "staging"),
					resource.TestCheckResourceAttr(addr, "rules.2.name", "added_outside"),
				),
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						ruleIdentity{addr: addr, name: "employees", idKept: false, baseKept: true},
						ruleIdentity{addr: addr, name: "beta", idKept: false, baseKept: true},
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					k.checkRules(m, "tfacc_drift",
						`employees|100|null|[{"type":"custom_field","operator":"gt","targetValue":[18],"field":"age","customID":""}]|{}`,
						`beta|12.5|null|[]|{}`),
					func(*terraform.State) error {
						after, _ := k.held(m, "tfacc_drift")
						for i := range after {
							if after[i].BaseID != before[i].BaseID {
								return fmt.Errorf("rule %q lost its base id", after[i].Name)
							}
						}
						return nil
					},
				),
			},
			{
				PreConfig: func() { k.drop(m, "tfacc_drift") },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
				ExpectError: errRe(fmt.Sprintf(`%s "tfacc_drift" does not exist`, k.noun)),
			},
			{
				PreConfig: func() { k.seed(m, "tfacc_drift") },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// Moving the rules to another object empties the old one and fills the new one.
func rulesReplace(t *testing.T, k rulesKind) {
	m, url := startMock(t, mockconsole.Config{})
	k.seed(m, "tfacc_from")
	k.seed(m, "tfacc_to")
	rules := ruleHCL("internal", "50", `conditions = [{ type = "user_id", operator = "any", target_value = ["42"] }]`)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             k.checkNoRules(m, "tfacc_to"),
		Steps: []resource.TestStep{
			{Config: k.config(url, "tfacc_from", rules)},
			{
				Config: k.config(url, "tfacc_to", rules),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(k.addr(), plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectUnknownValue(k.addr(), tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("base_id")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					k.checkNoRules(m, "tfacc_from"),
					k.checkRules(m, "tfacc_to", `internal|50|null|[{"type":"user_id","operator":"any","targetValue":["42"],"field":"","customID":""}]|{}`),
				),
			},
		},
	})
}

// Values known only after apply: the rules they touch get unknown ids, the others keep theirs.
func rulesUnknownValues(t *testing.T, k rulesKind) {
	m, url := startMock(t, mockconsole.Config{})
	k.seed(m, "tfacc_unknown")
	rules := `
    { name = "fixed", pass_percentage = 5 },
    {
      name            = "by_country"
      pass_percentage = 50
      conditions      = [{ type = "country", operator = "any", target_value = [terraform_data.country.output] }]
    },
    { name = "only_${terraform_data.country.output}", pass_percentage = 1 },`
	cfg := func(country string) string {
		return k.config(url, "tfacc_unknown", rules) + fmt.Sprintf(`
resource "terraform_data" "country" {
  input = %q
}
`, country)
	}
	addr := k.addr()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             k.checkNoRules(m, "tfacc_unknown"),
		Steps: []resource.TestStep{
			{Config: cfg("DE")},
			{
				Config: cfg("FR"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectUnknownValue(addr, tfjsonpath.New("rules").AtSliceIndex(1).AtMapKey("conditions").AtSliceIndex(0).AtMapKey("target_value").AtSliceIndex(0)),
						ruleIdentity{addr: addr, name: "by_country", idKept: false, baseKept: true},
						ruleIdentity{addr: addr, name: "fixed", idKept: false, baseKept: true},
						plancheck.ExpectUnknownValue(addr, tfjsonpath.New("rules").AtSliceIndex(2).AtMapKey("name")),
						plancheck.ExpectUnknownValue(addr, tfjsonpath.New("rules").AtSliceIndex(2).AtMapKey("base_id")),
						plancheck.ExpectUnknownValue(addr, tfjsonpath.New("rules").AtSliceIndex(2).AtMapKey("id")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: k.checkRules(m, "tfacc_unknown", `fixed|5|null|[]|{}`,
					`by_country|50|null|[{"type":"country","operator":"any","targetValue":["FR"],"field":"","customID":""}]|{}`,
					`only_FR|1|null|[]|{}`),
			},
		},
	})
}

// Rules made in the console, imported with a configuration that says what they are: nothing to
// change, nothing sent, the service's ids kept.
func rulesImport(t *testing.T, k rulesKind) {
	m, url := startMock(t, mockconsole.Config{})
	k.seed(m, "tfacc_import")
	k.edit(m, "tfacc_import", func([]mockconsole.Rule) []mockconsole.Rule {
		return []mockconsole.Rule{{Name: "staff", PassPercentage: 100, Environments: []string{"production"},
			Conditions: []mockconsole.Condition{{Type: "email", Operator: "str_contains_any", TargetValue: []any{"@example.com"}}}}}
	})
	held, _ := k.held(m, "tfacc_import")
	addr := k.addr()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             k.checkNoRules(m, "tfacc_import"),
		Steps: []resource.TestStep{{
			Config: k.config(url, "tfacc_import", ruleHCL("staff", "100", `environments = ["production"]`,
				`conditions = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]`)) +
				fmt.Sprintf("\nimport {\n  to = %s\n  id = \"tfacc_import\"\n}\n", addr),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("base_id"), knownvalue.StringExact(held[0].BaseID)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("on_active_run"), knownvalue.StringExact("fail")),
			},
			Check: func(*terraform.State) error {
				for _, r := range m.Requests() {
					if r.Method != http.MethodGet {
						return fmt.Errorf("import sent %s %s", r.Method, r.Path)
					}
				}
				return nil
			},
		}},
	})
}

// How a plan of the rules treats their ids, checked from the plan's JSON.

// ruleIdentity asserts, in a plan, how the rule named name relates to the same-named rule of the
// prior state: idKept means its id is known and unchanged (else unknown); baseKept means its
// base_id is known and unchanged (else unknown, for a new rule).
type ruleIdentity struct {
	addr             string // the rules resource's address: gateRulesAddr when empty
	name             string
	idKept, baseKept bool
}

// ruleAddr is the address a ruleIdentity checks: the gate rules' unless it names another.
func (c ruleIdentity) ruleAddr() string { return cmp.Or(c.addr, gateRulesAddr) }

func (c ruleIdentity) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.ruleAddr() {
			continue
		}
		before := ruleByName(rc.Change.Before, c.name)
		after := ruleByName(rc.Change.After, c.name)
		idx := ruleIndex(rc.Change.After, c.name)
		if idx < 0 {
			resp.Error = fmt.Errorf("rule %q not in the planned rules", c.name)
			return
		}
		for _, k := range []struct {
			attr string
			kept bool
		}{{"id", c.idKept}, {"base_id", c.baseKept}} {
			unknown := afterUnknown(rc.Change.AfterUnknown, idx, k.attr)
			switch {
			case k.kept && unknown:
				resp.Error = fmt.Errorf("rule %q: %s is unknown in the plan, want it kept", c.name, k.attr)
				return
			case k.kept && (before == nil || after[k.attr] != before[k.attr] || after[k.attr] == nil):
				resp.Error = fmt.Errorf("rule %q: planned %s %v, prior %v", c.name, k.attr, after[k.attr], before)
				return
			case !k.kept && !unknown:
				resp.Error = fmt.Errorf("rule %q: %s is known (%v) in the plan, want unknown", c.name, k.attr, after[k.attr])
				return
			}
		}
		return
	}
	resp.Error = fmt.Errorf("no planned change for %s", c.ruleAddr())
}

func ruleIndex(obj any, name string) int {
	m, _ := obj.(map[string]any)
	rules, _ := m["rules"].([]any)
	for i, r := range rules {
		if rm, _ := r.(map[string]any); rm["name"] == name {
			return i
		}
	}
	return -1
}

func ruleByName(obj any, name string) map[string]any {
	i := ruleIndex(obj, name)
	if i < 0 {
		return nil
	}
	return obj.(map[string]any)["rules"].([]any)[i].(map[string]any)
}

func afterUnknown(au any, idx int, attr string) bool {
	m, _ := au.(map[string]any)
	switch rules := m["rules"].(type) {
	case bool:
		return rules
	case []any:
		if idx >= len(rules) {
			return false
		}
		switch r := rules[idx].(type) {
		case bool:
			return r
		case map[string]any:
			b, _ := r[attr].(bool)
			return b
		}
	}
	return false
}
