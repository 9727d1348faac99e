// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
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

// testVariant is a variant object; id "" is unknown (a plan's), "-" null.
func testVariant(t *testing.T, id, name, pct, value string) attr.Value {
	idv := types.StringValue(id)
	switch id {
	case "":
		idv = types.StringUnknown()
	case "-":
		idv = types.StringNull()
	}
	return types.ObjectValueMust(variantObjectType.AttrTypes, map[string]attr.Value{
		"id": idv, "name": types.StringValue(name), "pass_percentage": hclNumber(t, pct), "return_value": framework.NewJSONValue(value),
	})
}

func testConfigRule(t *testing.T, name string, variants ...attr.Value) ruleModel {
	r := testRule(t, name, "100")
	r.Variants = types.ListNull(variantObjectType)
	if variants != nil {
		r.Variants = types.ListValueMust(variantObjectType, variants)
	}
	return r
}

func variantIDs(t *testing.T, l types.List) []string {
	t.Helper()
	var out []string
	for _, e := range l.Elements() {
		id := e.(types.Object).Attributes()["id"].(types.String)
		if id.IsUnknown() {
			out = append(out, "?")
			continue
		}
		out = append(out, id.ValueString())
	}
	return out
}

// Config rules go to a list with variants and back to models unchanged; expanded, each variant
// carries its known id, its percentage and its value in compact form; a rule without variants
// sends none.
func TestConfigRuleVariantsExpand(t *testing.T) {
	ctx := context.Background()
	models := []ruleModel{
		testConfigRule(t, "split", testVariant(t, "v1", "control", "66.67", `{ "a": 1 }`), testVariant(t, "", "urgent", "33.33", `{"b": [2]}`)),
		testConfigRule(t, "plain"),
	}
	l, diags := ruleList(ctx, variantRuleObjectType, models)
	if diags.HasError() || !l.ElementType(ctx).Equal(variantRuleObjectType) {
		t.Fatalf("ruleList: %v %v", l, diags)
	}
	back, diags := ruleModels(ctx, l)
	if diags.HasError() || len(back) != 2 || !back[0].Variants.Equal(models[0].Variants) || !back[1].Variants.IsNull() {
		t.Fatalf("ruleModels: %+v %v", back, diags)
	}
	rules, diags := expandRules(ctx, back)
	if diags.HasError() {
		t.Fatal(diags)
	}
	want := []console.RuleVariant{
		{ID: "v1", Name: "control", PassPercentage: 66.67, ReturnValue: json.RawMessage(`{"a":1}`)},
		{Name: "urgent", PassPercentage: 33.33, ReturnValue: json.RawMessage(`{"b":[2]}`)},
	}
	got, _ := json.Marshal(rules[0].Variants)
	wantJSON, _ := json.Marshal(want)
	if string(got) != string(wantJSON) || rules[1].Variants != nil {
		t.Errorf("expanded %s and %v, want %s and none", got, rules[1].Variants, wantJSON)
	}
	// A gate's rules stay gate rules: no variants attribute, none sent.
	gl, _ := ruleList(ctx, ruleObjectType, []ruleModel{testRule(t, "g", "1")})
	if gl.ElementType(ctx).Equal(variantRuleObjectType) {
		t.Error("a gate rule list took variants")
	}
	if gr, _ := expandRules(ctx, []ruleModel{testRule(t, "g", "1")}); gr[0].Variants != nil {
		t.Errorf("a gate rule expanded with variants %v", gr[0].Variants)
	}
}

// A read keeps the configuration's forms where the service's mean the same (percentages at two
// decimals, JSON by meaning), matched by name whatever the order; none held is null, or [] where
// the configuration says []; a hint missing takes the service's forms.
func TestConfigRuleVariantsFlatten(t *testing.T) {
	ctx := context.Background()
	hint := testConfigRule(t, "split", testVariant(t, "-", "urgent", "33.33", `{ "b": 1, "a": 2 }`), testVariant(t, "-", "control", "66.67", `{"a":1}`))
	service := []console.Rule{{Name: "split", PassPercentage: 100, ID: "r1", BaseID: "b1", Variants: []console.RuleVariant{
		{ID: "v1", Name: "control", PassPercentage: 66.67, ReturnValue: json.RawMessage(`{"a":1.0}`)},
		{ID: "v2", Name: "urgent", PassPercentage: 33.330000000000005, ReturnValue: json.RawMessage(`{"a":2,"b":1}`)},
		{ID: "v3", Name: "new", PassPercentage: 0},
	}}, {Name: "empty", ID: "r2", BaseID: "b2"}, {Name: "none", ID: "r3", BaseID: "b3"}}
	empty := testConfigRule(t, "empty")
	empty.Variants = types.ListValueMust(variantObjectType, nil)
	l, diags := flattenRulesAs(ctx, variantRuleObjectType, service, []ruleModel{hint, empty})
	if diags.HasError() {
		t.Fatal(diags)
	}
	rules, _ := ruleModels(ctx, l)
	vs, _ := framework.ListModels[variantModel](ctx, rules[0].Variants)
	if len(vs) != 3 || vs[0].ID.ValueString() != "v1" || vs[1].ID.ValueString() != "v2" {
		t.Fatalf("variants %+v", vs)
	}
	if vs[0].ReturnValue.ValueString() != `{"a":1}` || vs[1].ReturnValue.ValueString() != `{ "b": 1, "a": 2 }` ||
		vs[1].PassPercentage.ValueBigFloat().String() != "33.33" {
		t.Errorf("forms not kept: %+v", vs)
	}
	if vs[2].ReturnValue.ValueString() != `{}` || vs[2].PassPercentage.ValueBigFloat().Sign() != 0 {
		t.Errorf("variant without a value: %+v", vs[2])
	}
	if !framework.IsEmptyList(rules[1].Variants) || !rules[2].Variants.IsNull() {
		t.Errorf("none held: %v and %v, want [] and null", rules[1].Variants, rules[2].Variants)
	}
	// The data source's read: no hints, the service's forms.
	l, _ = flattenRulesAs(ctx, variantRuleObjectType, service[:1], nil)
	rules, _ = ruleModels(ctx, l)
	if vs, _ := framework.ListModels[variantModel](ctx, rules[0].Variants); vs[1].ReturnValue.ValueString() != `{"a":2,"b":1}` {
		t.Errorf("without hints %+v", vs)
	}
}

// Variants are matched by name within the rule of the same name, as rules are: a kept variant's id
// is promised, a new one's (or one of a renamed rule) is unknown; a change of variants alone is a
// change of the rule; a write that may meet a run bringing older rules back promises no id.
func TestConfigRuleVariantsMatching(t *testing.T) {
	ctx := context.Background()
	prior := []ruleModel{testConfigRule(t, "split",
		testVariant(t, "v1", "control", "50", `{"a":1}`), testVariant(t, "v2", "urgent", "50", `{"a":2}`))}
	planned := []ruleModel{testConfigRule(t, "split",
		testVariant(t, "", "urgent", "30", `{"a":2}`), testVariant(t, "", "calm", "20", `{"a":3}`), testVariant(t, "", "control", "50", `{"a":1}`))}
	if matchPriorRules(ctx, planned, prior) {
		t.Error("a change of the variants reads as unchanged")
	}
	if got := strings.Join(variantIDs(t, planned[0].Variants), ","); got != "v2,?,v1" {
		t.Errorf("planned variant ids %s, want v2,?,v1", got)
	}
	renamed := []ruleModel{testConfigRule(t, "other", testVariant(t, "", "control", "100", `{"a":1}`))}
	matchPriorRules(ctx, renamed, prior)
	if got := strings.Join(variantIDs(t, renamed[0].Variants), ","); got != "?" {
		t.Errorf("a renamed rule's variant ids %s", got)
	}
	same := []ruleModel{testConfigRule(t, "split",
		testVariant(t, "", "control", "50", `{ "a": 1 }`), testVariant(t, "", "urgent", "50.00", `{"a":2}`))}
	if !matchPriorRules(ctx, same, prior) || strings.Join(variantIDs(t, same[0].Variants), ",") != "v1,v2" {
		t.Errorf("the same variants: ids %v", variantIDs(t, same[0].Variants))
	}

	planList, _ := ruleList(ctx, variantRuleObjectType, planned)
	stateList, _ := ruleList(ctx, variantRuleObjectType, prior)
	active := func(context.Context) ([]console.ReleasePipelineTrigger, error) {
		return []console.ReleasePipelineTrigger{{ID: "rpt_1"}}, nil
	}
	l, diags := plannedRules(ctx, planList, stateList, supersedePlan{policy: types.StringValue(onActiveRunAbort), activeRuns: active})
	if diags.HasError() {
		t.Fatal(diags)
	}
	rules, _ := ruleModels(ctx, l)
	if got := strings.Join(variantIDs(t, rules[0].Variants), ","); got != "?,?,?" || !rules[0].BaseID.IsUnknown() {
		t.Errorf("superseding plan promises variant ids %s", got)
	}
}

// A write fills the ids of variants the plan did not know from what the config holds (or the
// state), by rule and variant name; the comparisons of what was written see variants by meaning,
// ids aside.
func TestConfigRuleVariantsWritten(t *testing.T) {
	rules := []console.Rule{{Name: "split", Variants: []console.RuleVariant{{Name: "control"}, {Name: "new"}, {ID: "kept", Name: "urgent"}}}}
	prior := []ruleModel{testConfigRule(t, "split", testVariant(t, "p1", "control", "50", `{}`), testVariant(t, "p2", "new", "50", `{}`))}
	holds := []console.Rule{{Name: "split", Variants: []console.RuleVariant{{ID: "h1", Name: "control"}}}, {Name: "other", Variants: []console.RuleVariant{{ID: "h9", Name: "new"}}}}
	fillVariantIDs(rules, prior, holds)
	if v := rules[0].Variants; v[0].ID != "h1" || v[1].ID != "p2" || v[2].ID != "kept" {
		t.Errorf("ids %+v, want h1 (held), p2 (state), kept", v)
	}

	a := console.Rule{Name: "split", PassPercentage: 100, Variants: []console.RuleVariant{
		{ID: "x", Name: "control", PassPercentage: 33.33, ReturnValue: json.RawMessage(`{"a":1,"b":2}`)}}}
	b := a
	b.Variants = []console.RuleVariant{{ID: "y", Name: "control", PassPercentage: 33.330000000000005, ReturnValue: json.RawMessage(`{ "b": 2, "a": 1.0 }`)}}
	c := a
	c.Variants = []console.RuleVariant{{Name: "control", PassPercentage: 33.33, ReturnValue: json.RawMessage(`{"a":1,"b":3}`)}}
	d := a
	d.Variants = nil
	if !sameRules([]console.Rule{a}, []console.Rule{b}) {
		t.Error("variants differing in ids and forms only compare different")
	}
	for name, other := range map[string]console.Rule{"value": c, "none": d} {
		if sameRules([]console.Rule{a}, []console.Rule{other}) {
			t.Errorf("%s: variants that differ compare the same", name)
		}
	}
	if diff := heldRuleDifferences("the config", []console.Rule{d}, []console.Rule{a}); !strings.Contains(diff, `"split"`) ||
		!strings.Contains(diff, "Variants") {
		t.Errorf("differences %q", diff)
	}
}

// The plan-time checks of variants: names unique within a rule, percentages summing to 100 at two
// decimals; [] and unknown percentages are left alone.
func TestConfigRuleVariantsValidate(t *testing.T) {
	ctx := context.Background()
	check := func(variants ...attr.Value) diag.Diagnostics {
		l, _ := ruleList(ctx, variantRuleObjectType, []ruleModel{testConfigRule(t, "split", variants...)})
		var diags diag.Diagnostics
		validateVariants(l, &diags)
		return diags
	}
	unknownPct := types.ObjectValueMust(variantObjectType.AttrTypes, map[string]attr.Value{
		"id": types.StringUnknown(), "name": types.StringValue("u"), "pass_percentage": types.NumberUnknown(), "return_value": framework.NewJSONValue(`{}`),
	})
	for name, tc := range map[string]struct {
		diags diag.Diagnostics
		want  string
	}{
		"sum 90":      {check(testVariant(t, "", "a", "50", `{}`), testVariant(t, "", "b", "40", `{}`)), "sum to 90"},
		"sum 100.01":  {check(testVariant(t, "", "a", "50.01", `{}`), testVariant(t, "", "b", "50", `{}`)), "sum to 100.01"},
		"duplicate":   {check(testVariant(t, "", "a", "50", `{}`), testVariant(t, "", "a", "50", `{}`)), `both named "a"`},
		"thirds":      {check(testVariant(t, "", "a", "33.33", `{}`), testVariant(t, "", "b", "33.33", `{}`), testVariant(t, "", "c", "33.34", `{}`)), ""},
		"unknown pct": {check(testVariant(t, "", "a", "50", `{}`), unknownPct), ""},
		"none":        {check(), ""},
	} {
		got := diagText(tc.diags)
		if tc.want == "" && tc.diags.HasError() || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", name, got, tc.want)
		}
	}
	empty, _ := ruleList(ctx, variantRuleObjectType, []ruleModel{testConfigRule(t, "split")})
	var diags diag.Diagnostics
	validateVariants(empty, &diags)
	if diags.HasError() {
		t.Errorf("no variants: %v", diags)
	}
}

func variantHCL(name, pct, value string) string {
	return fmt.Sprintf(`{ name = %q, pass_percentage = %s, return_value = jsonencode(%s) }`, name, pct, value)
}

// splitRuleHCL is the rule us_test, its users split between variants (none: no variants argument).
func splitRuleHCL(variants ...string) string {
	v := ""
	if len(variants) > 0 {
		v = ",\n      variants = [\n        " + strings.Join(variants, ",\n        ") + ",\n      ]"
	}
	return `{ name = "us_test", pass_percentage = 100,
      conditions = [{ type = "country", operator = "any", target_value = ["US"] }],
      return_value = jsonencode({ title = "Buy now", max_items = 5 })` + v + ` }`
}

var (
	variantControl = variantHCL("control", "50", `{ title = "Buy now", max_items = 5 }`)
	variantUrgent  = variantHCL("urgent", "50", `{ title = "Buy today", max_items = 5 }`)
)

// mockVariants is what the mock holds of the variants of the config's rule.
func mockVariants(m *mockconsole.Server, configID, rule string) map[string]mockconsole.Variant {
	c, _ := m.DynamicConfig(configID)
	out := map[string]mockconsole.Variant{}
	for _, r := range c.Rules {
		if r.Name == rule {
			for _, v := range r.Variants {
				out[v.Name] = v
			}
		}
	}
	return out
}

// expectVariantIDs checks that the state's variant ids of rules[1] are the mock's, and remembers them.
func expectVariantIDs(m *mockconsole.Server, ids map[string]string, names ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		held := mockVariants(m, "tfacc_copy", "us_test")
		if len(held) != len(names) {
			return fmt.Errorf("the mock holds variants %+v, want %v", held, names)
		}
		attrs := s.RootModule().Resources[configRulesAddr].Primary.Attributes
		for k, name := range names {
			v, ok := held[name]
			if got := attrs[fmt.Sprintf("rules.1.variants.%d.id", k)]; !ok || v.ID == "" || got != v.ID {
				return fmt.Errorf("variant %q: state id %q, the mock holds %+v", name, got, v)
			}
			ids[name] = v.ID
		}
		return nil
	}
}

func sameIDAs(ids map[string]string, name string) knownvalue.Check {
	return knownvalue.StringFunc(func(v string) error {
		if v == "" || v != ids[name] {
			return fmt.Errorf("id %q, want the id %q variant %q had", v, ids[name], name)
		}
		return nil
	})
}

// A rule split between two variants applies and the mock holds them; values answered in another
// form plan nothing; an update keeps the ids of the variants it keeps (promised in the plan) and
// adds one; a console change of a variant shows and apply puts it back; import verifies; leaving
// the variants out plans their removal, visibly, and applies it.
func TestAccDynamicConfigRules_variants(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	ids := map[string]string{}
	first := providerBlock(url) + configWithRules(ruleDE+",\n    "+splitRuleHCL(variantControl, variantUrgent), "", "")
	calm := variantHCL("calm", "20", `{ title = "Take your time", max_items = 5 }`)
	updated := providerBlock(url) + configWithRules(ruleDE+",\n    "+splitRuleHCL(variantControl, variantHCL("urgent", "30.5", `{ title = "Buy today", max_items = 5 }`),
		strings.Replace(calm, "20", "19.5", 1)), "", "")
	variant := func(k int, attr string) tfjsonpath.Path {
		return tfjsonpath.New("rules").AtSliceIndex(1).AtMapKey("variants").AtSliceIndex(k).AtMapKey(attr)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockConfig(m, "tfacc_copy"),
		Steps: []resource.TestStep{
			{
				Config: first,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(configRulesAddr, variant(1, "return_value"), knownvalue.StringExact(`{"max_items":5,"title":"Buy today"}`)),
					statecheck.ExpectKnownValue(configRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("variants"), knownvalue.Null()),
				},
				Check: resource.ComposeTestCheckFunc(expectVariantIDs(m, ids, "control", "urgent"),
					expectMockConfig(m, "tfacc_copy", func(c mockconsole.DynamicConfig) error {
						v := c.Rules[1].Variants
						if len(v) != 2 || v[0].PassPercentage != 50 || !sameJSONText(marshalAny(v[1].ReturnValue), []byte(`{"title":"Buy today","max_items":5}`)) {
							return fmt.Errorf("mock variants %+v", v)
						}
						return nil
					})),
			},
			{
				PreConfig: func() {
					if err := m.ServeConfigValuesReordered("tfacc_copy", true); err != nil {
						t.Fatal(err)
					}
				},
				Config:           first,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				PreConfig: func() { _ = m.ServeConfigValuesReordered("tfacc_copy", false) },
				Config:    updated,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(configRulesAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(configRulesAddr, variant(0, "id"), sameIDAs(ids, "control")),
					plancheck.ExpectKnownValue(configRulesAddr, variant(1, "id"), sameIDAs(ids, "urgent")),
					plancheck.ExpectUnknownValue(configRulesAddr, variant(2, "id")),
				}},
				Check: resource.ComposeTestCheckFunc(func(*terraform.State) error {
					prior := map[string]string{"control": ids["control"], "urgent": ids["urgent"]}
					held := mockVariants(m, "tfacc_copy", "us_test")
					if held["control"].ID != prior["control"] || held["urgent"].ID != prior["urgent"] || held["calm"].ID == "" {
						return fmt.Errorf("ids after the update %+v, want control and urgent kept from %v", held, prior)
					}
					if held["urgent"].PassPercentage != 30.5 {
						return fmt.Errorf("urgent %+v", held["urgent"])
					}
					return nil
				}, expectVariantIDs(m, ids, "control", "urgent", "calm")),
			},
			{
				PreConfig: func() {
					c, _ := m.DynamicConfig("tfacc_copy")
					c.Rules[1].Variants[1].ReturnValue = map[string]any{"title": "Edited in the console", "max_items": 5}
					m.PutDynamicConfig(c)
				},
				Config: updated,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(configRulesAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(configRulesAddr, variant(1, "return_value"), knownvalue.StringExact(`{"max_items":5,"title":"Buy today"}`)),
					plancheck.ExpectKnownValue(configRulesAddr, variant(1, "id"), sameIDAs(ids, "urgent")),
				}},
				Check: func(*terraform.State) error {
					if v := mockVariants(m, "tfacc_copy", "us_test")["urgent"]; v.ID != ids["urgent"] ||
						!sameJSONText(marshalAny(v.ReturnValue), []byte(`{"title":"Buy today","max_items":5}`)) {
						return fmt.Errorf("urgent after apply %+v", v)
					}
					return nil
				},
			},
			{
				Config: updated, ResourceName: configRulesAddr,
				ImportState: true, ImportStateId: "tfacc_copy", ImportStateVerify: true,
				ImportStateVerifyIdentifierAttribute: "config_id",
				ImportStateVerifyIgnore:              []string{"timeouts"},
			},
			{
				Config: providerBlock(url) + configWithRules(ruleDE+",\n    "+splitRuleHCL(), "", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(configRulesAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(configRulesAddr, tfjsonpath.New("rules").AtSliceIndex(1).AtMapKey("variants"), knownvalue.Null()),
				}},
				Check: func(*terraform.State) error {
					if held := mockVariants(m, "tfacc_copy", "us_test"); len(held) != 0 {
						return fmt.Errorf("variants left after their removal: %+v", held)
					}
					return nil
				},
			},
		},
	})
}

// Bad variants fail the plan naming the rule, the variant and the path, and nothing is sent:
// percentages summing to 90, a value breaking the schema of the same plan or the one the service
// holds, duplicate names, values that are not JSON objects or not JSON, a percentage out of range.
func TestAccDynamicConfigRules_variantsBadInput(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	m.PutDynamicConfig(mockconsole.DynamicConfig{ID: "tfacc_held", Schema: []byte(`{"type":"object","required":["color"]}`)})
	held := func(variants string) string {
		return fmt.Sprintf(`
resource "featureconsole_dynamic_config_rules" "held" {
  config_id = "tfacc_held"
  rules     = [{ name = "split", pass_percentage = 100, return_value = jsonencode({ color = "red" }), variants = [%s] }]
}
`, variants)
	}
	cases := []struct{ config, want string }{
		{configWithRules(splitRuleHCL(variantControl, variantHCL("urgent", "40", `{ title = "Buy today" }`)), "", ""),
			`(?s)Variant percentages do not sum to 100.*rule\s+"us_test"\s+\(rules\[0\]\.variants\)\s+sum\s+to\s+90.*Nothing\s+was\s+sent`},
		{configWithRules(ruleDE+", "+splitRuleHCL(variantControl, variantHCL("urgent", "50", `{ title = 7, max_items = 0 }`)), "", ""),
			`(?s)Return value of variant "urgent" of rule "us_test" breaks the schema.*rules\[1\]\.variants\[1\]\.return_value.*at /max_items: minimum.*at /title: got number, want string`},
		{held(variantHCL("a", "50", `{ color = "red" }`) + ", " + variantHCL("b", "50", `{ size = 1 }`)),
			`(?s)Return value of variant "b" of rule "split" breaks the schema.*the\s+schema\s+the\s+service\s+holds.*missing property 'color'`},
		{held(variantHCL("a", "50", `{ color = "red" }`) + ", " + variantHCL("a", "50", `{ color = "blue" }`)),
			`(?s)Duplicate variant name.*rules\[0\]\.variants\[0\]\s+and\s+rules\[0\]\.variants\[1\]\s+of\s+rule\s+"split"\s+are\s+both\s+named\s+"a"`},
		{held(variantHCL("a", "100", `[1]`)), `(?s)not a JSON object.*jsonencode\(\{`},
		{held(`{ name = "a", pass_percentage = 100, return_value = "blue" }`), `(?s)Invalid JSON String Value.*rules\[0\]\.variants\[0\]\.return_value must be a JSON object.*jsonencode`},
		{held(variantHCL("a", "100.5", `{ color = "red" }`)), `(?s)pass_percentage`},
	}
	planFailsSendingNothing(t, m, url, cases)
}

// A config made in the console with a rule split between variants (its values answered with other
// spacing, key order and 5.0, and JSON5 copies) imports by id and plans clean; the data source
// shows the variants; a schema change that a held variant breaks fails the plan, sending nothing.
func TestAccDynamicConfigRules_variantsImported(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.PutDynamicConfig(mockconsole.DynamicConfig{
		ID: "tfacc_copy", DefaultValue: json.RawMessage(`{"title":"Buy now","max_items":5}`),
		Schema: json.RawMessage(`{"type":"object","required":["title"],"properties":{"title":{"type":"string"},"max_items":{"type":"integer","minimum":1}}}`),
		Rules: []mockconsole.Rule{{
			Name: "us_test", PassPercentage: 100,
			Conditions:  []mockconsole.Condition{{Type: "country", Operator: "any", TargetValue: []any{"US"}}},
			ReturnValue: map[string]any{"title": "Buy now", "max_items": 5},
			Variants: []mockconsole.Variant{
				{Name: "control", PassPercentage: 50, ReturnValue: map[string]any{"title": "Buy now", "max_items": 5}},
				{Name: "urgent", PassPercentage: 50, ReturnValue: map[string]any{"title": "Buy today", "max_items": 5}},
			},
		}},
	})
	if err := m.ServeConfigValuesReordered("tfacc_copy", true); err != nil {
		t.Fatal(err)
	}
	held := mockVariants(m, "tfacc_copy", "us_test")
	rules := providerBlock(url) + fmt.Sprintf(`
resource "featureconsole_dynamic_config_rules" "copy" {
  config_id = "tfacc_copy"
  rules     = [%s]
}
data "featureconsole_dynamic_config" "copy" { config_id = "tfacc_copy" }
`, splitRuleHCL(variantControl, variantUrgent))
	breaks := regexp.MustCompile(`(?s)Return value of variant "urgent" of rule "us_test" breaks the schema.*` +
		`rules\[0\]\.variants\[1\]\s+as\s+dynamic\s+config\s+"tfacc_copy"\s+holds\s+it.*at /title: maxLength: got 9, want 7`)
	narrower := providerBlock(url) + dynamicConfigHCL(`default_value = jsonencode({ title = "Buy now", max_items = 5 })`,
		`schema = jsonencode({ type = "object", properties = { title = { type = "string", maxLength = 7 } } })`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: rules, ResourceName: configRulesAddr,
				ImportState: true, ImportStateId: "tfacc_copy", ImportStatePersist: true,
			},
			{
				PreConfig: m.ResetRequests,
				Config:    rules,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(configRulesAddr, plancheck.ResourceActionNoop),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(configRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("variants").AtSliceIndex(1).AtMapKey("id"),
						knownvalue.StringExact(held["urgent"].ID)),
					statecheck.ExpectKnownValue("data.featureconsole_dynamic_config.copy", tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("variants"),
						knownvalue.ListExact([]knownvalue.Check{
							knownvalue.ObjectExact(map[string]knownvalue.Check{
								"id": knownvalue.StringExact(held["control"].ID), "name": knownvalue.StringExact("control"),
								"pass_percentage": knownvalue.Int64Exact(50), "return_value": knownvalue.StringExact(`{"max_items":5,"title":"Buy now"}`),
							}),
							knownvalue.ObjectExact(map[string]knownvalue.Check{
								"id": knownvalue.StringExact(held["urgent"].ID), "name": knownvalue.StringExact("urgent"),
								"pass_percentage": knownvalue.Int64Exact(50), "return_value": knownvalue.StringExact(`{"max_items":5,"title":"Buy today"}`),
							}),
						})),
				},
				Check: func(*terraform.State) error { return noStoredWrite(m) },
			},
			{
				Config: narrower, ResourceName: "featureconsole_dynamic_config.copy",
				ImportState: true, ImportStateId: "tfacc_copy", ImportStatePersist: true,
			},
			{
				PreConfig: m.ResetRequests,
				Config:    narrower, PlanOnly: true, ExpectError: breaks,
			},
			{
				PreConfig: func() {
					for _, r := range m.Requests() {
						if r.Method != http.MethodGet {
							t.Errorf("the refused plan sent %s %s", r.Method, r.Path)
						}
					}
				},
				Config: narrower, PlanOnly: true, ExpectError: breaks,
			},
		},
	})
}

// The runs work for rules with variants as for any: with on_active_run = "abort" a change of the
// variants supersedes the run the previous write started (no id promised, no inconsistent result).
func TestAccDynamicConfigRules_variantsRuns(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.SetRunSpeed(0) // runs stay where they are
	attached := `release_pipeline_id = "pl_web"`
	first := providerBlock(url) + configWithRules(splitRuleHCL(variantControl, variantUrgent), attached, `on_active_run = "abort"`)
	second := providerBlock(url) + configWithRules(splitRuleHCL(variantHCL("control", "60", `{ title = "Buy now", max_items = 5 }`),
		variantHCL("urgent", "40", `{ title = "Buy today", max_items = 5 }`)), attached, `on_active_run = "abort"`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockConfig(m, "tfacc_copy"),
		Steps: []resource.TestStep{
			{Config: first},
			{
				Config: second,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(configRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("variants").AtSliceIndex(0).AtMapKey("id")),
				}},
				Check: func(*terraform.State) error {
					runs := m.ConfigRuns("tfacc_copy")
					if r, _ := m.Run(runs[len(runs)-1]); len(runs) != 2 || r.Status != mockconsole.RunAborted {
						return fmt.Errorf("runs %v: want two, the first aborted", runs)
					}
					if v := mockVariants(m, "tfacc_copy", "us_test"); v["control"].PassPercentage != 60 || v["urgent"].PassPercentage != 40 {
						return fmt.Errorf("variants %+v", v)
					}
					return nil
				},
			},
		},
	})
}

// A change of the rules with variants held for review is applied once approved; the next apply
// finds it in place, sends nothing, and plans clean: the held rules are the read's hints, so
// `variants = []` stays [] where the service answers none.
func TestAccDynamicConfigRules_variantsReview(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	setReviews := func(on bool) {
		h := m.Habits()
		h.Reviews, h.ReviewCommits = on, false
		m.SetHabits(h)
	}
	m.PutDynamicConfig(mockconsole.DynamicConfig{ID: "tfacc_reviewed"})
	cfg := func(rules string) string {
		return providerBlock(url, "respect_review_settings = true") + fmt.Sprintf(`
resource "featureconsole_dynamic_config_rules" "r" {
  config_id = "tfacc_reviewed"
  rules     = [%s]
}
`, rules)
	}
	before := cfg(`{ name = "plain", pass_percentage = 10 }`)
	after := cfg(splitRuleHCL(variantControl, variantUrgent) + `, { name = "plain", pass_percentage = 10, variants = [] }`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{PreConfig: func() { setReviews(false) }, Config: before},
			{
				PreConfig:   func() { setReviews(true) },
				Config:      after,
				ExpectError: regexp.MustCompile(`(?s)Change to the rules of dynamic config "tfacc_reviewed" awaits review`),
			},
			{
				PreConfig: func() {
					if v := mockVariants(m, "tfacc_reviewed", "us_test"); len(v) != 0 {
						t.Fatalf("a held change was applied: %+v", v)
					}
					if err := m.ApproveAllReviews(); err != nil {
						t.Fatal(err)
					}
					setReviews(false)
					m.ResetRequests()
				},
				Config:           after,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraform.State) error {
					if v := mockVariants(m, "tfacc_reviewed", "us_test"); len(v) != 2 {
						return fmt.Errorf("variants after the approved review %+v", v)
					}
					return noStoredWrite(m)
				},
			},
		},
	})
}
