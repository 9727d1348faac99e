// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
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
