// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

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
	h, err := mockconsole.HabitsFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	m.SetHabits(h)
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
