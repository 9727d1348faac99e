// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// createOnly is a configuration that only creates: its plan reads nothing from the service.
const createOnly = `
resource "featureconsole_gate" "new" {
  gate_id = "brand_new_gate"
}
resource "featureconsole_segment" "new" {
  segment_id = "brand_new_segment"
  type       = "id_list"
  ids        = ["u1"]
}
`

// providerWith is a provider block for base_url and api_key, with extra lines.
func providerWith(baseURL, key string, extra ...string) string {
	return fmt.Sprintf(`
provider "featureconsole" {
  base_url    = %q
  api_key     = %q
  write_limit = 0
  max_retries = 4
  %s
}
`, baseURL, key, strings.Join(extra, "\n  "))
}

// isAccessCheck reports whether r is the plan's check of the key and address (console.CheckAccess).
func isAccessCheck(r mockconsole.Request) bool {
	return r.Method == http.MethodGet && r.Path == "/console/v1/gates" && r.RawQuery == "limit=1&page=1"
}

// accessCheckRequests are the requests of the plan's check in the mock's log.
func accessCheckRequests(m *mockconsole.Server) (n int, statuses []int) {
	for _, r := range m.Requests() {
		if isAccessCheck(r) {
			n++
			statuses = append(statuses, r.Status)
		}
	}
	return n, statuses
}

// A wrong API key fails `terraform plan` of a configuration that only creates (the first thing a
// team runs in CI), with one request, and nothing is written.
func TestAccProvider_wrongKeyFailsCreatePlan(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	status, advice := "401 Unauthorized", "authentication failed: check the API key"
	if envHabits(t).AuthAs403 {
		status, advice = "403 Forbidden", "speaks of authentication"
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:   providerWith(url, "not-the-key-s3cr3t") + createOnly,
			PlanOnly: true,
			ExpectError: regexp.MustCompile(`(?s)Unable to reach the console API with the provider's base_url and api_key.*` +
				status + `.*` + wordsRe(advice) + `.*Request:\s+GET\s+` + regexp.QuoteMeta(url) + `/console/v1/gates\?limit=1&page=1` +
				`.*skip_credentials_validation\s+=\s+true`),
		}},
	})
	if n, _ := accessCheckRequests(m); n != 1 || len(m.Requests()) != n {
		t.Errorf("the plan sent %d checks among %d requests (%v), want exactly one check", n, len(m.Requests()), m.Requests())
	}
}

// A right key plans a create-only configuration with one check per plan and writes nothing; the
// check costs nothing where the plan reads anyway: a data source's answer proves the key.
func TestAccProvider_accessCheckShared(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	reads := providerBlock(url) + `
data "featureconsole_segments" "all" {}
resource "featureconsole_gate" "new" {
  gate_id     = "brand_new_gate"
  description = "one of ${length(data.featureconsole_segments.all.segments)} segments"
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:             providerBlock(url) + createOnly,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				PreConfig: func() {
					// PlanOnly runs terraform plan twice (without and with refresh): one check each.
					if n, st := accessCheckRequests(m); n != 2 || len(m.Requests()) != n || st[0] != http.StatusOK {
						t.Errorf("create-only plans sent %v, want one check per plan", m.Requests())
					}
					m.ResetRequests()
				},
				Config:             reads,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
	if n, _ := accessCheckRequests(m); n != 0 || m.CountRequests(http.MethodGet, "/segments") == 0 {
		t.Errorf("a plan that reads sent %d checks besides its reads (%v), want none", n, m.Requests())
	}
}

// skip_credentials_validation (or its environment variable) plans a create-only configuration
// offline: nothing listens at base_url, and the plan still succeeds.
func TestAccProvider_skipCredentialsValidation(t *testing.T) {
	offline := refusedAddress(t)
	for name, tc := range map[string]struct {
		extra string
		env   string
	}{
		"setting": {extra: "skip_credentials_validation = true"},
		"env":     {env: "1"},
	} {
		t.Run(name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv(framework.EnvSkipCredentialsValidation, tc.env)
			}
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:             providerWith(offline, "any-key", tc.extra) + createOnly,
					PlanOnly:           true,
					ExpectNonEmptyPlan: true,
				}},
			})
		})
	}
}

// refusedAddress is an http address where nothing listens.
func refusedAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr
}

// A base_url with a wrong path, a name that does not resolve, a port that refuses connections:
// the plan of a create-only configuration fails at once naming base_url and the address tried,
// and so does the write of an apply planned without the check, never saying that the change may
// have been applied (nothing was sent).
func TestAccProvider_wrongAddress(t *testing.T) {
	t.Parallel()
	m, mockURL := startMock(t, mockconsole.Config{})
	wrongPath := mockURL + "/featureconsole"
	nothingSent := `No\s+connection\s+to\s+the\s+service\s+opened,\s+so\s+nothing\s+was\s+sent:\s+check\s+base_url`
	cases := map[string]struct {
		base, cause, advice string
	}{
		"wrong_path": {wrongPath, `404\s+Not\s+Found`, `The\s+console\s+API\s+was\s+not\s+found\s+at\s+base_url\s+\(its\s+API\s+root\s+is\s+` +
			regexp.QuoteMeta(wrongPath+"/console/v1") + `\)`},
		"no_such_host": {"https://console.no-such-host.invalid", `Could\s+not\s+connect.*\(2\s+attempt\(s\)\).*no\s+such\s+host`, nothingSent},
		"refused":      {refusedAddress(t), `Could\s+not\s+connect.*\(2\s+attempt\(s\)\).*connection\s+refused`, nothingSent},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			api := strings.TrimRight(tc.base, "/") + "/console/v1"
			// The cause, the request, then what to check of base_url.
			plan := `(?s)Unable to reach the console API.*` + tc.cause + `.*Request:\s+GET\s+` +
				regexp.QuoteMeta(api+"/gates?limit=1&page=1") + `.*` + tc.advice
			apply := `(?s)Unable to create gate "brand_new_gate".*` + tc.cause + `.*Request:\s+POST\s+` +
				regexp.QuoteMeta(api+"/gates") + `.*` + tc.advice
			gate := `resource "featureconsole_gate" "new" { gate_id = "brand_new_gate" }`
			start := time.Now()
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{Config: providerWith(tc.base, mockconsole.DefaultAPIKey) + gate, PlanOnly: true, ExpectError: regexp.MustCompile(plan)},
					{
						Config:      providerWith(tc.base, mockconsole.DefaultAPIKey, "skip_credentials_validation = true") + gate,
						ExpectError: regexp.MustCompile(apply),
					},
					{
						Config:      providerWith(tc.base, mockconsole.DefaultAPIKey, "skip_credentials_validation = true") + gate,
						ExpectError: regexp.MustCompile(`^(?s)(?:[^m]|m[^a]|ma[^y]|may[^\s])*$`), // never "may have been applied"
					},
				},
			})
			t.Logf("%s: three terraform runs failed in %s", name, time.Since(start).Round(100*time.Millisecond))
		})
	}
	for _, r := range m.Requests() {
		if r.Status != http.StatusNotFound {
			t.Errorf("%s %s was answered %d: only the wrong path reached the mock", r.Method, r.Path, r.Status)
		}
	}
	if _, ok := m.Gate("brand_new_gate"); ok {
		t.Error("the gate was created")
	}
}
