// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The "already exists" error of a create that met an archived gate says so and how to bring it back.
func TestExistsArchived(t *testing.T) {
	err := error(&objectExistsError{creation: gateCreation, id: "g_1", cause: &console.APIError{StatusCode: 400}})
	existsArchived(err)
	msg := err.Error()
	for _, want := range []string{`A gate with id "g_1" already exists in the console, archived,`, `terraform import featureconsole_gate`, "`archived = true -> false`"} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing %q in:\n%s", want, msg)
		}
	}
}

func markStale(t *testing.T, m *mockconsole.Server, id, reason string) func() {
	return func() {
		if err := m.MarkGateStale(id, reason); err != nil {
			t.Fatal(err)
		}
	}
}

// A TEMPORARY gate the service judges stale plans empty (type keeps TEMPORARY, type_reason says
// why), imports as TEMPORARY, and a change of it is a plain update after which the gate is fresh.
func TestAccGate_stale(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(description string) string {
		return providerBlock(url) + gateConfig(`type = "TEMPORARY"`, `description = "`+description+`"`)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockGate(m, "tfacc_checkout"),
		Steps: []resource.TestStep{
			{
				Config: cfg("one"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("type_reason"), knownvalue.StringExact("NONE")),
				},
			},
			{
				// 31 days pass without a write: the service judges the gate (no rules) stale.
				PreConfig: func() { m.AdvanceRunClock(31 * 24 * time.Hour) },
				Config:    cfg("one"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("type"), knownvalue.StringExact("TEMPORARY")),
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("type_reason"), knownvalue.StringExact("STALE_NO_RULES")),
				},
			},
			{
				// The service changes its mind about why.
				PreConfig: markStale(t, m, "tfacc_checkout", "STALE_PROBABLY_LAUNCHED"),
				Config:    cfg("one"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("type_reason"), knownvalue.StringExact("STALE_PROBABLY_LAUNCHED")),
				},
			},
			{
				Config: cfg("one"), ResourceName: gateAddr, ImportState: true, ImportStateId: "tfacc_checkout",
				ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"},
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if a := states[0].Attributes; a["type"] != "TEMPORARY" || a["type_reason"] != "STALE_PROBABLY_LAUNCHED" {
						return fmt.Errorf("imported type %q, type_reason %q", a["type"], a["type_reason"])
					}
					return nil
				},
			},
			{
				// A write makes the gate fresh: type is never sent, the service says NONE again.
				Config: cfg("two"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("type"), knownvalue.StringExact("TEMPORARY")),
					plancheck.ExpectUnknownValue(gateAddr, tfjsonpath.New("type_reason")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("type_reason"), knownvalue.StringExact("NONE")),
				},
				Check: expectMockGate(m, "tfacc_checkout", func(g mockconsole.Gate) error {
					if g.Type != "TEMPORARY" || g.TypeReason != "NONE" || g.Description != "two" {
						return fmt.Errorf("mock gate %s/%s %q", g.Type, g.TypeReason, g.Description)
					}
					return nil
				}),
			},
			{
				// A fresh gate stays fresh through a write: type_reason is not unknown in its plan.
				Config: cfg("three"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("type_reason"), knownvalue.StringExact("NONE")),
				}},
			},
		},
	})
}
