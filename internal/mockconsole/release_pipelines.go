// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"fmt"
	"net/http"
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
	p      Pipeline
	locked bool // a rollout is in progress: writes are refused
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
	if strings.TrimSpace(req.Name) == "" {
		return errResp(http.StatusBadRequest, "name must not be empty")
	}
	for i, ph := range req.Phases {
		if strings.TrimSpace(ph.Name) == "" {
			return errResp(http.StatusBadRequest, "phases[%d].name must not be empty", i)
		}
		if ph.TimeIntervalMs < 0 {
			return errResp(http.StatusBadRequest, "phases[%d].timeIntervalMs must be greater than or equal to 0", i)
		}
		for j, r := range ph.Rules {
			if bad := conditionsRefused(r.Conditions, fmt.Sprintf("phases[%d].rules[%d]", i, j)); bad != nil {
				return *bad
			}
		}
	}

	oldPhase := map[string]bool{}
	oldRule := map[string]bool{}
	for _, ph := range st.p.Phases {
		oldPhase[ph.ID] = true
		for _, r := range ph.Rules {
			oldRule[r.ID] = true
		}
	}
	used := map[string]bool{}
	for k := range oldPhase {
		used[k] = true
	}
	for k := range oldRule {
		used[k] = true
	}
	taken := map[string]bool{}
	phases := make([]Phase, len(req.Phases))
	for i, ph := range req.Phases {
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
	st.p.Name = req.Name
	st.p.Phases = phases
	st.p.LastModifierID = s.modifierID()
	return okResp("Release pipeline updated successfully", st.p.clone())
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
