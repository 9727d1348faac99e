// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// uniqueNames serves gate rules, phases and the rules of a phase alike: each repeat is reported at
// its own name, against the first element of that name; what is not known yet is passed over.
func TestUniqueNames(t *testing.T) {
	named := types.ObjectType{AttrTypes: map[string]attr.Type{"name": types.StringType}}
	obj := func(name types.String) attr.Value {
		return types.ObjectValueMust(named.AttrTypes, map[string]attr.Value{"name": name})
	}
	list := types.ListValueMust(named, []attr.Value{
		obj(types.StringValue("a")),
		obj(types.StringUnknown()),
		types.ObjectUnknown(named.AttrTypes),
		obj(types.StringValue("b")),
		obj(types.StringValue("a")),
		types.ObjectNull(named.AttrTypes),
		obj(types.StringValue("a")),
		obj(types.StringValue("b")),
	})
	var diags diag.Diagnostics
	uniqueNames(list, path.Root("phases").AtListIndex(3).AtName("rules"), &diags, func(first, i int, name string) (string, string) {
		return "Duplicate", fmt.Sprintf("%d and %d are both %q", first, i, name)
	})
	var got []string
	for _, d := range diags {
		got = append(got, d.(diag.DiagnosticWithPath).Path().String()+": "+d.Detail())
	}
	want := []string{
		`phases[3].rules[4].name: 0 and 4 are both "a"`,
		`phases[3].rules[6].name: 0 and 6 are both "a"`,
		`phases[3].rules[7].name: 3 and 7 are both "b"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	for _, l := range []types.List{types.ListNull(named), types.ListUnknown(named), types.ListValueMust(named, nil)} {
		var diags diag.Diagnostics
		uniqueNames(l, path.Root("rules"), &diags, func(int, int, string) (string, string) { return "x", "y" })
		if diags.HasError() {
			t.Fatalf("%v: %v", l, diags)
		}
	}
}
