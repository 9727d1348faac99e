// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
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
