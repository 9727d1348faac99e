// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"fmt"
	"net/http"
	"strings"
)

// IDTypeMapping maps a service unit ID type to a source column.
type IDTypeMapping struct {
	ServiceUnitID string `json:"serviceUnitID"`
	Column        string `json:"column"`
}

// CustomFieldMapping maps a custom field key to a formula.
type CustomFieldMapping struct {
	Key     string `json:"key"`
	Formula string `json:"formula"`
}

// Owner of a metric source (null for sources created through the API).
type Owner struct {
	OwnerID    string `json:"ownerID"`
	OwnerType  string `json:"ownerType"`
	OwnerName  string `json:"ownerName"`
	OwnerEmail string `json:"ownerEmail"`
}

// MetricSource is a metric source as stored (and returned by GET).
type MetricSource struct {
	Name                string               `json:"name"`
	SQL                 string               `json:"sql"`
	TimestampColumn     string               `json:"timestampColumn"`
	IDTypeMapping       []IDTypeMapping      `json:"idTypeMapping"`
	Description         string               `json:"description"`
	Tags                []string             `json:"tags"`
	TimestampAsDay      bool                 `json:"timestampAsDay"`
	SourceType          string               `json:"sourceType"`
	TableName           string               `json:"tableName"`
	DatePartitionColumn string               `json:"datePartitionColumn"`
	CustomFieldMapping  []CustomFieldMapping `json:"customFieldMapping"`
	IsReadOnly          bool                 `json:"isReadOnly"`
	IsVerified          bool                 `json:"isVerified"`
	Owner               *Owner               `json:"owner"`
	Team                *string              `json:"team"`
	TeamID              *string              `json:"teamID"`
}

// Metric sources, named by their name: created (POST without a name), read, listed, replaced and
// deleted. A write may be a dry run: validated and answered, not saved.

// MetricSource returns a deep copy of the metric source.
func (s *Server) MetricSource(name string) (MetricSource, bool) {
	return stored(s, s.sources, name, MetricSource.clone)
}

// PutMetricSource creates or replaces a metric source (defaults applied, no validation).
func (s *Server) PutMetricSource(m MetricSource) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sources[m.Name] = withSourceDefaults(m.clone())
}

// DeleteMetricSource removes a metric source.
func (s *Server) DeleteMetricSource(name string) {
	remove(s, s.sources, name)
}

// MetricSourceNames returns the names of all metric sources, sorted.
func (s *Server) MetricSourceNames() []string {
	return sortedKeys(s, s.sources)
}

// ---- endpoints ----

func (s *Server) listMetricSources(r *http.Request) response {
	return listByKey(s, r, s.sources, "/metrics/metric_source/list", "Metric sources", MetricSource.clone)
}

type metricSourceReq struct {
	MetricSource
	DryRun bool `json:"dryRun"`
}

// createResponse is the subset of fields the create endpoint echoes.
type createResponse struct {
	Name            string          `json:"name"`
	Description     string          `json:"description"`
	Tags            []string        `json:"tags"`
	SQL             string          `json:"sql"`
	TimestampColumn string          `json:"timestampColumn"`
	TimestampAsDay  bool            `json:"timestampAsDay"`
	IDTypeMapping   []IDTypeMapping `json:"idTypeMapping"`
	SourceType      string          `json:"sourceType"`
	TableName       string          `json:"tableName"`
}

func withSourceDefaults(m MetricSource) MetricSource {
	if m.Tags == nil {
		m.Tags = []string{}
	}
	if m.IDTypeMapping == nil {
		m.IDTypeMapping = []IDTypeMapping{}
	}
	if m.CustomFieldMapping == nil {
		m.CustomFieldMapping = []CustomFieldMapping{}
	}
	if m.SourceType == "" {
		m.SourceType = "query"
	}
	return m
}

func validateSource(m MetricSource) string {
	if strings.TrimSpace(m.Name) == "" {
		return "name must not be empty"
	}
	if strings.TrimSpace(m.SQL) == "" {
		return "sql must not be empty"
	}
	if strings.TrimSpace(m.TimestampColumn) == "" {
		return "timestampColumn must not be empty"
	}
	if len(m.IDTypeMapping) == 0 {
		return "idTypeMapping must contain at least one item"
	}
	for i, it := range m.IDTypeMapping {
		if strings.TrimSpace(it.ServiceUnitID) == "" {
			return fmt.Sprintf("idTypeMapping[%d].serviceUnitID must not be empty", i)
		}
		if strings.TrimSpace(it.Column) == "" {
			return fmt.Sprintf("idTypeMapping[%d].column must not be empty", i)
		}
	}
	switch m.SourceType {
	case "", "query":
		return checkSQL(m.SQL)
	case "table":
		if strings.TrimSpace(m.TableName) == "" {
			return `tableName is required when sourceType is "table"`
		}
	default:
		return fmt.Sprintf(`sourceType must be "table" or "query", got %q`, m.SourceType)
	}
	return ""
}

func checkSQL(sql string) string {
	t := strings.TrimSpace(sql)
	first := t
	if i := strings.IndexFunc(t, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '(' || r == ';'
	}); i >= 0 {
		first = t[:i]
	}
	if first == "" {
		first = t[:1]
	}
	switch strings.ToUpper(first) {
	case "SELECT", "WITH":
	default:
		return fmt.Sprintf("SQL compilation error: syntax error at or near %q", first)
	}
	depth := 0
	for _, r := range t {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return "SQL compilation error: unbalanced parentheses"
			}
		}
	}
	if depth != 0 {
		return "SQL compilation error: unbalanced parentheses"
	}
	return ""
}

func (s *Server) createMetricSource(body []byte) response {
	req, bad := decoded[metricSourceReq](body)
	if bad != nil {
		return *bad
	}
	m := req.MetricSource
	if msg := validateSource(m); msg != "" {
		return errResp(http.StatusBadRequest, "%s", msg)
	}
	if _, exists := s.sources[m.Name]; exists {
		return errResp(http.StatusBadRequest, "Name is already in use")
	}
	m.Owner = s.apiOwnerLocked() // the create answer leaves it out either way
	m = withSourceDefaults(m.clone())
	msg := "Metric source validated (dry run): nothing was saved"
	if !req.DryRun {
		s.sources[m.Name] = m
		msg = "Metric source created successfully"
	}
	return okResp(msg, createResponse{
		Name: m.Name, Description: m.Description, Tags: m.Tags, SQL: m.SQL,
		TimestampColumn: m.TimestampColumn, TimestampAsDay: m.TimestampAsDay,
		IDTypeMapping: m.IDTypeMapping, SourceType: m.SourceType, TableName: m.TableName,
	})
}

func (s *Server) getMetricSource(name string) response {
	return readOne(s.sources, "Metric source", name, MetricSource.clone)
}

func (s *Server) updateMetricSource(name string, body []byte) response {
	old, req, bad := writeTo[metricSourceReq](s.sources, "Metric source", name, body)
	if bad != nil {
		return *bad
	}
	m := req.MetricSource
	if m.Name == "" {
		m.Name = name
	} else if m.Name != name {
		return errResp(http.StatusBadRequest, "name cannot be changed: the body carries %q but the path names %q", m.Name, name)
	}
	if msg := validateSource(m); msg != "" {
		return errResp(http.StatusBadRequest, "%s", msg)
	}
	m.Owner = old.Owner // owner is not settable through the API
	m = withSourceDefaults(m.clone())
	msg := "Metric source validated (dry run): nothing was saved"
	if !req.DryRun {
		s.sources[name] = m
		msg = "Metric source updated successfully"
	}
	return okResp(msg, m.clone())
}

func (s *Server) deleteMetricSource(name string) response {
	if _, miss := find(s.sources, "Metric source", name); miss != nil {
		return *miss
	}
	delete(s.sources, name)
	return messageResp("Metric source deleted successfully.")
}

func (m MetricSource) clone() MetricSource {
	m.IDTypeMapping = append([]IDTypeMapping{}, m.IDTypeMapping...)
	m.CustomFieldMapping = append([]CustomFieldMapping{}, m.CustomFieldMapping...)
	m.Tags = nonNilStrings(m.Tags)
	if m.Owner != nil {
		o := *m.Owner
		m.Owner = &o
	}
	if m.Team != nil {
		t := *m.Team
		m.Team = &t
	}
	if m.TeamID != nil {
		t := *m.TeamID
		m.TeamID = &t
	}
	return m
}
