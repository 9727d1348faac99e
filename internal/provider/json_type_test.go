// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/valueschema"
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
		if eq, _ := newJSONValue(p[0]).StringSemanticEquals(ctx, newJSONValue(p[1])); !eq {
			t.Errorf("%s and %s should be equal", p[0], p[1])
		}
	}
	for _, p := range differ {
		if eq, _ := newJSONValue(p[0]).StringSemanticEquals(ctx, newJSONValue(p[1])); eq {
			t.Errorf("%s and %s should differ", p[0], p[1])
		}
	}
}

// canonicalJSON is what jsonencode writes for the same value.
func TestCanonicalJSON(t *testing.T) {
	for in, want := range map[string]string{
		`{ "b": 1.50, "a": [2.0, "x<"] }`: `{"a":[2,"x\u003c"],"b":1.5}`,
		`{"big":1e21,"small":1.25e-3}`:    `{"big":1000000000000000000000,"small":0.00125}`,
		`not json`:                        `not json`,
	} {
		if got := canonicalJSON([]byte(in)); got != want {
			t.Errorf("canonicalJSON(%s) = %s, want %s", in, got, want)
		}
	}
}

// A config's value read without a configuration takes jsonencode's form; {} is null where the
// state holds null; the prior form is kept where it is {}.
func TestFlattenJSONValue(t *testing.T) {
	if v := flattenJSONValue(console.JSONObject(`{"b":1.0,"a":2}`), newJSONNull()); v.ValueString() != `{"a":2,"b":1}` {
		t.Errorf("got %s", v.ValueString())
	}
	if v := flattenJSONValue(console.JSONObject(`{}`), newJSONNull()); !v.IsNull() {
		t.Errorf("{} with a null prior: %s", v)
	}
	if v := flattenJSONValue(nil, newJSONValue(`{ }`)); v.ValueString() != `{ }` {
		t.Errorf("{} with a {} prior: %s", v)
	}
}

// checkValue adds one error per value, on the value's path, listing each JSON path and what the
// schema wants there.
func TestCheckValue(t *testing.T) {
	s, err := valueschema.Compile([]byte(`{"type":"object","required":["title"],"properties":{"n":{"type":"integer"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var diags diag.Diagnostics
	at := path.Root("rules").AtListIndex(2).AtName("return_value")
	if checkValue(s, []byte(`{"n":1.5}`), at, `Return value of rule "x"`, "rules[2].return_value", "the schema", &diags) {
		t.Fatal("a breaking value passed")
	}
	if !checkValue(s, []byte(`{"title":"t","n":2.0}`), at, "ok", "rules[2].return_value", "the schema", &diags) {
		t.Fatal("a matching value failed")
	}
	if len(diags) != 1 {
		t.Fatalf("%d diagnostics", len(diags))
	}
	d := diags[0].Detail()
	for _, want := range []string{"rules[2].return_value", "at (the whole value): missing property 'title'", "at /n: got number, want integer", "Nothing was sent"} {
		if !strings.Contains(d, want) {
			t.Errorf("detail lacks %q:\n%s", want, d)
		}
	}
	if checkValue(nil, []byte(`[]`), at, "x", "w", "y", &diags) != true {
		t.Error("no schema checks nothing")
	}
}
