// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
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

// conditionsRefused is the service's check of a rule's conditions, as it answers it for every kind
// of rule; rule is the rule's place in the body, such as rules[2]. Nil when the service takes them.
func conditionsRefused(cs []Condition, rule string) *response {
	for k, c := range cs {
		if strings.TrimSpace(c.Type) == "" {
			r := errResp(http.StatusBadRequest, "%s.conditions[%d].type must not be empty", rule, k)
			return &r
		}
	}
	return nil
}

// Audited are the fields the document requires of every object's answer beside its creator and
// last modifier: when it was last modified (milliseconds) and by which e-mail, null for the
// console API key that the provider writes with.
type Audited struct {
	LastModifiedTime  int64   `json:"lastModifiedTime"`
	LastModifierEmail *string `json:"lastModifierEmail"`
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
