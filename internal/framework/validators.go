// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package framework

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework-validators/helpers/validatordiag"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The provider's own validators, for what the framework's validators packages cannot say: each
// message names the attribute path, so that a bad value fails the plan where it was written.

// StringCheck is a string validator made of its description and a check of a known value; the
// framework calls neither for null and unknown values, so no check has to.
type StringCheck struct {
	description string
	check       func(req validator.StringRequest, resp *validator.StringResponse)
}

// NewStringCheck is a StringCheck for validators of other packages.
func NewStringCheck(description string, check func(req validator.StringRequest, resp *validator.StringResponse)) StringCheck {
	return StringCheck{description, check}
}

func (v StringCheck) Description(context.Context) string         { return v.description }
func (v StringCheck) MarkdownDescription(context.Context) string { return v.description }

func (v StringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	v.check(req, resp)
}

// NotBlank rejects "" and names made only of white space, which the console shows as nothing.
func NotBlank() validator.String {
	return StringCheck{"value must not be empty or only white space", func(req validator.StringRequest, resp *validator.StringResponse) {
		if IsBlank(req.ConfigValue.ValueString()) {
			resp.Diagnostics.AddAttributeError(req.Path, "Empty value",
				fmt.Sprintf("Attribute %s must not be empty or only white space.", req.Path))
		}
	}}
}

// NotBlankInElement is NotBlank for an attribute of a nested object whose name a top-level attribute
// shares (an experiment group's name and description): Terraform shows a diagnostic at such a path
// on the line of the top-level attribute of that name, so it is reported at the nested object (its
// list element), the detail naming the attribute.
func NotBlankInElement() validator.String {
	return StringCheck{"value must not be empty or only white space", func(req validator.StringRequest, resp *validator.StringResponse) {
		if IsBlank(req.ConfigValue.ValueString()) {
			resp.Diagnostics.AddAttributeError(req.Path.ParentPath(), "Empty value",
				fmt.Sprintf("Attribute %s must not be empty or only white space: omit it, or give it a value.", req.Path))
		}
	}}
}

// PositiveDuration accepts a Go duration above zero (request_timeout, write_limit_window).
func PositiveDuration() validator.String { return durationCheck("Invalid duration", true) }

// PositiveTimeout is PositiveDuration for a `timeouts` value: the timeouts package already rejects
// what does not parse, but accepts zero and negative durations, which would fail every request.
func PositiveTimeout() validator.String { return durationCheck("Timeout must be positive", false) }

func durationCheck(summary string, checkSyntax bool) validator.String {
	return StringCheck{"value must be a positive Go duration such as 30s or 2m", func(req validator.StringRequest, resp *validator.StringResponse) {
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

// KnownValue checks a value against the values the service documents for it. A near miss of one
// (another case, or a typo: see nearest) is refused at plan time with the value meant: the service
// would refuse it, or keep a condition that never matches. A value near none is refused when
// onlyIn names whose whole list values is (such as "segments"), warned when warn is set, and
// otherwise left to the service.
func KnownValue(kind string, values []string, onlyIn string, warn bool) validator.String {
	desc := fmt.Sprintf("a %s the service documents: %s", kind, strings.Join(values, ", "))
	listed := fmt.Sprintf("The %ss the service documents are: %s.", kind, strings.Join(values, ", "))
	if onlyIn != "" {
		desc = fmt.Sprintf("a %s %s accept: %s", kind, onlyIn, strings.Join(values, ", "))
		listed = fmt.Sprintf("%s accept these %ss only: %s.", Capitalize(onlyIn), kind, strings.Join(values, ", "))
	}
	return StringCheck{desc, func(req validator.StringRequest, resp *validator.StringResponse) {
		s := req.ConfigValue.ValueString()
		if IsBlank(s) || slices.Contains(values, s) {
			return
		}
		if near := Nearest(s, values); len(near) > 0 {
			quoted := make([]string, len(near))
			for i, v := range near {
				quoted[i] = strconv.Quote(v)
			}
			resp.Diagnostics.AddAttributeError(req.Path, fmt.Sprintf("Unknown %s", kind),
				fmt.Sprintf("%s: unknown %s %q: did you mean %s? %s", req.Path, kind, s, strings.Join(quoted, " or "), listed))
			return
		}
		switch {
		case onlyIn != "":
			// Refused where the configuration adds or changes it (the resource's plan): a value the
			// service already holds (written in the console) is kept as it is.
		case warn:
			resp.Diagnostics.AddAttributeWarning(req.Path, fmt.Sprintf("Undocumented %s", kind),
				fmt.Sprintf("%q is not a %s the service documents (%s). It is sent as written; the service rejects it if it does not know it.",
					s, kind, strings.Join(values, ", ")))
		}
	}}
}

// OneOfDocumented refuses, at plan time, a value the service's document does not list for it: the
// error names the attribute, the values the document lists and, for a near miss, the one meant.
func OneOfDocumented(kind string, values []string) validator.String {
	listed := fmt.Sprintf("The service's document lists these %ss: %s.", kind, strings.Join(values, ", "))
	return StringCheck{fmt.Sprintf("one of the %ss the service's document lists: %s", kind, strings.Join(values, ", ")),
		func(req validator.StringRequest, resp *validator.StringResponse) {
			s := req.ConfigValue.ValueString()
			if slices.Contains(values, s) {
				return
			}
			meant := ""
			if near := Nearest(s, values); len(near) > 0 {
				quoted := make([]string, len(near))
				for i, v := range near {
					quoted[i] = strconv.Quote(v)
				}
				meant = " Did you mean " + strings.Join(quoted, " or ") + "?"
			}
			resp.Diagnostics.AddAttributeError(req.Path, fmt.Sprintf("Unknown %s", kind),
				fmt.Sprintf("%s: unknown %s %q.%s %s", req.Path, kind, s, meant, listed))
		}}
}

// NotAcceptedIn is the error of a value the service refuses in onlyIn ("segments").
func NotAcceptedIn(diags *diag.Diagnostics, at path.Path, kind, onlyIn, s string, values []string) {
	diags.AddAttributeError(at, fmt.Sprintf("%s not allowed in %s", Capitalize(kind), onlyIn),
		fmt.Sprintf("%s: %q is not a %s %s accept. %s accept these %ss only: %s.", at, s, kind, onlyIn, Capitalize(onlyIn), kind, strings.Join(values, ", ")))
}

// Nearest is what s was meant to be when it is a near miss of values: the values equal to s but
// for case, or else the values fewest edits away (a letter left out, added or changed, or two
// swapped), where that is at most one edit per three letters of the value and at most two, so that
// a short word is not taken for a typo of another (`on` is no typo of `eq`). Nil when s is none.
func Nearest(s string, values []string) []string {
	var out []string
	best := -1
	for _, v := range values {
		d := EditDistance(strings.ToLower(s), strings.ToLower(v))
		if d > min(2, utf8.RuneCountInString(v)/3) && d > 0 {
			continue
		}
		switch {
		case best < 0 || d < best:
			best, out = d, []string{v}
		case d == best:
			out = append(out, v)
		}
	}
	return out
}

// EditDistance is the optimal string alignment distance of a and b: the fewest insertions,
// deletions, substitutions and swaps of two adjacent letters that turn a into b. Not the Levenshtein
// distance of github.com/agext/levenshtein (already in the module graph): it counts a swap, the
// commonest typo (`emial`), as two edits.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// d[i][j] is the distance of ra[:i] and rb[:j].
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// JSONObject requires a JSON object. Text that is not JSON fails the JSON type's own check first
// (JSONValue.ValidateAttribute, with how to write it), and no validator runs after it.
func JSONObject() validator.String {
	return StringCheck{"value must be a JSON object", func(req validator.StringRequest, resp *validator.StringResponse) {
		raw := []byte(req.ConfigValue.ValueString())
		if json.Valid(raw) && JSONKind(raw) != '{' {
			resp.Diagnostics.AddAttributeError(req.Path, "Return value is not a JSON object",
				fmt.Sprintf("%s must be a JSON object, written with jsonencode({...}), such as "+
					"return_value = jsonencode({ color = \"blue\" }); got %s.", req.Path, Truncate(string(raw), 80)))
		}
	}}
}

// PassPercentageValidator accepts 0..100 with at most two decimals.
type PassPercentageValidator struct{}

func (PassPercentageValidator) Description(context.Context) string {
	return "value must be between 0 and 100 with at most two decimals"
}

func (v PassPercentageValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (PassPercentageValidator) ValidateNumber(ctx context.Context, req validator.NumberRequest, resp *validator.NumberResponse) {
	PercentageValidator{Noun: "Pass percentage"}.ValidateNumber(ctx, req, resp)
}

// PercentageValidator is PassPercentageValidator for any percentage, its errors naming it (Noun, as
// a sentence starts: "Allocation").
type PercentageValidator struct{ Noun string }

func (PercentageValidator) Description(ctx context.Context) string {
	return PassPercentageValidator{}.Description(ctx)
}

func (v PercentageValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v PercentageValidator) ValidateNumber(_ context.Context, req validator.NumberRequest, resp *validator.NumberResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	bf := req.ConfigValue.ValueBigFloat()
	text := bf.Text('f', -1)
	if bf.Sign() < 0 || bf.Cmp(big.NewFloat(100)) > 0 {
		resp.Diagnostics.AddAttributeError(req.Path, v.Noun+" out of range",
			fmt.Sprintf("%s must be between 0 and 100, got %s.", req.Path, text))
		return
	}
	if dot := strings.IndexByte(text, '.'); dot >= 0 && len(text)-dot-1 > 2 {
		resp.Diagnostics.AddAttributeError(req.Path, "Too many decimals in "+strings.ToLower(v.Noun),
			fmt.Sprintf("%s may have at most two decimals (such as 12.5 or 33.33), got %s.", req.Path, text))
	}
}

// CodeList renders values as a Markdown list of code spans, for descriptions.
func CodeList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "`" + v + "`"
	}
	return strings.Join(quoted, ", ")
}

// UniqueNames reports each element of a list of named objects (gate rules, pipeline phases, the
// rules of a phase) whose name an earlier element already has, at the repeat's name (list at
// list[i].name): a name is what ties a rule or phase to its id, so two of one name could not both
// keep theirs. Unknown elements and names are passed over; the plan checks them once known. dup
// writes the error of a repeat at i of the name first given at first.
func UniqueNames(list types.List, at path.Path, diags *diag.Diagnostics, dup func(first, i int, name string) (summary, detail string)) {
	seen := map[string]int{}
	for i, e := range KnownElements(list) {
		obj, ok := e.(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			continue
		}
		n, _ := obj.Attributes()["name"].(types.String)
		name, ok := KnownString(n)
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

// UniqueStrings rejects a list of strings holding a value twice. listvalidator.UniqueValues compares
// every pair, which a list of 100,000 segment ids cannot afford.
type UniqueStrings struct{}

func (UniqueStrings) Description(context.Context) string { return "each value at most once" }
func (v UniqueStrings) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (UniqueStrings) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	seen := map[string]int{}
	for i, e := range KnownElements(req.ConfigValue) {
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

// conflictsWithSibling is listvalidator.ConflictsWith of another attribute of the same nested
// object, with the library's description and diagnostic. The library's validator finds the other
// attribute by matching its path expression against every value of the resource's configuration,
// once per list it validates: a rule list of many conditions paid that walk once per condition, and
// the plan of many gate rule lists spent a third of its validation there. This one reads the other
// attribute at its path.
type conflictsWithSibling struct {
	validator.List // the library's, for its descriptions
	name           string
}

func ConflictsWith(sibling string) validator.List {
	return conflictsWithSibling{listvalidator.ConflictsWith(path.MatchRelative().AtParent().AtName(sibling)), sibling}
}

func (v conflictsWithSibling) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	other := req.Path.ParentPath().AtName(v.name)
	var value attr.Value
	d := req.Config.GetAttribute(ctx, other, &value)
	resp.Diagnostics.Append(d...)
	if d.HasError() || value.IsUnknown() || value.IsNull() {
		return
	}
	resp.Diagnostics.Append(validatordiag.InvalidAttributeCombinationDiagnostic(req.Path,
		fmt.Sprintf("Attribute %q cannot be specified when %q is specified", other, req.Path)))
}

// The service's own checks of ids and names (the service's 2025 documents), made at plan time so that
// a value it would refuse fails the plan at its attribute, before any request. Each is 3 to 100
// characters of ASCII letters, digits and the few more characters the service names: a letter
// such as `ö` passes a Unicode letter class but not the service.

// ObjectID is a gate or dynamic config id: letters, digits, `_`, `-` and `.` (`checkout.copy`).
func ObjectID() validator.String {
	return serviceChars("letters A-Z and a-z, digits, '_', '-' and '.'", "_-.")
}

// SegmentID is a segment id: letters, digits, `_` and `-` (no dots).
func SegmentID() validator.String {
	return serviceChars("letters A-Z and a-z, digits, '_' and '-'", "_-")
}

// ObjectName is a gate or dynamic config display name: letters, digits, spaces, `_`, `-` and `.`.
func ObjectName() validator.String {
	return serviceChars("letters A-Z and a-z, digits, spaces, '_', '-' and '.'", "_-. ")
}

// SegmentName is a segment display name: letters, digits, spaces, `_` and `-`.
func SegmentName() validator.String {
	return serviceChars("letters A-Z and a-z, digits, spaces, '_' and '-'", "_- ")
}

// MetricName is a metric's name: 4 to 100 letters, digits, spaces, `_` and `-` (the document asks
// for at least 4), never `::`, which the service puts between a metric's name and its type to make
// its id ("revenue::user_warehouse").
func MetricName() validator.String {
	chars := serviceCharsFrom(4, "letters A-Z and a-z, digits, spaces, '_' and '-'", "_- ")
	return StringCheck{chars.description, func(req validator.StringRequest, resp *validator.StringResponse) {
		s := req.ConfigValue.ValueString()
		if IsBlank(s) {
			resp.Diagnostics.AddAttributeError(req.Path, "Blank name", fmt.Sprintf("%s must not be blank: give the metric a name such as \"revenue\".", req.Path))
			return
		}
		if strings.Contains(s, "::") {
			resp.Diagnostics.AddAttributeError(req.Path, "Name holds \"::\"",
				fmt.Sprintf("%s: %q holds \"::\", which the service puts between a metric's name and its type to make "+
					"the metric's id (\"<name>::<type>\"): a metric's name cannot hold it.", req.Path, Truncate(s, 120)))
			return
		}
		chars.check(req, resp)
	}}
}

const minServiceChars, maxServiceChars = 3, 100

// serviceChars checks a value's length and characters: ASCII letters and digits, and extra.
func serviceChars(allowed, extra string) StringCheck {
	return serviceCharsFrom(minServiceChars, allowed, extra)
}

// serviceCharsFrom is serviceChars of values at least minChars long.
func serviceCharsFrom(minChars int, allowed, extra string) StringCheck {
	desc := fmt.Sprintf("%d to %d characters of %s", minChars, maxServiceChars, allowed)
	return StringCheck{"value must be " + desc, func(req validator.StringRequest, resp *validator.StringResponse) {
		s := req.ConfigValue.ValueString()
		if n := utf8.RuneCountInString(s); n < minChars || n > maxServiceChars {
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid length",
				fmt.Sprintf("%s must be %s; %q has a length of %d.", req.Path, desc, Truncate(s, 120), n))
			return
		}
		var bad []string
		for _, r := range s {
			ok := r < utf8.RuneSelf && ('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune(extra, r))
			if q := strconv.QuoteRune(r); !ok && !slices.Contains(bad, q) {
				bad = append(bad, q)
			}
		}
		if len(bad) > 0 {
			resp.Diagnostics.AddAttributeError(req.Path, "Character the service does not accept",
				fmt.Sprintf("%s must be %s; %q holds %s, which the service refuses.", req.Path, desc, Truncate(s, 120), strings.Join(bad, ", ")))
		}
	}}
}
