// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// GateRule is one rule of a gate.
type GateRule struct {
	Name             string      `json:"name"`
	ID               string      `json:"id"`
	BaseID           string      `json:"baseID"`
	PassPercentage   float64     `json:"passPercentage"`
	Conditions       []Condition `json:"conditions"`
	ReturnValue      any         `json:"returnValue"`
	ReturnValueJSON5 any         `json:"returnValueJson5"`
	Environments     []string    `json:"environments"`
}

// Gate is a feature gate.
type Gate struct {
	ID               string     `json:"id"`
	IsEnabled        bool       `json:"isEnabled"`
	Description      string     `json:"description"`
	Status           string     `json:"status"`
	LastModifierName string     `json:"lastModifierName"`
	LastModifierID   string     `json:"lastModifierID"`
	Rules            []GateRule `json:"rules"`
	Tags             []string   `json:"tags"`
}

// Gates: read and list; their rules are written as a whole with PATCH .../rules. A rule's id is
// baseID:passPercentage:counter and changes whenever the rule's content does; its baseID stays.

type gateState struct {
	gate    Gate
	counter int // the highest counter of any rule id the gate has had
}

// clone is the gate as the service answers it.
func (st *gateState) clone() Gate { return st.gate.clone() }

// Gate returns a deep copy of the gate.
func (s *Server) Gate(id string) (Gate, bool) {
	return stored(s, s.gates, id, (*gateState).clone)
}

// PutGate creates or replaces a gate; rules lacking baseID/id get them.
func (s *Server) PutGate(g Gate) {
	s.locked(func() { s.putGate(g) })
}

func (s *Server) putGate(g Gate) {
	st := s.gates[g.ID]
	if st == nil {
		st = &gateState{}
		s.gates[g.ID] = st
	}
	g = g.clone()
	for i := range g.Rules {
		r := &g.Rules[i]
		r.Conditions = withTargets(r.Conditions, normJSON)
		r.Environments = normEnvs(r.Environments)
		r.ReturnValue = normJSON(r.ReturnValue)
		if r.ReturnValue == nil {
			r.ReturnValue = map[string]any{}
		}
		r.ReturnValueJSON5 = normJSON(r.ReturnValueJSON5)
		if r.ReturnValueJSON5 == nil {
			r.ReturnValueJSON5 = copyJSON(r.ReturnValue)
		}
		if r.ID != "" {
			if parts := strings.Split(r.ID, ":"); len(parts) >= 3 {
				if n, err := strconv.Atoi(parts[len(parts)-1]); err == nil && n > st.counter {
					st.counter = n
				}
			}
		}
	}
	for i := range g.Rules {
		r := &g.Rules[i]
		if r.BaseID == "" {
			r.BaseID = s.newBaseID()
		}
		s.usedBaseIDs[r.BaseID] = true
		if r.ID == "" {
			st.counter++
			r.ID = ruleID(r.BaseID, r.PassPercentage, st.counter)
		}
		if s.habits.ConsoleRules {
			r.ID = r.BaseID // written in the console
		}
	}
	st.gate = g
}

// DeleteGate removes a gate.
func (s *Server) DeleteGate(id string) {
	remove(s, s.gates, id)
}

// GateIDs returns the ids of all gates, sorted.
func (s *Server) GateIDs() []string {
	return sortedKeys(s, s.gates)
}

// ---- endpoints ----

func (s *Server) listGates(r *http.Request) response {
	return listByKey(s, r, s.gates, "/gates", "Gates", (*gateState).clone)
}

func (s *Server) getGate(id string) response {
	return readOne(s.gates, "Gate", id, (*gateState).clone)
}

type gateRulesReq struct {
	Rules *[]GateRule `json:"rules"`
}

type ruleContent struct {
	Name           string      `json:"name"`
	PassPercentage float64     `json:"passPercentage"`
	Conditions     []Condition `json:"conditions"`
	Environments   []string    `json:"environments"`
	ReturnValue    any         `json:"returnValue"`
}

// contentOf is what decides whether a rule changed; like the stored form, it does not tell an
// absent targetValue from an empty one.
func contentOf(r GateRule) []byte {
	conds := make([]Condition, len(r.Conditions))
	for i, c := range r.Conditions {
		if c.TargetValue == nil {
			c.TargetValue = []any{}
		}
		conds[i] = c
	}
	b, _ := json.Marshal(ruleContent{r.Name, r.PassPercentage, conds, r.Environments, r.ReturnValue})
	return b
}

func (s *Server) updateGateRules(id string, body []byte) response {
	st, req, bad := writeTo[gateRulesReq](s.gates, "Gate", id, body)
	if bad != nil {
		return *bad
	}
	if req.Rules == nil {
		return errResp(http.StatusBadRequest, "rules is required")
	}
	in := *req.Rules
	if bad := rulesRefused(in); bad != nil {
		return *bad
	}
	out := s.withRuleIDs(in, st.gate.Rules, &st.counter)
	st.gate.Rules = out
	st.gate.LastModifierName = modifierName
	st.gate.LastModifierID = modifierID
	return okResp("Gate rules updated successfully", st.gate.clone())
}

// rulesRefused is the service's check of a rule list, gate or segment rules alike.
func rulesRefused(in []GateRule) *response {
	names := map[string]int{}
	for i, r := range in {
		if strings.TrimSpace(r.Name) == "" {
			return ref(errResp(http.StatusBadRequest, "rules[%d].name must not be empty", i))
		}
		if j, dup := names[r.Name]; dup {
			return ref(errResp(http.StatusBadRequest, "rules[%d].name %q duplicates rules[%d].name", i, r.Name, j))
		}
		names[r.Name] = i
		if r.PassPercentage < 0 || r.PassPercentage > 100 {
			return ref(errResp(http.StatusBadRequest, "rules[%d].passPercentage must be between 0 and 100", i))
		}
		if bad := conditionsRefused(r.Conditions, fmt.Sprintf("rules[%d]", i)); bad != nil {
			return bad
		}
		if r.ReturnValue != nil {
			if _, isObj := r.ReturnValue.(map[string]any); !isObj {
				return ref(errResp(http.StatusBadRequest, "rules[%d].returnValue must be a JSON object", i))
			}
		}
		if r.ReturnValueJSON5 != nil {
			if _, isObj := r.ReturnValueJSON5.(map[string]any); !isObj {
				return ref(errResp(http.StatusBadRequest, "rules[%d].returnValueJson5 must be a JSON object", i))
			}
		}
	}
	return nil
}

func ref(r response) *response { return &r }

// withRuleIDs gives the rules written their ids, as the service does for gate and segment rules: a
// baseID sent back that the object holds is kept, and so is the id of a rule whose content did not
// change; any other rule is new. counter is the object's highest rule id counter.
func (s *Server) withRuleIDs(in, held []GateRule, counter *int) []GateRule {
	current := map[string]GateRule{}
	for _, r := range held {
		current[r.BaseID] = r
	}
	taken := map[string]bool{}
	out := make([]GateRule, len(in))
	for i, r := range in {
		if r.Conditions == nil {
			r.Conditions = []Condition{}
		}
		r.Environments = normEnvs(r.Environments)
		if r.ReturnValue == nil {
			r.ReturnValue = map[string]any{}
		}
		if r.ReturnValueJSON5 == nil {
			r.ReturnValueJSON5 = copyJSON(r.ReturnValue)
		}
		cur, exists := current[r.BaseID]
		if r.BaseID != "" && exists && !taken[r.BaseID] {
			if bytes.Equal(contentOf(cur), contentOf(r)) && !s.habits.ConsoleRules {
				r.ID = cur.ID
			} else {
				*counter++
				r.ID = ruleID(r.BaseID, r.PassPercentage, *counter)
			}
		} else {
			r.BaseID = s.newBaseID()
			*counter++
			r.ID = ruleID(r.BaseID, r.PassPercentage, *counter)
		}
		taken[r.BaseID] = true
		out[i] = r
	}
	return out
}

func ruleID(baseID string, pct float64, counter int) string {
	return baseID + ":" + strconv.FormatFloat(pct, 'f', -1, 64) + ":" + strconv.Itoa(counter)
}

func (g Gate) clone() Gate {
	g.Tags = nonNilStrings(g.Tags)
	rules := make([]GateRule, len(g.Rules))
	for i, r := range g.Rules {
		r.Conditions = withTargets(r.Conditions, copyJSON)
		r.ReturnValue = copyJSON(r.ReturnValue)
		r.ReturnValueJSON5 = copyJSON(r.ReturnValueJSON5)
		r.Environments = copyStrings(r.Environments)
		rules[i] = r
	}
	g.Rules = rules
	return g
}
