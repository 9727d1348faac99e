// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
)

// Metrics (POST /metrics, GET /metrics/{id}): what an experiment measures, named by id "<name>::<type>". Name and type never
// change; a write of the other fields is POST /metrics/{id}; destroy deletes, or schedules the
// archive (PUT .../schedule_archive), which the service carries out the next day. The archive moves
// answer a message alone.

// MetricCriterion is one filter of a metric's events or warehouse rows (MetricEventsCriteriaDto).
type MetricCriterion struct {
	Type      string   `json:"type"`
	Column    *string  `json:"column,omitempty"`
	Condition string   `json:"condition"`
	Values    []string `json:"values,omitempty"`
}

// MetricEvent is an event a metric counts or sums (metricEvents); Type is nullable in the document.
type MetricEvent struct {
	Name        string            `json:"name"`
	Type        *string           `json:"type,omitempty"`
	MetadataKey *string           `json:"metadataKey,omitempty"`
	Criteria    []MetricCriterion `json:"criteria,omitempty"`
}

// MetricRef names another metric: a composite metric's components (metricComponentMetrics).
type MetricRef struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// FunnelEvent is one step of a funnel metric (funnelEventList).
type FunnelEvent struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// WarehouseNative is a metric computed in the project's warehouse from a metric source
// (warehouseNative): the fields the provider manages of the document's many.
type WarehouseNative struct {
	Aggregation                 string            `json:"aggregation,omitempty"`
	MetricSourceName            string            `json:"metricSourceName,omitempty"`
	ValueColumn                 *string           `json:"valueColumn,omitempty"`
	Criteria                    []MetricCriterion `json:"criteria,omitempty"`
	DenominatorAggregation      *string           `json:"denominatorAggregation,omitempty"`
	DenominatorMetricSourceName *string           `json:"denominatorMetricSourceName,omitempty"`
	DenominatorValueColumn      *string           `json:"denominatorValueColumn,omitempty"`
	DenominatorCriteria         []MetricCriterion `json:"denominatorCriteria,omitempty"`
	MetricDimensionColumns      []string          `json:"metricDimensionColumns,omitempty"`
	WaitForCohortWindow         *bool             `json:"waitForCohortWindow,omitempty"`
}

// Metric is a metric as the service answers it (ExternalMetricDefinitionContractDto). A field
// whose absence matters is a pointer: the document's metric has no description, which the service
// takes and answers beyond it (DESIGN §7), and nothing that says the metric is archived, which the
// client reads where the service sends it (IsArchived, ScheduledArchiveTime).
type Metric struct {
	ID                     string           `json:"id"`
	Name                   string           `json:"name"`
	Type                   string           `json:"type"`
	Description            *string          `json:"description,omitempty"`
	Directionality         string           `json:"directionality"`
	Tags                   []string         `json:"tags"`
	UnitTypes              []string         `json:"unitTypes"`
	IsVerified             bool             `json:"isVerified"`
	IsReadOnly             bool             `json:"isReadOnly"`
	IsPermanent            bool             `json:"isPermanent"`
	Team                   *string          `json:"team"`
	MetricEvents           []MetricEvent    `json:"metricEvents"`
	MetricComponentMetrics []MetricRef      `json:"metricComponentMetrics"`
	FunnelEventList        []FunnelEvent    `json:"funnelEventList"`
	WarehouseNative        *WarehouseNative `json:"warehouseNative,omitempty"`
	IsArchived             bool             `json:"isArchived"`
	// ScheduledArchiveTime is when a scheduled archive takes effect (milliseconds since the epoch);
	// nil or 0: none is scheduled.
	ScheduledArchiveTime *WholeNumber `json:"scheduledArchiveTime,omitempty"`
}

// MetricArchive is where a metric stands in its archive: active, scheduled to be archived, archived.
type MetricArchive string

const (
	MetricActive           MetricArchive = "active"
	MetricArchiveScheduled MetricArchive = "archive_scheduled"
	MetricArchived         MetricArchive = "archived"
)

// Archive is where the metric stands.
func (m *Metric) Archive() MetricArchive {
	switch {
	case m.IsArchived:
		return MetricArchived
	case m.ScheduledArchiveTime != nil && *m.ScheduledArchiveTime != 0:
		return MetricArchiveScheduled
	}
	return MetricActive
}

// MetricFields is the body of a create (every field) or an update (Name and Type left out: they
// never change). Lists are sent as [] rather than left out, so that an update clears them.
type MetricFields struct {
	Name                   string           `json:"name,omitempty"`
	Type                   string           `json:"type,omitempty"`
	Description            *string          `json:"description,omitempty"`
	Directionality         string           `json:"directionality,omitempty"`
	Tags                   []string         `json:"tags"`
	UnitTypes              []string         `json:"unitTypes,omitempty"`
	IsVerified             *bool            `json:"isVerified,omitempty"`
	IsReadOnly             *bool            `json:"isReadOnly,omitempty"`
	IsPermanent            *bool            `json:"isPermanent,omitempty"`
	Team                   *string          `json:"team"`
	MetricEvents           []MetricEvent    `json:"metricEvents"`
	MetricComponentMetrics []MetricRef      `json:"metricComponentMetrics"`
	FunnelEventList        []FunnelEvent    `json:"funnelEventList"`
	WarehouseNative        *WarehouseNative `json:"warehouseNative,omitempty"`
	DryRun                 bool             `json:"dryRun,omitempty"`
}

// MetricID is the id the service gives a metric of that name and type.
func MetricID(name, typ string) string { return name + "::" + typ }

// metrics is /metrics/{id}, listed at /metrics/list.
var metrics = collection[Metric]{path: "/metrics", listPath: "/metrics/list", one: "metric", many: "metrics"}

// CreateMetric sends POST /metrics; with f.DryRun the service only validates, and an answer the
// service already gave the same body is not asked again (dryRun).
func (c *Client) CreateMetric(ctx context.Context, f MetricFields) (*Metric, error) {
	f = f.forWrite()
	id := MetricID(f.Name, f.Type)
	return c.writeMetric(ctx, metrics.path, "create", id, f)
}

// GetMetric reads GET /metrics/{id}.
func (c *Client) GetMetric(ctx context.Context, id string) (*Metric, error) {
	return metrics.get(ctx, c, id)
}

// UpdateMetric sends POST /metrics/{id}: every field but the name and type, which never change.
func (c *Client) UpdateMetric(ctx context.Context, id string, f MetricFields) (*Metric, error) {
	f = f.forWrite()
	f.Name, f.Type = "", ""
	return c.writeMetric(ctx, metrics.path+"/"+pathEscape(id), "update", id, f)
}

// writeMetric posts f to path. A dry run only validates; a create or update answered without a
// body is read back.
func (c *Client) writeMetric(ctx context.Context, path, verb, id string, f MetricFields) (*Metric, error) {
	op := verb + " metric"
	if f.DryRun {
		op = "validate metric"
	}
	r := request{method: http.MethodPost, path: path, body: f, op: op, object: strconv.Quote(id), dataOptional: f.DryRun}
	var out Metric
	if f.DryRun {
		if _, err := c.dryRun(ctx, r, &out); err != nil {
			return nil, err
		}
		return &out, nil
	}
	err := c.do(ctx, r, &out)
	if emptyAnswer(err) {
		return c.GetMetric(ctx, id)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteMetric sends DELETE /metrics/{id}.
func (c *Client) DeleteMetric(ctx context.Context, id string) error {
	return c.metricMove(ctx, http.MethodDelete, id, "", "delete metric")
}

// ScheduleMetricArchive sends PUT /metrics/{id}/schedule_archive: the service archives the metric
// the next day, keeping its history.
func (c *Client) ScheduleMetricArchive(ctx context.Context, id string) error {
	return c.metricMove(ctx, http.MethodPut, id, "/schedule_archive", "schedule the archive of metric")
}

// CancelMetricArchive sends PUT /metrics/{id}/cancel_archive: a scheduled archive is called off.
func (c *Client) CancelMetricArchive(ctx context.Context, id string) error {
	return c.metricMove(ctx, http.MethodPut, id, "/cancel_archive", "cancel the archive of metric")
}

// UnarchiveMetric sends PUT /metrics/{id}/unarchive.
func (c *Client) UnarchiveMetric(ctx context.Context, id string) error {
	return c.metricMove(ctx, http.MethodPut, id, "/unarchive", "unarchive metric")
}

// metricMove sends a write without a body whose answer is a message alone.
func (c *Client) metricMove(ctx context.Context, method, id, suffix, op string) error {
	return c.do(ctx, request{method: method, path: metrics.path + "/" + pathEscape(id) + suffix, op: op, object: strconv.Quote(id)}, nil)
}

// forWrite is the body as the service takes it: lists as [] rather than null.
func (f MetricFields) forWrite() MetricFields {
	f.Tags = orEmpty(f.Tags)
	f.MetricEvents = orEmpty(f.MetricEvents)
	f.MetricComponentMetrics = orEmpty(f.MetricComponentMetrics)
	f.FunnelEventList = orEmpty(f.FunnelEventList)
	return f
}

// EachMetricsPage reads GET /metrics/list page by page, handing each page to fn in order as it
// arrives; an error of fn stops the listing.
func (c *Client) EachMetricsPage(ctx context.Context, opts ListOptions, fn func([]Metric) error) error {
	return metrics.each(ctx, c, opts, fn)
}

// MetricSourceMissing reports a metric refused because a metric source it names does not exist: a
// 400 whose words name a metric source not found.
func MetricSourceMissing(err error) bool {
	ae, ok := errors.AsType[*APIError](err)
	msg := ""
	if ok && ae.StatusCode == http.StatusBadRequest {
		msg = strings.ToLower(ae.Message)
	}
	return strings.Contains(msg, "metric source") && strings.Contains(msg, "not found")
}
