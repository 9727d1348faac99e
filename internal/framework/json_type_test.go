// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package framework

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
)

// JSON values compare by meaning: key order, spacing and number forms do not matter; anything
// else does. jsontypes.Normalized alone tells 5 from 5.0, which the service may answer.
func TestJSONValueSemanticEquals(t *testing.T) {
	same := [][2]string{
		{`{"a":1,"b":[1,2]}`, `{ "b": [1.0, 2e0], "a": 1.00 }`},
		{`{"x":{"y":"z"}}`, `{"x":{"y":"z"}}`},
		{`{"n":12345678901234567890}`, `{"n":1.2345678901234567890e19}`},
	}
	differ := [][2]string{
		{`{"a":1}`, `{"a":"1"}`},
		{`{"a":[1,2]}`, `{"a":[2,1]}`},
		{`{"a":1}`, `{"a":1,"b":null}`},
		{`{"n":0.1}`, `{"n":0.10000000000000001}`},
	}
	ctx := context.Background()
	for _, p := range same {
		if eq, _ := NewJSONValue(p[0]).StringSemanticEquals(ctx, NewJSONValue(p[1])); !eq {
			t.Errorf("%s and %s should be equal", p[0], p[1])
		}
	}
	for _, p := range differ {
		if eq, _ := NewJSONValue(p[0]).StringSemanticEquals(ctx, NewJSONValue(p[1])); eq {
			t.Errorf("%s and %s should differ", p[0], p[1])
		}
	}
}

// CanonicalJSON is what jsonencode writes for the same value.
func TestCanonicalJSON(t *testing.T) {
	for in, want := range map[string]string{
		`{ "b": 1.50, "a": [2.0, "x<"] }`: `{"a":[2,"x\u003c"],"b":1.5}`,
		`{"big":1e21,"small":1.25e-3}`:    `{"big":1000000000000000000000,"small":0.00125}`,
		`not json`:                        `not json`,
	} {
		if got := CanonicalJSON([]byte(in)); got != want {
			t.Errorf("canonicalJSON(%s) = %s, want %s", in, got, want)
		}
	}
}

// SameJSON: null is {}, unknown is never the same, and text compares by meaning.
func TestSameJSON(t *testing.T) {
	ctx := context.Background()
	null, unknown := NewJSONNull(), JSONValue{jsontypes.NewNormalizedUnknown()}
	cases := []struct {
		a, b JSONValue
		want bool
	}{
		{NewJSONValue(`{"a":1,"b":2}`), NewJSONValue(`{ "b": 2.0, "a": 1 }`), true},
		{NewJSONValue(`{"a":1}`), NewJSONValue(`{"a":2}`), false},
		{null, NewJSONValue(`{}`), true},
		{null, NewJSONValue(`{"a":1}`), false},
		{unknown, unknown, false},
	}
	for _, c := range cases {
		if got := SameJSON(ctx, c.a, c.b); got != c.want {
			t.Errorf("SameJSON(%s, %s) = %v", c.a, c.b, got)
		}
	}
	if _, ok := KnownJSON(unknown); ok {
		t.Error("KnownJSON(unknown) is known")
	}
	if b, ok := KnownJSON(NewJSONValue(`[1]`)); !ok || string(b) != `[1]` {
		t.Errorf("KnownJSON([1]) = %s, %v", b, ok)
	}
}
