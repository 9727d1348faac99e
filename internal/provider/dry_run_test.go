// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// Terraform configures the provider anew for the plan and for the apply of one `terraform apply`,
// so only the dry-run cache on disk spares apply a second dry run of the body the plan validated
// (each one a POST that spends the project's write budget). Without it the same run sends two.
func TestAccMetricSource_dryRunNotRepeatedAcrossPlanAndApply(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		cacheDir func(t *testing.T) string
		want     int // dry runs of a create, then of an update, each over one terraform apply
	}{
		{name: "cached on disk", cacheDir: func(t *testing.T) string { return t.TempDir() }, want: 1},
		{name: "memory only", cacheDir: func(*testing.T) string { return "" }, want: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, url := mockWithoutSources(t)
			dir := tc.cacheDir(t)
			factories := map[string]func() (tfprotov6.ProviderServer, error){
				"featureconsole": newServerFactory(func() *featureConsoleProvider {
					p := newTestProvider()
					p.tuning.dryRunCacheDir = dir
					return p
				}),
			}
			updated := strings.Replace(msMinimalConfig, "SELECT user_id, ts FROM orders", "SELECT user_id, ts FROM orders_v2", 1)
			expect := func(stage string) func() {
				return func() {
					if n := dryRuns(m); n != tc.want {
						t.Errorf("%s: %d dry runs, want %d", stage, n, tc.want)
					}
					m.ResetRequests()
				}
			}
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: factories,
				Steps: []resource.TestStep{
					{PreConfig: m.ResetRequests, Config: providerBlock(url) + msMinimalConfig},
					{PreConfig: expect("create"), Config: providerBlock(url) + updated},
					{PreConfig: expect("update"), Config: providerBlock(url) + updated, PlanOnly: true},
				},
			})
		})
	}
}

func dryRuns(m *mockconsole.Server) int {
	n := 0
	for _, r := range m.Requests() {
		if isDryRun(r) {
			n++
		}
	}
	return n
}

func TestAccMetricSource_dryRunRejected(t *testing.T) {
	m, url := mockWithoutSources(t)
	badSQL := strings.Replace(msMinimalConfig, "SELECT user_id, ts FROM orders", "SELEC user_id FROM orders", 1)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectMockSourceNames(m),
		Steps: []resource.TestStep{
			{
				// A new source: the service's own words at plan, nothing persisted.
				PreConfig:   m.ResetRequests,
				Config:      providerBlock(url) + badSQL,
				PlanOnly:    true,
				ExpectError: wrapped(`Metric source "orders" rejected by the console`, `400 Bad Request: SQL compilation error: syntax error at or near "SELEC"`),
			},
			{
				PreConfig: func() {
					if w := committedWrites(m); len(w) > 0 || len(m.MetricSourceNames()) > 0 {
						t.Fatalf("a rejected plan must persist nothing: writes %v, sources %v", w, m.MetricSourceNames())
					}
					if dryRuns(m) == 0 {
						t.Fatal("the plan sent no dry run")
					}
				},
				Config: providerBlock(url) + msMinimalConfig,
			},
			{
				// An existing source: the update is validated with the update endpoint; nothing changes.
				PreConfig:   m.ResetRequests,
				Config:      providerBlock(url) + badSQL,
				ExpectError: wrapped(`rejected by the console`, `syntax error at or near "SELEC"`),
			},
			{
				PreConfig: func() {
					if err := noCommittedWrites(m); err != nil {
						t.Fatal(err)
					}
				},
				Config:   providerBlock(url) + msMinimalConfig,
				PlanOnly: true,
			},
		},
	})
	if src, ok := m.MetricSource("orders"); ok && src.SQL != "SELECT user_id, ts FROM orders" {
		t.Fatalf("the mock's source changed: %q", src.SQL)
	}
}

func TestAccMetricSource_noDryRunWhenDisabledOrUnknown(t *testing.T) {
	m, url := mockWithoutSources(t)
	badSQL := strings.Replace(msMinimalConfig, "SELECT user_id, ts FROM orders", "SELEC user_id FROM orders", 1)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectMockSourceNames(m),
		Steps: []resource.TestStep{
			{
				// validate_on_plan = false: the plan sends no dry run (only the check of the key that a
				// plan of new objects makes), and apply meets the service's error.
				PreConfig: m.ResetRequests,
				Config:    providerBlock(url) + strings.Replace(badSQL, "\n}", "\n  validate_on_plan = false\n}", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					mockCheck(func() error {
						if checks, _ := accessCheckRequests(m); len(m.Requests()) != checks {
							return fmt.Errorf("want no request at plan but the access check, got %v", m.Requests())
						}
						return nil
					}),
				}},
				ExpectError: wrapped(`Unable to create metric source "orders"`, `400 Bad Request: SQL compilation error`),
			},
			{
				// A value known only at apply: no dry run at plan.
				PreConfig: m.ResetRequests,
				Config: providerBlock(url) + `
resource "terraform_data" "sql" {
  input = "SELECT user_id, ts FROM orders"
}
resource "featureconsole_metric_source" "orders" {
  name             = "orders"
  sql              = terraform_data.sql.output
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(msAddr, tfjsonpath.New("sql")),
					mockCheck(func() error {
						if n := dryRuns(m); n != 0 {
							return fmt.Errorf("want no dry run with unknown values, got %d", n)
						}
						return nil
					}),
				}},
				Check: expectMockSourceNames(m, "orders"),
			},
		},
	})
}
