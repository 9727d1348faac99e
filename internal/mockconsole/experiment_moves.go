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
	"net/url"
	"slices"
	"time"
)

// Where an experiment stands moves only the service's way: start (setup → active),
// make_decision (active, experiment_stopped or assignment_stopped → decision_made), abandon (setup,
// active or experiment_stopped → abandoned), reset (any started status but decision_made → setup,
// its run cleared), archive (after a decision, an abandon or a reset: from setup, decision_made or
// abandoned) and unarchive (back to the status it had). Its pulse results (GET
// /experiments/{id}/pulse_results) are derived from its ids, so they are the same from read to read.

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
		res, bad := st.pulseResults(q.Get("control"), q.Get("test"), q)
		if bad != nil {
			return *bad
		}
		return okResp("Pulse results read successfully", res)
	})
}

// startExperiment answers PUT /experiments/{id}/start; s.mu is held.
func (s *Server) startExperiment(st *experimentState) *response {
	if st.exp.Status != ExperimentSetup {
		return ref(errResp(http.StatusBadRequest, "Experiment %q has already started (status %s)", st.exp.ID, st.exp.Status))
	}
	st.exp.Status, st.exp.StartTime = ExperimentActive, s.now().UnixMilli()
	return nil
}

// decideExperiment answers PUT /experiments/{id}/make_decision with the launched group's id; s.mu is held.
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

// abandonExperiment answers PUT /experiments/{id}/abandon; s.mu is held.
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

// archiveExperiment answers PUT /experiments/{id}/archive; s.mu is held.
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

// resetExperiment answers PUT /experiments/{id}/reset: a started experiment but a decided one goes back to setup, its
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

// ---- pulse results (GET /experiments/{id}/pulse_results) ----

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
	// PercentSequentialTestingConfidenceIntervalDelta is the half-width of the sequential interval,
	// answered for an experiment with sequential testing on (nil otherwise).
	PercentSequentialTestingConfidenceIntervalDelta *float64 `json:"percentSequentialTestingConfidenceIntervalDelta,omitempty"`
	PValue                                          float64  `json:"pValue"`
	ControlUnits                                    int64    `json:"controlUnits"`
	TestUnits                                       int64    `json:"testUnits"`
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
// (percent, at 95 % confidence, without CUPED or corrections) for the metric named metric, so a
// test can arrange a clear winner or a flat result. The rest of the metric's numbers follow from
// them, the intervals of other analyses too.
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
// test, asked with the query's analysis parameters (confidence, cuped, applyBonferroni*,
// applyBenjaminiHochberg*; nil asks for none).
func (s *Server) PulseResult(id, control, test string, query url.Values) (PulseResults, error) {
	var out PulseResults
	err := s.onExperiment(id, func(st *experimentState) *response {
		res, bad := st.pulseResults(st.exp.groupID(control), st.exp.groupID(test), query)
		out = res
		return bad
	})
	return out, err
}

// SequentialWidening is how much wider the mock's sequential-testing interval is than the plain
// one at the same confidence: an interval valid at every look is wider than one valid at the end.
const SequentialWidening = math.Sqrt2

// CUPEDNarrowing is the share of the plain interval the mock's CUPED answer keeps: the variance
// CUPED removes narrows the interval.
const CUPEDNarrowing = 0.8

// pulseResults computes the results of test against control as the query asks; s.mu is held. The
// interval is ±z·se at the confidence asked (the experiment's default when none is), se narrowed
// with cuped=true; each correction asked for lowers the level of the test (alpha) that z is taken
// at: Bonferroni per variant by the number of test groups, per metric by the number of metrics;
// Benjamini-Hochberg per metric to alpha·rank/m by the metric's rank among the group's metrics
// by p-value, per variant likewise among the test groups on that metric. With sequential testing
// on, the sequential interval is SequentialWidening times the interval.
func (st *experimentState) pulseResults(control, test string, query url.Values) (PulseResults, *response) {
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
	confidence := e.DefaultConfidenceInterval
	if query.Has("confidence") {
		confidence = query.Get("confidence")
	}
	conf := confidenceOf(confidence)
	if conf == 0 {
		return bad("confidence must be one of 80 to 99")
	}
	on := func(name string) bool { return query.Get(name) == "true" }
	cuped := 1.0
	if on("cuped") {
		cuped = CUPEDNarrowing
	}
	all := slices.Concat(e.PrimaryMetrics, e.SecondaryMetrics)
	var tests []*ExperimentGroup
	for i := range e.Groups {
		if e.Groups[i].ID != control {
			tests = append(tests, &e.Groups[i])
		}
	}
	// rank is the 1-based place of the p-value of (metric i, group g) among ps, the smallest first.
	rank := func(p float64, ps []float64) float64 {
		n := 1.0
		for _, q := range ps {
			if q < p {
				n++
			}
		}
		return n
	}
	alphaFor := func(i int) float64 {
		alpha := 1 - float64(conf)/100
		if on("applyBonferroniPerVariant") {
			alpha /= float64(len(tests))
		}
		if on("applyBonferroniPerMetric") {
			alpha /= float64(len(all))
		}
		p := st.raw(all[i], cg, tg).p()
		if on("applyBenjaminiHochbergPerMetric") {
			var ps []float64
			for _, m := range all {
				ps = append(ps, st.raw(m, cg, tg).p())
			}
			alpha *= rank(p, ps) / float64(len(all))
		}
		if on("applyBenjaminiHochbergPerVariant") {
			var ps []float64
			for _, g := range tests {
				ps = append(ps, st.raw(all[i], cg, g).p())
			}
			alpha *= rank(p, ps) / float64(len(tests))
		}
		return alpha
	}
	out := PulseResults{DS: time.UnixMilli(e.StartTime).UTC().Format(time.DateOnly),
		PrimaryMetrics: []PulseMetric{}, SecondaryMetrics: []PulseMetric{}}
	for i, m := range all {
		r := st.raw(m, cg, tg)
		half := round4(zFor(1-alphaFor(i)) * r.se * cuped)
		pm := PulseMetric{
			MetricID: m.Name + "::" + m.Type, MetricName: m.Name, Directionality: m.Direction,
			ControlMean: r.controlMean, TestMean: r.testMean, AbsoluteChange: round4(r.testMean - r.controlMean),
			PercentChange: r.pc, PercentConfidenceIntervalDelta: half, PValue: round4(r.p()),
			ControlUnits: r.controlUnits, TestUnits: r.testUnits,
		}
		if e.SequentialTesting {
			seq := round4(half * SequentialWidening)
			pm.PercentSequentialTestingConfidenceIntervalDelta = &seq
		}
		if i < len(e.PrimaryMetrics) {
			out.PrimaryMetrics = append(out.PrimaryMetrics, pm)
		} else {
			out.SecondaryMetrics = append(out.SecondaryMetrics, pm)
		}
	}
	return out, nil
}

// rawResult is one metric's figures for one test group before any analysis: the percent change and
// its standard error (percent), the means and the units.
type rawResult struct {
	pc, se                  float64
	controlMean, testMean   float64
	controlUnits, testUnits int64
}

// p is the two-sided p-value of the change, so that the change is significant at a level exactly
// when the plain interval at that level excludes 0.
func (r rawResult) p() float64 {
	if r.se <= 0 {
		return 1
	}
	return math.Erfc(math.Abs(r.pc) / r.se / math.Sqrt2)
}

// raw derives one metric's figures from the ids and names involved: the same for every read, or
// what a test arranged (SetPulseResult).
func (st *experimentState) raw(m ExperimentMetric, cg, tg *ExperimentGroup) rawResult {
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
	return rawResult{pc: pc, se: se, controlMean: controlMean, testMean: round4(controlMean * (1 + pc/100)),
		controlUnits: units(cg), testUnits: units(tg)}
}

// zFor is the two-sided normal quantile of a confidence level.
func zFor(confidence float64) float64 { return math.Sqrt2 * math.Erfinv(confidence) }

func round4(f float64) float64 { return math.Round(f*10_000) / 10_000 }
