// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// framework.UniqueNames serves gate rules, phases and the rules of a phase alike: each repeat is reported at
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
	framework.UniqueNames(list, path.Root("phases").AtListIndex(3).AtName("rules"), &diags, func(first, i int, name string) (string, string) {
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
		framework.UniqueNames(l, path.Root("rules"), &diags, func(int, int, string) (string, string) { return "x", "y" })
		if diags.HasError() {
			t.Fatalf("%v: %v", l, diags)
		}
	}
}

// A near miss of a known value (a typo, another case) is what nearest finds; a short word is no
// typo of another, and what is near nothing is nothing.
func TestNearest(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"emial", []string{"email"}},            // two letters swapped
		{"Email", []string{"email"}},            // another case
		{"USER_ID", []string{"user_id"}},        // another case
		{"user_di", []string{"user_id"}},        // swapped at the end
		{"contry", []string{"country"}},         // a letter left out
		{"os_verrsion", []string{"os_version"}}, // a letter added
		{"app-version", []string{"app_version"}},
		{"browser_nam", []string{"browser_name"}},
		{"custom_feild", []string{"custom_field"}},
		{"locale", nil},      // a gate's type, near no segment type
		{"passes_gate", nil}, // likewise
		{"shiny_new_type", nil},
		{"eml", nil}, // two edits from a five-letter word: too far
		{"", nil},
	} {
		if got := framework.Nearest(tc.in, segmentConditionTypes); strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("nearest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"str_contain_any", []string{"str_contains_any"}},
		{"version_gtt", []string{"version_gt", "version_gte"}}, // one edit from each: both are offered
		{"GTE", []string{"gte"}},
		{"ok", nil}, // one edit from on, a two-letter word: only another case is a near miss of one
		{"ne", []string{"neq"}},
		{"in", nil}, // the service may know it
		{"anyy", []string{"any"}},
	} {
		if got := framework.Nearest(tc.in, conditionOperators); strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("nearest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"email", "email", 0}, {"emial", "email", 1},
		{"kitten", "sitting", 3}, {"ca", "abc", 3}, {"länge", "lange", 1},
	} {
		if got := framework.EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := framework.EditDistance(tc.b, tc.a); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.b, tc.a, got, tc.want)
		}
	}
}

// What each check says of a value: a near miss is an error with the value meant and the list; in a
// closed set (segments) anything else is an error with the list; in an open one, a warning (gate
// rules) or nothing (pipelines).
func TestKnownValue(t *testing.T) {
	ctx := context.Background()
	at := path.Root("rules").AtListIndex(1).AtName("conditions").AtListIndex(0).AtName("type")
	segments := framework.KnownValue("condition type", segmentConditionTypes, "segments", true)
	gates := framework.KnownValue("condition type", conditionTypes, "", true)
	pipelines := framework.KnownValue("condition type", conditionTypes, "", false)
	for _, tc := range []struct {
		name     string
		v        validator.String
		in       string
		severity string // "", "error", "warning"
		want     []string
	}{
		{"segment email", segments, "email", "", nil},
		{"segment typo", segments, "emial", "error", []string{"Unknown condition type",
			`rules[1].conditions[0].type: unknown condition type "emial": did you mean "email"?`,
			"Segments accept these condition types only: app_version, browser_name, browser_version, country, custom_field, email, " +
				"environment_tier, fails_segment, ip_address, os_name, os_version, passes_segment, unit_id, user_id."}},
		// Refused by the segment's plan where a rule is added or changed (checkSegmentConditionTypes):
		// a rule the segment already holds keeps what it holds.
		{"segment locale", segments, "locale", "", nil},
		{"segment unknown", segments, "shiny_new_type", "", nil},
		{"gate locale", gates, "locale", "", nil},
		{"gate typo", gates, "emial", "error", []string{`unknown condition type "emial": did you mean "email"?`,
			"The condition types the service documents are: app_version,"}},
		{"gate case", gates, "Locale", "error", []string{`did you mean "locale"?`}},
		{"gate unknown", gates, "shiny_new_type", "warning", []string{"Undocumented condition type", "sent as written"}},
		{"pipeline typo", pipelines, "emial", "error", []string{`did you mean "email"?`}},
		{"pipeline unknown", pipelines, "console_only_type", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := &validator.StringResponse{}
			tc.v.ValidateString(ctx, validator.StringRequest{Path: at, ConfigValue: types.StringValue(tc.in)}, resp)
			got := ""
			switch {
			case resp.Diagnostics.ErrorsCount() == 1 && resp.Diagnostics.WarningsCount() == 0:
				got = "error"
			case resp.Diagnostics.WarningsCount() == 1 && resp.Diagnostics.ErrorsCount() == 0:
				got = "warning"
			case len(resp.Diagnostics) > 0:
				t.Fatalf("diagnostics %v", resp.Diagnostics)
			}
			if got != tc.severity {
				t.Fatalf("%q: %s %v, want %q", tc.in, got, resp.Diagnostics, tc.severity)
			}
			if len(resp.Diagnostics) == 0 {
				return
			}
			d := resp.Diagnostics[0]
			if p := d.(diag.DiagnosticWithPath).Path(); !p.Equal(at) {
				t.Errorf("path %s, want %s", p, at)
			}
			for _, w := range tc.want {
				if !strings.Contains(d.Summary()+"\n"+d.Detail(), w) {
					t.Errorf("%q lacks %q", d.Summary()+"\n"+d.Detail(), w)
				}
			}
		})
	}
}
