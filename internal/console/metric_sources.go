// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

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

// metricSources is /metrics/metric_source/{name}, listed at /metrics/metric_source/list; a listing
// without a pagination object is the whole list.
var metricSources = collection[MetricSource]{path: "/metrics/metric_source", listPath: "/metrics/metric_source/list", one: "metric source", many: "metric sources"}

// CreateMetricSource sends POST /metrics/metric_source; with src.DryRun the service only validates.
func (c *Client) CreateMetricSource(ctx context.Context, src MetricSource) (*MetricSource, error) {
	return c.writeMetricSource(ctx, metricSources.path, "create", src.forWrite())
}

// GetMetricSource reads GET /metrics/metric_source/{name}.
func (c *Client) GetMetricSource(ctx context.Context, name string) (*MetricSource, error) {
	return metricSources.get(ctx, c, name)
}

// UpdateMetricSource sends POST /metrics/metric_source/{name}; the name cannot change.
func (c *Client) UpdateMetricSource(ctx context.Context, name string, src MetricSource) (*MetricSource, error) {
	src = src.forWrite()
	src.Name = name
	return c.writeMetricSource(ctx, metricSources.path+"/"+pathEscape(name), "update", src)
}

// writeMetricSource posts src to path; verb names the write in errors unless src is a dry run,
// which only validates (and is not sent again for a body that already passed, see dryRun). A 2xx
// answer without a body completes the write: a dry run has nothing to return, a create or update
// is read back.
func (c *Client) writeMetricSource(ctx context.Context, path, verb string, src MetricSource) (*MetricSource, error) {
	op := verb + " metric source"
	if src.DryRun {
		op = "validate metric source"
	}
	r := request{method: http.MethodPost, path: path, body: src, op: op, object: strconv.Quote(src.Name), dataOptional: src.DryRun}
	var out MetricSource
	if src.DryRun {
		sent, err := c.dryRun(ctx, r, &out)
		if err != nil {
			return nil, err
		}
		if !sent {
			out = src // a body that already passed: what passed
		}
		return &out, nil
	}
	err := c.do(ctx, r, &out)
	if emptyAnswer(err) {
		return c.GetMetricSource(ctx, src.Name)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteMetricSource sends DELETE /metrics/metric_source/{name}.
func (c *Client) DeleteMetricSource(ctx context.Context, name string) error {
	return c.do(ctx, request{method: http.MethodDelete, path: metricSources.path + "/" + pathEscape(name), op: "delete metric source", object: strconv.Quote(name)}, nil)
}

// forWrite is the body of a create or update: lists are sent as [] rather than left out, because
// an update replaces the whole source and an empty list must clear the stored one; the owner is
// the service's to set.
func (m MetricSource) forWrite() MetricSource {
	m.Owner = nil
	m.Tags = orEmpty(m.Tags)
	m.CustomFieldMapping = orEmpty(m.CustomFieldMapping)
	return m
}

// EachMetricSourcesPage reads GET /metrics/metric_source/list page by page, handing each page to fn
// in order as it arrives; an error of fn stops the listing.
func (c *Client) EachMetricSourcesPage(ctx context.Context, opts ListOptions, fn func([]MetricSource) error) error {
	return metricSources.each(ctx, c, opts, fn)
}

// ListMetricSources reads every metric source unless opts.MaxRecords stops it.
func (c *Client) ListMetricSources(ctx context.Context, opts ListOptions) ([]MetricSource, error) {
	return metricSources.all(ctx, c, opts)
}
