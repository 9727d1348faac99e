// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// archivedGateConfig is gate tfacc_checkout (its lines) with two rules, keep_on_destroy set to the
// gate's archive_on_destroy as the registry pages advise (or left out when keep is false).
func archivedGateConfig(url string, keep bool, lines ...string) string {
	keepLine := ""
	if keep {
		keepLine = "keep_on_destroy = featureconsole_gate.checkout.archive_on_destroy"
	}
	return providerBlock(url) + gateConfig(lines...) + fmt.Sprintf(`
resource "featureconsole_gate_rules" "checkout" {
  gate_id = featureconsole_gate.checkout.gate_id
  rules   = [%s%s]
  %s
}
`, ruleHCL("staff", "100"), ruleHCL("everyone", "5"), keepLine)
}

// checkArchivedWithRules is a CheckDestroy: the gate is archived and holds the rules staff and
// everyone, and destroy made no write of its rules and no delete that the service took.
func checkArchivedWithRules(m *mockconsole.Server) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		if err := expectMockGateArchived(m, "tfacc_checkout", true)(s); err != nil {
			return err
		}
		if got := mockRuleNames(m, "tfacc_checkout"); got != "staff,everyone" {
			return fmt.Errorf("the archived gate holds rules %q, want staff,everyone", got)
		}
		for _, r := range m.Requests() {
			if r.Status/100 == 2 && (r.Method == http.MethodDelete || r.Method == http.MethodPatch && strings.HasSuffix(r.Path, "/rules")) {
				return fmt.Errorf("destroy sent %s %s %s", r.Method, r.Path, r.Body)
			}
		}
		return nil
	}
}

// A configuration whose gate has archive_on_destroy = true, as its registry page shows it: destroy
// archives the gate, which keeps the rules it had (featureconsole_gate_rules, destroyed first,
// leaves them with keep_on_destroy).
func TestAccGate_archiveOnDestroyKeepsRules(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkArchivedWithRules(m),
		Steps: []resource.TestStep{
			{Config: archivedGateConfig(url, true, `archive_on_destroy = true`)},
			{PreConfig: m.ResetRequests, Config: archivedGateConfig(url, true, `archive_on_destroy = true`)},
		},
	})
}

// A gate archived already (archived = true) with archive_on_destroy = true: destroy is done, with
// no second archive (the service refuses one with a 400) and no error; its rules, which the
// service refuses to change, stay with it.
func TestAccGate_destroyArchivedGate(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			for _, r := range m.Requests() {
				if r.Method == http.MethodPut && strings.HasSuffix(r.Path, "/archive") {
					return fmt.Errorf("destroy archived the archived gate again: %s %s", r.Method, r.Path)
				}
			}
			return checkArchivedWithRules(m)(s)
		},
		Steps: []resource.TestStep{
			{Config: archivedGateConfig(url, false, `archive_on_destroy = true`)},
			{Config: archivedGateConfig(url, false, `archive_on_destroy = true`, `archived = true`)},
			{PreConfig: m.ResetRequests, Config: archivedGateConfig(url, false, `archive_on_destroy = true`, `archived = true`)},
		},
	})
}

// The gate rules guide's example of a gate that destroy archives does what the guide says: the
// archived gate keeps its rules.
func TestAccGuides_archiveKeepsRules(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			expectMockGateArchived(m, "summer_sale", true),
			checkMockRuleNames(m, "summer_sale", "everyone"),
		),
		Steps: []resource.TestStep{{Config: providerBlock(url) + guideBlock(t, "gate-rules.md.tmpl", "keep_on_destroy")}},
	})
}

// A gate that destroy archives, whose featureconsole_gate_rules lacks keep_on_destroy: Terraform
// destroys the rules first, which removes them; the gate's destroy writes them back before it
// archives the gate, so the archived gate holds them all the same, and a warning says so and how to
// leave them untouched; with keep_on_destroy nothing is written and no such warning comes.
func TestAccGate_archiveWithoutKeepWritesRulesBack(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t)
	m, url := startMock(t, mockconsole.Config{})
	cli.write("main.tf", archivedGateConfig(url, false, `archive_on_destroy = true`))
	cli.must("init", "-input=false", "-no-color")
	cli.must("apply", "-auto-approve", "-input=false", "-no-color")
	out := cli.must("destroy", "-auto-approve", "-input=false", "-no-color")
	wantsOutput(t, out, `Warning: Rules of gate "tfacc_checkout" written back before archiving`,
		`set keep_on_destroy = featureconsole_gate.<name>.archive_on_destroy`)
	lacksOutput(t, out, `archived without its rules`)
	if err := expectMockGateArchived(m, "tfacc_checkout", true)(nil); err != nil {
		t.Error(err)
	}
	if got := mockRuleNames(m, "tfacc_checkout"); got != "staff,everyone" {
		t.Errorf("the archived gate holds %q, want staff,everyone", got)
	}

	// Deleted in the console, created again with keep_on_destroy: the archived gate keeps its rules,
	// untouched, and no such warning.
	m.DeleteGate("tfacc_checkout")
	cli.write("main.tf", archivedGateConfig(url, true, `archive_on_destroy = true`))
	cli.must("apply", "-auto-approve", "-input=false", "-no-color")
	out = cli.must("destroy", "-auto-approve", "-input=false", "-no-color")
	wantsOutput(t, out, `Warning: Rules of gate "tfacc_checkout" left in place`)
	lacksOutput(t, out, `written back`, `archived without its rules`)
	if got := mockRuleNames(m, "tfacc_checkout"); got != "staff,everyone" {
		t.Errorf("the archived gate holds %q", got)
	}
}

// A gate attached to a release pipeline, archived on destroy with its rules kept, destroyed with the
// pipeline in one go: the gate is detached before it is archived (the service refuses to change an
// archived gate, and deletes no pipeline a gate is attached to), so the destroy completes, the gate
// stays archived with its rules, and the pipeline is gone. The detach sends null: the service
// refuses "" ("release pipeline  not found"), which left the pipeline attached and its delete refused.
func TestAccGate_archiveOnDestroyAttachedToPipeline(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	config := attachedArchivedGateConfig(url, `archive_on_destroy = true`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if err := expectMockGateArchived(m, "tfacc_checkout", true)(s); err != nil {
				return err
			}
			if got := mockRuleNames(m, "tfacc_checkout"); got != "staff,everyone" {
				return fmt.Errorf("the archived gate holds rules %q, want staff,everyone", got)
			}
			if g, _ := m.Gate("tfacc_checkout"); g.ReleasePipelineID != "" {
				return fmt.Errorf("the archived gate is still attached to %q", g.ReleasePipelineID)
			}
			if ids := m.PipelineIDs(); len(ids) != 0 {
				return fmt.Errorf("destroy left release pipelines %v", ids)
			}
			return expectLinkClearedWithNull(m, "/console/v1/gates/tfacc_checkout", "releasePipelineID")(s)
		},
		Steps: []resource.TestStep{{Config: config}},
	})
}

// attachedArchivedGateConfig is archivedGateConfig (rules kept) with the gate attached to a pipeline
// the configuration creates.
func attachedArchivedGateConfig(url string, lines ...string) string {
	return archivedGateConfig(url, true, append(lines, `release_pipeline_id = featureconsole_release_pipeline.web.pipeline_id`)...) + `
resource "featureconsole_release_pipeline" "web" {
  name   = "Web rollout"
  phases = [{ name = "Everyone", time_interval_ms = 0, rules = [{ name = "internal", conditions = [{ type = "user_id", operator = "any", target_value = ["42"] }] }] }]
}
`
}

// A gate archived already (archived = true) while attached to a pipeline the same destroy deletes:
// the service refuses every change of an archived gate, so neither the gate's destroy nor the
// pipeline's can detach it without unarchiving it (its rules would take effect again meanwhile). The
// gate's destroy warns, and the pipeline's delete names the archived gate and the console's steps.
func TestAccGate_destroyArchivedGateAttachedToPipeline(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t)
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	cli.write("main.tf", attachedArchivedGateConfig(url, `archive_on_destroy = true`))
	cli.must("init", "-input=false", "-no-color")
	cli.must("apply", "-auto-approve", "-input=false", "-no-color")
	cli.write("main.tf", attachedArchivedGateConfig(url, `archive_on_destroy = true`, `archived = true`))
	cli.must("apply", "-auto-approve", "-input=false", "-no-color")
	_, out := cli.run([]int{1}, "destroy", "-auto-approve", "-input=false", "-no-color")
	wantsOutput(t, out, `Warning: Archived gate "tfacc_checkout" stays attached to release pipeline "pl_1"`,
		`Error: Unable to delete release pipeline "pl_1"`,
		`Archived gate\(s\) "tfacc_checkout" are attached to release pipeline "pl_1"\. The service refuses every change of an archived gate`,
		`unarchive each, detach it from the pipeline and archive it again`)
	if err := expectMockGateArchived(m, "tfacc_checkout", true)(nil); err != nil {
		t.Error(err)
	}
	if got := mockRuleNames(m, "tfacc_checkout"); got != "staff,everyone" {
		t.Errorf("the archived gate holds %q, want staff,everyone", got)
	}
}

// expectMockGateArchived checks whether the mock's gate is archived.
func expectMockGateArchived(m *mockconsole.Server, id string, archived bool) resource.TestCheckFunc {
	return expectMockGate(m, id, func(g mockconsole.Gate) error {
		if (g.Status == "Archived") != archived {
			return fmt.Errorf("gate %q has status %q, want archived = %t", id, g.Status, archived)
		}
		return nil
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
