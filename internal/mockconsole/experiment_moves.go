// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"strconv"
	"time"
)

// Where an experiment stands moves only the service's way (rows 50-52): start (setup → active),
// make_decision (active, experiment_stopped or assignment_stopped → decision_made), abandon (setup,
// active or experiment_stopped → abandoned), reset (any started status but decision_made → setup,
// its run cleared), archive (after a decision, an abandon or a reset: from setup, decision_made or
// abandoned) and unarchive (back to the status it had). Its pulse results (row 53) are derived from
// its ids, so they are the same from read to read.

func (s *Server) experimentMoveRoutes(on func(method, path string, h handler)) {
	id := func(r *http.Request) string { return r.PathValue("id") }
	// The document answers each move with its own message and no data (PUT
	// /experiments/{id}/start: {"message": "Experiment successfully started."}).
	said := map[string]string{
		"start":         "Experiment successfully started.",
		"make_decision": "Decision made for Experiment.",
		"abandon":       "Experiment successfully abandoned.",
		"archive":       "Experiment successfully archived.",
		"unarchive":     "Experiment successfully unarchived.",
		"reset":         "Experiment successfully restarted.",
	}
	move := func(verb string, f func(st *experimentState, body []byte) *response) {
		on(http.MethodPut, "/experiments/{id}/"+verb, func(r *http.Request, body []byte) response {
			st, miss := find(s.experiments, "Experiment", id(r))
			if miss != nil {
				return *miss
			}
			if bad := f(st, body); bad != nil {
				return *bad
			}
			s.stampExperiment(st)
			return messageResp(said[verb])
		})
	}
	move("start", func(st *experimentState, _ []byte) *response { return s.startExperiment(st) })
	move("make_decision", func(st *experimentState, body []byte) *response {
		req, bad := decoded[struct {
			ID              *string `json:"id"`
			DecisionReason  *string `json:"decisionReason"`
			RemoveTargeting *bool   `json:"removeTargeting"`
		}](body)
		if bad != nil {
			return bad
		}
		if req.ID == nil || *req.ID == "" || req.DecisionReason == nil || *req.DecisionReason == "" {
			return ref(errResp(http.StatusBadRequest, "id and decisionReason are required"))
		}
		if bad := s.decideExperiment(st, *req.ID, *req.DecisionReason); bad != nil {
			return bad
		}
		if req.RemoveTargeting != nil && *req.RemoveTargeting {
			st.exp.TargetingGateID = ""
		}
		return nil
	})
	move("abandon", func(st *experimentState, body []byte) *response {
		req, bad := decoded[struct {
			DecisionReason *string `json:"decisionReason"`
		}](body)
		if bad != nil {
			return bad
		}
		if req.DecisionReason == nil || *req.DecisionReason == "" {
			return ref(errResp(http.StatusBadRequest, "decisionReason is required"))
		}
		return s.abandonExperiment(st, *req.DecisionReason)
	})
	move("archive", func(st *experimentState, body []byte) *response {
		if len(body) > 0 {
			if _, bad := decoded[struct {
				ArchiveReason *string `json:"archiveReason"`
			}](body); bad != nil {
				return bad
			}
		}
		return s.archiveExperiment(st)
	})
	move("reset", func(st *experimentState, _ []byte) *response { return s.resetExperiment(st) })
	move("unarchive", func(st *experimentState, _ []byte) *response {
		if st.exp.Status != ExperimentArchived {
			return ref(errResp(http.StatusBadRequest, "Experiment %q is not archived", st.exp.ID))
		}
		st.exp.Status, st.before = st.before, ""
		return nil
	})
	on(http.MethodGet, "/experiments/{id}/pulse_results", func(r *http.Request, _ []byte) response {
		st, miss := find(s.experiments, "Experiment", id(r))
		if miss != nil {
			return *miss
		}
		q := r.URL.Query()
		conf := st.exp.DefaultConfidenceInterval
		if q.Has("confidence") {
			conf = q.Get("confidence")
		}
		res, bad := st.pulseResults(q.Get("control"), q.Get("test"), conf)
		if bad != nil {
			return *bad
		}
		return okResp("Pulse results read successfully", res)
	})
}

// startExperiment is row 50; s.mu is held.
func (s *Server) startExperiment(st *experimentState) *response {
	if st.exp.Status != ExperimentSetup {
		return ref(errResp(http.StatusBadRequest, "Experiment %q has already started (status %s)", st.exp.ID, st.exp.Status))
	}
	st.exp.Status, st.exp.StartTime = ExperimentActive, s.now().UnixMilli()
	return nil
}

// decideExperiment is row 51 with the launched group's id; s.mu is held.
func (s *Server) decideExperiment(st *experimentState, groupID, reason string) *response {
	e := &st.exp
	switch e.Status {
	case ExperimentActive, ExperimentStopped, AssignmentStopped:
	case ExperimentSetup:
		return ref(errResp(http.StatusBadRequest, "Experiment has not yet started"))
	default:
		return ref(errResp(http.StatusBadRequest, "Experiment %q is %s: a decision is made on an active experiment only", e.ID, e.Status))
	}
	if e.groupByID(groupID) == nil {
		return ref(errResp(http.StatusBadRequest, "Group %q is not a group of experiment %q", groupID, e.ID))
	}
	now := s.now().UnixMilli()
	e.Status, e.LaunchedGroupID, e.DecisionReason, e.DecisionTime, e.EndTime = ExperimentDecisionMade, groupID, reason, now, now
	return nil
}

// abandonExperiment is row 52's abandon; s.mu is held.
func (s *Server) abandonExperiment(st *experimentState, reason string) *response {
	e := &st.exp
	if e.Status != ExperimentSetup && e.Status != ExperimentActive && e.Status != ExperimentStopped {
		return ref(errResp(http.StatusBadRequest, "Experiment %q is %s: only an experiment in setup, active or experiment_stopped can be abandoned", e.ID, e.Status))
	}
	e.Status, e.DecisionReason = ExperimentAbandoned, reason
	if e.StartTime != 0 {
		e.EndTime = s.now().UnixMilli()
	}
	return nil
}

// archiveExperiment is row 52's archive; s.mu is held.
func (s *Server) archiveExperiment(st *experimentState) *response {
	switch st.exp.Status {
	case ExperimentArchived:
		return ref(errResp(http.StatusBadRequest, "Experiment %q is already archived", st.exp.ID))
	case ExperimentActive, ExperimentStopped, AssignmentStopped:
		return ref(errResp(http.StatusBadRequest, "Experiment %q is %s: an experiment is archived after a decision, an abandon or a reset",
			st.exp.ID, st.exp.Status))
	}
	st.before, st.exp.Status = st.exp.Status, ExperimentArchived
	return nil
}

// resetExperiment is row 52's reset: a started experiment but a decided one goes back to setup, its
// run (times, reason) cleared, to be started again; s.mu is held.
func (s *Server) resetExperiment(st *experimentState) *response {
	e := &st.exp
	switch e.Status {
	case ExperimentActive, ExperimentAbandoned, ExperimentStopped, AssignmentStopped:
	case ExperimentSetup:
		return ref(errResp(http.StatusBadRequest, "Experiment %q has not yet started", e.ID))
	default:
		return ref(errResp(http.StatusBadRequest, "Experiment %q is %s and cannot be reset", e.ID, e.Status))
	}
	e.Status, e.StartTime, e.EndTime, e.DecisionTime, e.DecisionReason, e.LaunchedGroupID = ExperimentSetup, 0, 0, 0, "", ""
	st.results = nil
	return nil
}

// ---- moves made in the console (test API) ----

// onExperiment runs f on the experiment under the lock; f's refusal is the error, in the service's
// words.
func (s *Server) onExperiment(id string, f func(st *experimentState) *response) error {
	var err error
	s.locked(func() {
		st, ok := s.experiments[id]
		if !ok {
			err = fmt.Errorf("experiment %q not found", id)
			return
		}
		if bad := f(st); bad != nil {
			err = fmt.Errorf("experiment %q: %s", id, bytes.TrimSpace(bad.body))
		}
	})
	return err
}

// consoleMove applies a move to the experiment as someone in the console would.
func (s *Server) consoleMove(id string, f func(st *experimentState) *response) error {
	return s.onExperiment(id, func(st *experimentState) *response {
		if bad := f(st); bad != nil {
			return bad
		}
		st.exp.LastModifierName, st.exp.LastModifierID = "Console User", "user_console_1"
		return nil
	})
}

// groupID is the id of the group named name ("" when none is).
func (e *Experiment) groupID(name string) string {
	for _, g := range e.Groups {
		if g.Name == name {
			return g.ID
		}
	}
	return ""
}

// StartExperiment starts an experiment in setup, as the console does.
func (s *Server) StartExperiment(id string) error {
	return s.consoleMove(id, s.startExperiment)
}

// DecideExperiment ships the group named group of an active experiment, as the console does.
func (s *Server) DecideExperiment(id, group, reason string) error {
	return s.consoleMove(id, func(st *experimentState) *response {
		if g := st.exp.groupID(group); g != "" {
			return s.decideExperiment(st, g, reason)
		}
		return ref(errResp(http.StatusBadRequest, "no group named %q", group))
	})
}

// AbandonExperiment abandons an experiment, as the console does.
func (s *Server) AbandonExperiment(id, reason string) error {
	return s.consoleMove(id, func(st *experimentState) *response { return s.abandonExperiment(st, reason) })
}

// ArchiveExperiment archives an experiment, as the console does.
func (s *Server) ArchiveExperiment(id string) error {
	return s.consoleMove(id, s.archiveExperiment)
}

// ---- pulse results (row 53) ----

// PulseMetric is one metric's result as GET /experiments/{id}/pulse_results answers it.
type PulseMetric struct {
	MetricID                       string  `json:"metricID"`
	MetricName                     string  `json:"metricName"`
	Directionality                 string  `json:"directionality"`
	ControlMean                    float64 `json:"controlMean"`
	TestMean                       float64 `json:"testMean"`
	AbsoluteChange                 float64 `json:"absoluteChange"`
	PercentChange                  float64 `json:"percentChange"`
	PercentConfidenceIntervalDelta float64 `json:"percentConfidenceIntervalDelta"`
	PValue                         float64 `json:"pValue"`
	ControlUnits                   int64   `json:"controlUnits"`
	TestUnits                      int64   `json:"testUnits"`
}

// PulseResults is the answer of GET /experiments/{id}/pulse_results.
type PulseResults struct {
	DS               string        `json:"ds"`
	PrimaryMetrics   []PulseMetric `json:"primaryMetrics"`
	SecondaryMetrics []PulseMetric `json:"secondaryMetrics"`
}

// arrangedResult is an outcome a test set for one metric of one test group.
type arrangedResult struct{ percentChange, intervalDelta float64 }

// SetPulseResult makes the results of the group named testGroup show percentChange ± intervalDelta
// (percent, at 95 % confidence) for the metric named metric, so a test can arrange a clear winner
// or a flat result. The rest of the metric's numbers follow from them.
func (s *Server) SetPulseResult(id, testGroup, metric string, percentChange, intervalDelta float64) error {
	return s.consoleMove(id, func(st *experimentState) *response {
		g := st.exp.groupID(testGroup)
		if g == "" {
			return ref(errResp(http.StatusBadRequest, "no group named %q", testGroup))
		}
		if st.results == nil {
			st.results = map[[2]string]arrangedResult{}
		}
		st.results[[2]string{g, metric}] = arrangedResult{percentChange, intervalDelta}
		return nil
	})
}

// PulseResult is what GET /experiments/{id}/pulse_results answers for the groups named control and
// test at the confidence (80..99; 0 is the experiment's default).
func (s *Server) PulseResult(id, control, test string, confidence int) (PulseResults, error) {
	var out PulseResults
	err := s.onExperiment(id, func(st *experimentState) *response {
		conf := st.exp.DefaultConfidenceInterval
		if confidence != 0 {
			conf = strconv.Itoa(confidence)
		}
		res, bad := st.pulseResults(st.exp.groupID(control), st.exp.groupID(test), conf)
		out = res
		return bad
	})
	return out, err
}

// pulseResults computes the results of test against control; s.mu is held.
func (st *experimentState) pulseResults(control, test, confidence string) (PulseResults, *response) {
	e := &st.exp
	bad := func(format string, args ...any) (PulseResults, *response) {
		return PulseResults{}, ref(errResp(http.StatusBadRequest, format, args...))
	}
	if e.StartTime == 0 {
		return bad("Experiment has not yet started")
	}
	if control == "" || test == "" {
		return bad("control and test are required")
	}
	cg, tg := e.groupByID(control), e.groupByID(test)
	if cg == nil || tg == nil {
		return bad("control and test must be groups of experiment %q", e.ID)
	}
	conf := confidenceOf(confidence)
	if conf == 0 {
		return bad("confidence must be one of 80 to 99")
	}
	z := zFor(float64(conf) / 100)
	metrics := func(ms []ExperimentMetric) []PulseMetric {
		out := make([]PulseMetric, 0, len(ms))
		for _, m := range ms {
			out = append(out, st.metricResult(m, cg, tg, z))
		}
		return out
	}
	return PulseResults{
		DS:               time.UnixMilli(e.StartTime).UTC().Format(time.DateOnly),
		PrimaryMetrics:   metrics(e.PrimaryMetrics),
		SecondaryMetrics: metrics(e.SecondaryMetrics),
	}, nil
}

// metricResult derives one metric's numbers from the ids and names involved: the same for every
// read. The interval is ±z·se of the percent change and the p-value two-sided, so that the change
// is significant exactly when the interval excludes 0.
func (st *experimentState) metricResult(m ExperimentMetric, cg, tg *ExperimentGroup, z float64) PulseMetric {
	e := &st.exp
	h := fnv.New64a()
	for _, part := range []string{e.ID, m.Name, m.Type, cg.ID, tg.ID} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], h.Sum64())
	u := func(i int) float64 { return float64(binary.BigEndian.Uint16(b[2*i:])) / 65535 }

	pc := round4(-20 + 40*u(0))
	se := 1 + 4*u(1)
	if r, ok := st.results[[2]string{tg.ID, m.Name}]; ok {
		pc, se = r.percentChange, r.intervalDelta/zFor(0.95)
	}
	units := func(g *ExperimentGroup) int64 {
		return int64(math.Round(100_000*e.Allocation/100*g.Size/100)) + int64(u(3)*50)
	}
	controlMean := round4(0.1 + 9.9*u(2))
	testMean := round4(controlMean * (1 + pc/100))
	p := 1.0
	if se > 0 {
		p = math.Erfc(math.Abs(pc) / se / math.Sqrt2)
	}
	return PulseMetric{
		MetricID: m.Name + "::" + m.Type, MetricName: m.Name, Directionality: m.Direction,
		ControlMean: controlMean, TestMean: testMean, AbsoluteChange: round4(testMean - controlMean),
		PercentChange: pc, PercentConfidenceIntervalDelta: round4(z * se), PValue: round4(p),
		ControlUnits: units(cg), TestUnits: units(tg),
	}
}

// zFor is the two-sided normal quantile of a confidence level.
func zFor(confidence float64) float64 { return math.Sqrt2 * math.Erfinv(confidence) }

func round4(f float64) float64 { return math.Round(f*10_000) / 10_000 }
