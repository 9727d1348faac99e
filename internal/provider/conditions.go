// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// A condition ({type, operator, field, customID, targetValue}) is the same object in gate rules,
// pipeline phase rules and segments: one model, one schema builder and one conversion to and
// from the service live here. The three differ only in what conditionKind states.

// conditionModel is a condition as pipelines and segments hold it.
type conditionModel struct {
	Type        types.String `tfsdk:"type"`
	Operator    types.String `tfsdk:"operator"`
	Field       types.String `tfsdk:"field"`
	CustomID    types.String `tfsdk:"custom_id"`
	TargetValue types.List   `tfsdk:"target_value"`
}

// gateConditionModel adds target_numbers: gate rules can send targets as JSON numbers.
type gateConditionModel struct {
	conditionModel
	TargetNumbers types.List `tfsdk:"target_numbers"`
}

// conditionKind is what sets the conditions of one object apart from the others.
type conditionKind struct {
	typeDesc, operatorDesc, fieldDesc, customIDDesc, targetDesc string
	// types and operators are the service's documented values: a near miss of one is refused with
	// the value meant (framework.KnownValue). Nil: not checked (data sources).
	types, operators []string
	// typesOnlyIn names whose whole list types is ("segments"): any other type is refused.
	typesOnlyIn string
	// warnUnknown: other types and operators warn (gate rules), since the service may add more.
	warnUnknown bool
	// numbers: target_numbers beside target_value (gate rules).
	numbers bool
	// plannedTargets: an omitted target_value is planned and stored as [] (pipelines).
	plannedTargets bool
}

// The service's documented condition types and operators. In gate rules unknown values only warn:
// the service may add more. Segments accept segmentConditionTypes and no other (DESIGN §2, round three).
var (
	segmentConditionTypes = []string{
		"app_version", "browser_name", "browser_version", "country", "custom_field", "email", "environment_tier",
		"fails_segment", "ip_address", "os_name", "os_version", "passes_segment", "unit_id", "user_id",
	}
	gateConditionTypes = []string{
		"app_version", "browser_name", "browser_version", "country", "custom_field", "email", "environment_tier",
		"fails_gate", "fails_segment", "ip_address", "locale", "os_name", "os_version", "passes_gate",
		"passes_segment", "public", "time", "unit_id", "user_id", "url", "javascript", "device_model", "target_app",
	}
	gateConditionOperators = []string{
		"any", "none", "any_case_sensitive", "none_case_sensitive", "str_contains_any", "str_contains_none",
		"str_starts_with_any", "str_ends_with_any", "str_matches", "gt", "gte", "lt", "lte", "eq", "neq",
		"before", "after", "on", "version_gt", "version_gte", "version_lt", "version_lte", "version_eq",
		"version_neq", "is_null", "is_not_null", "in_segment_list", "not_in_segment_list", "array_contains_any",
		"array_contains_none", "array_contains_all", "not_array_contains_all",
	}
)

var (
	gateConditions = conditionKind{
		typeDesc: "What the condition tests. Documented types: " + framework.CodeList(gateConditionTypes) +
			". A value that differs from one of them only by case or a typo (such as `emial`) is refused with " +
			"a suggestion; other values are accepted with a warning, since the service may add types.",
		operatorDesc: operatorDesc,
		fieldDesc:    "Field tested by `custom_field` conditions, such as `age`.",
		customIDDesc: "Custom unit ID type, for conditions on a custom ID (such as `unit_id`).",
		targetDesc: "Target values, sent as JSON strings. Conflicts with `target_numbers`. " +
			"Values the service holds as a mix of strings and numbers are read back here as strings.",
		types:       gateConditionTypes,
		operators:   gateConditionOperators,
		warnUnknown: true,
		numbers:     true,
	}
	// segmentRuleConditions are the conditions of featureconsole_segment's rules: a gate rule's, of
	// the types segments accept.
	segmentRuleConditions = conditionKind{
		typeDesc: "What the condition tests: one of " + framework.CodeList(segmentConditionTypes) + ", the condition " +
			"types segments accept. Any other (such as `locale` or `public`, which gates accept) is refused at plan " +
			"time, and a value that differs from one of them only by case or a typo (such as `emial`) is refused " +
			"with a suggestion.",
		operatorDesc: operatorDesc,
		fieldDesc:    gateConditions.fieldDesc,
		customIDDesc: gateConditions.customIDDesc,
		targetDesc:   gateConditions.targetDesc,
		types:        segmentConditionTypes,
		typesOnlyIn:  "segments",
		operators:    gateConditionOperators,
		warnUnknown:  true,
		numbers:      true,
	}
	pipelineConditions = conditionKind{
		typeDesc: "Condition type, such as `user_id`, `app_version` or `public`. A value that differs from a gate " +
			"rule's condition type only by case or a typo (such as `emial`) is refused with a suggestion.",
		operatorDesc: "Operator, such as `any`. Omit for conditions that take none (`public`). A value that differs " +
			"from a gate rule's operator only by case or a typo is refused with a suggestion.",
		fieldDesc:    "Field the condition reads, for conditions on a custom field.",
		customIDDesc: "Custom unit ID type, for conditions on a custom unit ID.",
		targetDesc:   "Values the operator compares with, as strings (for example `[\"42\"]`). " + emptyMeansNone,
		// Console-written pipeline rules hold types beyond the gates' list: only near misses are refused.
		types:          gateConditionTypes,
		operators:      gateConditionOperators,
		plannedTargets: true,
	}
	segmentConditions = conditionKind{
		typeDesc:     "Condition type, such as `user_id` or `email`.",
		operatorDesc: "Operator, such as `any`.",
		fieldDesc:    "Field, for `custom_field` conditions.",
		customIDDesc: "Custom unit ID type, where the condition uses one.",
		targetDesc:   "Target values as strings; numbers in their shortest decimal form, a single value as a one-element list.",
	}

	gateConditionObjectType    = resourceObjectType(gateConditions.resourceAttributes())
	pipelineConditionType      = resourceObjectType(pipelineConditions.resourceAttributes())
	segmentConditionObjectType = dataSourceObjectType(segmentConditions.dataSourceAttributes())
)

// operatorDesc describes the operator of gate and segment rules.
var operatorDesc = "How the value is compared with the targets. Documented operators: " + framework.CodeList(gateConditionOperators) +
	". A value that differs from one of them only by case or a typo is refused with a suggestion; " +
	"other values are accepted with a warning."

const emptyMeansNone = "Omitting it, `null` and `[]` all mean none and never show a difference in a plan (state holds `[]`)."

// resourceAttributes is the schema of one condition of a resource.
func (k conditionKind) resourceAttributes() map[string]schema.Attribute {
	typeValidators := []validator.String{framework.NotBlank()}
	operatorValidators := []validator.String{stringvalidator.LengthAtLeast(1)}
	if k.types != nil {
		typeValidators = append(typeValidators, framework.KnownValue("condition type", k.types, k.typesOnlyIn, k.warnUnknown))
	}
	if k.operators != nil {
		operatorValidators = append(operatorValidators, framework.KnownValue("condition operator", k.operators, "", k.warnUnknown))
	}
	optionalText := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, MarkdownDescription: desc,
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)}}
	}
	targets := schema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: k.targetDesc}
	attrs := map[string]schema.Attribute{
		"type":      schema.StringAttribute{Required: true, MarkdownDescription: k.typeDesc, Validators: typeValidators},
		"operator":  schema.StringAttribute{Optional: true, MarkdownDescription: k.operatorDesc, Validators: operatorValidators},
		"field":     optionalText(k.fieldDesc),
		"custom_id": optionalText(k.customIDDesc),
	}
	if k.plannedTargets {
		targets.Computed = true
	}
	if k.numbers {
		targets.Validators = []validator.List{
			listvalidator.NoNullValues(),
			framework.ConflictsWith("target_numbers"),
		}
		attrs["target_numbers"] = schema.ListAttribute{
			Optional:    true,
			ElementType: types.NumberType,
			MarkdownDescription: "Target values, sent as JSON numbers exactly as written (`12.5` stays `12.5`). " +
				"Conflicts with `target_value`.",
			Validators: []validator.List{listvalidator.NoNullValues()},
		}
	}
	attrs["target_value"] = targets
	return attrs
}

// dataSourceAttributes is the schema of one condition read by a data source: all computed.
func (k conditionKind) dataSourceAttributes() map[string]dschema.Attribute {
	return map[string]dschema.Attribute{
		"type":         framework.ComputedText(k.typeDesc),
		"operator":     framework.ComputedText(k.operatorDesc),
		"field":        framework.ComputedText(k.fieldDesc),
		"custom_id":    framework.ComputedText(k.customIDDesc),
		"target_value": dschema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: k.targetDesc},
	}
}

// resourceObjectType is the object type of a nested resource object, derived from its schema so
// that the two cannot drift apart.
func resourceObjectType(attrs map[string]schema.Attribute) types.ObjectType {
	t, _ := schema.NestedAttributeObject{Attributes: attrs}.Type().(types.ObjectType)
	return t
}

// dataSourceObjectType is resourceObjectType for a data source's nested object.
func dataSourceObjectType(attrs map[string]dschema.Attribute) types.ObjectType {
	t, _ := dschema.NestedAttributeObject{Attributes: attrs}.Type().(types.ObjectType)
	return t
}

// nestedObjectType is the object type of t's nested attribute name: a single object, or the
// elements of a list of objects.
func nestedObjectType(t types.ObjectType, name string) types.ObjectType {
	switch a := t.AttrTypes[name].(type) {
	case types.ObjectType:
		return a
	case types.ListType:
		o, _ := a.ElemType.(types.ObjectType)
		return o
	}
	return types.ObjectType{}
}

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
func expandTargets(ctx context.Context, c gateConditionModel) (json.RawMessage, error) {
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

// flattenGateCondition puts the targets back into the attribute matching their JSON type: all strings
// into target_value, all numbers into target_numbers (exactly), a mix into target_value as strings.
func flattenGateCondition(c console.Condition, hint *gateConditionModel) (attr.Value, error) {
	if hint == nil {
		hint = &gateConditionModel{}
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

	return types.ObjectValueMust(gateConditionObjectType.AttrTypes, map[string]attr.Value{
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
