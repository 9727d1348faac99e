package mockconsole

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// ---- release pipelines ----

func (s *Server) getPipeline(id string) response {
	st, ok := s.pipelines[id]
	if !ok {
		return errResp(http.StatusNotFound, "Release pipeline %q not found", id)
	}
	return okResp("Release pipeline read successfully", st.p.clone())
}

type pipelineUpdateReq struct {
	Name   string  `json:"name"`
	Phases []Phase `json:"phases"`
}

func (s *Server) updatePipeline(id string, body []byte) response {
	st, ok := s.pipelines[id]
	if !ok {
		return errResp(http.StatusNotFound, "Release pipeline %q not found", id)
	}
	var req pipelineUpdateReq
	if err := decodeStrict(body, &req); err != nil {
		return errResp(http.StatusBadRequest, "%s", err)
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
			for k, c := range r.Conditions {
				if strings.TrimSpace(c.Type) == "" {
					return errResp(http.StatusBadRequest, "phases[%d].rules[%d].conditions[%d].type must not be empty", i, j, k)
				}
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
			r.Conditions = normConditions(r.Conditions)
			r.Environments = normEnvs(r.Environments)
			rules[j] = r
		}
		ph.Rules = rules
		phases[i] = ph
	}
	st.p.Name = req.Name
	st.p.Phases = phases
	st.p.LastModifierID = modifierID
	return okResp("Release pipeline updated successfully", st.p.clone())
}

// ---- users, segments, events ----

func (s *Server) listUsers(r *http.Request) response {
	p, e := s.parsePage(r)
	if e != nil {
		return *e
	}
	lo, hi, pg := p.window(len(s.users), basePath+"/users")
	data := append([]User{}, s.users[lo:hi]...)
	return jsonResp(http.StatusOK, listEnvelope{Message: "Users listed successfully", Data: data, Pagination: pg})
}

func (s *Server) listSegments(r *http.Request) response {
	p, e := s.parsePage(r)
	if e != nil {
		return *e
	}
	lo, hi, pg := p.window(len(s.segments), basePath+"/segments")
	data := make([]Segment, 0, hi-lo)
	for _, sg := range s.segments[lo:hi] {
		data = append(data, sg.clone())
	}
	return jsonResp(http.StatusOK, listEnvelope{Message: "Segments listed successfully", Data: data, Pagination: pg})
}

func (s *Server) listEvents(r *http.Request, name string) response {
	p, e := s.parsePage(r)
	if e != nil {
		return *e
	}
	all := basePath + "/events/" + url.PathEscape(name)
	var data []Event
	var pg pagination
	if evs, ok := s.events[name]; ok {
		lo, hi, pp := p.window(len(evs), all)
		pg = pp
		data = make([]Event, 0, hi-lo)
		for _, ev := range evs[lo:hi] {
			data = append(data, ev.clone())
		}
	} else if name == checkoutEvent && s.genEvents > 0 {
		lo, hi, pp := p.window(s.genEvents, all)
		pg = pp
		data = make([]Event, 0, hi-lo)
		for i := lo; i < hi; i++ {
			data = append(data, genCheckoutEvent(i))
		}
	} else {
		_, _, pg = p.window(0, all)
		data = []Event{}
	}
	return jsonResp(http.StatusOK, listEnvelope{Message: "Events listed successfully", Data: data, Pagination: pg})
}

// ---- gates ----

func (s *Server) getGate(id string) response {
	st, ok := s.gates[id]
	if !ok {
		return errResp(http.StatusNotFound, "Gate %q not found", id)
	}
	return okResp("Gate read successfully", st.gate.clone())
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
	st, ok := s.gates[id]
	if !ok {
		return errResp(http.StatusNotFound, "Gate %q not found", id)
	}
	var req gateRulesReq
	if err := decodeStrict(body, &req); err != nil {
		return errResp(http.StatusBadRequest, "%s", err)
	}
	if req.Rules == nil {
		return errResp(http.StatusBadRequest, "rules is required")
	}
	in := *req.Rules
	names := map[string]int{}
	for i, r := range in {
		if strings.TrimSpace(r.Name) == "" {
			return errResp(http.StatusBadRequest, "rules[%d].name must not be empty", i)
		}
		if j, dup := names[r.Name]; dup {
			return errResp(http.StatusBadRequest, "rules[%d].name %q duplicates rules[%d].name", i, r.Name, j)
		}
		names[r.Name] = i
		if r.PassPercentage < 0 || r.PassPercentage > 100 {
			return errResp(http.StatusBadRequest, "rules[%d].passPercentage must be between 0 and 100", i)
		}
		for k, c := range r.Conditions {
			if strings.TrimSpace(c.Type) == "" {
				return errResp(http.StatusBadRequest, "rules[%d].conditions[%d].type must not be empty", i, k)
			}
		}
		if r.ReturnValue != nil {
			if _, isObj := r.ReturnValue.(map[string]any); !isObj {
				return errResp(http.StatusBadRequest, "rules[%d].returnValue must be a JSON object", i)
			}
		}
		if r.ReturnValueJSON5 != nil {
			if _, isObj := r.ReturnValueJSON5.(map[string]any); !isObj {
				return errResp(http.StatusBadRequest, "rules[%d].returnValueJson5 must be a JSON object", i)
			}
		}
	}

	current := map[string]GateRule{}
	for _, r := range st.gate.Rules {
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
			if bytes.Equal(contentOf(cur), contentOf(r)) {
				r.ID = cur.ID
			} else {
				st.counter++
				r.ID = ruleID(r.BaseID, r.PassPercentage, st.counter)
			}
		} else {
			r.BaseID = s.newBaseID()
			st.counter++
			r.ID = ruleID(r.BaseID, r.PassPercentage, st.counter)
		}
		taken[r.BaseID] = true
		out[i] = r
	}
	st.gate.Rules = out
	st.gate.LastModifierName = modifierName
	st.gate.LastModifierID = modifierID
	return okResp("Gate rules updated successfully", st.gate.clone())
}

// ---- metric sources ----

type metricSourceReq struct {
	MetricSource
	DryRun bool `json:"dryRun"`
}

// createResponse is the subset of fields the create endpoint echoes.
type createResponse struct {
	Name            string          `json:"name"`
	Description     string          `json:"description"`
	Tags            []string        `json:"tags"`
	SQL             string          `json:"sql"`
	TimestampColumn string          `json:"timestampColumn"`
	TimestampAsDay  bool            `json:"timestampAsDay"`
	IDTypeMapping   []IDTypeMapping `json:"idTypeMapping"`
	SourceType      string          `json:"sourceType"`
	TableName       string          `json:"tableName"`
}

func withSourceDefaults(m MetricSource) MetricSource {
	if m.Tags == nil {
		m.Tags = []string{}
	}
	if m.IDTypeMapping == nil {
		m.IDTypeMapping = []IDTypeMapping{}
	}
	if m.CustomFieldMapping == nil {
		m.CustomFieldMapping = []CustomFieldMapping{}
	}
	if m.SourceType == "" {
		m.SourceType = "query"
	}
	return m
}

func validateSource(m MetricSource) string {
	if strings.TrimSpace(m.Name) == "" {
		return "name must not be empty"
	}
	if strings.TrimSpace(m.SQL) == "" {
		return "sql must not be empty"
	}
	if strings.TrimSpace(m.TimestampColumn) == "" {
		return "timestampColumn must not be empty"
	}
	if len(m.IDTypeMapping) == 0 {
		return "idTypeMapping must contain at least one item"
	}
	for i, it := range m.IDTypeMapping {
		if strings.TrimSpace(it.ServiceUnitID) == "" {
			return fmt.Sprintf("idTypeMapping[%d].serviceUnitID must not be empty", i)
		}
		if strings.TrimSpace(it.Column) == "" {
			return fmt.Sprintf("idTypeMapping[%d].column must not be empty", i)
		}
	}
	switch m.SourceType {
	case "", "query":
		return checkSQL(m.SQL)
	case "table":
		if strings.TrimSpace(m.TableName) == "" {
			return `tableName is required when sourceType is "table"`
		}
	default:
		return fmt.Sprintf(`sourceType must be "table" or "query", got %q`, m.SourceType)
	}
	return ""
}

func checkSQL(sql string) string {
	t := strings.TrimSpace(sql)
	first := t
	if i := strings.IndexFunc(t, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '(' || r == ';'
	}); i >= 0 {
		first = t[:i]
	}
	if first == "" {
		first = t[:1]
	}
	switch strings.ToUpper(first) {
	case "SELECT", "WITH":
	default:
		return fmt.Sprintf("SQL compilation error: syntax error at or near %q", first)
	}
	depth := 0
	for _, r := range t {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return "SQL compilation error: unbalanced parentheses"
			}
		}
	}
	if depth != 0 {
		return "SQL compilation error: unbalanced parentheses"
	}
	return ""
}

func (s *Server) createMetricSource(body []byte) response {
	var req metricSourceReq
	if err := decodeStrict(body, &req); err != nil {
		return errResp(http.StatusBadRequest, "%s", err)
	}
	m := req.MetricSource
	if msg := validateSource(m); msg != "" {
		return errResp(http.StatusBadRequest, "%s", msg)
	}
	if _, exists := s.sources[m.Name]; exists {
		return errResp(http.StatusBadRequest, "Name is already in use")
	}
	m.Owner = nil // sources created through the API have no owner
	m = withSourceDefaults(m.clone())
	msg := "Metric source validated (dry run): nothing was saved"
	if !req.DryRun {
		s.sources[m.Name] = m
		msg = "Metric source created successfully"
	}
	return okResp(msg, createResponse{
		Name: m.Name, Description: m.Description, Tags: m.Tags, SQL: m.SQL,
		TimestampColumn: m.TimestampColumn, TimestampAsDay: m.TimestampAsDay,
		IDTypeMapping: m.IDTypeMapping, SourceType: m.SourceType, TableName: m.TableName,
	})
}

func (s *Server) getMetricSource(name string) response {
	m, ok := s.sources[name]
	if !ok {
		return errResp(http.StatusNotFound, "Metric source %q not found", name)
	}
	return okResp("Metric source read successfully", m.clone())
}

func (s *Server) updateMetricSource(name string, body []byte) response {
	old, ok := s.sources[name]
	if !ok {
		return errResp(http.StatusNotFound, "Metric source %q not found", name)
	}
	var req metricSourceReq
	if err := decodeStrict(body, &req); err != nil {
		return errResp(http.StatusBadRequest, "%s", err)
	}
	m := req.MetricSource
	if m.Name == "" {
		m.Name = name
	} else if m.Name != name {
		return errResp(http.StatusBadRequest, "name cannot be changed: the body carries %q but the path names %q", m.Name, name)
	}
	if msg := validateSource(m); msg != "" {
		return errResp(http.StatusBadRequest, "%s", msg)
	}
	m.Owner = old.Owner // owner is not settable through the API
	m = withSourceDefaults(m.clone())
	msg := "Metric source validated (dry run): nothing was saved"
	if !req.DryRun {
		s.sources[name] = m
		msg = "Metric source updated successfully"
	}
	return okResp(msg, m.clone())
}

func (s *Server) deleteMetricSource(name string) response {
	if _, ok := s.sources[name]; !ok {
		return errResp(http.StatusNotFound, "Metric source %q not found", name)
	}
	delete(s.sources, name)
	return okResp("deleted", map[string]any{})
}
