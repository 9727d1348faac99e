// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// Actions exist from Terraform 1.14; terraform-plugin-testing has no -invoke step, so the tests fire
// the action from a terraform_data resource's action_trigger: on create, and again on every update
// of its input (a second invocation with the same configuration).

var actionsTerraform = cliCan(featActions)

// fireAction is a configuration that invokes the action with the given config body; changing
// round invokes it again.
func fireAction(url string, round int, body string) string {
	return providerBlock(url) + fmt.Sprintf(`
resource "terraform_data" "fire" {
  input = %d
  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.featureconsole_release_pipeline_trigger.this]
    }
  }
}

action "featureconsole_release_pipeline_trigger" "this" {
  config {
%s
  }
}
`, round, body)
}

// runMock starts a mock with a run of pl_web (Canary, which requires review and bakes 1h, then
// General availability, 24h) for gate new_checkout, waiting for the review of Canary.
func runMock(t *testing.T) (*mockconsole.Server, string, string) {
	t.Helper()
	m, url := startMock(t, mockconsole.Config{})
	id, err := m.StartRun("pl_web", "new_checkout")
	if err != nil {
		t.Fatal(err)
	}
	return m, url, id
}

func mustRun(t *testing.T, m *mockconsole.Server, id string) mockconsole.Run {
	t.Helper()
	r, ok := m.Run(id)
	if !ok {
		t.Fatalf("run %s is gone", id)
	}
	return r
}

// operationsSent counts the operation requests the mock acted on (429s of the pacing are not).
func operationsSent(m *mockconsole.Server, id, op string) int {
	n := 0
	for _, r := range m.Requests() {
		if r.Method == http.MethodPut && strings.HasSuffix(r.Path, "/release_pipeline_triggers/"+id+"/"+op) && r.Status != http.StatusTooManyRequests {
			n++
		}
	}
	return n
}

func countActions(r mockconsole.Run, typ string) int {
	n := 0
	for _, a := range r.Actions {
		if a.Type == typ {
			n++
		}
	}
	return n
}

// checkRun asserts the run's status, phase and how many actions of typ it records.
func checkRun(m *mockconsole.Server, id, status, phase, typ string, actions int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		r, ok := m.Run(id)
		if !ok {
			return fmt.Errorf("run %s is gone", id)
		}
		if r.Status != status || r.CurrentPhase != phase || countActions(r, typ) != actions {
			return fmt.Errorf("run %s is %s at %q with %d %s actions (%+v); want %s at %q with %d",
				id, r.Status, r.CurrentPhase, countActions(r, typ), typ, r.Actions, status, phase, actions)
		}
		return nil
	}
}

func checkSent(m *mockconsole.Server, id, op string, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := operationsSent(m, id, op); n != want {
			return fmt.Errorf("%s sent %d times, want %d", op, n, want)
		}
		return nil
	}
}

// Every operation, invoked twice with the same configuration, acts once: the second invocation
// finds it done (a warning) or, for skip, the run at another phase (an error, nothing sent).
func TestAccReleasePipelineTrigger_everyOperationOnce(t *testing.T) {
	t.Parallel()
	type tc struct {
		op, prepStatus, prepPhase, body string
		wantStatus, wantPhase, action   string
		secondErr                       *regexp.Regexp
	}
	cases := []tc{
		{op: "approve", body: `phase = "Canary"`, wantStatus: "IN_PROGRESS", wantPhase: "Canary", action: "APPROVED_FOR"},
		{op: "pause", prepStatus: "IN_PROGRESS", wantStatus: "PAUSED", wantPhase: "Canary", action: "PAUSED"},
		{op: "unpause", prepStatus: "PAUSED", wantStatus: "IN_PROGRESS", wantPhase: "Canary", action: "UNPAUSED"},
		{op: "skip", prepStatus: "IN_PROGRESS", body: `phase = "Canary"`, wantStatus: "IN_PROGRESS", wantPhase: "General availability", action: "SKIPPED",
			secondErr: wrapped(`phase = "Canary", but the run is at phase "General availability"`)},
		{op: "rollout", wantStatus: "COMPLETED", wantPhase: "Canary", action: "FULL_ROLL_OUT"},
		{op: "abort", prepStatus: "PAUSED", wantStatus: "ABORTED", wantPhase: "Canary", action: "ABORTED"},
	}
	for _, c := range cases {
		t.Run(c.op, func(t *testing.T) {
			m, url, id := runMock(t)
			if c.prepStatus != "" {
				if err := m.SetRun(id, c.prepStatus, c.prepPhase, nil); err != nil {
					t.Fatal(err)
				}
			}
			body := fmt.Sprintf("    operation = %q\n    gate_id   = \"new_checkout\"\n    %s", c.op, c.body)
			if c.op == "rollout" || c.op == "abort" {
				body = fmt.Sprintf("    operation  = %q\n    trigger_id = %q", c.op, id)
			}
			second := resource.TestStep{
				Config: fireAction(url, 2, body),
				Check:  resource.ComposeTestCheckFunc(checkSent(m, id, c.op, 1), checkRun(m, id, c.wantStatus, c.wantPhase, c.action, 1)),
			}
			if c.secondErr != nil {
				second = resource.TestStep{Config: fireAction(url, 2, body), ExpectError: c.secondErr}
			}
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				TerraformVersionChecks:   actionsTerraform,
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{
						Config: fireAction(url, 1, body),
						Check:  resource.ComposeTestCheckFunc(checkSent(m, id, c.op, 1), checkRun(m, id, c.wantStatus, c.wantPhase, c.action, 1)),
					},
					second,
				},
			})
			if n := operationsSent(m, id, c.op); n != 1 {
				t.Fatalf("%s sent %d times over two invocations", c.op, n)
			}
		})
	}
}

// Under every 3rd request failing (429 on writes, 503 on reads) and every write's answer lost
// (committed, answered 502), each of the six operations lands exactly once and the action
// succeeds: the lost answers are recovered from the run's actions.
func TestAccReleasePipelineTrigger_faults(t *testing.T) {
	t.Parallel()
	m, url, id := runMock(t)
	skipped, _ := m.StartRun("pl_mobile", "dark_mode")
	rolled, _ := m.StartRun("pl_mobile", "search_v2")
	m.SetFaults(mockconsole.Faults{FailEvery: 3, LoseWriteEvery: 1, RetryAfter: "0"})
	step := func(round int, op, status, typ string) resource.TestStep {
		return resource.TestStep{
			Config: fireAction(url, round, fmt.Sprintf("    operation  = %q\n    trigger_id = %q\n    phase      = \"Canary\"", op, id)),
			Check:  resource.ComposeTestCheckFunc(checkSent(m, id, op, 1), checkRun(m, id, status, "Canary", typ, 1)),
		}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   actionsTerraform,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step(1, "approve", "IN_PROGRESS", "APPROVED_FOR"),
			step(2, "approve", "IN_PROGRESS", "APPROVED_FOR"),
			step(3, "pause", "PAUSED", "PAUSED"),
			step(4, "pause", "PAUSED", "PAUSED"),
			step(5, "unpause", "IN_PROGRESS", "UNPAUSED"),
			{
				Config: fireAction(url, 6, fmt.Sprintf("    operation  = \"abort\"\n    trigger_id = %q", id)),
				Check:  resource.ComposeTestCheckFunc(checkSent(m, id, "abort", 1), checkRun(m, id, "ABORTED", "Canary", "ABORTED", 1)),
			},
			{
				Config: fireAction(url, 7, fmt.Sprintf("    operation  = \"skip\"\n    trigger_id = %q\n    phase      = \"Beta testers\"", skipped)),
				Check:  resource.ComposeTestCheckFunc(checkSent(m, skipped, "skip", 1), checkRun(m, skipped, "COMPLETED", "Beta testers", "SKIPPED", 1)),
			},
			{
				Config: fireAction(url, 8, fmt.Sprintf("    operation  = \"rollout\"\n    trigger_id = %q", rolled)),
				Check:  resource.ComposeTestCheckFunc(checkSent(m, rolled, "rollout", 1), checkRun(m, rolled, "COMPLETED", "Beta testers", "FULL_ROLL_OUT", 1)),
			},
			{
				// Invoked again: both are past, nothing is sent.
				Config: fireAction(url, 9, fmt.Sprintf("    operation  = \"rollout\"\n    trigger_id = %q", rolled)),
				Check:  checkSent(m, rolled, "rollout", 1),
			},
		},
	})
	lost := 0
	for _, r := range m.Requests() {
		if r.Method == http.MethodPut && r.Status == http.StatusBadGateway {
			lost++
		}
	}
	if lost != 6 {
		t.Fatalf("%d operations lost their answer, want 6: the test did not exercise the recovery", lost)
	}
}

// Every refusal happens before any request that acts.
func TestAccReleasePipelineTrigger_refusals(t *testing.T) {
	t.Parallel()
	m, url, id := runMock(t)
	other, err := m.StartRun("pl_mobile", "dark_mode")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.StartRun("pl_mobile", "dark_mode"); err != nil {
		t.Fatal(err)
	}
	done, err := m.StartRun("pl_mobile", "search_v2")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetRun(done, "COMPLETED", "", nil); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		body string
		err  *regexp.Regexp
	}{
		{"operation = \"pause\"\ngate_id = \"new_checkout\"", wrapped(`The run is WAITING_FOR_REVIEW at phase "Canary"; pause needs a run that is IN_PROGRESS`)},
		{"operation = \"unpause\"\ngate_id = \"new_checkout\"", wrapped(`unpause needs a run that is PAUSED`)},
		{"operation = \"approve\"\ngate_id = \"new_checkout\"\nphase = \"General availability\"", wrapped(`phase = "General availability", but the run is at phase "Canary"`)},
		{"operation = \"skip\"\ngate_id = \"new_checkout\"", wrapped(`operation = "skip" requires phase`)},
		{"operation = \"approve\"\ngate_id = \"new_checkout\"\ntrigger_id = \"" + id + "\"", wrapped(`Invalid Attribute Combination`)},
		{"operation = \"approve\"", wrapped(`Exactly one of these attributes must be configured: [gate_id,dynamic_config_id,trigger_id]`)},
		{"operation = \"approve\"\ngate_id = \"dark_mode\"", regexp.MustCompile(`(?s)Gate "dark_mode" has 2 active release\s+pipeline\s+runs\s+\(.*"` + other + `"`)},
		{"operation = \"approve\"\ngate_id = \"search_v2\"", wrapped(`Gate "search_v2" has no active release pipeline run`)},
		{"operation = \"abort\"\ntrigger_id = \"" + done + "\"", wrapped(`The run is COMPLETED (final at phase "Beta testers"): abort is not possible`)},
		{"operation = \"approve\"\ntrigger_id = \"rpt_missing\"", wrapped(`There is no release pipeline run "rpt_missing"`)},
		{"operation = \"approve\"\ntrigger_id = \"\"", wrapped(`must not be empty`)},
		{"operation = \"resume\"\ngate_id = \"new_checkout\"", wrapped(`value must be one of`)},
		{"operation = \"approve\"\ngate_id = \"new_checkout\"\nwait = \"forever\"", wrapped(`value must be one of`)},
		{"operation = \"approve\"\ngate_id = \"new_checkout\"\ntimeouts = { invoke = \"0s\" }", wrapped(`must be a positive duration`)},
	}
	var ts []resource.TestStep
	for i, s := range steps {
		ts = append(ts, resource.TestStep{Config: fireAction(url, i, s.body), ExpectError: s.err})
	}
	// The post-test destroy plans the last configuration: a valid one that fires nothing.
	ts = append(ts, resource.TestStep{Config: providerBlock(url) + `resource "terraform_data" "fire" { input = 99 }`})
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   actionsTerraform,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    ts,
	})
	if n := m.CountRequests(http.MethodPut, "/release_pipeline_triggers/"); n != 0 {
		t.Fatalf("%d operations sent, want none", n)
	}
}

// wait = "completion" follows the run through its phases (the mock's run clock runs fast) and
// ends when it completes; on a pipeline whose later phase requires review it stops with an error
// naming that phase. A run that does not move times out with the last state seen.
func TestAccReleasePipelineTrigger_waitCompletion(t *testing.T) {
	t.Parallel()
	m, url, id := runMock(t)
	p, _ := m.Pipeline("pl_web")
	p.Phases[1].RequiredReview = false
	m.PutPipeline(p)
	m.SetRunSpeed(3600 * 24 * 5) // 24h of bake time in 200ms
	body := fmt.Sprintf("    operation  = \"approve\"\n    trigger_id = %q\n    wait       = \"completion\"", id)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   actionsTerraform,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fireAction(url, 1, body),
			Check:  checkRun(m, id, "COMPLETED", "General availability", "APPROVED_FOR", 1),
		}},
	})

	// A review phase after the first one: the wait stops there, naming it.
	m2, url2, run2 := runMock(t)
	p2, _ := m2.Pipeline("pl_web")
	p2.Phases = append(p2.Phases, mockconsole.Phase{Name: "Production", TimeIntervalMs: 1000, RequiredReview: true})
	m2.PutPipeline(p2)
	run3, err := m2.StartRun("pl_web", "dark_mode")
	if err != nil {
		t.Fatal(err)
	}
	_ = run2
	m2.SetRunSpeed(3600 * 24 * 5)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   actionsTerraform,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      fireAction(url2, 1, fmt.Sprintf("    operation  = \"approve\"\n    trigger_id = %q\n    wait       = \"completion\"", run3)),
			ExpectError: wrapped(`waits for a review of phase "Production"`),
		}},
	})

	// Frozen run clock: the bake never ends and the invocation times out.
	m3, url3, run4 := runMock(t)
	m3.SetRunSpeed(0)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   actionsTerraform,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      fireAction(url3, 1, fmt.Sprintf("    operation  = \"approve\"\n    trigger_id = %q\n    wait       = \"completion\"\n    timeouts   = { invoke = \"2s\" }", run4)),
			ExpectError: regexp.MustCompile(`(?s)Timed out after 2s.*Last state seen of run "` + run4 + `":\s+IN_PROGRESS\s+at\s+phase\s+"Canary"`),
		}},
	})
	if r := mustRun(t, m3, run4); countActions(r, "APPROVED_FOR") != 1 {
		t.Fatalf("approve not sent once before the wait: %+v", r.Actions)
	}
}

// The data source lists runs with the service's filters, statuses sent as repeated parameters.
func TestAccReleasePipelineTriggersDataSource(t *testing.T) {
	t.Parallel()
	m, url, id := runMock(t)
	other, err := m.StartRun("pl_mobile", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetRun(other, "PAUSED", "", []mockconsole.RunAction{{Type: "PAUSED", TimeMs: 1700000000000, PhaseID: "ph_x", ActorName: "Ada"}}); err != nil {
		t.Fatal(err)
	}
	cfg := providerBlock(url) + `
data "featureconsole_release_pipeline_triggers" "all" {}
data "featureconsole_release_pipeline_triggers" "web" {
  release_pipeline_id = "pl_web"
  gate_id             = "new_checkout"
}
data "featureconsole_release_pipeline_triggers" "some" {
  statuses = ["PAUSED", "COMPLETED"]
}
`
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      providerBlock(url) + `data "featureconsole_release_pipeline_triggers" "bad" { statuses = ["RUNNING"] }`,
				ExpectError: regexp.MustCompile(`value must be one of`),
			},
			{
				Config: cfg,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr("data.featureconsole_release_pipeline_triggers.all", "triggers.#", "2"),
					resource.TestCheckResourceAttr("data.featureconsole_release_pipeline_triggers.web", "triggers.#", "1"),
					resource.TestCheckResourceAttr("data.featureconsole_release_pipeline_triggers.web", "triggers.0.id", id),
					resource.TestCheckResourceAttr("data.featureconsole_release_pipeline_triggers.web", "triggers.0.status", "WAITING_FOR_REVIEW"),
					resource.TestCheckResourceAttr("data.featureconsole_release_pipeline_triggers.web", "triggers.0.current_phase", "Canary"),
					resource.TestCheckNoResourceAttr("data.featureconsole_release_pipeline_triggers.web", "triggers.0.current_phase_end_time"),
					resource.TestCheckResourceAttr("data.featureconsole_release_pipeline_triggers.web", "triggers.0.actions.#", "0"),
					resource.TestCheckResourceAttr("data.featureconsole_release_pipeline_triggers.some", "triggers.#", "1"),
					resource.TestCheckResourceAttr("data.featureconsole_release_pipeline_triggers.some", "triggers.0.id", other),
					resource.TestCheckNoResourceAttr("data.featureconsole_release_pipeline_triggers.some", "triggers.0.gate_id"),
					resource.TestCheckResourceAttr("data.featureconsole_release_pipeline_triggers.some", "triggers.0.actions.0.type", "PAUSED"),
					resource.TestCheckResourceAttr("data.featureconsole_release_pipeline_triggers.some", "triggers.0.actions.0.time_ms", "1700000000000"),
					resource.TestCheckResourceAttr("data.featureconsole_release_pipeline_triggers.some", "triggers.0.actions.0.actor_name", "Ada"),
					func(*terraform.State) error {
						for _, r := range m.Requests() {
							if strings.HasSuffix(r.Path, "/release_pipeline_triggers") && strings.Contains(r.RawQuery, "status=") &&
								!strings.Contains(r.RawQuery, "status=PAUSED&status=COMPLETED") {
								return fmt.Errorf("statuses not sent as repeated parameters: %s", r.RawQuery)
							}
						}
						return nil
					},
				),
			},
		},
	})
}

// The action acts on a config's one active run by dynamic_config_id (Terraform 1.14+).
func TestAccReleasePipelineTrigger_dynamicConfig(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.SetRunSpeed(0)
	m.PutDynamicConfig(mockconsole.DynamicConfig{ID: "tfacc_copy", ReleasePipelineID: "pl_web"})
	body := "    operation         = \"approve\"\n    dynamic_config_id = \"tfacc_copy\"\n    phase             = \"Canary\""
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   actionsTerraform,
		Steps: []resource.TestStep{
			{
				Config:      fireAction(url, 1, body),
				ExpectError: regexp.MustCompile(`(?s)Dynamic config "tfacc_copy" has no active release pipeline run`),
			},
			{
				PreConfig: func() {
					req, _ := http.NewRequest(http.MethodPatch, url+"/console/v1/dynamic_configs/tfacc_copy",
						strings.NewReader(`{"rules":[{"name":"all","passPercentage":100,"conditions":[],"returnValue":{"a":1}}]}`))
					req.Header.Set("SERVICE-API-KEY", mockconsole.DefaultAPIKey)
					req.Header.Set("Content-Type", "application/json")
					resp, err := http.DefaultClient.Do(req)
					if err != nil || resp.StatusCode/100 != 2 { // 200, or 201 as the live service may answer
						t.Fatalf("rules write: %v %v", resp, err)
					}
					_ = resp.Body.Close()
				},
				Config: fireAction(url, 2, body),
				Check: func(*terraform.State) error {
					runs := m.ConfigRuns("tfacc_copy")
					if len(runs) != 1 {
						return fmt.Errorf("runs %v", runs)
					}
					return checkRun(m, runs[0], "IN_PROGRESS", "Canary", "APPROVED_FOR", 1)(nil)
				},
			},
		},
	})
}

// The wrapper around the framework's server must keep the action RPCs visible to tf6server, which
// looks for them with a type assertion (to tfprotov6.ProviderServerWithActions, the same methods).
var _ interface {
	tfprotov6.ProviderServer
	tfprotov6.ActionServer
} = (*eventsServer)(nil)

// progressRecorder collects the progress events of one invocation.
type progressRecorder struct {
	mu   sync.Mutex
	msgs []string
}

func (p *progressRecorder) send(ev action.InvokeProgressEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msgs = append(p.msgs, ev.Message)
}

func (p *progressRecorder) all() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.msgs, "\n")
}

// invokeTrigger invokes the action in-process with the attributes given (others null).
func invokeTrigger(t *testing.T, ctx context.Context, url string, attrs map[string]string) (diag.Diagnostics, *progressRecorder) {
	t.Helper()
	c, err := console.New(console.Config{BaseURL: url, APIKey: mockconsole.DefaultAPIKey, MaxRetries: 4, RetryWaitMin: time.Millisecond, RetryWaitMax: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	a := &releasePipelineTriggerAction{data: &providerData{client: c, runPollInterval: 5 * time.Millisecond}}
	var sr action.SchemaResponse
	a.Schema(ctx, action.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
	}
	for k, v := range attrs {
		if k == "invoke" {
			to := typ.AttributeTypes["timeouts"].(tftypes.Object)
			vals["timeouts"] = tftypes.NewValue(to, map[string]tftypes.Value{"invoke": tftypes.NewValue(tftypes.String, v)})
			continue
		}
		vals[k] = tftypes.NewValue(tftypes.String, v)
	}
	rec := &progressRecorder{}
	resp := &action.InvokeResponse{SendProgress: rec.send}
	a.Invoke(ctx, action.InvokeRequest{Config: tfsdk.Config{Schema: sr.Schema, Raw: tftypes.NewValue(typ, vals)}}, resp)
	return resp.Diagnostics, rec
}

// Every state a run can be in, against every operation: what the action does before any request.
func TestTriggerInvoke_everyStateEveryOperation(t *testing.T) {
	type want struct {
		outcome string // "act", "done" (warning, nothing sent) or "refuse" (error, nothing sent)
		text    string
	}
	table := map[string]map[string]want{
		"WAITING_FOR_REVIEW": {
			"approve": {"act", ""}, "pause": {"refuse", "pause needs a run that is IN_PROGRESS"},
			"unpause": {"refuse", "unpause needs a run that is PAUSED"}, "skip": {"act", ""}, "rollout": {"act", ""}, "abort": {"act", ""},
		},
		"IN_PROGRESS": {
			"approve": {"refuse", "approve needs a run that is WAITING_FOR_REVIEW"}, "pause": {"act", ""},
			"unpause": {"done", "unpause already done"}, "skip": {"act", ""}, "rollout": {"act", ""}, "abort": {"act", ""},
		},
		"PAUSED": {
			"approve": {"refuse", "WAITING_FOR_REVIEW"}, "pause": {"done", "pause already done"},
			"unpause": {"act", ""}, "skip": {"act", ""}, "rollout": {"act", ""}, "abort": {"act", ""},
		},
		"COMPLETED": {
			"approve": {"refuse", "The run is COMPLETED"}, "pause": {"refuse", "COMPLETED"}, "unpause": {"refuse", "COMPLETED"},
			"skip": {"refuse", "COMPLETED"}, "rollout": {"done", "rollout already done"}, "abort": {"refuse", "abort is not possible"},
		},
		"ABORTED": {
			"approve": {"refuse", "The run is ABORTED"}, "pause": {"refuse", "ABORTED"}, "unpause": {"refuse", "ABORTED"},
			"skip": {"refuse", "ABORTED"}, "rollout": {"refuse", "rollout is not possible"}, "abort": {"done", "abort already done"},
		},
	}
	ctx := context.Background()
	for status, ops := range table {
		for op, w := range ops {
			t.Run(status+"/"+op, func(t *testing.T) {
				m, url := startMock(t, mockconsole.Config{})
				id, err := m.StartRun("pl_web", "new_checkout")
				if err != nil {
					t.Fatal(err)
				}
				if err := m.SetRun(id, status, "", nil); err != nil {
					t.Fatal(err)
				}
				m.ResetRequests()
				d, rec := invokeTrigger(t, ctx, url, map[string]string{"operation": op, "trigger_id": id, "phase": "Canary", "wait": "none"})
				sent := m.CountRequests(http.MethodPut, "/release_pipeline_triggers/")
				text := diagText(d)
				switch w.outcome {
				case "act":
					if d.HasError() || sent != 1 || !strings.Contains(rec.all(), "Sent "+op+" to run") {
						t.Fatalf("want one %s sent: %d sent, diags %s, progress %q", op, sent, text, rec.all())
					}
				case "done":
					if d.HasError() || d.WarningsCount() != 1 || sent != 0 || !strings.Contains(text, w.text) || !strings.Contains(rec.all(), "already") {
						t.Fatalf("want a warning %q and nothing sent: %d sent, diags %s", w.text, sent, text)
					}
				case "refuse":
					if !d.HasError() || sent != 0 || !strings.Contains(text, w.text) || !strings.Contains(text, "Nothing was sent") {
						t.Fatalf("want an error %q and nothing sent: %d sent, diags %s", w.text, sent, text)
					}
				}
			})
		}
	}
}

// approve is already done once the current phase's approval is recorded and the run no longer waits.
func TestTriggerInvoke_approveTwice(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	id, _ := m.StartRun("pl_web", "new_checkout")
	ctx := context.Background()
	for i := range 2 {
		d, _ := invokeTrigger(t, ctx, url, map[string]string{"operation": "approve", "gate_id": "new_checkout", "phase": "Canary"})
		if d.HasError() || (i == 1) != (d.WarningsCount() == 1) {
			t.Fatalf("invocation %d: %s", i+1, diagText(d))
		}
	}
	if n := m.CountRequests(http.MethodPut, "/release_pipeline_triggers/"+id+"/approve"); n != 1 {
		t.Fatalf("approve sent %d times", n)
	}
}

// Progress is reported on every change of status or phase while waiting, and completion waits
// until the run is COMPLETED.
func TestTriggerInvoke_progressWhileWaiting(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	p, _ := m.Pipeline("pl_web")
	p.Phases = append(p.Phases, mockconsole.Phase{Name: "Everyone", TimeIntervalMs: 3600000})
	m.PutPipeline(p)
	id, _ := m.StartRun("pl_web", "new_checkout")
	m.SetRunSpeed(0)
	var d diag.Diagnostics
	var rec *progressRecorder
	done := make(chan struct{})
	go func() {
		defer close(done)
		d, rec = invokeTrigger(t, context.Background(), url, map[string]string{"operation": "approve", "trigger_id": id, "wait": "completion"})
	}()
	// Move the run on phase by phase, pausing in between so the action sees every phase.
	for _, d := range []time.Duration{90 * time.Minute, 24 * time.Hour, 2 * time.Hour} {
		time.Sleep(100 * time.Millisecond)
		m.AdvanceRunClock(d)
	}
	<-done
	if d.HasError() {
		t.Fatal(diagText(d))
	}
	got := rec.all()
	for _, want := range []string{
		`Sent approve to run "` + id + `": IN_PROGRESS at phase "Canary"`,
		`is now IN_PROGRESS at phase "General availability"`,
		`is now IN_PROGRESS at phase "Everyone"`,
		`is now COMPLETED at phase "Everyone"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("progress lacks %q:\n%s", want, got)
		}
	}
}

// Cancellation by Terraform ends the wait at once and says the last state seen.
func TestTriggerInvoke_cancelled(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	id, _ := m.StartRun("pl_web", "new_checkout")
	m.SetRunSpeed(0)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	d, _ := invokeTrigger(t, ctx, url, map[string]string{"operation": "approve", "trigger_id": id, "wait": "completion"})
	text := diagText(d)
	if time.Since(start) > 5*time.Second || !d.HasError() || !strings.Contains(text, "Cancelled by Terraform") ||
		!strings.Contains(text, `Last state seen of run "`+id+`": IN_PROGRESS at phase "Canary"`) {
		t.Fatalf("after %v: %s", time.Since(start), text)
	}
}

// A timeout says how long, how to raise it, and the last state seen.
func TestTriggerInvoke_timeout(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	id, _ := m.StartRun("pl_web", "new_checkout")
	if err := m.SetRun(id, "IN_PROGRESS", "", nil); err != nil {
		t.Fatal(err)
	}
	m.SetRunSpeed(0)
	d, _ := invokeTrigger(t, context.Background(), url, map[string]string{"operation": "pause", "trigger_id": id, "wait": "completion", "invoke": "300ms"})
	text := diagText(d)
	if !strings.Contains(text, "Timed out after 300ms") || !strings.Contains(text, "timeouts.invoke") ||
		!strings.Contains(text, `Last state seen of run "`+id+`": PAUSED at phase "Canary"`) {
		t.Fatal(text)
	}
}

// The service's own refusals (a 400 for a state or a phase that changed between the action's read
// and its write) are shown with the service's words and the last state seen, and not retried.
func TestTriggerInvoke_serviceRefusals(t *testing.T) {
	for name, change := range map[string]func(m *mockconsole.Server, id string) error{
		"wrong state": func(m *mockconsole.Server, id string) error { return m.SetRun(id, "IN_PROGRESS", "", nil) },
		"stale phase": func(m *mockconsole.Server, id string) error {
			return m.SetRun(id, "WAITING_FOR_REVIEW", "General availability", nil)
		},
	} {
		t.Run(name, func(t *testing.T) {
			m := mockconsole.New(mockconsole.Config{})
			id, _ := m.StartRun("pl_web", "new_checkout")
			var once sync.Once
			// Someone acts in the console between the action's read and its write.
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPut {
					once.Do(func() {
						if err := change(m, id); err != nil {
							t.Error(err)
						}
					})
				}
				m.ServeHTTP(w, r)
			}))
			defer srv.Close()
			d, _ := invokeTrigger(t, context.Background(), srv.URL, map[string]string{"operation": "approve", "trigger_id": id})
			text := diagText(d)
			if !d.HasError() || !strings.Contains(text, `Unable to approve release pipeline run "`+id+`": 400 Bad Request:`) ||
				!strings.Contains(text, "Last state seen") || m.CountRequests(http.MethodPut, "/") != 1 {
				t.Fatalf("%d PUTs: %s", m.CountRequests(http.MethodPut, "/"), text)
			}
		})
	}
}
