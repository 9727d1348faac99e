// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The provider's own validators, for what the framework's validators packages cannot say: each
// message names the attribute path, so that a bad value fails the plan where it was written.

// stringCheck is a string validator made of its description and a check of a known value; the
// framework calls neither for null and unknown values, so no check has to.
type stringCheck struct {
	description string
	check       func(req validator.StringRequest, resp *validator.StringResponse)
}

func (v stringCheck) Description(context.Context) string         { return v.description }
func (v stringCheck) MarkdownDescription(context.Context) string { return v.description }

func (v stringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	v.check(req, resp)
}

// notBlank rejects "" and names made only of white space, which the console shows as nothing.
func notBlank() validator.String {
	return stringCheck{"value must not be empty or only white space", func(req validator.StringRequest, resp *validator.StringResponse) {
		if isBlank(req.ConfigValue.ValueString()) {
			resp.Diagnostics.AddAttributeError(req.Path, "Empty value",
				fmt.Sprintf("Attribute %s must not be empty or only white space.", req.Path))
		}
	}}
}

// positiveDuration accepts a Go duration above zero (request_timeout, write_limit_window).
func positiveDuration() validator.String { return durationCheck("Invalid duration", true) }

// positiveTimeout is positiveDuration for a `timeouts` value: the timeouts package already rejects
// what does not parse, but accepts zero and negative durations, which would fail every request.
func positiveTimeout() validator.String { return durationCheck("Timeout must be positive", false) }

func durationCheck(summary string, checkSyntax bool) validator.String {
	return stringCheck{"value must be a positive Go duration such as 30s or 2m", func(req validator.StringRequest, resp *validator.StringResponse) {
		s := req.ConfigValue.ValueString()
		d, err := time.ParseDuration(s)
		if err != nil && !checkSyntax {
			return
		}
		if err != nil || d <= 0 {
			resp.Diagnostics.AddAttributeError(req.Path, summary,
				fmt.Sprintf("%s must be a positive duration such as \"30s\" or \"20m\": %q is not a positive duration.", req.Path, s))
		}
	}}
}

// documentedValue warns about values outside the service's documented set; the service may add more.
func documentedValue(kind string, values []string) validator.String {
	desc := fmt.Sprintf("a %s the service documents: %s (others only warn)", kind, strings.Join(values, ", "))
	return stringCheck{desc, func(req validator.StringRequest, resp *validator.StringResponse) {
		s := req.ConfigValue.ValueString()
		if isBlank(s) || slices.Contains(values, s) {
			return
		}
		resp.Diagnostics.AddAttributeWarning(req.Path, fmt.Sprintf("Undocumented %s", kind),
			fmt.Sprintf("%q is not a %s the service documents (%s). It is sent as written; the service rejects it if it does not know it.",
				s, kind, strings.Join(values, ", ")))
	}}
}

// jsonObject requires a JSON object; invalid JSON is reported by the JSON type itself.
func jsonObject() validator.String {
	return stringCheck{"value must be a JSON object", func(req validator.StringRequest, resp *validator.StringResponse) {
		raw := []byte(req.ConfigValue.ValueString())
		if json.Valid(raw) && jsonKind(raw) != '{' {
			resp.Diagnostics.AddAttributeError(req.Path, "Return value is not a JSON object",
				fmt.Sprintf("%s must be a JSON object, such as jsonencode({ color = \"blue\" }); got %s.", req.Path, truncate(string(raw), 80)))
		}
	}}
}

// passPercentageValidator accepts 0..100 with at most two decimals.
type passPercentageValidator struct{}

func (passPercentageValidator) Description(context.Context) string {
	return "value must be between 0 and 100 with at most two decimals"
}

func (v passPercentageValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (passPercentageValidator) ValidateNumber(_ context.Context, req validator.NumberRequest, resp *validator.NumberResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	bf := req.ConfigValue.ValueBigFloat()
	text := bf.Text('f', -1)
	if bf.Sign() < 0 || bf.Cmp(big.NewFloat(100)) > 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Pass percentage out of range",
			fmt.Sprintf("%s must be between 0 and 100, got %s.", req.Path, text))
		return
	}
	if dot := strings.IndexByte(text, '.'); dot >= 0 && len(text)-dot-1 > 2 {
		resp.Diagnostics.AddAttributeError(req.Path, "Too many decimals in pass percentage",
			fmt.Sprintf("%s may have at most two decimals (such as 12.5 or 33.33), got %s.", req.Path, text))
	}
}

// codeList renders values as a Markdown list of code spans, for descriptions.
func codeList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "`" + v + "`"
	}
	return strings.Join(quoted, ", ")
}

// uniqueNames reports each element of a list of named objects (gate rules, pipeline phases, the
// rules of a phase) whose name an earlier element already has, at the repeat's name (list at
// list[i].name): a name is what ties a rule or phase to its id, so two of one name could not both
// keep theirs. Unknown elements and names are passed over; the plan checks them once known. dup
// writes the error of a repeat at i of the name first given at first.
func uniqueNames(list types.List, at path.Path, diags *diag.Diagnostics, dup func(first, i int, name string) (summary, detail string)) {
	seen := map[string]int{}
	for i, e := range knownElements(list) {
		obj, ok := e.(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			continue
		}
		n, _ := obj.Attributes()["name"].(types.String)
		name, ok := knownString(n)
		if !ok {
			continue
		}
		if first, seenBefore := seen[name]; seenBefore {
			summary, detail := dup(first, i, name)
			diags.AddAttributeError(at.AtListIndex(i).AtName("name"), summary, detail)
			continue
		}
		seen[name] = i
	}
}

// uniqueStrings rejects a list of strings holding a value twice. listvalidator.UniqueValues compares
// every pair, which a list of 100,000 segment ids cannot afford.
type uniqueStrings struct{}

func (uniqueStrings) Description(context.Context) string { return "each value at most once" }
func (v uniqueStrings) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (uniqueStrings) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	seen := map[string]int{}
	for i, e := range knownElements(req.ConfigValue) {
		s, ok := e.(types.String)
		if !ok || s.IsUnknown() || s.IsNull() {
			continue
		}
		if first, dup := seen[s.ValueString()]; dup {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i), "Duplicate value",
				fmt.Sprintf("%s and %s are both %q: each value may appear once.", req.Path.AtListIndex(first), req.Path.AtListIndex(i), s.ValueString()))
			return
		}
		seen[s.ValueString()] = i
	}
}
