// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func do(t *testing.T, url, method, path, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, url+basePath+path, strings.NewReader(body))
	req.Header.Set(apiKeyHeader, DefaultAPIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

func TestRunsLifecycle(t *testing.T) {
	s, ts := NewTestServer(t, Config{})
	s.SetRunSpeed(0)
	id, err := s.StartRun("pl_web", "new_checkout")
	if err != nil {
		t.Fatal(err)
	}
	r, _ := s.Run(id)
	if r.Status != RunWaitingForReview || r.CurrentPhase != "Canary" || r.CurrentPhaseEndTime != nil {
		t.Fatalf("%+v", r)
	}
	phase := r.CurrentPhaseID

	// Refusals: wrong state, stale or missing phaseID, body on rollout; nothing changes.
	for _, c := range []struct{ op, body string }{
		{"pause", `{"phaseID":"` + phase + `"}`},
		{"unpause", `{"phaseID":"` + phase + `"}`},
		{"approve", `{"phaseID":"ph_stale"}`},
		{"approve", `{}`},
		{"approve", ``},
		{"rollout", `{"phaseID":"x"}`},
	} {
		if st, _ := do(t, ts.URL, http.MethodPut, "/release_pipeline_triggers/"+id+"/"+c.op, c.body); st != 400 {
			t.Errorf("%s %s: %d, want 400", c.op, c.body, st)
		}
	}
	if st, _ := do(t, ts.URL, http.MethodPost, "/release_pipeline_triggers/"+id+"/approve", ""); st != 405 {
		t.Errorf("POST: %d", st)
	}
	if st, _ := do(t, ts.URL, http.MethodPut, "/release_pipeline_triggers/nope/abort", ""); st != 404 {
		t.Errorf("unknown run: %d", st)
	}
	if r2, _ := s.Run(id); len(r2.Actions) != 0 || r2.Status != RunWaitingForReview {
		t.Fatalf("a refusal changed the run: %+v", r2)
	}

	st, body := do(t, ts.URL, http.MethodPut, "/release_pipeline_triggers/"+id+"/approve", `{"phaseID":"`+phase+`"}`)
	data, _ := body["data"].(map[string]any)
	if st != 200 || data["status"] != RunInProgress || data["currentPhaseEndTime"] == nil {
		t.Fatalf("approve: %d %v", st, body)
	}
	// Pause keeps the bake time left; unpause resumes it.
	s.AdvanceRunClock(30 * time.Minute)
	do(t, ts.URL, http.MethodPut, "/release_pipeline_triggers/"+id+"/pause", `{"phaseID":"`+phase+`"}`)
	s.AdvanceRunClock(10 * time.Hour)
	if r, _ := s.Run(id); r.Status != RunPaused || r.CurrentPhase != "Canary" {
		t.Fatalf("paused run moved: %+v", r)
	}
	do(t, ts.URL, http.MethodPut, "/release_pipeline_triggers/"+id+"/unpause", `{"phaseID":"`+phase+`"}`)
	s.AdvanceRunClock(29 * time.Minute)
	if r, _ := s.Run(id); r.CurrentPhase != "Canary" {
		t.Fatalf("moved before the bake time left: %+v", r)
	}
	s.AdvanceRunClock(2 * time.Minute)
	r, _ = s.Run(id)
	if r.CurrentPhase != "General availability" || r.Status != RunInProgress {
		t.Fatalf("after the bake: %+v", r)
	}
	// Skip moves on; at the last phase the run completes. Then everything is refused.
	if st, _ := do(t, ts.URL, http.MethodPut, "/release_pipeline_triggers/"+id+"/skip", `{"phaseID":"`+phase+`"}`); st != 400 {
		t.Fatalf("skip with the old phase: %d", st)
	}
	do(t, ts.URL, http.MethodPut, "/release_pipeline_triggers/"+id+"/skip", `{"phaseID":"`+r.CurrentPhaseID+`"}`)
	r, _ = s.Run(id)
	var types []string
	for _, a := range r.Actions {
		types = append(types, a.Type)
	}
	if r.Status != RunCompleted || strings.Join(types, ",") != "APPROVED_FOR,PAUSED,UNPAUSED,SKIPPED" {
		t.Fatalf("%+v", r)
	}
	for _, op := range []string{"abort", "rollout"} {
		if st, _ := do(t, ts.URL, http.MethodPut, "/release_pipeline_triggers/"+id+"/"+op, ""); st != 400 {
			t.Errorf("%s of a completed run: %d", op, st)
		}
	}
}

func TestRunsListFilters(t *testing.T) {
	s, ts := NewTestServer(t, Config{PageSizeCap: 2})
	a, _ := s.StartRun("pl_web", "new_checkout")
	b, _ := s.StartRun("pl_mobile", "dark_mode")
	c, _ := s.StartRun("pl_mobile", "")
	_ = s.SetRun(c, RunAborted, "", nil)
	for q, want := range map[string]int{
		"":                                   3,
		"?releasePipelineID=pl_mobile":       2,
		"?gateID=new_checkout":               1,
		"?status=ABORTED&status=PAUSED":      1,
		"?status=IN_PROGRESS&gateID=nope":    0,
		"?status=WAITING_FOR_REVIEW&limit=1": 1,
	} {
		var n int
		next := "/release_pipeline_triggers" + q
		for next != "" {
			st, body := do(t, ts.URL, http.MethodGet, next, "")
			if st != 200 {
				t.Fatalf("%s: %d", next, st)
			}
			n += len(body["data"].([]any))
			next = ""
			if p, _ := body["pagination"].(map[string]any)["nextPage"].(string); p != "" {
				next = strings.TrimPrefix(p, basePath)
			}
		}
		if n != want {
			t.Errorf("%q: %d runs, want %d", q, n, want)
		}
	}
	if st, _ := do(t, ts.URL, http.MethodGet, "/release_pipeline_triggers?status=RUNNING", ""); st != 400 {
		t.Errorf("unknown status: %d", st)
	}
	if st, body := do(t, ts.URL, http.MethodGet, "/release_pipeline_triggers/"+b, ""); st != 200 || body["data"].(map[string]any)["gateID"] != "dark_mode" {
		t.Errorf("read: %d %v", st, body)
	}
	_ = a
}
