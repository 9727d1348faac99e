// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The habits of issue 21 (HABITS.md), each through a user's workflow
// against a mock with that habit on. The resources' own workflow under each of them is in
// TestAccHabits_workflow; these tests add what is particular to each habit.

// listedCount is how many of total records a listing can get from m: a service that ignores page
// answers its first page, whatever is asked.
func listedCount(m *mockconsole.Server, total int) string {
	h := m.Habits()
	if h.PageIgnored && !h.UnpagedLists {
		return strconv.Itoa(min(total, 100))
	}
	return strconv.Itoa(total)
}

// Lists answered whole, lists that ignore page, lists that refuse a limit above 100: every data
// source reads what the service gives, once, never loops, never asks for more than 100.
func TestAccHabits_lists(t *testing.T) {
	t.Parallel()
	for name, h := range map[string]mockconsole.Habits{
		"unpaged_lists": {UnpagedLists: true},
		"page_ignored":  {PageIgnored: true},
		"limit_ceiling": {LimitCeiling: true},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m, url := startMock(t, mockconsole.Config{})
			m.SetHabits(mergeHabits(m.Habits(), h))
			config := providerBlock(url, "read_concurrency = 4") + `
data "featureconsole_users" "all" {}
data "featureconsole_segments" "all" {}
data "featureconsole_events" "checkout" { event_name = "checkout_completed" }
`
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config: config,
					Check: resource.ComposeTestCheckFunc(
						resource.TestCheckResourceAttr("data.featureconsole_users.all", "users.#", listedCount(m, 250)),
						resource.TestCheckResourceAttr("data.featureconsole_segments.all", "segments.#", "12"),
						resource.TestCheckResourceAttr("data.featureconsole_events.checkout", "events.#", listedCount(m, 2500)),
						func(*terraform.State) error {
							for _, r := range m.Requests() {
								if r.Status != http.StatusOK {
									return fmt.Errorf("%s %s answered %d", r.Method, r.Path, r.Status)
								}
							}
							return nil
						},
					),
				}},
			})
		})
	}
}

// gateRulesOn declares one rule on each of the gates named.
func gateRulesOn(url string, timeout string, gates ...string) string {
	var b strings.Builder
	b.WriteString(providerBlock(url))
	for _, g := range gates {
		fmt.Fprintf(&b, `
resource "featureconsole_gate_rules" %q {
  gate_id  = %q
  rules    = [{ name = "staff", pass_percentage = 10 }]
  timeouts = { create = %q }
}
`, g, g, timeout)
	}
	return b.String()
}

// The 15-minute window, scaled down in the mock: its 429s ask to wait longer than the 10-second
// window lasts, or say nothing at all. The apply waits within its timeouts and succeeds, backing
// off rather than asking every second; when the time runs out, the error names the window.
func TestAccHabits_longWindow(t *testing.T) {
	t.Parallel()
	for name, h := range map[string]mockconsole.Habits{"retry_after": {}, "no_retry_after": {NoRetryAfter: true}} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m, url := startMock(t, mockconsole.Config{WriteLimitLong: 2, WriteWindowLong: 20 * time.Second})
			m.SetHabits(mergeHabits(m.Habits(), h))
			gates := []string{"new_checkout", "dark_mode", "search_v2"}
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				CheckDestroy: resource.ComposeTestCheckFunc(checkGateHasNoRules(m, gates[0]), checkGateHasNoRules(m, gates[1]),
					checkGateHasNoRules(m, gates[2])),
				Steps: []resource.TestStep{{
					Config: gateRulesOn(url, "5m", gates...),
					Check: func(*terraform.State) error {
						refused := 0
						for _, r := range m.Requests() {
							if r.Status == http.StatusTooManyRequests {
								refused++
							}
						}
						// Asked every second or two, the 20 seconds would have cost about ten refusals.
						if refused == 0 || refused > 6 {
							return fmt.Errorf("%d writes refused with 429: want the window met, and waited out in a few attempts", refused)
						}
						for _, g := range gates {
							if got, _ := m.Gate(g); len(got.Rules) != 1 || got.Rules[0].Name != "staff" {
								return fmt.Errorf("gate %s holds %+v", g, got.Rules)
							}
						}
						return nil
					},
				}},
			})
		})
	}
	t.Run("time_runs_out", func(t *testing.T) {
		t.Parallel()
		m, url := startMock(t, mockconsole.Config{WriteLimitLong: 1, WriteWindowLong: 30 * time.Second})
		resource.Test(t, resource.TestCase{
			PreCheck:                 func() { testAccPreCheck(t) },
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			CheckDestroy:             resource.ComposeTestCheckFunc(checkGateHasNoRules(m, "gate_001"), checkGateHasNoRules(m, "gate_002")),
			Steps: []resource.TestStep{{
				Config: gateRulesOn(url, "14s", "gate_001", "gate_002"),
				ExpectError: regexp.MustCompile(`(?s)Unable to create rules of gate "gate_00[12]".*15-minute\s+write\s+limit\s+was\s+exhausted` +
					`.*at\s+least\s+15\s+minutes\s+in\s+its\s+timeouts\s+block.*timeouts.create,\s+14s\s+here` +
					// A connection closed under an attempt (DropIdle, with every habit on) leaves its fate unknown.
					`.*(nothing\s+was\s+applied|may\s+have\s+been\s+applied)`),
			}},
		})
	})
}

// A key the service accepts but does not allow to write: reads work, the write is refused with
// "not allowed" and what to check, and nothing is written.
func TestAccHabits_readOnlyKey(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	m.SetHabits(mergeHabits(m.Habits(), mockconsole.Habits{ReadOnlyKey: true}))
	before, _ := m.Gate("new_checkout")
	config := strings.Replace(gateRulesConfig(url, "new_checkout", designExampleRules), mockconsole.DefaultAPIKey, mockconsole.ReadOnlyAPIKey, 1) +
		`data "featureconsole_users" "all" {}`
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ExpectError: diagRe(`Unable to create rules of gate "new_checkout"`, `403 Forbidden: Forbidden: this API key has the Read Only `+
				`role and cannot make changes (not allowed: the service does not let this API key create rules of gate "new_checkout": `+
				`check the key's role, since a read-only key cannot write, and the object's restrictions in the console`),
		}},
		CheckDestroy: func(*terraform.State) error {
			if strings.Contains(fmt.Sprint(m.Requests()), "authentication failed") {
				return fmt.Errorf("the read-only key was taken for a bad one")
			}
			reads := 0
			for _, r := range m.Requests() {
				switch {
				case r.Method != http.MethodGet && r.Status != http.StatusForbidden:
					return fmt.Errorf("%s %s answered %d with the read-only key", r.Method, r.Path, r.Status)
				case r.Method == http.MethodGet && r.Status == http.StatusOK:
					reads++
				}
			}
			if after, _ := m.Gate("new_checkout"); len(after.Rules) != len(before.Rules) || reads == 0 {
				return fmt.Errorf("rules %d then %d; %d reads served", len(before.Rules), len(after.Rules), reads)
			}
			return nil
		},
	})
}

// Roles come as the console names them; the filter finds them whatever their case.
func TestAccHabits_roleNames(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	m.SetHabits(mergeHabits(m.Habits(), mockconsole.Habits{RoleNames: true}))
	m.SetUsers([]mockconsole.User{
		{Email: "ada@example.com", Role: "admin"}, {Email: "bob@example.com", Role: "member"},
		{Email: "cy@example.com", Role: "read_only"}, {Email: "di@example.com", Role: "Release managers"},
		{Email: "ed@example.com", Role: "admin"},
	})
	config := providerBlock(url) + `
data "featureconsole_users" "admins" { role = "admin" }
data "featureconsole_users" "readers" { role = "read only" }
data "featureconsole_users" "custom" { role = "RELEASE MANAGERS" }
data "featureconsole_users" "members" { role = "Member" }
`
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr("data.featureconsole_users.admins", "users.#", "2"),
				resource.TestCheckResourceAttr("data.featureconsole_users.admins", "users.1.email", "ed@example.com"),
				resource.TestCheckResourceAttr("data.featureconsole_users.admins", "users.0.role", "Admin"),
				resource.TestCheckResourceAttr("data.featureconsole_users.readers", "users.#", "1"),
				resource.TestCheckResourceAttr("data.featureconsole_users.readers", "users.0.role", "Read Only"),
				resource.TestCheckResourceAttr("data.featureconsole_users.custom", "users.0.email", "di@example.com"),
				resource.TestCheckResourceAttr("data.featureconsole_users.members", "users.0.email", "bob@example.com"),
			),
		}},
	})
}

const spacedAddr = "featureconsole_metric_source.log_events"

func spacedSourceConfig(url, sql string) string {
	return providerBlock(url) + fmt.Sprintf(`
resource "featureconsole_metric_source" "log_events" {
  name             = "Log Events"
  sql              = %q
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
}
`, sql)
}

// A metric source named with a space, on a service that fills in its owner after create and reads
// "not set" as placeholders: create (owner unknown in the plan, never promised null), an empty
// re-plan, the owner read, update, import by name, drift, destroy.
func TestAccHabits_metricSourceOwnerPlaceholdersSpacedName(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	m.SetHabits(mergeHabits(m.Habits(), mockconsole.Habits{OwnerLater: true, Placeholders: true}))
	ownerType := statecheck.ExpectKnownValue(spacedAddr, tfjsonpath.New("owner").AtMapKey("owner_type"), knownvalue.StringExact("SDK_KEY"))
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if _, ok := m.MetricSource("Log Events"); ok {
				return fmt.Errorf("metric source %q left after destroy", "Log Events")
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: spacedSourceConfig(url, "SELECT user_id, ts FROM logs"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(spacedAddr, tfjsonpath.New("owner"))},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// The owner the service filled in is read, and the plan stays empty.
				Config:            spacedSourceConfig(url, "SELECT user_id, ts FROM logs"),
				ConfigStateChecks: []statecheck.StateCheck{ownerType},
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraform.State) error {
					// The mock decodes the path segment: the name arrived whole, its space escaped.
					if m.CountRequests(http.MethodGet, "/metrics/metric_source/Log Events") == 0 {
						return fmt.Errorf("the source was never read by its name")
					}
					return nil
				},
			},
			{
				Config: spacedSourceConfig(url, "SELECT user_id, ts, level FROM logs"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(spacedAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(spacedAddr, tfjsonpath.New("owner").AtMapKey("owner_name"), knownvalue.StringExact("CONSOLE API")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{ownerType},
				Check: func(*terraform.State) error {
					if src, _ := m.MetricSource("Log Events"); !strings.Contains(src.SQL, "level") {
						return fmt.Errorf("update not applied: %q", src.SQL)
					}
					return nil
				},
			},
			{
				Config: spacedSourceConfig(url, "SELECT user_id, ts, level FROM logs"), ResourceName: spacedAddr,
				ImportState: true, ImportStateId: "Log Events", ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"validate_on_plan"},
			},
			{
				// Changed in the console: the plan shows that change and nothing else.
				PreConfig: func() {
					src, _ := m.MetricSource("Log Events")
					src.Description = "edited in the console"
					m.PutMetricSource(src)
				},
				Config: spacedSourceConfig(url, "SELECT user_id, ts, level FROM logs"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(spacedAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(spacedAddr, tfjsonpath.New("description"), knownvalue.StringExact("")),
					plancheck.ExpectKnownValue(spacedAddr, tfjsonpath.New("custom_field_mapping"), knownvalue.ListSizeExact(0)),
				}},
			},
		},
	})
}

// Onboarding with terraform query (Terraform 1.14+) from a service with issue 21's habits: lists
// answered whole, or ignoring page, or refusing a limit above 100; metric sources with placeholders
// for "not set", an owner filled in later and a name with a space. The generated configuration
// passes the provider's validation, imports by identity without a change, and the plan after
// apply is empty.
func TestAccHabits_onboarding(t *testing.T) {
	t.Parallel()
	for name, h := range map[string]mockconsole.Habits{
		"unpaged_lists": {UnpagedLists: true},
		"page_ignored":  {PageIgnored: true},
		"limit_ceiling": {LimitCeiling: true},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cli := newTFCLI(t, featListResources)
			m, url := startMock(t, mockconsole.Config{NoSeed: true, PageSizeCap: 20})
			seedProject(m, 30, 2, 3)
			m.PutMetricSource(mockconsole.MetricSource{
				Name: "Log Events", SQL: "SELECT user_id, ts FROM logs", TimestampColumn: "ts",
				IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}},
				Owner:         &mockconsole.Owner{OwnerType: "SDK_KEY", OwnerName: "CONSOLE API"},
			})
			m.SetHabits(mergeHabits(m.Habits(), mockconsole.Habits{Placeholders: true, OwnerLater: true}.With(h)))
			// A service that ignores page gives its first page of gates (20 of them) and nothing more.
			gates := 30
			if hh := m.Habits(); hh.PageIgnored && !hh.UnpagedLists {
				gates = 20
			}

			cli.write("main.tf", providerBlock(url))
			cli.write("project.tfquery.hcl", guideQuery(t))
			cli.must("init", "-input=false", "-no-color")
			cli.must("query", "-no-color", "-generate-config-out=generated.tf")
			gen := cli.read("generated.tf")
			for typ, want := range map[string]int{"featureconsole_gate": gates, "featureconsole_gate_rules": gates, "featureconsole_release_pipeline": 2, "featureconsole_metric_source": 4} {
				if got := len(regexp.MustCompile(`(?m)^resource "`+typ+`" `).FindAllString(gen, -1)); got != want {
					t.Errorf("generated.tf holds %d %s resources, want %d", got, typ, want)
				}
			}
			if !strings.Contains(gen, `name = "Log Events"`) {
				t.Errorf("generated.tf lacks the source named with a space")
			}
			cli.importsOnlyThenEmpty(m, gen, 2*gates+6)
			// The source named with a space is destroyed through its escaped name.
			cli.must("destroy", "-auto-approve", "-input=false", "-no-color")
			if _, ok := m.MetricSource("Log Events"); ok {
				t.Error(`metric source "Log Events" left after destroy`)
			}
		})
	}
}
