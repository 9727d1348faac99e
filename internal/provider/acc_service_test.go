// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The acceptance tests run against the in-process mock, or, when FEATURECONSOLE_BASE_URL and
// FEATURECONSOLE_API_KEY are set, against a real console project. Against a real project the tests
// change only the objects these variables name; a test whose object is not named skips.
const (
	envAccGate         = "FEATURECONSOLE_ACC_GATE"          // a gate whose rules the tests replace and destroy empties
	envAccPipeline     = "FEATURECONSOLE_ACC_PIPELINE"      // a release pipeline whose name and phases the tests replace
	envAccMetricPrefix = "FEATURECONSOLE_ACC_METRIC_PREFIX" // prefix of the metric sources the tests create and sweep
	envAccEvent        = "FEATURECONSOLE_ACC_EVENT"         // an event with recorded values (read only)

	defaultAccMetricPrefix = "tfacc_"
)

// realService is what the environment named when the test binary started (TestMain), read once so
// that tests which t.Setenv the provider's variables do not switch the mode under other tests.
var realService accEnv

type accEnv struct {
	url, key                      string
	gate, pipeline, prefix, event string
}

func (e accEnv) set() bool { return e.url != "" && e.key != "" }

func readAccEnv() accEnv {
	e := accEnv{
		url:      os.Getenv(framework.EnvBaseURL),
		key:      os.Getenv(framework.EnvAPIKey),
		gate:     os.Getenv(envAccGate),
		pipeline: os.Getenv(envAccPipeline),
		prefix:   os.Getenv(envAccMetricPrefix),
		event:    os.Getenv(envAccEvent),
	}
	if e.prefix == "" {
		e.prefix = defaultAccMetricPrefix
	}
	return e
}

// TestMain reads the test mode once, sets what OpenTofu needs when it is the CLI and what keeps the
// CLIs lean (cliLean), and runs the sweepers of sweep_test.go when -sweep is given (make sweep).
func TestMain(m *testing.M) {
	realService = readAccEnv()
	openTofuDefaults()
	cliLean()
	resource.TestMain(m)
}

// mockOnly skips a test that needs the in-process mock (fault injection, latency, inspecting or
// changing the mock's state, seeded objects) when the tests run against a real service.
func mockOnly(t testing.TB, why string) {
	t.Helper()
	if realService.set() {
		t.Skipf("runs only against the in-process mock (%s); %s is set, so the tests run against %s", why, framework.EnvBaseURL, realService.url)
	}
}

// accService is the console API one test runs against: a fresh seeded mock, or the real service
// named by the environment.
type accService struct {
	URL, APIKey string
	// Gate, Pipeline: the objects the test may change; seeded objects of the mock, or the ones the
	// FEATURECONSOLE_ACC_* variables name.
	Gate, Pipeline string
	// MetricPrefix starts the name of every metric source a test creates (the sweeper deletes
	// sources with this prefix).
	MetricPrefix string
	// Event is an event with recorded values.
	Event string
	// Mock is the in-process mock, nil against a real service: a test that reads it must call
	// mockOnly first.
	Mock *mockconsole.Server
}

// testAccService starts a seeded mock for the test, or points at the real service. needs lists the
// objects the test changes or reads ("gate", "pipeline", "event"); against a real service a test
// skips when one of them is not named by its variable.
func testAccService(t *testing.T, needs ...string) accService {
	t.Helper()
	if !realService.set() {
		m, url := startMock(t, mockconsole.Config{})
		return accService{
			URL: url, APIKey: mockconsole.DefaultAPIKey,
			Gate: "dark_mode", Pipeline: "pl_api", MetricPrefix: defaultAccMetricPrefix, Event: "signup",
			Mock: m,
		}
	}
	e := realService
	named := map[string]struct{ id, env string }{
		"gate": {e.gate, envAccGate}, "pipeline": {e.pipeline, envAccPipeline}, "event": {e.event, envAccEvent},
	}
	for _, n := range needs {
		o, ok := named[n]
		if !ok {
			t.Fatalf("testAccService: unknown need %q", n)
		}
		if o.id == "" {
			t.Skipf("against a real service this test needs %s: the object it may use", o.env)
		}
	}
	return accService{URL: e.url, APIKey: e.key, Gate: e.gate, Pipeline: e.pipeline, MetricPrefix: e.prefix, Event: e.event}
}

// ProviderBlock configures the provider for the service; extra lines go inside the block. Against
// the mock, client-side pacing is off (each test has its own mock); against a real service the
// provider keeps its defaults, as a user's configuration would.
func (s accService) ProviderBlock(extra ...string) string {
	if s.Mock != nil {
		extra = append([]string{"write_limit = 0"}, extra...)
	}
	return fmt.Sprintf(`
provider "featureconsole" {
  base_url = %q
  api_key  = %q
  %s
}
`, s.URL, s.APIKey, strings.Join(extra, "\n  "))
}

// Client is an API client for checks that read what the service holds, the same way against the
// mock and a real service.
func (s accService) Client(t testing.TB) *console.Client {
	t.Helper()
	c, err := newAccClient(s.URL, s.APIKey)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newAccClient(url, key string) (*console.Client, error) {
	return console.New(console.Config{BaseURL: url, APIKey: key, UserAgent: "terraform-provider-featureconsole/acctest"})
}
