// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	fwschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
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

func TestAccGateRules_lifecycle(t *testing.T) {
	t.Parallel()
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
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("on_active_run"), knownvalue.StringExact("fail")),
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
						// Taking over the gate keeps the identity of the rule it already had under that name.
						if now["beta"] != seedBase["beta"] {
							return fmt.Errorf("create gave the seeded rule %q a new base id %q", seedBase["beta"], now["beta"])
						}
						if n := m.CountRequests(http.MethodPatch, "/gates/"); n != 1 {
							return fmt.Errorf("%d PATCH requests, want 1", n)
						}
						return nil
					},
				),
			},
			{
				// Edit one percentage: base ids are kept; ids are the service's and unknown in the plan of a write.
				PreConfig: func() { seedBase = mockBaseIDs(m, "new_checkout") },
				Config:    gateRulesConfig(url, "new_checkout", threeRules("33.33")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(gateRulesAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(1).AtMapKey("id")),
						ruleIdentity{name: "beta", idKept: false, baseKept: true},
						ruleIdentity{name: "employees", idKept: false, baseKept: true},
						ruleIdentity{name: "everyone", idKept: false, baseKept: true},
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
				// Insert a rule at the top: the others keep base_id (ids are unknown until the write).
				PreConfig: func() { seedBase = mockBaseIDs(m, "new_checkout") },
				Config:    gateRulesConfig(url, "new_checkout", ruleHCL("vip", "100", `conditions = [{ type = "user_id", operator = "any", target_value = ["1"] }]`)+threeRules("33.33")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(gateRulesAddr, plancheck.ResourceActionUpdate),
						ruleIdentity{name: "vip", idKept: false, baseKept: false},
						ruleIdentity{name: "employees", idKept: false, baseKept: true},
						ruleIdentity{name: "beta", idKept: false, baseKept: true},
						ruleIdentity{name: "everyone", idKept: false, baseKept: true},
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
						ruleIdentity{name: "vip", idKept: false, baseKept: true},
						ruleIdentity{name: "employees", idKept: false, baseKept: true},
						ruleIdentity{name: "beta", idKept: false, baseKept: true},
						ruleIdentity{name: "everyone", idKept: false, baseKept: true},
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
				ResourceName:            gateRulesAddr,
				ImportState:             true,
				ImportStateId:           "new_checkout",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: numbersLostOnImport(t, "rules.2.conditions.1.target_"),
			},
			{
				// Remove two rules.
				Config: gateRulesConfig(url, "new_checkout", designExampleRules),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{ruleIdentity{name: "employees", idKept: false, baseKept: true}},
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

func lastPatchBody(m *mockconsole.Server) string {
	reqs := m.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if reqs[i].Method == http.MethodPatch {
			return string(reqs[i].Body)
		}
	}
	return ""
}

func TestAccGateRules_exactRoundTrip(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	rules := ruleHCL("numbers", "0.1",
		`environments = []`,
		`conditions = [{ type = "custom_field", field = "score", operator = "any", target_numbers = [12.5, 100, 0.1, -3, 1e3, 0.30] }]`,
		`return_value = "{}"`,
	) + ruleHCL("empties", "33.33",
		`conditions = []`,
		`return_value = "{ \"b\": 1, \"a\": { \"y\": 2.50, \"x\": [1, \"1\"] } }"`,
	) + ruleHCL("targets", "100",
		`conditions = [
        { type = "user_id", operator = "any", target_value = [] },
        { type = "unit_id", custom_id = "stableID", operator = "is_null" },
        { type = "app_version", operator = "version_gte", target_value = ["1.2.0", "10"] },
        { type = "custom_field", field = "n", operator = "eq", target_numbers = [] },
      ]`,
	)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkGateHasNoRules(m, "dark_mode"),
		Steps: []resource.TestStep{
			{
				Config: gateRulesConfig(url, "dark_mode", rules),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("pass_percentage"), knownvalue.Float64Exact(0.1)),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("environments"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("return_value"), knownvalue.StringExact("{}")),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(1).AtMapKey("conditions"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(1).AtMapKey("environments"), knownvalue.Null()),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(1).AtMapKey("return_value"),
						knownvalue.StringExact(`{ "b": 1, "a": { "y": 2.50, "x": [1, "1"] } }`)),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(2).AtMapKey("conditions").AtSliceIndex(0).AtMapKey("target_value"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(2).AtMapKey("conditions").AtSliceIndex(1).AtMapKey("target_value"), knownvalue.Null()),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(2).AtMapKey("conditions").AtSliceIndex(1).AtMapKey("field"), knownvalue.Null()),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(2).AtMapKey("conditions").AtSliceIndex(2).AtMapKey("target_value"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("1.2.0"), knownvalue.StringExact("10")})),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(2).AtMapKey("conditions").AtSliceIndex(3).AtMapKey("target_numbers"), knownvalue.ListSizeExact(0)),
				},
				Check: resource.ComposeTestCheckFunc(
					checkMockRules(m, "dark_mode",
						`numbers|0.1|null|[{"type":"custom_field","operator":"any","targetValue":[12.5,100,0.1,-3,1000,0.3],"field":"score","customID":""}]|{}`,
						`empties|33.33|null|[]|{"a":{"x":[1,"1"],"y":2.50},"b":1}`,
						`targets|100|null|[{"type":"user_id","operator":"any","targetValue":[],"field":"","customID":""},`+
							`{"type":"unit_id","operator":"is_null","targetValue":[],"field":"","customID":"stableID"},`+
							`{"type":"app_version","operator":"version_gte","targetValue":["1.2.0","10"],"field":"","customID":""},`+
							`{"type":"custom_field","operator":"eq","targetValue":[],"field":"n","customID":""}]|{}`,
					),
					func(*terraform.State) error {
						// Numbers go out as JSON numbers, strings as strings, in the user's order.
						body := lastPatchBody(m)
						for _, want := range []string{`"targetValue":[12.5,100,0.1,-3,1000,0.3]`, `"targetValue":["1.2.0","10"]`, `"passPercentage":0.1`, `"passPercentage":33.33`} {
							if !strings.Contains(body, want) {
								return fmt.Errorf("PATCH body lacks %s: %s", want, body)
							}
						}
						return nil
					},
				),
			},
			{
				// Same content in another form: no change to plan.
				Config: gateRulesConfig(url, "dark_mode", rules),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// The documented example (the DESIGN §4 example) applies, and imports into a state whose next plan is empty.
func TestAccGateRules_importExample(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	example, err := os.ReadFile("../../examples/resources/featureconsole_gate_rules/resource.tf")
	if err != nil {
		t.Fatal(err)
	}
	cfg := providerBlock(url) + string(example)
	tc := resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkGateHasNoRules(m, "new_checkout"),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check:  checkMockRules(m, "new_checkout", employeesLine),
			},
			{
				ResourceName:            gateRulesAddr,
				ImportState:             true,
				ImportStateId:           "new_checkout",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: numbersLostOnImport(t, "rules.0.conditions.1.target_"),
			},
		},
	}
	if !envHabits(t).StringTargets { // see numbersLostOnImport: that import plans one update
		tc.Steps = append(tc.Steps, resource.TestStep{
			// An import block with the DESIGN example: a no-op plan.
			ResourceName:    gateRulesAddr,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithID,
			ImportStateId:   "new_checkout",
		})
	}
	resource.Test(t, tc)
}

// The seeded gate, imported with a configuration that says what it holds: nothing to change.
func TestAccGateRules_importSeeded(t *testing.T) {
	t.Parallel()
	if envHabits(t).StringTargets {
		t.Skip("the mock holds target_numbers = [18] as [\"18\"]: an import reads it into target_value and plans one update (numbersLostOnImport)")
	}
	m, url := startMock(t, mockconsole.Config{})
	before, _ := m.Gate("new_checkout")
	cfg := gateRulesConfig(url, "new_checkout", ruleHCL("employees", "100",
		`environments = ["production"]`,
		`conditions = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]`,
	)+ruleHCL("beta", "12.5",
		`conditions = [{ type = "custom_field", field = "age", operator = "gt", target_numbers = [18] }]`,
		`return_value = jsonencode({ size = 3, color = "blue" })`,
	)) + `
import {
  to = featureconsole_gate_rules.checkout
  id = "new_checkout"
}
`
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkGateHasNoRules(m, "new_checkout"),
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(gateRulesAddr, plancheck.ResourceActionNoop)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("base_id"), knownvalue.StringExact(before.Rules[0].BaseID)),
				statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(1).AtMapKey("id"), knownvalue.StringExact(before.Rules[1].ID)),
				statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("on_active_run"), knownvalue.StringExact("fail")),
			},
			Check: func(*terraform.State) error {
				if n := m.CountRequests(http.MethodPatch, "/gates/"); n != 0 {
					return fmt.Errorf("import sent %d PATCH requests", n)
				}
				return nil
			},
		}},
	})
}

func TestAccGateRules_validation(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	cases := []struct {
		name, rules, want string
	}{
		{"above 100", ruleHCL("a", "100.5"), `rules[0].pass_percentage must be between 0 and 100, got 100.5`},
		{"negative", ruleHCL("a", "50") + ruleHCL("b", "-1"), `rules[1].pass_percentage must be between 0 and 100, got -1`},
		{"three decimals", ruleHCL("a", "50") + ruleHCL("b", "12.345"), `rules[1].pass_percentage may have at most two decimals`},
		{"duplicate names", ruleHCL("a", "50") + ruleHCL("b", "1") + ruleHCL("a", "2"), `rules[0] and rules[2] are both named "a"`},
		{"empty name", ruleHCL("", "50"), `rules[0].name must not be empty`},
		{"blank name", ruleHCL("a", "5") + ruleHCL("  ", "50"), `rules[1].name must not be empty`},
		{"both targets", ruleHCL("a", "50", `conditions = [{ type = "user_id", target_value = ["1"], target_numbers = [1] }]`),
			`"rules[0].conditions[0].target_numbers" cannot be specified when "rules[0].conditions[0].target_value" is specified`},
		{"both targets, second condition of the second rule", ruleHCL("a", "50") + ruleHCL("b", "5",
			`conditions = [{ type = "user_id", target_value = ["1"] }, { type = "user_id", target_value = ["2"], target_numbers = [2] }]`),
			`"rules[1].conditions[1].target_numbers" cannot be specified when "rules[1].conditions[1].target_value" is specified`},
		{"return value array", ruleHCL("a", "50", `return_value = jsonencode(["blue"])`), `rules[0].return_value must be a JSON object`},
		{"return value string", ruleHCL("a", "50", `return_value = jsonencode("blue")`), `rules[0].return_value must be a JSON object`},
		{"return value not JSON", ruleHCL("a", "50", `return_value = "{color"`), `Invalid JSON String Value`},
		// A bare value, as a user first writes it: the error says how to write the object.
		{"return value a bare string", ruleHCL("a", "50", `return_value = "blue"`),
			`rules[0].return_value must be a JSON object, written with jsonencode({...}), such as return_value = jsonencode({ color = "blue" }); got blue, which is not JSON`},
		{"empty type", ruleHCL("a", "50", `conditions = [{ type = "", operator = "any" }]`), `rules[0].conditions[0].type must not be empty`},
		{"empty operator", ruleHCL("a", "50", `conditions = [{ type = "user_id", operator = "" }]`), `rules[0].conditions[0].operator`},
		// A near miss of a known type or operator is refused with the one meant; others only warn.
		{"type mistyped", ruleHCL("a", "50", `conditions = [{ type = "emial", operator = "any", target_value = ["x"] }]`),
			`rules[0].conditions[0].type: unknown condition type "emial": did you mean "email"? The condition types the service documents are: app_version,`},
		{"operator in another case", ruleHCL("a", "50") + ruleHCL("b", "5", `conditions = [{ type = "app_version", operator = "Version_GT", target_value = ["2"] }]`),
			`rules[1].conditions[0].operator: unknown condition operator "Version_GT": did you mean "version_gt"?`},
		// The service's own fields are read-only: a schedule or an id is never written from configuration.
		{"schedule set", ruleHCL("a", "50", `scheduled_rollouts = [{ time = "2030-01-01T00:00:00Z", pass_percentage = 60, done = false }]`),
			`Invalid Configuration for Read-Only Attribute`},
		{"base id set", ruleHCL("a", "50", `base_id = ""`), `Invalid Configuration for Read-Only Attribute`},
	}
	var steps []resource.TestStep
	for _, c := range cases {
		steps = append(steps, resource.TestStep{
			Config:      gateRulesConfig(url, "new_checkout", c.rules),
			ExpectError: errRe(c.want),
		})
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
	if reqs := m.Requests(); len(reqs) != 0 {
		t.Errorf("invalid configurations sent %d requests, first %s %s", len(reqs), reqs[0].Method, reqs[0].Path)
	}
}

// Undocumented condition types and operators only warn: the service decides.
func TestAccGateRules_undocumentedConditionWarns(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	// A service newer than the document takes a condition type the document's list lacks.
	m.ServeBeyondDocument("/type: value is not one of the allowed values")
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkGateHasNoRules(m, "search_v2"),
		Steps: []resource.TestStep{{
			Config: gateRulesConfig(url, "search_v2", ruleHCL("future", "10",
				`conditions = [{ type = "shiny_new_type", operator = "fancy_op", target_value = ["x"] }]`)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			Check: checkMockRules(m, "search_v2",
				`future|10|null|[{"type":"shiny_new_type","operator":"fancy_op","targetValue":["x"],"field":"","customID":""}]|{}`),
		}},
	})
}

func TestGateRulesFlattenGateKeepsConfigForms(t *testing.T) {
	ctx := context.Background()
	hint := testRule(t, "a", "0.1")
	hint.Environments = types.ListValueMust(types.StringType, nil)
	hint.Conditions = types.ListValueMust(ruleConditionObjectType, nil)
	hint.ReturnValue = framework.NewJSONValue(`{}`)
	hintB := testRule(t, "b", "1")
	hintB.ReturnValue = framework.NewJSONValue(`{"z": 1, "y": 2}`)
	g := &console.Gate{ID: "g", Rules: []console.Rule{
		{ID: "2", BaseID: "B", Name: "b", PassPercentage: 1, ReturnValue: json.RawMessage(`{"y":2,"z":1}`)},
		{ID: "1", BaseID: "A", Name: "a", PassPercentage: 0.1, ReturnValue: json.RawMessage(`{}`)},
		{ID: "3", BaseID: "C", Name: "c", PassPercentage: 5, Conditions: []console.Condition{}, ReturnValue: json.RawMessage(`{}`)},
	}}
	m := gateRulesModel{GateID: types.StringValue("g")}
	if d := flattenGate(ctx, g, &m, []ruleModel{hint, hintB}); d.HasError() {
		t.Fatal(d)
	}
	rules, _ := ruleModels(ctx, m.Rules)
	if r := rules[1]; !r.Environments.Equal(hint.Environments) || !r.Conditions.Equal(hint.Conditions) || !r.ReturnValue.Equal(hint.ReturnValue) || !r.PassPercentage.Equal(hint.PassPercentage) {
		t.Errorf("rule a lost the configuration's forms: %+v", r)
	}
	if r := rules[0]; !r.ReturnValue.Equal(hintB.ReturnValue) {
		t.Errorf("rule b return value %s, want the configuration's %s", r.ReturnValue, hintB.ReturnValue)
	}
	if r := rules[2]; !r.Environments.IsNull() || !r.Conditions.IsNull() || !r.ReturnValue.IsNull() {
		t.Errorf("rule c without hint should read empties as null: %+v", r)
	}
	if m.OnActiveRun.ValueString() != onActiveRunFail {
		t.Errorf("on_active_run %s, want the default %q", m.OnActiveRun, onActiveRunFail)
	}
}

func TestGateRulesPassPercentageValidator(t *testing.T) {
	ctx := context.Background()
	for s, wantErr := range map[string]string{
		"0": "", "100": "", "12.5": "", "33.33": "", "0.01": "", "99.99": "",
		"100.01": "between 0 and 100", "-0.5": "between 0 and 100", "12.345": "at most two decimals", "0.001": "at most two decimals",
	} {
		resp := &validator.NumberResponse{}
		framework.PassPercentageValidator{}.ValidateNumber(ctx, validator.NumberRequest{Path: path.Root("p"), ConfigValue: hclNumber(t, s)}, resp)
		got := ""
		if resp.Diagnostics.HasError() {
			got = resp.Diagnostics.Errors()[0].Detail()
		}
		if (wantErr == "") != (got == "") || !strings.Contains(got, wantErr) {
			t.Errorf("%s: error %q, want %q", s, got, wantErr)
		}
	}
}

func TestGateRulesDocumentedValueWarns(t *testing.T) {
	ctx := context.Background()
	v := framework.KnownValue("condition type", conditionTypes, "", true)
	for s, warn := range map[string]bool{"email": false, "target_app": false, "shiny_new_type": true} {
		resp := &validator.StringResponse{}
		v.ValidateString(ctx, validator.StringRequest{Path: path.Root("type"), ConfigValue: types.StringValue(s)}, resp)
		if resp.Diagnostics.HasError() || (resp.Diagnostics.WarningsCount() == 1) != warn {
			t.Errorf("%s: diagnostics %v, want warning %v", s, resp.Diagnostics, warn)
		}
	}
}

func TestGateRulesJSONObjectValidator(t *testing.T) {
	ctx := context.Background()
	for s, wantErr := range map[string]bool{`{}`: false, `{"a":[1]}`: false, `[1]`: true, `"x"`: true, `3`: true, `null`: true, `{bad`: false} {
		resp := &validator.StringResponse{}
		framework.JSONObject().ValidateString(ctx, validator.StringRequest{Path: path.Root("r"), ConfigValue: types.StringValue(s)}, resp)
		if resp.Diagnostics.HasError() != wantErr {
			t.Errorf("%s: error %v, want %v", s, resp.Diagnostics.HasError(), wantErr)
		}
	}
}

// Pass percentages are read at two decimals, float noise dropped, so that they equal the
// configuration's and pass its validator.
func TestPercentFromFloat(t *testing.T) {
	for in, want := range map[float64]string{
		33.330000000000005: "33.33", 12.5: "12.5", 100: "100", 0: "0", 0.1 + 0.2: "0.3", 99.99: "99.99",
	} {
		got := framework.PercentFromFloat(in).ValueBigFloat().Text('f', -1)
		if got != want {
			t.Errorf("percentFromFloat(%v) = %s, want %s", in, got, want)
		}
		resp := &validator.NumberResponse{}
		framework.PassPercentageValidator{}.ValidateNumber(context.Background(), validator.NumberRequest{Path: path.Root("p"), ConfigValue: framework.PercentFromFloat(in)}, resp)
		if resp.Diagnostics.HasError() {
			t.Errorf("percentFromFloat(%v) fails the validator: %v", in, resp.Diagnostics)
		}
	}
}

// gateRulesWith is featureconsole_gate_rules configured with data.
func gateRulesWith(data *providerData) *gateRulesResource {
	r := NewGateRulesResource().(*gateRulesResource)
	r.data = data
	return r
}

// mockRuleNames is the names of the gate's rules in the mock, in order.
func mockRuleNames(m *mockconsole.Server, gateID string) string {
	g, _ := m.Gate(gateID)
	names := make([]string, len(g.Rules))
	for i, r := range g.Rules {
		names[i] = r.Name
	}
	return strings.Join(names, ",")
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

// gateRulesV0State is a state written by the provider before version 1: Terraform's state file
// after an apply of the DESIGN example's rule on new_checkout, schema version 0, with the copies.
const gateRulesV0State = "testdata/gate_rules_state_v0.json"

// v0Attributes is the resource's attributes in that state, as Terraform hands them to the provider.
func v0Attributes(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(gateRulesV0State)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Instances []struct {
				SchemaVersion int             `json:"schema_version"`
				Attributes    json.RawMessage `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	inst := st.Resources[0].Instances[0]
	if inst.SchemaVersion != 0 {
		t.Fatalf("%s is schema version %d", gateRulesV0State, inst.SchemaVersion)
	}
	return inst.Attributes
}

// The provider upgrades a version 0 state as Terraform asks it to: the copies of the gate's fields
// are gone, on_active_run takes its default, and everything else is kept as it was.
func TestGateRulesUpgradeStateV0(t *testing.T) {
	ctx := context.Background()
	server, err := newServerFactory(newTestProvider)()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	schema := schemas.ResourceSchemas["featureconsole_gate_rules"]
	if schema.Version != 1 {
		t.Fatalf("schema version %d, want 1", schema.Version)
	}
	raw := v0Attributes(t)
	resp, err := server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: "featureconsole_gate_rules", Version: 0, RawState: &tfprotov6.RawState{JSON: raw},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Errorf("%s: %s: %s", d.Severity, d.Summary, d.Detail)
	}
	typ := schema.ValueType()
	val, err := resp.UpgradedState.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]tftypes.Value
	if err := val.As(&got); err != nil {
		t.Fatal(err)
	}
	for _, copied := range []string{"description", "is_enabled", "status", "tags", "last_modifier_id", "last_modifier_name"} {
		if _, ok := got[copied]; ok {
			t.Errorf("the upgraded state still has %s", copied)
		}
	}
	var onActiveRun string
	if err := got["on_active_run"].As(&onActiveRun); err != nil || onActiveRun != "fail" {
		t.Errorf("on_active_run %q (%v), want the default fail", onActiveRun, err)
	}
	// Everything else is the version 0 state's, value for value.
	var before map[string]json.RawMessage
	if err := json.Unmarshal(raw, &before); err != nil {
		t.Fatal(err)
	}
	for name, want := range before {
		v, ok := got[name]
		if !ok {
			continue
		}
		wantVal, err := tftypes.ValueFromJSONWithOpts(want, typ.(tftypes.Object).AttributeTypes[name], tftypes.ValueFromJSONOpts{})
		if err != nil {
			t.Fatal(err)
		}
		if !v.Equal(wantVal) {
			t.Errorf("%s changed in the upgrade: %s, want %s", name, v, wantVal)
		}
	}
}

// A state written before version 1 (the copies in it) upgrades silently with the terraform CLI:
// the plan is empty, nothing is written, and the next apply saves the state without the copies.
func TestAccGateRules_stateUpgrade(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t)
	m, url := startMock(t, mockconsole.Config{})
	state, err := os.ReadFile(gateRulesV0State)
	if err != nil {
		t.Fatal(err)
	}
	cfg := gateRulesConfig(url, "new_checkout", designExampleRules)
	// The service holds what the state was written from.
	cli.write("main.tf", cfg)
	cli.must("init", "-input=false", "-no-color")
	cli.must("apply", "-auto-approve", "-input=false", "-no-color")
	// Written by Terraform 1.11.4, which older CLIs refuse: any CLI of the matrix takes 1.5.0's.
	cli.write("terraform.tfstate", strings.Replace(string(state), `"terraform_version": "1.11.4"`, `"terraform_version": "1.5.0"`, 1))
	m.ResetRequests()

	cli.must("plan", "-detailed-exitcode", "-input=false", "-no-color")
	out := cli.must("apply", "-auto-approve", "-input=false", "-no-color")
	if !strings.Contains(out, "0 added, 0 changed, 0 destroyed") {
		t.Errorf("the upgrade applied a change:\n%s", out)
	}
	for _, r := range m.Requests() {
		if r.Method != "GET" {
			t.Errorf("the upgrade sent %s %s", r.Method, r.Path)
		}
	}
	saved := cli.read(filepath.Join("terraform.tfstate"))
	if !strings.Contains(saved, `"schema_version": 1`) || strings.Contains(saved, `"last_modifier_name"`) || !strings.Contains(saved, `"on_active_run": "fail"`) {
		t.Errorf("the saved state is not version 1 without copies:\n%s", saved)
	}
}

// gateRulesV0Resource serves featureconsole_gate_rules as schema version 0 did: the current
// resource's behaviour, with the copies of the gate's own fields in its state. The provider of an
// acceptance test's first step serves it, so that the next step meets a state written by it.
type gateRulesV0Resource struct{ gateRulesResource }

func (r *gateRulesV0Resource) Schema(ctx context.Context, _ fwresource.SchemaRequest, resp *fwresource.SchemaResponse) {
	resp.Schema = *r.gateRulesResource.UpgradeState(ctx)[0].PriorSchema
}

func (r *gateRulesV0Resource) UpgradeState(context.Context) map[int64]fwresource.StateUpgrader {
	return nil
}

func (r *gateRulesV0Resource) ModifyPlan(context.Context, fwresource.ModifyPlanRequest, *fwresource.ModifyPlanResponse) {
}

func (r *gateRulesV0Resource) current(ctx context.Context) fwschema.Schema {
	var resp fwresource.SchemaResponse
	r.gateRulesResource.Schema(ctx, fwresource.SchemaRequest{}, &resp)
	return resp.Schema
}

// toCurrent is a version 0 plan or state as the current resource's state.
func (r *gateRulesV0Resource) toCurrent(ctx context.Context, from interface {
	GetAttribute(context.Context, path.Path, any) diag.Diagnostics
}, diags *diag.Diagnostics) tfsdk.State {
	m := gateRulesModel{rulesFields: rulesFields{OnActiveRun: types.StringValue(onActiveRunFail)}}
	for name, target := range map[string]any{"id": &m.ID, "gate_id": &m.GateID, "rules": &m.Rules, "timeouts": &m.Timeouts} {
		diags.Append(from.GetAttribute(ctx, path.Root(name), target)...)
	}
	st := tfsdk.State{Schema: r.current(ctx), Raw: tftypes.NewValue(r.current(ctx).Type().TerraformType(ctx), nil)}
	diags.Append(st.Set(ctx, &m)...)
	return st
}

// toV0 writes the current resource's state as version 0 wrote it, the gate's fields read anew.
func (r *gateRulesV0Resource) toV0(ctx context.Context, from tfsdk.State, to *tfsdk.State, diags *diag.Diagnostics) {
	if from.Raw.IsNull() {
		to.RemoveResource(ctx)
		return
	}
	var m gateRulesModel
	diags.Append(from.Get(ctx, &m)...)
	g, err := r.data.client.GetGate(ctx, m.GateID.ValueString())
	if err != nil {
		diags.AddError("v0: read the gate", err.Error())
		return
	}
	for name, v := range map[string]any{
		"id": m.ID, "gate_id": m.GateID, "rules": m.Rules, "timeouts": m.Timeouts,
		"is_enabled": g.IsEnabled, "description": g.Description, "status": g.Status, "tags": framework.StringList(g.Tags),
		"last_modifier_id": g.LastModifierID, "last_modifier_name": g.LastModifierName,
	} {
		diags.Append(to.SetAttribute(ctx, path.Root(name), v)...)
	}
}

func (r *gateRulesV0Resource) Create(ctx context.Context, req fwresource.CreateRequest, resp *fwresource.CreateResponse) {
	plan := r.toCurrent(ctx, req.Plan, &resp.Diagnostics)
	inner := fwresource.CreateResponse{State: tfsdk.State{Schema: plan.Schema, Raw: tftypes.NewValue(plan.Raw.Type(), nil)}, Identity: resp.Identity, Private: resp.Private}
	r.gateRulesResource.Create(ctx, fwresource.CreateRequest{Plan: tfsdk.Plan(plan)}, &inner)
	resp.Diagnostics.Append(inner.Diagnostics...)
	r.toV0(ctx, inner.State, &resp.State, &resp.Diagnostics)
}

func (r *gateRulesV0Resource) Read(ctx context.Context, req fwresource.ReadRequest, resp *fwresource.ReadResponse) {
	inner := fwresource.ReadResponse{State: r.toCurrent(ctx, req.State, &resp.Diagnostics), Identity: resp.Identity, Private: resp.Private}
	r.gateRulesResource.Read(ctx, fwresource.ReadRequest{State: inner.State, Private: req.Private}, &inner)
	resp.Diagnostics.Append(inner.Diagnostics...)
	r.toV0(ctx, inner.State, &resp.State, &resp.Diagnostics)
}

func (r *gateRulesV0Resource) Delete(ctx context.Context, req fwresource.DeleteRequest, resp *fwresource.DeleteResponse) {
	r.gateRulesResource.Delete(ctx, fwresource.DeleteRequest{State: r.toCurrent(ctx, req.State, &resp.Diagnostics)}, resp)
}

// gateRulesV0Provider is the provider with featureconsole_gate_rules at schema version 0.
type gateRulesV0Provider struct{ *featureConsoleProvider }

func (p gateRulesV0Provider) Resources(ctx context.Context) []func() fwresource.Resource {
	out := p.featureConsoleProvider.Resources(ctx)
	for i, f := range out {
		if _, ok := f().(*gateRulesResource); ok {
			out[i] = func() fwresource.Resource { return &gateRulesV0Resource{*NewGateRulesResource().(*gateRulesResource)} }
		}
	}
	return out
}

// A state written by version 0 (the first step's provider serves it) upgrades silently: the next
// step, with the current provider, plans nothing, writes nothing, and keeps everything but the
// copies.
func TestAccGateRules_upgradeFromV0(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	v0 := map[string]func() (tfprotov6.ProviderServer, error){
		"featureconsole": func() (tfprotov6.ProviderServer, error) {
			p := newTestProvider()
			p.configured = new(atomic.Pointer[providerData])
			return providerserver.NewProtocol6WithError(gateRulesV0Provider{p})()
		},
	}
	cfg := gateRulesConfig(url, "new_checkout", designExampleRules)
	resource.Test(t, resource.TestCase{
		PreCheck:     func() { testAccPreCheck(t) },
		CheckDestroy: checkGateHasNoRules(m, "new_checkout"),
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: v0,
				Config:                   cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("description"), knownvalue.StringExact("The new checkout flow")),
				},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				PreConfig:                m.ResetRequests,
				Config:                   cfg,
				ConfigPlanChecks:         resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("on_active_run"), knownvalue.StringExact("fail")),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact("employees")),
				},
				Check: func(*terraform.State) error {
					for _, r := range m.Requests() {
						if r.Method != http.MethodGet {
							return fmt.Errorf("the upgrade sent %s %s", r.Method, r.Path)
						}
					}
					return nil
				},
			},
		},
	})
}
