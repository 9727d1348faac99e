// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"net/http"
	"regexp"
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

const experimentAddr = "featureconsole_experiment.cta"

// experimentHCL is the experiment tfacc_cta with its control group second, the groups given (HCL
// list elements) and further attribute lines; deletion_protection = false unless a line sets it, so
// that the harness's destroy of a started experiment deletes it.
func experimentHCL(groups string, lines ...string) string {
	if !strings.Contains(strings.Join(lines, "\n"), "deletion_protection") {
		lines = append(lines, "deletion_protection = false")
	}
	return fmt.Sprintf(`
resource "featureconsole_experiment" "cta" {
  experiment_id   = "tfacc_cta"
  name            = "Checkout CTA"
  hypothesis      = "A green button sells more"
  groups          = [%s]
  control_group   = "Control"
  primary_metrics = [{ name = "purchase", type = "event_count", direction = "increase" }]
  %s
}
`, groups, strings.Join(lines, "\n  "))
}

// ctaGroupsHCL are the groups of the examples, Green first and Control second.
const ctaGroupsHCL = `
    { name = "Green",   size = 50, parameter_values = jsonencode({ color = "green", size = 2 }) },
    { name = "Control", size = 50, parameter_values = jsonencode({ color = "grey", size = 2 }) },
  `

// expectMockExperiment checks the experiment the mock holds.
func expectMockExperiment(m *mockconsole.Server, id string, check func(mockconsole.Experiment) error) resource.TestCheckFunc {
	return expectInMock("experiment", id, m.Experiment, check)
}

// expectMockStatus checks the status of the experiment the mock holds.
func expectMockStatus(m *mockconsole.Server, id, want string) resource.TestCheckFunc {
	return expectMockExperiment(m, id, func(e mockconsole.Experiment) error {
		if e.Status != want {
			return fmt.Errorf("%s is %s, want %s", id, e.Status, want)
		}
		return nil
	})
}

// expectNoMockExperiment is CheckDestroy: destroy deleted the experiment.
func expectNoMockExperiment(m *mockconsole.Server, id string) resource.TestCheckFunc {
	return expectGoneFromMock("experiment", id, m.Experiment)
}

// mockGroupID is the id the mock gave the experiment's group of the name.
func mockGroupID(e mockconsole.Experiment, name string) string {
	for _, g := range e.Groups {
		if g.Name == name {
			return g.ID
		}
	}
	return ""
}

// nothingWritten is a PreConfig that fails the test when the step before sent a write (a refused
// plan sends nothing), then clears the log.
func nothingWritten(t *testing.T, m *mockconsole.Server) func() {
	return func() {
		if w := writes(m); len(w) > 0 {
			t.Errorf("a refused plan sent %d writes, the first %s %s", len(w), w[0].Method, w[0].Path)
		}
		m.ResetRequests()
	}
}

// The workflow of an experiment: created in setup with its control group second (set by id once the
// create answered the groups' ids), started with status = "active", plans empty; a size or value
// change while it runs fails at plan with nothing sent; a higher allocation applies; a decision
// ships Green; going back to active fails at plan; destroy deletes.
func TestAccExperiment_workflow(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(groups string, lines ...string) string {
		return providerBlock(url) + experimentHCL(groups, lines...)
	}
	var greenID string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{
				Config: cfg(ctaGroupsHCL, "allocation = 20"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(experimentAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("status"), knownvalue.StringExact("setup")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("status"), knownvalue.StringExact("setup")),
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("control_group"), knownvalue.StringExact("Control")),
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("allocation"), knownvalue.Int64Exact(20)),
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("start_time"), knownvalue.Null()),
				},
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					greenID = mockGroupID(e, "Green")
					if e.Status != "setup" || e.ControlGroupID != mockGroupID(e, "Control") || e.ControlGroupID == "" || len(e.PrimaryMetrics) != 1 {
						return fmt.Errorf("mock holds %+v", e)
					}
					return nil
				}),
			},
			{
				Config: cfg(ctaGroupsHCL, `status = "active"`, "allocation = 20"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(experimentAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("groups").AtSliceIndex(0).AtMapKey("id"), knownvalue.NotNull()),
				}},
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					if e.Status != "active" || e.StartTime == 0 || mockGroupID(e, "Green") != greenID {
						return fmt.Errorf("mock holds %+v", e)
					}
					return nil
				}),
			},
			{
				PreConfig:   m.ResetRequests,
				Config:      cfg(strings.Replace(ctaGroupsHCL, "size = 50", "size = 60", 1)+`{ name = "X", size = -10, parameter_values = "{}" }`, `status = "active"`),
				ExpectError: errRe("out of range"),
			},
			{
				PreConfig: nothingWritten(t, m),
				Config:    cfg(strings.Replace(strings.Replace(ctaGroupsHCL, "size = 50", "size = 60", 1), "size = 50", "size = 40", 1), `status = "active"`),
				ExpectError: wrapped(`Experiment "tfacc_cta" is active: it cannot change groups[0].size of "Green" (50 → 60), groups[1].size of "Control" (50 → 40)`,
					"You can't edit the groups without restarting the experiment", "Nothing was sent."),
			},
			{
				PreConfig:   nothingWritten(t, m),
				Config:      cfg(strings.Replace(ctaGroupsHCL, `color = "green"`, `color = "lime"`, 1), `status = "active"`),
				ExpectError: wrapped(`cannot change groups[0].parameter_values of "Green"`),
			},
			{
				PreConfig: nothingWritten(t, m),
				Config:    cfg(ctaGroupsHCL, `status = "active"`, `allocation = 20.5`, `description = "Which button sells"`),
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					if e.Allocation != 20.5 || e.Description != "Which button sells" || e.Status != "active" {
						return fmt.Errorf("mock holds %+v", e)
					}
					return nil
				}),
			},
			{
				Config: cfg(ctaGroupsHCL, `status = "decision_made"`, `launched_group = "Green"`, `decision_reason = "Green: +3.1 % purchases"`,
					`allocation = 20.5`, `description = "Which button sells"`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("launched_group"), knownvalue.StringExact("Green")),
					statecheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("decision_time"), knownvalue.NotNull()),
				},
				Check: expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
					if e.Status != "decision_made" || e.LaunchedGroupID != greenID || e.DecisionReason != "Green: +3.1 % purchases" {
						return fmt.Errorf("mock holds %+v", e)
					}
					return nil
				}),
			},
			{
				PreConfig: m.ResetRequests,
				Config:    cfg(ctaGroupsHCL, `status = "active"`, `allocation = 20.5`, `description = "Which button sells"`),
				ExpectError: wrapped(`Experiment "tfacc_cta" is decision_made and cannot move to active: a decision has been made`,
					"declare a new featureconsole_experiment block"),
			},
			{
				// The launched group still configured: the refused move is what the plan says first.
				PreConfig: nothingWritten(t, m),
				Config: cfg(ctaGroupsHCL, `status = "active"`, `launched_group = "Green"`, `decision_reason = "Green: +3.1 % purchases"`,
					`allocation = 20.5`, `description = "Which button sells"`),
				ExpectError: wrapped(`Experiment "tfacc_cta" is decision_made and cannot move to active: a decision has been made and shipped a group`),
			},
			{
				PreConfig: nothingWritten(t, m),
				Config: cfg(ctaGroupsHCL, `status = "abandoned"`, `decision_reason = "Too little traffic to measure"`,
					`allocation = 20.5`, `description = "Which button sells"`),
				ExpectError: wrapped(`Experiment "tfacc_cta" is decision_made and cannot move to abandoned: a decision has been made and shipped a group: a decided experiment cannot be abandoned`),
			},
			{
				PreConfig: nothingWritten(t, m),
				Config: cfg(ctaGroupsHCL, `status = "decision_made"`, `launched_group = "Green"`, `decision_reason = "Green: +3.1 % purchases"`,
					`allocation = 20.5`, `description = "Which button sells"`),
				PlanOnly: true,
			},
		},
	})
}

// requestOrder fails unless the mock took (2xx) a write of each method and path (with /console/v1)
// in this order since its requests were last reset.
func requestOrder(m *mockconsole.Server, want ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var got []string
		for _, r := range writes(m) {
			if r.Status/100 == 2 {
				got = append(got, r.Method+" "+strings.TrimPrefix(r.Path, "/console/v1"))
			}
		}
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			return fmt.Errorf("the mock took %v, want %v", got, want)
		}
		return nil
	}
}

// archived is the experiment's archive: archiving an active experiment fails at plan (the service
// archives after a decision, an abandon or a reset), with nothing sent; an experiment decided and
// archived in the console plans archived = true -> false beside a changed description, and apply
// unarchives it before it writes the description, the status beneath the archive kept; archived =
// true archives it again after the apply's other writes; while it stays archived a change fails at
// plan, with nothing sent.
func TestAccExperiment_archived(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	decided := []string{`status = "decision_made"`, `launched_group = "Green"`, `decision_reason = "Decided in the console"`}
	cfg := func(lines ...string) string {
		return providerBlock(url) + experimentHCL(ctaGroupsHCL, append(append([]string{}, decided...), lines...)...)
	}
	status := func(want string) resource.TestCheckFunc { return expectMockStatus(m, "tfacc_cta", want) }
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{Config: providerBlock(url) + experimentHCL(ctaGroupsHCL, `status = "active"`)},
			{
				PreConfig: m.ResetRequests,
				Config:    providerBlock(url) + experimentHCL(ctaGroupsHCL, `status = "active"`, "archived = true"),
				ExpectError: wrapped(`Experiment "tfacc_cta" would stand active when archived: the service archives an experiment after a decision, an abandon or a reset`,
					"Nothing was sent"),
			},
			{
				PreConfig: func() {
					nothingWritten(t, m)()
					if err := m.DecideExperiment("tfacc_cta", "Green", "Decided in the console"); err != nil {
						t.Fatal(err)
					}
					if err := m.ArchiveExperiment("tfacc_cta"); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg(`description = "Unarchived first"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(experimentAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("archived"), knownvalue.Bool(false)),
				}},
				Check: resource.ComposeTestCheckFunc(status("decision_made"),
					requestOrder(m, "PUT /experiments/tfacc_cta/unarchive", "PATCH /experiments/tfacc_cta"),
					resource.TestCheckResourceAttr(experimentAddr, "status", "decision_made")),
			},
			{
				PreConfig: m.ResetRequests,
				Config:    cfg(`description = "Archived last"`, "archived = true"),
				Check: resource.ComposeTestCheckFunc(status("archived"),
					requestOrder(m, "PATCH /experiments/tfacc_cta", "PUT /experiments/tfacc_cta/archive"),
					resource.TestCheckResourceAttr(experimentAddr, "status", "decision_made"),
					resource.TestCheckResourceAttr(experimentAddr, "archived", "true")),
			},
			{
				PreConfig:   m.ResetRequests,
				Config:      cfg(`description = "Changed while archived"`, "archived = true"),
				ExpectError: wrapped(`Experiment "tfacc_cta" is archived: the service takes no change of an archived experiment. Nothing was sent.`, "archived = false"),
			},
			{PreConfig: nothingWritten(t, m), Config: cfg(`description = "Archived last"`, "archived = true"), PlanOnly: true},
			{
				// Only Terraform's own settings change: the archived experiment is left as it stands.
				Config: cfg(`description = "Archived last"`, "archived = true", `timeouts = { update = "5m" }`),
				Check:  resource.ComposeTestCheckFunc(status("archived"), requestOrder(m)),
			},
		},
	})
}

// Experiments archived in the console, after a decision, an abandon and in setup (the document's
// example of an archived experiment, never started), import with generated configuration that
// plans the imports alone: archived = true with the status beneath the archive; apply writes
// nothing and the plan after is empty.
func TestAccExperiment_archivedImport(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t, featGenerateConfig)
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	groups := []mockconsole.ExperimentGroup{
		{Name: "Control", Size: 50, ParameterValues: []byte(`{"color":"grey"}`)},
		{Name: "Green", Size: 50, ParameterValues: []byte(`{"color":"green"}`)},
	}
	for _, id := range []string{"tfacc_decided", "tfacc_dropped", "tfacc_never"} {
		m.PutExperiment(mockconsole.Experiment{ID: id, Name: "Archived " + id[6:], Groups: groups})
	}
	for _, err := range []error{m.StartExperiment("tfacc_decided"), m.DecideExperiment("tfacc_decided", "Green", "Green won"),
		m.StartExperiment("tfacc_dropped"), m.AbandonExperiment("tfacc_dropped", "Too little traffic to measure"),
		m.ArchiveExperiment("tfacc_decided"), m.ArchiveExperiment("tfacc_dropped"), m.ArchiveExperiment("tfacc_never")} {
		if err != nil {
			t.Fatal(err)
		}
	}
	var imports strings.Builder
	for _, id := range []string{"tfacc_decided", "tfacc_dropped", "tfacc_never"} {
		fmt.Fprintf(&imports, "\nimport {\n  to = featureconsole_experiment.%s\n  id = %q\n}\n", id, id)
	}
	cli.write("main.tf", providerBlock(url)+imports.String())
	cli.must("init", "-input=false", "-no-color")
	cli.must("plan", "-input=false", "-no-color", "-generate-config-out=generated.tf")
	gen := cli.read("generated.tf")
	for _, want := range []string{`status\s+= "decision_made"`, `status\s+= "abandoned"`, `status\s+= "setup"`} {
		if !regexp.MustCompile(want).MatchString(gen) {
			t.Errorf("generated.tf has no %s:\n%s", want, gen)
		}
	}
	if got := len(regexp.MustCompile(`archived\s+= true`).FindAllString(gen, -1)); got != 3 {
		t.Errorf("generated.tf says archived = true %d times, want 3:\n%s", got, gen)
	}
	cli.importsOnlyThenEmpty(m, gen, 3)
}

// reset is a move: status back to setup resets a running experiment before the apply's write, so
// the write may lower its allocation and resize its groups, and its run is cleared; active from
// abandoned resets and starts it again in one apply; a reason kept in the configuration fails the
// plan (a reset takes none); a decided experiment is not reset, in words that advise no deletion.
// The plan after each apply is empty.
func TestAccExperiment_reset(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	const resized = `
    { name = "Green",   size = 40, parameter_values = jsonencode({ color = "green", size = 2 }) },
    { name = "Control", size = 60, parameter_values = jsonencode({ color = "grey", size = 2 }) },
  `
	cfg := func(groups string, lines ...string) string {
		return providerBlock(url) + experimentHCL(groups, lines...)
	}
	run := func(status string, started bool) resource.TestCheckFunc {
		return expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
			if e.Status != status || (e.StartTime != 0) != started || e.DecisionReason != "" || e.EndTime != 0 {
				return fmt.Errorf("the mock holds %s, started %d, ended %d, reason %q", e.Status, e.StartTime, e.EndTime, e.DecisionReason)
			}
			return nil
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{Config: cfg(ctaGroupsHCL, `status = "active"`, "allocation = 60")},
			{
				PreConfig: m.ResetRequests,
				Config:    cfg(resized, `status = "setup"`, "allocation = 40"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(experimentAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(experimentAddr, tfjsonpath.New("start_time"), knownvalue.Null()),
				}},
				Check: resource.ComposeTestCheckFunc(run("setup", false),
					requestOrder(m, "PUT /experiments/tfacc_cta/reset", "PATCH /experiments/tfacc_cta"),
					resource.TestCheckResourceAttr(experimentAddr, "allocation", "40"),
					resource.TestCheckResourceAttr(experimentAddr, "groups.0.size", "40")),
			},
			{Config: cfg(resized, `status = "abandoned"`, "allocation = 40", `decision_reason = "Too little traffic to measure"`)},
			{
				PreConfig: m.ResetRequests,
				Config:    cfg(resized, `status = "active"`, "allocation = 40", `decision_reason = "Too little traffic to measure"`),
				ExpectError: wrapped(`status = "active" resets experiment "tfacc_cta": the service clears its run`,
					"Nothing was sent. Remove decision_reason"),
			},
			{
				PreConfig: func() { nothingWritten(t, m)() },
				Config:    cfg(resized, `status = "active"`, "allocation = 40"),
				Check: resource.ComposeTestCheckFunc(run("active", true),
					requestOrder(m, "PUT /experiments/tfacc_cta/reset", "PUT /experiments/tfacc_cta/start"),
					resource.TestCheckNoResourceAttr(experimentAddr, "decision_reason")),
			},
			{Config: cfg(resized, `status = "decision_made"`, "allocation = 40", `launched_group = "Green"`, `decision_reason = "Green sells more"`)},
			{
				PreConfig: m.ResetRequests,
				Config:    cfg(resized, `status = "setup"`, "allocation = 40"),
				ExpectError: wrapped(`Experiment "tfacc_cta" is decision_made and cannot move to setup: a decision has been made and shipped a group: a decided experiment is neither reset nor started again`,
					"declare a new featureconsole_experiment block"),
			},
			{PreConfig: nothingWritten(t, m), Config: cfg(resized, `status = "decision_made"`, "allocation = 40", `launched_group = "Green"`, `decision_reason = "Green sells more"`), PlanOnly: true},
		},
	})
}

// archive_on_destroy follows the service's order, which archives an experiment after a decision, an
// abandon or a reset: destroying a running experiment it keeps fails at plan, with nothing sent,
// until abandon_reason_on_destroy gives the reason; destroy then abandons it with that reason, and
// archives it.
func TestAccExperiment_archiveOnDestroyRunning(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	kept := []string{`status = "active"`, "archive_on_destroy = true"}
	cfg := func(lines ...string) string {
		return providerBlock(url) + experimentHCL(ctaGroupsHCL, append(append([]string{}, kept...), lines...)...)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeTestCheckFunc(expectMockStatus(m, "tfacc_cta", mockconsole.ExperimentArchived),
			expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
				if e.DecisionReason != "Stopped early" {
					return fmt.Errorf("abandoned with %q", e.DecisionReason)
				}
				return nil
			})),
		Steps: []resource.TestStep{
			{Config: cfg()},
			{
				PreConfig: m.ResetRequests,
				Config:    providerBlock(url),
				ExpectError: wrapped(`Experiment "tfacc_cta" is active. Destroying it would archive it (archive_on_destroy = true), and the service archives an experiment only after a decision, an abandon or a reset. Nothing was sent.`,
					"set abandon_reason_on_destroy"),
			},
			{PreConfig: nothingWritten(t, m), Config: cfg(`abandon_reason_on_destroy = "Stopped early"`)},
			{
				PreConfig: nothingWritten(t, m),
				Config:    providerBlock(url),
				Check:     requestOrder(m, "PUT /experiments/tfacc_cta/abandon", "PUT /experiments/tfacc_cta/archive"),
			},
		},
	})
}

// What the document has beside the groups and metrics is declared and kept: layer_id (in setup a
// change replaces the experiment; once started it fails the plan, nothing sent), the analysis
// settings, a group's disabled (once started, disabled and enabled by their own requests, the
// groups not written) and a metric's hypothesized_value (one set in the console and omitted from
// the configuration is sent back when the metrics are written again). Each is read, imported and
// plans empty after apply.
func TestAccExperiment_keptSettings(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	const analysis = `sequential_testing = true
  default_confidence_interval = 90
  bonferroni_correction = true
  benjamini_hochberg_per_metric = true`
	groups := func(greenDisabled bool) string {
		return fmt.Sprintf(`
    { name = "Green",   size = 50, parameter_values = jsonencode({ color = "green", size = 2 }), disabled = %t },
    { name = "Control", size = 50, parameter_values = jsonencode({ color = "grey", size = 2 }) },
  `, greenDisabled)
	}
	cfg := func(layer, status, direction string, greenDisabled bool) string {
		return strings.Replace(providerBlock(url)+experimentHCL(groups(greenDisabled), analysis, `layer_id = "`+layer+`"`, `status = "`+status+`"`),
			`direction = "increase" }]`, `direction = "`+direction+`" }]`, 1)
	}
	held := func(check func(e mockconsole.Experiment) error) resource.TestCheckFunc {
		return expectMockExperiment(m, "tfacc_cta", check)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{
				Config: cfg("checkout_layer", "setup", "increase", false),
				Check: held(func(e mockconsole.Experiment) error {
					if e.LayerID != "checkout_layer" || !e.SequentialTesting || e.DefaultConfidenceInterval != "90" || !e.BonferroniCorrection ||
						!e.BenjaminiHochbergPerMetric || e.BenjaminiHochbergPerVariant {
						return fmt.Errorf("the mock holds %+v", e)
					}
					return nil
				}),
			},
			{
				Config: cfg("other_layer", "setup", "increase", false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(experimentAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.TestCheckResourceAttr(experimentAddr, "layer_id", "other_layer"),
			},
			{
				PreConfig: func() {
					e, _ := m.Experiment("tfacc_cta")
					v := 2.5
					e.PrimaryMetrics[0].HypothesizedValue = &v
					m.PutExperiment(e)
				},
				Config: cfg("other_layer", "active", "decrease", false),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(experimentAddr, "primary_metrics.0.hypothesized_value", "2.5"),
					held(func(e mockconsole.Experiment) error {
						if p := e.PrimaryMetrics[0]; p.Direction != "decrease" || p.HypothesizedValue == nil || *p.HypothesizedValue != 2.5 {
							return fmt.Errorf("the metric was written as %+v", p)
						}
						return nil
					})),
			},
			{Config: cfg("other_layer", "active", "decrease", false), ResourceName: experimentAddr, ImportState: true,
				ImportStateKind: resource.ImportCommandWithID, ImportStateVerify: true, ImportStateVerifyIdentifierAttribute: "experiment_id",
				ImportStateVerifyIgnore: []string{"timeouts", "deletion_protection"}},
			{
				PreConfig: m.ResetRequests,
				Config:    cfg("other_layer", "active", "decrease", true),
				Check: resource.ComposeTestCheckFunc(requestOrder(m, "POST /experiments/tfacc_cta/disable_groups"),
					held(func(e mockconsole.Experiment) error {
						if !e.Groups[0].Disabled || e.Groups[1].Disabled {
							return fmt.Errorf("the mock holds groups %+v", e.Groups)
						}
						return nil
					})),
			},
			{
				PreConfig:   m.ResetRequests,
				Config:      cfg("checkout_layer", "active", "decrease", true),
				ExpectError: wrapped(`Experiment "tfacc_cta" is active: it runs in layer "other_layer", which the service takes at creation only`, "Nothing was sent"),
			},
			{
				PreConfig: func() {
					nothingWritten(t, m)()
					e, _ := m.Experiment("tfacc_cta")
					e.SequentialTesting = false
					m.PutExperiment(e)
				},
				Config: cfg("other_layer", "active", "decrease", true),
				Check: held(func(e mockconsole.Experiment) error {
					if !e.SequentialTesting {
						return fmt.Errorf("sequential testing drifted off and stayed off")
					}
					return nil
				}),
			},
		},
	})
}

// Reviews of experiments, as for gates: with respect_review_settings, a change of the experiment's
// fields held for review is never reported as applied (apply ends with an error naming the review,
// the state keeps what it held; the plan's refresh warns of the review, as for gates); applying the same change
// again sends nothing while it is pending; once approved, the next apply commits it, once, and the
// plan after is empty.
func TestAccExperiment_review(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(description string) string {
		return providerBlock(url, "respect_review_settings = true") + experimentHCL(ctaGroupsHCL, `description = "`+description+`"`)
	}
	setReviews := func(on bool) {
		h := m.Habits()
		h.Reviews, h.ReviewCommits = on, on
		m.SetHabits(h)
	}
	patches := func() int { return m.CountRequests(http.MethodPatch, "/experiments/tfacc_cta") }
	commits := func() int { return m.CountRequests(http.MethodPut, "/experiments/tfacc_cta/reviews/") }
	described := func(want string) resource.TestCheckFunc {
		return expectMockExperiment(m, "tfacc_cta", func(e mockconsole.Experiment) error {
			if e.Description != want {
				return fmt.Errorf("the mock holds description %q, want %q", e.Description, want)
			}
			return nil
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockExperiment(m, "tfacc_cta"),
		Steps: []resource.TestStep{
			{PreConfig: func() { setReviews(false) }, Config: cfg("Before review")},
			{
				PreConfig:   func() { setReviews(true) },
				Config:      cfg("After review"),
				ExpectError: wrapped(`Change to experiment "tfacc_cta" awaits review`, "rev_", "The Terraform state keeps what it held before."),
				Check:       described("Before review"),
			},
			{
				PreConfig:   m.ResetRequests,
				Config:      cfg("After review"),
				ExpectError: wrapped(`Change to experiment "tfacc_cta" still awaits review`, `review "rev_1"`, "nothing was sent again"),
			},
			{
				PreConfig: approveUnsent(t, m, patches),
				Config:    cfg("After review"),
				Check: resource.ComposeTestCheckFunc(described("After review"), func(*terraform.State) error {
					if n, c := patches(), commits(); n != 0 || c != 1 {
						return fmt.Errorf("%d writes and %d commits: want the review committed once, nothing sent again", n, c)
					}
					return nil
				}),
			},
			{PreConfig: func() { setReviews(false) }, Config: cfg("After review"), PlanOnly: true},
		},
	})
}
