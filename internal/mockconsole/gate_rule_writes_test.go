// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func ruleNames(g Gate) string {
	var n []string
	for _, r := range g.Rules {
		n = append(n, r.Name)
	}
	return strings.Join(n, ",")
}

// A write of the rules of a gate attached to a pipeline starts a run, which locks the gate until
// it ends; an abort puts back the rules the gate had before the write.
func TestGateRulesAttachedToPipeline(t *testing.T) {
	s, ts := NewTestServer(t, Config{})
	s.SetRunSpeed(0)
	g, _ := s.Gate("new_checkout")
	before := ruleNames(g)
	g.ReleasePipelineID = "pl_web"
	s.PutGate(g)

	// Writing what the gate holds starts nothing.
	st, _ := do(t, ts.URL, http.MethodPatch, "/gates/new_checkout/rules", `{"rules":[`+rulesJSON(g)+`]}`)
	if st != 200 || len(s.runs) != 0 {
		t.Fatalf("unchanged write: %d, %d runs", st, len(s.runs))
	}
	st, body := do(t, ts.URL, http.MethodPatch, "/gates/new_checkout/rules", `{"rules":[{"name":"all","passPercentage":5}]}`)
	if st != 200 {
		t.Fatalf("write: %d %v", st, body)
	}
	if got, _ := s.Gate("new_checkout"); ruleNames(got) != "all" {
		t.Fatalf("the answer carries the new rules: %s", ruleNames(got))
	}
	_, list := do(t, ts.URL, http.MethodGet, "/release_pipeline_triggers?gateID=new_checkout&status=WAITING_FOR_REVIEW", "")
	runs, _ := list["data"].([]any)
	if len(runs) != 1 {
		t.Fatalf("runs: %v", list)
	}
	runID := runs[0].(map[string]any)["id"].(string)

	st, body = do(t, ts.URL, http.MethodPatch, "/gates/new_checkout/rules", `{"rules":[]}`)
	if st != 400 || !strings.Contains(body["message"].(string), runID) {
		t.Fatalf("write during the run: %d %v", st, body)
	}
	if st, _ := do(t, ts.URL, http.MethodPut, "/release_pipeline_triggers/"+runID+"/abort", ""); st != 200 {
		t.Fatalf("abort: %d", st)
	}
	if got, _ := s.Gate("new_checkout"); ruleNames(got) != before {
		t.Fatalf("abort left %s, want %s", ruleNames(got), before)
	}
	// Ended: writes go through again, and start another run.
	if st, _ := do(t, ts.URL, http.MethodPatch, "/gates/new_checkout/rules", `{"rules":[]}`); st != 200 || len(s.runs) != 2 {
		t.Fatalf("write after the abort: %d, %d runs", st, len(s.runs))
	}
	if err := s.SetRun(runs[0].(map[string]any)["id"].(string), RunCompleted, "", nil); err != nil {
		t.Fatal(err)
	}
}

func rulesJSON(g Gate) string {
	var parts []string
	for _, r := range g.Rules {
		parts = append(parts, string(marshal(map[string]any{"name": r.Name, "baseID": r.BaseID, "id": r.ID,
			"passPercentage": r.PassPercentage, "conditions": r.Conditions, "environments": r.Environments, "returnValue": r.ReturnValue})))
	}
	return strings.Join(parts, ",")
}

func TestGateRulesRefusedFields(t *testing.T) {
	_, ts := NewTestServer(t, Config{})
	for _, body := range []string{
		`{"rules":[{"name":"a","passPercentage":1,"id":""}]}`,
		`{"rules":[{"name":"a","passPercentage":1,"baseID":""}]}`,
		`{"rules":[{"name":"a","passPercentage":1,"pendingAutomatedRollouts":[]}]}`,
		`{"rules":[{"name":"a","passPercentage":1,"completedAutomatedRollouts":null}]}`,
	} {
		if st, _ := do(t, ts.URL, http.MethodPatch, "/gates/new_checkout/rules", body); st != 400 {
			t.Errorf("%s: %d, want 400", body, st)
		}
	}
}

func TestPartialRuleWrites(t *testing.T) {
	s, ts := NewTestServer(t, Config{})
	s.SetHabits(Habits{PartialRuleWrites: true})
	g, _ := s.Gate("new_checkout")
	if len(g.Rules) < 2 {
		t.Fatal("the seed gate has fewer than two rules")
	}
	first := g.Rules[0]
	write := `{"rules":[{"name":"` + first.Name + `","baseID":"` + first.BaseID + `","passPercentage":7},{"name":"added","passPercentage":1}]}`
	// A gate of a current service version takes the write as it is.
	if st, _ := do(t, ts.URL, http.MethodPatch, "/gates/new_checkout/rules", write); st != 200 {
		t.Fatal(st)
	}
	if got, _ := s.Gate("new_checkout"); ruleNames(got) != first.Name+",added" {
		t.Fatalf("current version: %s", ruleNames(got))
	}
	s.PutGate(g)
	if err := s.ServeOldRuleWrites("new_checkout", true); err != nil {
		t.Fatal(err)
	}
	if st, _ := do(t, ts.URL, http.MethodPatch, "/gates/new_checkout/rules", write); st != 200 {
		t.Fatal(st)
	}
	got, _ := s.Gate("new_checkout")
	if ruleNames(got) != ruleNames(g) || got.Rules[0].PassPercentage != 7 || got.Rules[1].PassPercentage != g.Rules[1].PassPercentage {
		t.Fatalf("old version: %+v", got.Rules)
	}
}

func TestScheduledRollouts(t *testing.T) {
	s, c := newClient(t, Config{})
	s.SetHabits(Habits{ScheduledRollouts: true})
	s.SetRunSpeed(0)
	g, _ := s.Gate("new_checkout")
	name := g.Rules[0].Name
	at := s.RunClock().Add(time.Hour).UnixMilli()
	if err := s.ScheduleRollouts("new_checkout", name, AutomatedRollout{Time: at + 1000, PassPercent: 60}, AutomatedRollout{Time: at, PassPercent: 30}); err != nil {
		t.Fatal(err)
	}
	_, _, body := raw(t, c, "GET", "/gates/new_checkout", "")
	if !strings.Contains(body, `"pendingAutomatedRollouts":[{"passPercent":30,`) || !strings.Contains(body, `"completedAutomatedRollouts":[]`) {
		t.Fatalf("schedule not shown: %s", body)
	}
	s.AdvanceRunClock(time.Hour)
	got, _ := s.Gate("new_checkout")
	r := got.Rules[0]
	if r.PassPercentage != 30 || len(r.PendingAutomatedRollouts) != 1 || len(r.CompletedAutomatedRollouts) != 1 || r.ID == g.Rules[0].ID {
		t.Fatalf("after the first step: %+v", r)
	}
	// A write keeps the schedule of a rule it keeps.
	if st, _, b := raw(t, c, "PATCH", "/gates/new_checkout/rules", `{"rules":[{"name":"`+name+`","baseID":"`+r.BaseID+`","passPercentage":31}]}`); st != 200 {
		t.Fatal(st, b)
	}
	s.AdvanceRunClock(time.Second)
	if got, _ := s.Gate("new_checkout"); got.Rules[0].PassPercentage != 60 || len(got.Rules[0].CompletedAutomatedRollouts) != 2 {
		t.Fatalf("after the second step: %+v", got.Rules[0])
	}
}

// An aborted run puts back the rules the gate had before the write that started it, and a baseID
// of a rule it took away, sent back, is not kept (the live service gives a new one: issue 31); a
// run outlives its gate and, until it ends, keeps its pipeline from being deleted.
func TestGateRulesAbortedRunBaseIDsAndDeletedGate(t *testing.T) {
	s, ts := NewTestServer(t, Config{})
	s.SetRunSpeed(0)
	s.PutPipeline(Pipeline{ID: "pl_x", Name: "X", Phases: []Phase{{ID: "ph_1", Name: "One", TimeIntervalMs: 3600000}}})
	s.PutGate(Gate{ID: "g_x", ReleasePipelineID: "pl_x", Rules: []Rule{{Name: "old", PassPercentage: 1}}})
	before, _ := s.Gate("g_x")
	if st, _ := do(t, ts.URL, http.MethodPatch, "/gates/g_x/rules", `{"rules":[{"name":"all","passPercentage":5}]}`); st != 200 {
		t.Fatalf("write: %d", st)
	}
	g, _ := s.Gate("g_x")
	baseID := g.Rules[0].BaseID
	run := s.GateRuns("g_x")[0]
	if st, _ := do(t, ts.URL, http.MethodPut, "/release_pipeline_triggers/"+run+"/abort", ""); st != 200 {
		t.Fatalf("abort: %d", st)
	}
	if g, _ := s.Gate("g_x"); len(g.Rules) != 1 || g.Rules[0].BaseID != before.Rules[0].BaseID || g.Rules[0].ID != before.Rules[0].ID {
		t.Fatalf("the abort did not put back %+v: %+v", before.Rules, g.Rules)
	}
	if st, _ := do(t, ts.URL, http.MethodPatch, "/gates/g_x/rules", `{"rules":[{"name":"all","baseID":"`+baseID+`","passPercentage":10}]}`); st != 200 {
		t.Fatalf("write after the abort: %d", st)
	}
	if g, _ := s.Gate("g_x"); len(g.Rules) != 1 || g.Rules[0].BaseID == baseID || g.Rules[0].BaseID == "" {
		t.Fatalf("the baseID %q of a rule the abort took away was kept: %+v", baseID, g.Rules)
	}
	if st, _ := do(t, ts.URL, http.MethodDelete, "/gates/g_x", ""); st != 200 {
		t.Fatalf("delete gate during its run: %d", st)
	}
	run = s.GateRuns("g_x")[0]
	if st, body := do(t, ts.URL, http.MethodDelete, "/release_pipelines/pl_x", ""); st != 400 || !strings.Contains(body["message"].(string), run) {
		t.Fatalf("delete pipeline during a run of a deleted gate: %d %v", st, body)
	}
	if st, _ := do(t, ts.URL, http.MethodPut, "/release_pipeline_triggers/"+run+"/abort", ""); st != 200 {
		t.Fatalf("abort the run of a deleted gate: %d", st)
	}
	if st, _ := do(t, ts.URL, http.MethodDelete, "/release_pipelines/pl_x", ""); st != 200 {
		t.Fatalf("delete pipeline after the run: %d", st)
	}
}

// A gate marked runless takes a write of its rules at once and starts no run of its pipeline
// (the live service); unmarked, the same write starts one.
func TestGateRulesRunlessWrites(t *testing.T) {
	s, ts := NewTestServer(t, Config{})
	s.SetRunSpeed(0)
	s.PutPipeline(Pipeline{ID: "pl_x", Name: "X", Phases: []Phase{{ID: "ph_1", Name: "One", TimeIntervalMs: 3600000}}})
	s.PutGate(Gate{ID: "g_x", ReleasePipelineID: "pl_x"})
	if err := s.ServeRunlessRuleWrites("g_x", true); err != nil {
		t.Fatal(err)
	}
	for _, pct := range []string{"5", "10"} { // no run locks the second write either
		if st, body := do(t, ts.URL, http.MethodPatch, "/gates/g_x/rules", `{"rules":[{"name":"all","passPercentage":`+pct+`}]}`); st != 200 {
			t.Fatalf("runless write: %d %v", st, body)
		}
	}
	if g, _ := s.Gate("g_x"); len(g.Rules) != 1 || g.Rules[0].PassPercentage != 10 || len(s.GateRuns("g_x")) != 0 {
		t.Fatalf("runless writes: rules %+v, runs %v", g.Rules, s.GateRuns("g_x"))
	}
	if err := s.ServeRunlessRuleWrites("g_x", false); err != nil {
		t.Fatal(err)
	}
	if st, _ := do(t, ts.URL, http.MethodPatch, "/gates/g_x/rules", `{"rules":[{"name":"all","passPercentage":20}]}`); st != 200 {
		t.Fatalf("write: %d", st)
	}
	if len(s.GateRuns("g_x")) != 1 {
		t.Fatalf("a write to a gate no longer runless started runs %v, want one", s.GateRuns("g_x"))
	}
}
