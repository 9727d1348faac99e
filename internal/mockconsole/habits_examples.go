// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"math"
	"net/http"
	"regexp"
	"strings"
)

// The habit ExampleForms: the answers as the service's document's own examples show them where
// they differ from its schemas (DESIGN §7 lists each). The mock's own answers follow the schemas;
// the live service answers as the examples do.

var (
	experimentOne     = regexp.MustCompile(`^/experiments/[^/]+$`)
	experimentResults = regexp.MustCompile(`^/experiments/[^/]+/pulse_results$`)
	segmentOne        = regexp.MustCompile(`^/segments/[^/]+$`)
	segmentMessage    = regexp.MustCompile(`^/segments/[^/]+/(archive|conditional)$`)
	keyOne            = regexp.MustCompile(`^/keys/[^/]+$`)
)

// ServeExperimentsAsExample switches on, with ExampleForms and outside `all`, the form of GET
// /experiments/{id}'s example that leaves facts out: no controlGroupID, and an id on the first
// group alone. The provider keeps what the last answer said, but an import has no last answer, so
// a test that proves it switches the mode on itself.
func (s *Server) ServeExperimentsAsExample(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.experimentsAsExample = on
}

// exampleForm reshapes a decoded answer env to r in place.
func (s *Server) exampleForm(r *http.Request, env map[string]any) {
	exampleExperiment := func(e map[string]any) { exampleExperiment(e, s.experimentsAsExample) }
	p := strings.TrimPrefix(r.URL.EscapedPath(), basePath)
	switch {
	case r.Method == http.MethodDelete && experimentOne.MatchString(p), segmentMessage.MatchString(p):
		// {"message": "Experiment deleted successfully."}, {"message": "Rules successfully updated"}
		delete(env, "data")
	case experimentResults.MatchString(p):
		if data, ok := env["data"].(map[string]any); ok {
			delete(data, "ds")
			for _, k := range []string{"primaryMetrics", "secondaryMetrics"} {
				ms, _ := data[k].([]any)
				for _, m := range ms {
					if mm, ok := m.(map[string]any); ok {
						snakeResult(mm)
					}
				}
			}
		}
	case r.Method == http.MethodGet && segmentOne.MatchString(p):
		// The example's segment has one rule, as an object.
		if data, ok := env["data"].(map[string]any); ok {
			if rules, ok := data["rules"].([]any); ok && len(rules) == 1 {
				data["rules"] = rules[0]
			}
		}
	case strings.HasPrefix(p, "/experiments") && r.Method == http.MethodGet:
		forEachObject(env["data"], exampleExperiment)
	case r.Method == http.MethodPatch && keyOne.MatchString(p):
		// The update's example: {environments, targetAppID, secondaryTargetAppIDs} alone.
		if data, ok := env["data"].(map[string]any); ok {
			env["data"] = map[string]any{"environments": data["environments"], "targetAppID": data["primaryTargetApp"],
				"secondaryTargetAppIDs": data["secondaryTargetApps"]}
		}
	case strings.HasPrefix(p, "/keys"), strings.HasPrefix(p, "/tags"):
		// The examples' keys and tags have no description.
		forEachObject(env["data"], func(o map[string]any) { delete(o, "description") })
	case r.Method == http.MethodPost && p == "/target_app":
		// The create's example is the app as sent, without the envelope or an id.
		if data, ok := env["data"].(map[string]any); ok {
			clear(env)
			env["name"] = data["name"]
		}
	case r.Method == http.MethodPatch && experimentOne.MatchString(p):
		if data, ok := env["data"].(map[string]any); ok {
			exampleExperiment(data)
			// The update's example answers part of the experiment.
			for _, k := range []string{"name", "description", "creatorName", "createdTime", "startTime", "endTime", "decisionTime", "launchedGroupID", "decisionReason"} {
				delete(data, k)
			}
		}
	}
}

// exampleExperiment is an experiment as GET /experiments/{id}'s example shows it: "" for no
// targeting gate, null for no launched group and for times not yet set; with leaveOut, no
// controlGroupID and an id on the first group alone.
func exampleExperiment(e map[string]any, leaveOut bool) {
	if leaveOut {
		delete(e, "controlGroupID")
		if groups, ok := e["groups"].([]any); ok {
			for i, g := range groups {
				if gm, ok := g.(map[string]any); ok && i > 0 {
					delete(gm, "id")
				}
			}
		}
	}
	if e["launchedGroupID"] == "" {
		e["launchedGroupID"] = nil
	}
	for _, k := range []string{"startTime", "endTime", "decisionTime"} {
		if isZero(e[k]) {
			e[k] = nil
		}
	}
}

// snakeResult writes a metric's result as the pulse example does: snake_case, the absolute change
// as value, no metricName (the metric is known by its metricID, "<name>::<type>"), and the
// sequential interval's half-width below 0.
func snakeResult(m map[string]any) {
	renames := map[string]string{
		"absoluteChange": "value", "confidenceIntervalDelta": "confidence_interval_delta", "percentChange": "percent_change",
		"percentConfidenceIntervalDelta":                  "percent_confidence_interval_delta",
		"percentSequentialTestingConfidenceIntervalDelta": "percent_sequential_testing_confidence_interval_delta",
		"testMean": "test_mean", "controlMean": "control_mean", "testStd": "test_std", "controlStd": "control_std",
		"testUnits": "test_units", "controlUnits": "control_units", "pValue": "p_value",
	}
	for from, to := range renames {
		if v, ok := m[from]; ok {
			delete(m, from)
			m[to] = v
		}
	}
	delete(m, "metricName")
	delete(m, "directionality")
	const seq = "percent_sequential_testing_confidence_interval_delta"
	switch v := m[seq].(type) {
	case float64:
		m[seq] = -math.Abs(v)
	case json.Number:
		if f, err := v.Float64(); err == nil {
			m[seq] = -math.Abs(f)
		}
	}
}

func forEachObject(v any, f func(map[string]any)) {
	switch t := v.(type) {
	case map[string]any:
		f(t)
	case []any:
		for _, x := range t {
			if m, ok := x.(map[string]any); ok {
				f(m)
			}
		}
	}
}

func isZero(v any) bool {
	switch t := v.(type) {
	case float64:
		return t == 0
	case interface{ String() string }:
		return t.String() == "0"
	}
	return false
}
