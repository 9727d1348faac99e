// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// A condition to and from the service: its targets are sent as JSON numbers exactly as written, or
// as strings, and read back in the form the configuration used (conditions.go holds the model).

// expandCondition builds the service's condition; targets is the already encoded targetValue.
func expandCondition(c conditionModel, targets json.RawMessage) console.Condition {
	return console.Condition{
		Type:        c.Type.ValueString(),
		Operator:    c.Operator.ValueString(),
		Field:       c.Field.ValueString(),
		CustomID:    c.CustomID.ValueString(),
		TargetValue: targets,
	}
}

// expandTargets renders target_value as JSON strings and target_numbers as JSON numbers; neither is `[]`.
func expandTargets(ctx context.Context, c ruleConditionModel) (json.RawMessage, error) {
	switch {
	case !c.TargetNumbers.IsNull():
		var nums []types.Number
		if d := c.TargetNumbers.ElementsAs(ctx, &nums, false); d.HasError() {
			return nil, fmt.Errorf("target_numbers could not be read")
		}
		parts := make([]string, len(nums))
		for i, n := range nums {
			bf := n.ValueBigFloat()
			if bf == nil {
				return nil, fmt.Errorf("target_numbers[%d] is null", i)
			}
			if bf.IsInf() {
				return nil, fmt.Errorf("target_numbers[%d] is not a finite number", i)
			}
			parts[i] = bf.Text('f', -1)
		}
		return json.RawMessage("[" + strings.Join(parts, ",") + "]"), nil
	case !c.TargetValue.IsNull():
		return expandTargetStrings(ctx, c.TargetValue)
	}
	return json.RawMessage("[]"), nil
}

// expandTargetStrings renders a known list of strings as a JSON array of strings; nil when the list
// is null or unknown (targetValue left out).
func expandTargetStrings(ctx context.Context, l types.List) (json.RawMessage, error) {
	if !framework.IsKnownList(l) {
		return nil, nil
	}
	vals := []string{}
	if d := l.ElementsAs(ctx, &vals, false); d.HasError() {
		return nil, fmt.Errorf("target_value could not be read")
	}
	return json.Marshal(vals)
}

// flattenCondition is a condition of a pipeline (plannedTargets: null strings and [] targets, the
// forms the plan holds) or of a segment (the service's values as they are).
func (k conditionKind) flattenCondition(c console.Condition) (conditionModel, error) {
	tv, err := targetValueStrings(c.TargetValue)
	m := conditionModel{
		Type:        types.StringValue(c.Type),
		Operator:    types.StringValue(c.Operator),
		Field:       types.StringValue(c.Field),
		CustomID:    types.StringValue(c.CustomID),
		TargetValue: tv,
	}
	if k.plannedTargets {
		m.Operator, m.Field, m.CustomID = framework.StringOrNull(c.Operator), framework.StringOrNull(c.Field), framework.StringOrNull(c.CustomID)
		m.TargetValue = framework.NullToEmpty(tv)
	}
	return m, err
}

// flattenConditions is flattenCondition for a list. A targetValue that cannot be read fails a
// resource (its state would lose it); a data source shows it as null.
func (k conditionKind) flattenConditions(ctx context.Context, conds []console.Condition, objType types.ObjectType) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := make([]conditionModel, 0, len(conds))
	for _, c := range conds {
		m, err := k.flattenCondition(c)
		if err != nil && k.plannedTargets {
			diags.AddError("Unexpected condition target value",
				fmt.Sprintf("The service answered a targetValue the provider cannot read (%s): %v", framework.Truncate(string(c.TargetValue), 120), err))
			return types.ListNull(objType), diags
		}
		out = append(out, m)
	}
	list, d := types.ListValueFrom(ctx, objType, out)
	diags.Append(d...)
	return list, diags
}

// flattenRuleCondition puts the targets back into the attribute matching their JSON type: all strings
// into target_value, all numbers into target_numbers (exactly), a mix into target_value as strings.
func flattenRuleCondition(c console.Condition, hint *ruleConditionModel) (attr.Value, error) {
	if hint == nil {
		hint = &ruleConditionModel{}
	}
	tv := types.ListNull(types.StringType)
	tn := types.ListNull(types.NumberType)

	raw := bytes.TrimSpace(c.TargetValue)
	var items []json.RawMessage
	switch {
	case len(raw) == 0 || string(raw) == "null":
	case raw[0] == '[':
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, err
		}
	default:
		items = []json.RawMessage{raw}
	}

	allNumbers := true
	for _, it := range items {
		if framework.JSONKind(it) != '0' || !framework.NumberFits(it) {
			allNumbers = false // a number too large to hold as one is read back as its JSON text
		}
	}
	// The service may store numbers sent as numbers as strings of them ([18] → ["18"]): when the
	// configuration (or the state) holds these same numbers in target_numbers, they go back there.
	if !allNumbers && len(items) > 0 && framework.IsKnownList(hint.TargetNumbers) {
		if nums, ok := numericStrings(items); ok && sameNumbers(nums, hint.TargetNumbers) {
			items, allNumbers = nums, true
		}
	}
	switch {
	case len(items) == 0:
		// Absent and [] mean the same; keep whichever empty list the configuration wrote.
		if framework.IsEmptyList(hint.TargetNumbers) {
			tn = hint.TargetNumbers
		} else if framework.IsEmptyList(hint.TargetValue) {
			tv = hint.TargetValue
		}
	case allNumbers:
		l, err := numberTargets(items, hint.TargetNumbers)
		if err != nil {
			return nil, err
		}
		tn = l
	default: // all strings, or a mix rendered as strings
		l, err := targetValueStrings(raw)
		if err != nil {
			return nil, err
		}
		tv = l
	}

	return types.ObjectValueMust(ruleConditionObjectType.AttrTypes, map[string]attr.Value{
		"type":           types.StringValue(c.Type),
		"operator":       framework.StringOrNull(c.Operator),
		"field":          framework.StringOrNull(c.Field),
		"custom_id":      framework.StringOrNull(c.CustomID),
		"target_value":   tv,
		"target_numbers": tn,
	}), nil
}

// numberTargets reads JSON numbers as Terraform numbers; where the hint holds the same number, its
// value (and so its written form) is kept.
func numberTargets(items []json.RawMessage, hint types.List) (types.List, error) {
	var hintNums []types.Number
	if framework.IsKnownList(hint) {
		hintNums = make([]types.Number, 0, len(hint.Elements()))
		for _, e := range hint.Elements() {
			n, _ := e.(types.Number)
			hintNums = append(hintNums, n)
		}
	}
	vals := make([]attr.Value, len(items))
	for i, it := range items {
		bf, err := framework.ParseNumber(string(bytes.TrimSpace(it)))
		if err != nil {
			return types.ListNull(types.NumberType), err
		}
		vals[i] = types.NumberValue(bf)
		if len(hintNums) == len(items) {
			if hb := hintNums[i].ValueBigFloat(); hb != nil && !hintNums[i].IsUnknown() && hb.Cmp(bf) == 0 {
				vals[i] = hintNums[i]
			}
		}
	}
	return types.ListValueMust(types.NumberType, vals), nil
}

// targetValueStrings turns a condition's targetValue (an array, or a single scalar) into a list of
// strings; numbers take their shortest decimal form, other JSON values their compact JSON text.
func targetValueStrings(raw json.RawMessage) (types.List, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return types.ListNull(types.StringType), nil
	}
	var items []json.RawMessage
	if raw[0] == '[' {
		if err := json.Unmarshal(raw, &items); err != nil {
			return types.ListNull(types.StringType), err
		}
	} else {
		items = []json.RawMessage{raw}
	}
	vals := make([]attr.Value, len(items))
	for i, it := range items {
		s, err := scalarString(it)
		if err != nil {
			return types.ListNull(types.StringType), err
		}
		vals[i] = types.StringValue(s)
	}
	return types.ListValueMust(types.StringType, vals), nil
}

func scalarString(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", fmt.Errorf("empty JSON value")
	}
	switch c := raw[0]; {
	case c == '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case c == '-' || (c >= '0' && c <= '9'):
		return framework.ShortestDecimal(string(raw))
	default:
		return framework.CompactJSON(raw), nil
	}
}

// numericStrings turns JSON targets that are numbers or strings holding a JSON number into numbers;
// ok is false when any target is something else.
func numericStrings(items []json.RawMessage) ([]json.RawMessage, bool) {
	out := make([]json.RawMessage, len(items))
	for i, it := range items {
		it = bytes.TrimSpace(it)
		if len(it) > 0 && it[0] == '"' {
			var s string
			if json.Unmarshal(it, &s) != nil {
				return nil, false
			}
			s = strings.TrimSpace(s)
			var n json.Number
			if json.Unmarshal([]byte(s), &n) != nil || s == "" {
				return nil, false
			}
			it = json.RawMessage(s)
		}
		if framework.JSONKind(it) != '0' || !framework.NumberFits(it) {
			return nil, false
		}
		out[i] = it
	}
	return out, true
}

// sameNumbers reports whether the JSON numbers equal, by value and in order, the numbers of l.
func sameNumbers(nums []json.RawMessage, l types.List) bool {
	elems := l.Elements()
	if len(elems) != len(nums) {
		return false
	}
	for i, e := range elems {
		n, ok := e.(types.Number)
		if !ok || n.IsNull() || n.IsUnknown() {
			return false
		}
		bf, err := framework.ParseNumber(string(nums[i]))
		if err != nil || n.ValueBigFloat().Cmp(bf) != 0 {
			return false
		}
	}
	return true
}
