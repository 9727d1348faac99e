// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// PipelineRule is a rule of a release pipeline phase.
type PipelineRule struct {
	ID           string      `json:"id"`
	Name         string      `json:"name"`
	Conditions   []Condition `json:"conditions"`
	Environments []string    `json:"environments"`
}

// Phase is a phase of a release pipeline.
type Phase struct {
	ID             string         `json:"id"`
	Name           string         `json:"name"`
	TimeIntervalMs int64          `json:"timeIntervalMs"`
	RequiredReview bool           `json:"requiredReview"`
	Rules          []PipelineRule `json:"rules"`
}

// Pipeline is a release pipeline.
type Pipeline struct {
	ID             string  `json:"id"`
	Name           string  `json:"name"`
	CreatorID      string  `json:"creatorID"`
	CreatedTime    int64   `json:"createdTime"`
	LastModifierID string  `json:"lastModifierID"`
	Phases         []Phase `json:"phases"`
}

// Release pipelines: read, list and replace (POST, name and phases as a whole). Phase and rule ids
// sent back are kept; new ones, or ids sent twice, get fresh ones.

type pipelineState struct {
	p         Pipeline
	locked    bool // a rollout is in progress: writes are refused
	oldWrites bool // served by a service version whose writes do not take (PartialPipelineWrites)
}

// clone is the pipeline as the service answers it.
func (st *pipelineState) clone() Pipeline { return st.p.clone() }

// Pipeline returns a deep copy of the pipeline.
func (s *Server) Pipeline(id string) (Pipeline, bool) {
	return stored(s, s.pipelines, id, (*pipelineState).clone)
}

// PutPipeline creates or replaces a pipeline; phases/rules lacking ids get them.
// The lock flag of an existing pipeline is kept.
func (s *Server) PutPipeline(p Pipeline) {
	s.locked(func() { s.putPipeline(p) })
}

func (s *Server) putPipeline(p Pipeline) {
	p = p.clone()
	used := map[string]bool{}
	for _, ph := range p.Phases {
		used[ph.ID] = true
		for _, r := range ph.Rules {
			used[r.ID] = true
		}
	}
	for i := range p.Phases {
		ph := &p.Phases[i]
		if ph.ID == "" {
			ph.ID = s.newLocalID("ph_", used)
		}
		for j := range ph.Rules {
			r := &ph.Rules[j]
			if r.ID == "" {
				r.ID = s.newLocalID("pr_", used)
			}
			r.Conditions = withTargets(r.Conditions, normJSON)
			r.Environments = normEnvs(r.Environments)
		}
	}
	st := s.pipelines[p.ID]
	if st == nil {
		st = &pipelineState{}
		s.pipelines[p.ID] = st
	}
	st.p = p
}

// DeletePipeline removes a pipeline.
func (s *Server) DeletePipeline(id string) {
	remove(s, s.pipelines, id)
}

// ServeOldPipelineWrites makes the pipeline's writes those of a service version on which they do
// not take (old) or of a current one: with PartialPipelineWrites on, a write to an old one changes
// only the phases and rules the pipeline already holds.
func (s *Server) ServeOldPipelineWrites(id string, old bool) error {
	var err error
	s.locked(func() {
		st, ok := s.pipelines[id]
		if !ok {
			err = fmt.Errorf("release pipeline %q not found", id)
			return
		}
		st.oldWrites = old
	})
	return err
}

// LockPipeline flags a pipeline as having a rollout in progress (POST → 400).
func (s *Server) LockPipeline(id string, locked bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.pipelines[id]; ok {
		st.locked = locked
	}
}

// ---- endpoints ----

func (s *Server) listPipelines(r *http.Request) response {
	return listByKey(s, r, s.pipelines, "/release_pipelines", "Release pipelines", (*pipelineState).clone)
}

func (s *Server) getPipeline(id string) response {
	return readOne(s.pipelines, "Release pipeline", id, (*pipelineState).clone)
}

type pipelineUpdateReq struct {
	Name   string  `json:"name"`
	Phases []Phase `json:"phases"`
}

func (s *Server) updatePipeline(id string, body []byte) response {
	st, req, bad := writeTo[pipelineUpdateReq](s.pipelines, "Release pipeline", id, body)
	if bad != nil {
		return *bad
	}
	if st.locked {
		return errResp(http.StatusBadRequest, "Cannot modify release pipeline %q: a rollout is in progress", id)
	}
	if run := s.activeRunOf(id); run != "" {
		return errResp(http.StatusBadRequest, "Cannot modify release pipeline %q: release pipeline trigger %q is in progress", id, run)
	}
	if bad := req.refused(); bad != nil {
		return *bad
	}
	st.p.Name = req.Name
	if s.habits.PartialPipelineWrites && st.oldWrites {
		req.Phases = onlyHeld(st.p.Phases, req.Phases)
	}
	st.p.Phases = s.withNewIDs(st.p.Phases, req.Phases)
	st.p.LastModifierID = s.modifierID()
	return okResp("Release pipeline updated successfully", st.p.clone())
}

// createPipeline is POST /release_pipelines: the service chooses every id.
func (s *Server) createPipeline(body []byte) response {
	req, bad := decoded[pipelineUpdateReq](body)
	if bad != nil {
		return *bad
	}
	if bad := req.refused(); bad != nil {
		return *bad
	}
	used := map[string]bool{}
	for id := range s.pipelines {
		used[id] = true
	}
	p := Pipeline{ID: s.newLocalID("pl_", used), Name: req.Name, CreatorID: modifierID, LastModifierID: modifierID,
		CreatedTime: s.clock.now().UnixMilli(), Phases: s.withNewIDs(nil, req.Phases)}
	s.pipelines[p.ID] = &pipelineState{p: p}
	return okResp("Release pipeline created successfully", p.clone())
}

// deletePipeline is DELETE /release_pipelines/{id}, refused while a gate is attached to the
// pipeline or a run of it has not ended.
func (s *Server) deletePipeline(id string) response {
	st, miss := find(s.pipelines, "Release pipeline", id)
	if miss != nil {
		return *miss
	}
	for _, gid := range slices.Sorted(maps.Keys(s.gates)) {
		if s.gates[gid].gate.ReleasePipelineID == id {
			return errResp(http.StatusBadRequest, "Cannot delete release pipeline %q: gate %q is attached to it", id, gid)
		}
	}
	if st.locked {
		return errResp(http.StatusBadRequest, "Cannot delete release pipeline %q: a rollout is in progress", id)
	}
	if run := s.activeRunOf(id); run != "" {
		return errResp(http.StatusBadRequest, "Cannot delete release pipeline %q: release pipeline trigger %q is in progress", id, run)
	}
	delete(s.pipelines, id)
	return messageResp("Release pipeline deleted successfully")
}

// activeRunOf is the id of a run of the pipeline that has not ended, or ""; s.mu is held.
func (s *Server) activeRunOf(pipelineID string) string {
	s.tickRuns()
	for _, id := range slices.Sorted(maps.Keys(s.runs)) {
		rs := s.runs[id]
		if rs.run.ReleasePipelineID == pipelineID && rs.run.Status != RunCompleted && rs.run.Status != RunAborted {
			return id
		}
	}
	return ""
}

// refused is the service's 400 for a pipeline it does not take, or nil.
func (req pipelineUpdateReq) refused() *response {
	bad := func(format string, args ...any) *response {
		e := errResp(http.StatusBadRequest, format, args...)
		return &e
	}
	if strings.TrimSpace(req.Name) == "" {
		return bad("name must not be empty")
	}
	for i, ph := range req.Phases {
		if strings.TrimSpace(ph.Name) == "" {
			return bad("phases[%d].name must not be empty", i)
		}
		if ph.TimeIntervalMs < 0 {
			return bad("phases[%d].timeIntervalMs must be greater than or equal to 0", i)
		}
		for j, r := range ph.Rules {
			if bad := conditionsRefused(r.Conditions, fmt.Sprintf("phases[%d].rules[%d]", i, j)); bad != nil {
				return bad
			}
		}
	}
	return nil
}

// onlyHeld is what a service that does not replace, create or delete makes of a write: the
// phases and rules sent that it holds (by id) as sent, those it holds but were not sent as they
// were, none added.
func onlyHeld(held, sent []Phase) []Phase {
	heldRules := map[string]PipelineRule{}
	for _, ph := range held {
		for _, r := range ph.Rules {
			heldRules[r.ID] = r
		}
	}
	sentPhase := map[string]Phase{}
	for _, ph := range sent {
		sentPhase[ph.ID] = ph
	}
	out := make([]Phase, 0, len(held))
	for _, old := range held {
		ph, ok := sentPhase[old.ID]
		if !ok {
			out = append(out, old)
			continue
		}
		sentRule := map[string]bool{}
		rules := []PipelineRule{}
		for _, r := range ph.Rules {
			if _, ok := heldRules[r.ID]; ok {
				sentRule[r.ID] = true
				rules = append(rules, r)
			}
		}
		for _, r := range old.Rules {
			if !sentRule[r.ID] {
				rules = append(rules, r)
			}
		}
		ph.Rules = rules
		out = append(out, ph)
	}
	return out
}

// withNewIDs is the phases sent, with the ids of old phases and rules sent back kept; new ones, or
// ids sent twice, get fresh ones. s.mu is held.
func (s *Server) withNewIDs(old, sent []Phase) []Phase {
	oldPhase := map[string]bool{}
	oldRule := map[string]bool{}
	used := map[string]bool{}
	for _, ph := range old {
		oldPhase[ph.ID], used[ph.ID] = true, true
		for _, r := range ph.Rules {
			oldRule[r.ID], used[r.ID] = true, true
		}
	}
	taken := map[string]bool{}
	phases := make([]Phase, len(sent))
	for i, ph := range sent {
		if ph.ID == "" || !oldPhase[ph.ID] || taken[ph.ID] {
			ph.ID = s.newLocalID("ph_", used)
		}
		taken[ph.ID] = true
		rules := make([]PipelineRule, len(ph.Rules))
		for j, r := range ph.Rules {
			if r.ID == "" || !oldRule[r.ID] || taken[r.ID] {
				r.ID = s.newLocalID("pr_", used)
			}
			taken[r.ID] = true
			r.Conditions = withTargets(r.Conditions, normJSON)
			r.Environments = normEnvs(r.Environments)
			rules[j] = r
		}
		ph.Rules = rules
		phases[i] = ph
	}
	return phases
}

func (p Pipeline) clone() Pipeline {
	phases := make([]Phase, len(p.Phases))
	for i, ph := range p.Phases {
		rules := make([]PipelineRule, len(ph.Rules))
		for j, r := range ph.Rules {
			r.Conditions = withTargets(r.Conditions, copyJSON)
			r.Environments = copyStrings(r.Environments)
			rules[j] = r
		}
		ph.Rules = rules
		phases[i] = ph
	}
	p.Phases = phases
	return p
}

// PipelineIDs lists the ids of the pipelines stored, sorted.
func (s *Server) PipelineIDs() []string { return sortedKeys(s, s.pipelines) }
