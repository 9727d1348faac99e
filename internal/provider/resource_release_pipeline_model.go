// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The model of featureconsole_release_pipeline and its conversion to and from the service's pipeline.

type releasePipelineModel struct {
	ID             types.String   `tfsdk:"id"`
	PipelineID     types.String   `tfsdk:"pipeline_id"`
	Name           types.String   `tfsdk:"name"`
	Phases         types.List     `tfsdk:"phases"`
	CreatorID      types.String   `tfsdk:"creator_id"`
	CreatedTime    types.Int64    `tfsdk:"created_time"`
	LastModifierID types.String   `tfsdk:"last_modifier_id"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
}

type pipelinePhaseModel struct {
	ID             types.String `tfsdk:"id"`
	Name           types.String `tfsdk:"name"`
	TimeIntervalMs types.Int64  `tfsdk:"time_interval_ms"`
	RequiredReview types.Bool   `tfsdk:"required_review"`
	Rules          types.List   `tfsdk:"rules"`
}

type pipelineRuleModel struct {
	ID           types.String `tfsdk:"id"`
	Name         types.String `tfsdk:"name"`
	Environments types.List   `tfsdk:"environments"`
	Conditions   types.List   `tfsdk:"conditions"`
}

var (
	pipelineRuleType  = framework.ResourceObjectType(pipelineRuleAttributes())
	pipelinePhaseType = framework.ResourceObjectType(pipelinePhaseAttributes())
)

func (m *releasePipelineModel) identity() (string, types.String) {
	return pipelineIdentityAttr, m.PipelineID
}

// expandPipelinePhases builds the request's phases from planned ones. Unknown phase and rule ids are
// sent empty unless existing (the service's current phases, on create) has one with the same name.
func expandPipelinePhases(ctx context.Context, list types.List, existing []console.Phase) ([]console.Phase, diag.Diagnostics) {
	var diags diag.Diagnostics
	var phases []pipelinePhaseModel
	diags.Append(list.ElementsAs(ctx, &phases, false)...)
	if diags.HasError() {
		return nil, diags
	}
	usedPhase := make([]bool, len(existing))
	out := make([]console.Phase, 0, len(phases))
	for _, ph := range phases {
		var match *console.Phase
		if i := matchName(len(existing), func(i int) string { return existing[i].Name }, usedPhase, ph.Name.ValueString()); i >= 0 {
			match = &existing[i]
		}
		phaseID, _ := framework.KnownString(ph.ID)
		cp := console.Phase{
			ID:             phaseID,
			Name:           ph.Name.ValueString(),
			TimeIntervalMs: console.WholeNumber(ph.TimeIntervalMs.ValueInt64()),
			RequiredReview: ph.RequiredReview.ValueBool(),
			Rules:          []console.PipelineRule{},
		}
		if cp.ID == "" && match != nil {
			cp.ID = match.ID
		}
		var rules []pipelineRuleModel
		diags.Append(ph.Rules.ElementsAs(ctx, &rules, true)...)
		var existingRules []console.PipelineRule
		if match != nil {
			existingRules = match.Rules
		}
		usedRule := make([]bool, len(existingRules))
		for _, ru := range rules {
			ruleID, _ := framework.KnownString(ru.ID)
			cr := console.PipelineRule{
				ID:           ruleID,
				Name:         ru.Name.ValueString(),
				Environments: []string{},
				Conditions:   []console.Condition{},
			}
			if i := matchName(len(existingRules), func(i int) string { return existingRules[i].Name }, usedRule, cr.Name); i >= 0 && cr.ID == "" {
				cr.ID = existingRules[i].ID
			}
			diags.Append(ru.Environments.ElementsAs(ctx, &cr.Environments, true)...)
			if cr.Environments == nil {
				cr.Environments = []string{}
			}
			var conds []conditionModel
			diags.Append(ru.Conditions.ElementsAs(ctx, &conds, true)...)
			for _, c := range conds {
				targets, err := expandTargetStrings(ctx, c.TargetValue)
				if err != nil {
					diags.AddError("Unable to encode target_value", err.Error())
					return nil, diags
				}
				cr.Conditions = append(cr.Conditions, expandCondition(c, targets))
			}
			cp.Rules = append(cp.Rules, cr)
		}
		out = append(out, cp)
	}
	return out, diags
}

// matchName returns the first unused index whose name equals name (marking it used), or -1.
func matchName(n int, nameAt func(int) string, used []bool, name string) int {
	for i := 0; i < n; i++ {
		if !used[i] && nameAt(i) == name {
			used[i] = true
			return i
		}
	}
	return -1
}

// setPipelineModel stores the service's pipeline in m. Empty lists are always stored as [] (the
// service answers null for some of them): with one canonical form, omitting a list, null and []
// never differ from state, after create, update or import alike.
func setPipelineModel(ctx context.Context, m *releasePipelineModel, p *console.ReleasePipeline) diag.Diagnostics {
	phases, diags := flattenPipelinePhases(ctx, p.Phases)
	if diags.HasError() {
		return diags
	}
	m.ID = m.PipelineID
	m.Name = types.StringValue(p.Name)
	m.Phases = phases
	m.CreatorID = types.StringValue(p.CreatorID)
	m.CreatedTime = types.Int64Value(int64(p.CreatedTime))
	m.LastModifierID = types.StringValue(p.LastModifierID)
	return diags
}

func flattenPipelinePhases(ctx context.Context, phases []console.Phase) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := make([]pipelinePhaseModel, 0, len(phases))
	for _, p := range phases {
		rules, d := flattenPipelineRules(ctx, p.Rules)
		diags.Append(d...)
		out = append(out, pipelinePhaseModel{
			ID:             types.StringValue(p.ID),
			Name:           types.StringValue(p.Name),
			TimeIntervalMs: types.Int64Value(int64(p.TimeIntervalMs)),
			RequiredReview: types.BoolValue(p.RequiredReview),
			Rules:          rules,
		})
	}
	list, d := types.ListValueFrom(ctx, pipelinePhaseType, out)
	diags.Append(d...)
	return list, diags
}

func flattenPipelineRules(ctx context.Context, rules []console.PipelineRule) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := make([]pipelineRuleModel, 0, len(rules))
	for _, ru := range rules {
		conds, d := pipelineConditions.flattenConditions(ctx, ru.Conditions, pipelineConditionType)
		diags.Append(d...)
		out = append(out, pipelineRuleModel{
			ID:           types.StringValue(ru.ID),
			Name:         types.StringValue(ru.Name),
			Environments: framework.NullToEmpty(framework.StringList(ru.Environments)),
			Conditions:   conds,
		})
	}
	list, d := types.ListValueFrom(ctx, pipelineRuleType, out)
	diags.Append(d...)
	return list, diags
}

// pipelineRuleAttributes returns the schema of one rule of a phase.
func pipelineRuleAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "Identifier of the rule on the service. Leave it unset: a rule that keeps its name " +
				"within its phase keeps its id, and a new rule gets its id from the service (unknown until apply).",
		},
		"name": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "Name of the rule, unique within the phase.",
			Validators:          []validator.String{framework.NotBlank()},
		},
		"environments": schema.ListAttribute{
			Optional:    true,
			Computed:    true,
			ElementType: types.StringType,
			MarkdownDescription: "Names of the environments the rule applies to, such as `staging`. When none are " +
				"set the service answers `null`. " + emptyMeansNone,
		},
		"conditions": schema.ListNestedAttribute{
			Optional:            true,
			Computed:            true,
			MarkdownDescription: "Conditions a unit must match for the rule to apply. " + emptyMeansNone,
			NestedObject:        schema.NestedAttributeObject{Attributes: pipelineConditions.resourceAttributes()},
		},
	}
}

// pipelinePhaseAttributes returns the schema of one phase; pipelinePhaseType is derived from it.
func pipelinePhaseAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "Identifier of the phase on the service. Leave it unset: a phase that keeps its name keeps " +
				"its id (the provider sends it back), and a new phase gets its id from the service (unknown until apply). " +
				"Set it only to pin a phase to an existing id, for example when renaming a phase.",
		},
		"name": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "Name of the phase, unique within the pipeline. It is what ties the phase to its `id`.",
			Validators:          []validator.String{framework.NotBlank()},
		},
		"time_interval_ms": schema.Int64Attribute{
			Required: true,
			MarkdownDescription: "Time to wait after this phase before the next phase starts, in milliseconds (`3600000` " +
				"is one hour), `0` or more. With `required_review`, the timer starts once the review is approved.",
			Validators: []validator.Int64{int64validator.AtLeast(0)},
		},
		"required_review": schema.BoolAttribute{
			Optional: true,
			Computed: true,
			Default:  booldefault.StaticBool(false),
			MarkdownDescription: "When `true`, the phase waits for a manual review (approval in the console) before it " +
				"starts. Defaults to `false`.",
		},
		"rules": schema.ListNestedAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "Rules of the phase: who the phase releases to. Rule names must be unique within the " +
				"phase. " + emptyMeansNone,
			NestedObject: schema.NestedAttributeObject{Attributes: pipelineRuleAttributes()},
		},
	}
}

// samePipeline reports whether the pipeline already has the name and phases to be written (ids
// included, which the request took from it by name).
func samePipeline(p *console.ReleasePipeline, name string, phases []console.Phase, withIDs bool) bool {
	if p == nil || p.Name != name || len(p.Phases) != len(phases) {
		return false
	}
	for i := range phases {
		a, okA := canonicalPhase(p.Phases[i], withIDs, true)
		b, okB := canonicalPhase(phases[i], withIDs, true)
		if !okA || !okB || a != b {
			return false
		}
	}
	return true
}

// pipelineDifferences names what of a pipeline write the answer p does not show: the name, phases
// and rules (by name) missing, changed or not sent, and phases out of order. None means it took.
func pipelineDifferences(p *console.ReleasePipeline, name string, sent []console.Phase) []string {
	var out []string
	if p.Name != name {
		out = append(out, fmt.Sprintf("the name was sent as %q, the pipeline holds %q", name, p.Name))
	}
	held := map[string]console.Phase{}
	for _, ph := range p.Phases {
		held[ph.Name] = ph
	}
	for _, ph := range sent {
		got, ok := held[ph.Name]
		if !ok {
			out = append(out, fmt.Sprintf("phase %q is missing", ph.Name))
			continue
		}
		if a, _ := canonicalPhase(ph, false, false); a != framework.First(canonicalPhase(got, false, false)) {
			out = append(out, fmt.Sprintf("phase %q holds another time_interval_ms or required_review", ph.Name))
		}
		out = append(out, phaseRuleDifferences(ph, got.Rules)...)
	}
	sentNames := map[string]bool{}
	for _, ph := range sent {
		sentNames[ph.Name] = true
	}
	for _, ph := range p.Phases {
		if !sentNames[ph.Name] {
			out = append(out, fmt.Sprintf("phase %q was not sent", ph.Name))
		}
	}
	if len(out) == 0 && !samePipeline(p, name, sent, false) {
		out = append(out, "the phases, or the rules of a phase, are in another order")
	}
	return out
}

// phaseRuleDifferences names the rules of the phase sent that the service holds otherwise (held).
func phaseRuleDifferences(ph console.Phase, held []console.PipelineRule) []string {
	var out []string
	got := map[string]console.PipelineRule{}
	for _, r := range held {
		got[r.Name] = r
	}
	sent := map[string]bool{}
	for _, r := range ph.Rules {
		sent[r.Name] = true
		g, ok := got[r.Name]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("rule %q of phase %q is missing", r.Name, ph.Name))
		case framework.First(canonicalPipelineRule(r, false)) != framework.First(canonicalPipelineRule(g, false)):
			out = append(out, fmt.Sprintf("rule %q of phase %q holds other environments or conditions", r.Name, ph.Name))
		}
	}
	for _, r := range held {
		if !sent[r.Name] {
			out = append(out, fmt.Sprintf("rule %q of phase %q was not sent", r.Name, ph.Name))
		}
	}
	return out
}

// canonicalPhase renders a phase as the service sees it; ids only withIDs (a write sends none for
// new phases and rules), its rules only withRules.
func canonicalPhase(ph console.Phase, withIDs, withRules bool) (string, bool) {
	type phase struct {
		ID, Name string
		Interval int64
		Review   bool
		Rules    []string
	}
	cp := phase{Name: ph.Name, Interval: int64(ph.TimeIntervalMs), Review: ph.RequiredReview}
	if withIDs {
		cp.ID = ph.ID
	}
	for _, r := range ph.Rules {
		if !withRules {
			break
		}
		cr, ok := canonicalPipelineRule(r, withIDs)
		if !ok {
			return "", false
		}
		cp.Rules = append(cp.Rules, cr)
	}
	b, err := json.Marshal(cp)
	return string(b), err == nil
}

// canonicalPipelineRule renders a rule of a phase as the service sees it.
func canonicalPipelineRule(r console.PipelineRule, withID bool) (string, bool) {
	type rule struct {
		ID, Name string
		Envs     []string
		Conds    []canonicalCondition
	}
	cr := rule{Name: r.Name}
	if withID {
		cr.ID = r.ID
	}
	if len(r.Environments) > 0 {
		cr.Envs = r.Environments
	}
	conds, ok := canonicalConditions(r.Conditions)
	if !ok {
		return "", false
	}
	cr.Conds = conds
	b, err := json.Marshal(cr)
	return string(b), err == nil
}

// notAsSent adds the error of a pipeline write whose answer p differs from what was sent, naming
// the phases and rules that differ.
func notAsSent(diags *diag.Diagnostics, p *console.ReleasePipeline, name string, sent []console.Phase, summary, kept string) {
	if diffs := pipelineDifferences(p, name, sent); len(diffs) > 0 {
		addNotAsSent(diags, summary, strings.Join(diffs, "; "), kept)
	}
}

var pipelineConditions = conditionKind{
	typeDesc: "Condition type, such as `user_id`, `app_version` or `public`. A value that differs from a gate " +
		"rule's condition type only by case or a typo (such as `emial`) is refused with a suggestion.",
	operatorDesc: "Operator, such as `any`. Omit for conditions that take none (`public`). A value that differs " +
		"from a gate rule's operator only by case or a typo is refused with a suggestion.",
	fieldDesc:    "Field the condition reads, for conditions on a custom field.",
	customIDDesc: "Custom unit ID type, for conditions on a custom unit ID.",
	targetDesc:   "Values the operator compares with, as strings (for example `[\"42\"]`). " + emptyMeansNone,
	// Console-written pipeline rules hold types beyond the gates' list: only near misses are refused.
	types:          conditionTypes,
	operators:      conditionOperators,
	plannedTargets: true,
}

var pipelineConditionType = framework.ResourceObjectType(pipelineConditions.resourceAttributes())

const pipelineIdentityAttr = "pipeline_id"

// checkPinnedIDs turns a service that did not keep a known phase or rule id (one pinned in the
// configuration that does not exist there) into a clear error instead of an inconsistent result.
func checkPinnedIDs(ctx context.Context, planned, applied types.List, pipelineID string) diag.Diagnostics {
	var diags diag.Diagnostics
	plannedPhases := phaseModels(ctx, planned, &diags)
	appliedPhases := phaseModels(ctx, applied, &diags)
	used := make([]bool, len(appliedPhases))
	for _, pp := range plannedPhases {
		i := matchName(len(appliedPhases), func(i int) string { return appliedPhases[i].Name.ValueString() }, used, pp.Name.ValueString())
		if i < 0 {
			continue
		}
		ap := appliedPhases[i]
		if !pp.ID.IsUnknown() && !pp.ID.Equal(ap.ID) {
			diags.AddError(fmt.Sprintf("Release pipeline %q did not keep the id of phase %q", pipelineID, pp.Name.ValueString()),
				fmt.Sprintf("The plan gave phase %q the id %s, but the service stored it as %s. An id set in the configuration "+
					"must be the id of an existing phase of this pipeline; remove it to let the service assign one.",
					pp.Name.ValueString(), pp.ID.String(), ap.ID.String()))
			continue
		}
		pr, d := framework.ListModels[pipelineRuleModel](ctx, pp.Rules)
		diags.Append(d...)
		ar, d := framework.ListModels[pipelineRuleModel](ctx, ap.Rules)
		diags.Append(d...)
		usedRule := make([]bool, len(ar))
		for _, r := range pr {
			j := matchName(len(ar), func(j int) string { return ar[j].Name.ValueString() }, usedRule, r.Name.ValueString())
			if j >= 0 && !r.ID.IsUnknown() && !r.ID.Equal(ar[j].ID) {
				diags.AddError(fmt.Sprintf("Release pipeline %q did not keep the id of rule %q", pipelineID, r.Name.ValueString()),
					fmt.Sprintf("The plan gave rule %q of phase %q the id %s, but the service stored it as %s. An id set in the "+
						"configuration must be the id of an existing rule of this phase; remove it to let the service assign one.",
						r.Name.ValueString(), pp.Name.ValueString(), r.ID.String(), ar[j].ID.String()))
			}
		}
	}
	return diags
}

func phaseModels(ctx context.Context, l types.List, diags *diag.Diagnostics) []pipelinePhaseModel {
	out, d := framework.ListModels[pipelinePhaseModel](ctx, l)
	diags.Append(d...)
	return out
}
