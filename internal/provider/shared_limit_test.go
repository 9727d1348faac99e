// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// sharedLimitConfig is one workspace: gates from..to, paced at the project's (scaled-down) limits,
// which it does not know another workspace is spending too.
func sharedLimitConfig(url string, from, to int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `
provider "featureconsole" {
  base_url                = %q
  api_key                 = %q
  write_limit             = 8
  write_limit_window      = "1s"
  write_limit_long        = 100
  write_limit_long_window = "30s"
}
`, url, mockconsole.DefaultAPIKey)
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, `
resource "featureconsole_gate_rules" "g%[1]d" {
  gate_id = "gate_%03[1]d"
  rules = [{
    name            = "rollout"
    pass_percentage = %[1]d
  }]
}
`, i)
	}
	return b.String()
}

// Two applies at once against one project whose write limit (8 per second) both spend: both
// succeed with exactly their state, no write is accepted twice, and the 429s that the shared limit
// causes are waited out rather than failing either apply.
func TestAccWriteLimit_shared(t *testing.T) { // serial: serialAccTests says why
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("acceptance test: set %s=1", resource.EnvTfAcc) // else the count of applies below could not be met
	}
	m, url := startMock(t, mockconsole.Config{WriteLimit: 8, WriteWindow: time.Second, WriteLimitLong: 100, WriteWindowLong: 30 * time.Second})
	var applied atomic.Int32
	workspace := func(t *testing.T, from, to int) {
		var checks []statecheck.StateCheck
		for i := from; i <= to; i++ {
			addr := fmt.Sprintf("featureconsole_gate_rules.g%d", i)
			checks = append(checks,
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("gate_id"), knownvalue.StringExact(fmt.Sprintf("gate_%03d", i))),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("pass_percentage"), knownvalue.Int64Exact(int64(i))),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("rules"), knownvalue.ListSizeExact(1)),
			)
		}
		resource.Test(t, resource.TestCase{
			PreCheck:                 func() { testAccPreCheck(t) },
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps: []resource.TestStep{
				{
					Config:            sharedLimitConfig(url, from, to),
					ConfigStateChecks: checks,
					Check: func(*terraform.State) error {
						for i := from; i <= to; i++ {
							g, ok := m.Gate(fmt.Sprintf("gate_%03d", i))
							if !ok || len(g.Rules) != 1 || g.Rules[0].PassPercentage != float64(i) {
								return fmt.Errorf("gate_%03d at the service: %+v", i, g.Rules)
							}
						}
						applied.Add(1)
						return nil
					},
				},
				{Config: sharedLimitConfig(url, from, to), PlanOnly: true},
			},
		})
	}
	t.Run("together", func(t *testing.T) {
		t.Run("workspace_a", func(t *testing.T) { t.Parallel(); workspace(t, 1, 24) })
		t.Run("workspace_b", func(t *testing.T) { t.Parallel(); workspace(t, 25, 48) })
	})
	if t.Failed() {
		return
	}
	if applied.Load() != 2 {
		t.Fatalf("%d of 2 applies checked", applied.Load())
	}
	accepted := map[string]int{}
	limited := 0
	for _, r := range m.Requests() {
		if r.Method != http.MethodPatch {
			continue
		}
		switch r.Status {
		case http.StatusOK:
			accepted[r.Path+" "+string(r.Body)]++
		case http.StatusTooManyRequests:
			limited++
		}
	}
	for k, n := range accepted {
		if n > 1 {
			t.Errorf("write accepted %d times: %s", n, k)
		}
	}
	// 48 creates and 48 destroys (an empty rule list), each accepted once.
	total := 0
	for _, n := range accepted {
		total += n
	}
	if total != 96 {
		t.Errorf("%d accepted writes, want 96", total)
	}
	if limited == 0 {
		t.Error("no 429 at all: the two applies did not compete for the shared limit, the test proves nothing")
	}
	t.Logf("%d PATCH answered 429 while two applies shared 8 writes per second", limited)
}

// When the resource's time runs out while the project's limit stays exhausted, the error names the
// create (not "update", though the API call is a PATCH of the rules), says the limit is the
// project's and shared, and what to do; nothing was applied, so it does not say it may have been.
func TestAccWriteLimit_exhausted(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{WriteLimit: 1, WriteWindow: time.Hour})
	spend := func() {
		req, _ := http.NewRequest(http.MethodPatch, url+"/console/v1/gates/gate_300/rules", strings.NewReader(`{"rules":[]}`))
		req.Header.Set("SERVICE-API-KEY", mockconsole.DefaultAPIKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("spending the project's budget from another client: %v %v", resp, err)
		}
		resp.Body.Close()
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			PreConfig: spend,
			Config: providerBlock(url) + `
resource "featureconsole_gate_rules" "x" {
  gate_id  = "gate_001"
  rules    = [{ name = "r", pass_percentage = 10 }]
  timeouts = { create = "4s" }
}`,
			// Terraform wraps the detail: words may be separated by a line break. The refusal asks
			// for an hour, longer than the 10-second window lasts: the error names the longer window.
			ExpectError: regexp.MustCompile(strings.ReplaceAll(`(?s)Unable to create rules of gate "gate_001".*15-minute write limit was exhausted for [0-9]+ seconds.*`+
				`shared by every client.*at least 15 minutes in its timeouts block.*timeouts\.create.*nothing was applied`, " ", `\s+`)),
		}},
	})
	if g, _ := m.Gate("gate_001"); len(g.Rules) != 0 {
		t.Errorf("gate_001 changed: %+v", g.Rules)
	}
}
