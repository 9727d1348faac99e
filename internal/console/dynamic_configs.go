// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// DynamicConfig is a dynamic config with its rules (GET /dynamic_configs/{id}): ordered rules of a gate rule's
// shape whose returnValue is a JSON object, and the defaultValue served when no rule passes.
type DynamicConfig struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	IsEnabled   bool   `json:"isEnabled"`
	IDType      string `json:"idType"`
	// DefaultValue and Schema are JSON objects as the service holds them (JSONObject reads one kept
	// as a JSON document in a string, as some service versions answer, as the object itself).
	// The service answers schema as a string holding the schema's text (its 2025 documents); older versions
	// answered the object: JSONObject reads both.
	DefaultValue JSONObject `json:"defaultValue"`
	Schema       JSONObject `json:"schema"`
	Tags         []string   `json:"tags"`
	// TargetApps is a list, or one bare string when the config has one.
	TargetApps        StringList  `json:"targetApps"`
	Team              string      `json:"team,omitempty"`
	ReleasePipelineID string      `json:"releasePipelineID"` // "" for none (links.go)
	Rules             []Rule      `json:"rules"`
	Version           WholeNumber `json:"version"`
	CreatorName       string      `json:"creatorName"`
	CreatedTime       WholeNumber `json:"createdTime"`
	LastModifierName  string      `json:"lastModifierName"`
	LastModifierID    string      `json:"lastModifierID"`
	// Status is Enabled, Disabled or Archived (PUT /dynamic_configs/{id}/archive).
	Status string `json:"status"`
	// ActiveReview is set while a change of the config waits for review.
	ActiveReview *ActiveReview `json:"activeReview,omitempty"`
	// The JSON5 copies the console writes beside schema and defaultValue (schemaJson5,
	// defaultValueJson5) say the same as the JSON fields: they are not read, so never sent back.
}

// ConfigStatusArchived is the status of an archived config: it refuses writes.
const ConfigStatusArchived = "Archived"

// Archived reports whether the config is archived.
func (d *DynamicConfig) Archived() bool {
	return strings.EqualFold(strings.TrimSpace(d.Status), ConfigStatusArchived)
}

func (d *DynamicConfig) activeReview() *ActiveReview { return d.ActiveReview }

// JSONObject is a JSON value the service may send as itself or as a string holding its JSON text;
// it is kept as the JSON text (nil for null or absent).
type JSONObject json.RawMessage

func (o *JSONObject) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*o = nil
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s == "" {
			*o = nil
			return nil
		}
		if json.Valid([]byte(s)) {
			*o = JSONObject(s)
			return nil
		}
	}
	*o = JSONObject(append([]byte(nil), b...))
	return nil
}

func (o JSONObject) MarshalJSON() ([]byte, error) {
	if len(o) == 0 {
		return []byte("null"), nil
	}
	return []byte(o), nil
}

// dynamicConfigs is GET /dynamic_configs and /dynamic_configs/{id}; a listing carries every config
// with its rules.
var dynamicConfigs = collection[DynamicConfig]{path: "/dynamic_configs", one: "dynamic config", many: "dynamic configs"}

// GetDynamicConfig reads GET /dynamic_configs/{id}, or takes the config from a read it shares with
// other callers of the client since its last write, as GetGate does (a refresh of many configs
// reads list pages). Each caller gets its own copy.
func (c *Client) GetDynamicConfig(ctx context.Context, id string) (*DynamicConfig, error) {
	return sharedGet(ctx, c, c.configReads, dynamicConfigs, !c.review, nil, id)
}

// EachDynamicConfigsPage reads GET /dynamic_configs page by page, handing each page to fn in order.
func (c *Client) EachDynamicConfigsPage(ctx context.Context, opts ListOptions, fn func([]DynamicConfig) error) error {
	return dynamicConfigs.each(ctx, c, opts, fn)
}

// DynamicConfigFields are a config's own fields as POST /dynamic_configs and PATCH
// /dynamic_configs/{id} take them; a nil field is left out. Rules are never part of them.
type DynamicConfigFields struct {
	ID           string           `json:"id,omitempty"`
	Name         *string          `json:"name,omitempty"`
	Description  *string          `json:"description,omitempty"`
	IsEnabled    *bool            `json:"isEnabled,omitempty"`
	IDType       *string          `json:"idType,omitempty"`
	DefaultValue *json.RawMessage `json:"defaultValue,omitempty"`
	Schema       *SchemaText      `json:"schema,omitempty"`
	Tags         *[]string        `json:"tags,omitempty"`
	TargetApps   *[]string        `json:"targetApps,omitempty"`
	Team         *string          `json:"team,omitempty"`
	// ReleasePipelineID attaches the config to a pipeline, or detaches it (Unlinked: null).
	ReleasePipelineID Link `json:"releasePipelineID,omitzero"`
}

// SchemaText is a config's schema as a write sends it (POST /dynamic_configs): a string holding the schema's JSON
// text, or null for none; never the object itself, which the service refuses.
type SchemaText struct{ Text string }

// NoSchema is the schema of a config without one: sent as null.
var NoSchema = SchemaText{}

func (s SchemaText) MarshalJSON() ([]byte, error) {
	if strings.TrimSpace(s.Text) == "" {
		return []byte("null"), nil
	}
	return json.Marshal(s.Text)
}

func configPath(id string) string { return dynamicConfigs.path + "/" + pathEscape(id) }

// CreateDynamicConfig sends POST /dynamic_configs with the id (the service would otherwise make one
// from the name) and without rules. An answer without a body is completed by reading the config.
func (c *Client) CreateDynamicConfig(ctx context.Context, f DynamicConfigFields) (*DynamicConfig, error) {
	var out DynamicConfig
	err := c.do(ctx, request{method: http.MethodPost, path: dynamicConfigs.path, body: f, op: "create dynamic config", object: strconv.Quote(f.ID)}, &out)
	if emptyAnswer(err) || err == nil && out.ID == "" {
		return c.GetDynamicConfig(ctx, f.ID)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// UpdateDynamicConfig changes the config's own fields (PATCH /dynamic_configs/{id}); its rules are
// left as they are. The service may hold the change for review.
func (c *Client) UpdateDynamicConfig(ctx context.Context, id string, f DynamicConfigFields) (*DynamicConfig, error) {
	r := request{method: http.MethodPatch, path: configPath(id), body: DynamicConfigFieldsChange(f), op: "update dynamic config", object: strconv.Quote(id)}
	return writeReviewed(ctx, c, r, func() (*DynamicConfig, error) { return c.GetDynamicConfig(ctx, id) },
		func(got *DynamicConfig) bool { return got.ID == "" })
}

// DynamicConfigFieldsChange is the body UpdateDynamicConfig sends for f.
func DynamicConfigFieldsChange(f DynamicConfigFields) any {
	f.ID = ""
	return f
}

// UpdateDynamicConfigRules replaces the config's complete, ordered rule list and returns the config:
// PATCH /dynamic_configs/{id} with {"rules": [...]} only, rules sent as gate rules are. The
// route PATCH /dynamic_configs/{id}/rules of older service versions is gone (a 404 there).
func (c *Client) UpdateDynamicConfigRules(ctx context.Context, id string, rules []Rule) (*DynamicConfig, error) {
	body := writtenRulesBody(rules)
	r := request{method: http.MethodPatch, path: configPath(id), body: body, op: "update rules of dynamic config", object: strconv.Quote(id)}
	return writeReviewed(ctx, c, r, func() (*DynamicConfig, error) { return c.GetDynamicConfig(ctx, id) },
		func(d *DynamicConfig) bool { return d.Rules == nil && len(body.Rules) > 0 })
}

// DeleteDynamicConfig sends DELETE /dynamic_configs/{id}; the service refuses (400) while a run of
// the config is active.
func (c *Client) DeleteDynamicConfig(ctx context.Context, id string) error {
	return c.do(ctx, request{method: http.MethodDelete, path: configPath(id), op: "delete dynamic config", object: strconv.Quote(id)}, nil)
}

// SetDynamicConfigEnabled sends PUT /dynamic_configs/{id}/enable or PUT /dynamic_configs/{id}/disable.
func (c *Client) SetDynamicConfigEnabled(ctx context.Context, id string, enabled bool) (*DynamicConfig, error) {
	verb := "disable"
	if enabled {
		verb = "enable"
	}
	r := request{method: http.MethodPut, path: configPath(id) + "/" + verb, op: verb + " dynamic config", object: strconv.Quote(id)}
	return writeReviewed(ctx, c, r, func() (*DynamicConfig, error) { return c.GetDynamicConfig(ctx, id) },
		func(got *DynamicConfig) bool { return got.ID == "" })
}

// ArchiveDynamicConfig archives the config (PUT /dynamic_configs/{id}/archive): it keeps its
// rules and history and refuses writes until unarchived. The document requires a body
// (ArchiveSchemaDto, UnarchiveSchemaDto: every field optional), so an empty object is sent.
func (c *Client) ArchiveDynamicConfig(ctx context.Context, id string) (*DynamicConfig, error) {
	return c.setConfigArchived(ctx, id, "archive")
}

// UnarchiveDynamicConfig brings an archived config back (PUT /dynamic_configs/{id}/unarchive).
func (c *Client) UnarchiveDynamicConfig(ctx context.Context, id string) (*DynamicConfig, error) {
	return c.setConfigArchived(ctx, id, "unarchive")
}

func (c *Client) setConfigArchived(ctx context.Context, id, verb string) (*DynamicConfig, error) {
	r := request{method: http.MethodPut, path: configPath(id) + "/" + verb, body: struct{}{}, op: verb + " dynamic config", object: strconv.Quote(id)}
	return writeReviewed(ctx, c, r, func() (*DynamicConfig, error) { return c.GetDynamicConfig(ctx, id) },
		func(got *DynamicConfig) bool { return got.ID == "" })
}

func configReviewPath(configID, reviewID string) string {
	return configPath(configID) + "/reviews/" + pathEscape(reviewID)
}

// GetDynamicConfigReview reads GET /dynamic_configs/{id}/reviews/{reviewID}, as for gates.
func (c *Client) GetDynamicConfigReview(ctx context.Context, configID, reviewID string) (*Review, error) {
	return getObject[Review](ctx, c, request{method: http.MethodGet, path: configReviewPath(configID, reviewID),
		op: "read review " + strconv.Quote(reviewID) + " of dynamic config", object: strconv.Quote(configID)})
}

// CommitDynamicConfigReview applies an approved review (PUT .../reviews/{reviewID}/commit) and
// returns the config as it now stands.
func (c *Client) CommitDynamicConfigReview(ctx context.Context, configID, reviewID string) (*DynamicConfig, error) {
	var out DynamicConfig
	r := request{method: http.MethodPut, path: configReviewPath(configID, reviewID) + "/commit",
		op: "commit review " + strconv.Quote(reviewID) + " of dynamic config", object: strconv.Quote(configID)}
	err := c.do(ctx, r, &out)
	if emptyAnswer(err) || err == nil && out.ID == "" {
		return c.GetDynamicConfig(ctx, configID)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}
