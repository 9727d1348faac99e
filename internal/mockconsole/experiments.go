// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Experiments (POST /experiments and the routes under /experiments/{id}): at least two groups whose sizes sum to 100, each served a JSON object
// of parameter values, group ids the service makes. The status moves only through the endpoints
// of experiment_moves.go; a PATCH never moves it. While active the groups' names, sizes and values
// are frozen (matched by name: order and descriptions may change) and the allocation cannot
// decrease (but by a reset), and once started the idType and analyticsType.

// Experiment is an experiment as the service answers it.
type Experiment struct {
	ID                            string             `json:"id"`
	Name                          string             `json:"name"`
	Description                   string             `json:"description"`
	Hypothesis                    string             `json:"hypothesis"`
	IDType                        string             `json:"idType"`
	Tags                          []string           `json:"tags"`
	TargetApps                    []string           `json:"targetApps"`
	Groups                        []ExperimentGroup  `json:"groups"`
	ControlGroupID                string             `json:"controlGroupID"`
	Allocation                    float64            `json:"allocation"`
	PrimaryMetrics                []ExperimentMetric `json:"primaryMetrics"`
	SecondaryMetrics              []ExperimentMetric `json:"secondaryMetrics"`
	TargetingGateID               string             `json:"targetingGateID"`
	LayerID                       string             `json:"layerID"`
	Duration                      int64              `json:"duration"`
	SequentialTesting             bool               `json:"sequentialTesting"`
	BonferroniCorrection          bool               `json:"bonferroniCorrection"`
	DefaultConfidenceInterval     string             `json:"defaultConfidenceInterval"`
	BonferroniCorrectionPerMetric bool               `json:"bonferroniCorrectionPerMetric"`
	BenjaminiHochbergPerVariant   bool               `json:"benjaminiHochbergPerVariant"`
	BenjaminiHochbergPerMetric    bool               `json:"benjaminiHochbergPerMetric"`
	BenjaminiPrimaryMetricsOnly   bool               `json:"benjaminiPrimaryMetricsOnly"`
	AnalyticsType                 string             `json:"analyticsType"`
	Status                        string             `json:"status"`
	LaunchedGroupID               string             `json:"launchedGroupID"`
	DecisionReason                string             `json:"decisionReason"`
	// StartTime, EndTime and DecisionTime are milliseconds since the epoch, 0 (null) until set.
	StartTime        int64  `json:"startTime"`
	EndTime          int64  `json:"endTime"`
	DecisionTime     int64  `json:"decisionTime"`
	CreatorName      string `json:"creatorName"`
	CreatedTime      int64  `json:"createdTime"`
	LastModifierName string `json:"lastModifierName"`
	LastModifierID   string `json:"lastModifierID"`
	Audited
	// HealthCheckStatus is the service's check of the experiment's setup and exposures.
	HealthCheckStatus string `json:"healthCheckStatus"`
}

// ExperimentGroup is one group of an experiment; ParameterValues is a JSON object.
type ExperimentGroup struct {
	ID              string          `json:"id"`
	Name            string          `json:"name"`
	Size            float64         `json:"size"`
	ParameterValues json.RawMessage `json:"parameterValues"`
	Description     string          `json:"description"`
	Disabled        bool            `json:"disabled"`
}

// ExperimentMetric is a metric an experiment measures.
type ExperimentMetric struct {
	Name      string `json:"name"`
	Type      string `json:"type"`
	Direction string `json:"direction,omitempty"`
	// HypothesizedValue is the change expected of the metric; nil for none.
	HypothesizedValue *float64 `json:"hypothesizedValue,omitempty"`
}

// The statuses of an experiment (GET /experiments/{id}).
const (
	ExperimentSetup        = "setup"
	ExperimentActive       = "active"
	ExperimentDecisionMade = "decision_made"
	ExperimentAbandoned    = "abandoned"
	ExperimentArchived     = "archived"
	// ExperimentStopped is concluded with its decision deferred; AssignmentStopped no longer
	// assigns users (allocation 0). The service sets both; a decision may still follow.
	ExperimentStopped = "experiment_stopped"
	AssignmentStopped = "assignment_stopped"
)

const (
	defaultExperimentDuration   = 14
	defaultExperimentConfidence = "95"
	defaultAnalyticsType        = "frequentist"
)

type experimentState struct {
	exp Experiment
	// before is the status an archived experiment had, which unarchive puts back.
	before string
	// results are outcomes a test arranged (SetPulseResult), by test group id and metric name.
	results map[[2]string]arrangedResult
}

// experimentIDPattern is the service's pattern for an experiment id.
var experimentIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{3,100}$`)

// clone is the experiment as the service answers it.
func (st *experimentState) clone() Experiment {
	e := st.exp
	e.Tags, e.TargetApps = nonNilStrings(e.Tags), nonNilStrings(e.TargetApps)
	e.Groups = slices.Clone(e.Groups)
	for i := range e.Groups {
		e.Groups[i].ParameterValues = slices.Clone(e.Groups[i].ParameterValues)
	}
	if e.HealthCheckStatus == "" { // an experiment put by a test: the service always says
		e.HealthCheckStatus = "PASSED"
	}
	e.PrimaryMetrics = nonNilMetrics(e.PrimaryMetrics)
	e.SecondaryMetrics = nonNilMetrics(e.SecondaryMetrics)
	return e
}

func nonNilMetrics(m []ExperimentMetric) []ExperimentMetric {
	if m == nil {
		return []ExperimentMetric{}
	}
	return slices.Clone(m)
}

// ---- test accessors ----

// Experiment returns a copy of the experiment as the service holds it.
func (s *Server) Experiment(id string) (Experiment, bool) {
	return stored(s, s.experiments, id, (*experimentState).clone)
}

// ExperimentIDs lists the ids of all experiments, sorted.
func (s *Server) ExperimentIDs() []string { return sortedKeys(s, s.experiments) }

// DeleteExperiment removes an experiment, as the console does.
func (s *Server) DeleteExperiment(id string) { remove(s, s.experiments, id) }

// PutExperiment creates or replaces an experiment as the console would (no checks): groups lacking
// an id get one, the control group is the first unless set, and the service's defaults fill in what
// is left out.
func (s *Server) PutExperiment(e Experiment) {
	s.locked(func() {
		st := s.experiments[e.ID]
		if st == nil {
			st = &experimentState{}
			s.experiments[e.ID] = st
		}
		e.Groups = slices.Clone(e.Groups)
		for i := range e.Groups {
			g := &e.Groups[i]
			if g.ID == "" {
				g.ID = s.newGroupID()
			}
			if len(g.ParameterValues) == 0 {
				g.ParameterValues = json.RawMessage(`{}`)
			}
			g.ParameterValues = canonical(g.ParameterValues)
		}
		st.exp = withExperimentDefaults(e)
	})
}

// newGroupID makes the id of a new group; s.mu is held.
func (s *Server) newGroupID() string { return s.newBaseID() }

func withExperimentDefaults(e Experiment) Experiment {
	e.Name = cmp.Or(e.Name, e.ID)
	e.IDType = cmp.Or(e.IDType, defaultIDType)
	e.Status = cmp.Or(e.Status, ExperimentSetup)
	e.AnalyticsType = cmp.Or(e.AnalyticsType, defaultAnalyticsType)
	e.DefaultConfidenceInterval = cmp.Or(e.DefaultConfidenceInterval, defaultExperimentConfidence)
	e.Duration = cmp.Or(e.Duration, defaultExperimentDuration)
	e.Tags, e.TargetApps = nonNilStrings(e.Tags), nonNilStrings(e.TargetApps)
	if e.ControlGroupID == "" && len(e.Groups) > 0 {
		e.ControlGroupID = e.Groups[0].ID
	}
	return e
}

// ---- endpoints ----

func (s *Server) experimentRoutes(on func(method, path string, h handler)) {
	id := func(r *http.Request) string { return r.PathValue("id") }
	on(http.MethodGet, "/experiments", func(r *http.Request, _ []byte) response { return s.listExperiments(r) })
	on(http.MethodPost, "/experiments", func(_ *http.Request, body []byte) response { return s.createExperiment(body) })
	on(http.MethodGet, "/experiments/{id}", func(r *http.Request, _ []byte) response {
		return readOne(s.experiments, "Experiment", id(r), (*experimentState).clone)
	})
	on(http.MethodPatch, "/experiments/{id}", func(r *http.Request, body []byte) response {
		return s.unlessHeld(r, reviewKindExperiment, body, s.updateExperiment)
	})
	on(http.MethodGet, "/experiments/{id}/reviews/{review}", func(r *http.Request, _ []byte) response {
		return s.getReview(experimentReviews, id(r), r.PathValue("review"))
	})
	on(http.MethodPut, "/experiments/{id}/reviews/{review}/commit", func(r *http.Request, _ []byte) response {
		return s.commitReview(experimentReviews, id(r), r.PathValue("review"))
	})
	on(http.MethodDelete, "/experiments/{id}", func(r *http.Request, _ []byte) response {
		st, miss := find(s.experiments, "Experiment", id(r))
		if miss != nil {
			return *miss
		}
		delete(s.experiments, id(r))
		// The document's schema answers the experiment as it was; its example, a message alone
		// (the habit ExampleForms).
		return okResp("Experiment deleted successfully.", st.clone())
	})
	s.experimentMoveRoutes(on)
	for verb, disable := range map[string]bool{"disable_groups": true, "enable_groups": false} {
		on(http.MethodPost, "/experiments/{id}/"+verb, func(r *http.Request, body []byte) response {
			return s.setGroupsDisabled(id(r), body, disable)
		})
	}
}

// setGroupsDisabled is POST /experiments/{id}/disable_groups and enable_groups: {group_names}, each
// a group of the experiment; 201 with the experiment.
func (s *Server) setGroupsDisabled(id string, body []byte, disable bool) response {
	st, req, bad := writeTo[struct {
		GroupNames *[]string `json:"group_names"`
	}](s.experiments, "Experiment", id, body)
	if bad != nil {
		return *bad
	}
	if req.GroupNames == nil {
		return errResp(http.StatusBadRequest, "group_names is required")
	}
	if st.exp.Status == ExperimentArchived {
		return errResp(http.StatusBadRequest, "Experiment %q is archived and cannot be modified: unarchive it first", id)
	}
	for _, name := range *req.GroupNames {
		if st.exp.groupID(name) == "" {
			return errResp(http.StatusBadRequest, "Group %q is not a group of experiment %q", name, id)
		}
	}
	for _, name := range *req.GroupNames {
		for i := range st.exp.Groups {
			if st.exp.Groups[i].Name == name {
				st.exp.Groups[i].Disabled = disable
			}
		}
	}
	s.stampExperiment(st)
	resp := okResp("Experiment updated successfully", st.clone())
	resp.status = http.StatusCreated
	return resp
}

func (s *Server) listExperiments(r *http.Request) response {
	p, e := s.parsePage(r)
	if e != nil {
		return *e
	}
	status := r.URL.Query().Get("status")
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(s.experiments)) {
		if status == "" || s.experiments[k].exp.Status == status {
			keys = append(keys, k)
		}
	}
	return listed(p, "/experiments", "Experiments", len(keys), func(i int) Experiment { return s.experiments[keys[i]].clone() })
}

// experimentReq is the body of a create or a change of an experiment; nil is a field left out.
type experimentReq struct {
	ID                            *string               `json:"id"`
	Name                          *string               `json:"name"`
	Description                   *string               `json:"description"`
	Hypothesis                    *string               `json:"hypothesis"`
	IDType                        *string               `json:"idType"`
	Tags                          *[]string             `json:"tags"`
	TargetApps                    *[]string             `json:"targetApps"`
	Groups                        *[]experimentGroupReq `json:"groups"`
	ControlGroupID                *string               `json:"controlGroupID"`
	Allocation                    *float64              `json:"allocation"`
	PrimaryMetrics                *[]ExperimentMetric   `json:"primaryMetrics"`
	SecondaryMetrics              *[]ExperimentMetric   `json:"secondaryMetrics"`
	TargetingGateID               link                  `json:"targetingGateID"`
	LayerID                       *string               `json:"layerID"`
	Duration                      *float64              `json:"duration"`
	SequentialTesting             *bool                 `json:"sequentialTesting"`
	BonferroniCorrection          *bool                 `json:"bonferroniCorrection"`
	DefaultConfidenceInterval     *string               `json:"defaultConfidenceInterval"`
	BonferroniCorrectionPerMetric *bool                 `json:"bonferroniCorrectionPerMetric"`
	BenjaminiHochbergPerVariant   *bool                 `json:"benjaminiHochbergPerVariant"`
	BenjaminiHochbergPerMetric    *bool                 `json:"benjaminiHochbergPerMetric"`
	BenjaminiPrimaryMetricsOnly   *bool                 `json:"benjaminiPrimaryMetricsOnly"`
	AnalyticsType                 *string               `json:"analyticsType"`
	Status                        *string               `json:"status"`
}

// experimentGroupReq is a group as a write sends it: the service makes the ids, and keeps the id of
// a group whose name it already holds.
type experimentGroupReq struct {
	Name            *string          `json:"name"`
	Size            *float64         `json:"size"`
	ParameterValues *json.RawMessage `json:"parameterValues"`
	Description     *string          `json:"description"`
	Disabled        *bool            `json:"disabled"`
}

var analyticsTypes = []string{"frequentist", "bayesian", "sprt"}

// experimentRefused is the service's 400 for the fields of an experiment (e is the experiment as it
// stands, zero for a create); s.mu is held.
func (s *Server) experimentRefused(req experimentReq, e Experiment) *response {
	bad := func(format string, args ...any) *response {
		return ref(errResp(http.StatusBadRequest, format, args...))
	}
	if req.Name != nil && (strings.TrimSpace(*req.Name) == "" || utf8.RuneCountInString(*req.Name) > 100) {
		return bad("name must be 1 to 100 characters")
	}
	if req.Description != nil && utf8.RuneCountInString(*req.Description) > maxDescription {
		return bad("description must be at most %d characters", maxDescription)
	}
	if req.IDType != nil && strings.TrimSpace(*req.IDType) == "" {
		return bad("idType must not be empty")
	}
	if req.Groups != nil {
		if bad := groupsRefused(*req.Groups); bad != nil {
			return bad
		}
	}
	if a := req.Allocation; a != nil && (*a < 0 || *a > 100) {
		return bad("allocation must be between 0 and 100")
	}
	for field, ms := range map[string]*[]ExperimentMetric{"primaryMetrics": req.PrimaryMetrics, "secondaryMetrics": req.SecondaryMetrics} {
		if ms == nil {
			continue
		}
		for i, m := range *ms {
			if strings.TrimSpace(m.Name) == "" || strings.TrimSpace(m.Type) == "" {
				return bad("%s[%d] must have a name and a type", field, i)
			}
			if m.Direction != "" && m.Direction != "increase" && m.Direction != "decrease" {
				return bad("%s[%d].direction must be one of the following values: increase, decrease", field, i)
			}
			if _, ok := s.metrics[m.Name+"::"+m.Type]; s.metricsMeasured && !ok {
				return bad("%s[%d]: Metric %q not found", field, i, m.Name+"::"+m.Type)
			}
		}
	}
	if bad := linkRefused(req.TargetingGateID, s.gates, "Gate"); bad != nil {
		return bad
	}
	if d := req.Duration; d != nil && (*d != math.Trunc(*d) || *d < 1) {
		return bad("duration must be a whole number of days, at least 1")
	}
	if c := req.DefaultConfidenceInterval; c != nil && confidenceOf(*c) == 0 {
		return bad("defaultConfidenceInterval must be one of \"80\" to \"99\"")
	}
	if a := req.AnalyticsType; a != nil && !slices.Contains(analyticsTypes, *a) {
		return bad("analyticsType must be one of the following values: %s", strings.Join(analyticsTypes, ", "))
	}
	if c := req.ControlGroupID; c != nil && *c != "" && e.groupByID(*c) == nil {
		return bad("controlGroupID %q is not a group of the experiment", *c)
	}
	return nil
}

// groupsRefused checks the groups a write sends: at least two, named uniquely, sizes (two decimals)
// summing to 100, parameter values a JSON object.
func groupsRefused(groups []experimentGroupReq) *response {
	bad := func(format string, args ...any) *response {
		return ref(errResp(http.StatusBadRequest, format, args...))
	}
	if len(groups) < 2 {
		return bad("an experiment needs at least two groups")
	}
	names := map[string]bool{}
	var hundredths int64
	for i, g := range groups {
		if g.Name == nil || strings.TrimSpace(*g.Name) == "" {
			return bad("groups[%d].name is required", i)
		}
		if names[*g.Name] {
			return bad("groups[%d].name %q is used by another group", i, *g.Name)
		}
		names[*g.Name] = true
		if g.Size == nil || *g.Size < 0 || *g.Size > 100 {
			return bad("groups[%d].size must be between 0 and 100", i)
		}
		hundredths += int64(math.Round(*g.Size * 100))
		if g.ParameterValues == nil || !isJSONObject(*g.ParameterValues) {
			return bad("groups[%d].parameterValues must be a JSON object", i)
		}
	}
	if hundredths != 100*100 {
		return bad("the sizes of the groups must sum to 100, not %s", strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", float64(hundredths)/100), "0"), "."))
	}
	return nil
}

func confidenceOf(s string) int {
	var n int
	if _, err := fmt.Sscanf(s, "%d", &n); err != nil || fmt.Sprint(n) != s || n < 80 || n > 99 {
		return 0
	}
	return n
}

func (e *Experiment) groupByID(id string) *ExperimentGroup {
	for i := range e.Groups {
		if e.Groups[i].ID == id {
			return &e.Groups[i]
		}
	}
	return nil
}

// withGroups is the experiment's groups after a write of them: a group keeps the id of the group
// of its name, a new one gets a new id; s.mu is held.
func (s *Server) withGroups(held []ExperimentGroup, in []experimentGroupReq) []ExperimentGroup {
	out := make([]ExperimentGroup, len(in))
	for i, g := range in {
		ng := ExperimentGroup{Name: *g.Name, Size: *g.Size, ParameterValues: canonical(*g.ParameterValues)}
		if g.Description != nil {
			ng.Description = *g.Description
		}
		if g.Disabled != nil {
			ng.Disabled = *g.Disabled
		}
		if j := slices.IndexFunc(held, func(h ExperimentGroup) bool { return h.Name == ng.Name }); j >= 0 {
			ng.ID = held[j].ID
		} else {
			ng.ID = s.newGroupID()
		}
		out[i] = ng
	}
	return out
}

// sameGroups reports whether a write of groups changes none of their names, sizes or values,
// groups matched by name: their order and descriptions are not what an active experiment freezes.
func sameGroups(held []ExperimentGroup, in []experimentGroupReq) bool {
	if len(held) != len(in) {
		return false
	}
	for _, g := range in {
		j := slices.IndexFunc(held, func(h ExperimentGroup) bool { return h.Name == *g.Name })
		if j < 0 {
			return false
		}
		h := held[j]
		if math.Round(h.Size*100) != math.Round(*g.Size*100) || string(h.ParameterValues) != string(canonical(*g.ParameterValues)) {
			return false
		}
	}
	return true
}

// setExperimentFields writes the fields of req into e; s.mu is held.
func (s *Server) setExperimentFields(e *Experiment, req experimentReq) {
	for dst, v := range map[*string]*string{
		&e.Name: req.Name, &e.Description: req.Description, &e.Hypothesis: req.Hypothesis, &e.IDType: req.IDType,
		&e.LayerID: req.LayerID, &e.ControlGroupID: req.ControlGroupID,
		&e.DefaultConfidenceInterval: req.DefaultConfidenceInterval, &e.AnalyticsType: req.AnalyticsType,
	} {
		if v != nil {
			*dst = *v
		}
	}
	req.TargetingGateID.setInto(&e.TargetingGateID)
	if req.Tags != nil {
		e.Tags = nonNilStrings(*req.Tags)
	}
	if req.TargetApps != nil {
		e.TargetApps = nonNilStrings(*req.TargetApps)
	}
	if req.Groups != nil {
		e.Groups = s.withGroups(e.Groups, *req.Groups)
		if e.groupByID(e.ControlGroupID) == nil {
			e.ControlGroupID = e.Groups[0].ID
		}
	}
	if req.Allocation != nil {
		e.Allocation = *req.Allocation
	}
	if req.PrimaryMetrics != nil {
		e.PrimaryMetrics = slices.Clone(*req.PrimaryMetrics)
	}
	if req.SecondaryMetrics != nil {
		e.SecondaryMetrics = slices.Clone(*req.SecondaryMetrics)
	}
	if req.Duration != nil {
		e.Duration = int64(*req.Duration)
	}
	if req.SequentialTesting != nil {
		e.SequentialTesting = *req.SequentialTesting
	}
	for dst, v := range map[*bool]*bool{
		&e.BonferroniCorrection: req.BonferroniCorrection, &e.BonferroniCorrectionPerMetric: req.BonferroniCorrectionPerMetric,
		&e.BenjaminiHochbergPerVariant: req.BenjaminiHochbergPerVariant, &e.BenjaminiHochbergPerMetric: req.BenjaminiHochbergPerMetric,
		&e.BenjaminiPrimaryMetricsOnly: req.BenjaminiPrimaryMetricsOnly,
	} {
		if v != nil {
			*dst = *v
		}
	}
}

// stampExperiment records a write of the experiment; s.mu is held.
func (s *Server) stampExperiment(st *experimentState) {
	st.exp.LastModifierName = modifierName
	st.exp.LastModifierID = s.modifierID()
	st.exp.LastModifiedTime = s.now().UnixMilli()
	if st.exp.HealthCheckStatus == "" {
		st.exp.HealthCheckStatus = "PASSED"
	}
}

func (s *Server) createExperiment(body []byte) response {
	req, bad := decoded[experimentReq](body)
	if bad != nil {
		return *bad
	}
	if req.Name == nil || strings.TrimSpace(*req.Name) == "" {
		return errResp(http.StatusBadRequest, "name is required")
	}
	id := strings.ToLower(strings.Join(strings.Fields(*req.Name), "_"))
	if req.ID != nil {
		id = *req.ID
	}
	if !experimentIDPattern.MatchString(id) {
		return errResp(http.StatusBadRequest, "id must be 3 to 100 of the characters A-Z, a-z, 0-9, '_' and '-'")
	}
	if _, exists := s.experiments[id]; exists {
		return errResp(http.StatusBadRequest, "Experiment with id %q already exists", id)
	}
	if req.Groups == nil {
		return errResp(http.StatusBadRequest, "groups is required: an experiment needs at least two groups")
	}
	if st := req.Status; st != nil && *st != ExperimentSetup && *st != ExperimentActive {
		return errResp(http.StatusBadRequest, "status must be %s or %s when an experiment is created", ExperimentSetup, ExperimentActive)
	}
	if bad := s.experimentRefused(req, Experiment{}); bad != nil {
		return *bad
	}
	e := Experiment{ID: id, Allocation: 100, CreatorName: modifierName, CreatedTime: s.now().UnixMilli()}
	s.setExperimentFields(&e, req)
	if req.Status != nil && *req.Status == ExperimentActive {
		e.Status, e.StartTime = ExperimentActive, s.now().UnixMilli()
	}
	st := &experimentState{exp: withExperimentDefaults(e)}
	s.experiments[id] = st
	s.stampExperiment(st)
	resp := okResp("Experiment created successfully", st.clone())
	resp.status = http.StatusCreated
	return resp
}

func (s *Server) updateExperiment(id string, body []byte) response {
	st, req, bad := writeTo[experimentReq](s.experiments, "Experiment", id, body)
	if bad != nil {
		return *bad
	}
	e := &st.exp
	switch {
	case req.ID != nil && *req.ID != id:
		return errResp(http.StatusBadRequest, "id cannot be changed")
	case req.Status != nil && *req.Status != e.Status:
		return errResp(http.StatusBadRequest, "Experiment %q: status cannot be changed here: use start, make_decision or abandon", id)
	case e.Status == ExperimentArchived:
		return errResp(http.StatusBadRequest, "Experiment %q is archived and cannot be modified: unarchive it first", id)
	}
	if bad := s.experimentRefused(req, *e); bad != nil {
		return *bad
	}
	if e.Status == ExperimentActive && req.Groups != nil && !sameGroups(e.Groups, *req.Groups) {
		return errResp(http.StatusBadRequest, "Experiment %q is active: you can't edit the groups without restarting the experiment", id)
	}
	if a := req.Allocation; e.Status == ExperimentActive && a != nil && math.Round(*a*100) < math.Round(e.Allocation*100) {
		return errResp(http.StatusBadRequest, "Experiment %q is active: its allocation cannot decrease without a reset", id)
	}
	if e.StartTime != 0 {
		if req.IDType != nil && *req.IDType != e.IDType {
			return errResp(http.StatusBadRequest, "Experiment %q has started: its idType cannot change", id)
		}
		if req.AnalyticsType != nil && *req.AnalyticsType != e.AnalyticsType {
			return errResp(http.StatusBadRequest, "Experiment %q has started: its analyticsType cannot change", id)
		}
	}
	if c := req.ControlGroupID; c != nil && *c == "" {
		req.ControlGroupID = nil
	}
	if req.Groups != nil && req.ControlGroupID != nil {
		// The control group a write names must be one of the groups it leaves.
		next := Experiment{Groups: s.withGroups(e.Groups, *req.Groups)}
		if next.groupByID(*req.ControlGroupID) == nil {
			return errResp(http.StatusBadRequest, "controlGroupID %q is not a group of the experiment", *req.ControlGroupID)
		}
	}
	s.setExperimentFields(e, req)
	s.stampExperiment(st)
	return okResp("Experiment updated successfully", st.clone())
}

// reviewKindExperiment is a change of an experiment's own fields (PATCH /experiments/{id}) held for
// review, as a gate's are: its moves are not held.
const reviewKindExperiment = "experiment"

// experimentReviewCurrent is the experiment a change held for review leaves as it stands, when the
// change is one to hold: to an experiment that exists, is not archived, and whose body is valid;
// s.mu is held.
func (s *Server) experimentReviewCurrent(id string, body []byte) (any, bool) {
	st, ok := s.experiments[id]
	if !ok || st.exp.Status == ExperimentArchived {
		return nil, false
	}
	var req experimentReq
	if decodeStrict(body, &req) != nil || s.experimentRefused(req, st.exp) != nil {
		return nil, false
	}
	return st.clone(), true
}

// experimentReviews serves GET /experiments/{id}/reviews/{reviewID} and its commit, as for gates.
var experimentReviews = reviewed{
	noun: "experiment", fieldsKind: reviewKindExperiment, fieldsType: "experiment",
	committed: "Experiment review committed successfully",
	current: func(s *Server, id string) (any, bool) {
		st, ok := s.experiments[id]
		if !ok {
			return nil, false
		}
		return st.clone(), true
	},
}
