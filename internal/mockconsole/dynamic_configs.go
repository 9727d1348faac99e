// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
)

// Dynamic configs (POST /dynamic_configs and the routes under /dynamic_configs/{id}): a gate's rules whose returnValue is what the config serves, a
// defaultValue served when no rule passes, and a JSON Schema every value must match, which the
// service enforces on every write (400 naming the value). A config attached to a release pipeline
// with phases starts a run (carrying dynamicConfigID) on every rules write that changes them; the
// run locks the rules until it ends and its abort puts the previous rules back, as for gates.

// DynamicConfig is a dynamic config as the service answers it.
type DynamicConfig struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	IsEnabled    bool            `json:"isEnabled"`
	IDType       string          `json:"idType"`
	DefaultValue json.RawMessage `json:"defaultValue"`
	// Schema is the schema's JSON (nil for none); answers carry it as a string holding its text
	// (MarshalJSON, dynamic_config_wire.go).
	Schema            json.RawMessage `json:"schema"`
	Tags              []string        `json:"tags"`
	TargetApps        []string        `json:"targetApps"`
	Team              string          `json:"team"`
	ReleasePipelineID string          `json:"releasePipelineID"`
	Rules             []Rule          `json:"rules"`
	Version           int64           `json:"version"`
	CreatorName       string          `json:"creatorName"`
	CreatedTime       int64           `json:"createdTime"`
	LastModifierName  string          `json:"lastModifierName"`
	LastModifierID    string          `json:"lastModifierID"`
	Audited
	// Status is Enabled, Disabled or Archived; set by the mock on every answer.
	Status string `json:"status"`
}

type configState struct {
	cfg     DynamicConfig
	counter int
	// retired are the rules aborted runs took away: a baseID of theirs sent back is kept too.
	retired []Rule
	// reordered: answers write the config's JSON values with their keys in another order, other
	// spacing and whole numbers as 5.0 (ServeConfigValuesReordered).
	reordered bool
	// archived: the config refuses writes of its fields and rules (dynamic_config_archive.go).
	archived bool
	// older: answered as an older service version does (ServeOlderConfigService).
	older bool
}

const (
	reviewKindConfig       = "dynamic_config"
	reviewKindConfigFields = "dynamic_config_fields"
)

// configIDPattern is the service's pattern for a config id.
var configIDPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]{3,100}$`)

// clone is the config as the service answers it.
func (st *configState) clone() DynamicConfig {
	c := st.cfg
	c.Tags, c.TargetApps = nonNilStrings(c.Tags), nonNilStrings(c.TargetApps)
	c.DefaultValue = bytes.Clone(c.DefaultValue)
	c.Schema = bytes.Clone(c.Schema)
	c.Rules = Gate{Rules: c.Rules}.clone().Rules
	c.Status = st.status()
	if st.reordered {
		c.DefaultValue = reorderedJSON(c.DefaultValue)
		for i := range c.Rules {
			c.Rules[i].ReturnValue = json.RawMessage(reorderedJSON(marshal(c.Rules[i].ReturnValue)))
			reorderVariants(&c.Rules[i])
		}
	}
	return c
}

// reorderedJSON writes v with the keys of every object in reverse order, spaces after separators
// and whole numbers with ".0": the same JSON as v, written differently.
func reorderedJSON(v []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var x any
	if dec.Decode(&x) != nil {
		return v
	}
	var b bytes.Buffer
	var write func(any)
	write = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			keys := slices.Sorted(func(yield func(string) bool) {
				for k := range t {
					if !yield(k) {
						return
					}
				}
			})
			slices.Reverse(keys)
			b.WriteString("{ ")
			for i, k := range keys {
				if i > 0 {
					b.WriteString(", ")
				}
				kb, _ := json.Marshal(k)
				b.Write(kb)
				b.WriteString(": ")
				write(t[k])
			}
			b.WriteString(" }")
		case []any:
			b.WriteString("[ ")
			for i, e := range t {
				if i > 0 {
					b.WriteString(", ")
				}
				write(e)
			}
			b.WriteString(" ]")
		case json.Number:
			s := t.String()
			if !strings.ContainsAny(s, ".eE") {
				s += ".0"
			}
			b.WriteString(s)
		default:
			eb, _ := json.Marshal(t)
			b.Write(eb)
		}
	}
	write(x)
	return b.Bytes()
}

// canonical is a JSON value with sorted keys and exact number text.
func canonical(raw []byte) []byte { return marshal(normJSON(json.RawMessage(raw))) }

// ---- test accessors ----

// DynamicConfig returns a copy of the config as the service holds it.
func (s *Server) DynamicConfig(id string) (DynamicConfig, bool) {
	return stored(s, s.configs, id, func(st *configState) DynamicConfig {
		c := *st
		c.reordered = false
		return c.clone()
	})
}

// DeleteDynamicConfig removes a config, as the console does.
func (s *Server) DeleteDynamicConfig(id string) { remove(s, s.configs, id) }

// DynamicConfigIDs lists the ids of all configs, sorted.
func (s *Server) DynamicConfigIDs() []string { return sortedKeys(s, s.configs) }

// PutDynamicConfig creates or replaces a config as the console would (no schema check); rules
// lacking baseID or id get them.
func (s *Server) PutDynamicConfig(c DynamicConfig) {
	s.locked(func() {
		st := s.configs[c.ID]
		if st == nil {
			st = &configState{}
			s.configs[c.ID] = st
		}
		c = withConfigDefaults(c)
		c.DefaultValue, c.Schema = canonical(c.DefaultValue), canonicalSchema(c.Schema)
		rules := Gate{Rules: c.Rules}.clone().Rules
		for i := range rules {
			r := &rules[i]
			r.Conditions = withTargets(r.Conditions, normJSON)
			r.ReturnValue = normJSON(r.ReturnValue)
			if r.ReturnValue == nil {
				r.ReturnValue = map[string]any{}
			}
			r.ReturnValueJSON5 = copyJSON(r.ReturnValue)
			if r.BaseID == "" {
				r.BaseID = s.newBaseID()
			}
			if r.ID == "" {
				st.counter++
				r.ID = ruleID(r.BaseID, r.PassPercentage, st.counter)
			}
			s.storeVariants(r, func(v Variant) bool { return v.ID != "" })
		}
		c.Rules = rules
		st.cfg = c
	})
}

// SetConfigRuleReturnValue is someone changing the return value of a config's rule in the console
// (value is JSON); the rule keeps its baseID and gets a new id.
func (s *Server) SetConfigRuleReturnValue(configID, rule, value string) error {
	var err error
	s.locked(func() {
		st, ok := s.configs[configID]
		if !ok {
			err = fmt.Errorf("dynamic config %q not found", configID)
			return
		}
		for i := range st.cfg.Rules {
			if r := &st.cfg.Rules[i]; r.Name == rule {
				r.ReturnValue = normJSON(json.RawMessage(value))
				r.ReturnValueJSON5 = copyJSON(r.ReturnValue)
				st.counter++
				r.ID = ruleID(r.BaseID, r.PassPercentage, st.counter)
				st.cfg.Version++
				return
			}
		}
		err = fmt.Errorf("dynamic config %q has no rule %q", configID, rule)
	})
	return err
}

// ServeConfigValuesReordered makes answers write the config's default value and return values with
// keys in another order, other spacing and whole numbers as 5.0, as a service that stores them
// differently does: the same JSON, written differently.
func (s *Server) ServeConfigValuesReordered(configID string, on bool) error {
	return s.withConfig(configID, func(st *configState) { st.reordered = on })
}

// ConfigRuns lists the ids of the runs of a config, the latest first.
func (s *Server) ConfigRuns(configID string) []string {
	return s.runIDs(func(r *Run) bool { return r.DynamicConfigID == configID })
}

// seedDynamicConfigs adds the seed's config: a banner made in the console, with a schema and a rule.
func (s *Server) seedDynamicConfigs() {
	s.PutDynamicConfig(DynamicConfig{
		ID: "homepage_banner", Name: "Homepage banner", IsEnabled: true, Description: "The banner of the home page",
		DefaultValue: json.RawMessage(`{"text":"Welcome","color":"blue"}`),
		Schema:       json.RawMessage(`{"type":"object","required":["text"],"properties":{"text":{"type":"string"},"color":{"enum":["blue","red","green"]}}}`),
		Tags:         []string{"web"}, TargetApps: []string{"web"}, CreatorName: "Seed Admin", CreatedTime: seedEpochMs,
		LastModifierName: "Seed Admin", LastModifierID: "user_admin_1", Version: 3,
		Rules: []Rule{{
			Name: "germany", PassPercentage: 100,
			Conditions:  []Condition{{Type: "country", Operator: "any", TargetValue: []any{"DE"}}},
			ReturnValue: map[string]any{"text": "Willkommen", "color": "red"},
		}},
	})
}

// ---- endpoints ----

func (s *Server) dynamicConfigRoutes(on func(method, path string, h handler)) {
	id := func(r *http.Request) string { return r.PathValue("id") }
	on(http.MethodGet, "/dynamic_configs", func(r *http.Request, _ []byte) response {
		return listByKey(s, r, s.configs, "/dynamic_configs", "Dynamic configs", (*configState).answer)
	})
	on(http.MethodPost, "/dynamic_configs", func(_ *http.Request, body []byte) response { return s.createConfig(body) })
	on(http.MethodGet, "/dynamic_configs/{id}", func(r *http.Request, _ []byte) response {
		return readOne(s.configs, "Dynamic config", id(r), (*configState).answer)
	})
	on(http.MethodPatch, "/dynamic_configs/{id}", func(r *http.Request, body []byte) response {
		return s.unlessHeld(r, configWriteKind(body), body, s.patchConfig)
	})
	on(http.MethodDelete, "/dynamic_configs/{id}", func(r *http.Request, _ []byte) response { return s.deleteConfig(id(r)) })
	on(http.MethodPatch, "/dynamic_configs/{id}/rules", func(r *http.Request, body []byte) response {
		return s.oldRulesRoute(r, body)
	})
	on(http.MethodPut, "/dynamic_configs/{id}/archive", func(r *http.Request, _ []byte) response { return s.setConfigArchived(id(r), true) })
	on(http.MethodPut, "/dynamic_configs/{id}/unarchive", func(r *http.Request, _ []byte) response { return s.setConfigArchived(id(r), false) })
	for verb, enabled := range map[string]bool{"enable": true, "disable": false} {
		on(http.MethodPut, "/dynamic_configs/{id}/"+verb, func(r *http.Request, _ []byte) response {
			st, miss := find(s.configs, "Dynamic config", id(r))
			if miss != nil {
				return *miss
			}
			if bad := st.archivedRefused(); bad != nil {
				return *bad
			}
			st.cfg.IsEnabled = enabled
			s.stamp(st)
			return okResp("Dynamic config updated successfully", st.answer())
		})
	}
	on(http.MethodGet, "/dynamic_configs/{id}/reviews/{review}", func(r *http.Request, _ []byte) response {
		return s.getReview(configReviews, id(r), r.PathValue("review"))
	})
	on(http.MethodPut, "/dynamic_configs/{id}/reviews/{review}/commit", func(r *http.Request, _ []byte) response {
		return s.commitReview(configReviews, id(r), r.PathValue("review"))
	})
}

// configFieldsReq is the body of a create or a change of a config's own fields; strict decoding
// refuses rules among the rest.
type configFieldsReq struct {
	ID                *string          `json:"id"`
	Name              *string          `json:"name"`
	Description       *string          `json:"description"`
	IsEnabled         *bool            `json:"isEnabled"`
	IDType            *string          `json:"idType"`
	DefaultValue      *json.RawMessage `json:"defaultValue"`
	Schema            json.RawMessage  `json:"schema"` // "null" when sent as null: none`
	Tags              *[]string        `json:"tags"`
	TargetApps        *[]string        `json:"targetApps"`
	Team              *string          `json:"team"`
	ReleasePipelineID link             `json:"releasePipelineID"`
}

func withConfigDefaults(c DynamicConfig) DynamicConfig {
	c.Name = cmp.Or(c.Name, c.ID)
	c.IDType = cmp.Or(c.IDType, defaultIDType)
	c.Tags, c.TargetApps = nonNilStrings(c.Tags), nonNilStrings(c.TargetApps)
	if len(c.DefaultValue) == 0 || string(c.DefaultValue) == "null" {
		c.DefaultValue = json.RawMessage(`{}`)
	}
	if c.Rules == nil {
		c.Rules = []Rule{}
	}
	return c
}

func (s *Server) setConfigFields(c *DynamicConfig, req configFieldsReq) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&c.Name, req.Name)
	set(&c.Description, req.Description)
	set(&c.IDType, req.IDType)
	set(&c.Team, req.Team)
	req.ReleasePipelineID.setInto(&c.ReleasePipelineID)
	if req.IsEnabled != nil {
		c.IsEnabled = *req.IsEnabled
	}
	if req.Tags != nil {
		c.Tags = nonNilStrings(*req.Tags)
	}
	if req.TargetApps != nil {
		c.TargetApps = nonNilStrings(*req.TargetApps)
	}
	if req.DefaultValue != nil {
		c.DefaultValue = canonical(*req.DefaultValue)
	}
	if req.Schema != nil {
		text, _ := schemaSent(req.Schema)
		c.Schema = canonicalSchema(text)
	}
}

// stamp records a write of the config; s.mu is held.
func (s *Server) stamp(st *configState) {
	st.cfg.Version++
	st.cfg.LastModifierName = modifierName
	st.cfg.LastModifierID = s.modifierID()
	st.cfg.LastModifiedTime = s.now().UnixMilli()
}

func (s *Server) createConfig(body []byte) response {
	req, bad := decoded[configFieldsReq](body)
	if bad != nil {
		return *bad
	}
	if req.Name == nil || strings.TrimSpace(*req.Name) == "" {
		return errResp(http.StatusBadRequest, "name is required")
	}
	id := ""
	if req.ID != nil {
		id = *req.ID
	} else { // the service makes the id from the name
		id = strings.ToLower(strings.Join(strings.Fields(*req.Name), "_"))
	}
	if !configIDPattern.MatchString(id) {
		return errResp(http.StatusBadRequest, "id must be 3 to 100 of the characters A-Z, a-z, 0-9, '_', '-' and '.'")
	}
	if _, exists := s.configs[id]; exists {
		return errResp(http.StatusBadRequest, "Dynamic config with id %q already exists", id)
	}
	if bad := s.configFieldsRefused(req, DynamicConfig{}); bad != nil {
		return *bad
	}
	c := DynamicConfig{ID: id, IsEnabled: true, CreatorName: modifierName, CreatedTime: s.now().UnixMilli()}
	s.setConfigFields(&c, req)
	st := &configState{cfg: withConfigDefaults(c)}
	s.configs[id] = st
	s.stamp(st)
	resp := okResp("Dynamic config created successfully", st.answer())
	resp.status = http.StatusCreated
	return resp
}

func (s *Server) updateConfig(id string, body []byte) response {
	st, req, bad := writeTo[configFieldsReq](s.configs, "Dynamic config", id, body)
	if bad != nil {
		return *bad
	}
	if req.ID != nil {
		return errResp(http.StatusBadRequest, "id cannot be changed")
	}
	if bad := st.archivedRefused(); bad != nil {
		return *bad
	}
	if bad := s.configFieldsRefused(req, st.cfg); bad != nil {
		return *bad
	}
	s.setConfigFields(&st.cfg, req)
	s.stamp(st)
	return okResp("Dynamic config updated successfully", st.answer())
}

func (s *Server) deleteConfig(id string) response {
	if _, miss := find(s.configs, "Dynamic config", id); miss != nil {
		return *miss
	}
	if rs := s.activeRunOfConfig(id); rs != nil {
		return errResp(http.StatusBadRequest, "Dynamic config %q is being rolled out by release pipeline trigger %q (%s): "+
			"it cannot be deleted until the trigger is completed or aborted", id, rs.run.ID, rs.run.Status)
	}
	delete(s.configs, id)
	return messageResp("Dynamic config deleted successfully.")
}

func (s *Server) updateConfigRules(id string, body []byte) response {
	st, req, bad := writeTo[gateRulesReq](s.configs, "Dynamic config", id, body)
	if bad != nil {
		return *bad
	}
	if req.Rules == nil {
		return errResp(http.StatusBadRequest, "rules is required")
	}
	if bad := st.archivedRefused(); bad != nil {
		return *bad
	}
	if bad := ruleFieldsRefused(body); bad != nil {
		return *bad
	}
	if rs := s.activeRunOfConfig(id); rs != nil {
		return errResp(http.StatusBadRequest, "Dynamic config %q is being rolled out by release pipeline trigger %q (%s, phase %q): "+
			"its rules cannot change until the trigger is completed or aborted", id, rs.run.ID, rs.run.Status, rs.run.CurrentPhase)
	}
	in := *req.Rules
	if bad := rulesRefused(in); bad != nil {
		return *bad
	}
	if bad := variantsRefused(in); bad != nil {
		return *bad
	}
	if bad := valuesRefused(st.cfg.Schema, nil, in); bad != nil {
		return *bad
	}
	out := s.withRuleIDs(in, append(slices.Clone(st.retired), st.cfg.Rules...), &st.counter)
	s.withVariantIDs(out, append(slices.Clone(st.retired), st.cfg.Rules...))
	prev := st.cfg.Rules
	st.cfg.Rules = out
	s.stamp(st)
	s.startConfigRun(id, st, prev)
	return okResp("Dynamic config rules updated successfully", st.answer())
}

// activeRunOfConfig is the run of a config that has not ended, if any; s.mu is held.
func (s *Server) activeRunOfConfig(configID string) *runState {
	s.tickRuns()
	for _, rs := range s.runs {
		if rs.run.DynamicConfigID == configID && rs.run.Status != RunCompleted && rs.run.Status != RunAborted {
			return rs
		}
	}
	return nil
}

// startConfigRun starts a run of the pipeline the config is attached to when a write changed its
// rules; the run's abort puts prev back. s.mu is held.
func (s *Server) startConfigRun(configID string, st *configState, prev []Rule) {
	pid := st.cfg.ReleasePipelineID
	if pid == "" || sameRuleContents(prev, st.cfg.Rules) {
		return
	}
	rs, err := s.startRun(pid, "")
	if err != nil {
		return // a pipeline that is gone or has no phases rolls nothing out
	}
	rs.run.DynamicConfigID = configID
	rs.restore = Gate{Rules: prev}.clone().Rules
}

// abortConfigRun puts back the rules a config had before the write that started rs; s.mu is held.
func (s *Server) abortConfigRun(rs *runState) {
	if c := s.configs[rs.run.DynamicConfigID]; c != nil && rs.restore != nil && rs.run.DynamicConfigID != "" {
		c.retired = append(c.retired, c.cfg.Rules...)
		c.cfg.Rules = Gate{Rules: rs.restore}.clone().Rules
	}
}

// ---- reviews of configs, as for gates ----

// configReviewCurrent is the config a held write leaves as it stands, when the write is one the
// service would take; s.mu is held.
func (s *Server) configReviewCurrent(kind, id string, body []byte) (any, bool) {
	st, ok := s.configs[id]
	if !ok {
		return nil, false
	}
	switch kind {
	case reviewKindConfig:
		var req gateRulesReq
		if decodeStrict(body, &req) != nil || req.Rules == nil {
			return nil, false
		}
	case reviewKindConfigFields:
		var req configFieldsReq
		if decodeStrict(body, &req) != nil || s.configFieldsRefused(req, st.cfg) != nil {
			return nil, false
		}
	default:
		return nil, false
	}
	return st.answer(), true
}

// applyConfigReview applies a held change of a config; s.mu is held.
func (s *Server) applyConfigReview(pr *pendingReview) response {
	if pr.Kind == reviewKindConfigFields {
		return s.updateConfig(pr.ObjectID, pr.Body)
	}
	return s.updateConfigRules(pr.ObjectID, pr.Body)
}

// configReviews serves GET /dynamic_configs/{id}/reviews/{reviewID} and its commit, as for gates.
var configReviews = reviewed{
	noun: "dynamic config", rulesKind: reviewKindConfig, rulesType: "dynamic_config_rules",
	fieldsKind: reviewKindConfigFields, fieldsType: "dynamic_config", committed: "Dynamic config review committed successfully",
	current: func(s *Server, id string) (any, bool) {
		st, ok := s.configs[id]
		if !ok {
			return nil, false
		}
		return st.answer(), true
	},
}
