// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestExperimentWire checks an experiment's writes and moves on the wire: methods, escaped paths and bodies (a create
// carries the id, an update only the fields set and never a status, each move its own endpoint and
// body), and that answers without a body are completed by a read.
func TestExperimentWire(t *testing.T) {
	exp := `{"id":"e 1","name":"E","status":"active","groups":[{"id":"g1","name":"Control","size":50,"parameterValues":{}},` +
		`{"id":"g2","name":"Green","size":"50.0","parameterValues":"{\"c\":1}"}],"controlGroupID":"g1","allocation":20}`
	name, alloc := "E", 12.5
	groups := []ExperimentGroup{{Name: "Control", Size: 50, ParameterValues: JSONObject(`{"c":0}`)}, {Name: "Green", Size: 50, ParameterValues: JSONObject(`{"c":1}`)}}
	cases := []struct {
		name       string
		call       func(context.Context, *Client) (*Experiment, error)
		replies    []reply
		method     string
		path, body string
		requests   int
	}{
		{"create", func(ctx context.Context, c *Client) (*Experiment, error) {
			return c.CreateExperiment(ctx, ExperimentFields{ID: "e 1", Name: &name, Groups: &groups})
		}, []reply{{Status: 201, Body: `{"message":"created","data":` + exp + `}`}}, http.MethodPost, "/console/v1/experiments",
			`{"id":"e 1","name":"E","groups":[{"name":"Control","size":50,"parameterValues":{"c":0}},{"name":"Green","size":50,"parameterValues":{"c":1}}]}`, 1},
		{"create answered without a body", func(ctx context.Context, c *Client) (*Experiment, error) {
			return c.CreateExperiment(ctx, ExperimentFields{ID: "e 1"})
		}, []reply{{Status: 201}, ok(exp)}, http.MethodPost, "/console/v1/experiments", `{"id":"e 1"}`, 2},
		{"update own fields", func(ctx context.Context, c *Client) (*Experiment, error) {
			return c.UpdateExperiment(ctx, "e 1", ExperimentFields{ID: "ignored", Allocation: &alloc})
		}, []reply{ok(exp)}, http.MethodPatch, "/console/v1/experiments/e%201", `{"allocation":12.5}`, 1},
		{"update removes the targeting gate with null", func(ctx context.Context, c *Client) (*Experiment, error) {
			return c.UpdateExperiment(ctx, "e 1", ExperimentFields{TargetingGateID: Unlinked()})
		}, []reply{ok(exp)}, http.MethodPatch, "/console/v1/experiments/e%201", `{"targetingGateID":null}`, 1},
		// The document requires a body of start (every field optional): {} is sent.
		{"start", func(ctx context.Context, c *Client) (*Experiment, error) { return c.StartExperiment(ctx, "e 1") },
			[]reply{ok(exp)}, http.MethodPut, "/console/v1/experiments/e%201/start", `{}`, 1},
		{"start answered without a body", func(ctx context.Context, c *Client) (*Experiment, error) { return c.StartExperiment(ctx, "e 1") },
			[]reply{{Status: 200}, ok(exp)}, http.MethodPut, "/console/v1/experiments/e%201/start", `{}`, 2},
		{"start answered by a message", func(ctx context.Context, c *Client) (*Experiment, error) { return c.StartExperiment(ctx, "e 1") },
			[]reply{{Status: 200, Body: `{"message":"Experiment successfully started."}`}, ok(exp)}, http.MethodPut, "/console/v1/experiments/e%201/start", `{}`, 2},
		{"decision answered by a message", func(ctx context.Context, c *Client) (*Experiment, error) {
			return c.MakeExperimentDecision(ctx, "e 1", "g2", "Green wins", false)
		}, []reply{{Status: 200, Body: `{"message":"Decision made for Experiment."}`}, ok(exp)}, http.MethodPut,
			"/console/v1/experiments/e%201/make_decision", `{"id":"g2","decisionReason":"Green wins","removeTargeting":false}`, 2},
		{"abandon answered by a message", func(ctx context.Context, c *Client) (*Experiment, error) {
			return c.AbandonExperiment(ctx, "e 1", "no traffic")
		}, []reply{{Status: 200, Body: `{"message":"Experiment successfully abandoned."}`}, ok(exp)}, http.MethodPut,
			"/console/v1/experiments/e%201/abandon", `{"decisionReason":"no traffic"}`, 2},
		{"archive answered by a message", func(ctx context.Context, c *Client) (*Experiment, error) { return c.ArchiveExperiment(ctx, "e 1", "") },
			[]reply{{Status: 200, Body: `{"message":"Experiment successfully archived."}`}, ok(exp)}, http.MethodPut, "/console/v1/experiments/e%201/archive", `{}`, 2},
		{"unarchive answered by a message", func(ctx context.Context, c *Client) (*Experiment, error) { return c.UnarchiveExperiment(ctx, "e 1") },
			[]reply{{Status: 200, Body: `{"message":"Experiment successfully unarchived."}`}, ok(exp)}, http.MethodPut, "/console/v1/experiments/e%201/unarchive", ``, 2},
		{"reset answered by a message", func(ctx context.Context, c *Client) (*Experiment, error) { return c.ResetExperiment(ctx, "e 1") },
			[]reply{{Status: 200, Body: `{"message":"Experiment successfully restarted."}`}, ok(exp)}, http.MethodPut, "/console/v1/experiments/e%201/reset", ``, 2},
		{"decision", func(ctx context.Context, c *Client) (*Experiment, error) {
			return c.MakeExperimentDecision(ctx, "e 1", "g2", "Green wins", false)
		}, []reply{ok(exp)}, http.MethodPut, "/console/v1/experiments/e%201/make_decision", `{"id":"g2","decisionReason":"Green wins","removeTargeting":false}`, 1},
		{"decision removing the targeting", func(ctx context.Context, c *Client) (*Experiment, error) {
			return c.MakeExperimentDecision(ctx, "e 1", "g2", "Green wins", true)
		}, []reply{ok(exp)}, http.MethodPut, "/console/v1/experiments/e%201/make_decision", `{"id":"g2","decisionReason":"Green wins","removeTargeting":true}`, 1},
		{"abandon", func(ctx context.Context, c *Client) (*Experiment, error) {
			return c.AbandonExperiment(ctx, "e 1", "no traffic")
		},
			[]reply{ok(exp)}, http.MethodPut, "/console/v1/experiments/e%201/abandon", `{"decisionReason":"no traffic"}`, 1},
		{"archive", func(ctx context.Context, c *Client) (*Experiment, error) { return c.ArchiveExperiment(ctx, "e 1", "") },
			[]reply{ok(exp)}, http.MethodPut, "/console/v1/experiments/e%201/archive", `{}`, 1},
		{"unarchive", func(ctx context.Context, c *Client) (*Experiment, error) { return c.UnarchiveExperiment(ctx, "e 1") },
			[]reply{ok(exp)}, http.MethodPut, "/console/v1/experiments/e%201/unarchive", ``, 1},
		{"disable groups", func(ctx context.Context, c *Client) (*Experiment, error) {
			return c.SetExperimentGroupsDisabled(ctx, "e 1", []string{"Green"}, true)
		}, []reply{ok(exp)}, http.MethodPost, "/console/v1/experiments/e%201/disable_groups", `{"group_names":["Green"]}`, 1},
		{"enable groups", func(ctx context.Context, c *Client) (*Experiment, error) {
			return c.SetExperimentGroupsDisabled(ctx, "e 1", []string{"Green"}, false)
		}, []reply{ok(exp)}, http.MethodPost, "/console/v1/experiments/e%201/enable_groups", `{"group_names":["Green"]}`, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, script(tc.replies...))
			e, err := tc.call(context.Background(), f.client())
			if err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			if len(reqs) != tc.requests || reqs[0].Method != tc.method || reqs[0].Path != tc.path || reqs[0].Body != tc.body {
				t.Fatalf("sent %+v", reqs)
			}
			if tc.requests > 1 && (reqs[1].Method != http.MethodGet || reqs[1].Path != "/console/v1/experiments/e%201") {
				t.Errorf("read back with %s %s", reqs[1].Method, reqs[1].Path)
			}
			g := e.GroupNamed("Green")
			if e.ID != "e 1" || g == nil || g.ID != "g2" || g.Size != 50 || string(g.ParameterValues) != `{"c":1}` || e.Allocation != 20 {
				t.Errorf("got %+v", e)
			}
		})
	}
}

// TestExperimentForms: the live service's forms of an experiment read by value: numbers as numbers,
// floats or strings, targetApps as a list or one bare string, times as numbers or strings, null
// lists and strings.
func TestExperimentForms(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		apps []string
	}{
		{`{"id":"e","targetApps":["web","ios"],"allocation":33.330000000000005,"duration":"14","startTime":1700000000000.0,"tags":null}`, []string{"web", "ios"}},
		{`{"id":"e","targetApps":"web","allocation":"33.33","duration":14.0,"startTime":"1700000000000","tags":[]}`, []string{"web"}},
		{`{"id":"e","targetApps":null,"allocation":33.33,"duration":14,"startTime":1.7e12,"groups":null}`, nil},
	} {
		var e Experiment
		if err := json.Unmarshal([]byte(tc.raw), &e); err != nil {
			t.Errorf("%s: %v", tc.raw, err)
			continue
		}
		if len(e.TargetApps) != len(tc.apps) || (len(tc.apps) > 0 && e.TargetApps[0] != tc.apps[0]) {
			t.Errorf("%s: targetApps %q", tc.raw, e.TargetApps)
		}
		if d := float64(e.Allocation) - 33.33; d > 1e-9 || d < -1e-9 || e.Duration == nil || *e.Duration != 14 || e.StartTime.Value != 1700000000000 || !e.StartTime.Set {
			t.Errorf("%s: decoded %+v", tc.raw, e)
		}
	}
	var e Experiment
	if err := json.Unmarshal([]byte(`{"allocation":"many"}`), &e); err == nil {
		t.Error("a number that is none was read")
	}
}

// TestExperimentList: the status filter is the service's query parameter, and pages are followed.
func TestExperimentList(t *testing.T) {
	f := newFake(t, func(n int, r seen) reply {
		if n == 0 {
			return reply{Status: 200, Body: `{"message":"ok","data":[{"id":"a"}],"pagination":{"itemsPerPage":1,"pageNumber":1,"totalItems":2,"nextPage":"/console/v1/experiments?page=2&limit=1"}}`}
		}
		return reply{Status: 200, Body: `{"message":"ok","data":[{"id":"b"}],"pagination":{"itemsPerPage":1,"pageNumber":2,"totalItems":2,"nextPage":null}}`}
	})
	got, err := f.client().ListExperiments(context.Background(), ExperimentActive, ListOptions{})
	if err != nil || len(got) != 2 || got[1].ID != "b" {
		t.Fatalf("got %+v, %v", got, err)
	}
	for _, r := range f.requests() {
		if r.Path != "/console/v1/experiments" || !hasQuery(r.Query, "status", "active") {
			t.Errorf("listed with %s?%s", r.Path, r.Query)
		}
	}
}

// TestPulseResults: GET /experiments/{id}/pulse_results's query and its numbers in any form; a 400 (not started) is the
// service's words, naming the experiment.
func TestPulseResults(t *testing.T) {
	body := `{"ds":"2026-11-26","primaryMetrics":[{"metricID":"purchase::event_count","metricName":"purchase","directionality":"increase",` +
		`"controlMean":"0.5","testMean":0.55,"absoluteChange":0.05,"percentChange":10.0,"percentConfidenceIntervalDelta":"4.2","pValue":0.001,` +
		`"controlUnits":1000.0,"testUnits":"1010"}],"secondaryMetrics":null}`
	f := newFake(t, script(ok(body), apiErr(400, "Experiment has not yet started")))
	c := f.client()
	res, err := c.GetPulseResults(context.Background(), "e 1", "g1", "g2", PulseQuery{Confidence: 95})
	if err != nil {
		t.Fatal(err)
	}
	r := f.requests()[0]
	if r.Method != http.MethodGet || r.Path != "/console/v1/experiments/e%201/pulse_results" ||
		!hasQuery(r.Query, "control", "g1") || !hasQuery(r.Query, "test", "g2") || !hasQuery(r.Query, "confidence", "95") {
		t.Errorf("sent %s %s?%s", r.Method, r.Path, r.Query)
	}
	m := res.PrimaryMetrics[0]
	if res.DS != "2026-11-26" || m.ControlMean != 0.5 || m.PercentChange != 10 || m.PercentConfidenceIntervalDelta != 4.2 ||
		m.ControlUnits != 1000 || m.TestUnits != 1010 || m.Directionality != "increase" || m.HasSequentialInterval {
		t.Errorf("got %+v", res)
	}
	_, err = c.GetPulseResults(context.Background(), "e 1", "g1", "g2", PulseQuery{})
	if !Refused(err) || err.Error() != `Unable to read results of experiment "e 1": 400 Bad Request: Experiment has not yet started` {
		t.Errorf("got %v", err)
	}
	if q := f.requests()[1].Query; hasQuery(q, "confidence", "0") || len(q) == 0 {
		t.Errorf("confidence 0 sent: %s", q)
	}
}

// TestPulseQueryOf: the results are asked for with the experiment's own analysis: its confidence
// level and each correction it applies, as the document's parameters name them; a correction that
// is off and a CUPED left unset are left to the service, a CUPED set is sent either way.
func TestPulseQueryOf(t *testing.T) {
	e := &Experiment{DefaultConfidenceInterval: "99", BonferroniCorrection: new(true), BenjaminiHochbergPerMetric: new(true)}
	q := PulseQueryOf(e)
	if q != (PulseQuery{Confidence: 99, BonferroniPerVariant: true, BenjaminiHochbergPerMetric: true}) {
		t.Errorf("query of %+v: %+v", e, q)
	}
	off := false
	f := newFake(t, script(ok(`{"primaryMetrics":[],"secondaryMetrics":[]}`), ok(`{"primaryMetrics":[]}`)))
	c := f.client()
	q.CUPED = &off
	for _, query := range []PulseQuery{q, PulseQueryOf(&Experiment{BonferroniCorrectionPerMetric: new(true), BenjaminiHochbergPerVariant: new(true)})} {
		if _, err := c.GetPulseResults(context.Background(), "e", "g1", "g2", query); err != nil {
			t.Fatal(err)
		}
	}
	want := []url.Values{
		{"control": {"g1"}, "test": {"g2"}, "confidence": {"99"}, "cuped": {"false"}, "applyBonferroniPerVariant": {"true"},
			"applyBenjaminiHochbergPerMetric": {"true"}},
		{"control": {"g1"}, "test": {"g2"}, "applyBonferroniPerMetric": {"true"}, "applyBenjaminiHochbergPerVariant": {"true"}},
	}
	for i, r := range f.requests() {
		if got, err := url.ParseQuery(r.Query); err != nil || !reflect.DeepEqual(got, want[i]) {
			t.Errorf("request %d asked %s, want %s", i, r.Query, want[i].Encode())
		}
	}
}

// TestPulseResultsForms: the results in the document's schema form (camelCase, metricName) and in
// its example's form (snake_case, "value" for the absolute change, no metricName, no ds) read
// alike; a metric without a name is known by its metricID's; where both forms of a key come, the
// schema's wins; numbers in any JSON form.
func TestPulseResultsForms(t *testing.T) {
	want := MetricResult{MetricID: "Purchase::user_warehouse", MetricName: "Purchase", ControlMean: 62.5, TestMean: 61.5,
		AbsoluteChange: -1, ConfidenceIntervalDelta: 1.25, PercentChange: -1.6, PercentConfidenceIntervalDelta: 2, PValue: 0.7,
		PercentSequentialTestingConfidenceIntervalDelta: -1.6, HasSequentialInterval: true, ControlUnits: 1589, TestUnits: 1669}
	schema := `{"metricID":"Purchase::user_warehouse","metricName":"Purchase","controlMean":62.5,"testMean":"61.5","absoluteChange":-1,` +
		`"confidenceIntervalDelta":1.25,"percentChange":-1.6,"percentConfidenceIntervalDelta":2.0,"pValue":0.7,"controlUnits":1589.0,"testUnits":"1669",` +
		`"percentSequentialTestingConfidenceIntervalDelta":"-1.6"}`
	example := `{"metricID":"Purchase::user_warehouse","value":-1,"confidence_interval_delta":1.25,"percent_change":-1.6,` +
		`"percent_confidence_interval_delta":2,"percent_sequential_testing_confidence_interval_delta":-1.6,"test_mean":61.5,` +
		`"control_mean":"62.5","test_std":0.74,"control_std":0.72,"test_units":1669,"control_units":1.589e3,"p_value":0.7}`
	both := `{"metricID":"Purchase::user_warehouse","p_value":0.9,"pValue":0.7,"percentChange":-1.6,"percent_change":5,"control_mean":62.5,` +
		`"test_mean":61.5,"absoluteChange":-1,"value":7,"confidenceIntervalDelta":1.25,"percent_confidence_interval_delta":2,` +
		`"controlUnits":1589,"test_units":1669,"percentSequentialTestingConfidenceIntervalDelta":-1.6,` +
		`"percent_sequential_testing_confidence_interval_delta":-3}`
	for name, body := range map[string]string{"schema": schema, "example": example, "both": both} {
		var got MetricResult
		if err := json.Unmarshal([]byte(body), &got); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got != want {
			t.Errorf("%s: got %+v, want %+v", name, got, want)
		}
	}
	for id, name := range map[string]string{"Purchase::user_warehouse": "Purchase", "a::b::event_count": "a::b", "plain": "plain", "": ""} {
		var got MetricResult
		if err := json.Unmarshal([]byte(`{"metricID":`+strconv.Quote(id)+`,"metricName":null}`), &got); err != nil || got.MetricName != name {
			t.Errorf("metricID %q: named %q (%v), want %q", id, got.MetricName, err, name)
		}
	}
	var named MetricResult
	if err := json.Unmarshal([]byte(`{"metricID":"a::user","metricName":"Alpha"}`), &named); err != nil || named.MetricName != "Alpha" {
		t.Errorf("the service's name not kept: %q %v", named.MetricName, err)
	}
	for _, bad := range []string{`{"percent_change":"many"}`, `{"metricID":7}`, `[]`, `"x"`} {
		var got MetricResult
		if err := json.Unmarshal([]byte(bad), &got); err == nil {
			t.Errorf("%s read as %+v", bad, got)
		}
	}
	var res PulseResults
	if err := json.Unmarshal([]byte(`{"primaryMetrics":[`+example+`,null],"secondaryMetrics":[`+schema+`]}`), &res); err != nil {
		t.Fatal(err)
	}
	if res.DS != "" || len(res.PrimaryMetrics) != 2 || res.PrimaryMetrics[0] != want || res.PrimaryMetrics[1] != (MetricResult{}) ||
		res.SecondaryMetrics[0] != want {
		t.Errorf("got %+v", res)
	}
}

// TestDeleteExperiment: DELETE, answered with a message only; a 404 is the caller's to judge.
func TestDeleteExperiment(t *testing.T) {
	f := newFake(t, script(reply{Status: 200, Body: `{"message":"Experiment deleted"}`}, apiErr(404, "Experiment not found")))
	c := f.client()
	if err := c.DeleteExperiment(context.Background(), "e/1"); err != nil {
		t.Fatal(err)
	}
	if r := f.requests()[0]; r.Method != http.MethodDelete || r.Path != "/console/v1/experiments/e%2F1" {
		t.Errorf("sent %s %s", r.Method, r.Path)
	}
	if err := c.DeleteExperiment(context.Background(), "e/1"); !NotFound(err) {
		t.Errorf("got %v", err)
	}
}

// hasQuery reports whether the raw query holds key=value.
func hasQuery(raw, key, value string) bool {
	q, err := url.ParseQuery(raw)
	return err == nil && q.Get(key) == value
}

// An answer that leaves out a metric's interval, or sends it null, has none: not an interval of 0,
// which would make any change significant. It is written back as it came.
func TestMetricResultWithoutInterval(t *testing.T) {
	for _, body := range []string{`{"metricID":"m::event_count","percentChange":3.1}`,
		`{"metric_id":"m::event_count","percent_change":3.1,"percent_confidence_interval_delta":null}`} {
		var m MetricResult
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatal(err)
		}
		if !m.NoInterval || m.PercentChange != 3.1 {
			t.Errorf("%s read as %+v", body, m)
		}
		out, _ := json.Marshal(m)
		if strings.Contains(string(out), "percentConfidenceIntervalDelta") {
			t.Errorf("%s written back as %s", body, out)
		}
	}
	var m MetricResult
	if err := json.Unmarshal([]byte(`{"percentChange":3.1,"percentConfidenceIntervalDelta":0}`), &m); err != nil || m.NoInterval {
		t.Errorf("an interval of 0 answered reads as none: %+v %v", m, err)
	}
}
