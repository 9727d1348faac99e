// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// requestCounts tallies the mock's log as "METHOD /path-prefix" → count, dry runs apart. The
// check of the key and address that a plan of new objects makes is left out: it is sent only when
// no other request of the plan was answered or in flight before, which Terraform's walk order
// decides (a data source read at the same time as a new gate is planned); TestAccProvider_accessCheckShared
// counts it where the order is fixed.
func requestCounts(m *mockconsole.Server) map[string]int {
	out := map[string]int{}
	for _, r := range m.Requests() {
		if isAccessCheck(r) {
			continue
		}
		p := strings.TrimPrefix(r.Path, "/console/v1")
		parts := strings.SplitN(strings.TrimPrefix(p, "/"), "/", 2)
		key := r.Method + " /" + parts[0]
		if parts[0] == "metrics" {
			key = r.Method + " /metrics/metric_source"
		}
		if isDryRun(r) {
			key += " (dry run)"
		}
		out[key]++
	}
	return out
}

// expectRequests is a plan check that compares the requests since the last reset with want, then resets.
func expectRequests(t *testing.T, m *mockconsole.Server, stage string, want map[string]int) plancheck.PlanCheck {
	return mockCheck(func() error {
		got := requestCounts(m)
		m.ResetRequests()
		t.Logf("%s: %v", stage, got)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("%s: requests %v, want exactly %v", stage, got, want)
		}
		return nil
	})
}

// TestAccRequests_onePerNeed counts every request of create, update and refresh: one write per
// resource with state from its answer, one read per resource on refresh, each page of a data source
// once (250 users in pages of 100: three reads), and a dry run only when a metric source changes.
func TestAccRequests_onePerNeed(t *testing.T) {
	t.Parallel()
	if h := envHabits(t); h.EmptyWrites || h.DropIdle {
		t.Skip("exact request counts: writes answered without a body are read back, and dropped connections retried, by design")
	}
	m, url := startMock(t, mockconsole.Config{PageSizeCap: 100})
	config := func(pct int) string {
		return providerBlock(url, "read_concurrency = 1") + fmt.Sprintf(`
resource "featureconsole_gate_rules" "a" {
  gate_id = "dark_mode"
  rules   = [{ name = "all", pass_percentage = %[1]d }]
}
resource "featureconsole_gate_rules" "b" {
  gate_id = "search_v2"
  rules   = [{ name = "all", pass_percentage = %[1]d }]
}
resource "featureconsole_release_pipeline" "web" {
  pipeline_id = "pl_web"
  name        = "Web %[1]d"
  phases      = [{ name = "Canary", time_interval_ms = 0 }]
}
resource "featureconsole_metric_source" "a" {
  name             = "count_a"
  sql              = "SELECT user_id, ts FROM a WHERE x > %[1]d"
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
}
data "featureconsole_users" "all" {}
data "featureconsole_events" "signup" { event_name = "signup" }
`, pct)
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config(10),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{expectRequests(t, m, "create plan", map[string]int{
						"GET /users": 3, "GET /events": 1, "POST /metrics/metric_source (dry run)": 1,
					})},
					PostApplyPreRefresh: []plancheck.PlanCheck{expectRequests(t, m, "create apply", map[string]int{
						// terraform apply plans again (data sources, dry run), then one write per resource;
						// gates and pipelines, which exist before Terraform, are read once before their
						// first write so that the rules and phases they keep keep their ids.
						"GET /users": 3, "GET /events": 1, "POST /metrics/metric_source (dry run)": 1,
						"GET /gates": 2, "PATCH /gates": 2, "GET /release_pipelines": 1, "POST /release_pipelines": 1,
						"POST /metrics/metric_source": 1,
					})},
					PostApplyPostRefresh: []plancheck.PlanCheck{expectRequests(t, m, "refresh", map[string]int{
						"GET /gates": 2, "GET /release_pipelines": 1, "GET /metrics/metric_source": 1, "GET /users": 3, "GET /events": 1,
					})},
				},
			},
			{
				Config: config(20),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{expectRequests(t, m, "update plan", map[string]int{
						// the active runs of each changed gate, for the warning that a run locks its rules
						"GET /release_pipeline_triggers": 2, "GET /gates": 2, "GET /release_pipelines": 1, "GET /metrics/metric_source": 1, "GET /users": 3, "GET /events": 1,
						"POST /metrics/metric_source (dry run)": 1,
					})},
					PostApplyPreRefresh: []plancheck.PlanCheck{expectRequests(t, m, "update apply", map[string]int{
						// exactly one write per resource: state comes from the write's answer. The plan that
						// apply makes again lists each changed gate's active runs, as the plan did, for the
						// warning that a run locks its rules.
						"GET /users": 3, "GET /events": 1, "POST /metrics/metric_source (dry run)": 1,
						"GET /release_pipeline_triggers": 2, "PATCH /gates": 2, "POST /release_pipelines": 1, "POST /metrics/metric_source": 1,
					})},
					PostApplyPostRefresh: []plancheck.PlanCheck{expectRequests(t, m, "refresh after update", map[string]int{
						"GET /gates": 2, "GET /release_pipelines": 1, "GET /metrics/metric_source": 1, "GET /users": 3, "GET /events": 1,
					})},
				},
			},
		},
	})
	if fastEventsReadCount(url) == 0 {
		t.Error("featureconsole_events was not read through the fast path")
	}
}
