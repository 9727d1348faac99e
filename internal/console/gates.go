package console

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
)

// Condition is shared by gate rules, pipeline rules and segment rules. TargetValue keeps the JSON
// the service sent (strings, numbers, or a single scalar in segments).
type Condition struct {
	Type        string          `json:"type"`
	Operator    string          `json:"operator,omitempty"`
	TargetValue json.RawMessage `json:"targetValue,omitempty"`
	Field       string          `json:"field,omitempty"`
	CustomID    string          `json:"customID,omitempty"`
}

// GateRule is one rule of a gate. ID is opaque; BaseID is the rule's lasting identity.
type GateRule struct {
	ID             string          `json:"id,omitempty"`
	BaseID         string          `json:"baseID,omitempty"`
	Name           string          `json:"name"`
	PassPercentage float64         `json:"passPercentage"`
	Conditions     []Condition     `json:"conditions"`
	ReturnValue    json.RawMessage `json:"returnValue,omitempty"`
	Environments   []string        `json:"environments"`
}

// Gate is a feature gate with its rules.
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

// GetGate reads GET /gates/{id}.
func (c *Client) GetGate(ctx context.Context, id string) (*Gate, error) {
	var g Gate
	err := c.do(ctx, request{method: http.MethodGet, path: "/gates/" + pathEscape(id), op: "read gate", object: strconv.Quote(id)}, &g)
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// UpdateGateRules replaces the gate's complete rule list (PATCH /gates/{id}/rules) and returns the gate.
func (c *Client) UpdateGateRules(ctx context.Context, id string, rules []GateRule) (*Gate, error) {
	out := make([]GateRule, len(rules))
	for i, r := range rules {
		if r.Conditions == nil {
			r.Conditions = []Condition{}
		}
		out[i] = r
	}
	rules = out
	body := struct {
		Rules []GateRule `json:"rules"`
	}{rules}
	var g Gate
	err := c.do(ctx, request{method: http.MethodPatch, path: "/gates/" + pathEscape(id) + "/rules", body: body, op: "update rules of gate", object: strconv.Quote(id)}, &g)
	if err != nil {
		return nil, err
	}
	return &g, nil
}
