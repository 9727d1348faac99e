// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// Terraform 1.16 invokes actions before and after a resource is destroyed. Terraform's own rule:
// `terraform destroy` is never stopped by a failed destroy-time action (its errors become
// warnings); in a plan that replaces the resource, on_failure decides (halt by default).

// After action.tf in the registry page, which shows the example files in name order.
const destroyExample = "action_before_destroy.tf"

// lastRequest is the index in the mock's request log of the last request that acted (not a 429)
// with the method and a path ending in suffix, or -1.
func lastRequest(m *mockconsole.Server, method, suffix string) int {
	last := -1
	for i, r := range m.Requests() {
		if r.Method == method && strings.HasSuffix(r.Path, suffix) && r.Status != http.StatusTooManyRequests {
			last = i
		}
	}
	return last
}

// The example, applied, then destroyed while a run of the gate waits for review (started after the
// apply: the service refuses rule writes to a gate whose rules a run rolls out): the run is aborted,
// and the abort reaches the service before the rules are removed.
func TestAccReleasePipelineTrigger_abortBeforeDestroy(t *testing.T) {
	t.Parallel()
	example := readExample(t, filepath.Join("actions", "featureconsole_release_pipeline_trigger", destroyExample))
	m, url := startMock(t, mockconsole.Config{})
	var id string
	cfg := providerBlock(url) + example
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   cliCan(featDestroyActions),
		CheckDestroy: func(*terraform.State) error {
			abort := lastRequest(m, http.MethodPut, "/release_pipeline_triggers/"+id+"/abort")
			if abort < 0 {
				return fmt.Errorf("destroy did not abort run %s", id)
			}
			if removed := lastRequest(m, http.MethodPatch, "/gates/new_checkout/rules"); removed < abort {
				return fmt.Errorf("the rules were removed (request %d) before the run was aborted (request %d)", removed, abort)
			}
			if err := checkSent(m, id, "abort", 1)(nil); err != nil {
				return err
			}
			if err := checkRun(m, id, mockconsole.RunAborted, "Canary", "ABORTED", 1)(nil); err != nil {
				return err
			}
			return checkGateHasNoRules(m, "new_checkout")(nil)
		},
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() {
					var err error
					if id, err = m.StartRun("pl_web", "new_checkout"); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				Check: func(s *terraform.State) error {
					// Nothing is invoked while the rules stay.
					return resource.ComposeTestCheckFunc(
						checkRun(m, id, mockconsole.RunWaitingForReview, "Canary", "ABORTED", 0),
						checkSent(m, id, "abort", 0),
					)(s)
				},
			},
		},
	})
}

// replaceRulesConfig is the example's rules on gateID, with the abort of new_checkout's run before
// they are destroyed, and on_failure set to onFailure unless empty.
func replaceRulesConfig(url, gateID, onFailure string) string {
	if onFailure != "" {
		onFailure = "on_failure = " + onFailure
	}
	return providerBlock(url) + fmt.Sprintf(`
resource "featureconsole_gate_rules" "checkout" {
  gate_id = %q
  rules = [%s]
  lifecycle {
    action_trigger {
      events  = [before_destroy]
      actions = [action.featureconsole_release_pipeline_trigger.abort]
      %s
    }
  }
}

action "featureconsole_release_pipeline_trigger" "abort" {
  config {
    operation = "abort"
    gate_id   = "new_checkout"
  }
}
`, gateID, designExampleRules, onFailure)
}

// on_failure in a replacement (gate_id changes; the old gate has no active run, so the abort
// fails): halt, the default, stops the replacement before the old rules are removed; continue
// shows the error as a warning and replaces the rules.
func TestAccReleasePipelineTrigger_beforeDestroyOnFailure(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	noRun := regexp.MustCompile(`No active release pipeline run`)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   cliCan(featDestroyActions),
		CheckDestroy:             checkGateHasNoRules(m, "dark_mode"),
		Steps: []resource.TestStep{
			{
				Config: replaceRulesConfig(url, "new_checkout", ""),
				Check:  checkMockRules(m, "new_checkout", employeesLine),
			},
			{
				PreConfig:   m.ResetRequests,
				Config:      replaceRulesConfig(url, "dark_mode", ""),
				ExpectError: noRun,
			},
			{
				PreConfig: func() {
					if n := m.CountRequests(http.MethodPatch, "/gates/"); n != 0 {
						t.Fatalf("the halted replacement wrote rules %d times", n)
					}
					if err := checkMockRules(m, "new_checkout", employeesLine)(nil); err != nil {
						t.Fatalf("the halted replacement: %v", err)
					}
				},
				Config: replaceRulesConfig(url, "dark_mode", "continue"),
				Check: resource.ComposeTestCheckFunc(
					checkGateHasNoRules(m, "new_checkout"),
					checkMockRules(m, "dark_mode", employeesLine),
				),
			},
		},
	})
}
