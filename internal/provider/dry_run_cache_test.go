// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
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
