// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func numberList(t *testing.T, nums ...string) types.List {
	vals := make([]attr.Value, len(nums))
	for i, n := range nums {
		vals[i] = hclNumber(t, n)
	}
	return types.ListValueMust(types.NumberType, vals)
}

func TestFlattenConditionTargets(t *testing.T) {
	emptyStrings := types.ListValueMust(types.StringType, nil)
	emptyNumbers := types.ListValueMust(types.NumberType, nil)
	cases := []struct {
		name        string
		raw         string
		hint        *ruleConditionModel
		wantValue   types.List
		wantNumbers types.List
	}{
		{"strings", `["a","b"]`, nil, framework.StringList([]string{"a", "b"}), types.ListNull(types.NumberType)},
		{"numbers", `[12.5,100,0.1,-3,1e3]`, nil, types.ListNull(types.StringType), numberList(t, "12.5", "100", "0.1", "-3", "1000")},
		{"mixed", `["a",5,1.50,true]`, nil, framework.StringList([]string{"a", "5", "1.5", "true"}), types.ListNull(types.NumberType)},
		{"scalar", `"x"`, nil, framework.StringList([]string{"x"}), types.ListNull(types.NumberType)},
		{"absent", ``, nil, types.ListNull(types.StringType), types.ListNull(types.NumberType)},
		{"empty, no hint", `[]`, nil, types.ListNull(types.StringType), types.ListNull(types.NumberType)},
		{"empty, hint []", `[]`, &ruleConditionModel{conditionModel: conditionModel{TargetValue: emptyStrings}, TargetNumbers: types.ListNull(types.NumberType)}, emptyStrings, types.ListNull(types.NumberType)},
		{"null, hint numbers []", `null`, &ruleConditionModel{conditionModel: conditionModel{TargetValue: types.ListNull(types.StringType)}, TargetNumbers: emptyNumbers}, types.ListNull(types.StringType), emptyNumbers},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := flattenRuleCondition(console.Condition{Type: "user_id", TargetValue: json.RawMessage(c.raw)}, c.hint)
			if err != nil {
				t.Fatal(err)
			}
			attrs := v.(types.Object).Attributes()
			if got := attrs["target_value"]; !got.Equal(c.wantValue) {
				t.Errorf("target_value = %s, want %s", got, c.wantValue)
			}
			if got := attrs["target_numbers"]; !got.Equal(c.wantNumbers) {
				t.Errorf("target_numbers = %s, want %s", got, c.wantNumbers)
			}
			if !attrs["operator"].IsNull() || !attrs["field"].IsNull() || !attrs["custom_id"].IsNull() {
				t.Errorf("empty strings should read as null: %v", attrs)
			}
		})
	}
}

// Numbers read back equal exactly what the configuration wrote, so no diff ever shows.
func TestConditionTargetsNumbersRoundTrip(t *testing.T) {
	ctx := context.Background()
	for _, s := range []string{"12.5", "100", "0.1", "33.33", "0", "-7.25", "1e3", "0.30"} {
		cfg := hclNumber(t, s)
		tv, err := expandTargets(ctx, ruleConditionModel{conditionModel: conditionModel{TargetValue: types.ListNull(types.StringType)}, TargetNumbers: types.ListValueMust(types.NumberType, []attr.Value{cfg})})
		if err != nil {
			t.Fatal(err)
		}
		v, err := flattenRuleCondition(console.Condition{Type: "custom_field", TargetValue: tv}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := v.(types.Object).Attributes()["target_numbers"].(types.List).Elements()[0]
		if !got.Equal(cfg) {
			t.Errorf("%s: wire %s, read back %s", s, tv, got)
		}
		f, _ := cfg.ValueBigFloat().Float64() // pass_percentage travels as a float64
		if pct := framework.NumberFromFloat(f); !pct.Equal(cfg) {
			t.Errorf("%s: pass_percentage read back %s", s, pct)
		}
	}
}

func TestExpandTargets(t *testing.T) {
	ctx := context.Background()
	null := ruleConditionModel{conditionModel: conditionModel{TargetValue: types.ListNull(types.StringType)}, TargetNumbers: types.ListNull(types.NumberType)}
	numbers := null
	numbers.TargetNumbers = numberList(t, "12.5", "100", "0.1")
	strs := null
	strs.TargetValue = framework.StringList([]string{"18", "a\"b"})
	for _, c := range []struct {
		in   ruleConditionModel
		want string
	}{{null, `[]`}, {numbers, `[12.5,100,0.1]`}, {strs, `["18","a\"b"]`}} {
		got, err := expandTargets(ctx, c.in)
		if err != nil || string(got) != c.want {
			t.Errorf("expandTargets = %s, %v; want %s", got, err, c.want)
		}
	}
}
