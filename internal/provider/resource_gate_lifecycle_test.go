// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// A gate's life in the console (the live service): it goes stale, it is archived.

// expectMockGateArchived checks whether the mock's gate is archived.
func expectMockGateArchived(m *mockconsole.Server, id string, archived bool) resource.TestCheckFunc {
	return expectMockGate(m, id, func(g mockconsole.Gate) error {
		if (g.Status == "Archived") != archived {
			return fmt.Errorf("gate %q has status %q, want archived = %t", id, g.Status, archived)
		}
		return nil
	})
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

// archived = true archives the gate (and re-plans empty), false unarchives it; with
// archive_on_destroy, destroy archives the gate and keeps it.
func TestAccGate_archive(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(description string, lines ...string) string {
		return providerBlock(url) + gateConfig(append([]string{`description = "` + description + `"`}, lines...)...)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if err := expectMockGateArchived(m, "tfacc_checkout", true)(s); err != nil {
				return fmt.Errorf("destroy with archive_on_destroy: %w", err)
			}
			for _, r := range m.Requests() {
				if r.Method == http.MethodDelete {
					return fmt.Errorf("destroy sent %s %s", r.Method, r.Path)
				}
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg("d"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("archived"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("archive_on_destroy"), knownvalue.Bool(false)),
				},
				Check: expectMockGateArchived(m, "tfacc_checkout", false),
			},
			{
				Config: cfg("d", `archived = true`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(gateAddr, tfjsonpath.New("status")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateAddr, tfjsonpath.New("status"), knownvalue.StringExact("Archived")),
				},
				Check: expectMockGateArchived(m, "tfacc_checkout", true),
			},
			{
				// Unarchived and changed in one apply: the unarchive goes first, or the service refuses the change.
				Config: cfg("changed"),
				Check: resource.ComposeAggregateTestCheckFunc(
					expectMockGateArchived(m, "tfacc_checkout", false),
					expectMockGate(m, "tfacc_checkout", func(g mockconsole.Gate) error {
						if g.Description != "changed" {
							return fmt.Errorf("description %q", g.Description)
						}
						return nil
					}),
				),
			},
			{
				// Changing archive_on_destroy sends nothing.
				PreConfig: m.ResetRequests,
				Config:    cfg("changed", `archive_on_destroy = true`),
				Check: func(*terraform.State) error {
					for _, r := range m.Requests() {
						if r.Method != http.MethodGet {
							return fmt.Errorf("changing archive_on_destroy sent %s %s", r.Method, r.Path)
						}
					}
					return nil
				},
			},
			{
				Config: cfg("changed", `archive_on_destroy = true`), ResourceName: gateAddr,
				ImportState: true, ImportStateId: "tfacc_checkout", ImportStateVerify: true,
				// Terraform's own setting: an import cannot know it and takes the default.
				ImportStateVerifyIgnore: []string{"timeouts", "archive_on_destroy"},
			},
			{PreConfig: m.ResetRequests, Config: cfg("changed", `archive_on_destroy = true`)},
		},
	})
}

// Without archive_on_destroy (set, then removed), destroy deletes the gate with its history.
func TestAccGate_archiveOnDestroyUnset(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockGate(m, "tfacc_checkout"),
		Steps: []resource.TestStep{
			{Config: providerBlock(url) + gateConfig(`archive_on_destroy = true`, `archived = true`)},
			{
				Config: providerBlock(url) + gateConfig(`archived = true`),
				Check:  expectMockGateArchived(m, "tfacc_checkout", true),
			},
		},
	})
}

// A gate archived in the console shows as archived = true -> false; one apply unarchives it and
// changes its rules (the unarchive first: the service refuses rules of an archived gate), and the
// plan after it is empty. A gate archived with its rules is destroyed with them.
func TestAccGate_consoleArchiveRepaired(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	config := func(pct int, gateLines ...string) string {
		return providerBlock(url) + fmt.Sprintf(`
resource "featureconsole_gate" "checkout" {
  gate_id = "tfacc_checkout"
  %s
}

resource "featureconsole_gate_rules" "checkout" {
  gate_id = featureconsole_gate.checkout.gate_id
  rules   = [{ name = "staff", pass_percentage = %d }]
}
`, strings.Join(gateLines, "\n  "), pct)
	}
	const rulesAddr = "featureconsole_gate_rules.checkout"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockGate(m, "tfacc_checkout"),
		Steps: []resource.TestStep{
			{Config: config(10)},
			{
				PreConfig: func() {
					if err := m.ArchiveGateInConsole("tfacc_checkout"); err != nil {
						t.Fatal(err)
					}
				},
				Config: config(20),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(gateAddr, tfjsonpath.New("archived"), knownvalue.Bool(false)),
					plancheck.ExpectResourceAction(rulesAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectMockGateArchived(m, "tfacc_checkout", false),
					expectMockGate(m, "tfacc_checkout", func(g mockconsole.Gate) error {
						if len(g.Rules) != 1 || g.Rules[0].PassPercentage != 20 {
							return fmt.Errorf("rules %+v", g.Rules)
						}
						return nil
					}),
				),
			},
			{
				// Archived by Terraform with its rules: destroy deletes the gate, rules and all, in one go.
				Config: config(20, `archived = true`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(rulesAddr, plancheck.ResourceActionNoop),
				}},
				Check: expectMockGateArchived(m, "tfacc_checkout", true),
			},
		},
	})
}

// A create over the id of an archived gate says the gate exists and is archived, how to import it
// and how to bring it back; the archived gate is left as it was. Rules written to an archived gate
// say it is archived and what to set.
func TestAccGate_archivedErrors(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.PutGate(mockconsole.Gate{ID: "tfacc_archived", Rules: []mockconsole.Rule{{Name: "old", PassPercentage: 5}}})
	if err := m.ArchiveGateInConsole("tfacc_archived"); err != nil {
		t.Fatal(err)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + `resource "featureconsole_gate" "x" { gate_id = "tfacc_archived" }`,
				ExpectError: wrapped(`Gate "tfacc_archived" already exists and is archived`,
					`terraform import featureconsole_gate.<resource name> "tfacc_archived"`, "`archived = true -> false`",
					`unarchives it`, `already exists`),
			},
			{
				Config: providerBlock(url) + `
resource "featureconsole_gate_rules" "x" {
  gate_id = "tfacc_archived"
  rules   = [{ name = "new", pass_percentage = 50 }]
}
`,
				ExpectError: wrapped(`Gate "tfacc_archived" is archived`, "Set `archived = false`", `featureconsole_gate`,
					`400 Bad Request`),
			},
		},
	})
	g, _ := m.Gate("tfacc_archived")
	if g.Status != "Archived" || len(g.Rules) != 1 || g.Rules[0].Name != "old" {
		t.Errorf("the archived gate changed: %+v", g)
	}
}

// The list resources leave archived gates out unless include_archived is set (Terraform 1.14+).
func TestAccGate_listIncludeArchived(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	m.PutGate(mockconsole.Gate{ID: "live_gate", Rules: []mockconsole.Rule{{Name: "r", PassPercentage: 1}}})
	m.PutGate(mockconsole.Gate{ID: "old_gate", Rules: []mockconsole.Rule{{Name: "r", PassPercentage: 1}}})
	if err := m.ArchiveGateInConsole("old_gate"); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, queryTestCase(t, providerBlock(url),
		resource.TestStep{
			Query: true,
			Config: `
list "featureconsole_gate" "default" {
  provider = featureconsole
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("featureconsole_gate.default", 1),
				querycheck.ExpectIdentity("featureconsole_gate.default", map[string]knownvalue.Check{"gate_id": knownvalue.StringExact("live_gate")}),
			},
		},
		resource.TestStep{
			Query: true,
			Config: `
list "featureconsole_gate" "all" {
  provider         = featureconsole
  include_resource = true
  config {
    include_archived = true
  }
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("featureconsole_gate.all", 2),
				querycheck.ExpectResourceKnownValues("featureconsole_gate.all", byGate("old_gate"), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("archived"), KnownValue: knownvalue.Bool(true)},
					{Path: tfjsonpath.New("archive_on_destroy"), KnownValue: knownvalue.Bool(false)},
				}),
			},
		},
		resource.TestStep{
			Query: true,
			Config: `
list "featureconsole_gate_rules" "default" {
  provider = featureconsole
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("featureconsole_gate_rules.default", 1),
			},
		},
		resource.TestStep{
			Query: true,
			Config: `
list "featureconsole_gate_rules" "all" {
  provider = featureconsole
  config {
    include_archived = true
  }
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("featureconsole_gate_rules.all", 2),
				querycheck.ExpectIdentity("featureconsole_gate_rules.all", map[string]knownvalue.Check{"gate_id": knownvalue.StringExact("old_gate")}),
			},
		},
	))
}
