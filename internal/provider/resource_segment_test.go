// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

const (
	segRulesAddr = "featureconsole_segment.staff"
	segIDsAddr   = "featureconsole_segment.beta"
)

// mockWithoutSegments is a mock whose seeded segments are gone, so CheckDestroy can ask for none.
func mockWithoutSegments(t *testing.T, cfg mockconsole.Config) (*mockconsole.Server, string) {
	t.Helper()
	m, url := startMock(t, cfg)
	m.SetSegments(nil)
	return m, url
}

// expectNoSegments is CheckDestroy: destroy left nothing behind.
func expectNoSegments(m *mockconsole.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if ids := m.SegmentIDs(); len(ids) > 0 {
			return fmt.Errorf("the mock still holds segments %v", ids)
		}
		return nil
	}
}

func segmentRuleConfig(rules string) string {
	return fmt.Sprintf(`
resource "featureconsole_segment" "staff" {
  segment_id  = "staff"
  name        = "Staff members"
  description = "Employees"
  tags        = ["internal", "beta"]
  type        = "rule_based"
  rules       = [%s]
}
`, rules)
}

const (
	ruleEmail   = `{ name = "email", pass_percentage = 100, conditions = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }] }`
	ruleCountry = `{ name = "country", pass_percentage = 12.5, conditions = [{ type = "country", operator = "any", target_value = ["US", "CA"] }] }`
	// Strings, not target_numbers: the service may store numbers as strings, and an import has no
	// configuration to say which the targets were.
	ruleAge = `{ name = "age", pass_percentage = 50, conditions = [{ type = "custom_field", field = "age", operator = "gt", target_value = ["18"] }] }`
)

// expectSegmentRules checks the names of the rules the mock holds, in order.
func expectSegmentRules(m *mockconsole.Server, id string, names ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		sg, ok := m.Segment(id)
		if !ok {
			return fmt.Errorf("segment %q not in the mock", id)
		}
		var got []string
		for _, r := range sg.Rules {
			got = append(got, r.Name)
		}
		if !slices.Equal(got, names) {
			return fmt.Errorf("segment %q holds rules %v, want %v", id, got, names)
		}
		return nil
	}
}

func TestAccSegment_ruleBased(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{})
	var baseEmail string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoSegments(m),
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + segmentRuleConfig(ruleEmail+", "+ruleCountry),
				Check: resource.ComposeAggregateTestCheckFunc(
					expectSegmentRules(m, "staff", "email", "country"),
					func(*terraform.State) error {
						sg, _ := m.Segment("staff")
						if sg.Name != "Staff members" || sg.Description != "Employees" || sg.Type != "rule_based" {
							return fmt.Errorf("mock holds %+v", sg)
						}
						baseEmail = sg.Rules[0].BaseID
						return nil
					},
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(segRulesAddr, tfjsonpath.New("id"), knownvalue.StringExact("staff")),
					statecheck.ExpectKnownValue(segRulesAddr, tfjsonpath.New("entry_count"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(segRulesAddr, tfjsonpath.New("id_type"), knownvalue.StringExact("userID")),
				},
			},
			{
				// A rule inserted at the top: updated in place, the rule named "email" keeps its base_id.
				PreConfig: m.ResetRequests,
				Config:    providerBlock(url) + segmentRuleConfig(ruleAge+", "+ruleEmail),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(segRulesAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(segRulesAddr, tfjsonpath.New("rules").AtSliceIndex(1).AtMapKey("id")),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectSegmentRules(m, "staff", "age", "email"),
					func(*terraform.State) error {
						sg, _ := m.Segment("staff")
						if sg.Rules[1].BaseID != baseEmail {
							return fmt.Errorf("rule email lost its base id: %q, was %q", sg.Rules[1].BaseID, baseEmail)
						}
						if n := m.CountRequests(http.MethodPost, "/segments/staff/conditional"); n != 1 {
							return fmt.Errorf("%d rule writes, want 1", n)
						}
						if n := m.CountRequests(http.MethodPost, "/segments"); n != 1 {
							return fmt.Errorf("the update wrote more than the rules (%d POSTs)", n)
						}
						return nil
					},
				),
			},
			{
				ResourceName:            segRulesAddr,
				ImportState:             true,
				ImportStateId:           "staff",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
			{
				// Drift: someone changes the rules in the console; apply puts the configured ones back.
				PreConfig: func() {
					sg, _ := m.Segment("staff")
					sg.Rules = sg.Rules[:1]
					m.PutSegment(sg)
				},
				Config: providerBlock(url) + segmentRuleConfig(ruleAge+", "+ruleEmail),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(segRulesAddr, plancheck.ResourceActionUpdate),
				}},
				Check: expectSegmentRules(m, "staff", "age", "email"),
			},
			{
				// Gone from the console: removed from state and created again.
				PreConfig: func() { m.DeleteSegment("staff") },
				Config:    providerBlock(url) + segmentRuleConfig(ruleEmail),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(segRulesAddr, plancheck.ResourceActionCreate),
				}},
				Check: expectSegmentRules(m, "staff", "email"),
			},
		},
	})
}

// idsConfig lists the ids u_from..u_(to-1) literally: Terraform's range stops at 1,024 values.
func idsConfig(from, to int) string {
	return idsListConfig(idRange(from, to))
}

// idRange is the ids u_from..u_(to-1).
func idRange(from, to int) []string {
	ids := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		ids = append(ids, fmt.Sprintf("u_%d", i))
	}
	return ids
}

// idsListConfig is the segment beta_testers listing ids in their order.
func idsListConfig(ids []string) string {
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, "%q,", id)
	}
	return fmt.Sprintf(`
resource "featureconsole_segment" "beta" {
  segment_id = "beta_testers"
  type       = "id_list"
  ids        = [%s]
}
`, b.String())
}

// idWrites are the ids each write of the id list carried, by method.
func idWrites(m *mockconsole.Server, method string) (chunks int, ids []string) {
	for _, r := range m.Requests() {
		if r.Method != method || !strings.HasSuffix(r.Path, "/id_list") || r.Status/100 != 2 {
			continue
		}
		var b struct {
			IDs []string `json:"ids"`
		}
		_ = json.Unmarshal(r.Body, &b)
		chunks++
		ids = append(ids, b.IDs...)
	}
	return chunks, ids
}

func expectSegmentIDs(m *mockconsole.Server, id string, from, to int) resource.TestCheckFunc {
	return expectSegmentHolds(m, id, idRange(from, to))
}

// expectSegmentHolds checks that the mock's segment holds exactly ids, in any order.
func expectSegmentHolds(m *mockconsole.Server, id string, ids []string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		sg, ok := m.Segment(id)
		if !ok {
			return fmt.Errorf("segment %q not in the mock", id)
		}
		want := map[string]bool{}
		for _, v := range ids {
			want[v] = true
		}
		if len(sg.IDs) != len(want) {
			return fmt.Errorf("segment %q holds %d ids, want %d", id, len(sg.IDs), len(want))
		}
		for _, v := range sg.IDs {
			if !want[v] {
				return fmt.Errorf("segment %q holds %q, not configured", id, v)
			}
		}
		return nil
	}
}

func TestAccSegment_idList(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoSegments(m),
		Steps: []resource.TestStep{
			{
				// 2,500 ids: three writes of at most 1,000.
				PreConfig: m.ResetRequests,
				Config:    providerBlock(url) + idsConfig(0, 2500),
				Check: resource.ComposeAggregateTestCheckFunc(
					expectSegmentIDs(m, "beta_testers", 0, 2500),
					func(*terraform.State) error {
						if n, ids := idWrites(m, http.MethodPatch); n != 3 || len(ids) != 2500 {
							return fmt.Errorf("%d PATCHes carrying %d ids, want 3 carrying 2500", n, len(ids))
						}
						return nil
					},
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(segIDsAddr, tfjsonpath.New("entry_count"), knownvalue.Int64Exact(2500)),
					statecheck.ExpectKnownValue(segIDsAddr, tfjsonpath.New("name"), knownvalue.StringExact("beta_testers")),
					statecheck.ExpectKnownValue(segIDsAddr, tfjsonpath.New("rules"), knownvalue.Null()),
				},
			},
			{
				// 100 ids removed at the front, 50 added at the end: only the differences are sent.
				PreConfig: m.ResetRequests,
				Config:    providerBlock(url) + idsConfig(100, 2550),
				Check: resource.ComposeAggregateTestCheckFunc(
					expectSegmentIDs(m, "beta_testers", 100, 2550),
					func(*terraform.State) error {
						if n, ids := idWrites(m, http.MethodPatch); n != 1 || len(ids) != 50 || ids[0] != "u_2500" {
							return fmt.Errorf("added %d ids in %d writes, want 50 (u_2500...) in 1", len(ids), n)
						}
						if n, ids := idWrites(m, http.MethodDelete); n != 1 || len(ids) != 100 || !slices.Contains(ids, "u_0") {
							return fmt.Errorf("removed %d ids in %d writes, want 100 (u_0...) in 1", len(ids), n)
						}
						return nil
					},
				),
			},
			{
				ResourceName:            segIDsAddr,
				ImportState:             true,
				ImportStateId:           "beta_testers",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
			{
				// Drift: ids removed and one added in the console; apply sends back only those.
				PreConfig: func() {
					sg, _ := m.Segment("beta_testers")
					sg.IDs = append(slices.Clone(sg.IDs[5:]), "intruder")
					m.PutSegment(sg)
					m.ResetRequests()
				},
				Config: providerBlock(url) + idsConfig(100, 2550),
				Check: resource.ComposeAggregateTestCheckFunc(
					expectSegmentIDs(m, "beta_testers", 100, 2550),
					func(*terraform.State) error {
						_, added := idWrites(m, http.MethodPatch)
						_, removed := idWrites(m, http.MethodDelete)
						if len(added) != 5 || !slices.Equal(removed, []string{"intruder"}) {
							return fmt.Errorf("drift repaired by adding %d and removing %v, want 5 and [intruder]", len(added), removed)
						}
						return nil
					},
				),
			},
		},
	})
}

// TestAccSegment_idsPaced: with the id endpoints' limit far below what the list needs, the
// service's 429s are waited out and the list arrives whole.
func TestAccSegment_idsPaced(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{})
	m.SetIDListLimits(mockconsole.IDLimit{N: 2, Window: 1e9})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoSegments(m),
		Steps: []resource.TestStep{{
			PreConfig: m.ResetRequests,
			Config:    providerBlock(url) + idsConfig(0, 6000),
			Check: resource.ComposeAggregateTestCheckFunc(
				expectSegmentIDs(m, "beta_testers", 0, 6000),
				func(*terraform.State) error {
					refused := 0
					for _, r := range m.Requests() {
						if r.Status == http.StatusTooManyRequests {
							refused++
						}
					}
					if refused == 0 {
						return fmt.Errorf("the mock never refused an id write: the test does not test pacing")
					}
					return nil
				},
			),
		}},
	})
}

// localeCondition is a condition gates accept and segments refuse.
const localeCondition = `{ type = "locale", operator = "any", target_value = ["fr_FR"] }`

// Segments take every condition type the service accepts in them (POST /segments/{id}/conditional): a rule
// of each applies and re-plans empty; a gate's type (locale) is refused at plan time, naming the
// types allowed, and nothing reaches the service.
func TestAccSegment_conditionTypes(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{})
	var rules []string
	for _, typ := range mockconsole.SegmentConditionTypes {
		cond := fmt.Sprintf(`{ type = %q, operator = "any", target_value = ["x"] }`, typ)
		if typ == "custom_field" {
			cond = `{ type = "custom_field", field = "plan", operator = "any", target_value = ["pro"] }`
		}
		rules = append(rules, fmt.Sprintf(`{ name = %q, pass_percentage = 100, conditions = [%s] }`, typ, cond))
	}
	every := providerBlock(url) + segmentRuleConfig(strings.Join(rules, ",\n"))
	withLocale := providerBlock(url) + segmentRuleConfig(strings.Join(rules, ",\n")+
		`, { name = "french", pass_percentage = 100, conditions = [`+localeCondition+`] }`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoSegments(m),
		Steps: []resource.TestStep{
			{
				Config: every,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: expectSegmentRules(m, "staff", mockconsole.SegmentConditionTypes...),
			},
			{
				PreConfig: m.ResetRequests,
				Config:    withLocale,
				ExpectError: wrapped("Condition type not allowed in segments", `rules[14].conditions[0].type: "locale" is not a condition type segments accept`,
					"Segments accept these condition types only: "+strings.Join(mockconsole.SegmentConditionTypes, ", ")),
			},
			{
				// The refused plan sent nothing: the segment holds the 14 rules it held.
				PreConfig: func() {
					for _, r := range m.Requests() {
						if r.Method != http.MethodGet {
							panic(fmt.Sprintf("a refused plan sent %s %s", r.Method, r.Path))
						}
					}
				},
				Config:           every,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            expectSegmentRules(m, "staff", mockconsole.SegmentConditionTypes...),
			},
		},
	})
}

func TestAccSegment_validation(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	seg := func(body string) string {
		return providerBlock(url) + "resource \"featureconsole_segment\" \"x\" {\n" + body + "\n}\n"
	}
	long := strings.Repeat("d", 1001)
	cases := []struct {
		name, config string
		want         *regexp.Regexp
	}{
		{"75 id too short", seg(`segment_id = "ab"
type = "id_list"`), wrapped("segment_id", "must be 3 to 100 characters")},
		{"76 id with a dot", seg(`segment_id = "beta.testers"
type = "id_list"`), wrapped("segment_id", "must be 3 to 100 characters")},
		{"77 name with a dot", seg(`segment_id = "beta"
name = "Beta v1.2"
type = "id_list"`), wrapped("name", "must be 3 to 100 characters")},
		{"name with letters beyond ASCII", seg(`segment_id = "beta"
name = "Größe"
type = "id_list"`), wrapped("Character the service does not accept", `name must be 3 to 100 characters`, `"Größe" holds 'ö', 'ß', which the service refuses`)},
		{"name too short", seg(`segment_id = "beta"
name = "ab"
type = "id_list"`), wrapped("Invalid length", `"ab" has a length of 2`)},
		{"78 description too long", seg(`segment_id = "beta"
description = "` + long + `"
type = "id_list"`), wrapped("description", "string length must be at most 1000")},
		{"79 unknown type", seg(`segment_id = "beta"
type = "smart"`), wrapped("type", "value must be one of")},
		{"80 rules on id_list", seg(`segment_id = "beta"
type = "id_list"
rules = []`), wrapped("Rules on an id_list segment", "rules = []")},
		{"81 ids on rule_based", seg(`segment_id = "beta"
type = "rule_based"
ids = ["u_1"]`), wrapped("Ids on a rule_based segment", "ids = [", "ids are allowed only with")},
		{"82 public condition", seg(`segment_id = "beta"
type = "rule_based"
rules = [{ name = "a", pass_percentage = 10, conditions = [{ type = "public" }] }]`), wrapped("Condition type not allowed in segments", "rules[0].conditions[0].type", `"public"`)},
		{"83 passes_gate condition", seg(`segment_id = "beta"
type = "rule_based"
rules = [` + ruleEmail + `, { name = "b", pass_percentage = 10, conditions = [{ type = "passes_gate", target_value = ["g"] }] }]`), wrapped("rules[1].conditions[0].type", `"passes_gate"`)},
		{"84 fails_gate condition", seg(`segment_id = "beta"
type = "rule_based"
rules = [{ name = "a", pass_percentage = 10, conditions = [{ type = "fails_gate", target_value = ["g"] }] }]`), wrapped(`"fails_gate"`)},
		{"85 time condition", seg(`segment_id = "beta"
type = "rule_based"
rules = [{ name = "a", pass_percentage = 10, conditions = [{ type = "time", operator = "after", target_numbers = [1700000000000] }] }]`), wrapped(`"time"`)},
		{"locale condition", seg(`segment_id = "beta"
type = "rule_based"
rules = [` + ruleEmail + `, { name = "b", pass_percentage = 10, conditions = [` + localeCondition + `] }]`),
			wrapped("Condition type not allowed in segments", `rules[1].conditions[0].type: "locale" is not a condition type segments accept`,
				"Segments accept these condition types only: "+strings.Join(mockconsole.SegmentConditionTypes, ", "))},
		{"condition type mistyped", seg(`segment_id = "beta"
type = "rule_based"
rules = [{ name = "a", pass_percentage = 10, conditions = [{ type = "emial", operator = "any", target_value = ["x"] }] }]`),
			wrapped("Unknown condition type", `rules[0].conditions[0].type: unknown condition type "emial": did you mean "email"?`,
				"Segments accept these condition types only: app_version,")},
		{"operator mistyped", seg(`segment_id = "beta"
type = "rule_based"
rules = [{ name = "a", pass_percentage = 10, conditions = [{ type = "email", operator = "str_contain_any", target_value = ["x"] }] }]`),
			wrapped("Unknown condition operator", `rules[0].conditions[0].operator: unknown condition operator "str_contain_any": did you mean "str_contains_any"?`)},
		{"86 two rules named alike", seg(`segment_id = "beta"
type = "rule_based"
rules = [` + ruleEmail + `, ` + ruleEmail + `]`), wrapped("Duplicate rule name", "rules[0] and rules[1] are both named", `"email"`)},
		{"87 pass_percentage over 100", seg(`segment_id = "beta"
type = "rule_based"
rules = [{ name = "a", pass_percentage = 101 }]`), wrapped("rules[0].pass_percentage", "between 0 and 100")},
		{"88 empty id", seg(`segment_id = "beta"
type = "id_list"
ids = ["u_1", ""]`), wrapped("ids", "must not be empty")},
		{"89 an id twice", seg(`segment_id = "beta"
type = "id_list"
ids = ["u_1", "u_2", "u_1"]`), wrapped("Duplicate value", `ids[0] and ids[2] are both "u_1"`)},
	}
	steps := make([]resource.TestStep, 0, len(cases))
	for _, tc := range cases {
		steps = append(steps, resource.TestStep{
			Config:      tc.config,
			PlanOnly:    true,
			ExpectError: tc.want,
		})
	}
	steps[0].PreConfig = m.ResetRequests
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
		CheckDestroy: func(*terraform.State) error {
			if reqs := m.Requests(); len(reqs) > 0 {
				return fmt.Errorf("invalid configurations reached the mock: %d requests, first %s %s", len(reqs), reqs[0].Method, reqs[0].Path)
			}
			return nil
		},
	})
}

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

// publicRule is a rule the console writes and the API refuses in segment writes.
var publicRule = mockconsole.SegmentRule{Name: "everyone", PassPercentage: 10, Conditions: []mockconsole.Condition{{Type: "public"}}}

// seedConsoleSegments puts a segment with a console-made rule, a user-store list and an analysis
// list into the mock.
func seedConsoleSegments(m *mockconsole.Server) {
	m.PutSegment(mockconsole.Segment{ID: "seg_console", Name: "Console made", Type: "rule_based", IDType: "userID", IsEnabled: true,
		Rules: []mockconsole.SegmentRule{publicRule}})
	m.PutSegment(mockconsole.Segment{ID: "seg_store", Name: "Store list", Type: mockconsole.SegmentUserStoreIDList, IDType: "userID", IsEnabled: true, Count: 120000})
	m.PutSegment(mockconsole.Segment{ID: "seg_analysis", Name: "Analysis list", Type: mockconsole.SegmentAnalysisList, IDType: "userID", IsEnabled: true, Count: 42})
}

// noWrites fails t if the mock served any request but reads.
func noWrites(t *testing.T, m *mockconsole.Server, what string) {
	t.Helper()
	for _, r := range m.Requests() {
		if r.Method != http.MethodGet {
			t.Errorf("%s sent %s %s", what, r.Method, r.Path)
		}
	}
}
