// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

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
	// The rule's schedule (read-only): at each step's time the service sets passPercentage.
	PendingAutomatedRollouts   []AutomatedRollout `json:"pendingAutomatedRollouts,omitempty"`
	CompletedAutomatedRollouts []AutomatedRollout `json:"completedAutomatedRollouts,omitempty"`
}

// AutomatedRollout is one step of a rule's schedule: at Time the rule's passPercentage becomes
// PassPercent.
type AutomatedRollout struct {
	Time        Millis  `json:"time"`
	PassPercent float64 `json:"passPercent"`
}

// Gate is a feature gate with its rules.
type Gate struct {
	ID               string     `json:"id"`
	Name             string     `json:"name"`
	IsEnabled        bool       `json:"isEnabled"`
	Description      string     `json:"description"`
	Status           string     `json:"status"`
	LastModifierName string     `json:"lastModifierName"`
	LastModifierID   string     `json:"lastModifierID"`
	Rules            []GateRule `json:"rules"`
	Tags             []string   `json:"tags"`
	Type             string     `json:"type"`
	IDType           string     `json:"idType"`
	// ReleasePipelineID is "" (or null) for a gate attached to no pipeline.
	ReleasePipelineID string      `json:"releasePipelineID"`
	CreatorName       string      `json:"creatorName"`
	CreatedTime       WholeNumber `json:"createdTime"`
	// ActiveReview is set while a change of the gate waits for review.
	ActiveReview *ActiveReview `json:"activeReview,omitempty"`
}

// gates is GET /gates and /gates/{id}; a listing carries every gate with its rules.
var gates = collection[Gate]{path: "/gates", one: "gate", many: "gates"}

func (g *Gate) activeReview() *ActiveReview { return g.ActiveReview }

// GetGate reads GET /gates/{id}, or takes the gate from a read it shares with other callers of the
// client since its last write (shared_reads.go). Each caller gets its own copy.
func (c *Client) GetGate(ctx context.Context, id string) (*Gate, error) {
	return sharedGet(ctx, c, c.gateReads, gates, !c.review, nil, id)
}

// EachGatesPage reads GET /gates page by page, handing each page to fn in order as it arrives; an
// error of fn stops the listing and is returned as it is.
func (c *Client) EachGatesPage(ctx context.Context, opts ListOptions, fn func([]Gate) error) error {
	return gates.each(ctx, c, opts, fn)
}

// UpdateGateRules replaces the gate's complete rule list (PATCH /gates/{id}/rules) and returns the
// gate. An id or baseID not known yet is left out, never sent as "" (which the service refuses).
func (c *Client) UpdateGateRules(ctx context.Context, id string, rules []GateRule) (*Gate, error) {
	out := make([]GateRule, len(rules))
	for i, r := range rules {
		r.Conditions = orEmpty(r.Conditions)
		// Read-only: the service refuses a write that carries them.
		r.PendingAutomatedRollouts, r.CompletedAutomatedRollouts = nil, nil
		out[i] = r
	}
	body := struct {
		Rules []GateRule `json:"rules"`
	}{out}
	r := request{method: http.MethodPatch, path: "/gates/" + pathEscape(id) + "/rules", body: body, op: "update rules of gate", object: strconv.Quote(id)}
	// An answer that leaves out the rules it was sent is completed by a read.
	return writeReviewed(ctx, c, r, func() (*Gate, error) { return c.GetGate(ctx, id) },
		func(g *Gate) bool { return g.Rules == nil && len(out) > 0 })
}

// GateFields are a gate's own fields as POST /gates and PATCH /gates/{id} take them; a nil field is
// left out, so a create takes the service's default for it and an update leaves it as it is. Rules
// are never part of them: they belong to UpdateGateRules.
type GateFields struct {
	ID          string    `json:"id,omitempty"`
	Name        *string   `json:"name,omitempty"`
	Description *string   `json:"description,omitempty"`
	IsEnabled   *bool     `json:"isEnabled,omitempty"`
	Tags        *[]string `json:"tags,omitempty"`
	Type        *string   `json:"type,omitempty"`
	IDType      *string   `json:"idType,omitempty"`
	// ReleasePipelineID "" detaches the gate from its pipeline.
	ReleasePipelineID *string `json:"releasePipelineID,omitempty"`
}

// CreateGate sends POST /gates (without rules; the service answers the gate with rules: []). An
// answer without a body is completed by reading the gate back.
func (c *Client) CreateGate(ctx context.Context, g GateFields) (*Gate, error) {
	var out Gate
	err := c.do(ctx, request{method: http.MethodPost, path: gates.path, body: g, op: "create gate", object: strconv.Quote(g.ID)}, &out)
	if emptyAnswer(err) {
		return c.GetGate(ctx, g.ID)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// UpdateGate changes the gate's own fields with PATCH /gates/{id}; its rules are left as they are.
// The service may hold the change for review (a ReviewPendingError with the gate as it stands).
func (c *Client) UpdateGate(ctx context.Context, id string, g GateFields) (*Gate, error) {
	g.ID = ""
	r := request{method: http.MethodPatch, path: gates.path + "/" + pathEscape(id), body: g, op: "update gate", object: strconv.Quote(id)}
	return writeReviewed(ctx, c, r, func() (*Gate, error) { return c.GetGate(ctx, id) },
		func(got *Gate) bool { return got.ID == "" })
}

// DeleteGate sends DELETE /gates/{id}; the gate's rules go with it.
func (c *Client) DeleteGate(ctx context.Context, id string) error {
	return c.do(ctx, request{method: http.MethodDelete, path: gates.path + "/" + pathEscape(id), op: "delete gate", object: strconv.Quote(id)}, nil)
}
