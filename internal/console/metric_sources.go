package console

import (
	"context"
	"net/http"
	"strconv"
)

// IDTypeMapping maps a source column to one of the service's unit ID types.
type IDTypeMapping struct {
	ServiceUnitID string `json:"serviceUnitID"`
	Column        string `json:"column"`
}

// CustomFieldMapping derives a field from a formula.
type CustomFieldMapping struct {
	Key     string `json:"key"`
	Formula string `json:"formula"`
}

// Owner is the console user owning a source; the service leaves it out for API-created sources.
type Owner struct {
	OwnerID    string `json:"ownerID"`
	OwnerType  string `json:"ownerType"`
	OwnerName  string `json:"ownerName"`
	OwnerEmail string `json:"ownerEmail"`
}

// MetricSource is a definition of where metric data comes from. Pointer fields distinguish
// "not in the response" from a zero value, because a create response echoes only some fields.
type MetricSource struct {
	Name                string               `json:"name"`
	SQL                 string               `json:"sql"`
	TimestampColumn     string               `json:"timestampColumn"`
	IDTypeMapping       []IDTypeMapping      `json:"idTypeMapping"`
	Description         *string              `json:"description,omitempty"`
	Tags                []string             `json:"tags"`
	TimestampAsDay      *bool                `json:"timestampAsDay,omitempty"`
	SourceType          *string              `json:"sourceType,omitempty"`
	TableName           *string              `json:"tableName,omitempty"`
	DatePartitionColumn *string              `json:"datePartitionColumn,omitempty"`
	CustomFieldMapping  []CustomFieldMapping `json:"customFieldMapping"`
	IsReadOnly          *bool                `json:"isReadOnly,omitempty"`
	IsVerified          *bool                `json:"isVerified,omitempty"`
	Owner               *Owner               `json:"owner,omitempty"`
	Team                *string              `json:"team,omitempty"`
	TeamID              *string              `json:"teamID,omitempty"`
	DryRun              bool                 `json:"dryRun,omitempty"`
}

// CreateMetricSource sends POST /metrics/metric_source; with src.DryRun the service only validates.
func (c *Client) CreateMetricSource(ctx context.Context, src MetricSource) (*MetricSource, error) {
	src = src.forWrite()
	op := "create metric source"
	if src.DryRun {
		op = "validate metric source"
	}
	var out MetricSource
	err := c.do(ctx, request{method: http.MethodPost, path: "/metrics/metric_source", body: src, op: op, object: strconv.Quote(src.Name), dataOptional: src.DryRun}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// GetMetricSource reads GET /metrics/metric_source/{name}.
func (c *Client) GetMetricSource(ctx context.Context, name string) (*MetricSource, error) {
	var out MetricSource
	err := c.do(ctx, request{method: http.MethodGet, path: "/metrics/metric_source/" + pathEscape(name), op: "read metric source", object: strconv.Quote(name)}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// UpdateMetricSource sends POST /metrics/metric_source/{name}; the name cannot change.
func (c *Client) UpdateMetricSource(ctx context.Context, name string, src MetricSource) (*MetricSource, error) {
	src = src.forWrite()
	src.Name = name
	op := "update metric source"
	if src.DryRun {
		op = "validate metric source"
	}
	var out MetricSource
	err := c.do(ctx, request{method: http.MethodPost, path: "/metrics/metric_source/" + pathEscape(name), body: src, op: op, object: strconv.Quote(name), dataOptional: src.DryRun}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteMetricSource sends DELETE /metrics/metric_source/{name}.
func (c *Client) DeleteMetricSource(ctx context.Context, name string) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "/metrics/metric_source/" + pathEscape(name), op: "delete metric source", object: strconv.Quote(name)}, nil)
}

// forWrite is the body of a create or update: lists are sent as [] rather than left out, because
// an update replaces the whole source and an empty list must clear the stored one; the owner is
// the service's to set.
func (m MetricSource) forWrite() MetricSource {
	m.Owner = nil
	if m.Tags == nil {
		m.Tags = []string{}
	}
	if m.CustomFieldMapping == nil {
		m.CustomFieldMapping = []CustomFieldMapping{}
	}
	return m
}
