// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// Condition is shared by pipeline rules, gate rules and segment rules.
// TargetValue holds any JSON value; values decoded from requests keep their
// exact number text (json.Number).
type Condition struct {
	Type        string `json:"type"`
	Operator    string `json:"operator"`
	TargetValue any    `json:"targetValue"`
	Field       string `json:"field"`
	CustomID    string `json:"customID"`
}

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

// IDTypeMapping maps a service unit ID type to a source column.
type IDTypeMapping struct {
	ServiceUnitID string `json:"serviceUnitID"`
	Column        string `json:"column"`
}

// CustomFieldMapping maps a custom field key to a formula.
type CustomFieldMapping struct {
	Key     string `json:"key"`
	Formula string `json:"formula"`
}

// Owner of a metric source (null for sources created through the API).
type Owner struct {
	OwnerID    string `json:"ownerID"`
	OwnerType  string `json:"ownerType"`
	OwnerName  string `json:"ownerName"`
	OwnerEmail string `json:"ownerEmail"`
}

// MetricSource is a metric source as stored (and returned by GET).
type MetricSource struct {
	Name                string               `json:"name"`
	SQL                 string               `json:"sql"`
	TimestampColumn     string               `json:"timestampColumn"`
	IDTypeMapping       []IDTypeMapping      `json:"idTypeMapping"`
	Description         string               `json:"description"`
	Tags                []string             `json:"tags"`
	TimestampAsDay      bool                 `json:"timestampAsDay"`
	SourceType          string               `json:"sourceType"`
	TableName           string               `json:"tableName"`
	DatePartitionColumn string               `json:"datePartitionColumn"`
	CustomFieldMapping  []CustomFieldMapping `json:"customFieldMapping"`
	IsReadOnly          bool                 `json:"isReadOnly"`
	IsVerified          bool                 `json:"isVerified"`
	Owner               *Owner               `json:"owner"`
	Team                *string              `json:"team"`
	TeamID              *string              `json:"teamID"`
}

// User of the organization.
type User struct {
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Role      string `json:"role"`
}

// SegmentRules is the rule object of a rule_based segment.
type SegmentRules struct {
	Name           string      `json:"name"`
	PassPercentage float64     `json:"passPercentage"`
	Conditions     []Condition `json:"conditions"`
	ReturnValue    any         `json:"returnValue"`
}

// Segment is an id_list or rule_based segment. Rules is nil (absent on the
// wire) for id_list segments.
type Segment struct {
	ID               string        `json:"id"`
	IsEnabled        bool          `json:"isEnabled"`
	Description      string        `json:"description"`
	LastModifierName string        `json:"lastModifierName"`
	LastModifierID   string        `json:"lastModifierID"`
	Type             string        `json:"type"`
	Count            int           `json:"count"`
	Tags             []string      `json:"tags"`
	Rules            *SegmentRules `json:"rules,omitempty"`
}

// Event is one recorded value of an event.
type Event struct {
	Timestamp string         `json:"timestamp"`
	Name      string         `json:"name"`
	Source    string         `json:"source"`
	Value     string         `json:"value"`
	UserID    string         `json:"userID"`
	Metadata  map[string]any `json:"metadata"`
}

// Request is one entry of the request log.
type Request struct {
	Method   string
	Path     string // includes /console/v1
	RawQuery string
	Status   int
	Header   http.Header
	Body     []byte
}

// ---- deep copy / normalisation helpers ----

// normJSON turns an arbitrary Go value into its canonical decoded JSON form
// (map[string]any, []any, json.Number, string, bool, nil), so that stored
// values never alias caller memory and keep exact number text.
func normJSON(v any) any {
	switch v.(type) {
	case nil:
		return nil
	case string, bool, json.Number:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return v
	}
	return out
}

func copyJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = copyJSON(x)
		}
		return m
	case []any:
		s := make([]any, len(t))
		for i, x := range t {
			s[i] = copyJSON(x)
		}
		return s
	default:
		return v
	}
}

func copyStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append([]string{}, s...)
}

// withTargets copies conditions, passing each targetValue through f (copyJSON to copy, normJSON
// to store).
func withTargets(cs []Condition, f func(any) any) []Condition {
	out := make([]Condition, len(cs))
	for i, c := range cs {
		c.TargetValue = f(c.TargetValue)
		out[i] = c
	}
	return out
}

func normEnvs(e []string) []string {
	if len(e) == 0 {
		return nil
	}
	return append([]string{}, e...)
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return append([]string{}, s...)
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

func (m MetricSource) clone() MetricSource {
	m.IDTypeMapping = append([]IDTypeMapping{}, m.IDTypeMapping...)
	m.CustomFieldMapping = append([]CustomFieldMapping{}, m.CustomFieldMapping...)
	m.Tags = nonNilStrings(m.Tags)
	if m.Owner != nil {
		o := *m.Owner
		m.Owner = &o
	}
	if m.Team != nil {
		t := *m.Team
		m.Team = &t
	}
	if m.TeamID != nil {
		t := *m.TeamID
		m.TeamID = &t
	}
	return m
}

func (sg Segment) clone() Segment {
	sg.Tags = nonNilStrings(sg.Tags)
	if sg.Rules != nil {
		r := *sg.Rules
		r.Conditions = withTargets(r.Conditions, copyJSON)
		r.ReturnValue = copyJSON(r.ReturnValue)
		sg.Rules = &r
	}
	return sg
}

func (e Event) clone() Event {
	if e.Metadata == nil {
		e.Metadata = map[string]any{}
	} else {
		e.Metadata, _ = copyJSON(e.Metadata).(map[string]any) // a map copies to a map
	}
	return e
}
