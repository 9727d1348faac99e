// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

func TestSetDifference(t *testing.T) {
	if got := setDifference([]string{"a", "b"}, []string{"c", "b", "d"}); !slices.Equal(got, []string{"c", "d"}) {
		t.Errorf("got %v", got)
	}
	if got := setDifference([]string{"a"}, nil); got != nil {
		t.Errorf("got %v", got)
	}
}

func TestSegmentIDsCompareAsASet(t *testing.T) {
	ctx := context.Background()
	held := segmentIDsOf([]string{"b", "a", "c"})
	for _, c := range []struct {
		ids  segmentIDs
		same bool
	}{
		{segmentIDsOf([]string{"a", "b", "c"}), true},
		{segmentIDsOf([]string{"b", "a", "c"}), true},
		{segmentIDsOf([]string{"a", "b", "d"}), false},
		{segmentIDsOf([]string{"a", "b"}), false},
		{segmentIDsOf([]string{"a", "b", "c", "d"}), false},
		{segmentIDsOf([]string{"a", "a", "b"}), false},
		{segmentIDsNull(), false},
		{segmentIDs{types.ListUnknown(types.StringType)}, false},
	} {
		if got, diags := c.ids.ListSemanticEquals(ctx, held); got != c.same || diags.HasError() {
			t.Errorf("%v against %v: same %v, want %v (%v)", c.ids, held, got, c.same, diags)
		}
	}
	if !heldIDs(segmentIDsNull(), []string{}).IsNull() {
		t.Error("none held, none configured: want null")
	}
	if got := heldIDs(segmentIDsNull(), []string{"x"}); len(got.Elements()) != 1 {
		t.Errorf("ids added in the console: %v", got)
	}
}

func TestSegmentRulesRoundTrip(t *testing.T) {
	rule := types.ObjectValueMust(segmentRuleObjectType.AttrTypes, map[string]attr.Value{
		"id": types.StringUnknown(), "base_id": types.StringValue("b1"), "name": types.StringValue("a"),
		"pass_percentage": types.NumberNull(), "environments": types.ListNull(types.StringType),
		"conditions": types.ListNull(ruleConditionObjectType),
	})
	l := types.ListValueMust(segmentRuleObjectType, []attr.Value{rule})
	if back := asSegmentRules(asGateRules(l)); !back.Equal(l) {
		t.Errorf("round trip: %v", back)
	}
	if !asGateRules(types.ListNull(segmentRuleObjectType)).IsNull() || !asSegmentRules(types.ListUnknown(ruleObjectType)).IsUnknown() {
		t.Error("null and unknown are kept")
	}
}

func TestExpandAndFlattenSegment(t *testing.T) {
	ctx := context.Background()
	m := segmentModel{
		SegmentID: types.StringValue("staff"), Name: types.StringUnknown(), Description: types.StringValue(""),
		Tags: framework.StringSet([]string{"z", "a"}), Type: types.StringValue("rule_based"), IDType: types.StringUnknown(),
		IDs: segmentIDsNull(),
		Rules: types.ListValueMust(segmentRuleObjectType, []attr.Value{types.ObjectValueMust(segmentRuleObjectType.AttrTypes, map[string]attr.Value{
			"id": types.StringUnknown(), "base_id": types.StringUnknown(), "name": types.StringValue("a"),
			"pass_percentage": types.NumberValue(framework.PercentFromFloat(12.5).ValueBigFloat()), "environments": types.ListNull(types.StringType),
			"conditions": types.ListNull(ruleConditionObjectType),
		})}),
	}
	seg, rules, ids, diags := expandSegment(ctx, m)
	if diags.HasError() {
		t.Fatal(diags)
	}
	// A name left out is sent as the id: the service requires one.
	if seg.Name != "staff" || seg.IDType != "" || !slices.Equal(seg.Tags, []string{"a", "z"}) || ids != nil {
		t.Errorf("create %+v, ids %v", seg, ids)
	}
	if len(rules) != 1 || rules[0].ReturnValue != nil || rules[0].BaseID != "" || rules[0].PassPercentage != 12.5 {
		t.Errorf("rules %+v", rules)
	}
	got := &console.Segment{ID: "staff", Name: "staff", Type: "rule_based", IDType: "userID", Count: new(console.WholeNumber(1)), Tags: []string{"a", "z"},
		Rules: []console.SegmentRule{{ID: "r1", BaseID: "b1", Name: "a", PassPercentage: 12.500000000000002, ReturnValue: json.RawMessage(`{}`)}}}
	if d := flattenSegment(ctx, got, nil, &m); d.HasError() {
		t.Fatal(d)
	}
	if m.Name.ValueString() != "staff" || m.IDType.ValueString() != "userID" || m.Count.ValueInt64() != 1 || !m.IDs.IsNull() {
		t.Errorf("flattened %+v", m)
	}
	r := m.Rules.Elements()[0].(types.Object).Attributes()
	if r["id"].(types.String).ValueString() != "r1" || r["base_id"].(types.String).ValueString() != "b1" {
		t.Errorf("rule %v", r)
	}
	if f, _ := r["pass_percentage"].(types.Number).ValueBigFloat().Float64(); f != 12.5 {
		t.Errorf("percentage %v", f)
	}
	// An id_list segment without ids, none configured: null, not [].
	m.Rules = types.ListNull(segmentRuleObjectType)
	if d := flattenSegment(ctx, &console.Segment{ID: "staff", Type: "id_list"}, []string{}, &m); d.HasError() || !m.IDs.IsNull() || !m.Rules.IsNull() {
		t.Errorf("id_list without ids: %v %v %v", d, m.IDs, m.Rules)
	}
}

// The segment's registry page is in a segment's words: nothing of its schema speaks of "the gate"
// (gate rules lend segments their rules' schema), rule names are unique within the segment, and
// the conditions' type lists the condition types segments accept, the ones the service takes.
func TestSegmentSchema_inSegmentsWords(t *testing.T) {
	var resp fwresource.SchemaResponse
	NewSegmentResource().Schema(context.Background(), fwresource.SchemaRequest{}, &resp)
	descs := map[string]string{"": resp.Schema.MarkdownDescription}
	var walk func(prefix string, attrs map[string]schema.Attribute)
	walk = func(prefix string, attrs map[string]schema.Attribute) {
		for name, a := range attrs {
			descs[prefix+name] = a.GetMarkdownDescription()
			switch n := a.(type) {
			case schema.ListNestedAttribute:
				walk(prefix+name+".", n.NestedObject.Attributes)
			case schema.SingleNestedAttribute:
				walk(prefix+name+".", n.Attributes)
			}
		}
	}
	walk("", resp.Schema.Attributes)
	if len(descs) < 20 {
		t.Fatalf("only %d descriptions found: %v", len(descs), descs)
	}
	gate := regexp.MustCompile(`(?i)\bgate\b`)
	for name, d := range descs {
		if gate.MatchString(d) {
			t.Errorf("%s speaks of a gate: %q", name, d)
		}
	}
	if d := descs["rules.name"]; !strings.Contains(d, "unique within the segment") {
		t.Errorf("rules.name: %q", d)
	}
	if d, want := descs["rules.conditions.type"], framework.CodeList(mockconsole.SegmentConditionTypes); !strings.Contains(d, "one of "+want+", the condition types segments accept") {
		t.Errorf("rules.conditions.type does not list %s: %q", want, d)
	}
	if !slices.Equal(segmentConditionTypes, mockconsole.SegmentConditionTypes) {
		t.Errorf("the provider's segment condition types %v differ from the service's %v", segmentConditionTypes, mockconsole.SegmentConditionTypes)
	}
}
