// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

func testUsers(n int) []mockconsole.User {
	users := make([]mockconsole.User, n)
	for i := range users {
		role := "member"
		if i%4 == 0 {
			role = "admin"
		}
		users[i] = mockconsole.User{Email: fmt.Sprintf("user%03d@example.com", i), FirstName: fmt.Sprintf("First%d", i), LastName: fmt.Sprintf("Last%d", i), Role: role}
	}
	users[3].LastName = ""
	return users
}

// checkUsers compares the data source's users, attribute by attribute, with want.
func checkUsers(addr string, want []mockconsole.User) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s not in state", addr)
		}
		a := rs.Primary.Attributes
		if a["users.#"] != strconv.Itoa(len(want)) {
			return fmt.Errorf("users.# = %s, want %d", a["users.#"], len(want))
		}
		for i, u := range want {
			for k, v := range map[string]string{"email": u.Email, "first_name": u.FirstName, "last_name": u.LastName, "role": u.Role} {
				// A role may come as the console's display name (admin → Admin): the same role.
				if got := a[fmt.Sprintf("users.%d.%s", i, k)]; got != v && (k != "role" || !strings.EqualFold(got, v)) {
					return fmt.Errorf("users.%d.%s = %q, want %q", i, k, got, v)
				}
			}
		}
		return nil
	}
}

func TestAccUsersDataSource_pagesAndFilter(t *testing.T) {
	t.Parallel()
	for _, pageCap := range []int{7, 100} {
		t.Run(fmt.Sprintf("cap%d", pageCap), func(t *testing.T) {
			m, url := startMock(t, mockconsole.Config{PageSizeCap: pageCap})
			users := testUsers(131)
			m.SetUsers(users)
			var admins []mockconsole.User
			for _, u := range users {
				if u.Role == "admin" {
					admins = append(admins, u)
				}
			}
			resource.ParallelTest(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config: providerBlock(url) + `
data "featureconsole_users" "all" {}
data "featureconsole_users" "admins" { role = "admin" }
data "featureconsole_users" "nobody" { role = "owner" }
`,
					Check: resource.ComposeAggregateTestCheckFunc(
						checkUsers("data.featureconsole_users.all", users),
						checkUsers("data.featureconsole_users.admins", admins),
						resource.TestCheckResourceAttr("data.featureconsole_users.nobody", "users.#", "0"),
					),
				}},
			})
		})
	}
}

// Stale members (people who no longer use the project) are listed only with
// include_stale_members = true, as the console's settings page leaves them out; the role filter
// applies to them too.
func TestAccUsersDataSource_staleMembers(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{PageSizeCap: 40})
	users := testUsers(90)
	var current, admins, staleAdmins []mockconsole.User
	for i := range users {
		users[i].Stale = i%9 == 4
		if !users[i].Stale {
			current = append(current, users[i])
		}
		if users[i].Role == "admin" {
			staleAdmins = append(staleAdmins, users[i])
			if !users[i].Stale {
				admins = append(admins, users[i])
			}
		}
	}
	m.SetUsers(users)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			PreConfig: m.ResetRequests,
			Config: providerBlock(url) + `
data "featureconsole_users" "current" {}
data "featureconsole_users" "not_stale" { include_stale_members = false }
data "featureconsole_users" "every" { include_stale_members = true }
data "featureconsole_users" "admins" { role = "Admin" }
data "featureconsole_users" "every_admin" {
  role                  = "admin"
  include_stale_members = true
}
`,
			Check: resource.ComposeAggregateTestCheckFunc(
				checkUsers("data.featureconsole_users.current", current),
				checkUsers("data.featureconsole_users.not_stale", current),
				checkUsers("data.featureconsole_users.every", users),
				checkUsers("data.featureconsole_users.admins", admins),
				checkUsers("data.featureconsole_users.every_admin", staleAdmins),
				func(*terraform.State) error {
					// Asked for by the two listings that want them, and by no other.
					asked := 0
					for _, r := range m.Requests() {
						if strings.Contains(r.RawQuery, "include_stale_members=true") {
							asked++
						}
					}
					if asked == 0 || asked == len(m.Requests()) {
						return fmt.Errorf("%d of %d requests asked for stale members, want those of the two listings that want them", asked, len(m.Requests()))
					}
					return nil
				},
			),
		}},
	})
}

func TestAccUsersDataSource_emptyAndRequestsPerPage(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{PageSizeCap: 10})
	// The request count is that of the documented paging; the list habits (unpaged lists, a page
	// ignored, a limit ceiling) answer in other shapes and have their own tests (TestAccHabits_*).
	m.SetHabits(mockconsole.Habits{})
	m.SetUsers(nil)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + `data "featureconsole_users" "all" {}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.featureconsole_users.all", tfjsonpath.New("users"), knownvalue.ListExact(nil)),
				},
			},
			{
				PreConfig: func() { m.SetUsers(testUsers(45)); m.ResetRequests() },
				Config:    providerBlock(url, "read_concurrency = 1") + `data "featureconsole_users" "all" {}`,
				Check: resource.ComposeAggregateTestCheckFunc(
					checkUsers("data.featureconsole_users.all", testUsers(45)),
					func(*terraform.State) error {
						// 45 users in pages of 10: five GETs per read, and the step reads more than once
						// (plan, apply, refresh): each read must be exactly five.
						if n := m.CountRequests("GET", "/users"); n%5 != 0 || n == 0 {
							return fmt.Errorf("%d GET /users requests, want a multiple of 5", n)
						}
						for _, r := range m.Requests() {
							if strings.Contains(r.RawQuery, "limit=100") && !strings.Contains(r.RawQuery, "page=1") {
								return fmt.Errorf("a follow-up page asked for the size it wanted, not the one the service used: %s", r.RawQuery)
							}
						}
						return nil
					},
				),
			},
		},
	})
}

func TestAccSegmentsDataSource(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{PageSizeCap: 5})
	// segment_04's targets mix strings and numbers, as rules written in the console hold them (the
	// document's targetValue is a list of one or the other).
	m.ServeBeyondDocument("/targetValue")
	seg, _ := m.Segment("segment_04")
	seg.Rules[0].Conditions[0].TargetValue = []any{"US", json.Number("12.5"), "CA", json.Number("3")}
	m.PutSegment(seg)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "featureconsole_segments" "all" {}
data "featureconsole_segments" "rules" { type = "rule_based" }
data "featureconsole_segments" "lists" { type = "id_list" }
locals {
  by_id = { for s in data.featureconsole_segments.all.segments : s.id => s }
}
output "scalar_target" { value = local.by_id["segment_02"].rules[0].conditions[0].target_value }
output "mixed_target"  { value = local.by_id["segment_04"].rules[0].conditions[0].target_value }
output "list_rules_null" { value = alltrue([for s in data.featureconsole_segments.lists.segments : length(s.rules) == 0]) }
output "rules_have_rules" { value = alltrue([for s in data.featureconsole_segments.rules.segments : length(s.rules) > 0]) }
output "types" { value = distinct([for s in data.featureconsole_segments.rules.segments : s.type]) }
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.featureconsole_segments.all", tfjsonpath.New("segments"), knownvalue.ListSizeExact(12)),
				statecheck.ExpectKnownOutputValue("scalar_target", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("5")})),
				statecheck.ExpectKnownOutputValue("mixed_target", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("US"), knownvalue.StringExact("12.5"), knownvalue.StringExact("CA"), knownvalue.StringExact("3"),
				})),
				statecheck.ExpectKnownOutputValue("list_rules_null", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("rules_have_rules", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("types", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("rule_based")})),
			},
			Check: func(s *terraform.State) error {
				a := s.RootModule().Resources["data.featureconsole_segments.all"].Primary.Attributes
				lists, _ := strconv.Atoi(s.RootModule().Resources["data.featureconsole_segments.lists"].Primary.Attributes["segments.#"])
				rules, _ := strconv.Atoi(s.RootModule().Resources["data.featureconsole_segments.rules"].Primary.Attributes["segments.#"])
				if lists == 0 || rules == 0 || lists+rules != 12 {
					return fmt.Errorf("type filters split 12 segments into %d id lists and %d rule-based", lists, rules)
				}
				if a["segments.0.id"] == "" {
					return fmt.Errorf("segment without id")
				}
				return nil
			},
		}},
	})
}

// TestAccSegmentsDataSource_severalRules: the live form lists every rule of a segment, in order.
func TestAccSegmentsDataSource_severalRules(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	h := m.Habits() // with FEATURECONSOLE_MOCK_HABITS' too
	h.SegmentRuleObject = false
	m.SetHabits(h)
	rule := func(name string) mockconsole.SegmentRule {
		return mockconsole.SegmentRule{ID: name, BaseID: name, Name: name, PassPercentage: 10,
			Conditions: []mockconsole.Condition{{Type: "country", Operator: "any", TargetValue: []any{"US"}}}}
	}
	m.SetSegments([]mockconsole.Segment{{ID: "three", Type: "rule_based", Tags: []string{},
		Rules: []mockconsole.SegmentRule{rule("first"), rule("second"), rule("third")}}})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "featureconsole_segments" "all" {}
output "names" { value = [for r in data.featureconsole_segments.all.segments[0].rules : r.name] }
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("names", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("first"), knownvalue.StringExact("second"), knownvalue.StringExact("third"),
				})),
			},
		}},
	})
}

func testEvents(n int) []mockconsole.Event {
	ev := make([]mockconsole.Event, n)
	for i := range ev {
		ev[i] = mockconsole.Event{
			Timestamp: strconv.Itoa(1_700_000_000_000 + i*1000),
			Name:      "custom_event",
			Source:    "server",
			Value:     fmt.Sprintf("v%d", i),
			UserID:    fmt.Sprintf("u%d", i%17),
			Metadata:  map[string]any{"plan": "pro", "amount": 12.5, "items": i, "ok": i%2 == 0, "nested": map[string]any{"b": 1, "a": "x"}},
		}
	}
	ev[0].Value = ""
	ev[1].Metadata = map[string]any{}
	return ev
}

func checkEvents(addr string, want []mockconsole.Event) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources[addr].Primary.Attributes
		if a["events.#"] != strconv.Itoa(len(want)) {
			return fmt.Errorf("events.# = %s, want %d", a["events.#"], len(want))
		}
		for i, e := range want {
			for k, v := range map[string]string{"timestamp": e.Timestamp, "name": e.Name, "source": e.Source, "value": e.Value, "user_id": e.UserID} {
				if got := a[fmt.Sprintf("events.%d.%s", i, k)]; got != v {
					return fmt.Errorf("events.%d.%s = %q, want %q", i, k, got, v)
				}
			}
			if got := a[fmt.Sprintf("events.%d.metadata.%%", i)]; got != strconv.Itoa(len(e.Metadata)) {
				return fmt.Errorf("events.%d.metadata has %s keys, want %d", i, got, len(e.Metadata))
			}
			for k, v := range e.Metadata {
				want, ok := v.(string)
				if !ok {
					b, _ := json.Marshal(v)
					want = string(b)
				}
				if got := a[fmt.Sprintf("events.%d.metadata.%s", i, k)]; got != want {
					return fmt.Errorf("events.%d.metadata.%s = %q, want %q", i, k, got, want)
				}
			}
		}
		return nil
	}
}

func TestAccEventsDataSource(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{PageSizeCap: 40})
	events := testEvents(523)
	m.SetEvents("custom_event", events)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "featureconsole_events" "all" { event_name = "custom_event" }
data "featureconsole_events" "first" {
  event_name  = "custom_event"
  max_records = 85
}
data "featureconsole_events" "none" { event_name = "never_recorded" }
output "amount" { value = jsondecode(data.featureconsole_events.all.events[2].metadata["amount"]) }
`,
			Check: resource.ComposeAggregateTestCheckFunc(
				checkEvents("data.featureconsole_events.all", events),
				checkEvents("data.featureconsole_events.first", events[:85]),
				resource.TestCheckResourceAttr("data.featureconsole_events.none", "events.#", "0"),
				resource.TestCheckOutput("amount", "12.5"),
				checkFastEventsRead(url),
			),
		}},
	})
}

func TestAccEventsDataSource_sequentialReadsSameRecords(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{PageSizeCap: 33})
	events := testEvents(200)
	m.SetEvents("custom_event", events)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url, "read_concurrency = 1") + `data "featureconsole_events" "all" { event_name = "custom_event" }`,
			Check:  resource.ComposeAggregateTestCheckFunc(checkEvents("data.featureconsole_events.all", events), checkFastEventsRead(url)),
		}},
	})
}

// The fast path's diagnostic reads as the framework's did.
// A wrong key fails every data source with an error that says authentication failed and never
// echoes the key. ExpectError cannot assert an absence, so a second step matches the whole
// diagnostic against a regexp that fails where the key appears.
func TestAccDataSources_wrongKey(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, block, want string }{
		{"users", `data "featureconsole_users" "all" {}`, `Unable to list users`},
		{"segments", `data "featureconsole_segments" "all" {}`, `Unable to list segments`},
		{"events", `data "featureconsole_events" "e" { event_name = "signup" }`, `Unable to list events "signup"`},
	}
	// A service that answers a bad key 403 with a body saying 401 (internal/mockconsole/HABITS.md): the status is
	// trusted (not allowed), and the body's words send the user to the key as well.
	status, code, advice := "401 Unauthorized", 401, "authentication failed"
	if envHabits(t).AuthAs403 {
		status, code, advice = "403 Forbidden", 403, `not\s+allowed.*speaks\s+of\s+authentication.*api_key`
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, url := startMock(t, mockconsole.Config{})
			config := fmt.Sprintf(`
provider "featureconsole" {
  base_url = %q
  api_key  = "not-the-key-s3cr3t"
}
%s
`, url, tc.block)
			resource.ParallelTest(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{Config: config, ExpectError: regexp.MustCompile(`(?s)` + regexp.QuoteMeta(tc.want) + `.*` + status + `.*` + advice)},
					{Config: config, ExpectError: regexp.MustCompile(`^(?s)(?:[^s]|s[^3]|s3[^c])*$`)},
				},
			})
			for _, r := range m.Requests() {
				if r.Status != code {
					t.Errorf("request %s %s answered %d, want %d", r.Method, r.Path, r.Status, code)
				}
			}
			if tc.name == "events" && fastEventsReadCount(url) == 0 {
				t.Error("the read did not go through the fast path")
			}
		})
	}
}

func TestAccDataSources_serverErrorsRetried(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{PageSizeCap: 20})
	// Several pages, so that every other one fails: not a list answered whole, nor one that ignores page.
	h := m.Habits()
	h.UnpagedLists, h.PageIgnored = false, false
	m.SetHabits(h)
	users := testUsers(90)
	m.SetUsers(users)
	m.SetFaults(mockconsole.Faults{FailEvery: 2, ReadStatus: 503})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `data "featureconsole_users" "all" {}`,
			Check: resource.ComposeAggregateTestCheckFunc(
				checkUsers("data.featureconsole_users.all", users),
				func(*terraform.State) error {
					failed := 0
					for _, r := range m.Requests() {
						if r.Status == 503 {
							failed++
						}
					}
					if failed == 0 {
						return fmt.Errorf("the mock answered no 503: the test proves nothing")
					}
					return nil
				},
			),
		}},
	})
}

func TestAccDataSources_serverErrorsExhaustRetries(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.SetFaults(mockconsole.Faults{FailEvery: 1, ReadStatus: 503})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      providerBlock(url, "max_retries = 2") + `data "featureconsole_segments" "all" {}`,
			ExpectError: regexp.MustCompile(`(?s)Unable to list segments.*503 Service Unavailable.*gave\s+up\s+after\s+3\s+attempts`),
		}},
	})
}

func TestAccProvider_reviewSettingsHeader(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url, "respect_review_settings = true") + `data "featureconsole_events" "e" { event_name = "signup" }`,
			Check: func(*terraform.State) error {
				reqs := m.Requests()
				if len(reqs) == 0 {
					return fmt.Errorf("no request reached the mock")
				}
				for _, r := range reqs {
					if r.Header.Get("x-respect-review-settings") != "true" {
						return fmt.Errorf("%s %s without x-respect-review-settings: true", r.Method, r.Path)
					}
					if ua := r.Header.Get("User-Agent"); !strings.HasPrefix(ua, "terraform-provider-featureconsole/test Terraform/") {
						return fmt.Errorf("User-Agent %q", ua)
					}
				}
				return nil
			},
		}},
	})
}

func TestAccProvider_configurationErrors(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	t.Setenv(framework.EnvBaseURL, "")
	t.Setenv(framework.EnvAPIKey, "")
	cases := []struct {
		name, config string
		want         string
	}{
		{"missing key", fmt.Sprintf(`provider "featureconsole" { base_url = %q }`, url), `(?s)Missing console API key.*api_key.*FEATURECONSOLE_API_KEY`},
		{"missing url", `provider "featureconsole" { api_key = "k" }`, `(?s)Missing console API address.*base_url.*FEATURECONSOLE_BASE_URL`},
		{"empty key", fmt.Sprintf(`provider "featureconsole" { 
  base_url = %q
  api_key = "" 
}`, url), `Missing console API key`},
		{"bad scheme", `provider "featureconsole" {
  base_url = "ftp://example.com"
  api_key  = "k"
}`, `(?s)Invalid console API address.*scheme must be http or https`},
		{"insecure http", `provider "featureconsole" {
  base_url = "http://console.example.com"
  api_key  = "k"
}`, `(?s)Insecure console API address.*allow_insecure_http`},
		{"negative retries", providerBlock(url, "max_retries = -1"), `(?s)max_retries.*must be between 0 and 20`},
		{"bad timeout", providerBlock(url, `request_timeout = "soon"`), `(?s)request_timeout.*not a positive duration`},
		{"negative pacing", fmt.Sprintf(`provider "featureconsole" {
  base_url          = %q
  api_key           = "k"
  write_limit = -1
}`, url), `(?s)write_limit.*at least 0`},
		{"bad write window", providerBlock(url, `write_limit_window = "0s"`), `(?s)write_limit_window.*not a positive duration`},
		{"negative long pacing", providerBlock(url, "write_limit_long = -5"), `(?s)write_limit_long.*at least 0`},
		{"bad long write window", providerBlock(url, `write_limit_long_window = "15 minutes"`), `(?s)write_limit_long_window.*not a positive duration`},
		{"zero read concurrency", providerBlock(url, "read_concurrency = 0"), `(?s)read_concurrency.*between 1 and 32`},
		{"empty role", providerBlock(url) + `data "featureconsole_users" "x" { role = "" }`, `(?s)role.*length`},
		// Roles are compared case-insensitively and without surrounding spaces: a blank one matches nobody.
		{"blank role", providerBlock(url) + `data "featureconsole_users" "x" { role = "  " }`, `(?s)role.*must not be empty or only white space`},
		{"unknown segment type", providerBlock(url) + `data "featureconsole_segments" "x" { type = "smart" }`, `(?s)type.*value must be one of`},
		{"empty event name", providerBlock(url) + `data "featureconsole_events" "x" { event_name = "" }`, `(?s)event_name.*length`},
		{"zero max records", providerBlock(url) + `data "featureconsole_events" "x" {
  event_name  = "signup"
  max_records = 0
}`, `(?s)max_records.*at least 1`},
	}
	for _, tc := range cases {
		cfg := tc.config
		if !strings.Contains(cfg, "data \"") {
			cfg += "\ndata \"featureconsole_users\" \"all\" {}\n"
		}
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps:                    []resource.TestStep{{Config: cfg, ExpectError: regexp.MustCompile(tc.want)}},
			})
		})
	}
	if n := len(m.Requests()); n != 0 {
		t.Errorf("invalid configurations sent %d requests to the service, want none", n)
	}
}

func TestAccProvider_environmentVariables(t *testing.T) {
	_, url := startMock(t, mockconsole.Config{})
	t.Setenv(framework.EnvBaseURL, url+"/console/v1/")
	t.Setenv(framework.EnvAPIKey, mockconsole.DefaultAPIKey)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `data "featureconsole_events" "e" { event_name = "signup" }`,
			Check:  resource.TestCheckResourceAttr("data.featureconsole_events.e", "events.#", "3"),
		}},
	})
}

// An event_name with no records in the service's window, as a misspelled name has none, warns at
// plan; an event with records does not.
func TestAccEventsDataSource_noRecordsWarns(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t)
	m, url := startMock(t, mockconsole.Config{})
	m.SetEvents("custom_event", testEvents(3))
	cli.write("main.tf", providerBlock(url)+`
data "featureconsole_events" "typo" { event_name = "custom_evnet" }
data "featureconsole_events" "found" { event_name = "custom_event" }
output "found" { value = length(data.featureconsole_events.found.events) }
`)
	cli.must("init", "-input=false", "-no-color")
	out := cli.must("plan", "-input=false", "-no-color")
	wantsOutput(t, out, `Warning: No records of event "custom_evnet"`,
		`holds no records of event "custom_evnet" in its window of recent records, so events is empty\. Check event_name`)
	lacksOutput(t, out, `No records of event "custom_event"`)
}
