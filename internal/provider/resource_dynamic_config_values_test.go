// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/valueschema"
)

// A config's value read without a configuration takes jsonencode's form; {} is null where the
// state holds null; the prior form is kept where it is {}.
func TestFlattenJSONValue(t *testing.T) {
	if v := flattenJSONValue(console.JSONObject(`{"b":1.0,"a":2}`), framework.NewJSONNull()); v.ValueString() != `{"a":2,"b":1}` {
		t.Errorf("got %s", v.ValueString())
	}
	if v := flattenJSONValue(console.JSONObject(`{}`), framework.NewJSONNull()); !v.IsNull() {
		t.Errorf("{} with a null prior: %s", v)
	}
	if v := flattenJSONValue(nil, framework.NewJSONValue(`{ }`)); v.ValueString() != `{ }` {
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
