package provider

import (
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

const gateRulesAddr = "featureconsole_gate_rules.checkout"

// gateRulesConfig is a featureconsole_gate_rules "checkout" resource with the given rules HCL.
func gateRulesConfig(url, gateID, rules string) string {
	return providerBlock(url) + fmt.Sprintf(`
resource "featureconsole_gate_rules" "checkout" {
  gate_id = %q
  rules = [%s]
}
`, gateID, rules)
}

// The DESIGN §4 example.
const designExampleRules = `
    {
      name            = "employees"
      pass_percentage = 100
      environments    = ["production"]
      conditions = [
        { type = "email", operator = "str_contains_any", target_value = ["@example.com"] },
        { type = "custom_field", field = "age", operator = "gt", target_numbers = [18] },
      ]
      return_value = jsonencode({ color = "blue" })
    },
`

// employeesLine is the DESIGN example's rule as the mock holds it.
const employeesLine = `employees|100|["production"]|[{"type":"email","operator":"str_contains_any","targetValue":["@example.com"],"field":"","customID":""},` +
	`{"type":"custom_field","operator":"gt","targetValue":[18],"field":"age","customID":""}]|{"color":"blue"}`

func ruleHCL(name, pct string, extra ...string) string {
	return fmt.Sprintf("\n    {\n      name = %q\n      pass_percentage = %s\n      %s\n    },", name, pct, strings.Join(extra, "\n      "))
}

// mockRuleLines renders the mock's rules of a gate the way the service holds them, one
// name|percentage|environments|conditions|returnValue line per rule.
func mockRuleLines(m *mockconsole.Server, gateID string) ([]string, bool) {
	g, ok := m.Gate(gateID)
	if !ok {
		return nil, false
	}
	out := make([]string, len(g.Rules))
	for i, r := range g.Rules {
		envs, _ := json.Marshal(r.Environments)
		conds, _ := json.Marshal(r.Conditions)
		rv, _ := json.Marshal(r.ReturnValue)
		out[i] = fmt.Sprintf("%s|%v|%s|%s|%s", r.Name, r.PassPercentage, envs, conds, rv)
	}
	return out, true
}

func checkMockRules(m *mockconsole.Server, gateID string, want ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, ok := mockRuleLines(m, gateID)
		if !ok {
			return fmt.Errorf("gate %q not in the mock", gateID)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			return fmt.Errorf("mock rules of %q:\n%s\nwant:\n%s", gateID, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		return nil
	}
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

// checkGateHasNoRules is the CheckDestroy of every test: destroy leaves the gate, without rules.
func checkGateHasNoRules(m *mockconsole.Server, gateID string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		g, ok := m.Gate(gateID)
		if !ok {
			return fmt.Errorf("gate %q was deleted; destroy must only remove its rules", gateID)
		}
		if len(g.Rules) != 0 {
			return fmt.Errorf("gate %q still has %d rules after destroy", gateID, len(g.Rules))
		}
		return nil
	}
}

// ruleIdentity asserts, in a plan, how the rule named name relates to the same-named rule of the
// prior state: idKept means its id is known and unchanged (else unknown); baseKept means its
// base_id is known and unchanged (else unknown, for a new rule).
type ruleIdentity struct {
	name             string
	idKept, baseKept bool
}

func (c ruleIdentity) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != gateRulesAddr {
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
	resp.Error = fmt.Errorf("no planned change for %s", gateRulesAddr)
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

func TestAccGateRules_lifecycle(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	var seedBase map[string]string

	threeRules := func(betaPct string) string {
		return designExampleRules +
			ruleHCL("beta", betaPct, `conditions = [{ type = "country", operator = "any", target_value = ["DE", "FR"] }]`) +
			ruleHCL("everyone", "0")
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkGateHasNoRules(m, "new_checkout"),
		Steps: []resource.TestStep{
			{
				// Create on a gate that has rules: the rule named like a seeded one ("beta") is a new
				// rule, since create matches nothing (there is no prior state).
				PreConfig: func() { seedBase = mockBaseIDs(m, "new_checkout") },
				Config:    gateRulesConfig(url, "new_checkout", threeRules("12.5")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(gateRulesAddr, plancheck.ResourceActionCreate),
						plancheck.ExpectUnknownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("id")),
						plancheck.ExpectUnknownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("base_id")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("id"), knownvalue.StringExact("new_checkout")),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("description"), knownvalue.StringExact("The new checkout flow")),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("is_enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("tags"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("checkout"), knownvalue.StringExact("web")})),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("last_modifier_name"), knownvalue.StringExact("Console API")),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules"), knownvalue.ListSizeExact(3)),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("conditions").AtSliceIndex(1).AtMapKey("target_numbers"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.Int64Exact(18)})),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("conditions").AtSliceIndex(1).AtMapKey("target_value"), knownvalue.Null()),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(1).AtMapKey("pass_percentage"), knownvalue.Float64Exact(12.5)),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(2).AtMapKey("environments"), knownvalue.Null()),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(2).AtMapKey("conditions"), knownvalue.Null()),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(2).AtMapKey("return_value"), knownvalue.Null()),
				},
				Check: resource.ComposeTestCheckFunc(
					checkMockRules(m, "new_checkout",
						employeesLine,
						`beta|12.5|null|[{"type":"country","operator":"any","targetValue":["DE","FR"],"field":"","customID":""}]|{}`,
						`everyone|0|null|[]|{}`,
					),
					func(*terraform.State) error {
						now := mockBaseIDs(m, "new_checkout")
						if now["beta"] == seedBase["beta"] {
							return fmt.Errorf("create adopted the seeded rule's base id")
						}
						if n := m.CountRequests(http.MethodPatch, "/gates/"); n != 1 {
							return fmt.Errorf("%d PATCH requests, want 1", n)
						}
						return nil
					},
				),
			},
			{
				// Edit one percentage: only that rule's id changes.
				PreConfig: func() { seedBase = mockBaseIDs(m, "new_checkout") },
				Config:    gateRulesConfig(url, "new_checkout", threeRules("33.33")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(gateRulesAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(1).AtMapKey("id")),
						ruleIdentity{name: "beta", idKept: false, baseKept: true},
						ruleIdentity{name: "employees", idKept: true, baseKept: true},
						ruleIdentity{name: "everyone", idKept: true, baseKept: true},
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(1).AtMapKey("pass_percentage"), knownvalue.Float64Exact(33.33)),
				},
				Check: func(*terraform.State) error {
					if got := mockBaseIDs(m, "new_checkout"); fmt.Sprint(got) != fmt.Sprint(seedBase) {
						return fmt.Errorf("base ids changed: %v, were %v", got, seedBase)
					}
					return checkMockRules(m, "new_checkout", employeesLine,
						`beta|33.33|null|[{"type":"country","operator":"any","targetValue":["DE","FR"],"field":"","customID":""}]|{}`,
						`everyone|0|null|[]|{}`)(nil)
				},
			},
			{
				// Insert a rule at the top: the others keep base_id and id.
				PreConfig: func() { seedBase = mockBaseIDs(m, "new_checkout") },
				Config:    gateRulesConfig(url, "new_checkout", ruleHCL("vip", "100", `conditions = [{ type = "user_id", operator = "any", target_value = ["1"] }]`)+threeRules("33.33")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(gateRulesAddr, plancheck.ResourceActionUpdate),
						ruleIdentity{name: "vip", idKept: false, baseKept: false},
						ruleIdentity{name: "employees", idKept: true, baseKept: true},
						ruleIdentity{name: "beta", idKept: true, baseKept: true},
						ruleIdentity{name: "everyone", idKept: true, baseKept: true},
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error {
					got := mockBaseIDs(m, "new_checkout")
					for name, base := range seedBase {
						if got[name] != base {
							return fmt.Errorf("rule %q base id %q, was %q", name, got[name], base)
						}
					}
					if g, _ := m.Gate("new_checkout"); g.Rules[0].Name != "vip" {
						return fmt.Errorf("first rule %q, want vip", g.Rules[0].Name)
					}
					return nil
				},
			},
			{
				// Reorder: nothing but positions change.
				PreConfig: func() { seedBase = mockBaseIDs(m, "new_checkout") },
				Config: gateRulesConfig(url, "new_checkout", ruleHCL("everyone", "0")+
					ruleHCL("beta", "33.33", `conditions = [{ type = "country", operator = "any", target_value = ["DE", "FR"] }]`)+
					designExampleRules+
					ruleHCL("vip", "100", `conditions = [{ type = "user_id", operator = "any", target_value = ["1"] }]`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(gateRulesAddr, plancheck.ResourceActionUpdate),
						ruleIdentity{name: "vip", idKept: true, baseKept: true},
						ruleIdentity{name: "employees", idKept: true, baseKept: true},
						ruleIdentity{name: "beta", idKept: true, baseKept: true},
						ruleIdentity{name: "everyone", idKept: true, baseKept: true},
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error {
					g, _ := m.Gate("new_checkout")
					var names []string
					for _, r := range g.Rules {
						names = append(names, r.Name)
						if r.BaseID != seedBase[r.Name] {
							return fmt.Errorf("rule %q changed base id", r.Name)
						}
					}
					if strings.Join(names, ",") != "everyone,beta,employees,vip" {
						return fmt.Errorf("mock order %v", names)
					}
					return nil
				},
			},
			{
				ResourceName:      gateRulesAddr,
				ImportState:       true,
				ImportStateId:     "new_checkout",
				ImportStateVerify: true,
			},
			{
				// Remove two rules.
				Config: gateRulesConfig(url, "new_checkout", designExampleRules),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{ruleIdentity{name: "employees", idKept: true, baseKept: true}},
				},
				Check: checkMockRules(m, "new_checkout", employeesLine),
			},
			{
				// An empty list is a valid rule list.
				Config:           gateRulesConfig(url, "new_checkout", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules"), knownvalue.ListSizeExact(0)),
				},
				Check: checkMockRules(m, "new_checkout"),
			},
		},
	})
}
