// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// A gate attached to a release pipeline, as users meet it with the terraform CLI (warnings are
// only seen there): an apply that changes its rules starts a run and says so, naming the run and
// how to follow and drive it; a change while the run is active is an error naming the run and
// what to do, and changes nothing; an abort puts the old rules back, which the next plan shows as
// a change to make again, never as an inconsistent result; a destroy rolls out too.
func TestAccGateRules_pipelineRun(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t)
	m, url := startMock(t, mockconsole.Config{})
	m.SetRunSpeed(0) // the runs stay where the test puts them
	g, _ := m.Gate("new_checkout")
	seedRules := mockRuleNames(m, "new_checkout")
	g.ReleasePipelineID = "pl_web"
	m.PutGate(g)
	apply := []string{"apply", "-auto-approve", "-input=false", "-no-color"}
	plan := []string{"plan", "-detailed-exitcode", "-input=false", "-no-color"}
	wants := func(out string, res ...string) { t.Helper(); wantsOutput(t, out, res...) }

	cli.write("main.tf", gateRulesConfig(url, "new_checkout", ruleHCL("everyone", "10")))
	cli.must("init", "-input=false", "-no-color")
	out := cli.must(apply...)
	wants(out, `Warning: Rules of gate "new_checkout" roll out through release pipeline run "rpt_1"`,
		`started run "rpt_1" \(WAITING_FOR_REVIEW, phase "Canary"\)`,
		`data source featureconsole_release_pipeline_triggers \(gate_id = "new_checkout"\)`,
		`action featureconsole_release_pipeline_trigger \(gate_id = "new_checkout", operation = "approve"`, `"abort"`)
	if got := mockRuleNames(m, "new_checkout"); got != "everyone" {
		t.Fatalf("the write left %q", got)
	}
	cli.must(plan...) // empty: exit code 0

	// A change while the run is active: refused by the service, said with the run and what to do.
	cli.write("main.tf", gateRulesConfig(url, "new_checkout", ruleHCL("everyone", "20")))
	_, out = cli.run([]int{1}, apply...)
	wants(out, `Error: Rules of gate "new_checkout" are locked by release pipeline run "rpt_1"`,
		`\(WAITING_FOR_REVIEW at phase "Canary"\)`, `Nothing was changed`,
		`set on_active_run = "wait"`, `on_active_run = "abort" to abort the run and roll out this change instead`,
		`With Terraform 1.14 or later you may instead end the run with the action featureconsole_release_pipeline_trigger`,
		`400 Bad Request`)
	// What to do is said once in the error (the plan's warning before it says it for the plan).
	errText := out[strings.Index(out, "Error: Rules of gate"):]
	for re, want := range map[string]int{`What to do`: 1, `featureconsole_release_pipeline_trigger\b`: 1, `on_active_run = "abort"`: 1} {
		if n := len(regexp.MustCompile(re).FindAllString(strings.Join(strings.Fields(errText), " "), -1)); n != want {
			t.Errorf("the lock error says %s %d times, want %d:\n%s", re, n, want, out)
		}
	}
	if g, _ := m.Gate("new_checkout"); g.Rules[0].PassPercentage != 10 {
		t.Errorf("the refused write changed the gate: %+v", g.Rules)
	}
	if code, _ := cli.run([]int{2}, plan...); code != 2 {
		t.Errorf("the change is still to make: plan exit code %d", code)
	}

	// Aborted in the console: the old rules are back, and the plan shows the change again.
	if st, body := putRun(t, url, "rpt_1", "abort"); st/100 != 2 {
		t.Fatalf("abort: %d %s", st, body)
	}
	if got := mockRuleNames(m, "new_checkout"); got != seedRules {
		t.Fatalf("the abort left %q, want %q", got, seedRules)
	}
	_, out = cli.run([]int{2}, plan...)
	wants(out, `featureconsole_gate_rules.checkout will be updated in-place`, `- name += null|name *= "beta"|"beta"`)

	// Applied again: a new run; completed, the next change goes through.
	out = cli.must(apply...)
	wants(out, `roll out through release pipeline run "rpt_2"`)
	if err := m.SetRun("rpt_2", mockconsole.RunCompleted, "", nil); err != nil {
		t.Fatal(err)
	}
	cli.must(plan...)

	// Destroy removes the rules, which rolls out too.
	out = cli.must("destroy", "-auto-approve", "-input=false", "-no-color")
	wants(out, `Warning: Rules of gate "new_checkout" removed`, `rolls the removal out through run "rpt_3"`)
	if err := checkGateHasNoRules(m, "new_checkout")(nil); err != nil {
		t.Error(err)
	}
}

// putRun sends a run operation to the mock as the console does.
func putRun(t *testing.T, url, runID, op string) (int, string) {
	t.Helper()
	var resp *http.Response
	var err error
	// A connection closed under the request (the DropIdle habit) left it unprocessed: send it again,
	// as the console would.
	for range 3 {
		req, _ := http.NewRequest(http.MethodPut, url+"/console/v1/release_pipeline_triggers/"+runID+"/"+op, nil)
		req.Header.Set("SERVICE-API-KEY", mockconsole.DefaultAPIKey)
		if resp, err = http.DefaultClient.Do(req); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// onActiveRunConfig is gate_rules of new_checkout with one rule "everyone" at pct, on_active_run
// (omitted when empty) and more attributes.
func onActiveRunConfig(url, pct, onActiveRun string, more ...string) string {
	if onActiveRun != "" {
		more = append(more, fmt.Sprintf("on_active_run = %q", onActiveRun))
	}
	return providerBlock(url) + fmt.Sprintf(`
resource "featureconsole_gate_rules" "checkout" {
  gate_id = "new_checkout"
  rules   = [%s]
  %s
}
`, ruleHCL("everyone", pct), strings.Join(more, "\n  "))
}

// attachToPipeline attaches new_checkout to a pipeline; with bake, the pipeline's phases bake for
// hours without review, otherwise it is the seeded pl_web (whose first phase waits for review).
func attachToPipeline(m *mockconsole.Server, bake bool) {
	pid := "pl_web"
	if bake {
		pid = "pl_bake"
		m.PutPipeline(mockconsole.Pipeline{ID: pid, Name: "Baking", Phases: []mockconsole.Phase{
			{ID: "ph_canary", Name: "Canary", TimeIntervalMs: 3600000},
			{ID: "ph_all", Name: "Everyone", TimeIntervalMs: 4 * 3600000},
		}})
	}
	g, _ := m.Gate("new_checkout")
	g.ReleasePipelineID = pid
	m.PutGate(g)
}

// startRollout applies gate_rules of new_checkout (one rule at 10, on_active_run) on the gate
// attached to a pipeline (attachToPipeline's bake), which starts run rpt_1; the run clock stands
// still until the test moves it.
func startRollout(t *testing.T, bake bool, onActiveRun string) (*tfCLI, *mockconsole.Server, string) {
	t.Helper()
	cli := newTFCLI(t)
	m, url := startMock(t, mockconsole.Config{})
	m.SetRunSpeed(0)
	attachToPipeline(m, bake)
	cli.write("main.tf", onActiveRunConfig(url, "10", onActiveRun))
	cli.must("init", "-input=false", "-no-color")
	wantsOutput(t, cli.must("apply", "-auto-approve", "-input=false", "-no-color"), `started run "rpt_1"`)
	return cli, m, url
}

// checkMockPercentage is the pass percentage of the only rule of new_checkout in the mock.
func checkMockPercentage(t *testing.T, m *mockconsole.Server, want float64) {
	t.Helper()
	if g, _ := m.Gate("new_checkout"); len(g.Rules) != 1 || g.Rules[0].PassPercentage != want {
		t.Errorf("the gate holds %+v, want one rule at %v", g.Rules, want)
	}
}

// checkRunStatus asserts the run's status in the mock.
func checkRunStatus(t *testing.T, m *mockconsole.Server, id, want string) {
	t.Helper()
	if r, ok := m.Run(id); !ok || r.Status != want {
		t.Errorf("run %q is %q (found %v), want %s", id, r.Status, ok, want)
	}
}

// on_active_run = "abort": a change of the rules while a run rolls out the previous one (waiting
// for review, which never ends by itself) aborts that run and writes the new rules, which start
// the next run; the apply says which run was aborted and which started, and the plan is empty.
func TestAccGateRules_onActiveRunAbort(t *testing.T) {
	t.Parallel()
	cli, m, url := startRollout(t, false, "")
	apply := []string{"apply", "-auto-approve", "-input=false", "-no-color"}
	cli.write("main.tf", onActiveRunConfig(url, "20", "abort"))
	out := cli.must(apply...)
	wantsOutput(t, out, `Warning: Release pipeline run "rpt_1" of gate "new_checkout" aborted`,
		`Run "rpt_1" was rolling out an earlier change of the rules of gate "new_checkout" \(WAITING_FOR_REVIEW at phase "Canary"\)`,
		`Warning: Rules of gate "new_checkout" roll out through release pipeline run "rpt_2"`)
	checkRunStatus(t, m, "rpt_1", mockconsole.RunAborted)
	checkRunStatus(t, m, "rpt_2", mockconsole.RunWaitingForReview)
	checkMockPercentage(t, m, 20)
	cli.must("plan", "-detailed-exitcode", "-input=false", "-no-color")

	// A create on a gate whose rules are locked follows the setting too.
	cli.must("state", "rm", "featureconsole_gate_rules.checkout")
	cli.write("main.tf", onActiveRunConfig(url, "30", "abort"))
	wantsOutput(t, cli.must(apply...), `Release pipeline run "rpt_2" of gate "new_checkout" aborted`,
		`roll out through release pipeline run "rpt_3"`, `1 added, 0 changed, 0 destroyed`)
	checkRunStatus(t, m, "rpt_2", mockconsole.RunAborted)
	checkMockPercentage(t, m, 30)
	cli.must("plan", "-detailed-exitcode", "-input=false", "-no-color")
}

// on_active_run = "wait": the change waits for the run of the previous one to go through its
// phases' bake times (hours of the service's time, a second of the test's), then writes the new
// rules, which start the next run; within a timeout too short, it stops and says where the run was.
func TestAccGateRules_onActiveRunWait(t *testing.T) {
	t.Parallel()
	cli, m, url := startRollout(t, true, "wait")
	apply := []string{"apply", "-auto-approve", "-input=false", "-no-color"}

	// The run stands still: the wait ends with the update timeout, naming the run's state.
	cli.write("main.tf", onActiveRunConfig(url, "20", "wait", `timeouts = { update = "2s" }`))
	_, out := cli.run([]int{1}, apply...)
	wantsOutput(t, out, `Error: Stopped waiting for release pipeline run "rpt_1" of gate "new_checkout"`,
		`The update timeout \(2s\) ran out while waiting for run "rpt_1" to end \(on_active_run = "wait"\); nothing was written`,
		`Last state seen: IN_PROGRESS at phase "Canary"`,
		// What is left: an hour of Canary and four of Everyone, and a timeout that covers it, never "allow 4s".
		`run "rpt_1" has about 5 hours of bake time left \(phase "Canary" until \S+, and the phases after it\)\. Allow that much \(timeouts = \{ update = "(4h5[89]m|5h[0-2]m)" \}\)`,
		`on_active_run = "abort"`,
		`States seen in \d+ seconds?: IN_PROGRESS at phase "Canary"\.`)
	checkMockPercentage(t, m, 10)

	// Five hours of bake time pass in about a second, from the wait's first read of the run on (so
	// that the run is at its first phase when the wait begins, however long the plan takes).
	m.ResetRequests()
	whenPolled(t, m, "rpt_1", func() { m.SetRunSpeed(5 * 3600) })
	cli.write("main.tf", onActiveRunConfig(url, "20", "wait", `timeouts = { update = "1m" }`))
	out = cli.must(apply...)
	m.SetRunSpeed(0)
	// The output says what was waited for, phase by phase, since Terraform shows only "Still modifying".
	wantsOutput(t, out, `Warning: Rules of gate "new_checkout" roll out through release pipeline run "rpt_2"`,
		`Warning: Waited for release pipeline run "rpt_1" of gate "new_checkout"`,
		`so this change waited \d+ seconds? for it to end \(on_active_run = "wait"\)\. The run went: IN_PROGRESS at phase "Canary" -> IN_PROGRESS at phase "[^"]+" (-> [^.]+ )?-> COMPLETED\.`)
	checkRunStatus(t, m, "rpt_1", mockconsole.RunCompleted)
	checkMockPercentage(t, m, 20)
	if runs := m.GateRuns("new_checkout"); len(runs) != 2 || runs[0] != "rpt_2" {
		t.Errorf("runs of the gate %v, want rpt_2 then rpt_1", runs)
	}
	cli.must("plan", "-detailed-exitcode", "-input=false", "-no-color")
}

// on_active_run is Terraform's only: changing it plans an update that sends nothing; a value it
// does not know is refused at plan time, naming the attribute and the values allowed.
func TestAccGateRules_onActiveRunSendsNothing(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkGateHasNoRules(m, "new_checkout"),
		Steps: []resource.TestStep{
			{
				Config:      onActiveRunConfig(url, "10", "never"),
				ExpectError: regexp.MustCompile(`(?s)on_active_run.*value must be one of:.*"fail".*"abort".*"wait"`),
			},
			{
				Config: onActiveRunConfig(url, "10", ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("on_active_run"), knownvalue.StringExact("fail")),
				},
			},
			{
				PreConfig: m.ResetRequests,
				Config:    onActiveRunConfig(url, "10", "wait"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateRulesAddr, plancheck.ResourceActionUpdate),
					expectChangedPaths(gateRulesAddr, "on_active_run"),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("on_active_run"), knownvalue.StringExact("wait")),
				},
				Check: func(*terraform.State) error {
					for _, r := range m.Requests() {
						if r.Method != http.MethodGet {
							return fmt.Errorf("changing on_active_run sent %s %s", r.Method, r.Path)
						}
					}
					return nil
				},
			},
		},
	})
}

// One terraform destroy of a pipeline created by Terraform (phases baking for hours), a gate
// attached to it and the gate's rules, while the rules roll out: the rules' destroy aborts the run
// and empties the rules (which starts another run), the gate's destroy aborts that one, and the
// pipeline goes: nothing is left on the service.
func TestAccGateRules_destroyMidRollout(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	var pipelineID string
	cfg := providerBlock(url) + `
resource "featureconsole_release_pipeline" "web" {
  name = "Rollout"
  phases = [
    { name = "Canary", time_interval_ms = 3600000, rules = [{ name = "internal", conditions = [{ type = "user_id", operator = "any", target_value = ["42"] }] }] },
    { name = "Everyone", time_interval_ms = 86400000, rules = [{ name = "all", conditions = [{ type = "user_id", operator = "none", target_value = ["0"] }] }] },
  ]
}

resource "featureconsole_gate" "rollout" {
  gate_id             = "tfacc_rollout"
  release_pipeline_id = featureconsole_release_pipeline.web.id
}

resource "featureconsole_gate_rules" "rollout" {
  gate_id = featureconsole_gate.rollout.gate_id
  rules   = [{ name = "everyone", pass_percentage = 50 }]
}
`
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if _, ok := m.Gate("tfacc_rollout"); ok {
				return fmt.Errorf("gate tfacc_rollout is left")
			}
			if _, ok := m.Pipeline(pipelineID); ok {
				return fmt.Errorf("pipeline %q is left", pipelineID)
			}
			for _, id := range m.GateRuns("tfacc_rollout") {
				if r, _ := m.Run(id); r.Status != mockconsole.RunAborted {
					return fmt.Errorf("run %s is %s, want ABORTED", id, r.Status)
				}
			}
			return nil
		},
		Steps: []resource.TestStep{{
			Config: cfg,
			Check: func(s *terraform.State) error {
				pipelineID = s.RootModule().Resources["featureconsole_release_pipeline.web"].Primary.ID
				runs := m.GateRuns("tfacc_rollout")
				if len(runs) != 1 {
					return fmt.Errorf("runs of the gate %v, want one", runs)
				}
				if r, _ := m.Run(runs[0]); r.Status != mockconsole.RunInProgress {
					return fmt.Errorf("run %s is %s, want it rolling out", r.ID, r.Status)
				}
				return nil
			},
		}},
	})
}

// The advice of a wait that stopped is one that can work: a timeout only where bake time alone ends
// the run, covering what is left of it; a paused run or a review ahead needs an act, not time.
func TestWaitAdviceCanWork(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.PutPipeline(mockconsole.Pipeline{ID: "pl_review_later", Name: "Review later", Phases: []mockconsole.Phase{
		{ID: "ph_canary", Name: "Canary", TimeIntervalMs: 3600000},
		{ID: "ph_prod", Name: "Production", TimeIntervalMs: 3600000, RequiredReview: true},
	}})
	m.PutPipeline(mockconsole.Pipeline{ID: "pl_bakes", Name: "Bakes", Phases: []mockconsole.Phase{
		{ID: "ph_canary", Name: "Canary", TimeIntervalMs: 3600000},
		{ID: "ph_all", Name: "Everyone", TimeIntervalMs: 2 * 3600000},
	}})
	c, err := console.New(console.Config{BaseURL: url, APIKey: mockconsole.DefaultAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	op := &framework.Operation{Name: "update", Timeout: 80 * time.Second}
	inAnHour := console.Millis{Value: time.Now().Add(time.Hour).UnixMilli(), Set: true}
	run := func(pipeline, status string, end console.Millis) *console.ReleasePipelineTrigger {
		return &console.ReleasePipelineTrigger{ID: "rpt_9", ReleasePipelineID: pipeline, GateID: "new_checkout", Status: status,
			CurrentPhase: "Canary", CurrentPhaseID: "ph_canary", CurrentPhaseEndTime: end}
	}
	for name, tc := range map[string]struct {
		run        *console.ReleasePipelineTrigger
		want, lack []string
	}{
		"bakes": {run: run("pl_bakes", console.TriggerInProgress, inAnHour),
			want: []string{`about 3 hours of bake time left (phase "Canary" until`, `timeouts = { update = "3h2m" }`, `on_active_run = "abort"`}},
		"review ahead": {run: run("pl_review_later", console.TriggerInProgress, inAnHour),
			want: []string{`after about 60 minutes of bake time, phase "Production" of the pipeline waits for a review`, `on_active_run = "abort"`},
			lack: []string{"timeouts ="}},
		"paused": {run: run("pl_bakes", console.TriggerPaused, inAnHour),
			want: []string{`run "rpt_9" is paused, and more time will not move it on`, `operation = "unpause"`}, lack: []string{"timeouts ="}},
		"end unknown": {run: run("pl_bakes", console.TriggerInProgress, console.Millis{}),
			want: []string{`cannot be told`, `on_active_run = "abort"`}, lack: []string{"timeouts ="}},
	} {
		t.Run(name, func(t *testing.T) {
			got := gateRulesTarget.waitAdvice(context.Background(), c, "new_checkout", op, tc.run)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("advice lacks %q:\n%s", w, got)
				}
			}
			for _, l := range tc.lack {
				if strings.Contains(got, l) {
					t.Errorf("advice says %q:\n%s", l, got)
				}
			}
		})
	}
}

// whenPolled calls do once a featureconsole_gate_rules waiting for run id (on_active_run =
// "wait") has read it since the request log was last reset: what the test does then happens
// during the wait, whatever the machine's speed.
func whenPolled(t *testing.T, m *mockconsole.Server, id string, do func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(done); <-stopped }) // never outlives the test
	go func() {
		defer close(stopped)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			for _, r := range m.Requests() {
				if r.Method == http.MethodGet && strings.HasSuffix(r.Path, "/release_pipeline_triggers/"+id) {
					do()
					return
				}
			}
		}
	}()
}

// abortWhenPolled aborts run id, as someone in the console would, during a wait for it: the abort
// puts back the rules the gate had before the run's write.
func abortWhenPolled(t *testing.T, m *mockconsole.Server, id string) {
	m.ResetRequests()
	whenPolled(t, m, id, func() {
		if err := m.SetRun(id, mockconsole.RunAborted, "", nil); err != nil {
			t.Errorf("abort %s: %v", id, err)
		}
	})
}

// on_active_run = "abort" and "wait" supersede a run as the service does it: an abort puts back
// the rules the gate had before the run's write, so rules that write added come back with new
// base_ids. While a run is active, the plan of a change promises no base_id (never "Provider
// produced inconsistent result"), and the apply's result is the re-plan's: empty. With no run
// active, the plan promises the base_ids it knows.
func TestAccGateRules_supersedePlan(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	m.SetRunSpeed(0) // runs stay where the test puts them
	attachToPipeline(m, true)
	baseID := func(i int) tfjsonpath.Path { return tfjsonpath.New("rules").AtSliceIndex(i).AtMapKey("base_id") }
	staff := ruleHCL("staff", "100")
	// "everyone" was on the gate before rpt_3's write: it comes back with its base_id, which the
	// write after the abort keeps.
	everyoneKept := statecheck.CompareValue(compare.ValuesSame())
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: onActiveRunConfig(url, "10", "abort")}, // rpt_1 rolls "everyone" out, a rule new to the gate
			{
				// rpt_1 is active: its abort brings back the seeded rules, and "everyone" a new base_id.
				Config: onActiveRunConfig(url, "20", "abort"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateRulesAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(gateRulesAddr, baseID(0)),
				}},
				Check: func(*terraform.State) error {
					if r, _ := m.Run("rpt_1"); r.Status != mockconsole.RunAborted {
						return fmt.Errorf("rpt_1 is %s, want ABORTED", r.Status)
					}
					return nil
				},
			},
			{
				// No run is active: nothing can bring older rules back, so the base_id is promised.
				PreConfig: func() {
					if err := m.SetRun("rpt_2", mockconsole.RunCompleted, "", nil); err != nil {
						t.Fatal(err)
					}
				},
				Config: strings.Replace(onActiveRunConfig(url, "30", "abort"), "rules   = [", "rules   = ["+staff, 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(gateRulesAddr, baseID(1), knownvalue.NotNull()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{everyoneKept.AddStateValue(gateRulesAddr, baseID(1))},
			},
			{
				// rpt_3 (which added "staff") is active, and someone aborts it while the apply waits.
				PreConfig: func() { abortWhenPolled(t, m, "rpt_3") },
				Config:    strings.Replace(onActiveRunConfig(url, "40", "wait"), "rules   = [", "rules   = ["+staff, 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(gateRulesAddr, baseID(0)),
					plancheck.ExpectUnknownValue(gateRulesAddr, baseID(1)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{everyoneKept.AddStateValue(gateRulesAddr, baseID(1))},
				Check: func(*terraform.State) error {
					if r, _ := m.Run("rpt_3"); r.Status != mockconsole.RunAborted {
						return fmt.Errorf("rpt_3 is %s, want ABORTED", r.Status)
					}
					if got := mockRuleNames(m, "new_checkout"); got != "staff,everyone" {
						return fmt.Errorf("the gate holds %q, want staff,everyone", got)
					}
					return nil
				},
			},
		},
	})
}

// supersedePlan promises no base_id exactly when the write may meet an active run that brings
// older rules back: abort or wait (or a policy not known yet) while a run is active, or when
// whether one is cannot be known; never with fail, which lists nothing.
func TestSupersedePlanMayRestore(t *testing.T) {
	ctx := context.Background()
	active := []console.ReleasePipelineTrigger{{ID: "rpt_1", Status: console.TriggerInProgress}}
	list := func(runs []console.ReleasePipelineTrigger, err error, calls *int) func(context.Context) ([]console.ReleasePipelineTrigger, error) {
		return func(context.Context) ([]console.ReleasePipelineTrigger, error) { *calls++; return runs, err }
	}
	for _, tc := range []struct {
		name   string
		policy types.String
		runs   []console.ReleasePipelineTrigger
		err    error
		noList bool
		want   bool
		calls  int
	}{
		{"fail with a run", types.StringValue(onActiveRunFail), active, nil, false, false, 0},
		{"no policy (segments)", types.StringNull(), active, nil, false, false, 0},
		{"abort with a run", types.StringValue(onActiveRunAbort), active, nil, false, true, 1},
		{"wait with a run", types.StringValue(onActiveRunWait), active, nil, false, true, 1},
		{"abort without a run", types.StringValue(onActiveRunAbort), nil, nil, false, false, 1},
		{"abort, runs not listed", types.StringValue(onActiveRunAbort), nil, errors.New("503"), false, true, 1},
		{"abort, no client", types.StringValue(onActiveRunAbort), nil, nil, true, true, 0},
		{"policy unknown, no run", types.StringUnknown(), nil, nil, false, false, 1},
		{"policy unknown, a run", types.StringUnknown(), active, nil, false, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			sp := supersedePlan{policy: tc.policy, activeRuns: list(tc.runs, tc.err, &calls)}
			if tc.noList {
				sp.activeRuns = nil
			}
			if got := sp.mayRestore(ctx); got != tc.want || calls != tc.calls {
				t.Errorf("mayRestore = %v after %d list(s), want %v after %d", got, calls, tc.want, tc.calls)
			}
		})
	}
}

// on_active_run = "wait": the update timeout may run out while a read of the run is under way
// (a slow service, or a busy machine), and that says the same as running out between two reads:
// where the run was last seen and what to do, not a failed read.
func TestWaitForRun_timeoutDuringRead(t *testing.T) {
	var reads atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reads.Add(1)
		<-r.Context().Done() // the read outlasts the operation's budget
	}))
	t.Cleanup(srv.Close)
	c, err := console.New(console.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: 1, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	r := gateRulesWith(&providerData{client: c, runPollInterval: time.Millisecond})
	var diags diag.Diagnostics
	ctx, op, cancel, _ := framework.NewOperation(context.Background(), "update", 300*time.Millisecond, nil)
	defer cancel()
	run := &console.ReleasePipelineTrigger{ID: "rpt_1", Status: console.TriggerInProgress, CurrentPhase: "Canary"}
	if gateRulesTarget.waitForRun(ctx, op, r.data, "new_checkout", run, &diags) {
		t.Fatal("the wait reported the run ended")
	}
	if reads.Load() == 0 {
		t.Fatal("the run was never read")
	}
	if len(diags) != 1 {
		t.Fatalf("diagnostics %v, want one error", diags)
	}
	d := diags[0]
	if want := `Stopped waiting for release pipeline run "rpt_1" of gate "new_checkout"`; d.Summary() != want {
		t.Errorf("summary %q, want %q", d.Summary(), want)
	}
	for _, want := range []string{"The update timeout (300ms) ran out", `Last state seen: IN_PROGRESS at phase "Canary"`, `on_active_run = "abort"`} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("detail lacks %q:\n%s", want, d.Detail())
		}
	}
}

// on_active_run = "abort": a refusal of the rules that is not the run's lock (a rule the service
// finds invalid) is reported as it is, and the run rolling out is left alone; a refusal that
// names the active run (its id, as the service and the mock do) is the lock and aborts it. Words
// of a rollout that name no active run are not the lock: the runs decide, not the wording.
func TestWriteRules_onlyTheLockAbortsTheRun(t *testing.T) {
	const lock = `Gate "new_checkout" is being rolled out by release pipeline trigger "rpt_1": its rules cannot change until it ends`
	for msg, wantAbort := range map[string]bool{
		`rules[0].conditions[0].operator "any" is not valid for type "time"`: false,
		`rules[0].name "checkout beta" duplicates rules[1].name`:             false,
		lock: true,
		`Rules of this gate cannot change until rpt_1 has ended`:                      true,
		`The gate's rules are locked while a rollout is in progress`:                  false,
		`Gate "new_checkout" is being rolled out by release pipeline trigger "rpt_0"`: false,
	} {
		t.Run(msg, func(t *testing.T) {
			var mu sync.Mutex
			var patches, aborts int
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				switch {
				case r.Method == http.MethodPatch && strings.HasSuffix(r.URL.Path, "/gates/new_checkout/rules"):
					patches++
					if patches == 1 || aborts == 0 {
						w.WriteHeader(http.StatusBadRequest)
						_ = json.NewEncoder(w).Encode(map[string]any{"status": 400, "message": msg})
						return
					}
					_, _ = w.Write([]byte(`{"data":{"id":"new_checkout","rules":[]}}`))
				case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/release_pipeline_triggers"):
					_, _ = w.Write([]byte(`{"data":[{"id":"rpt_1","gateID":"new_checkout","releasePipelineID":"pl_web","status":"IN_PROGRESS","currentPhase":"Canary"}]}`))
				case r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/release_pipeline_triggers/rpt_1/abort"):
					aborts++
					_, _ = w.Write([]byte(`{"data":{"id":"rpt_1","gateID":"new_checkout","status":"ABORTED","actions":[{"type":"ABORT"}]}}`))
				default:
					w.WriteHeader(http.StatusNotFound)
					_, _ = w.Write([]byte(`{"status":404,"message":"not here"}`))
				}
			}))
			t.Cleanup(srv.Close)
			c, err := console.New(console.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: 1, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			r := gateRulesWith(&providerData{client: c})
			ctx, op, cancel, _ := framework.NewOperation(context.Background(), "update", 10*time.Second, nil)
			defer cancel()
			var diags diag.Diagnostics
			_, superseded, err := r.target.writePastRun(ctx, op, r.data, "new_checkout", []console.Rule{}, onActiveRunAbort, &diags)
			mu.Lock()
			defer mu.Unlock()
			if wantAbort {
				if err != nil || diags.HasError() || superseded == nil || superseded.ID != "rpt_1" || aborts != 1 || patches != 2 {
					t.Errorf("the lock: err %v, diags %v, superseded %v, %d aborts, %d writes; want rpt_1 aborted and the rules written", err, diags, superseded, aborts, patches)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "400") && !strings.Contains(err.Error(), msg) || superseded != nil || aborts != 0 || patches != 1 {
				t.Errorf("another refusal: err %v, superseded %v, %d aborts, %d writes; want the refusal, no abort, one write", err, superseded, aborts, patches)
			}
		})
	}
}

func TestMatchPriorRules(t *testing.T) {
	ctx := context.Background()
	prior := []ruleModel{testRule(t, "a", "10"), testRule(t, "b", "20"), testRule(t, "c", "30")}
	planned := []ruleModel{testRule(t, "new", "1"), testRule(t, "c", "30"), testRule(t, "a", "11"), testRule(t, "b", "20")}
	for i := range planned {
		planned[i].ID, planned[i].BaseID = types.StringUnknown(), types.StringUnknown()
	}
	matchPriorRules(ctx, planned, prior)
	// The list is written: the service may give every rule a new id, so none is promised; base ids are.
	want := []struct{ id, base string }{{"?", "?"}, {"?", "base-c"}, {"?", "base-a"}, {"?", "base-b"}}
	got := func(s types.String) string {
		if s.IsUnknown() {
			return "?"
		}
		return s.ValueString()
	}
	for i, w := range want {
		if got(planned[i].ID) != w.id || got(planned[i].BaseID) != w.base {
			t.Errorf("planned[%d] = %s/%s, want %s/%s", i, got(planned[i].ID), got(planned[i].BaseID), w.id, w.base)
		}
	}

	// The same list as before, rule for rule: nothing is written, every id is kept.
	same := []ruleModel{testRule(t, "a", "10"), testRule(t, "b", "20"), testRule(t, "c", "30")}
	matchPriorRules(ctx, same, prior)
	for i, r := range same {
		if got(r.ID) != got(prior[i].ID) || got(r.BaseID) != got(prior[i].BaseID) {
			t.Errorf("unchanged[%d] = %s/%s, want %s/%s", i, got(r.ID), got(r.BaseID), got(prior[i].ID), got(prior[i].BaseID))
		}
	}
	// Reordered only: still a write, ids unknown.
	moved := []ruleModel{testRule(t, "b", "20"), testRule(t, "a", "10"), testRule(t, "c", "30")}
	matchPriorRules(ctx, moved, prior)
	for i, r := range moved {
		if !r.ID.IsUnknown() {
			t.Errorf("reordered[%d] promises id %s", i, r.ID)
		}
	}
}
