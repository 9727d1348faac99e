// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

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
