// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Metrics (POST /metrics, GET /metrics/{id}), as the service's document shapes them: id "<name>::<type>", made by the
// service from the name and type, which never change. A write may be a dry run: validated and
// answered, not saved. A warehouse-native metric names a metric source the project holds; an
// event metric names its events. Destroy deletes, or schedules the archive, which the service
// carries out the next day (ArchiveMetricNow plays that day); the archive moves answer a message
// alone. The document's metric has no description and nothing that says it is archived: the mock
// answers both beyond it (description, isArchived, scheduledArchiveTime), which the schema allows
// (DESIGN §7).

// MetricCriterion is one filter of a metric's events or warehouse rows.
type MetricCriterion struct {
	Type      string   `json:"type"`
	Column    string   `json:"column,omitempty"`
	Condition string   `json:"condition"`
	Values    []string `json:"values,omitempty"`
}

// MetricEvent is an event a metric counts; Type is null when unset.
type MetricEvent struct {
	Name        string            `json:"name"`
	Type        *string           `json:"type,omitempty"`
	MetadataKey string            `json:"metadataKey,omitempty"`
	Criteria    []MetricCriterion `json:"criteria"`
}

// MetricRef names another metric (a composite metric's components).
type MetricRef struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// FunnelEvent is one step of a funnel metric.
type FunnelEvent struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// WarehouseNative is a metric computed from a metric source: the fields the mock keeps.
type WarehouseNative struct {
	Aggregation                 string            `json:"aggregation"`
	MetricSourceName            string            `json:"metricSourceName"`
	ValueColumn                 string            `json:"valueColumn,omitempty"`
	Criteria                    []MetricCriterion `json:"criteria"`
	DenominatorAggregation      string            `json:"denominatorAggregation,omitempty"`
	DenominatorMetricSourceName string            `json:"denominatorMetricSourceName,omitempty"`
	DenominatorValueColumn      string            `json:"denominatorValueColumn,omitempty"`
	DenominatorCriteria         []MetricCriterion `json:"denominatorCriteria,omitempty"`
	MetricDimensionColumns      []string          `json:"metricDimensionColumns,omitempty"`
	WaitForCohortWindow         *bool             `json:"waitForCohortWindow,omitempty"`
}

// MetricLineage is what a metric is computed from (required by the document).
type MetricLineage struct {
	Events  []string `json:"events"`
	Metrics []string `json:"metrics"`
}

// Metric is a metric as the service answers it.
type Metric struct {
	ID                     string           `json:"id"`
	Name                   string           `json:"name"`
	Type                   string           `json:"type"`
	Description            string           `json:"description"`
	Directionality         string           `json:"directionality"`
	Tags                   []string         `json:"tags"`
	UnitTypes              []string         `json:"unitTypes"`
	IsVerified             bool             `json:"isVerified"`
	IsReadOnly             bool             `json:"isReadOnly"`
	IsPermanent            bool             `json:"isPermanent"`
	IsHidden               bool             `json:"isHidden"`
	Team                   *string          `json:"team"`
	MetricEvents           []MetricEvent    `json:"metricEvents"`
	MetricComponentMetrics []MetricRef      `json:"metricComponentMetrics"`
	FunnelEventList        []FunnelEvent    `json:"funnelEventList"`
	WarehouseNative        *WarehouseNative `json:"warehouseNative,omitempty"`
	Lineage                MetricLineage    `json:"lineage"`
	CreatorName            string           `json:"creatorName"`
	CreatedTime            int64            `json:"createdTime"`
	// IsArchived and ScheduledArchiveTime (milliseconds, null when none) say where the metric
	// stands in its archive: beyond the document.
	IsArchived           bool   `json:"isArchived"`
	ScheduledArchiveTime *int64 `json:"scheduledArchiveTime"`
}

// The document's enums of a metric's write.
var (
	metricTypes         = []string{"ratio", "mean", "event_count_custom", "event_user", "funnel", "composite", "composite_sum", "sum", "undefined", "user_warehouse"}
	metricAggregations  = []string{"count", "sum", "mean", "daily_participation", "ratio", "funnel", "count_distinct", "percentile", "first_value", "latest_value", "retention", "max", "min"}
	metricEventTypes    = []string{"count", "count_distinct", "value", "metadata"}
	criterionTypes      = []string{"value", "metadata", "user", "user_custom"}
	criterionConditions = []string{"in", "not_in", "=", ">", "<", ">=", "<=", "is_null", "non_null", "contains", "not_contains",
		"sql_filter", "starts_with", "ends_with", "after_exposure", "before_exposure", "is_true", "is_false"}
	funnelEventTypes = []string{"event_dau", "event_user", "event_count", "event_count_custom"}
	// eventMetricTypes are measured from events: they name at least one in metricEvents.
	eventMetricTypes = []string{"event_count_custom", "event_user", "sum", "mean", "ratio"}
	// metricNamePattern is the document's pattern of a metric's name (4 to 200 characters).
	metricNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_.\-()/ %:]*$`)
)

// ---- test accessors ----

// Metric returns a copy of the metric as the service holds it.
func (s *Server) Metric(id string) (Metric, bool) { return stored(s, s.metrics, id, Metric.clone) }

// PutMetric creates or replaces a metric as the console would (no checks); its id is made from
// its name and type when empty.
func (s *Server) PutMetric(m Metric) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.ID == "" {
		m.ID = m.Name + "::" + m.Type
	}
	s.metrics[m.ID] = withMetricDefaults(m.clone())
}

// DeleteMetric removes a metric, as the console does.
func (s *Server) DeleteMetric(id string) { remove(s, s.metrics, id) }

// MetricIDs lists the ids of all metrics, sorted.
func (s *Server) MetricIDs() []string { return sortedKeys(s, s.metrics) }

// ArchiveMetricNow carries out a metric's archive, as the service does the day after it was
// scheduled (or as the console's archive does at once).
func (s *Server) ArchiveMetricNow(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.metrics[id]
	if ok {
		m.IsArchived, m.ScheduledArchiveTime = true, nil
		s.metrics[id] = m
	}
	return ok
}

// ScheduleMetricArchive schedules a metric's archive for the next day, as the console does.
func (s *Server) ScheduleMetricArchive(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.metrics[id]
	if ok {
		s.scheduleArchive(&m)
		s.metrics[id] = m
	}
	return ok
}

// RefuseUnknownExperimentMetrics makes experiments refuse, from now on, a metric the project does
// not hold (a 400 naming it), so that a test proves an experiment is written only after the metrics
// it measures. Off unless a test asks: the seed's experiments and most tests name metrics
// (event_count) that no metric of the mock defines.
func (s *Server) RefuseUnknownExperimentMetrics() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.metricsMeasured = true
}

func (s *Server) metricRoutes(on func(method, path string, h handler)) {
	id := func(r *http.Request) string { return r.PathValue("id") }
	// "list" is no metric's id for GET: ids hold "::".
	on(http.MethodGet, "/metrics/list", func(r *http.Request, _ []byte) response {
		return listByKey(s, r, s.metrics, "/metrics/list", "Metrics", Metric.clone)
	})
	on(http.MethodPost, "/metrics", func(_ *http.Request, body []byte) response { return s.createMetric(body) })
	on(http.MethodGet, "/metrics/{id}", func(r *http.Request, _ []byte) response {
		return readOne(s.metrics, "Metric", id(r), Metric.clone)
	})
	on(http.MethodPost, "/metrics/{id}", func(r *http.Request, body []byte) response { return s.updateMetric(id(r), body) })
	on(http.MethodDelete, "/metrics/{id}", func(r *http.Request, _ []byte) response {
		if _, miss := find(s.metrics, "Metric", id(r)); miss != nil {
			return *miss
		}
		delete(s.metrics, id(r))
		return messageResp("Metric deleted successfully.")
	})
	on(http.MethodPut, "/metrics/{id}/schedule_archive", func(r *http.Request, _ []byte) response {
		return s.moveMetric(id(r), func(m *Metric) string {
			s.scheduleArchive(m)
			return "Metric archive scheduled successfully for next day."
		})
	})
	on(http.MethodPut, "/metrics/{id}/cancel_archive", func(r *http.Request, _ []byte) response {
		return s.moveMetric(id(r), func(m *Metric) string {
			m.ScheduledArchiveTime = nil
			return "Metric archival cancelled successfully."
		})
	})
	on(http.MethodPut, "/metrics/{id}/unarchive", func(r *http.Request, _ []byte) response {
		return s.moveMetric(id(r), func(m *Metric) string {
			m.IsArchived, m.ScheduledArchiveTime = false, nil
			return "Metric unarchived successfully."
		})
	})
}

// scheduleArchive schedules the archive of m for a day from now (an archived metric stays so).
func (s *Server) scheduleArchive(m *Metric) {
	if !m.IsArchived {
		at := s.now().Add(24 * time.Hour).UnixMilli()
		m.ScheduledArchiveTime = &at
	}
}

// moveMetric applies an archive move to the metric id; the answer is a message alone.
func (s *Server) moveMetric(id string, move func(*Metric) string) response {
	m, miss := find(s.metrics, "Metric", id)
	if miss != nil {
		return *miss
	}
	msg := move(&m)
	s.metrics[id] = m
	return messageResp(msg)
}

// metricReq is the body of a create or an update; nil is a field left out. The document's further
// fields are taken and not kept (the mock keeps what the provider manages).
type metricReq struct {
	Name                   *string          `json:"name"`
	Type                   *string          `json:"type"`
	Description            *string          `json:"description"`
	Directionality         *string          `json:"directionality"`
	Tags                   *[]string        `json:"tags"`
	UnitTypes              *[]string        `json:"unitTypes"`
	IsVerified             *bool            `json:"isVerified"`
	IsReadOnly             *bool            `json:"isReadOnly"`
	IsPermanent            *bool            `json:"isPermanent"`
	Team                   *json.RawMessage `json:"team"`
	TeamID                 json.RawMessage  `json:"teamID"`
	MetricEvents           *[]MetricEvent   `json:"metricEvents"`
	MetricComponentMetrics *[]MetricRef     `json:"metricComponentMetrics"`
	FunnelEventList        *[]FunnelEvent   `json:"funnelEventList"`
	FunnelCountDistinct    json.RawMessage  `json:"funnelCountDistinct"`
	RollupTimeWindow       json.RawMessage  `json:"rollupTimeWindow"`
	CustomRollUpStart      json.RawMessage  `json:"customRollUpStart"`
	CustomRollUpEnd        json.RawMessage  `json:"customRollUpEnd"`
	Owner                  json.RawMessage  `json:"owner"`
	// WarehouseNative is read leniently: the document lists dozens of its fields.
	WarehouseNative json.RawMessage `json:"warehouseNative"`
	DryRun          bool            `json:"dryRun"`
}

// apply writes the request's fields into m.
func (req metricReq) apply(m *Metric) *response {
	bad := func(format string, args ...any) *response {
		r := errResp(http.StatusBadRequest, format, args...)
		return &r
	}
	if req.Description != nil {
		m.Description = *req.Description
	}
	if req.Directionality != nil {
		m.Directionality = *req.Directionality
	}
	if req.Tags != nil {
		m.Tags = slices.Clone(*req.Tags)
	}
	if req.UnitTypes != nil {
		m.UnitTypes = slices.Clone(*req.UnitTypes)
	}
	for _, f := range []struct {
		in  *bool
		out *bool
	}{{req.IsVerified, &m.IsVerified}, {req.IsReadOnly, &m.IsReadOnly}, {req.IsPermanent, &m.IsPermanent}} {
		if f.in != nil {
			*f.out = *f.in
		}
	}
	if req.Team != nil {
		var team *string
		if err := json.Unmarshal(*req.Team, &team); err != nil {
			return bad("team must be a string or null")
		}
		m.Team = team
	}
	if req.MetricEvents != nil {
		m.MetricEvents = slices.Clone(*req.MetricEvents)
	}
	if req.MetricComponentMetrics != nil {
		m.MetricComponentMetrics = slices.Clone(*req.MetricComponentMetrics)
	}
	if req.FunnelEventList != nil {
		m.FunnelEventList = slices.Clone(*req.FunnelEventList)
	}
	if len(req.WarehouseNative) > 0 && string(req.WarehouseNative) != "null" {
		var wn WarehouseNative
		if err := json.Unmarshal(req.WarehouseNative, &wn); err != nil {
			return bad("warehouseNative: %s", err)
		}
		m.WarehouseNative = &wn
	}
	return nil
}

// checkMetric is the service's check of a metric about to be stored; s.mu is held.
func (s *Server) checkMetric(m Metric) string {
	if n := utf8.RuneCountInString(m.Name); strings.TrimSpace(m.Name) == "" || n < 4 || n > 200 {
		return "name must be 4 to 200 characters"
	}
	if strings.Contains(m.Name, "::") {
		return `name must not contain "::"`
	}
	if !metricNamePattern.MatchString(m.Name) {
		return "name must match " + metricNamePattern.String()
	}
	if !slices.Contains(metricTypes, m.Type) {
		return fmt.Sprintf("type must be one of the following values: %s", strings.Join(metricTypes, ", "))
	}
	if m.Directionality != "increase" && m.Directionality != "decrease" {
		return "directionality must be one of the following values: increase, decrease"
	}
	for i, e := range m.MetricEvents {
		if strings.TrimSpace(e.Name) == "" {
			return fmt.Sprintf("metricEvents[%d].name must not be empty", i)
		}
		if e.Type != nil && !slices.Contains(metricEventTypes, *e.Type) {
			return fmt.Sprintf("metricEvents[%d].type must be one of the following values: %s", i, strings.Join(metricEventTypes, ", "))
		}
		if msg := checkCriteria(fmt.Sprintf("metricEvents[%d].criteria", i), e.Criteria); msg != "" {
			return msg
		}
	}
	for i, f := range m.FunnelEventList {
		if strings.TrimSpace(f.Name) == "" || !slices.Contains(funnelEventTypes, f.Type) {
			return fmt.Sprintf("funnelEventList[%d] must have a name and a type of %s", i, strings.Join(funnelEventTypes, ", "))
		}
	}
	for i, c := range m.MetricComponentMetrics {
		if _, ok := s.metrics[c.Name+"::"+c.Type]; !ok {
			return fmt.Sprintf("metricComponentMetrics[%d]: Metric %q not found", i, c.Name+"::"+c.Type)
		}
	}
	switch {
	case m.Type == "user_warehouse":
		return s.checkWarehouseNative(m.WarehouseNative)
	case m.WarehouseNative != nil:
		return "warehouseNative is only for metrics of type user_warehouse"
	case slices.Contains(eventMetricTypes, m.Type) && len(m.MetricEvents) == 0:
		return fmt.Sprintf("a metric of type %s needs at least one of metricEvents", m.Type)
	case (m.Type == "composite" || m.Type == "composite_sum") && len(m.MetricComponentMetrics) == 0:
		return fmt.Sprintf("a metric of type %s needs at least one of metricComponentMetrics", m.Type)
	case m.Type == "funnel" && len(m.FunnelEventList) == 0:
		return "a metric of type funnel needs at least one of funnelEventList"
	}
	return ""
}

// checkWarehouseNative checks a user_warehouse metric's definition: a known aggregation, and the
// metric sources it names held by the project; s.mu is held.
func (s *Server) checkWarehouseNative(wn *WarehouseNative) string {
	if wn == nil {
		return "a metric of type user_warehouse needs warehouseNative"
	}
	if !slices.Contains(metricAggregations, wn.Aggregation) {
		return fmt.Sprintf("warehouseNative.aggregation must be one of the following values: %s", strings.Join(metricAggregations, ", "))
	}
	if wn.DenominatorAggregation != "" && !slices.Contains(metricAggregations, wn.DenominatorAggregation) {
		return fmt.Sprintf("warehouseNative.denominatorAggregation must be one of the following values: %s", strings.Join(metricAggregations, ", "))
	}
	if strings.TrimSpace(wn.MetricSourceName) == "" {
		return "warehouseNative.metricSourceName must not be empty"
	}
	for _, src := range []string{wn.MetricSourceName, wn.DenominatorMetricSourceName} {
		if _, ok := s.sources[src]; !ok && src != "" {
			return fmt.Sprintf("Metric source %q not found", src)
		}
	}
	if msg := checkCriteria("warehouseNative.criteria", wn.Criteria); msg != "" {
		return msg
	}
	return checkCriteria("warehouseNative.denominatorCriteria", wn.DenominatorCriteria)
}

func checkCriteria(at string, cs []MetricCriterion) string {
	for i, c := range cs {
		if !slices.Contains(criterionTypes, c.Type) {
			return fmt.Sprintf("%s[%d].type must be one of the following values: %s", at, i, strings.Join(criterionTypes, ", "))
		}
		if !slices.Contains(criterionConditions, c.Condition) {
			return fmt.Sprintf("%s[%d].condition must be one of the following values: %s", at, i, strings.Join(criterionConditions, ", "))
		}
	}
	return ""
}

func (s *Server) createMetric(body []byte) response {
	req, bad := decoded[metricReq](body)
	if bad != nil {
		return *bad
	}
	m := Metric{Name: deref(req.Name), Type: deref(req.Type), Directionality: "increase", UnitTypes: []string{"userID"}}
	if bad := req.apply(&m); bad != nil {
		return *bad
	}
	if msg := s.checkMetric(m); msg != "" {
		return errResp(http.StatusBadRequest, "%s", msg)
	}
	m.ID = m.Name + "::" + m.Type
	if _, exists := s.metrics[m.ID]; exists {
		return errResp(http.StatusBadRequest, "Metric %q already exists", m.ID)
	}
	m.CreatorName, m.CreatedTime = "CONSOLE API", s.now().UnixMilli()
	m = withMetricDefaults(m)
	if req.DryRun {
		return okResp("Metric validated (dry run): nothing was saved", m.clone())
	}
	s.metrics[m.ID] = m
	resp := okResp("Metric created successfully.", m.clone())
	resp.status = http.StatusCreated
	return resp
}

func (s *Server) updateMetric(id string, body []byte) response {
	old, req, bad := writeTo[metricReq](s.metrics, "Metric", id, body)
	if bad != nil {
		return *bad
	}
	if req.Name != nil && *req.Name != old.Name {
		return errResp(http.StatusBadRequest, "a metric cannot be renamed: create a metric of the new name")
	}
	if req.Type != nil && *req.Type != old.Type {
		return errResp(http.StatusBadRequest, "a metric's type cannot change")
	}
	if old.IsArchived {
		return errResp(http.StatusBadRequest, "Metric %q is archived and cannot be modified. Unarchive it first.", id)
	}
	m := old.clone()
	if bad := req.apply(&m); bad != nil {
		return *bad
	}
	if msg := s.checkMetric(m); msg != "" {
		return errResp(http.StatusBadRequest, "%s", msg)
	}
	m = withMetricDefaults(m)
	if req.DryRun {
		return okResp("Metric validated (dry run): nothing was saved", m.clone())
	}
	s.metrics[id] = m
	return okResp("Metric updated successfully.", m.clone())
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// withMetricDefaults fills what the service derives: the lineage, and lists as [] rather than null.
func withMetricDefaults(m Metric) Metric {
	if m.Directionality == "" {
		m.Directionality = "increase"
	}
	m.Lineage = MetricLineage{Events: []string{}, Metrics: []string{}}
	for _, e := range m.MetricEvents {
		if !slices.Contains(m.Lineage.Events, e.Name) {
			m.Lineage.Events = append(m.Lineage.Events, e.Name)
		}
	}
	for _, c := range m.MetricComponentMetrics {
		m.Lineage.Metrics = append(m.Lineage.Metrics, c.Name+"::"+c.Type)
	}
	return m.clone()
}

// clone is the metric as the service answers it: lists as [] rather than null.
func (m Metric) clone() Metric {
	m.Tags, m.UnitTypes = nonNilStrings(m.Tags), nonNilStrings(m.UnitTypes)
	m.MetricEvents = slices.Clone(m.MetricEvents)
	if m.MetricEvents == nil {
		m.MetricEvents = []MetricEvent{}
	}
	for i := range m.MetricEvents {
		m.MetricEvents[i].Criteria = cloneCriteria(m.MetricEvents[i].Criteria, true)
		if t := m.MetricEvents[i].Type; t != nil {
			v := *t
			m.MetricEvents[i].Type = &v
		}
	}
	m.MetricComponentMetrics = slices.Clone(m.MetricComponentMetrics)
	if m.MetricComponentMetrics == nil {
		m.MetricComponentMetrics = []MetricRef{}
	}
	m.FunnelEventList = slices.Clone(m.FunnelEventList)
	if m.FunnelEventList == nil {
		m.FunnelEventList = []FunnelEvent{}
	}
	if m.WarehouseNative != nil {
		wn := *m.WarehouseNative
		wn.Criteria = cloneCriteria(wn.Criteria, true)
		wn.DenominatorCriteria = cloneCriteria(wn.DenominatorCriteria, false)
		wn.MetricDimensionColumns = slices.Clone(wn.MetricDimensionColumns)
		if wn.WaitForCohortWindow != nil {
			v := *wn.WaitForCohortWindow
			wn.WaitForCohortWindow = &v
		}
		m.WarehouseNative = &wn
	}
	m.Lineage = MetricLineage{Events: nonNilStrings(m.Lineage.Events), Metrics: nonNilStrings(m.Lineage.Metrics)}
	if m.Team != nil {
		t := *m.Team
		m.Team = &t
	}
	if m.ScheduledArchiveTime != nil {
		t := *m.ScheduledArchiveTime
		m.ScheduledArchiveTime = &t
	}
	return m
}

func cloneCriteria(cs []MetricCriterion, nonNil bool) []MetricCriterion {
	out := slices.Clone(cs)
	if out == nil && nonNil {
		out = []MetricCriterion{}
	}
	for i := range out {
		out[i].Values = slices.Clone(out[i].Values)
	}
	return out
}
