// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// Value helpers shared by every resource and data source: known/empty predicates on framework
// values, conversions between the service's JSON and Terraform values, and text for diagnostics.

// isKnownList is false for null and unknown lists and for the zero value too (no value at all).
func isKnownList(l types.List) bool {
	return !l.IsNull() && !l.IsUnknown()
}

// isEmptyList reports a known list without elements: `[]`, as opposed to null.
func isEmptyList(l types.List) bool {
	return isKnownList(l) && len(l.Elements()) == 0
}

// elementsKnown reports whether l and each of its elements are known (their contents may not be).
func elementsKnown(l types.List) bool {
	if !isKnownList(l) {
		return false
	}
	for _, e := range l.Elements() {
		if e.IsNull() || e.IsUnknown() {
			return false
		}
	}
	return true
}

// knownElements is the list's elements, or none while the list is null or unknown.
func knownElements(l types.List) []attr.Value {
	if !isKnownList(l) {
		return nil
	}
	return l.Elements()
}

// knownString is the string's value; ok is false while it is null or unknown.
func knownString(s types.String) (string, bool) {
	if s.IsNull() || s.IsUnknown() {
		return "", false
	}
	return s.ValueString(), true
}

func emptyListOf(elem attr.Type) types.List {
	return types.ListValueMust(elem, []attr.Value{})
}

// nullToEmpty turns a null list into [] of the same element type.
func nullToEmpty(l types.List) types.List {
	if l.IsNull() {
		return emptyListOf(l.ElementType(context.Background()))
	}
	return l
}

// listModels reads the elements of a known list into models; a null or unknown list has none.
func listModels[T any](ctx context.Context, l types.List) ([]T, diag.Diagnostics) {
	if !isKnownList(l) {
		return nil, nil
	}
	var out []T
	d := l.ElementsAs(ctx, &out, true)
	return out, d
}

// modelList converts the service's items to models and lists them as objects of typ; typ is
// derived from the schema the models follow, so a mismatch is the provider's bug and panics as
// types.ListValueMust does.
func modelList[S, M any](typ types.ObjectType, items []S, model func(S) M) types.List {
	models := make([]M, len(items))
	for i, it := range items {
		models[i] = model(it)
	}
	l, d := types.ListValueFrom(context.Background(), typ, models)
	if d.HasError() {
		panic(fmt.Sprintf("modelList: %v", d))
	}
	return l
}

func asModel(ctx context.Context, v attr.Value, target any, diags *diag.Diagnostics) bool {
	obj, ok := v.(basetypes.ObjectValue)
	if !ok || obj.IsNull() || obj.IsUnknown() {
		return false
	}
	d := obj.As(ctx, target, basetypes.ObjectAsOptions{})
	diags.Append(d...)
	return !d.HasError()
}

func objectOf(ctx context.Context, typ types.ObjectType, model any, diags *diag.Diagnostics) attr.Value {
	obj, d := types.ObjectValueFrom(ctx, typ.AttrTypes, model)
	diags.Append(d...)
	return obj
}

// mapObjects rebuilds a list of objects element by element, edit changing the model of each; an
// unknown element, or one that does not decode, stays unknown.
func mapObjects[T any](ctx context.Context, l types.List, typ types.ObjectType, edit func(*T), diags *diag.Diagnostics) types.List {
	out := make([]attr.Value, 0, len(l.Elements()))
	for _, v := range l.Elements() {
		var t T
		if v.IsUnknown() || !asModel(ctx, v, &t, diags) {
			out = append(out, types.ObjectUnknown(typ.AttrTypes))
			continue
		}
		edit(&t)
		out = append(out, objectOf(ctx, typ, t, diags))
	}
	return listOf(typ, out, diags)
}

func listOf(elem attr.Type, vals []attr.Value, diags *diag.Diagnostics) types.List {
	l, d := types.ListValue(elem, vals)
	diags.Append(d...)
	return l
}

// isBlank reports "" and strings made only of white space, which the console shows as nothing.
func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

// truncate keeps at most n characters of s (never cutting one in two) and marks the cut with "…".
func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// stringOrNull is null for "", which the service sends for an attribute that was never set.
func stringOrNull(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// optionalString maps an absent or empty service value to null: the schema rejects "".
func optionalString(p *string) types.String { return stringOrNull(deref(p, "")) }

// intOr is the value of an optional number, def when it is not set.
func intOr(v types.Int64, def int) int {
	if v.IsNull() {
		return def
	}
	return int(v.ValueInt64())
}

// durationOr is the value of an optional Go duration, def when it is not set. The schema has
// validated it, so it parses.
func durationOr(v types.String, def time.Duration) time.Duration {
	s := v.ValueString()
	if s == "" {
		return def
	}
	d, _ := time.ParseDuration(s)
	return d
}

func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

func stringList(s []string) types.List {
	if s == nil {
		return types.ListNull(types.StringType)
	}
	vals := make([]attr.Value, len(s))
	for i, v := range s {
		vals[i] = types.StringValue(v)
	}
	return types.ListValueMust(types.StringType, vals)
}

// compactJSON renders raw JSON without insignificant white space; invalid JSON is returned as it is.
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

func isEmptyJSONObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return true
	}
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && len(m) == 0
}

// jsonKind classifies a JSON value by its first byte: '"' string, '0' number, other bytes as they are.
func jsonKind(raw json.RawMessage) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	if c := raw[0]; c == '-' || (c >= '0' && c <= '9') {
		return '0'
	}
	return raw[0]
}

// shortestDecimal renders a JSON number in its shortest exact decimal form: 12.50 → 12.5, 1e3 → 1000.
// A number whose decimal form would be huge (1e9999999 has ten million digits) keeps its JSON text.
func shortestDecimal(num string) (string, error) {
	if len(num) > maxNumberText {
		return num, nil
	}
	f, err := parseNumber(num)
	if err != nil {
		return "", err
	}
	if !decimalFits(f) {
		return num, nil
	}
	return f.Text('f', -1), nil
}

// maxNumberText bounds the numbers the provider converts: the service could send 1e9999999 (ten
// bytes), whose decimal expansion takes minutes and megabytes, or a number a megabyte long.
const maxNumberText = 1000

// decimalFits reports whether f's plain decimal form is at most about maxNumberText digits.
// The plugin protocol writes every number that is not an exact float64 in that form.
func decimalFits(f *big.Float) bool {
	if f.IsInf() {
		return false
	}
	exp := f.MantExp(nil) // binary exponent: about exp*0.30103 decimal digits
	return exp > -3*maxNumberText && exp < 3*maxNumberText
}

// numberFits reports whether a JSON number can be held as a Terraform number without a decimal
// expansion of millions of digits (see decimalFits).
func numberFits(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) > maxNumberText {
		return false
	}
	bf, err := parseNumber(string(raw))
	return err == nil && decimalFits(bf)
}

// parseNumber reads a JSON number at the precision Terraform uses for configuration numbers,
// so that a value read back equals the value written (0.1 stays 0.1).
func parseNumber(s string) (*big.Float, error) {
	bf, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	if err != nil {
		return nil, fmt.Errorf("invalid number %q: %w", s, err)
	}
	return bf, nil
}

func numberFromFloat(f float64) types.Number {
	bf, err := parseNumber(strconv.FormatFloat(f, 'g', -1, 64))
	if err != nil {
		return types.NumberValue(big.NewFloat(f))
	}
	return types.NumberValue(bf)
}

// roundPercentage rounds a percentage to the two decimals the service keeps, so that binary float
// noise in its answers (33.330000000000005) reads as the value written (33.33).
func roundPercentage(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	r := math.Round(f*100) / 100
	// Formatting through the shortest decimal gives the float64 nearest the two-decimal value.
	if v, err := strconv.ParseFloat(strconv.FormatFloat(r, 'f', 2, 64), 64); err == nil {
		return v
	}
	return r
}

// percentFromFloat is a pass percentage as the service answered it, at the two decimals it keeps:
// 33.330000000000005 would differ from the configuration and, in configuration generated from it,
// fail passPercentageValidator.
func percentFromFloat(f float64) types.Number {
	return numberFromFloat(roundPercentage(f))
}
