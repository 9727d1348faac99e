// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The helpers every kind of acceptance test shares, in one place: the provider under test, the
// mock and the provider block pointing at it, matchers of what Terraform prints, checks of the
// mock's log. A helper of one resource's tests (its configuration, its checks of the mock's
// object) lives beside that resource's tests; one used by a single test file lives in that file;
// the CLI run by hand (tfcli_test.go), its features (cli_features_test.go), plan checks
// (plan_changes_test.go) and real-service mode (acc_service_test.go) have files of their own.

// testAccProtoV6ProviderFactories runs the provider in-process, with retry waits short enough
// that fault-injection tests finish in milliseconds, behind the same wrapper as main.go.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"featureconsole": newServerFactory(newTestProvider),
}

func newTestProvider() *featureConsoleProvider {
	return &featureConsoleProvider{
		version: "test",
		tuning:  clientTuning{retryWaitMin: time.Millisecond, retryWaitMax: 10 * time.Millisecond, runPollInterval: 20 * time.Millisecond},
	}
}

func testAccPreCheck(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		t.Log("TF_ACC_TERRAFORM_PATH is not set: terraform is looked up on PATH")
	}
}

// startMock starts a seeded mock console API for one test. A test that uses it relies on the mock
// (its seed, faults or state): against a real service (acc_service_test.go) it skips; a test that
// can run against either takes testAccService instead.
func startMock(t *testing.T, cfg mockconsole.Config) (*mockconsole.Server, string) {
	t.Helper()
	mockOnly(t, "it starts its own mock")
	m, srv := mockconsole.NewTestServer(t, cfg)
	// FEATURECONSOLE_MOCK_HABITS=all runs every test against a mock with the live service's habits on.
	m.SetHabits(envHabits(t))
	// Every request, and every answer given as documented, held to the service's document.
	m.HoldToDocument(t)
	return m, srv.URL
}

// providerBlock is the provider configuration pointing at a mock; extra lines go inside the block.
func providerBlock(url string, extra ...string) string {
	return fmt.Sprintf(`
provider "featureconsole" {
  base_url    = %q
  api_key     = %q
  write_limit = 0
  %s
}
`, url, mockconsole.DefaultAPIKey, strings.Join(extra, "\n  "))
}

// Diagnostics and CLI output, matched however Terraform wraps its lines.

// wordsRe matches phrase however Terraform wraps its lines.
func wordsRe(phrase string) string {
	words := strings.Fields(phrase)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	return strings.Join(words, `\s+`)
}

// errRe matches a phrase across Terraform's line wrapping of diagnostics.
func errRe(phrase string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + wordsRe(phrase))
}

// diagRe matches a diagnostic as Terraform prints it: "Error: <summary>", then (after the lines
// naming the resource) its detail.
func diagRe(summary, detail string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)Error:\s+` + wordsRe(summary) + `\n.*` + wordsRe(detail))
}

// wrapped matches the parts in order, with any white space (terraform wraps diagnostics) where they have a space.
func wrapped(parts ...string) *regexp.Regexp {
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(regexp.QuoteMeta(p), " ", `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, ".*"))
}

// wantsOutput fails the test unless the output (whitespace collapsed) matches every expression,
// and never when it speaks of an inconsistent result.
func wantsOutput(t *testing.T, out string, res ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(out), " ")
	for _, re := range res {
		if !regexp.MustCompile(re).MatchString(flat) {
			t.Errorf("output lacks %s:\n%s", re, out)
		}
	}
	if strings.Contains(out, "inconsistent result") {
		t.Errorf("inconsistent result:\n%s", out)
	}
}

// lacksOutput fails the test when the output (whitespace collapsed) matches any expression.
func lacksOutput(t *testing.T, out string, res ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(out), " ")
	for _, re := range res {
		if regexp.MustCompile(re).MatchString(flat) {
			t.Errorf("output says %s:\n%s", re, out)
		}
	}
}

func diagText(diags diag.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Summary() + ": " + d.Detail() + "\n")
	}
	return b.String()
}

// The mock's log and state, checked.

func isDryRun(r mockconsole.Request) bool {
	var b struct {
		DryRun bool `json:"dryRun"`
	}
	return r.Method == http.MethodPost && json.Unmarshal(r.Body, &b) == nil && b.DryRun
}

// noStoredWrite checks that no mutating request reached the mock's handler in full: a request cut
// off by the client's deadline is logged with status 499 and changes nothing.
func noStoredWrite(m *mockconsole.Server) error {
	for _, r := range m.Requests() {
		if r.Method != http.MethodGet && r.Status != 499 && !isDryRun(r) {
			return fmt.Errorf("unexpected write %s %s answered %d", r.Method, r.Path, r.Status)
		}
	}
	return nil
}

// expectLinkClearedWithNull checks the mock's log: a write to path (with /console/v1) that the
// mock took cleared the link field (releasePipelineID, targetingGateID) with null, and no write
// sent it as "", which names no object on the service (DESIGN §1, console: links).
func expectLinkClearedWithNull(m *mockconsole.Server, path, field string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		cleared := false
		for _, r := range m.Requests() {
			var body map[string]json.RawMessage
			if json.Unmarshal(r.Body, &body) != nil {
				continue
			}
			switch v, sent := body[field]; {
			case sent && string(v) == `""`:
				return fmt.Errorf("%s %s sent %s: \"\"; a link is cleared with null", r.Method, r.Path, r.Body)
			case sent && string(v) == "null" && r.Path == path && r.Status/100 == 2:
				cleared = true
			}
		}
		if !cleared {
			return fmt.Errorf("no write to %s cleared %s with null", path, field)
		}
		return nil
	}
}

// mockCheck runs an assertion against the mock as a plan check (after the plan, before apply).
type mockCheck func() error

func (f mockCheck) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = f()
}

// stopwatch times a step that must fail on its timeout, through the step after it: the error's
// words prove which budget ran out; the stopwatch catches waits that outlast it many times over
// (a retry loop that ignores it). Its bound is a minute, far above the two steps' own time even
// on a loaded two-core machine running the suite four tests at a time (seen: 29 s).
type stopwatch struct{ start time.Time }

const stopwatchBound = time.Minute

func (s *stopwatch) reset() { s.start = time.Now() }
func (s *stopwatch) withinBound() resource.TestCheckFunc {
	return func(*terraform.State) error {
		if e := time.Since(s.start); e > stopwatchBound {
			return fmt.Errorf("took %s, want under %s", e, stopwatchBound)
		}
		return nil
	}
}

// The live service's habits this run's mocks have (FEATURECONSOLE_MOCK_HABITS).

// envHabits is what FEATURECONSOLE_MOCK_HABITS switches on for every mock of this run.
func envHabits(t *testing.T) mockconsole.Habits {
	t.Helper()
	h, err := mockconsole.HabitsFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// mergeHabits switches on every habit of either.
func mergeHabits(a, b mockconsole.Habits) mockconsole.Habits { return a.With(b) }

// planFailsSendingNothing plans each configuration (after the provider block of url), expects the
// plan to fail with want, and then that the mock m received no request but reads: bad input is
// refused at plan, before anything is sent.
func planFailsSendingNothing(t *testing.T, m *mockconsole.Server, url string, cases []struct{ config, want string }) {
	t.Helper()
	for _, c := range cases {
		resource.Test(t, resource.TestCase{
			PreCheck:                 func() { testAccPreCheck(t) },
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config: providerBlock(url) + c.config, PlanOnly: true, ExpectError: regexp.MustCompile(c.want),
			}},
		})
	}
	for _, r := range m.Requests() {
		if r.Method != http.MethodGet {
			t.Errorf("bad input sent %s %s", r.Method, r.Path)
		}
	}
}

// expectInMock checks the object of id that the mock holds (get reads it; kind names it).
func expectInMock[T any](kind, id string, get func(string) (T, bool), check func(T) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		v, ok := get(id)
		if !ok {
			return fmt.Errorf("%s %q not in the mock", kind, id)
		}
		return check(v)
	}
}

// expectGoneFromMock is a CheckDestroy: destroy left no object of that id behind.
func expectGoneFromMock[T any](kind, id string, get func(string) (T, bool)) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if _, ok := get(id); ok {
			return fmt.Errorf("%s %q still in the mock after destroy", kind, id)
		}
		return nil
	}
}

// approveUnsent is the PreConfig of the apply after a change was held for review twice: it fails
// the test if the pending change was sent again (writes counts them), then approves every review
// and clears the mock's requests.
func approveUnsent(t *testing.T, m *mockconsole.Server, writes func() int) func() {
	return func() {
		if n := writes(); n != 0 {
			t.Errorf("the pending change was sent again (%d writes)", n)
		}
		if err := m.ApproveAllReviews(); err != nil {
			t.Fatal(err)
		}
		m.ResetRequests()
	}
}

// guideBlock is the terraform block of a guide that holds marker.
func guideBlock(t *testing.T, guide, marker string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(guidesDir, guide))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range guideHCLRe.FindAllStringSubmatch(string(b), -1) {
		if strings.Contains(m[1], marker) {
			return m[1]
		}
	}
	t.Fatalf("guide %s has no terraform block with %s", guide, marker)
	return ""
}

// phrasesRe matches the phrases in order, however Terraform wraps its lines.
func phrasesRe(phrases ...string) *regexp.Regexp {
	for i, p := range phrases {
		phrases[i] = wordsRe(p)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(phrases, `.*`))
}

// requestsTo counts the requests of method whose path ends with suffix.
func requestsTo(m *mockconsole.Server, method, suffix string) int {
	n := 0
	for _, r := range m.Requests() {
		if r.Method == method && strings.HasSuffix(r.Path, suffix) {
			n++
		}
	}
	return n
}
