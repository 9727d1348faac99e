package console

import (
	"context"
	"encoding/json"
	"net/http"
)

// Segment is an id-list or rule-based segment.
type Segment struct {
	ID               string        `json:"id"`
	IsEnabled        bool          `json:"isEnabled"`
	Description      string        `json:"description"`
	LastModifierName string        `json:"lastModifierName"`
	LastModifierID   string        `json:"lastModifierID"`
	Type             string        `json:"type"`
	Count            int64         `json:"count"`
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

// ListSegments reads every page of GET /segments.
func (c *Client) ListSegments(ctx context.Context, opts ListOptions) ([]Segment, error) {
	return listAll[Segment](ctx, c, request{method: http.MethodGet, path: "/segments", op: "list segments"}, opts)
}
