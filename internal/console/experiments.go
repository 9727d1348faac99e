// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Experiments (POST /experiments and the routes under /experiments/{id}): groups of users, each served its own parameter values, measured on
// metrics until a decision ships one group. Where an experiment stands (status) moves only through
// its own endpoints (start, make_decision, abandon, reset, archive, unarchive), never through a PATCH.

// The statuses of an experiment (GET /experiments/{id}). The last three are the service's own and only read.
const (
	ExperimentSetup        = "setup"
	ExperimentActive       = "active"
	ExperimentDecisionMade = "decision_made"
	ExperimentAbandoned    = "abandoned"
	ExperimentArchived     = "archived"
	// ExperimentStopped and AssignmentStopped are an experiment the service stopped: read, never sent.
	ExperimentStopped = "experiment_stopped"
	AssignmentStopped = "assignment_stopped"
)

// Experiment is an experiment as the service answers it (GET /experiments/{id}).
type Experiment struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Hypothesis  string   `json:"hypothesis"`
	IDType      string   `json:"idType"`
	Tags        []string `json:"tags"`
	// TargetApps is a list of strings or one bare string on the wire.
	TargetApps     StringList        `json:"targetApps"`
	Groups         []ExperimentGroup `json:"groups"`
	ControlGroupID string            `json:"controlGroupID"`
	// Allocation is the percentage of users in the experiment (0.01 steps).
	Allocation       Decimal            `json:"allocation"`
	PrimaryMetrics   []ExperimentMetric `json:"primaryMetrics"`
	SecondaryMetrics []ExperimentMetric `json:"secondaryMetrics"`
	TargetingGateID  string             `json:"targetingGateID"` // "" for none (links.go)
	LayerID          string             `json:"layerID"`
	Duration         *WholeNumber       `json:"duration"` // nil: left out or null (a target set by exposures)
	// The analysis settings: nil where the answer leaves one out or sends null (the document's
	// example leaves out sequentialTesting and the Benjamini-Hochberg settings), which is not false.
	SequentialTesting         *bool      `json:"sequentialTesting"`
	BonferroniCorrection      *bool      `json:"bonferroniCorrection"`
	DefaultConfidenceInterval FlexString `json:"defaultConfidenceInterval"` // "": left out or null
	// The corrections for comparing many metrics or groups, beside bonferroniCorrection.
	BonferroniCorrectionPerMetric *bool       `json:"bonferroniCorrectionPerMetric"`
	BenjaminiHochbergPerVariant   *bool       `json:"benjaminiHochbergPerVariant"`
	BenjaminiHochbergPerMetric    *bool       `json:"benjaminiHochbergPerMetric"`
	BenjaminiPrimaryMetricsOnly   *bool       `json:"benjaminiPrimaryMetricsOnly"`
	AnalyticsType                 string      `json:"analyticsType"` // "": left out or null
	Status                        string      `json:"status"`
	LaunchedGroupID               string      `json:"launchedGroupID"`
	DecisionReason                string      `json:"decisionReason"`
	StartTime                     Millis      `json:"startTime"`
	EndTime                       Millis      `json:"endTime"`
	DecisionTime                  Millis      `json:"decisionTime"`
	CreatorName                   string      `json:"creatorName"`
	CreatedTime                   WholeNumber `json:"createdTime"`
	LastModifierName              string      `json:"lastModifierName"`
	LastModifierID                string      `json:"lastModifierID"`
	// ActiveReview is set while a change of the experiment waits for review.
	ActiveReview *ActiveReview `json:"activeReview,omitempty"`
}

// IsOn reports a setting the answer held as true; one left out is not on.
func IsOn(setting *bool) bool { return setting != nil && *setting }

// Group returns the group of the experiment with the id, or nil. An empty id names no group: the
// document's answers leave a group's id, launchedGroupID and controlGroupID out or null.
func (e *Experiment) Group(id string) *ExperimentGroup {
	if id == "" {
		return nil
	}
	for i := range e.Groups {
		if e.Groups[i].ID == id {
			return &e.Groups[i]
		}
	}
	return nil
}

// partial reports an answer that leaves out what every experiment has: its name (3 to 100
// characters) or a group's id.
func (e *Experiment) partial() bool {
	if e.Name == "" {
		return true
	}
	for _, g := range e.Groups {
		if g.ID == "" {
			return true
		}
	}
	return false
}

// GroupNamed returns the group of the experiment with the name, or nil.
func (e *Experiment) GroupNamed(name string) *ExperimentGroup {
	for i := range e.Groups {
		if e.Groups[i].Name == name {
			return &e.Groups[i]
		}
	}
	return nil
}

// ExperimentGroup is one group of an experiment: its share of the allocated users (Size, percent)
// and the parameter values (a JSON object) they are served. ID is the service's.
type ExperimentGroup struct {
	ID              string     `json:"id,omitempty"`
	Name            string     `json:"name"`
	Size            Decimal    `json:"size"`
	ParameterValues JSONObject `json:"parameterValues"`
	Description     string     `json:"description,omitempty"`
	// Disabled is sent when true: a group written without it is enabled (the document's default).
	Disabled *bool `json:"disabled,omitempty"`
}

// IsDisabled reports whether the group is disabled: its users are served the control's values.
func (g ExperimentGroup) IsDisabled() bool { return g.Disabled != nil && *g.Disabled }

// ExperimentMetric is a metric the experiment measures; Direction is "increase" or "decrease" (the
// direction that counts as better), "" when the service holds none.
type ExperimentMetric struct {
	Name      string `json:"name"`
	Type      string `json:"type"`
	Direction string `json:"direction,omitempty"`
	// HypothesizedValue is the change the experiment expects of the metric; nil for none.
	HypothesizedValue *float64 `json:"hypothesizedValue,omitempty"`
}

// ExperimentFields are an experiment's own fields as POST /experiments and PATCH /experiments/{id}
// take them; a nil field is left out. Status is sent only by a create (setup or active there).
type ExperimentFields struct {
	ID                            string              `json:"id,omitempty"`
	Name                          *string             `json:"name,omitempty"`
	Description                   *string             `json:"description,omitempty"`
	Hypothesis                    *string             `json:"hypothesis,omitempty"`
	IDType                        *string             `json:"idType,omitempty"`
	Tags                          *[]string           `json:"tags,omitempty"`
	TargetApps                    *[]string           `json:"targetApps,omitempty"`
	Groups                        *[]ExperimentGroup  `json:"groups,omitempty"`
	ControlGroupID                *string             `json:"controlGroupID,omitempty"`
	Allocation                    *float64            `json:"allocation,omitempty"`
	PrimaryMetrics                *[]ExperimentMetric `json:"primaryMetrics,omitempty"`
	SecondaryMetrics              *[]ExperimentMetric `json:"secondaryMetrics,omitempty"`
	TargetingGateID               Link                `json:"targetingGateID,omitzero"` // Unlinked removes the targeting
	LayerID                       *string             `json:"layerID,omitempty"`
	Duration                      *int64              `json:"duration,omitempty"`
	SequentialTesting             *bool               `json:"sequentialTesting,omitempty"`
	BonferroniCorrection          *bool               `json:"bonferroniCorrection,omitempty"`
	DefaultConfidenceInterval     *string             `json:"defaultConfidenceInterval,omitempty"`
	BonferroniCorrectionPerMetric *bool               `json:"bonferroniCorrectionPerMetric,omitempty"`
	BenjaminiHochbergPerVariant   *bool               `json:"benjaminiHochbergPerVariant,omitempty"`
	BenjaminiHochbergPerMetric    *bool               `json:"benjaminiHochbergPerMetric,omitempty"`
	BenjaminiPrimaryMetricsOnly   *bool               `json:"benjaminiPrimaryMetricsOnly,omitempty"`
	AnalyticsType                 *string             `json:"analyticsType,omitempty"`
}

// experiments is GET /experiments and /experiments/{id}.
var experiments = collection[Experiment]{path: "/experiments", one: "experiment", many: "experiments"}

func experimentPath(id string) string { return experiments.path + "/" + pathEscape(id) }

// GetExperiment reads GET /experiments/{id}.
func (c *Client) GetExperiment(ctx context.Context, id string) (*Experiment, error) {
	return experiments.get(ctx, c, id)
}

// EachExperimentsPage reads GET /experiments page by page, handing each page to fn in order; status,
// when not "", is sent as the service's filter.
func (c *Client) EachExperimentsPage(ctx context.Context, status string, opts ListOptions, fn func([]Experiment) error) error {
	return eachPage(ctx, c, experimentsList(status), opts, fn)
}

// ListExperiments reads every page of GET /experiments (status as in EachExperimentsPage).
func (c *Client) ListExperiments(ctx context.Context, status string, opts ListOptions) ([]Experiment, error) {
	return listAll[Experiment](ctx, c, experimentsList(status), opts)
}

func experimentsList(status string) request {
	r := experiments.listRequest()
	if status != "" {
		r.query = url.Values{"status": {status}}
	}
	return r
}

// CreateExperiment sends POST /experiments with the id. An answer without a body is completed by
// reading the experiment.
func (c *Client) CreateExperiment(ctx context.Context, f ExperimentFields) (*Experiment, error) {
	r := request{method: http.MethodPost, path: experiments.path, body: f, op: "create experiment", object: strconv.Quote(f.ID)}
	return c.writeExperiment(ctx, r, f.ID)
}

// UpdateExperiment changes the experiment's own fields (PATCH /experiments/{id}); its status is
// never part of them. With respect_review_settings the change may be held for review: the error is
// then a ReviewPendingError, and the experiment as it still stands is returned.
func (c *Client) UpdateExperiment(ctx context.Context, id string, f ExperimentFields) (*Experiment, error) {
	r := request{method: http.MethodPatch, path: experimentPath(id), body: ExperimentFieldsChange(f), op: "update experiment", object: strconv.Quote(id)}
	return writeReviewed(ctx, c, r, func() (*Experiment, error) { return c.GetExperiment(ctx, id) },
		func(got *Experiment) bool { return got.ID == "" || got.partial() })
}

// ExperimentFieldsChange is the body UpdateExperiment sends for f.
func ExperimentFieldsChange(f ExperimentFields) any {
	f.ID = ""
	return f
}

func (e *Experiment) activeReview() *ActiveReview { return e.ActiveReview }

func experimentReviewPath(id, reviewID string) string {
	return experimentPath(id) + "/reviews/" + pathEscape(reviewID)
}

// GetExperimentReview reads GET /experiments/{id}/reviews/{reviewID}, as for gates.
func (c *Client) GetExperimentReview(ctx context.Context, id, reviewID string) (*Review, error) {
	return getObject[Review](ctx, c, request{method: http.MethodGet, path: experimentReviewPath(id, reviewID),
		op: "read review " + strconv.Quote(reviewID) + " of experiment", object: strconv.Quote(id)})
}

// CommitExperimentReview applies an approved review (PUT .../reviews/{reviewID}/commit) and returns
// the experiment as it now stands.
func (c *Client) CommitExperimentReview(ctx context.Context, id, reviewID string) (*Experiment, error) {
	r := request{method: http.MethodPut, path: experimentReviewPath(id, reviewID) + "/commit",
		op: "commit review " + strconv.Quote(reviewID) + " of experiment", object: strconv.Quote(id), dataOptional: true}
	return c.writeExperiment(ctx, r, id)
}

// StartExperiment moves an experiment from setup to active (PUT /experiments/{id}/start).
func (c *Client) StartExperiment(ctx context.Context, id string) (*Experiment, error) {
	// The document requires a body (ExperimentStartDto, every field optional).
	return c.moveExperiment(ctx, id, "start", "start", struct{}{})
}

// MakeExperimentDecision moves an active experiment to decision_made, shipping the group groupID
// (PUT /experiments/{id}/make_decision, ExperimentStatusUpdateDto). With a targeting gate,
// removeTargeting false ships the group to the users who pass the gate alone, true to everyone.
func (c *Client) MakeExperimentDecision(ctx context.Context, id, groupID, reason string, removeTargeting bool) (*Experiment, error) {
	body := struct {
		ID              string `json:"id"`
		DecisionReason  string `json:"decisionReason"`
		RemoveTargeting bool   `json:"removeTargeting"`
	}{groupID, reason, removeTargeting}
	return c.moveExperiment(ctx, id, "make_decision", "make a decision on", body)
}

// AbandonExperiment moves an experiment in setup or active to abandoned (PUT .../abandon).
func (c *Client) AbandonExperiment(ctx context.Context, id, reason string) (*Experiment, error) {
	body := struct {
		DecisionReason string `json:"decisionReason"`
	}{reason}
	return c.moveExperiment(ctx, id, "abandon", "abandon", body)
}

// ArchiveExperiment archives an experiment, its results kept (PUT .../archive).
func (c *Client) ArchiveExperiment(ctx context.Context, id, reason string) (*Experiment, error) {
	body := struct {
		ArchiveReason string `json:"archiveReason,omitempty"`
	}{reason}
	return c.moveExperiment(ctx, id, "archive", "archive", body)
}

// ResetExperiment puts a started experiment back in setup, its run cleared, to be started again
// (PUT /experiments/{id}/reset; the document gives it no body).
func (c *Client) ResetExperiment(ctx context.Context, id string) (*Experiment, error) {
	return c.moveExperiment(ctx, id, "reset", "reset", nil)
}

// UnarchiveExperiment puts an archived experiment back in the status it had (PUT .../unarchive).
func (c *Client) UnarchiveExperiment(ctx context.Context, id string) (*Experiment, error) {
	return c.moveExperiment(ctx, id, "unarchive", "unarchive", nil)
}

// SetExperimentGroupsDisabled disables (disable) or enables the experiment's groups named
// (POST /experiments/{id}/disable_groups or enable_groups, {group_names}): how a started
// experiment's groups change it, their sizes and values untouched.
func (c *Client) SetExperimentGroupsDisabled(ctx context.Context, id string, names []string, disable bool) (*Experiment, error) {
	verb, op := "enable_groups", "enable groups of experiment"
	if disable {
		verb, op = "disable_groups", "disable groups of experiment"
	}
	body := struct {
		GroupNames []string `json:"group_names"`
	}{names}
	r := request{method: http.MethodPost, path: experimentPath(id) + "/" + verb, body: body, op: op, object: strconv.Quote(id), dataOptional: true}
	return c.writeExperiment(ctx, r, id)
}

// DeleteExperiment sends DELETE /experiments/{id}.
func (c *Client) DeleteExperiment(ctx context.Context, id string) error {
	return c.do(ctx, request{method: http.MethodDelete, path: experimentPath(id), op: "delete experiment", object: strconv.Quote(id)}, nil)
}

// moveExperiment sends PUT /experiments/{id}/{verb} with body (nil: none); op is the verb as an
// error names it ("Unable to make a decision on experiment ..."). The document answers every move
// with a message alone ({"message": "Experiment successfully started."}): the move happened, and
// the experiment is read back.
func (c *Client) moveExperiment(ctx context.Context, id, verb, op string, body any) (*Experiment, error) {
	r := request{method: http.MethodPut, path: experimentPath(id) + "/" + verb, body: body, op: op + " experiment", object: strconv.Quote(id),
		dataOptional: true}
	return c.writeExperiment(ctx, r, id)
}

// writeExperiment sends a write answered with the experiment; an answer without a body, without
// the experiment, or with part of it (the document's update example leaves out the name and the
// groups' ids), is completed by reading it back.
func (c *Client) writeExperiment(ctx context.Context, r request, id string) (*Experiment, error) {
	var out Experiment
	err := c.do(ctx, r, &out)
	if emptyAnswer(err) || err == nil && (out.ID == "" || out.partial()) {
		return c.GetExperiment(ctx, id)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// PulseResults are the results of one test group against the control group (GET /experiments/{id}/pulse_results). The
// document's schema writes them in camelCase; its own example answer, which the service follows,
// in snake_case without metricName and without ds (the live service): MetricResult reads both.
type PulseResults struct {
	// DS is the day the results were computed for, as the service writes it; "" where it gives none.
	DS               FlexString     `json:"ds"`
	PrimaryMetrics   []MetricResult `json:"primaryMetrics"`
	SecondaryMetrics []MetricResult `json:"secondaryMetrics"`
}

// MetricResult is one metric's result: PercentChange ± PercentConfidenceIntervalDelta is the
// confidence interval of the change, in percent.
type MetricResult struct {
	// MetricID is "<name>::<type>" (GET /metrics/{id}).
	MetricID string `json:"metricID"`
	// MetricName is the service's, or where it sends none the name its MetricID holds.
	MetricName     string  `json:"metricName"`
	Directionality string  `json:"directionality"`
	ControlMean    Decimal `json:"controlMean"`
	TestMean       Decimal `json:"testMean"`
	// AbsoluteChange is TestMean - ControlMean (the example form's "value").
	AbsoluteChange Decimal `json:"absoluteChange"`
	// ConfidenceIntervalDelta is the half-width of AbsoluteChange's interval.
	ConfidenceIntervalDelta        Decimal `json:"confidenceIntervalDelta"`
	PercentChange                  Decimal `json:"percentChange"`
	PercentConfidenceIntervalDelta Decimal `json:"percentConfidenceIntervalDelta"`
	// NoInterval says the answer carried no percentConfidenceIntervalDelta (or null): then there is
	// no interval to judge the change by, which is not an interval of 0.
	NoInterval bool `json:"-"`
	// PercentSequentialTestingConfidenceIntervalDelta is the half-width of PercentChange's interval
	// under sequential testing, which the service sends for an experiment with sequential testing
	// on; HasSequentialInterval says whether the answer carried it (the document's example writes
	// it below 0: its size is the half-width).
	PercentSequentialTestingConfidenceIntervalDelta Decimal     `json:"percentSequentialTestingConfidenceIntervalDelta"`
	HasSequentialInterval                           bool        `json:"-"`
	PValue                                          Decimal     `json:"pValue"`
	ControlUnits                                    WholeNumber `json:"controlUnits"`
	TestUnits                                       WholeNumber `json:"testUnits"`
}

// UnmarshalJSON reads a metric's result in either form the document shows: the schema's camelCase
// keys (percentChange, pValue, testUnits) or its example's snake_case ones (percent_change,
// p_value, test_units), and "value" for absoluteChange (the example's figures are the test mean
// less the control mean). Keys are matched as encoding/json matches them, regardless of case, and
// also regardless of underscores; where both forms of a key come, the schema's wins. Numbers come
// in any JSON form (Decimal, WholeNumber). A result without metricName is known by its metricID.
func (m *MetricResult) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*m = MetricResult{}
	if raw == nil { // null
		return nil
	}
	byKey := make(map[string]json.RawMessage, len(raw))
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		norm := strings.ToLower(strings.ReplaceAll(k, "_", ""))
		if _, taken := byKey[norm]; taken && strings.Contains(k, "_") {
			continue // the schema's form of the key came too
		}
		byKey[norm] = raw[k]
	}
	fields := []struct {
		keys []string // normalised: lower case, no underscores; the first present wins
		into any
	}{
		{[]string{"metricid"}, &m.MetricID},
		{[]string{"metricname"}, &m.MetricName},
		{[]string{"directionality"}, &m.Directionality},
		{[]string{"controlmean"}, &m.ControlMean},
		{[]string{"testmean"}, &m.TestMean},
		{[]string{"absolutechange", "value"}, &m.AbsoluteChange},
		{[]string{"confidenceintervaldelta"}, &m.ConfidenceIntervalDelta},
		{[]string{"percentchange"}, &m.PercentChange},
		{[]string{"percentconfidenceintervaldelta"}, &m.PercentConfidenceIntervalDelta},
		{[]string{"percentsequentialtestingconfidenceintervaldelta"}, &m.PercentSequentialTestingConfidenceIntervalDelta},
		{[]string{"pvalue"}, &m.PValue},
		{[]string{"controlunits"}, &m.ControlUnits},
		{[]string{"testunits"}, &m.TestUnits},
	}
	for _, f := range fields {
		for _, k := range f.keys {
			v, ok := byKey[k]
			if !ok || string(bytes.TrimSpace(v)) == "null" {
				continue
			}
			if err := json.Unmarshal(v, f.into); err != nil {
				return fmt.Errorf("metric result field %q: %w", k, err)
			}
			break
		}
	}
	if v, ok := byKey["percentsequentialtestingconfidenceintervaldelta"]; ok && string(bytes.TrimSpace(v)) != "null" {
		m.HasSequentialInterval = true
	}
	if v, ok := byKey["percentconfidenceintervaldelta"]; !ok || string(bytes.TrimSpace(v)) == "null" {
		m.NoInterval = true
	}
	if strings.TrimSpace(m.MetricName) == "" {
		m.MetricName = MetricNameOf(m.MetricID)
	}
	return nil
}

// MarshalJSON writes the result in the schema's form, without the intervals the answer carried
// none of, so that it reads back as it was.
func (m MetricResult) MarshalJSON() ([]byte, error) {
	type plain MetricResult
	b, err := json.Marshal(plain(m))
	if err != nil || m.HasSequentialInterval && !m.NoInterval {
		return b, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	if !m.HasSequentialInterval {
		delete(raw, "percentSequentialTestingConfidenceIntervalDelta")
	}
	if m.NoInterval {
		delete(raw, "percentConfidenceIntervalDelta")
	}
	return json.Marshal(raw)
}

// MetricNameOf is the name a metric's id "<name>::<type>" holds: the text before the last
// "::", since a type never holds one; an id without "::" is taken as the name.
func MetricNameOf(metricID string) string {
	if i := strings.LastIndex(metricID, "::"); i >= 0 {
		return metricID[:i]
	}
	return metricID
}

// PulseQuery is how the results are asked for: the analysis the experiment's own settings call
// for (PulseQueryOf), or what the caller overrides.
type PulseQuery struct {
	// Confidence is the confidence level in percent (80..99); 0 leaves it to the service.
	Confidence int
	// CUPED is sent as cuped when set; nil leaves it to the service.
	CUPED *bool
	// The corrections, each sent as "true" when on and left to the service when off.
	BonferroniPerVariant, BonferroniPerMetric               bool
	BenjaminiHochbergPerVariant, BenjaminiHochbergPerMetric bool
}

// PulseQueryOf is the query that asks for an experiment's results as the console computes them:
// its default confidence level and the corrections it applies (Bonferroni per variant is the
// document's bonferroniCorrection). Sequential testing has no parameter: the service answers its
// interval for an experiment with it on.
func PulseQueryOf(e *Experiment) PulseQuery {
	q := PulseQuery{BonferroniPerVariant: IsOn(e.BonferroniCorrection), BonferroniPerMetric: IsOn(e.BonferroniCorrectionPerMetric),
		BenjaminiHochbergPerVariant: IsOn(e.BenjaminiHochbergPerVariant), BenjaminiHochbergPerMetric: IsOn(e.BenjaminiHochbergPerMetric)}
	if n, err := strconv.Atoi(strings.TrimSpace(string(e.DefaultConfidenceInterval))); err == nil {
		q.Confidence = n
	}
	return q
}

// values is the query's part of GET /experiments/{id}/pulse_results' parameters.
func (p PulseQuery) values(q url.Values) {
	if p.Confidence != 0 {
		q.Set("confidence", strconv.Itoa(p.Confidence))
	}
	if p.CUPED != nil {
		q.Set("cuped", strconv.FormatBool(*p.CUPED))
	}
	for name, on := range map[string]bool{
		"applyBonferroniPerVariant": p.BonferroniPerVariant, "applyBonferroniPerMetric": p.BonferroniPerMetric,
		"applyBenjaminiHochbergPerVariant": p.BenjaminiHochbergPerVariant, "applyBenjaminiHochbergPerMetric": p.BenjaminiHochbergPerMetric,
	} {
		if on {
			q.Set(name, "true")
		}
	}
}

// GetPulseResults reads GET /experiments/{id}/pulse_results for the test group against the control
// group (group ids), computed as the query asks. The service refuses (400) an experiment that has
// not started.
func (c *Client) GetPulseResults(ctx context.Context, id, controlGroupID, testGroupID string, query PulseQuery) (*PulseResults, error) {
	q := url.Values{"control": {controlGroupID}, "test": {testGroupID}}
	query.values(q)
	return getObject[PulseResults](ctx, c, request{method: http.MethodGet, path: experimentPath(id) + "/pulse_results", query: q,
		op: "read results of experiment", object: strconv.Quote(id)})
}
