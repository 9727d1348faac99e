// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package framework

import (
	"testing"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestTruncateNeverSplitsACharacter(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdef", 3, "abc…"},
		// "é" and "€" are two and three bytes: a byte cut at 2 would leave half of "é".
		{"aé€b", 2, "aé…"},
		{"€€€", 1, "€…"},
		{"日本語のテキスト", 3, "日本語…"},
	} {
		got := Truncate(c.in, c.n)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("truncate(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestIsBlank(t *testing.T) {
	for s, want := range map[string]bool{"": true, " \t\n": true, "\u00a0": true, "a": false, " a ": false} {
		if got := IsBlank(s); got != want {
			t.Errorf("isBlank(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestStringOrPrior(t *testing.T) {
	for _, tc := range []struct {
		read  string
		prior types.String
		want  types.String
	}{
		{"Checkout", types.StringValue("Old"), types.StringValue("Checkout")},
		{"", types.StringValue("Old"), types.StringValue("Old")},
		{"", types.StringUnknown(), types.StringNull()},
		{"", types.StringNull(), types.StringNull()},
	} {
		if got := StringOrPrior(tc.read, tc.prior); !got.Equal(tc.want) {
			t.Errorf("StringOrPrior(%q, %s) = %s, want %s", tc.read, tc.prior, got, tc.want)
		}
	}
}
