// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

const ctaGroups = `[{"name":"Control","size":50,"parameterValues":{"color":"grey"}},{"name":"Green","size":50,"parameterValues":{"color":"green"}}]`

// ctaExperiment is a create body with the groups given.
func ctaExperiment(groups string) string {
	return `{"id":"checkout_cta","name":"Checkout CTA","groups":` + groups +
		`,"primaryMetrics":[{"name":"purchase","type":"event_count","direction":"increase"}]}`
}

// newCTA is a server holding the experiment checkout_cta in setup, made through the API.
func newCTA(t *testing.T) (*Server, *httptest.Server) {
	t.Helper()
	s, ts := NewTestServer(t, Config{NoSeed: true})
	if st, b := do(t, ts.URL, http.MethodPost, "/experiments", ctaExperiment(ctaGroups)); st != http.StatusCreated {
		t.Fatalf("create: %d %v", st, b)
	}
	return s, ts
}

// wantRefused sends a write and wants the service's 400 with words containing want.
func wantRefused(t *testing.T, url, method, path, body, want string) {
	t.Helper()
	st, b := do(t, url, method, path, body)
	if msg, _ := b["message"].(string); st != http.StatusBadRequest || !strings.Contains(msg, want) {
		t.Errorf("%s %s %s: %d %q, want 400 with %q", method, path, body, st, msg, want)
	}
}

// TestExperimentCreate: POST /experiments: the service makes group ids, the control group is the first
// when not sent, its defaults fill in the rest, and it refuses what the service refuses.
func TestExperimentCreate(t *testing.T) {
	s, ts := NewTestServer(t, Config{NoSeed: true})
	for _, c := range []struct{ body, want string }{
		{ctaExperiment(`[{"name":"Control","size":100,"parameterValues":{}}]`), "at least two groups"},
		{ctaExperiment(`[{"name":"A","size":50,"parameterValues":{}},{"name":"B","size":49.99,"parameterValues":{}}]`), "sum to 100, not 99.99"},
		{ctaExperiment(`[{"name":"A","size":50,"parameterValues":{}},{"name":"A","size":50,"parameterValues":{}}]`), `groups[1].name "A" is used`},
		{ctaExperiment(`[{"name":"A","size":50,"parameterValues":[1]},{"name":"B","size":50,"parameterValues":{}}]`), "groups[0].parameterValues must be a JSON object"},
		{`{"id":"x_1","name":"X","groups":` + ctaGroups + `,"allocation":101}`, "allocation must be between 0 and 100"},
		{`{"id":"x_1","name":"X","groups":` + ctaGroups + `,"status":"decision_made"}`, "status must be setup or active"},
		{`{"id":"x_1","name":"X","groups":` + ctaGroups + `,"controlGroupID":"g"}`, "is not a group"},
		{`{"id":"x_1","name":"X","groups":` + ctaGroups + `,"analyticsType":"magic"}`, "analyticsType must be one of"},
		{`{"id":"x_1","name":"X","groups":` + ctaGroups + `,"defaultConfidenceInterval":"50"}`, "defaultConfidenceInterval"},
		{`{"id":"x_1","name":"X","groups":` + ctaGroups + `,"targetingGateID":"nope"}`, `Gate "nope" not found`},
		{`{"id":"x_1","groups":` + ctaGroups + `}`, "name is required"},
		{`{"id":"x","name":"X","groups":` + ctaGroups + `}`, "id must be 3 to 100"},
	} {
		wantRefused(t, ts.URL, http.MethodPost, "/experiments", c.body, c.want)
	}
	if ids := s.ExperimentIDs(); len(ids) != 0 {
		t.Fatalf("refused creates stored %v", ids)
	}
	st, b := do(t, ts.URL, http.MethodPost, "/experiments", ctaExperiment(ctaGroups))
	if st != http.StatusCreated {
		t.Fatalf("create: %d %v", st, b)
	}
	e, _ := s.Experiment("checkout_cta")
	if e.Status != ExperimentSetup || len(e.Groups) != 2 || e.Groups[0].ID == "" || e.Groups[0].ID == e.Groups[1].ID ||
		e.ControlGroupID != e.Groups[0].ID || e.Allocation != 100 || e.IDType != "userID" || e.AnalyticsType != "frequentist" ||
		e.Duration != 14 || e.DefaultConfidenceInterval != "95" || e.StartTime != 0 || e.CreatorName == "" {
		t.Errorf("stored %+v", e)
	}
	wantRefused(t, ts.URL, http.MethodPost, "/experiments", ctaExperiment(ctaGroups), "already exists")
	// Created active: started at once.
	if st, b := do(t, ts.URL, http.MethodPost, "/experiments", `{"id":"live_one","name":"Live","status":"active","groups":`+ctaGroups+`}`); st != 201 ||
		b["data"].(map[string]any)["status"] != "active" || b["data"].(map[string]any)["startTime"].(float64) == 0 {
		t.Errorf("created active: %d %v", st, b)
	}
	if st, b := do(t, ts.URL, http.MethodGet, "/experiments?status=active", ""); st != 200 || len(b["data"].([]any)) != 1 {
		t.Errorf("list by status: %d %v", st, b)
	}
}

// TestExperimentPatch: PATCH /experiments/{id}: own fields change, group ids are kept by name, a PATCH never moves
// the status, and an active experiment's groups (matched by name: order and descriptions aside),
// idType and analyticsType are frozen, and its allocation cannot decrease.
func TestExperimentPatch(t *testing.T) {
	s, ts := newCTA(t)
	before, _ := s.Experiment("checkout_cta")
	green := before.Groups[1].ID
	// Groups reordered and resized in setup: ids follow the names; the control group is sent by id.
	groups := `[{"name":"Green","size":40,"parameterValues":{"color":"green"}},{"name":"Control","size":30,"parameterValues":{"color":"grey"}},` +
		`{"name":"Blue","size":30,"parameterValues":{"color":"blue"}}]`
	if st, b := do(t, ts.URL, http.MethodPatch, "/experiments/checkout_cta", `{"groups":`+groups+`,"controlGroupID":"`+before.Groups[0].ID+`","allocation":20.5}`); st != 200 {
		t.Fatalf("patch: %d %v", st, b)
	}
	e, _ := s.Experiment("checkout_cta")
	if e.Groups[0].ID != green || e.Groups[1].ID != before.Groups[0].ID || e.Groups[2].ID == "" || e.ControlGroupID != before.Groups[0].ID || e.Allocation != 20.5 {
		t.Errorf("patched %+v", e)
	}
	wantRefused(t, ts.URL, http.MethodPatch, "/experiments/checkout_cta", `{"status":"active"}`, "status cannot be changed here")
	if e, _ := s.Experiment("checkout_cta"); e.Status != ExperimentSetup {
		t.Fatalf("a PATCH moved the status to %s", e.Status)
	}
	if st, _ := do(t, ts.URL, http.MethodPut, "/experiments/checkout_cta/start", ""); st != 200 {
		t.Fatalf("start: %d", st)
	}
	for _, body := range []string{
		`{"groups":[{"name":"Green","size":50,"parameterValues":{"color":"green"}},{"name":"Control","size":50,"parameterValues":{"color":"grey"}}]}`,
		`{"groups":` + strings.Replace(groups, `"blue"`, `"navy"`, 1) + `}`,
	} {
		wantRefused(t, ts.URL, http.MethodPatch, "/experiments/checkout_cta", body, `Experiment "checkout_cta" is active: you can't edit the groups without restarting the experiment`)
	}
	wantRefused(t, ts.URL, http.MethodPatch, "/experiments/checkout_cta", `{"idType":"stableID"}`, "idType cannot change")
	wantRefused(t, ts.URL, http.MethodPatch, "/experiments/checkout_cta", `{"analyticsType":"bayesian"}`, "analyticsType cannot change")
	// The same groups written again (values in another key order), and allocation, metrics and texts change.
	same := strings.Replace(groups, `{"color":"blue"}`, `{ "color" : "blue" }`, 1)
	if st, b := do(t, ts.URL, http.MethodPatch, "/experiments/checkout_cta", `{"groups":`+same+`,"allocation":50,"description":"d","primaryMetrics":[]}`); st != 200 {
		t.Fatalf("patch while active: %d %v", st, b)
	}
	if e, _ := s.Experiment("checkout_cta"); e.Allocation != 50 || e.Description != "d" || len(e.PrimaryMetrics) != 0 || e.Status != ExperimentActive {
		t.Errorf("patched while active %+v", e)
	}
	// The allocation of an active experiment rises, never decreases (but by a reset).
	wantRefused(t, ts.URL, http.MethodPatch, "/experiments/checkout_cta", `{"allocation":49.99}`, "its allocation cannot decrease without a reset")
	// Groups are matched by name: reordered, a description changed, while active.
	reordered := `[{"name":"Blue","size":30,"parameterValues":{"color":"blue"},"description":"Blue button"},` +
		`{"name":"Green","size":40,"parameterValues":{"color":"green"}},{"name":"Control","size":30,"parameterValues":{"color":"grey"}}]`
	if st, b := do(t, ts.URL, http.MethodPatch, "/experiments/checkout_cta", `{"groups":`+reordered+`}`); st != 200 {
		t.Fatalf("reorder while active: %d %v", st, b)
	}
	if e, _ := s.Experiment("checkout_cta"); e.Groups[0].Name != "Blue" || e.Groups[0].Description != "Blue button" || e.Groups[1].ID != green {
		t.Errorf("reordered while active %+v", e.Groups)
	}
}

// TestExperimentMoves: the moves under /experiments/{id} allow only the service's moves.
func TestExperimentMoves(t *testing.T) {
	s, ts := newCTA(t)
	e, _ := s.Experiment("checkout_cta")
	green := e.Groups[1].ID
	decide := `{"id":"` + green + `","decisionReason":"Green sells"}`
	path := "/experiments/checkout_cta/"
	wantRefused(t, ts.URL, http.MethodPut, path+"make_decision", decide, "Experiment has not yet started")
	wantRefused(t, ts.URL, http.MethodGet, path+"pulse_results?control="+e.Groups[0].ID+"&test="+green, "", "Experiment has not yet started")
	if st, _ := do(t, ts.URL, http.MethodPut, path+"start", ""); st != 200 {
		t.Fatalf("start: %d", st)
	}
	wantRefused(t, ts.URL, http.MethodPut, path+"start", "", "has already started")
	wantRefused(t, ts.URL, http.MethodPut, path+"make_decision", `{"id":"`+green+`"}`, "decisionReason are required")
	wantRefused(t, ts.URL, http.MethodPut, path+"make_decision", `{"id":"nope","decisionReason":"r"}`, "is not a group")
	if st, b := do(t, ts.URL, http.MethodPut, path+"make_decision", decide); st != 200 {
		t.Fatalf("decide: %d %v", st, b)
	}
	e, _ = s.Experiment("checkout_cta")
	if e.Status != ExperimentDecisionMade || e.LaunchedGroupID != green || e.DecisionReason != "Green sells" || e.DecisionTime == 0 || e.EndTime == 0 {
		t.Errorf("decided %+v", e)
	}
	wantRefused(t, ts.URL, http.MethodPut, path+"start", "", "has already started")
	wantRefused(t, ts.URL, http.MethodPut, path+"abandon", `{"decisionReason":"r"}`, "only an experiment in setup, active or experiment_stopped")
	// Archive and unarchive put back the status it had; an archived experiment refuses writes.
	if st, _ := do(t, ts.URL, http.MethodPut, path+"archive", `{"archiveReason":"done"}`); st != 200 {
		t.Fatalf("archive: %d", st)
	}
	wantRefused(t, ts.URL, http.MethodPatch, "/experiments/checkout_cta", `{"description":"x"}`, "is archived")
	if st, _ := do(t, ts.URL, http.MethodPut, path+"unarchive", ""); st != 200 {
		t.Fatalf("unarchive: %d", st)
	}
	if e, _ := s.Experiment("checkout_cta"); e.Status != ExperimentDecisionMade {
		t.Errorf("unarchived to %s", e.Status)
	}
	// Abandon from setup; console moves through the test API say why they cannot be made.
	if st, _ := do(t, ts.URL, http.MethodPost, "/experiments", `{"id":"other","name":"Other","groups":`+ctaGroups+`}`); st != 201 {
		t.Fatal("create other")
	}
	if err := s.DecideExperiment("other", "Green", "r"); err == nil || !strings.Contains(err.Error(), "not yet started") {
		t.Errorf("console decision from setup: %v", err)
	}
	wantRefused(t, ts.URL, http.MethodPut, "/experiments/other/abandon", `{}`, "decisionReason is required")
	if err := s.AbandonExperiment("other", "no traffic"); err != nil {
		t.Fatal(err)
	}
	if o, _ := s.Experiment("other"); o.Status != ExperimentAbandoned || o.LastModifierName != "Console User" {
		t.Errorf("abandoned %+v", o)
	}
	// Reset puts a started experiment but a decided one back in setup, its run cleared; archive
	// follows a decision, an abandon or a reset, never a running experiment.
	wantRefused(t, ts.URL, http.MethodPut, path+"reset", "", "is decision_made and cannot be reset")
	if st, _ := do(t, ts.URL, http.MethodPut, "/experiments/other/reset", ""); st != 200 {
		t.Fatalf("reset: %d", st)
	}
	if o, _ := s.Experiment("other"); o.Status != ExperimentSetup || o.DecisionReason != "" || o.EndTime != 0 {
		t.Errorf("reset %+v", o)
	}
	wantRefused(t, ts.URL, http.MethodPut, "/experiments/other/reset", "", "has not yet started")
	if st, _ := do(t, ts.URL, http.MethodPut, "/experiments/other/start", ""); st != 200 {
		t.Fatalf("start again: %d", st)
	}
	wantRefused(t, ts.URL, http.MethodPut, "/experiments/other/archive", `{}`, "an experiment is archived after a decision, an abandon or a reset")
	for _, id := range []string{"checkout_cta", "other"} {
		if st, _ := do(t, ts.URL, http.MethodDelete, "/experiments/"+id, ""); st != 200 {
			t.Errorf("delete %s: %d", id, st)
		}
	}
	if st, _ := do(t, ts.URL, http.MethodDelete, "/experiments/other", ""); st != 404 {
		t.Errorf("delete again: %d", st)
	}
}

// TestPulseResultsDeterministic: GET /experiments/{id}/pulse_results answers the same from read to read, derived from the ids;
// significance follows the interval, and a test can arrange a result.
func TestPulseResultsDeterministic(t *testing.T) {
	s, ts := NewTestServer(t, Config{NoSeed: true})
	if st, _ := do(t, ts.URL, http.MethodPost, "/experiments", `{"id":"checkout_cta","name":"CTA","status":"active","groups":`+ctaGroups+
		`,"primaryMetrics":[{"name":"purchase","type":"event_count","direction":"increase"}],"secondaryMetrics":[{"name":"refund","type":"event_count","direction":"decrease"}]}`); st != 201 {
		t.Fatal("create")
	}
	e, _ := s.Experiment("checkout_cta")
	q := "/experiments/checkout_cta/pulse_results?control=" + e.Groups[0].ID + "&test=" + e.Groups[1].ID
	_, first := do(t, ts.URL, http.MethodGet, q, "")
	_, again := do(t, ts.URL, http.MethodGet, q, "")
	if !reflect.DeepEqual(first, again) {
		t.Errorf("results changed between reads:\n%v\n%v", first, again)
	}
	res, err := s.PulseResult("checkout_cta", "Control", "Green", nil)
	if err != nil || len(res.PrimaryMetrics) != 1 || len(res.SecondaryMetrics) != 1 {
		t.Fatalf("got %+v, %v", res, err)
	}
	m := res.PrimaryMetrics[0]
	if m.MetricName != "purchase" || m.Directionality != "increase" || m.ControlUnits <= 0 || m.PercentConfidenceIntervalDelta <= 0 ||
		(m.PValue < 0.05) != (abs(m.PercentChange) > m.PercentConfidenceIntervalDelta) {
		t.Errorf("metric %+v", m)
	}
	if wide, _ := s.PulseResult("checkout_cta", "Control", "Green", url.Values{"confidence": {"99"}}); wide.PrimaryMetrics[0].PercentConfidenceIntervalDelta <= m.PercentConfidenceIntervalDelta {
		t.Errorf("a 99 %% interval is not wider: %+v", wide)
	}
	if err := s.SetPulseResult("checkout_cta", "Green", "purchase", 3.1, 1.2); err != nil {
		t.Fatal(err)
	}
	res, _ = s.PulseResult("checkout_cta", "Control", "Green", url.Values{"confidence": {"95"}})
	if m := res.PrimaryMetrics[0]; m.PercentChange != 3.1 || m.PercentConfidenceIntervalDelta != 1.2 || m.PValue >= 0.05 ||
		m.PercentSequentialTestingConfidenceIntervalDelta != nil {
		t.Errorf("arranged %+v", m)
	}
	wantRefused(t, ts.URL, http.MethodGet, "/experiments/checkout_cta/pulse_results?control=x&test=y", "", "must be groups of")
}

// TestPulseResultsAnalysis: the results honour the analysis asked for, as the service's console
// computes it: a higher confidence, a Bonferroni or Benjamini-Hochberg correction widen the
// interval, CUPED narrows it; an experiment with sequential testing on answers the wider sequential
// interval too; a confidence outside 80..99 is refused.
func TestPulseResultsAnalysis(t *testing.T) {
	s, ts := NewTestServer(t, Config{NoSeed: true})
	s.PutExperiment(Experiment{ID: "cta", Groups: []ExperimentGroup{{Name: "Control", Size: 34}, {Name: "Green", Size: 33}, {Name: "Blue", Size: 33}},
		PrimaryMetrics:   []ExperimentMetric{{Name: "purchase", Type: "event_count"}},
		SecondaryMetrics: []ExperimentMetric{{Name: "refund", Type: "event_count"}}, Allocation: 100})
	if err := s.StartExperiment("cta"); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		group, metric string
		change, ci    float64
	}{{"Green", "purchase", 3, 1}, {"Green", "refund", 1, 1.5}, {"Blue", "purchase", 5, 1}} {
		if err := s.SetPulseResult("cta", r.group, r.metric, r.change, r.ci); err != nil {
			t.Fatal(err)
		}
	}
	half := func(q url.Values, metric int) float64 {
		t.Helper()
		res, err := s.PulseResult("cta", "Control", "Green", q)
		if err != nil {
			t.Fatal(err)
		}
		return append(res.PrimaryMetrics, res.SecondaryMetrics...)[metric].PercentConfidenceIntervalDelta
	}
	at := func(alpha float64) float64 { return round4(zFor(1-alpha) * 1 / zFor(0.95)) }
	for name, c := range map[string]struct {
		q    url.Values
		want float64
	}{
		"plain":          {nil, 1},
		"99 %":           {url.Values{"confidence": {"99"}}, at(0.01)},
		"cuped":          {url.Values{"cuped": {"true"}}, round4(CUPEDNarrowing)},
		"cuped off":      {url.Values{"cuped": {"false"}}, 1},
		"per variant":    {url.Values{"applyBonferroniPerVariant": {"true"}}, at(0.05 / 2)},
		"per metric":     {url.Values{"applyBonferroniPerMetric": {"true"}}, at(0.05 / 2)},
		"both":           {url.Values{"applyBonferroniPerVariant": {"true"}, "applyBonferroniPerMetric": {"true"}}, at(0.05 / 4)},
		"BH per metric":  {url.Values{"applyBenjaminiHochbergPerMetric": {"true"}}, at(0.05 / 2)},  // purchase ranks 1st of 2
		"BH per variant": {url.Values{"applyBenjaminiHochbergPerVariant": {"true"}}, at(0.05 / 1)}, // Green ranks 2nd of 2
	} {
		if got := half(c.q, 0); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("%s: purchase ± %v, want %v", name, got, c.want)
		}
	}
	if got := half(url.Values{"applyBenjaminiHochbergPerMetric": {"true"}}, 1); got != 1.5 { // refund ranks 2nd of 2
		t.Errorf("BH per metric: refund ± %v, want 1.5", got)
	}
	e, _ := s.Experiment("cta")
	e.SequentialTesting = true
	s.PutExperiment(e)
	res, _ := s.PulseResult("cta", "Control", "Green", url.Values{"confidence": {"99"}})
	if m := res.PrimaryMetrics[0]; m.PercentSequentialTestingConfidenceIntervalDelta == nil ||
		math.Abs(*m.PercentSequentialTestingConfidenceIntervalDelta-m.PercentConfidenceIntervalDelta*SequentialWidening) > 1e-3 {
		t.Errorf("sequential %+v", m)
	}
	wantRefused(t, ts.URL, http.MethodGet, "/experiments/cta/pulse_results?control="+e.Groups[0].ID+"&test="+e.Groups[1].ID+"&confidence=70", "",
		"confidence must be one of 80 to 99")
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// TestExperimentParameterValuesKeptUnderHabits: a group's parameter values are the user's JSON, which
// the service returns as written even where it adds its own fields to its objects (ExtraFields).
func TestExperimentParameterValuesKeptUnderHabits(t *testing.T) {
	s, ts := newCTA(t)
	s.SetHabits(Habits{ExtraFields: true, NumberForms: true})
	_, b := do(t, ts.URL, http.MethodGet, "/experiments/checkout_cta", "")
	data, _ := b["data"].(map[string]any)
	groups, _ := data["groups"].([]any)
	if len(groups) != 2 {
		t.Fatalf("groups: %v", b)
	}
	g, _ := groups[0].(map[string]any)
	if _, added := g["updatedTime"]; !added {
		t.Errorf("the habit added nothing to the group: %v", g)
	}
	if pv := g["parameterValues"]; !reflect.DeepEqual(pv, map[string]any{"color": "grey"}) {
		t.Errorf("parameterValues %v, want them as written", pv)
	}
}

// TestExperimentReviews: with the habit Reviews, a change of an experiment's fields sent with
// x-respect-review-settings is held: the experiment answers as it stands, with its activeReview;
// once approved (ReviewCommits) the review is committed through PUT .../reviews/{id}/commit.
func TestExperimentReviews(t *testing.T) {
	s, ts := newCTA(t)
	s.SetHabits(Habits{Reviews: true, ReviewCommits: true})
	req, _ := http.NewRequest(http.MethodPatch, ts.URL+basePath+"/experiments/checkout_cta", strings.NewReader(`{"description":"reviewed"}`))
	req.Header.Set(apiKeyHeader, DefaultAPIKey)
	req.Header.Set(reviewHeader, "true")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if e, _ := s.Experiment("checkout_cta"); e.Description == "reviewed" {
		t.Fatal("a change held for review was applied")
	}
	_, got := do(t, ts.URL, http.MethodGet, "/experiments/checkout_cta", "")
	if data, _ := got["data"].(map[string]any); data["activeReview"] == nil {
		t.Errorf("the experiment read shows no activeReview: %v", got)
	}
	reviews := s.PendingReviews()
	if len(reviews) != 1 || reviews[0].Kind != reviewKindExperiment {
		t.Fatalf("reviews %+v", reviews)
	}
	if err := s.ApproveReview(reviews[0].ID); err != nil {
		t.Fatal(err)
	}
	if st, _ := do(t, ts.URL, http.MethodPut, "/experiments/checkout_cta/reviews/"+reviews[0].ID+"/commit", ""); st != 200 {
		t.Fatalf("commit: %d", st)
	}
	if e, _ := s.Experiment("checkout_cta"); e.Description != "reviewed" {
		t.Errorf("the committed review left %q", e.Description)
	}
}
