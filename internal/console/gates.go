// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Gate is a feature gate with its rules.
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
	// TypeReason is why the service judges a TEMPORARY gate stale (Type is then "STALE"); "NONE"
	// (or absent) otherwise.
	TypeReason string `json:"typeReason"`
	IDType     string `json:"idType"`
	// TargetApps is a list, or one bare string when the gate has one (the live service).
	TargetApps StringList `json:"targetApps"`
	// ReleasePipelineID is "" for a gate attached to no pipeline, whether the service sent "", null
	// or nothing (links.go).
	ReleasePipelineID string      `json:"releasePipelineID"`
	CreatorName       string      `json:"creatorName"`
	CreatedTime       WholeNumber `json:"createdTime"`
	// ActiveReview is set while a change of the gate waits for review.
	ActiveReview *ActiveReview `json:"activeReview,omitempty"`
}

// gates is GET /gates and /gates/{id}; a listing carries every gate with its rules.
var gates = collection[Gate]{path: "/gates", one: "gate", many: "gates"}

const (
	// GateTypeStale is the service's verdict on a TEMPORARY gate it judges stale, never a type a
	// write sends: a write makes the gate TEMPORARY (and fresh) again.
	GateTypeStale = "STALE"
	// GateTypeTemporary is what a stale gate was declared as.
	GateTypeTemporary = "TEMPORARY"
	// TypeReasonNone is the typeReason of a gate that is not stale.
	TypeReasonNone = "NONE"
	// GateStatusArchived is the status of an archived gate (it fails every check).
	GateStatusArchived = "Archived"
)

// DeclaredType is the gate's type as it was written: a STALE gate is a TEMPORARY one.
func (g *Gate) DeclaredType() string {
	if strings.EqualFold(g.Type, GateTypeStale) {
		return GateTypeTemporary
	}
	return g.Type
}

// StaleReason is the service's typeReason, "NONE" when it sent none.
func (g *Gate) StaleReason() string {
	if strings.TrimSpace(g.TypeReason) == "" {
		return TypeReasonNone
	}
	return g.TypeReason
}

// Archived reports whether the gate is archived.
func (g *Gate) Archived() bool {
	return strings.EqualFold(strings.TrimSpace(g.Status), GateStatusArchived)
}

func (g *Gate) activeReview() *ActiveReview { return g.ActiveReview }

// GetGate reads GET /gates/{id}, or takes the gate from a read it shares with other callers of the
// client since its last write (shared_reads.go). Each caller gets its own copy.
func (c *Client) GetGate(ctx context.Context, id string) (*Gate, error) {
	return sharedGet(ctx, c, c.gateReads, gates, !c.review, nil, id)
}

// EachGatesPage reads GET /gates page by page, handing each page to fn in order as it arrives; an
// error of fn stops the listing and is returned as it is.
// With opts.IncludeArchived archived gates are listed too (the service leaves them out otherwise).
func (c *Client) EachGatesPage(ctx context.Context, opts ListOptions, fn func([]Gate) error) error {
	if opts.IncludeArchived {
		r := gates.listRequest()
		r.query = url.Values{"includeArchived": {"true"}}
		return eachPage(ctx, c, r, opts, fn)
	}
	return gates.each(ctx, c, opts, fn)
}

// UpdateGateRules replaces the gate's complete rule list (PATCH /gates/{id}/rules) and returns the
// gate. An id or baseID not known yet is left out, never sent as "" (which the service refuses).
func (c *Client) UpdateGateRules(ctx context.Context, id string, rules []Rule) (*Gate, error) {
	body := writtenRulesBody(withoutVariants(rules))
	r := request{method: http.MethodPatch, path: "/gates/" + pathEscape(id) + "/rules", body: body, op: "update rules of gate", object: strconv.Quote(id)}
	// An answer that leaves out the rules it was sent is completed by a read.
	return writeReviewed(ctx, c, r, func() (*Gate, error) { return c.GetGate(ctx, id) },
		func(g *Gate) bool { return g.Rules == nil && len(body.Rules) > 0 })
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
	// TargetApps are sent as a list, never as the bare string the service may answer for one.
	TargetApps *[]string `json:"targetApps,omitempty"`
	// ReleasePipelineID attaches the gate to a pipeline, or detaches it (Unlinked: null).
	ReleasePipelineID Link `json:"releasePipelineID,omitzero"`
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

// ArchiveGate archives the gate (PUT /gates/{id}/archive): it fails every check and keeps its
// history; reason ("" for none) is the service's archiveReason.
func (c *Client) ArchiveGate(ctx context.Context, id, reason string) (*Gate, error) {
	return c.setGateArchived(ctx, id, "archive", struct {
		Reason string `json:"archiveReason,omitempty"`
	}{reason})
}

// UnarchiveGate brings an archived gate back (PUT /gates/{id}/unarchive, status "In Progress").
func (c *Client) UnarchiveGate(ctx context.Context, id, reason string) (*Gate, error) {
	return c.setGateArchived(ctx, id, "unarchive", struct {
		Reason string `json:"unarchiveReason,omitempty"`
	}{reason})
}

func (c *Client) setGateArchived(ctx context.Context, id, verb string, body any) (*Gate, error) {
	r := request{method: http.MethodPut, path: gates.path + "/" + pathEscape(id) + "/" + verb, body: body, op: verb + " gate", object: strconv.Quote(id)}
	return writeReviewed(ctx, c, r, func() (*Gate, error) { return c.GetGate(ctx, id) },
		func(got *Gate) bool { return got.ID == "" })
}
