// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Segment is an id-list or rule-based segment.
type Segment struct {
	ID               string        `json:"id"`
	IsEnabled        bool          `json:"isEnabled"`
	Description      string        `json:"description"`
	LastModifierName string        `json:"lastModifierName"`
	LastModifierID   string        `json:"lastModifierID"`
	Type             string        `json:"type"`
	Count            WholeNumber   `json:"count"`
	Tags             []string      `json:"tags"`
	Rules            *SegmentRules `json:"rules"`
}

// SegmentRules is the rule of a rule-based segment.
type SegmentRules struct {
	Name           string          `json:"name"`
	PassPercentage float64         `json:"passPercentage"`
	Conditions     []Condition     `json:"conditions"`
	ReturnValue    json.RawMessage `json:"returnValue,omitempty"`
}

// segments is GET /segments; the provider only lists them.
var segments = collection[Segment]{path: "/segments", one: "segment", many: "segments"}

// ListSegments reads every page of GET /segments.
func (c *Client) ListSegments(ctx context.Context, opts ListOptions) ([]Segment, error) {
	return segments.all(ctx, c, opts)
}

// UnmarshalJSON accepts rules as an object (one rule) or as an array of rules, the form of the live
// schema; an empty array, like null, is a segment without rules (an id-list segment). Of several
// rules the first is kept: the data source describes one rule per segment.
func (s *Segment) UnmarshalJSON(b []byte) error {
	type plain Segment
	var aux struct {
		plain
		Rules json.RawMessage `json:"rules"`
	}
	switch t := bytes.TrimSpace(b); {
	case string(t) == "null":
		return nil
	case len(t) == 0 || t[0] != '{':
		return fmt.Errorf("a segment must be a JSON object, got %s", truncate(string(t), 40))
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("segment field %q: the service sent a JSON %s where the provider expects another type", te.Field, te.Value)
		}
		return err
	}
	*s = Segment(aux.plain)
	s.Rules = nil
	raw := bytes.TrimSpace(aux.Rules)
	switch {
	case len(raw) == 0 || string(raw) == "null":
	case raw[0] == '[':
		var list []SegmentRules
		if err := json.Unmarshal(raw, &list); err != nil {
			return fmt.Errorf("segment %q: rules: %w", s.ID, err)
		}
		if len(list) > 0 {
			s.Rules = &list[0]
		}
	case raw[0] == '{':
		var one SegmentRules
		if err := json.Unmarshal(raw, &one); err != nil {
			return fmt.Errorf("segment %q: rules: %w", s.ID, err)
		}
		s.Rules = &one
	default:
		return fmt.Errorf("segment %q: rules must be an object or an array of rules, got %s", s.ID, truncate(string(raw), 40))
	}
	return nil
}
