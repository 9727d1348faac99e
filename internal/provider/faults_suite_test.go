// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// faultSuiteConfig declares several gate rule lists, a pipeline, several metric sources and the
// data sources; step changes values so that the second apply updates every resource.
func faultSuiteConfig(url string, step int) string {
	var b strings.Builder
	b.WriteString(providerBlock(url, "max_retries = 8"))
	for i, gate := range []string{"new_checkout", "dark_mode", "search_v2"} {
		fmt.Fprintf(&b, `
resource "featureconsole_gate_rules" "g%[1]d" {
  gate_id = %[2]q
  rules = [
    {
      name            = "employees"
      pass_percentage = 100
      conditions      = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]
    },
    {
      name            = "beta"
      pass_percentage = %[3]d.5
      environments    = ["production"]
      conditions      = [{ type = "custom_field", field = "age", operator = "gt", target_numbers = [%[4]d] }]
      return_value    = jsonencode({ variant = "b%[4]d" })
    },
    { name = "everyone", pass_percentage = %[4]d },
  ]
}
`, i, gate, 10+step, 20+step)
	}
	fmt.Fprintf(&b, `
resource "featureconsole_release_pipeline" "web" {
  pipeline_id = "pl_web"
  name        = "Web rollout %[1]d"
  phases = [
    {
      name             = "Canary"
      time_interval_ms = %[2]d
      required_review  = true
      rules            = [{ name = "internal", environments = ["staging"], conditions = [{ type = "user_id", operator = "any", target_value = ["42"] }] }]
    },
    { name = "Everyone", time_interval_ms = 0, rules = [{ name = "all" }] },
  ]
}
`, step, 3600000*step)
	for i := range 4 {
		fmt.Fprintf(&b, `
resource "featureconsole_metric_source" "s%[1]d" {
  name             = "faulty_source_%[1]d"
  sql              = "SELECT user_id, ts, amount FROM orders_%[1]d WHERE amount > %[2]d"
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
  tags             = ["step%[2]d"]
}
`, i, step)
	}
	b.WriteString(`
data "featureconsole_users" "all" {}
data "featureconsole_segments" "all" {}
data "featureconsole_events" "signup" { event_name = "signup" }
`)
	return b.String()
}

// checkFaultSuiteState compares the mock with what faultSuiteConfig(step) declares.
func checkFaultSuiteState(m *mockconsole.Server, step int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for _, gate := range []string{"new_checkout", "dark_mode", "search_v2"} {
			g, ok := m.Gate(gate)
			if !ok {
				return fmt.Errorf("gate %s is gone", gate)
			}
			var got []string
			for _, r := range g.Rules {
				got = append(got, fmt.Sprintf("%s:%g", r.Name, r.PassPercentage))
			}
			want := []string{"employees:100", fmt.Sprintf("beta:%g", float64(10+step)+0.5), fmt.Sprintf("everyone:%d", 20+step)}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				return fmt.Errorf("gate %s holds rules %v, want %v", gate, got, want)
			}
		}
		p, _ := m.Pipeline("pl_web")
		if p.Name != fmt.Sprintf("Web rollout %d", step) || len(p.Phases) != 2 || p.Phases[0].TimeIntervalMs != int64(3600000*step) {
			return fmt.Errorf("pl_web holds %+v", p)
		}
		names := m.MetricSourceNames()
		sort.Strings(names)
		if strings.Join(names, ",") != "faulty_source_0,faulty_source_1,faulty_source_2,faulty_source_3" {
			return fmt.Errorf("the service holds metric sources %v, want exactly the four declared", names)
		}
		for i := range 4 {
			src, _ := m.MetricSource(fmt.Sprintf("faulty_source_%d", i))
			if want := fmt.Sprintf("SELECT user_id, ts, amount FROM orders_%d WHERE amount > %d", i, step); src.SQL != want || len(src.Tags) != 1 || src.Tags[0] != fmt.Sprintf("step%d", step) {
				return fmt.Errorf("faulty_source_%d holds sql %q tags %v", i, src.SQL, src.Tags)
			}
		}
		if n := s.RootModule().Resources["data.featureconsole_users.all"].Primary.Attributes["users.#"]; n != "250" {
			return fmt.Errorf("users read under faults: %s, want 250", n)
		}
		return nil
	}
}

// TestAccFaults_convergeUnderFaults: every 4th request fails (429 with Retry-After on writes, 503 on
// reads) and every 3rd write is committed with its answer lost (502). Apply converges to exactly the
// declared state, no metric source is duplicated, nothing is reported as a spurious failure, and
// the next plan, with the faults still on, is empty. An update of everything converges too, and so
// does destroy.
func TestAccFaults_convergeUnderFaults(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{PageSizeCap: 60})
	faults := mockconsole.Faults{FailEvery: 4, ReadStatus: http.StatusServiceUnavailable, WriteStatus: http.StatusTooManyRequests, RetryAfter: "0", LoseWriteEvery: 3}
	m.SetFaults(faults)
	injected := func() error {
		var failed, lost int
		for _, r := range m.Requests() {
			switch r.Status {
			case http.StatusServiceUnavailable, http.StatusTooManyRequests:
				failed++
			case http.StatusBadGateway:
				lost++
			}
		}
		if failed == 0 || lost == 0 {
			return fmt.Errorf("the mock injected %d failures and %d lost answers: the test proves nothing", failed, lost)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if names := m.MetricSourceNames(); len(names) != 0 {
				return fmt.Errorf("metric sources left after destroy: %v", names)
			}
			for _, gate := range []string{"new_checkout", "dark_mode", "search_v2"} {
				if g, _ := m.Gate(gate); len(g.Rules) != 0 {
					return fmt.Errorf("gate %s keeps %d rules after destroy", gate, len(g.Rules))
				}
			}
			if _, ok := m.Pipeline("pl_web"); !ok {
				return fmt.Errorf("destroy deleted the pipeline")
			}
			return injected()
		},
		Steps: []resource.TestStep{
			{
				Config: faultSuiteConfig(url, 1),
				Check:  resource.ComposeAggregateTestCheckFunc(checkFaultSuiteState(m, 1), func(*terraform.State) error { return injected() }),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config: faultSuiteConfig(url, 2),
				Check:  checkFaultSuiteState(m, 2),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}
