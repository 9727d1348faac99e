// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// Responses that are not the service's JSON (a proxy's HTML page, a cut connection, nothing) give
// a clear error naming the operation, never a panic.
func TestAccFaults_malformedResponses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		body   string
		status int
		want   string
	}{
		{"not json", "this is not json", 200, `(?s)Unable to list users.*could not be decoded`},
		{"truncated", `{"message":"ok","data":[{"email":"a@example.com","first`, 200, `(?s)Unable to list users.*could not be decoded`},
		{"empty", "", 200, `(?s)Unable to list users.*empty\s+response\s+body`},
		{"html 200", "<html><body><h1>Welcome to nginx</h1></body></html>", 200, `(?s)Unable to list users.*HTML\s+page`},
		{"html 502", "<html><body><h1>502 Bad Gateway</h1></body></html>", 502, `(?s)Unable to list users.*502 Bad Gateway.*HTML\s+page.*gave\s+up\s+after\s+2\s+attempts`},
		{"json without data", `{"message":"ok"}`, 200, `(?s)Unable to list users.*no\s+"data"\s+list`},
	}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			m, url := startMock(t, mockconsole.Config{})
			m.SetFaults(mockconsole.Faults{RawBody: tc.body, RawStatus: tc.status})
			if tc.body == "" {
				// An empty RawBody means "no fault" to the mock: serve an empty body another way.
				m.SetFaults(mockconsole.Faults{RawBody: " ", RawStatus: tc.status})
			}
			resource.ParallelTest(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      providerBlock(url, "max_retries = 1") + `data "featureconsole_users" "all" {}`,
					ExpectError: regexp.MustCompile(tc.want),
				}},
			})
		})
	}
}

func TestAccFaults_malformedWriteResponse(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			PreConfig: func() {
				m.SetFaults(mockconsole.Faults{RawBody: "<html><body>Bad gateway</body></html>", RawStatus: 200})
			},
			Config: providerBlock(url) + `
resource "featureconsole_metric_source" "s" {
  name             = "html"
  sql              = "SELECT user_id, ts FROM t"
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
  validate_on_plan = false
}`,
			ExpectError: regexp.MustCompile(`(?s)Unable to create metric source "html".*could\s+not\s+be\s+decoded.*HTML\s+page`),
		}},
	})
}

// Fifty resources applied with -parallelism=20 against one mock, under the race detector: every
// write lands, none is lost, and an update of all of them lands too.
func TestAccFaults_concurrentApply(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	t.Setenv("TF_CLI_ARGS_apply", "-parallelism=20")
	t.Setenv("TF_CLI_ARGS_plan", "-parallelism=20")
	t.Setenv("TF_CLI_ARGS_destroy", "-parallelism=20")
	config := func(pct int) string {
		var b strings.Builder
		b.WriteString(providerBlock(url))
		for i := 1; i <= 25; i++ {
			fmt.Fprintf(&b, `
resource "featureconsole_gate_rules" "g%[1]d" {
  gate_id = "gate_%03[1]d"
  rules = [
    { name = "first", pass_percentage = %[2]d },
    { name = "second", pass_percentage = %[3]d, conditions = [{ type = "user_id", operator = "any", target_value = ["u%[1]d"] }] },
  ]
}
resource "featureconsole_metric_source" "s%[1]d" {
  name             = "source_%02[1]d"
  sql              = "SELECT user_id, ts FROM t%[1]d WHERE v > %[2]d"
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
}
`, i, pct, 100-pct)
		}
		return b.String()
	}
	check := func(pct int) resource.TestCheckFunc {
		return func(*terraform.State) error {
			for i := 1; i <= 25; i++ {
				g, ok := m.Gate(fmt.Sprintf("gate_%03d", i))
				if !ok || len(g.Rules) != 2 || g.Rules[0].PassPercentage != float64(pct) || g.Rules[1].PassPercentage != float64(100-pct) {
					return fmt.Errorf("gate_%03d holds %+v, want rules at %d and %d", i, g.Rules, pct, 100-pct)
				}
				s, ok := m.MetricSource(fmt.Sprintf("source_%02d", i))
				if want := fmt.Sprintf("SELECT user_id, ts FROM t%d WHERE v > %d", i, pct); !ok || s.SQL != want {
					return fmt.Errorf("source_%02d holds %q, want %q", i, s.SQL, want)
				}
			}
			if n := len(m.MetricSourceNames()); n != 25 {
				return fmt.Errorf("%d metric sources on the service, want 25", n)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if n := len(m.MetricSourceNames()); n != 0 {
				return fmt.Errorf("%d metric sources left after destroy", n)
			}
			for i := 1; i <= 25; i++ {
				if g, _ := m.Gate(fmt.Sprintf("gate_%03d", i)); len(g.Rules) != 0 {
					return fmt.Errorf("gate_%03d still has %d rules", i, len(g.Rules))
				}
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: config(10), Check: check(10)},
			{Config: config(35), Check: check(35)},
		},
	})
}
