// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The live service's habits (internal/mockconsole/HABITS.md), each proven on its own through a user's workflow: create,
// re-plan empty, update, re-plan empty, import by id, destroy, against a mock with only that habit
// on. Import blocks read what the import command reads: TestAcc<Resource>_sharedImport proves them
// under every CLI.

const habitsPipelineAddr = "featureconsole_release_pipeline.web"

// habitsConfig declares a gate's rules, a pipeline, a metric source and the data sources; v2 is
// the update (a rule added, a percentage of two decimals, a phase added, the SQL changed).
func habitsConfig(url string, v2 bool, providerExtra ...string) string {
	third, sql, phases := "", "SELECT user_id, ts FROM orders", []string{canaryHCL}
	pct := "12.5"
	if v2 {
		pct = "33.33"
		third = `{ name = "third", pass_percentage = 66.67, conditions = [{ type = "country", operator = "any", target_value = ["DE"] }] },`
		sql = "SELECT user_id, ts, amount FROM orders"
		phases = append(phases, `{ name = "General availability", time_interval_ms = 86400000 }`)
	}
	return providerBlock(url, providerExtra...) + fmt.Sprintf(`
resource "featureconsole_gate_rules" "checkout" {
  gate_id = "new_checkout"
  rules = [
    {
      name            = "employees"
      pass_percentage = 100
      environments    = ["production"]
      conditions = [
        { type = "email", operator = "str_contains_any", target_value = ["@example.com"] },
        { type = "custom_field", field = "age", operator = "gt", target_numbers = [18, 21.5] },
      ]
      return_value = jsonencode({ color = "blue", size = 3 })
    },
    { name = "beta", pass_percentage = %s },
    %s
  ]
}
`, pct, third) + webPipelineHCL("Web rollout", phases...) + fmt.Sprintf(`
resource "featureconsole_metric_source" "orders" {
  name             = "habit_orders"
  sql              = %q
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
  tags             = []
}

data "featureconsole_segments" "all" {}
data "featureconsole_users" "all" {}
`, sql)
}

// checkHabitsApplied checks the service holds what the configuration says (v2 or not).
func checkHabitsApplied(m *mockconsole.Server, v2, withSource bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		g, _ := m.Gate("new_checkout")
		names := []string{}
		pcts := []string{}
		for _, r := range g.Rules {
			names = append(names, r.Name)
			pcts = append(pcts, fmt.Sprint(r.PassPercentage))
		}
		want, wantPct := "employees,beta", "100,12.5"
		if v2 {
			want, wantPct = "employees,beta,third", "100,33.33,66.67"
		}
		if strings.Join(names, ",") != want || strings.Join(pcts, ",") != wantPct {
			return fmt.Errorf("gate rules %v at %v, want %s at %s", names, pcts, want, wantPct)
		}
		p, _ := m.Pipeline("pl_web")
		if n := len(p.Phases); (v2 && n != 2) || (!v2 && n != 1) {
			return fmt.Errorf("pipeline has %d phases", n)
		}
		if !withSource {
			return nil
		}
		s, ok := m.MetricSource("habit_orders")
		if !ok || (v2 != strings.Contains(s.SQL, "amount")) {
			return fmt.Errorf("metric source %+v", s)
		}
		return nil
	}
}

// habitsWorkflow is the user's workflow against a mock with habits h and no others: each case of
// TestAccHabits_workflow proves one habit alone, whatever FEATURECONSOLE_MOCK_HABITS says (merged
// with every habit, all its cases would be the "all" case over again).
func habitsWorkflow(t *testing.T, h mockconsole.Habits, verifyIgnore []string) {
	m, url := startMock(t, mockconsole.Config{})
	m.SetHabits(h)
	// The rule-based segment's count: the service's, else its rules' when they come as an array; in
	// the seed's form (one rule shown) without a count nothing tells it.
	ruleCount := resource.TestCheckResourceAttr("data.featureconsole_segments.all", "segments.3.count", "1")
	if hs := m.Habits(); hs.SegmentsWithoutCount && hs.SegmentRuleObject {
		ruleCount = resource.TestCheckNoResourceAttr("data.featureconsole_segments.all", "segments.3.count")
	}
	steps := []resource.TestStep{
		{Config: habitsConfig(url, false), Check: resource.ComposeTestCheckFunc(
			checkHabitsApplied(m, false, true),
			// The data sources read every page and every form of segment rules.
			resource.TestCheckResourceAttr("data.featureconsole_users.all", "users.#", listedCount(m, 250)),
			resource.TestCheckResourceAttr("data.featureconsole_segments.all", "segments.#", "12"),
			ruleCount,
			resource.TestCheckResourceAttr("data.featureconsole_segments.all", "segments.3.rules.0.pass_percentage", "12.5"),
			resource.TestCheckResourceAttr("data.featureconsole_segments.all", "segments.3.rules.0.conditions.0.target_value.1", "12.5"),
			resource.TestCheckResourceAttr("data.featureconsole_segments.all", "segments.1.rules.0.name", "segment_02 rule"),
			resource.TestCheckResourceAttr("data.featureconsole_segments.all", "segments.0.rules.#", "0"),
		)},
		{Config: habitsConfig(url, true), Check: checkHabitsApplied(m, true, true)},
		{
			Config: habitsConfig(url, true), ResourceName: gateRulesAddr, ImportState: true, ImportStateId: "new_checkout",
			ImportStateVerify: true, ImportStateVerifyIgnore: verifyIgnore,
		},
		{Config: habitsConfig(url, true), ResourceName: habitsPipelineAddr, ImportState: true, ImportStateId: "pl_web", ImportStateVerify: true},
		{
			Config: habitsConfig(url, true), ResourceName: "featureconsole_metric_source.orders", ImportState: true,
			ImportStateId: "habit_orders", ImportStateVerify: true, ImportStateVerifyIgnore: []string{"validate_on_plan"},
		},
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if err := checkGateHasNoRules(m, "new_checkout")(s); err != nil {
				return err
			}
			if _, ok := m.MetricSource("habit_orders"); ok {
				return fmt.Errorf("metric source left after destroy")
			}
			return nil
		},
		Steps: steps,
	})
}

// stringTargetsIgnore: a rule imported from a service that holds [18] as ["18"] cannot tell the
// numbers were numbers; with no configuration to go by they are read into target_value.
var stringTargetsIgnore = []string{"rules.0.conditions.1.target_"}

func TestAccHabits_workflow(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		habits mockconsole.Habits
	}{
		{"extra_fields", mockconsole.Habits{ExtraFields: true}},
		{"number_forms", mockconsole.Habits{NumberForms: true}},
		{"string_targets", mockconsole.Habits{StringTargets: true}},
		{"console_rules", mockconsole.Habits{ConsoleRules: true}},
		{"segment_rule_object", mockconsole.Habits{SegmentRuleObject: true}},
		{"paging_links", mockconsole.Habits{PagingLinks: true}},
		{"created_201", mockconsole.Habits{Created201: true}},
		{"charset", mockconsole.Habits{Charset: true}},
		{"gzip", mockconsole.Habits{Gzip: true}},
		{"empty_writes", mockconsole.Habits{EmptyWrites: true}},
		{"drop_idle", mockconsole.Habits{DropIdle: true}},
		{"nestjs_errors", mockconsole.Habits{ErrorForm: "nestjs"}},
		{"text_errors", mockconsole.Habits{ErrorForm: "text"}},
		{"auth_as_403", mockconsole.Habits{AuthAs403: true}},
		// Reviews hold nothing unless the provider asks for review settings: see TestAccHabits_reviews.
		{"reviews_not_asked", mockconsole.Habits{Reviews: true}},
		// Gates of a current service version take writes: see TestAccGateRules_writesNotTaken.
		{"partial_rule_writes", mockconsole.Habits{PartialRuleWrites: true}},
		{"scheduled_rollouts", mockconsole.Habits{ScheduledRollouts: true}},
		// Issue 21's habits; what is particular to each is in habits_wire_test.go.
		{"unpaged_lists", mockconsole.Habits{UnpagedLists: true}},
		{"page_ignored", mockconsole.Habits{PageIgnored: true}},
		{"limit_ceiling", mockconsole.Habits{LimitCeiling: true}},
		{"role_names", mockconsole.Habits{RoleNames: true}},
		{"owner_later", mockconsole.Habits{OwnerLater: true}},
		{"placeholders", mockconsole.Habits{Placeholders: true}},
		{"read_only_key_unused", mockconsole.Habits{ReadOnlyKey: true}},
		{"console_pipeline_rules", mockconsole.Habits{ConsolePipelineRules: true}},
		{"segments_without_count", mockconsole.Habits{SegmentsWithoutCount: true}},
		{"all", mockconsole.AllHabits()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var ignore []string
			if tc.habits.StringTargets {
				ignore = stringTargetsIgnore
			}
			habitsWorkflow(t, tc.habits, ignore)
		})
	}
}

// Errors in the NestJS form and as plain text show the service's own words.
func TestAccHabits_errorForms(t *testing.T) {
	t.Parallel()
	for _, form := range []string{"nestjs", "text"} {
		t.Run(form, func(t *testing.T) {
			t.Parallel()
			m, url := startMock(t, mockconsole.Config{})
			m.SetHabits(mockconsole.Habits{ErrorForm: form})
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{
						Config:      gateRulesConfig(url, "no_such_gate", designExampleRules),
						ExpectError: regexp.MustCompile(`(?s)404 Not Found:\s+(unexpected\s+response\s+body:\s+)?Gate\s+"no_such_gate"\s+not\s+found`),
					},
					{
						// A 400 whose NestJS body lists the messages: each is shown, not just "Bad Request".
						PreConfig:   func() { m.LockPipeline("pl_web", true) },
						Config:      habitsConfig(url, false),
						ExpectError: regexp.MustCompile(`(?s)400 Bad Request:\s+(unexpected\s+response\s+body:\s+)?Cannot\s+modify\s+release\s+pipeline\s+"pl_web":\s+a\s+rollout\s+is\s+in\s+progress`),
					},
				},
			})
		})
	}
}

// A 403 whose body says 401: the HTTP status is trusted, the service's words shown.
func TestAccHabits_authAs403(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{APIKey: "another-key"})
	m.SetHabits(mockconsole.Habits{AuthAs403: true})
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `data "featureconsole_users" "all" {}`,
			ExpectError: errRe(`403 Forbidden: Authentication failed: invalid or missing SERVICE-API-KEY (not allowed: the ` +
				`service does not let this API key list users: check the key's role`),
		}},
	})
}

// Item 1 of issue 12: rules written in the console (id == baseID) imported, one rule added. Every
// rule of the gate gets a new id on the write; the plan promised none of them.
func TestAccHabits_consoleRulesImportedThenAdded(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	h := mergeHabits(m.Habits(), mockconsole.Habits{ConsoleRules: true})
	h.StringTargets = false // beta's [18] is imported into target_numbers only when it comes back a number
	m.SetHabits(h)
	seedRules := `
    {
      name            = "employees"
      pass_percentage = 100
      environments    = ["production"]
      conditions      = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]
    },
    {
      name            = "beta"
      pass_percentage = 12.5
      conditions      = [{ type = "custom_field", operator = "gt", field = "age", target_numbers = [18] }]
      return_value    = jsonencode({ color = "blue", size = 3 })
    },`
	seedBase := mockBaseIDs(m, "new_checkout")
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkGateHasNoRules(m, "new_checkout"),
		Steps: []resource.TestStep{
			{
				Config: gateRulesConfig(url, "new_checkout", seedRules), ResourceName: gateRulesAddr, ImportState: true,
				ImportStateId: "new_checkout", ImportStatePersist: true,
			},
			{Config: gateRulesConfig(url, "new_checkout", seedRules), PlanOnly: true},
			{
				Config: gateRulesConfig(url, "new_checkout", seedRules+ruleHCL("everyone", "5")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					ruleIdentity{name: "employees", baseKept: true},
					ruleIdentity{name: "beta", baseKept: true},
					ruleIdentity{name: "everyone"},
				}},
				Check: func(*terraform.State) error {
					g, _ := m.Gate("new_checkout")
					if len(g.Rules) != 3 || g.Rules[0].BaseID != seedBase["employees"] || g.Rules[1].BaseID != seedBase["beta"] {
						return fmt.Errorf("rules %+v lost their base ids %v", g.Rules, seedBase)
					}
					for _, r := range g.Rules {
						if r.ID == r.BaseID {
							return fmt.Errorf("rule %q kept id %q: the mock did not renumber", r.Name, r.ID)
						}
					}
					return nil
				},
			},
		},
	})
}

var reviewErr = regexp.MustCompile(`(?s)awaits\s+review.*review\s+"rev_\d+"`)

// Changes held for review (internal/mockconsole/HABITS.md, "Reviews"): an error naming the review, the state as before, the same
// change planned again (never a replacement), an empty plan once approved; a held destroy keeps the
// resource.
func TestAccHabits_reviews(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	m.SetHabits(mergeHabits(m.Habits(), mockconsole.Habits{Reviews: true}))
	review := `respect_review_settings = true`
	seed, _ := mockRuleLines(m, "new_checkout")
	seedPipeline, _ := m.Pipeline("pl_web")
	unchanged := func(*terraform.State) error {
		if got, _ := mockRuleLines(m, "new_checkout"); strings.Join(got, "\n") != strings.Join(seed, "\n") {
			return fmt.Errorf("a held change was applied: %v", got)
		}
		if p, _ := m.Pipeline("pl_web"); len(p.Phases) != len(seedPipeline.Phases) {
			return fmt.Errorf("a held pipeline change was applied: %+v", p)
		}
		return nil
	}
	approve := func() {
		if len(m.PendingReviews()) == 0 {
			t.Error("no change waits for review")
		}
		if err := m.ApproveAndCommitAllReviews(); err != nil {
			t.Error(err)
		}
	}
	actions := func(a plancheck.ResourceActionType) []plancheck.PlanCheck {
		return []plancheck.PlanCheck{
			plancheck.ExpectResourceAction(gateRulesAddr, a),
			plancheck.ExpectResourceAction(habitsPipelineAddr, a),
		}
	}
	gateAndPipeline := func(v2 bool, extra ...string) string {
		cfg := habitsConfig(url, v2, extra...)
		// Only the objects that take reviews.
		return cfg[:strings.Index(cfg, `resource "featureconsole_metric_source"`)]
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkGateHasNoRules(m, "new_checkout"),
		Steps: []resource.TestStep{
			{
				// Create held: an error naming the review; nothing saved, nothing tainted.
				Config: gateAndPipeline(false, review), ExpectError: reviewErr,
			},
			{
				PreConfig: func() {
					if err := unchanged(nil); err != nil {
						t.Error(err)
					}
				},
				// The next plan shows the same change: creates, never a replacement.
				Config: gateAndPipeline(false, review), PlanOnly: true, ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: actions(plancheck.ResourceActionCreate)},
			},
			{
				// Approved in the console: the apply takes both over without writing again; then the plan is empty.
				PreConfig: func() { approve(); m.ResetRequests() },
				Config:    gateAndPipeline(false, review),
				Check: func(*terraform.State) error {
					if n := m.CountRequests("PATCH", "/gates/") + m.CountRequests("POST", "/release_pipelines/"); n != 0 {
						return fmt.Errorf("%d writes after approval, want none", n)
					}
					return checkHabitsApplied(m, false, false)(nil)
				},
			},
			{
				// Update held: the state keeps what it held.
				Config: gateAndPipeline(true, review), ExpectError: reviewErr,
			},
			{
				Config: gateAndPipeline(true, review), PlanOnly: true, ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: actions(plancheck.ResourceActionUpdate)},
			},
			{
				// Approved: the plan (with its refresh) is empty.
				PreConfig:        approve,
				Config:           gateAndPipeline(true, review),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				// A destroy held for review says so and keeps the resource.
				Config: gateAndPipeline(true, review), Destroy: true, ExpectError: regexp.MustCompile(`(?s)Removal of the rules of gate "new_checkout" awaits review`),
			},
			{
				// Still in state: after the removal is approved, the plan updates the gate (rules to put back), not creates it.
				PreConfig: approve,
				Config:    gateAndPipeline(true, review), PlanOnly: true, ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateRulesAddr, plancheck.ResourceActionUpdate),
				}},
			},
			{
				// Destroy again: the gate has no rules left, so nothing is sent (and nothing held again).
				PreConfig: m.ResetRequests,
				Config:    gateAndPipeline(true, review), Destroy: true,
			},
			{
				PreConfig: func() {
					if n := m.CountRequests("PATCH", "/gates/"); n != 0 || len(m.PendingReviews()) != 0 {
						t.Errorf("the second destroy sent %d PATCH requests, %d reviews pending", n, len(m.PendingReviews()))
					}
				},
				Config: gateAndPipeline(true, review), PlanOnly: true, ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateRulesAddr, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

// numbersLostOnImport lists the attributes an import verification leaves out when the run's mock
// holds numeric targets as strings: read without a configuration, ["18"] cannot be told from a
// string target, so it is read into target_value (the first plan then moves it back, once).
func numbersLostOnImport(t *testing.T, prefixes ...string) []string {
	if envHabits(t).StringTargets {
		return prefixes
	}
	return nil
}

// A 409 (the object edited concurrently) is not retried, and is said plainly; the next apply converges.
func TestAccHabits_conflict(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkGateHasNoRules(m, "new_checkout"),
		Steps: []resource.TestStep{
			{Config: gateRulesConfig(url, "new_checkout", designExampleRules)},
			{
				PreConfig:   func() { m.ResetRequests(); m.ConflictOnNextWrites(1) },
				Config:      gateRulesConfig(url, "new_checkout", designExampleRules+ruleHCL("beta", "33.33")),
				ExpectError: regexp.MustCompile(`(?s)409 Conflict.*someone\s+else\s+changed\s+it\s+at\s+the\s+same\s+time`),
			},
			{
				PreConfig: func() {
					if n := m.CountRequests("PATCH", "/gates/"); n != 1 {
						t.Errorf("a 409 was retried: %d PATCH requests", n)
					}
				},
				Config: gateRulesConfig(url, "new_checkout", designExampleRules+ruleHCL("beta", "33.33")),
				Check:  checkMockRules(m, "new_checkout", employeesLine, `beta|33.33|null|[]|{}`),
			},
		},
	})
}

// A rule added by a change held for review takes the configuration's forms once the review is
// approved (numbers the service holds as strings, [] for environments): the plan is then empty.
func TestAccHabits_reviewedRuleForms(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	m.SetHabits(mergeHabits(m.Habits(), mockconsole.Habits{Reviews: true, StringTargets: true}))
	adults := ruleHCL("adults", "50", `environments = []`,
		`conditions = [{ type = "custom_field", field = "age", operator = "gt", target_numbers = [18, 21.5] }]`)
	base := ruleHCL("everyone", "10")
	review := func(rules string) string {
		return strings.Replace(gateRulesConfig(url, "dark_mode", rules), "write_limit = 0", "write_limit = 0\n  respect_review_settings = true", 1)
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkGateHasNoRules(m, "dark_mode"),
		Steps: []resource.TestStep{
			{Config: gateRulesConfig(url, "dark_mode", base)},
			{Config: review(base + adults), ExpectError: reviewErr},
			{
				PreConfig: func() {
					if err := m.ApproveAndCommitAllReviews(); err != nil {
						t.Error(err)
					}
				},
				Config:           review(base + adults),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{Config: gateRulesConfig(url, "dark_mode", base+adults)},
		},
	})
}
