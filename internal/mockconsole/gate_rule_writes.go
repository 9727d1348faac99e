// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"
)

// What a write of a gate's rules does beyond storing them: a gate attached to a release pipeline
// starts a run of it and is locked until the run ends (the contract, always on); some service
// versions apply only changes to rules the gate already holds (PartialRuleWrites); rules may
// carry a schedule that raises their percentage at set times (ScheduledRollouts).

// AutomatedRollout is one step of a rule's schedule: at Time (Unix ms) passPercentage becomes
// PassPercent.
type AutomatedRollout struct {
	Time        int64   `json:"time"`
	PassPercent float64 `json:"passPercent"`
}

// readOnlyRuleFields are the fields of a gate rule the service fills in and refuses in a write.
var readOnlyRuleFields = []string{"pendingAutomatedRollouts", "completedAutomatedRollouts"}

// ruleFieldsRefused is the service's refusal of rule fields no write may carry: an empty id or
// baseID (omitted is how a new rule says it has none), and the read-only schedule.
func ruleFieldsRefused(body []byte) *response {
	var req struct {
		Rules []map[string]json.RawMessage `json:"rules"`
	}
	if json.Unmarshal(body, &req) != nil {
		return nil // the typed decode reports it
	}
	for i, r := range req.Rules {
		for _, k := range []string{"id", "baseID"} {
			if v, ok := r[k]; ok && bytes.Equal(bytes.TrimSpace(v), []byte(`""`)) {
				e := errResp(http.StatusBadRequest, "rules[%d].%s must not be empty", i, k)
				return &e
			}
		}
		for _, k := range readOnlyRuleFields {
			if _, ok := r[k]; ok {
				e := errResp(http.StatusBadRequest, "rules[%d].%s is read-only", i, k)
				return &e
			}
		}
	}
	return nil
}

// activeRunOfGate is the run of a gate that has not ended, if any; s.mu is held.
func (s *Server) activeRunOfGate(gateID string) *runState {
	s.tickRuns()
	for _, rs := range s.runs {
		if rs.run.GateID == gateID && rs.run.Status != RunCompleted && rs.run.Status != RunAborted {
			return rs
		}
	}
	return nil
}

// startGateRun starts a run of the pipeline a gate is attached to when a write changed its rules
// (prev is what they were); the run's abort puts prev back. s.mu is held.
func (s *Server) startGateRun(gateID string, st *gateState, prev []Rule) {
	pid := st.gate.ReleasePipelineID
	if pid == "" || st.runless || sameRuleContents(prev, st.gate.Rules) {
		return
	}
	rs, err := s.startRun(pid, gateID)
	if err != nil {
		return // a pipeline that is gone or has no phases rolls nothing out
	}
	rs.restore = Gate{Rules: prev}.clone().Rules
}

// abortRun ends a run as aborted; a run started by a write of a gate's rules puts back the rules
// the gate had before it. s.mu is held.
func (s *Server) abortRun(rs *runState) {
	rs.run.Status, rs.run.CurrentPhaseEndTime = RunAborted, nil
	if g := s.gates[rs.run.GateID]; g != nil && rs.restore != nil {
		g.gate.Rules = Gate{Rules: rs.restore}.clone().Rules
	}
	s.abortConfigRun(rs)
}

func sameRuleContents(a, b []Rule) bool {
	return slices.EqualFunc(a, b, func(x, y Rule) bool { return x.BaseID == y.BaseID && bytes.Equal(contentOf(x), contentOf(y)) })
}

// changesOnly is what a write that does not take leaves: the rules the gate held, in their order,
// each replaced by the written rule of its baseID; added rules are ignored, omitted ones kept.
func changesOnly(held []Rule, written map[string]Rule) []Rule {
	out := make([]Rule, len(held))
	for i, r := range held {
		if w, ok := written[r.BaseID]; ok {
			r = w
		}
		out[i] = r
	}
	return out
}

// ServeOldRuleWrites makes the gate's rule writes those of a service version on which they do not
// take (old) or of a current one: with PartialRuleWrites on, a write to an old one changes only
// rules the gate already holds.
func (s *Server) ServeOldRuleWrites(gateID string, old bool) error {
	var err error
	s.locked(func() {
		st, ok := s.gates[gateID]
		if !ok {
			err = fmt.Errorf("gate %q not found", gateID)
			return
		}
		st.oldRuleWrites = old
	})
	return err
}

// ServeRunlessRuleWrites makes rule writes to the gate take effect at once and start no run of
// the pipeline it is attached to (runless), or start one as the contract says: the service's docs
// said so through 2025, and writes limited to environments a pipeline leaves out start none
// either (the live service). The answer names no run either way.
func (s *Server) ServeRunlessRuleWrites(gateID string, runless bool) error {
	var err error
	s.locked(func() {
		st, ok := s.gates[gateID]
		if !ok {
			err = fmt.Errorf("gate %q not found", gateID)
			return
		}
		st.runless = runless
	})
	return err
}

// ScheduleRollouts gives the rule of a gate named rule a schedule, as the console does: at each
// step's time (the run clock's; see AdvanceRunClock) the service sets its passPercentage, when
// ScheduledRollouts is on.
func (s *Server) ScheduleRollouts(gateID, rule string, steps ...AutomatedRollout) error {
	var err error
	s.locked(func() {
		st, ok := s.gates[gateID]
		if !ok {
			err = fmt.Errorf("gate %q not found", gateID)
			return
		}
		for i := range st.gate.Rules {
			if r := &st.gate.Rules[i]; r.Name == rule {
				r.PendingAutomatedRollouts = slices.SortedFunc(slices.Values(steps), func(a, b AutomatedRollout) int { return cmp.Compare(a.Time, b.Time) })
				return
			}
		}
		err = fmt.Errorf("gate %q has no rule %q", gateID, rule)
	})
	return err
}

// RunClock is the time runs and schedules see now.
func (s *Server) RunClock() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clock.now()
}

// tickRollouts makes every scheduled step that fell due: the rule takes its percentage and a new
// id, and the step moves to completedAutomatedRollouts. s.mu is held.
func (s *Server) tickRollouts() {
	if !s.habits.ScheduledRollouts {
		return
	}
	now := s.clock.now().UnixMilli()
	for _, st := range s.gates {
		for i := range st.gate.Rules {
			r := &st.gate.Rules[i]
			for len(r.PendingAutomatedRollouts) > 0 && r.PendingAutomatedRollouts[0].Time <= now {
				step := r.PendingAutomatedRollouts[0]
				r.PendingAutomatedRollouts = r.PendingAutomatedRollouts[1:]
				r.CompletedAutomatedRollouts = append(r.CompletedAutomatedRollouts, step)
				r.PassPercentage = step.PassPercent
				st.counter++
				r.ID = ruleID(r.BaseID, r.PassPercentage, st.counter)
			}
		}
	}
}

// scheduleFields gives a gate rule of an answer both schedule lists, [] when it has none: rules
// carry them when ScheduledRollouts is on.
func scheduleFields(rule map[string]any) {
	if _, isGateRule := rule["baseID"]; !isGateRule {
		return
	}
	for _, k := range readOnlyRuleFields {
		if rule[k] == nil {
			rule[k] = []any{}
		}
	}
}
