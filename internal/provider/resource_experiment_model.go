// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The model of featureconsole_experiment and its conversion to and from the service's experiment.
// Groups, the control group and the launched group are named in HCL; the service takes and answers
// group ids, which the model keeps beside the names.

const experimentIdentityAttr = "experiment_id"

type experimentModel struct {
	ID types.String `tfsdk:"id"`
	experimentFields
	// Archived is the service's status archived; Status then keeps the one beneath it (readArchived).
	Archived         types.Bool `tfsdk:"archived"`
	ArchiveOnDestroy types.Bool `tfsdk:"archive_on_destroy"`
	// AbandonReasonOnDestroy is the reason an archiving destroy abandons a running experiment with.
	AbandonReasonOnDestroy types.String `tfsdk:"abandon_reason_on_destroy"`
	DeletionProtection     types.Bool   `tfsdk:"deletion_protection"`
	// RemoveTargeting is sent with the decision (removeTargeting); the service's reads do not say it.
	RemoveTargeting types.Bool     `tfsdk:"remove_targeting"`
	Timeouts        timeouts.Value `tfsdk:"timeouts"`
}

// experimentFields are what the service holds of an experiment, shared with its data source.
type experimentFields struct {
	ExperimentID    types.String `tfsdk:"experiment_id"`
	Name            types.String `tfsdk:"name"`
	Description     types.String `tfsdk:"description"`
	Hypothesis      types.String `tfsdk:"hypothesis"`
	IDType          types.String `tfsdk:"id_type"`
	Tags            types.Set    `tfsdk:"tags"`
	Allocation      types.Number `tfsdk:"allocation"`
	TargetingGateID types.String `tfsdk:"targeting_gate_id"`
	Duration        types.Int64  `tfsdk:"duration"`
	AnalyticsType   types.String `tfsdk:"analytics_type"`
	LayerID         types.String `tfsdk:"layer_id"`
	experimentAnalysis
	Groups           types.List   `tfsdk:"groups"`
	ControlGroup     types.String `tfsdk:"control_group"`
	PrimaryMetrics   types.List   `tfsdk:"primary_metrics"`
	SecondaryMetrics types.List   `tfsdk:"secondary_metrics"`
	Status           types.String `tfsdk:"status"`
	LaunchedGroup    types.String `tfsdk:"launched_group"`
	LaunchedGroupID  types.String `tfsdk:"launched_group_id"`
	DecisionReason   types.String `tfsdk:"decision_reason"`
	StartTime        types.Int64  `tfsdk:"start_time"`
	EndTime          types.Int64  `tfsdk:"end_time"`
	DecisionTime     types.Int64  `tfsdk:"decision_time"`
	CreatorName      types.String `tfsdk:"creator_name"`
	CreatedTime      types.Int64  `tfsdk:"created_time"`
	LastModifierID   types.String `tfsdk:"last_modifier_id"`
	LastModifierName types.String `tfsdk:"last_modifier_name"`
}

// experimentAnalysis are the experiment's analysis settings: how its results are computed.
type experimentAnalysis struct {
	SequentialTesting             types.Bool  `tfsdk:"sequential_testing"`
	DefaultConfidenceInterval     types.Int64 `tfsdk:"default_confidence_interval"`
	BonferroniCorrection          types.Bool  `tfsdk:"bonferroni_correction"`
	BonferroniCorrectionPerMetric types.Bool  `tfsdk:"bonferroni_correction_per_metric"`
	BenjaminiHochbergPerVariant   types.Bool  `tfsdk:"benjamini_hochberg_per_variant"`
	BenjaminiHochbergPerMetric    types.Bool  `tfsdk:"benjamini_hochberg_per_metric"`
	BenjaminiPrimaryMetricsOnly   types.Bool  `tfsdk:"benjamini_primary_metrics_only"`
}

// analysisFlag is one boolean analysis setting: where the model, a write and an answer (nil: left
// out) hold it.
type analysisFlag struct {
	model func(*experimentAnalysis) *types.Bool
	field func(*console.ExperimentFields) **bool
	read  func(*console.Experiment) *bool
}

// analysisFlags are the boolean analysis settings, in the order the docs list them.
var analysisFlags = []analysisFlag{
	{func(a *experimentAnalysis) *types.Bool { return &a.SequentialTesting },
		func(f *console.ExperimentFields) **bool { return &f.SequentialTesting }, func(e *console.Experiment) *bool { return e.SequentialTesting }},
	{func(a *experimentAnalysis) *types.Bool { return &a.BonferroniCorrection },
		func(f *console.ExperimentFields) **bool { return &f.BonferroniCorrection }, func(e *console.Experiment) *bool { return e.BonferroniCorrection }},
	{func(a *experimentAnalysis) *types.Bool { return &a.BonferroniCorrectionPerMetric },
		func(f *console.ExperimentFields) **bool { return &f.BonferroniCorrectionPerMetric },
		func(e *console.Experiment) *bool { return e.BonferroniCorrectionPerMetric }},
	{func(a *experimentAnalysis) *types.Bool { return &a.BenjaminiHochbergPerVariant },
		func(f *console.ExperimentFields) **bool { return &f.BenjaminiHochbergPerVariant },
		func(e *console.Experiment) *bool { return e.BenjaminiHochbergPerVariant }},
	{func(a *experimentAnalysis) *types.Bool { return &a.BenjaminiHochbergPerMetric },
		func(f *console.ExperimentFields) **bool { return &f.BenjaminiHochbergPerMetric },
		func(e *console.Experiment) *bool { return e.BenjaminiHochbergPerMetric }},
	{func(a *experimentAnalysis) *types.Bool { return &a.BenjaminiPrimaryMetricsOnly },
		func(f *console.ExperimentFields) **bool { return &f.BenjaminiPrimaryMetricsOnly },
		func(e *console.Experiment) *bool { return e.BenjaminiPrimaryMetricsOnly }},
}

// flattenAnalysis reads the analysis settings the answer holds; one it leaves out keeps the value
// the model holds (the plan's or the state's), null where none is known.
func flattenAnalysis(e *console.Experiment, m *experimentAnalysis) {
	for _, f := range analysisFlags {
		dst := f.model(m)
		switch v := f.read(e); {
		case v != nil:
			*dst = types.BoolValue(*v)
		case dst.IsUnknown():
			*dst = types.BoolNull()
		}
	}
	switch n, err := strconv.Atoi(strings.TrimSpace(string(e.DefaultConfidenceInterval))); {
	case err == nil: // "" (left out or null) is no number
		m.DefaultConfidenceInterval = types.Int64Value(int64(n))
	case m.DefaultConfidenceInterval.IsUnknown():
		m.DefaultConfidenceInterval = types.Int64Null()
	}
}

// expandAnalysis puts the known analysis settings of m into a write.
func expandAnalysis(m experimentAnalysis, f *console.ExperimentFields) {
	for _, a := range analysisFlags {
		if v := *a.model(&m); !v.IsNull() && !v.IsUnknown() {
			*a.field(f) = v.ValueBoolPointer()
		}
	}
	if v := m.DefaultConfidenceInterval; !v.IsNull() && !v.IsUnknown() {
		c := strconv.FormatInt(v.ValueInt64(), 10)
		f.DefaultConfidenceInterval = &c
	}
}

func (m *experimentModel) identity() (string, types.String) {
	return experimentIdentityAttr, m.ExperimentID
}

// experimentGroupModel is one group: its id is the service's, kept for as long as the group keeps
// its name.
type experimentGroupModel struct {
	ID              types.String        `tfsdk:"id"`
	Name            types.String        `tfsdk:"name"`
	Size            types.Number        `tfsdk:"size"`
	ParameterValues framework.JSONValue `tfsdk:"parameter_values"`
	Description     types.String        `tfsdk:"description"`
	Disabled        types.Bool          `tfsdk:"disabled"`
}

type experimentMetricModel struct {
	Name              types.String  `tfsdk:"name"`
	Type              types.String  `tfsdk:"type"`
	Direction         types.String  `tfsdk:"direction"`
	HypothesizedValue types.Float64 `tfsdk:"hypothesized_value"`
}

var (
	experimentGroupType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"id": types.StringType, "name": types.StringType, "size": types.NumberType,
		"parameter_values": framework.JSONValueType{}, "description": types.StringType, "disabled": types.BoolType,
	}}
	experimentMetricType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"name": types.StringType, "type": types.StringType, "direction": types.StringType, "hypothesized_value": types.Float64Type,
	}}
)

// percentOf is a percentage attribute as a float; ok is false while it is null or unknown.
func percentOf(n types.Number) (float64, bool) {
	if n.IsNull() || n.IsUnknown() {
		return 0, false
	}
	f, _ := n.ValueBigFloat().Float64()
	return f, true
}

// expandGroups is the groups a write sends, in the configuration's order.
func expandGroups(groups []experimentGroupModel) []console.ExperimentGroup {
	out := make([]console.ExperimentGroup, len(groups))
	for i, g := range groups {
		size, _ := percentOf(g.Size)
		values, ok := framework.KnownJSON(g.ParameterValues)
		if !ok {
			values = []byte("{}")
		}
		out[i] = console.ExperimentGroup{Name: g.Name.ValueString(), Size: console.Decimal(size),
			ParameterValues: console.JSONObject(framework.CompactJSON(values)), Description: g.Description.ValueString()}
		if g.Disabled.ValueBool() {
			out[i].Disabled = g.Disabled.ValueBoolPointer()
		}
	}
	return out
}

func expandMetrics(ctx context.Context, l types.List, diags *diag.Diagnostics) *[]console.ExperimentMetric {
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	ms, d := framework.ListModels[experimentMetricModel](ctx, l)
	diags.Append(d...)
	out := make([]console.ExperimentMetric, len(ms))
	for i, m := range ms {
		out[i] = console.ExperimentMetric{Name: m.Name.ValueString(), Type: m.Type.ValueString(), Direction: m.Direction.ValueString()}
		if !m.HypothesizedValue.IsNull() && !m.HypothesizedValue.IsUnknown() {
			out[i].HypothesizedValue = m.HypothesizedValue.ValueFloat64Pointer()
		}
	}
	return &out
}

// experimentFieldsFrom is every field of the plan a write can send (known ones), the control group
// left out: the service takes it by id, known once the groups are.
func experimentFieldsFrom(ctx context.Context, m experimentModel) (console.ExperimentFields, diag.Diagnostics) {
	var diags diag.Diagnostics
	f := console.ExperimentFields{
		ID:              m.ExperimentID.ValueString(),
		Name:            knownPointer(m.Name),
		Description:     knownPointer(m.Description),
		Hypothesis:      knownPointer(m.Hypothesis),
		IDType:          knownPointer(m.IDType),
		AnalyticsType:   knownPointer(m.AnalyticsType),
		TargetingGateID: knownLink(m.TargetingGateID),
		LayerID:         knownPointer(m.LayerID),
	}
	expandAnalysis(m.experimentAnalysis, &f)
	if f.Name == nil {
		f.Name = m.ExperimentID.ValueStringPointer()
	}
	if a, ok := percentOf(m.Allocation); ok {
		f.Allocation = &a
	}
	if !m.Duration.IsNull() && !m.Duration.IsUnknown() {
		f.Duration = m.Duration.ValueInt64Pointer()
	}
	tags, d := knownTags(ctx, m.Tags)
	diags.Append(d...)
	f.Tags = tags
	if groups, d := framework.ListModels[experimentGroupModel](ctx, m.Groups); !d.HasError() && framework.IsKnownList(m.Groups) {
		g := expandGroups(groups)
		f.Groups = &g
	} else {
		diags.Append(d...)
	}
	f.PrimaryMetrics = expandMetrics(ctx, m.PrimaryMetrics, &diags)
	f.SecondaryMetrics = expandMetrics(ctx, m.SecondaryMetrics, &diags)
	return f, diags
}

// experimentChanges is the body of an update: the fields whose planned value differs from the
// state, groups compared by their content (ids are the service's). A targeting gate the plan no
// longer names is removed (null).
func experimentChanges(ctx context.Context, plan, state experimentModel) (console.ExperimentFields, diag.Diagnostics) {
	all, diags := experimentFieldsFrom(ctx, plan)
	var f console.ExperimentFields
	ifChanged(plan.Name, state.Name, func() { f.Name = all.Name })
	ifChanged(plan.Description, state.Description, func() { f.Description = all.Description })
	ifChanged(plan.Hypothesis, state.Hypothesis, func() { f.Hypothesis = all.Hypothesis })
	ifChanged(plan.IDType, state.IDType, func() { f.IDType = all.IDType })
	ifChanged(plan.AnalyticsType, state.AnalyticsType, func() { f.AnalyticsType = all.AnalyticsType })
	ifChanged(plan.Tags, state.Tags, func() { f.Tags = all.Tags })
	ifChanged(plan.Allocation, state.Allocation, func() { f.Allocation = all.Allocation })
	ifChanged(plan.Duration, state.Duration, func() { f.Duration = all.Duration })
	ifChanged(plan.PrimaryMetrics, state.PrimaryMetrics, func() { f.PrimaryMetrics = all.PrimaryMetrics })
	ifChanged(plan.SecondaryMetrics, state.SecondaryMetrics, func() { f.SecondaryMetrics = all.SecondaryMetrics })
	ifChanged(plan.TargetingGateID, state.TargetingGateID, func() { f.TargetingGateID = plannedLink(plan.TargetingGateID) })
	for _, a := range analysisFlags {
		ifChanged(*a.model(&plan.experimentAnalysis), *a.model(&state.experimentAnalysis), func() { *a.field(&f) = *a.field(&all) })
	}
	ifChanged(plan.DefaultConfidenceInterval, state.DefaultConfidenceInterval, func() { f.DefaultConfidenceInterval = all.DefaultConfidenceInterval })
	// A started experiment's groups are disabled and enabled by their own requests (groupsToggled),
	// not by writing the groups.
	if !sameGroupContent(ctx, plan.Groups, state.Groups) &&
		(state.Status.ValueString() == console.ExperimentSetup || !sameGroups(ctx, plan.Groups, state.Groups, false)) {
		f.Groups = all.Groups
	}
	return f, diags
}

// groupsToggled names the planned groups whose disabled differs from the state's group of the same
// name: those to disable, and those to enable.
func groupsToggled(ctx context.Context, plan, state types.List) (disable, enable []string) {
	ps, _ := framework.ListModels[experimentGroupModel](ctx, plan)
	hs, _ := framework.ListModels[experimentGroupModel](ctx, state)
	for _, p := range ps {
		for _, h := range hs {
			if !p.Name.Equal(h.Name) || p.Disabled.IsUnknown() || p.Disabled.ValueBool() == h.Disabled.ValueBool() {
				continue
			}
			if p.Disabled.ValueBool() {
				disable = append(disable, p.Name.ValueString())
			} else {
				enable = append(enable, p.Name.ValueString())
			}
		}
	}
	return disable, enable
}

func emptyExperimentFields(f console.ExperimentFields) bool {
	return f == (console.ExperimentFields{})
}

// sameGroupContent reports whether two group lists hold the same names, sizes, values,
// descriptions and disabled in the same order (ids aside); unknown is never the same.
func sameGroupContent(ctx context.Context, a, b types.List) bool {
	return sameGroups(ctx, a, b, true)
}

// sameGroups is sameGroupContent, disabled compared only withDisabled.
func sameGroups(ctx context.Context, a, b types.List, withDisabled bool) bool {
	if !framework.ElementsKnown(a) || !framework.ElementsKnown(b) {
		return false
	}
	ga, d1 := framework.ListModels[experimentGroupModel](ctx, a)
	gb, d2 := framework.ListModels[experimentGroupModel](ctx, b)
	if d1.HasError() || d2.HasError() || len(ga) != len(gb) {
		return false
	}
	for i := range ga {
		x, y := ga[i], gb[i]
		if !x.Name.Equal(y.Name) || !samePercent(x.Size, y.Size) || !x.Description.Equal(y.Description) ||
			!framework.SameJSON(ctx, x.ParameterValues, y.ParameterValues) || (withDisabled && x.Disabled.ValueBool() != y.Disabled.ValueBool()) {
			return false
		}
	}
	return true
}

// samePercent compares two percentages at the two decimals the service keeps.
func samePercent(a, b types.Number) bool {
	x, okA := percentOf(a)
	y, okB := percentOf(b)
	return okA && okB && math.Round(x*100) == math.Round(y*100)
}

// groupIDs maps group names to the service's ids.
func groupIDs(e *console.Experiment) map[string]string {
	ids := make(map[string]string, len(e.Groups))
	for _, g := range e.Groups {
		ids[g.Name] = g.ID
	}
	return ids
}

// groupName is the name of the experiment's group with the id ("" for none).
func groupName(e *console.Experiment, id string) string {
	if g := e.Group(id); g != nil {
		return g.Name
	}
	return ""
}

// controlGroupName is the name of the experiment's control group. A read without controlGroupID
// (optional in the document, absent from its GET example) keeps the prior name while it is still a
// group, else names the first group, the one the service makes the control.
func controlGroupName(e *console.Experiment, prior types.String) string {
	if e.ControlGroupID != "" {
		return groupName(e, e.ControlGroupID)
	}
	if name, ok := framework.KnownString(prior); ok && e.GroupNamed(name) != nil {
		return name
	}
	if len(e.Groups) > 0 {
		return e.Groups[0].Name
	}
	return ""
}

// flattenGroups is the service's groups as the state holds them; a group's parameter values keep
// the text the prior (plan or state) group of its name holds where they mean the same.
func flattenGroups(ctx context.Context, e *console.Experiment, prior types.List) types.List {
	hints := map[string]experimentGroupModel{}
	if framework.ElementsKnown(prior) {
		ps, _ := framework.ListModels[experimentGroupModel](ctx, prior)
		for _, p := range ps {
			hints[p.Name.ValueString()] = p
		}
	}
	return framework.ModelList(experimentGroupType, e.Groups, func(g console.ExperimentGroup) experimentGroupModel {
		values := framework.NewJSONValue(framework.CanonicalJSON(json.RawMessage(orEmptyObject(g.ParameterValues))))
		if h, ok := hints[g.Name]; ok && framework.SameJSON(ctx, h.ParameterValues, values) {
			values = h.ParameterValues
		}
		return experimentGroupModel{
			ID: framework.StringOrNull(g.ID), Name: types.StringValue(g.Name), Size: framework.PercentFromFloat(float64(g.Size)),
			ParameterValues: values, Description: framework.StringOrNull(g.Description), Disabled: types.BoolValue(g.IsDisabled()),
		}
	})
}

func orEmptyObject(o console.JSONObject) console.JSONObject {
	if len(o) == 0 {
		return console.JSONObject("{}")
	}
	return o
}

func flattenMetrics(ms []console.ExperimentMetric) types.List {
	return framework.ModelList(experimentMetricType, ms, func(m console.ExperimentMetric) experimentMetricModel {
		return experimentMetricModel{Name: types.StringValue(m.Name), Type: types.StringValue(m.Type), Direction: framework.StringOrNull(m.Direction),
			HypothesizedValue: types.Float64PointerValue(m.HypothesizedValue)}
	})
}

// millisOrNull is a time of the service, null until it is set.
func millisOrNull(m console.Millis) types.Int64 {
	if !m.Set || m.Value == 0 {
		return types.Int64Null()
	}
	return types.Int64Value(m.Value)
}

// withPriorGroupIDs is e with the ids its answer leaves out (the document's reads give the first
// group's alone) taken from the prior (plan or state) group of the same name, so that the groups,
// the control group and the launched group are known by id as the last read knew them.
func withPriorGroupIDs(ctx context.Context, e *console.Experiment, prior types.List) *console.Experiment {
	if !framework.ElementsKnown(prior) {
		return e
	}
	ps, _ := framework.ListModels[experimentGroupModel](ctx, prior)
	out := *e
	out.Groups = slices.Clone(e.Groups)
	for i := range out.Groups {
		for _, p := range ps {
			if id, ok := framework.KnownString(p.ID); ok && out.Groups[i].ID == "" && p.Name.ValueString() == out.Groups[i].Name {
				out.Groups[i].ID = id
			}
		}
	}
	return &out
}

// flattenExperiment puts what the service holds into the model.
func flattenExperiment(ctx context.Context, e *console.Experiment, m *experimentFields) {
	e = withPriorGroupIDs(ctx, e, m.Groups)
	m.ExperimentID = types.StringValue(e.ID)
	m.Name = framework.StringOrPrior(e.Name, m.Name)
	m.Description = types.StringValue(e.Description)
	m.Hypothesis = types.StringValue(e.Hypothesis)
	m.IDType = types.StringValue(e.IDType)
	m.Tags = framework.StringSet(e.Tags)
	m.Allocation = framework.PercentFromFloat(float64(e.Allocation))
	m.TargetingGateID = framework.StringOrNull(e.TargetingGateID)
	m.Duration = types.Int64Null() // left out or null (a target set by exposures): never a 0 the validator refuses
	if e.Duration != nil {
		m.Duration = types.Int64Value(int64(*e.Duration))
	}
	m.AnalyticsType = framework.StringOrNull(e.AnalyticsType)
	m.LayerID = framework.StringOrNull(e.LayerID)
	flattenAnalysis(e, &m.experimentAnalysis)
	m.Groups = flattenGroups(ctx, e, m.Groups)
	m.ControlGroup = framework.StringOrNull(controlGroupName(e, m.ControlGroup))
	m.PrimaryMetrics = flattenMetrics(e.PrimaryMetrics)
	m.SecondaryMetrics = flattenMetrics(e.SecondaryMetrics)
	m.Status = types.StringValue(e.Status)
	m.LaunchedGroupID = framework.StringOrNull(e.LaunchedGroupID)
	m.LaunchedGroup = framework.StringOrNull(groupName(e, e.LaunchedGroupID))
	m.DecisionReason = framework.StringOrNull(e.DecisionReason)
	m.StartTime = millisOrNull(e.StartTime)
	m.EndTime = millisOrNull(e.EndTime)
	m.DecisionTime = millisOrNull(e.DecisionTime)
	m.CreatorName = types.StringValue(e.CreatorName)
	m.CreatedTime = types.Int64Value(int64(e.CreatedTime))
	m.LastModifierID = types.StringValue(e.LastModifierID)
	m.LastModifierName = types.StringValue(e.LastModifierName)
}

// keepDecisionReason keeps the reason prior holds where the service's answer gives none and the
// experiment stands where prior says: the reason follows the service's (ModifyPlan refuses another
// after the move), and a read that leaves it out keeps the one the move sent.
func keepDecisionReason(prior experimentFields, m *experimentFields) {
	if m.DecisionReason.IsNull() && !prior.DecisionReason.IsNull() && !prior.DecisionReason.IsUnknown() && prior.Status.Equal(m.Status) {
		m.DecisionReason = prior.DecisionReason
	}
}

// keepRemovedTargeting keeps the targeting gate prior holds of a decided experiment whose decision
// removed the targeting (remove_targeting = true): the service then holds none, and the gate stays
// in the state as the one the experiment targeted until its decision, as the configuration says.
func keepRemovedTargeting(prior experimentFields, removeTargeting types.Bool, m *experimentFields) {
	if removeTargeting.ValueBool() && m.Status.ValueString() == console.ExperimentDecisionMade && m.TargetingGateID.IsNull() &&
		!prior.TargetingGateID.IsUnknown() {
		m.TargetingGateID = prior.TargetingGateID
	}
}

// experimentHolds reports whether the experiment holds what a create sent: how a create whose
// answer was lost is recognised as this apply's own.
func experimentHolds(e *console.Experiment, f console.ExperimentFields) bool {
	if e.ID != f.ID || (f.Name != nil && *f.Name != e.Name) || (f.Description != nil && *f.Description != e.Description) {
		return false
	}
	if f.Groups == nil {
		return true
	}
	if len(*f.Groups) != len(e.Groups) {
		return false
	}
	for i, g := range *f.Groups {
		h := e.Groups[i]
		if g.Name != h.Name || math.Round(float64(g.Size)*100) != math.Round(float64(h.Size)*100) ||
			!framework.SameJSONMeaning(g.ParameterValues, orEmptyObject(h.ParameterValues)) {
			return false
		}
	}
	return true
}

// The experiment's attributes that plan-time checks and moves name.
var (
	statusPath          = path.Root("status")
	launchedGroupPath   = path.Root("launched_group")
	controlGroupPath    = path.Root("control_group")
	decisionReasonPath  = path.Root("decision_reason")
	removeTargetingPath = path.Root("remove_targeting")
	archivedPath        = path.Root("archived")
	groupsPath          = path.Root("groups")
)

// The statuses of the document but archived, which the resource holds as archived = true
// (readArchived). A configuration may move an experiment to the first four; the last two the
// service sets itself, and a configuration may say them only where the experiment stands, as
// generated configuration does.
var experimentStatuses = []string{console.ExperimentSetup, console.ExperimentActive, console.ExperimentDecisionMade,
	console.ExperimentAbandoned, console.ExperimentStopped, console.AssignmentStopped}

// readArchived turns the service's status archived into archived = true and the status beneath
// it: the status prior holds (the one the experiment had when archived, which unarchive puts back),
// or without one (an import) the status its run shows: decided, abandoned (ended, or a reason
// given), started, else setup. Any other status is archived = false.
func readArchived(e *console.Experiment, prior types.String, m *experimentModel) {
	m.Archived = types.BoolValue(e.Status == console.ExperimentArchived)
	if e.Status != console.ExperimentArchived {
		return
	}
	if s, ok := framework.KnownString(prior); ok && s != console.ExperimentArchived {
		m.Status = prior
		return
	}
	switch {
	case e.LaunchedGroupID != "" || e.DecisionTime.Set && e.DecisionTime.Value != 0:
		m.Status = types.StringValue(console.ExperimentDecisionMade)
	case e.EndTime.Set && e.EndTime.Value != 0 || e.DecisionReason != "":
		m.Status = types.StringValue(console.ExperimentAbandoned)
	case e.StartTime.Set && e.StartTime.Value != 0:
		m.Status = types.StringValue(console.ExperimentActive)
	default:
		m.Status = types.StringValue(console.ExperimentSetup)
	}
}

// abandonable reports a status the service abandons an experiment from.
func abandonable(status string) bool {
	return status == console.ExperimentSetup || status == console.ExperimentActive || status == console.ExperimentStopped
}

// archivable reports a status the service archives an experiment from: after a decision, an
// abandon or a reset (setup).
func archivable(status string) bool {
	return status == console.ExperimentSetup || status == console.ExperimentDecisionMade || status == console.ExperimentAbandoned
}

// serviceSetStatus reports a status only the service moves an experiment to.
func serviceSetStatus(s string) bool {
	return s == console.ExperimentArchived || s == console.ExperimentStopped || s == console.AssignmentStopped
}

// experimentReviews reads and commits a review of an experiment's change, as gateReviews does a gate's.
var experimentReviews = reviewTarget[console.Experiment]{noun: "experiment", get: (*console.Client).GetExperimentReview,
	commit: (*console.Client).CommitExperimentReview, read: (*console.Client).GetExperiment}
