// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package framework

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// JSONValueType is the type of the JSON values of dynamic configs: jsontypes.Normalized (valid JSON;
// key order and spacing plan nothing) whose numbers also compare by value, so that the service
// answering 5.0 for the configuration's 5 plans nothing either (jsontypes compares number text).
type JSONValueType struct{ jsontypes.NormalizedType }

var (
	_ basetypes.StringTypable                    = JSONValueType{}
	_ basetypes.StringValuableWithSemanticEquals = JSONValue{}
	_ xattr.ValidateableAttribute                = JSONValue{}
)

func (t JSONValueType) String() string { return "provider.jsonValueType" }

func (t JSONValueType) ValueType(context.Context) attr.Value { return JSONValue{} }

func (t JSONValueType) Equal(o attr.Type) bool {
	_, ok := o.(JSONValueType)
	return ok
}

func (t JSONValueType) ValueFromString(_ context.Context, in basetypes.StringValue) (basetypes.StringValuable, diag.Diagnostics) {
	return JSONValue{jsontypes.Normalized{StringValue: in}}, nil
}

func (t JSONValueType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	v, err := t.StringType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	s, ok := v.(basetypes.StringValue)
	if !ok {
		return nil, fmt.Errorf("unexpected value type of %T", v)
	}
	out, diags := t.ValueFromString(ctx, s)
	if diags.HasError() {
		return nil, fmt.Errorf("unexpected error converting StringValue to StringValuable: %v", diags)
	}
	return out, nil
}

// JSONValue is a value of JSONValueType.
type JSONValue struct{ jsontypes.Normalized }

func NewJSONValue(s string) JSONValue { return JSONValue{jsontypes.NewNormalizedValue(s)} }
func NewJSONNull() JSONValue          { return JSONValue{jsontypes.NewNormalizedNull()} }

func (v JSONValue) Type(context.Context) attr.Type { return JSONValueType{} }

func (v JSONValue) Equal(o attr.Value) bool {
	other, ok := o.(JSONValue)
	return ok && v.StringValue.Equal(other.StringValue)
}

// StringSemanticEquals compares by meaning: objects by key, arrays by position, numbers by value.
func (v JSONValue) StringSemanticEquals(_ context.Context, newValuable basetypes.StringValuable) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	nv, ok := newValuable.(JSONValue)
	if !ok {
		diags.AddError("Semantic Equality Check Error", fmt.Sprintf("unexpected value type %T", newValuable))
		return false, diags
	}
	return SameJSONMeaning([]byte(v.ValueString()), []byte(nv.ValueString())), diags
}

// SameJSONMeaning reports whether two JSON texts mean the same; invalid JSON is never the same.
func SameJSONMeaning(a, b []byte) bool {
	x, okA := decodeNumbers(a)
	y, okB := decodeNumbers(b)
	return okA && okB && jsonMeaningEqual(x, y)
}

func decodeNumbers(raw []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return nil, false
	}
	return v, true
}

func jsonMeaningEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !jsonMeaningEqual(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonMeaningEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		rx, okX := new(big.Rat).SetString(x.String())
		ry, okY := new(big.Rat).SetString(y.String())
		return okX && okY && rx.Cmp(ry) == 0
	default:
		return a == b
	}
}

// CanonicalJSON writes a JSON value the way Terraform's jsonencode writes the same value: keys
// sorted, no spaces, numbers in their shortest decimal form (1.0 is 1, 1.50 is 1.5). What the service
// holds is stored in this form where no configuration says otherwise (import, terraform query), so
// that the configuration generated from it, jsonencode(...) of the same value, plans nothing.
// Invalid JSON is returned compacted, as it is.
func CanonicalJSON(raw []byte) string {
	v, ok := decodeNumbers(raw)
	if !ok {
		return CompactJSON(raw)
	}
	b, err := json.Marshal(canonicalNumbers(v))
	if err != nil {
		return CompactJSON(raw)
	}
	return string(b)
}

func canonicalNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = canonicalNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = canonicalNumbers(e)
		}
	case json.Number:
		f, _, err := big.ParseFloat(x.String(), 10, 512, big.ToNearestEven)
		if err == nil && !f.IsInf() {
			return json.Number(f.Text('f', -1))
		}
	}
	return v
}

// jsonExamples are how each JSON attribute is written, for the error of a value that is not JSON.
var jsonExamples = map[string]string{
	"default_value": `default_value = jsonencode({ title = "Buy now", max_items = 5 })`,
	"schema":        `schema = jsonencode({ type = "object", properties = { title = { type = "string" } } })`,
	"return_value":  `return_value = jsonencode({ color = "blue" })`,
}

// ValidateAttribute replaces jsontypes' check of the text, whose words ("not valid JSON string
// format") leave a user who wrote default_value = "grey" guessing: the error says how to write a
// JSON object. Every attribute of this type has it; validators do not run after it fails.
func (v JSONValue) ValidateAttribute(_ context.Context, req xattr.ValidateAttributeRequest, resp *xattr.ValidateAttributeResponse) {
	if v.IsUnknown() || v.IsNull() || json.Valid([]byte(v.ValueString())) {
		return
	}
	name := "value"
	if steps := req.Path.Steps(); len(steps) > 0 {
		if a, ok := steps[len(steps)-1].(path.PathStepAttributeName); ok {
			name = string(a)
		}
	}
	example := cmp.Or(jsonExamples[name], name+" = jsonencode({ key = \"value\" })")
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid JSON String Value",
		fmt.Sprintf("%s must be a JSON object, written with jsonencode({...}), such as %s; got %s, which is not JSON.",
			req.Path, example, Truncate(v.ValueString(), 80)))
}

// PlanPriorJSON plans the prior state's text for a JSON attribute whose configured text means the
// same (key order, spacing, 5 against 5.0): the framework compares such values by meaning on reads
// and applies, but a plan compares the configuration's text with the state's, so an import, or a
// configuration reformatted, would plan an update that changes nothing. Terraform accepts a planned
// value equal to the prior one wherever the configuration sets the attribute.
func PlanPriorJSON() planmodifier.String { return priorJSON{} }

type priorJSON struct{}

func (priorJSON) Description(context.Context) string {
	return "keeps the state's text when the configuration's means the same JSON"
}

func (p priorJSON) MarkdownDescription(ctx context.Context) string { return p.Description(ctx) }

func (priorJSON) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	c, s := req.ConfigValue, req.StateValue
	if c.IsNull() || c.IsUnknown() || s.IsNull() || s.IsUnknown() || c.ValueString() == s.ValueString() {
		return
	}
	if SameJSONMeaning([]byte(c.ValueString()), []byte(s.ValueString())) {
		resp.PlanValue = s
	}
}

// KnownJSON returns the text of a known, non-null JSON value; false for null or unknown.
func KnownJSON(v JSONValue) ([]byte, bool) {
	if v.IsNull() || v.IsUnknown() {
		return nil, false
	}
	return []byte(v.ValueString()), true
}

// SameJSON reports whether two JSON attributes mean the same: null is {}, and an unknown value is
// never the same as anything (the plan cannot tell yet).
func SameJSON(ctx context.Context, a, b JSONValue) bool {
	if a.IsUnknown() || b.IsUnknown() {
		return false
	}
	ab, _ := KnownJSON(a)
	bb, _ := KnownJSON(b)
	if IsEmptyJSONObject(ab) || IsEmptyJSONObject(bb) {
		return IsEmptyJSONObject(ab) && IsEmptyJSONObject(bb)
	}
	eq, d := a.StringSemanticEquals(ctx, b)
	return eq && !d.HasError()
}
