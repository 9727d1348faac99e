// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"
)

// Run statuses, as the service spells them.
const (
	RunInProgress       = "IN_PROGRESS"
	RunPaused           = "PAUSED"
	RunWaitingForReview = "WAITING_FOR_REVIEW"
	RunCompleted        = "COMPLETED"
	RunAborted          = "ABORTED"
)

// RunAction is one operation recorded on a run.
type RunAction struct {
	Type      string `json:"type"`
	TimeMs    int64  `json:"timeMs"`
	PhaseID   string `json:"phaseID"`
	ActorID   string `json:"actorID"`
	ActorName string `json:"actorName"`
}

// Run is a release pipeline run ("trigger") as the service returns it.
type Run struct {
	ID                  string      `json:"id"`
	ReleasePipelineID   string      `json:"releasePipelineID"`
	GateID              string      `json:"gateID,omitempty"`
	DynamicConfigID     string      `json:"dynamicConfigID,omitempty"`
	Status              string      `json:"status"`
	CurrentPhase        string      `json:"currentPhase"`
	CurrentPhaseID      string      `json:"currentPhaseID"`
	CurrentPhaseEndTime *int64      `json:"currentPhaseEndTime"`
	CreatedTime         int64       `json:"createdTime"`
	Actions             []RunAction `json:"actions"`
	// Who started the run and who moved it last (the document requires them).
	CreatorID        string `json:"creatorID"`
	LastModifierID   string `json:"lastModifierID"`
	LastModifierName string `json:"lastModifierName"`
}

// runState is a run with what moves it: the pipeline's phases as they were when it started, the
// index of the current phase and, while paused, the bake time left.
type runState struct {
	run       Run
	phases    []Phase
	phase     int
	remaining time.Duration
	// restore is what the gate's rules were before the write that started the run: an abort puts
	// them back. Nil for a run started otherwise.
	restore []Rule
}

// runClock is the time runs see: real time scaled by speed, plus whatever tests advanced it by.
type runClock struct {
	base   time.Time // run time at realAt
	realAt time.Time
	speed  float64
}

func (c *runClock) now() time.Time {
	if c.realAt.IsZero() {
		c.base, c.realAt, c.speed = time.Now(), time.Now(), 1
	}
	return c.base.Add(time.Duration(float64(time.Since(c.realAt)) * c.speed))
}

// StartRun starts a run of a pipeline for a gate, as the console does (the API cannot), at the first
// phase; gateID may be empty. It returns the run's id. Later phases follow the run clock.
func (s *Server) StartRun(pipelineID, gateID string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs, err := s.startRun(pipelineID, gateID)
	if err != nil {
		return "", err
	}
	return rs.run.ID, nil
}

// startRun is StartRun with s.mu held.
func (s *Server) startRun(pipelineID, gateID string) (*runState, error) {
	st, ok := s.pipelines[pipelineID]
	if !ok {
		return nil, fmt.Errorf("release pipeline %q not found", pipelineID)
	}
	if len(st.p.Phases) == 0 {
		return nil, fmt.Errorf("release pipeline %q has no phases", pipelineID)
	}
	if s.runs == nil {
		s.runs = map[string]*runState{}
	}
	s.runSeq++
	id := fmt.Sprintf("rpt_%d", s.runSeq)
	now := s.clock.now()
	rs := &runState{
		run: Run{ID: id, ReleasePipelineID: pipelineID, GateID: gateID, CreatedTime: now.UnixMilli(), Actions: []RunAction{},
			CreatorID: modifierID, LastModifierID: modifierID, LastModifierName: modifierName},
		phases: st.p.clone().Phases,
	}
	rs.enter(0, now)
	s.runs[id] = rs
	return rs, nil
}

// Run returns a copy of a run as the service would return it now.
func (s *Server) Run(id string) (Run, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tickRuns()
	rs, ok := s.runs[id]
	if !ok {
		return Run{}, false
	}
	return rs.copy(), true
}

// GateRuns lists the ids of the runs of a gate, the latest first.
func (s *Server) GateRuns(gateID string) []string {
	return s.runIDs(func(r *Run) bool { return r.GateID == gateID })
}

// runIDs lists the ids of the runs that of keeps (those of one gate or config), the latest first.
func (s *Server) runIDs(of func(*Run) bool) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var runs []Run
	for _, rs := range s.runs {
		if of(&rs.run) {
			runs = append(runs, rs.run)
		}
	}
	slices.SortFunc(runs, func(a, b Run) int {
		return cmp.Or(cmp.Compare(b.CreatedTime, a.CreatedTime), cmp.Compare(b.ID, a.ID))
	})
	ids := make([]string, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	return ids
}

// SetRun changes a run's status, current phase (by name; "" keeps it) and actions (nil keeps
// them), as someone in the console might; the bake timer of the phase starts again.
func (s *Server) SetRun(id, status, phase string, actions []RunAction) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tickRuns()
	rs, ok := s.runs[id]
	if !ok {
		return fmt.Errorf("run %q not found", id)
	}
	now := s.clock.now()
	if phase != "" {
		i := rs.phaseIndex(phase)
		if i < 0 {
			return fmt.Errorf("run %q has no phase %q", id, phase)
		}
		rs.enter(i, now)
	}
	if actions != nil {
		rs.run.Actions = append([]RunAction{}, actions...)
		for i := range rs.run.Actions {
			if rs.run.Actions[i].ActorID == "" { // the document requires who acted
				rs.run.Actions[i].ActorID = modifierID
			}
		}
	}
	switch status {
	case "":
	case RunInProgress:
		rs.run.Status = status
		end := now.Add(rs.bake()).UnixMilli()
		rs.run.CurrentPhaseEndTime = &end
	case RunPaused:
		rs.remaining = rs.bake()
		rs.run.Status, rs.run.CurrentPhaseEndTime = status, nil
	case RunAborted:
		s.abortRun(rs)
	case RunWaitingForReview, RunCompleted:
		rs.run.Status, rs.run.CurrentPhaseEndTime = status, nil
	default:
		return fmt.Errorf("unknown run status %q", status)
	}
	return nil
}

// AdvanceRunClock moves the time runs see forward by d: bake timers that end meanwhile move their
// runs on, phase by phase, and scheduled rollouts of gate rules that fall due are made
// (ScheduledRollouts).
func (s *Server) AdvanceRunClock(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.now()
	s.clock.base, s.clock.realAt = now.Add(d), time.Now()
	s.tickRuns()
	s.tickRollouts()
}

// SetRunSpeed makes run time pass speed times faster than real time (1 by default), so that a test
// can watch a run go through hours of bake time in a second.
func (s *Server) SetRunSpeed(speed float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clock.base, s.clock.realAt = s.clock.now(), time.Now()
	s.clock.speed = max(speed, 0)
}

func (rs *runState) copy() Run {
	r := rs.run
	r.Actions = append([]RunAction{}, rs.run.Actions...)
	if r.CurrentPhaseEndTime != nil {
		e := *r.CurrentPhaseEndTime
		r.CurrentPhaseEndTime = &e
	}
	return r
}

func (rs *runState) phaseIndex(name string) int {
	for i, ph := range rs.phases {
		if ph.Name == name {
			return i
		}
	}
	return -1
}

func (rs *runState) bake() time.Duration {
	return time.Duration(rs.phases[rs.phase].TimeIntervalMs) * time.Millisecond
}

// enter makes phase i current from time at: a phase that requires review waits for approval,
// any other bakes for its time interval.
func (rs *runState) enter(i int, at time.Time) {
	rs.phase = i
	ph := rs.phases[i]
	rs.run.CurrentPhase, rs.run.CurrentPhaseID = ph.Name, ph.ID
	if ph.RequiredReview {
		rs.run.Status, rs.run.CurrentPhaseEndTime = RunWaitingForReview, nil
		return
	}
	rs.run.Status = RunInProgress
	end := at.Add(rs.bake()).UnixMilli()
	rs.run.CurrentPhaseEndTime = &end
}

// next moves on from the current phase at time at; after the last one the run is complete.
func (rs *runState) next(at time.Time) {
	if rs.phase+1 < len(rs.phases) {
		rs.enter(rs.phase+1, at)
		return
	}
	rs.run.Status, rs.run.CurrentPhaseEndTime = RunCompleted, nil
}

// tickRuns moves every baking run past the phases whose timers ended; s.mu is held.
func (s *Server) tickRuns() {
	now := s.clock.now()
	for _, rs := range s.runs {
		for rs.run.Status == RunInProgress && rs.run.CurrentPhaseEndTime != nil && *rs.run.CurrentPhaseEndTime <= now.UnixMilli() {
			rs.next(time.UnixMilli(*rs.run.CurrentPhaseEndTime))
		}
	}
}

// ---- handlers ----

func (s *Server) listRuns(r *http.Request) response {
	p, e := s.parsePage(r)
	if e != nil {
		return *e
	}
	s.tickRuns()
	q := r.URL.Query()
	statuses := map[string]bool{}
	for _, st := range q["status"] {
		switch st {
		case RunInProgress, RunPaused, RunWaitingForReview, RunCompleted, RunAborted:
			statuses[st] = true
		default:
			return errResp(http.StatusBadRequest, "status must be one of IN_PROGRESS, PAUSED, WAITING_FOR_REVIEW, COMPLETED, ABORTED, got %q", st)
		}
	}
	var match []*runState
	for _, rs := range s.runs {
		if pl := q.Get("releasePipelineID"); pl != "" && rs.run.ReleasePipelineID != pl {
			continue
		}
		if g := q.Get("gateID"); g != "" && rs.run.GateID != g {
			continue
		}
		if c := q.Get("dynamicConfigID"); c != "" && rs.run.DynamicConfigID != c {
			continue
		}
		if len(statuses) > 0 && !statuses[rs.run.Status] {
			continue
		}
		match = append(match, rs)
	}
	// Newest first, as the console lists them.
	sort.Slice(match, func(i, j int) bool {
		if match[i].run.CreatedTime != match[j].run.CreatedTime {
			return match[i].run.CreatedTime > match[j].run.CreatedTime
		}
		return match[i].run.ID > match[j].run.ID
	})
	return listed(p, "/release_pipeline_triggers", "Release pipeline triggers", len(match), func(i int) Run { return match[i].copy() })
}

func (s *Server) getRun(id string) response {
	s.tickRuns()
	return readOne(s.runs, "Release pipeline trigger", id, (*runState).copy)
}

type runPhaseReq struct {
	PhaseID *string `json:"phaseID"`
}

// operateRun applies one of the six operations; the service refuses a wrong state or a stale
// phaseID with 400 and changes nothing.
func (s *Server) operateRun(id, op string, body []byte) response {
	s.tickRuns()
	rs, miss := find(s.runs, "Release pipeline trigger", id)
	if miss != nil {
		return *miss
	}
	run := &rs.run
	now := s.clock.now()
	switch op {
	case "approve", "pause", "unpause", "skip":
		req, bad := decoded[runPhaseReq](body)
		if bad != nil {
			return *bad
		}
		if req.PhaseID == nil || *req.PhaseID == "" {
			return errResp(http.StatusBadRequest, "phaseID is required")
		}
		if run.Status == RunCompleted || run.Status == RunAborted {
			return errResp(http.StatusBadRequest, "Cannot %s release pipeline trigger %q: it is %s", op, id, run.Status)
		}
		if *req.PhaseID != run.CurrentPhaseID {
			return errResp(http.StatusBadRequest, "phaseID %q is not the current phase of the trigger (%q)", *req.PhaseID, run.CurrentPhaseID)
		}
	case "rollout", "abort":
		if len(strings.TrimSpace(string(body))) > 0 && strings.TrimSpace(string(body)) != "{}" {
			return errResp(http.StatusBadRequest, "%s takes no request body", op)
		}
		if run.Status == RunCompleted || run.Status == RunAborted {
			return errResp(http.StatusBadRequest, "Cannot %s release pipeline trigger %q: it is %s", op, id, run.Status)
		}
	default:
		return errResp(http.StatusNotFound, "Not found: %s/release_pipeline_triggers/%s/%s", basePath, id, op)
	}
	record := func(typ string) {
		run.Actions = append(run.Actions, RunAction{Type: typ, TimeMs: now.UnixMilli(), PhaseID: run.CurrentPhaseID, ActorID: modifierID, ActorName: modifierName})
	}
	refuse := func() response {
		return errResp(http.StatusBadRequest, "Cannot %s release pipeline trigger %q: it is %s", op, id, run.Status)
	}
	switch op {
	case "approve":
		if run.Status != RunWaitingForReview {
			return refuse()
		}
		record("APPROVED_FOR")
		run.Status = RunInProgress
		end := now.Add(rs.bake()).UnixMilli()
		run.CurrentPhaseEndTime = &end
	case "pause":
		if run.Status != RunInProgress {
			return refuse()
		}
		record("PAUSED")
		rs.remaining = max(time.UnixMilli(*run.CurrentPhaseEndTime).Sub(now), 0)
		run.Status, run.CurrentPhaseEndTime = RunPaused, nil
	case "unpause":
		if run.Status != RunPaused {
			return refuse()
		}
		record("UNPAUSED")
		end := now.Add(rs.remaining).UnixMilli()
		run.Status, run.CurrentPhaseEndTime = RunInProgress, &end
	case "skip":
		record("SKIPPED")
		rs.next(now)
	case "rollout":
		record("FULL_ROLL_OUT")
		run.Status, run.CurrentPhaseEndTime = RunCompleted, nil
	case "abort":
		record("ABORTED")
		s.abortRun(rs)
	}
	return okResp("Release pipeline trigger updated successfully", rs.copy())
}
