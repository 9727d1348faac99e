// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Rule is one rule of a gate.
type Rule struct {
	Name             string      `json:"name"`
	ID               string      `json:"id"`
	BaseID           string      `json:"baseID"`
	PassPercentage   float64     `json:"passPercentage"`
	Conditions       []Condition `json:"conditions"`
	ReturnValue      any         `json:"returnValue"`
	ReturnValueJSON5 any         `json:"returnValueJson5"`
	Environments     []string    `json:"environments"`
	// Variants split the users a config rule passes (config_variants.go); gate rules have none.
	Variants []Variant `json:"variants,omitempty"`
	// The steps of a schedule that raises passPercentage at set times (ScheduledRollouts);
	// read-only: a write that carries them is refused.
	PendingAutomatedRollouts   []AutomatedRollout `json:"pendingAutomatedRollouts,omitempty"`
	CompletedAutomatedRollouts []AutomatedRollout `json:"completedAutomatedRollouts,omitempty"`
}

// Gate is a feature gate. Name, Type and IDType left empty take the service's defaults when the
// gate is stored (withGateDefaults).
type Gate struct {
	ID               string   `json:"id"`
	Name             string   `json:"name"`
	IsEnabled        bool     `json:"isEnabled"`
	Description      string   `json:"description"`
	Status           string   `json:"status"`
	LastModifierName string   `json:"lastModifierName"`
	LastModifierID   string   `json:"lastModifierID"`
	Rules            []Rule   `json:"rules"`
	Tags             []string `json:"tags"`
	Type             string   `json:"type"`
	// TypeReason is why the service judges the gate stale (Type "STALE"; see MarkGateStale), "NONE"
	// otherwise.
	TypeReason        string   `json:"typeReason"`
	IDType            string   `json:"idType"`
	TargetApps        []string `json:"targetApps"`        // target apps by name
	ReleasePipelineID string   `json:"releasePipelineID"` // "" for none
	CreatorName       string   `json:"creatorName"`
	CreatedTime       int64    `json:"createdTime"`
	Audited
	// ChecksPerHour is the service's count of the gate's checks: null, as the mock has no traffic.
	ChecksPerHour *float64 `json:"checksPerHour"`
	// Owner is filled in by the service after a create through the API (OwnerLater); the create
	// answer leaves it out.
	Owner *Owner `json:"owner,omitempty"`
}

// Gates: created, read, listed, their own fields changed and deleted (below); their rules
// are written as a whole with PATCH .../rules. A rule's id is baseID:passPercentage:counter and
// changes whenever the rule's content does; its baseID stays.

type gateState struct {
	gate    Gate
	counter int // the highest counter of any rule id the gate has had
	// oldRuleWrites: the gate is served by a service version whose rule writes do not take
	// (PartialRuleWrites).
	oldRuleWrites bool
	// runless: rule writes to the gate take effect at once and start no run of its pipeline, as
	// the service's docs said through 2025 (ServeRunlessRuleWrites).
	runless bool
	// written is when (on the run clock) the gate was created or last written: a TEMPORARY gate
	// left alone for staleAfter reads STALE (tickStaleness).
	written time.Time
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
	g = withGateDefaults(g.clone())
	st.written = s.clock.now()
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
	s.tickRollouts()
	s.tickStaleness()
	listed := s.gates
	// Archived gates are left out unless asked for (includeArchived=true).
	if !strings.EqualFold(r.URL.Query().Get("includeArchived"), "true") {
		listed = maps.Clone(s.gates)
		maps.DeleteFunc(listed, func(_ string, st *gateState) bool { return st.gate.Status == gateStatusArchived })
	}
	return listByKey(s, r, listed, "/gates", "Gates", (*gateState).clone)
}

func (s *Server) getGate(id string) response {
	s.tickRollouts()
	s.tickStaleness()
	return readOne(s.gates, "Gate", id, (*gateState).clone)
}

type gateRulesReq struct {
	Rules *[]Rule `json:"rules"`
}

type ruleContent struct {
	Name           string      `json:"name"`
	PassPercentage float64     `json:"passPercentage"`
	Conditions     []Condition `json:"conditions"`
	Environments   []string    `json:"environments"`
	ReturnValue    any         `json:"returnValue"`
	// Variants are a config rule's: a change of them alone is a change of the rule.
	Variants []variantContent `json:"variants,omitempty"`
}

// contentOf is what decides whether a rule changed; like the stored form, it does not tell an
// absent targetValue from an empty one.
func contentOf(r Rule) []byte {
	conds := make([]Condition, len(r.Conditions))
	for i, c := range r.Conditions {
		if c.TargetValue == nil {
			c.TargetValue = []any{}
		}
		conds[i] = c
	}
	b, _ := json.Marshal(ruleContent{r.Name, r.PassPercentage, conds, r.Environments, r.ReturnValue, variantContents(r.Variants)})
	return b
}

func (s *Server) updateGateRules(id string, body []byte) response {
	s.tickRollouts()
	st, req, bad := writeTo[gateRulesReq](s.gates, "Gate", id, body)
	if bad != nil {
		return *bad
	}
	if req.Rules == nil {
		return errResp(http.StatusBadRequest, "rules is required")
	}
	if bad := ruleFieldsRefused(body); bad != nil {
		return *bad
	}
	if bad := archivedRefused(st); bad != nil {
		return *bad
	}
	if rs := s.activeRunOfGate(id); rs != nil {
		return errResp(http.StatusBadRequest, "Gate %q is being rolled out by release pipeline trigger %q (%s, phase %q): "+
			"its rules cannot change until the trigger is completed or aborted", id, rs.run.ID, rs.run.Status, rs.run.CurrentPhase)
	}
	in := *req.Rules
	if bad := rulesRefused(in); bad != nil {
		return *bad
	}
	if bad := gateVariantsRefused(in); bad != nil {
		return *bad
	}
	// Only the rules the gate holds keep a baseID sent back: those an aborted run took away get
	// new ones, as the live service gives them (issue 31).
	out := s.withRuleIDs(in, st.gate.Rules, &st.counter)
	if s.habits.PartialRuleWrites && st.oldRuleWrites {
		out = changesOnly(st.gate.Rules, heldOf(out, st.gate.Rules))
	}
	prev := st.gate.Rules
	st.gate.Rules = out
	freshen(&st.gate)
	st.written = s.clock.now()
	st.gate.LastModifierName = modifierName
	st.gate.LastModifierID = s.modifierID()
	st.gate.LastModifiedTime = s.now().UnixMilli()
	s.startGateRun(id, st, prev)
	return okResp("Gate rules updated successfully", st.gate.clone())
}

// rulesRefused is the service's check of a rule list, gate or segment rules alike.
func rulesRefused(in []Rule) *response {
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
func (s *Server) withRuleIDs(in, held []Rule, counter *int) []Rule {
	current := map[string]Rule{}
	for _, r := range held {
		current[r.BaseID] = r
	}
	taken := map[string]bool{}
	out := make([]Rule, len(in))
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
			r.PendingAutomatedRollouts, r.CompletedAutomatedRollouts = cur.PendingAutomatedRollouts, cur.CompletedAutomatedRollouts
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

// heldOf is the rules written that the object already held, by baseID (a new rule gets a new one).
func heldOf(written, held []Rule) map[string]Rule {
	had := map[string]bool{}
	for _, r := range held {
		had[r.BaseID] = true
	}
	out := map[string]Rule{}
	for _, r := range written {
		if had[r.BaseID] {
			out[r.BaseID] = r
		}
	}
	return out
}

func ruleID(baseID string, pct float64, counter int) string {
	return baseID + ":" + strconv.FormatFloat(pct, 'f', -1, 64) + ":" + strconv.Itoa(counter)
}

func (g Gate) clone() Gate {
	g.Tags = nonNilStrings(g.Tags)
	g.TargetApps = nonNilStrings(g.TargetApps)
	if g.Owner != nil {
		o := *g.Owner
		g.Owner = &o
	}
	rules := make([]Rule, len(g.Rules))
	for i, r := range g.Rules {
		r.Conditions = withTargets(r.Conditions, copyJSON)
		r.ReturnValue = copyJSON(r.ReturnValue)
		r.ReturnValueJSON5 = copyJSON(r.ReturnValueJSON5)
		r.Environments = copyStrings(r.Environments)
		r.Variants = cloneVariants(r.Variants)
		r.PendingAutomatedRollouts = slices.Clone(r.PendingAutomatedRollouts)
		r.CompletedAutomatedRollouts = slices.Clone(r.CompletedAutomatedRollouts)
		rules[i] = r
	}
	g.Rules = rules
	return g
}

// ---- the gate's own fields: POST /gates, PATCH /gates/{id}, DELETE /gates/{id} ----

// The service's patterns for a gate (its OpenAPI document): ids 3-100 of [A-Za-z0-9_.-], display
// names 3-100 of letters, digits, space, _ - and ., descriptions at most 1,000 characters.
var (
	gateIDPattern   = regexp.MustCompile(`^[A-Za-z0-9_.-]{3,100}$`)
	gateNamePattern = regexp.MustCompile(`^[A-Za-z0-9 _.-]{3,100}$`)
)

const (
	gateTypePermanent = "PERMANENT"
	gateTypeTemporary = "TEMPORARY"
	// gateTypeStale is the service's verdict on a TEMPORARY gate (see MarkGateStale), never written.
	gateTypeStale      = "STALE"
	typeReasonNone     = "NONE"
	gateStatusArchived = "Archived"
	maxDescription     = 1000
	defaultIDType      = "userID"
	defaultGateStatus  = "In Progress"
)

// gateFieldsReq is the body of a create or a change of a gate's fields; nil is a field left out.
// Strict decoding refuses what the service refuses here, rules among them.
type gateFieldsReq struct {
	ID                *string   `json:"id"`
	Name              *string   `json:"name"`
	Description       *string   `json:"description"`
	IsEnabled         *bool     `json:"isEnabled"`
	Tags              *[]string `json:"tags"`
	Type              *string   `json:"type"`
	IDType            *string   `json:"idType"`
	TargetApps        *[]string `json:"targetApps"`
	ReleasePipelineID link      `json:"releasePipelineID"`
}

// withGateDefaults gives a gate the service's defaults for what it was stored without.
func withGateDefaults(g Gate) Gate {
	g.Name = cmp.Or(g.Name, g.ID)
	g.Type = cmp.Or(g.Type, gateTypePermanent)
	g.IDType = cmp.Or(g.IDType, defaultIDType)
	g.Status = cmp.Or(g.Status, defaultGateStatus)
	g.TypeReason = cmp.Or(g.TypeReason, typeReasonNone)
	g.Tags, g.TargetApps = nonNilStrings(g.Tags), nonNilStrings(g.TargetApps)
	if g.Rules == nil {
		g.Rules = []Rule{}
	}
	return g
}

// gateFieldsRefused is the service's 400 for the fields of a gate; s.mu is held.
func (s *Server) gateFieldsRefused(req gateFieldsReq) *response {
	bad := func(format string, args ...any) *response {
		r := errResp(http.StatusBadRequest, format, args...)
		return &r
	}
	if req.Name != nil && !gateNamePattern.MatchString(*req.Name) {
		return bad("name must be 3 to 100 letters, digits, spaces, '_', '-' or '.'")
	}
	if req.Description != nil && utf8.RuneCountInString(*req.Description) > maxDescription {
		return bad("description must be at most %d characters", maxDescription)
	}
	if req.Type != nil && *req.Type != gateTypePermanent && *req.Type != gateTypeTemporary {
		return bad("type must be one of the following values: %s, %s", gateTypePermanent, gateTypeTemporary)
	}
	if req.IDType != nil && strings.TrimSpace(*req.IDType) == "" {
		return bad("idType must not be empty")
	}
	if req.Tags != nil {
		for i, t := range *req.Tags {
			if strings.TrimSpace(t) == "" {
				return bad("tags[%d] must not be empty", i)
			}
		}
	}
	return linkRefused(req.ReleasePipelineID, s.pipelines, "Release pipeline")
}

// setGateFields applies the fields a request carries and stamps the write.
func (s *Server) setGateFields(g *Gate, req gateFieldsReq) {
	if req.Name != nil {
		g.Name = *req.Name
	}
	if req.Description != nil {
		g.Description = *req.Description
	}
	if req.IsEnabled != nil {
		g.IsEnabled = *req.IsEnabled
	}
	if req.Tags != nil {
		g.Tags = nonNilStrings(*req.Tags)
	}
	if req.TargetApps != nil {
		g.TargetApps = nonNilStrings(*req.TargetApps)
	}
	if req.Type != nil {
		g.Type = *req.Type
	}
	if req.IDType != nil {
		g.IDType = *req.IDType
	}
	req.ReleasePipelineID.setInto(&g.ReleasePipelineID)
	freshen(g)
	g.LastModifierName = modifierName
	g.LastModifierID = modifierID
}

func (s *Server) createGate(body []byte) response {
	req, bad := decoded[gateFieldsReq](body)
	if bad != nil {
		return *bad
	}
	if req.ID == nil || !gateIDPattern.MatchString(*req.ID) {
		return errResp(http.StatusBadRequest, "id must be 3 to 100 of the characters A-Z, a-z, 0-9, '_', '-' and '.'")
	}
	if bad := s.gateFieldsRefused(req); bad != nil {
		return *bad
	}
	id := *req.ID
	if _, exists := s.gates[id]; exists {
		return errResp(http.StatusBadRequest, "Gate with id %q already exists", id)
	}
	g := Gate{ID: id, IsEnabled: true, CreatorName: modifierName, CreatedTime: s.now().UnixMilli()}
	s.setGateFields(&g, req)
	s.gates[id] = &gateState{gate: withGateDefaults(g), written: s.clock.now()}
	resp := okResp("Gate created successfully", s.gates[id].clone())
	resp.status = http.StatusCreated
	s.gates[id].gate.Owner = s.apiOwnerLocked() // reads show it from now on; the answer above does not
	return resp
}

func (s *Server) updateGate(id string, body []byte) response {
	st, req, bad := writeTo[gateFieldsReq](s.gates, "Gate", id, body)
	if bad != nil {
		return *bad
	}
	if req.ID != nil {
		return errResp(http.StatusBadRequest, "id cannot be changed")
	}
	if bad := archivedRefused(st); bad != nil {
		return *bad
	}
	if bad := s.gateFieldsRefused(req); bad != nil {
		return *bad
	}
	s.setGateFields(&st.gate, req)
	st.written = s.clock.now()
	return okResp("Gate updated successfully", st.clone())
}

func (s *Server) deleteGate(id string) response {
	if _, miss := find(s.gates, "Gate", id); miss != nil {
		return *miss
	}
	delete(s.gates, id)
	return messageResp("Gate deleted successfully.")
}
