// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package framework

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The ids and names the service accepts, and the words of a refusal: the attribute, the characters
// allowed and the characters refused.
func TestServiceChars(t *testing.T) {
	check := func(v validator.String, s types.String) diag.Diagnostics {
		var resp validator.StringResponse
		v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("x"), ConfigValue: s}, &resp)
		return resp.Diagnostics
	}
	long := strings.Repeat("a", 100)
	for _, c := range []struct {
		name     string
		v        validator.String
		accepted []string
		refused  map[string]string // value → words of the refusal
	}{
		{"ObjectID", ObjectID(), []string{"checkout.copy", "new_checkout", "a-b", "v1.2.3", long, "..."},
			map[string]string{"ab": "a length of 2", long + "a": "a length of 101", "a b": `holds ' '`,
				"a/bc": `holds '/'`, "größe": `holds 'ö', 'ß'`, "": "a length of 0"}},
		{"SegmentID", SegmentID(), []string{"beta_testers", "a-b", long},
			map[string]string{"checkout.copy": `holds '.'`, "a b": `holds ' '`, "ab": "a length of 2"}},
		{"ObjectName", ObjectName(), []string{"Checkout copy 1.0", "a_b-c", "Cafe au lait"},
			map[string]string{"Größe": `holds 'ö', 'ß'`, "Café": `holds 'é'`, "no!": `holds '!'`, "ab": "a length of 2",
				"Größe Größe": `holds 'ö', 'ß', which`}},
		{"SegmentName", SegmentName(), []string{"Beta testers", "a_b-c"},
			map[string]string{"Beta.testers": `holds '.'`, "Größe": `holds 'ö', 'ß'`, "日本語": `holds '日', '本', '語'`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, s := range c.accepted {
				if d := check(c.v, types.StringValue(s)); d.HasError() {
					t.Errorf("%q refused: %v", s, d)
				}
			}
			for _, s := range []types.String{types.StringNull(), types.StringUnknown()} {
				if d := check(c.v, s); d.HasError() {
					t.Errorf("%v refused: %v", s, d)
				}
			}
			for s, words := range c.refused {
				d := check(c.v, types.StringValue(s))
				if len(d) != 1 || !d.HasError() {
					t.Errorf("%q: %v, want one error", s, d)
					continue
				}
				detail := d[0].Detail()
				at, _ := d[0].(diag.DiagnosticWithPath)
				if at == nil || !at.Path().Equal(path.Root("x")) || !strings.Contains(detail, words) || !strings.HasPrefix(detail, "x must be 3 to 100 characters of ") {
					t.Errorf("%q: %q, want the path x and %q", s, detail, words)
				}
			}
		})
	}
}
