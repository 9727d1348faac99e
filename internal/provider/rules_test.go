// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// Scheduled rollouts (ScheduledRollouts): the schedule shows per rule; a step the service made
// shows as the schedule's doing; ignore_changes lets the schedule own the percentage; a write
// never sends the schedule back and leaves it unknown in its plan.
func TestAccGateRules_scheduledRollouts(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	m.SetHabits(mergeHabits(m.Habits(), mockconsole.Habits{ScheduledRollouts: true}))
	m.SetRunSpeed(0)
	// The guide's example lets the schedule own the percentage; without its lifecycle block, the
	// configuration owns it.
	owned := providerBlock(url) + guideBlock(t, "gate-rules.md.tmpl", "ignore_changes")
	cfg := regexp.MustCompile(`(?s)\n  lifecycle \{.*?\n  \}\n`).ReplaceAllString(owned, "\n")
	if cfg == owned {
		t.Fatal("the example has no lifecycle block")
	}
	const addr = "featureconsole_gate_rules.dark_mode"
	var start time.Time
	scheduled := func(i int, pct string, done bool) resource.TestCheckFunc {
		at := func() string { return start.Add(time.Duration(i+1) * time.Hour).UTC().Format(time.RFC3339) }
		return func(s *terraform.State) error {
			return resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr(addr, fmt.Sprintf("rules.0.scheduled_rollouts.%d.time", i), at()),
				resource.TestCheckResourceAttr(addr, fmt.Sprintf("rules.0.scheduled_rollouts.%d.pass_percentage", i), pct),
				resource.TestCheckResourceAttr(addr, fmt.Sprintf("rules.0.scheduled_rollouts.%d.done", i), fmt.Sprint(done)),
			)(s)
		}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkGateHasNoRules(m, "dark_mode"),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(addr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("scheduled_rollouts"))},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.TestCheckResourceAttr(addr, "rules.0.scheduled_rollouts.#", "0"),
			},
			{
				// A schedule set in the console shows, and changes nothing to do.
				PreConfig: func() {
					start = m.RunClock().Truncate(time.Second)
					if err := m.ScheduleRollouts("dark_mode", "ramp",
						mockconsole.AutomatedRollout{Time: start.Add(time.Hour).UnixMilli(), PassPercent: 30},
						mockconsole.AutomatedRollout{Time: start.Add(2 * time.Hour).UnixMilli(), PassPercent: 60}); err != nil {
						t.Fatal(err)
					}
				},
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "rules.0.scheduled_rollouts.#", "2"),
					scheduled(0, "30", false), scheduled(1, "60", false),
				),
			},
			{
				// The first step made: the percentage moved, and the schedule says why.
				PreConfig:          func() { m.AdvanceRunClock(time.Hour) },
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "rules.0.pass_percentage", "30"),
					scheduled(0, "30", true), scheduled(1, "60", false),
				),
			},
			{
				// ignore_changes on the rule's percentage lets the schedule own it: nothing to do.
				Config:           owned,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraform.State) error {
					if g, _ := m.Gate("dark_mode"); g.Rules[0].PassPercentage != 30 {
						return fmt.Errorf("the mock holds %v, want 30", g.Rules[0].PassPercentage)
					}
					return nil
				},
			},
			{
				// Without it, apply sets the configured percentage back; the schedule stays the
				// service's, unknown until the write's answer.
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(addr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("scheduled_rollouts")),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("pass_percentage"), knownvalue.Int64Exact(10)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "rules.0.pass_percentage", "10"),
					scheduled(0, "30", true), scheduled(1, "60", false),
				),
			},
		},
	})
	for _, r := range m.Requests() {
		var body struct {
			Rules []map[string]json.RawMessage `json:"rules"`
		}
		if strings.HasSuffix(r.Path, "/rules") && json.Unmarshal(r.Body, &body) == nil {
			for _, rule := range body.Rules {
				if _, sent := rule["pendingAutomatedRollouts"]; sent {
					t.Errorf("a write sent the schedule back: %s", r.Body)
				}
			}
		}
	}
}

// hclNumber is a number as Terraform reads it from configuration.
func hclNumber(t *testing.T, s string) types.Number {
	t.Helper()
	bf, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	return types.NumberValue(bf)
}

func testRule(t *testing.T, name, pct string) ruleModel {
	return ruleModel{
		ID: types.StringValue("id-" + name), BaseID: types.StringValue("base-" + name),
		Name: types.StringValue(name), PassPercentage: hclNumber(t, pct),
		Environments:      types.ListNull(types.StringType),
		Conditions:        types.ListNull(ruleConditionObjectType),
		ReturnValue:       framework.NewJSONNull(),
		ScheduledRollouts: types.ListNull(scheduledRolloutType),
	}
}

func TestSameRuleContent(t *testing.T) {
	ctx := context.Background()
	base := testRule(t, "a", "50")
	same := []func(*ruleModel){
		func(r *ruleModel) { r.Environments = types.ListValueMust(types.StringType, nil) },
		func(r *ruleModel) { r.Conditions = types.ListValueMust(ruleConditionObjectType, nil) },
		func(r *ruleModel) { r.ReturnValue = framework.NewJSONValue(`{ }`) },
		func(r *ruleModel) { r.ID, r.BaseID = types.StringUnknown(), types.StringNull() },
	}
	for i, f := range same {
		r := base
		f(&r)
		if !sameRuleContent(ctx, base, r) {
			t.Errorf("same[%d]: rules differ", i)
		}
	}
	rv := base
	rv.ReturnValue = framework.NewJSONValue(`{"b":1,"a":2}`)
	rv2 := base
	rv2.ReturnValue = framework.NewJSONValue(`{ "a": 2, "b": 1 }`)
	if !sameRuleContent(ctx, rv, rv2) {
		t.Error("key order made rules differ")
	}

	cond := func(tv, tn types.List) types.List {
		return types.ListValueMust(ruleConditionObjectType, []attr.Value{types.ObjectValueMust(ruleConditionObjectType.AttrTypes, map[string]attr.Value{
			"type": types.StringValue("custom_field"), "operator": types.StringValue("gt"), "field": types.StringValue("age"),
			"custom_id": types.StringNull(), "target_value": tv, "target_numbers": tn,
		})})
	}
	asStrings, asNumbers := base, base
	asStrings.Conditions = cond(framework.StringList([]string{"18"}), types.ListNull(types.NumberType))
	asNumbers.Conditions = cond(types.ListNull(types.StringType), numberList(t, "18"))
	pct := base
	pct.PassPercentage = hclNumber(t, "50.5")
	unknown := base
	unknown.Environments = types.ListUnknown(types.StringType)
	for name, r := range map[string]ruleModel{"percentage": pct, "unknown": unknown, "strings": asStrings} {
		other := base
		if name == "strings" {
			other = asNumbers
		}
		if sameRuleContent(ctx, other, r) {
			t.Errorf("%s: rules compare the same", name)
		}
	}
}

// A rule's schedule reads as the steps made, then the steps to come; none is [], never null.
func TestFlattenSchedule(t *testing.T) {
	r := console.Rule{
		CompletedAutomatedRollouts: []console.AutomatedRollout{{Time: console.Millis{Value: 1767225600000, Set: true}, PassPercent: 30}},
		PendingAutomatedRollouts:   []console.AutomatedRollout{{Time: console.Millis{Value: 1767229200000, Set: true}, PassPercent: 60.5}},
	}
	got := flattenSchedule(r).String()
	want := `[{"done":true,"pass_percentage":30,"time":"2026-01-01T00:00:00Z"},{"done":false,"pass_percentage":60.5,"time":"2026-01-01T01:00:00Z"}]`
	if got != want {
		t.Errorf("schedule = %s\nwant %s", got, want)
	}
	if none := flattenSchedule(console.Rule{}); none.IsNull() || len(none.Elements()) != 0 {
		t.Errorf("no schedule = %s, want []", none)
	}
	// Planned: unknown when the list is written, the prior schedule when nothing is.
	prior := []ruleModel{testRule(t, "a", "10")}
	prior[0].ScheduledRollouts = flattenSchedule(r)
	changed := []ruleModel{testRule(t, "a", "11")}
	matchPriorRules(context.Background(), changed, prior)
	if !changed[0].ScheduledRollouts.IsUnknown() {
		t.Errorf("a written rule promises its schedule %s", changed[0].ScheduledRollouts)
	}
	same := []ruleModel{testRule(t, "a", "10")}
	matchPriorRules(context.Background(), same, prior)
	if !same[0].ScheduledRollouts.Equal(prior[0].ScheduledRollouts) {
		t.Errorf("an unchanged rule's schedule = %s", same[0].ScheduledRollouts)
	}
}
