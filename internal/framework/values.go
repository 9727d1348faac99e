// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package framework

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// Value helpers shared by every resource and data source: known/empty predicates on framework
// values, conversions between the service's JSON and Terraform values, and text for diagnostics.
// Numbers have their own file, numbers.go.

// IsKnownList is false for null and unknown lists and for the zero value too (no value at all).
func IsKnownList(l types.List) bool {
	return !l.IsNull() && !l.IsUnknown()
}

// IsEmptyList reports a known list without elements: `[]`, as opposed to null.
func IsEmptyList(l types.List) bool {
	return IsKnownList(l) && len(l.Elements()) == 0
}

// ElementsKnown reports whether l and each of its elements are known (their contents may not be).
func ElementsKnown(l types.List) bool {
	if !IsKnownList(l) {
		return false
	}
	for _, e := range l.Elements() {
		if e.IsNull() || e.IsUnknown() {
			return false
		}
	}
	return true
}

// KnownElements is the list's elements, or none while the list is null or unknown.
func KnownElements(l types.List) []attr.Value {
	if !IsKnownList(l) {
		return nil
	}
	return l.Elements()
}

// KnownString is the string's value; ok is false while it is null or unknown.
func KnownString(s types.String) (string, bool) {
	if s.IsNull() || s.IsUnknown() {
		return "", false
	}
	return s.ValueString(), true
}

func EmptyListOf(elem attr.Type) types.List {
	return types.ListValueMust(elem, []attr.Value{})
}

// NullToEmpty turns a null list into [] of the same element type. ElementType of a framework list
// only hands back its type: no context is there to pass.
//
//nolint:contextcheck // see above
func NullToEmpty(l types.List) types.List {
	if l.IsNull() {
		return EmptyListOf(l.ElementType(context.Background()))
	}
	return l
}

// ListModels reads the elements of a known list into models; a null or unknown list has none.
func ListModels[T any](ctx context.Context, l types.List) ([]T, diag.Diagnostics) {
	if !IsKnownList(l) {
		return nil, nil
	}
	var out []T
	d := l.ElementsAs(ctx, &out, true)
	return out, d
}

// ModelList converts the service's items to models and lists them as objects of typ; typ is
// derived from the schema the models follow, so a mismatch is the provider's bug and panics as
// types.ListValueMust does. Converting known Go values to a framework list uses its context only
// for logging reflection errors, which then panic here: no context is there to pass.
//
//nolint:contextcheck // see above
func ModelList[S, M any](typ types.ObjectType, items []S, model func(S) M) types.List {
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

func AsModel(ctx context.Context, v attr.Value, target any, diags *diag.Diagnostics) bool {
	obj, ok := v.(basetypes.ObjectValue)
	if !ok || obj.IsNull() || obj.IsUnknown() {
		return false
	}
	d := obj.As(ctx, target, basetypes.ObjectAsOptions{})
	diags.Append(d...)
	return !d.HasError()
}

func ObjectOf(ctx context.Context, typ types.ObjectType, model any, diags *diag.Diagnostics) attr.Value {
	obj, d := types.ObjectValueFrom(ctx, typ.AttrTypes, model)
	diags.Append(d...)
	return obj
}

// MapObjects rebuilds a list of objects element by element, edit changing the model of each; an
// unknown element, or one that does not decode, stays unknown.
func MapObjects[T any](ctx context.Context, l types.List, typ types.ObjectType, edit func(*T), diags *diag.Diagnostics) types.List {
	out := make([]attr.Value, 0, len(l.Elements()))
	for _, v := range l.Elements() {
		var t T
		if v.IsUnknown() || !AsModel(ctx, v, &t, diags) {
			out = append(out, types.ObjectUnknown(typ.AttrTypes))
			continue
		}
		edit(&t)
		out = append(out, ObjectOf(ctx, typ, t, diags))
	}
	return ListOf(typ, out, diags)
}

func ListOf(elem attr.Type, vals []attr.Value, diags *diag.Diagnostics) types.List {
	l, d := types.ListValue(elem, vals)
	diags.Append(d...)
	return l
}

// IsBlank reports "" and strings made only of white space, which the console shows as nothing.
func IsBlank(s string) bool { return strings.TrimSpace(s) == "" }

// Truncate keeps at most n characters of s (never cutting one in two) and marks the cut with "…".
func Truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// StringOrNull is null for "", which the service sends for an attribute that was never set.
func StringOrNull(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// StringOrPrior is s, or where the service's answer leaves it out (the document's examples leave an
// experiment's or a config's name out), the prior value when known, else null: never "", which
// the attribute's own validators would refuse in generated configuration.
func StringOrPrior(s string, prior types.String) types.String {
	if s == "" && !prior.IsUnknown() && !prior.IsNull() {
		return prior
	}
	return StringOrNull(s)
}

// OptionalString maps an absent or empty service value to null: the schema rejects "".
func OptionalString(p *string) types.String { return StringOrNull(Deref(p, "")) }

// IntOr is the value of an optional number, def when it is not set.
func IntOr(v types.Int64, def int) int {
	if v.IsNull() {
		return def
	}
	return int(v.ValueInt64())
}

// DurationOr is the value of an optional Go duration, def when it is not set. The schema has
// validated it, so it parses.
func DurationOr(v types.String, def time.Duration) time.Duration {
	s := v.ValueString()
	if s == "" {
		return def
	}
	d, _ := time.ParseDuration(s)
	return d
}

func Deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

func StringList(s []string) types.List {
	if s == nil {
		return types.ListNull(types.StringType)
	}
	vals := make([]attr.Value, len(s))
	for i, v := range s {
		vals[i] = types.StringValue(v)
	}
	return types.ListValueMust(types.StringType, vals)
}

// CompactJSON renders raw JSON without insignificant white space; invalid JSON is returned as it is.
func CompactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

func IsEmptyJSONObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return true
	}
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && len(m) == 0
}

// JSONKind classifies a JSON value by its first byte: '"' string, '0' number, other bytes as they are.
func JSONKind(raw json.RawMessage) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	if c := raw[0]; c == '-' || (c >= '0' && c <= '9') {
		return '0'
	}
	return raw[0]
}

func Capitalize(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// First is the first of a two-result call, to compare such calls in one expression.
func First[T any](v T, _ bool) T { return v }

// StringSet is s as a set of strings; nil is the empty set.
func StringSet(s []string) types.Set {
	vals := make([]attr.Value, len(s))
	for i, v := range s {
		vals[i] = types.StringValue(v)
	}
	return types.SetValueMust(types.StringType, vals)
}

// QuoteList is ids quoted and joined with commas, as messages list several ids.
func QuoteList(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}
