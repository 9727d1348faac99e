package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// ValidateConfig rejects duplicate names: a phase (and a rule within its phase) is tied to its id
// by name, so two of the same name could not both keep theirs.
func (r *releasePipelineResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var phases types.List
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("phases"), &phases)...)
	if resp.Diagnostics.HasError() {
		return
	}
	seenPhase := map[string]int{}
	for i, pv := range knownElements(phases) {
		var ph pipelinePhaseModel
		if !asModel(ctx, pv, &ph, &resp.Diagnostics) {
			continue
		}
		phasePath := path.Root("phases").AtListIndex(i)
		if name, ok := knownName(ph.Name); ok {
			if first, dup := seenPhase[name]; dup {
				resp.Diagnostics.AddAttributeError(phasePath.AtName("name"), "Duplicate phase name",
					fmt.Sprintf("Phases %d and %d are both named %q. Phase names must be unique within a pipeline: the name "+
						"is what keeps a phase's id across changes.", first, i, name))
			} else {
				seenPhase[name] = i
			}
		}
		seenRule := map[string]int{}
		for j, rv := range knownElements(ph.Rules) {
			var ru pipelineRuleModel
			if !asModel(ctx, rv, &ru, &resp.Diagnostics) {
				continue
			}
			name, ok := knownName(ru.Name)
			if !ok {
				continue
			}
			if first, dup := seenRule[name]; dup {
				resp.Diagnostics.AddAttributeError(phasePath.AtName("rules").AtListIndex(j).AtName("name"), "Duplicate rule name",
					fmt.Sprintf("Rules %d and %d of phase %s are both named %q. Rule names must be unique within a phase: the "+
						"name is what keeps a rule's id across changes.", first, j, describePhase(ph, i), name))
			} else {
				seenRule[name] = j
			}
		}
	}
}

// ModifyPlan gives phases and rules their identity by name. List plan modifiers would pair plan and
// state by index, so inserting a phase at the front would shift every id; here each configured phase
// takes the id of the prior phase of the same name (and each rule that of the same rule of that
// phase), and new ones stay unknown. Omitted lists are planned as [], the form state always holds.
func (r *releasePipelineResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var cfg, plan releasePipelineModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var prior []pipelinePhaseModel
	if !req.State.Raw.IsNull() {
		var state releasePipelineModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		// Another pipeline's phase ids mean nothing here (pipeline_id changed: replacement).
		if state.PipelineID.Equal(cfg.PipelineID) {
			prior = phaseModels(ctx, state.Phases, &resp.Diagnostics)
		}
	}
	if !cfg.PipelineID.IsUnknown() {
		plan.ID = cfg.PipelineID
	}
	if !cfg.Phases.IsUnknown() && !cfg.Phases.IsNull() {
		plan.Phases = planPipelinePhases(ctx, cfg.Phases, prior, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

func planPipelinePhases(ctx context.Context, cfg types.List, prior []pipelinePhaseModel, diags *diag.Diagnostics) types.List {
	used := make([]bool, len(prior))
	out := make([]attr.Value, 0, len(cfg.Elements()))
	for _, v := range cfg.Elements() {
		var ph pipelinePhaseModel
		if v.IsUnknown() || !asModel(ctx, v, &ph, diags) {
			out = append(out, types.ObjectUnknown(pipelinePhaseType.AttrTypes))
			continue
		}
		var match *pipelinePhaseModel
		if name, ok := knownName(ph.Name); ok {
			if i := matchName(len(prior), func(i int) string { return prior[i].Name.ValueString() }, used, name); i >= 0 {
				match = &prior[i]
			}
		}
		var priorRules types.List
		if ph.ID.IsNull() {
			ph.ID = types.StringUnknown()
			if match != nil {
				ph.ID = match.ID
			}
		}
		if match != nil {
			priorRules = match.Rules
		}
		if ph.RequiredReview.IsNull() {
			ph.RequiredReview = types.BoolValue(false)
		}
		ph.Rules = planPipelineRules(ctx, ph.Rules, priorRules, diags)
		out = append(out, objectOf(ctx, pipelinePhaseType, ph, diags))
	}
	return listOf(pipelinePhaseType, out, diags)
}

func planPipelineRules(ctx context.Context, cfg, prior types.List, diags *diag.Diagnostics) types.List {
	if cfg.IsUnknown() {
		return cfg
	}
	if cfg.IsNull() {
		return emptyListOf(pipelineRuleType)
	}
	var priorRules []pipelineRuleModel
	if isKnownList(prior) {
		diags.Append(prior.ElementsAs(ctx, &priorRules, true)...)
	}
	used := make([]bool, len(priorRules))
	out := make([]attr.Value, 0, len(cfg.Elements()))
	for _, v := range cfg.Elements() {
		var ru pipelineRuleModel
		if v.IsUnknown() || !asModel(ctx, v, &ru, diags) {
			out = append(out, types.ObjectUnknown(pipelineRuleType.AttrTypes))
			continue
		}
		var match *pipelineRuleModel
		if name, ok := knownName(ru.Name); ok {
			if i := matchName(len(priorRules), func(i int) string { return priorRules[i].Name.ValueString() }, used, name); i >= 0 {
				match = &priorRules[i]
			}
		}
		if ru.ID.IsNull() {
			ru.ID = types.StringUnknown()
			if match != nil {
				ru.ID = match.ID
			}
		}
		if ru.Environments.IsNull() {
			ru.Environments = emptyListOf(types.StringType)
		}
		ru.Conditions = planPipelineConditions(ctx, ru.Conditions, diags)
		out = append(out, objectOf(ctx, pipelineRuleType, ru, diags))
	}
	return listOf(pipelineRuleType, out, diags)
}

func planPipelineConditions(ctx context.Context, cfg types.List, diags *diag.Diagnostics) types.List {
	if cfg.IsUnknown() {
		return cfg
	}
	if cfg.IsNull() {
		return emptyListOf(pipelineConditionType)
	}
	out := make([]attr.Value, 0, len(cfg.Elements()))
	for _, v := range cfg.Elements() {
		var c pipelineConditionModel
		if v.IsUnknown() || !asModel(ctx, v, &c, diags) {
			out = append(out, types.ObjectUnknown(pipelineConditionType.AttrTypes))
			continue
		}
		if c.TargetValue.IsNull() {
			c.TargetValue = emptyListOf(types.StringType)
		}
		out = append(out, objectOf(ctx, pipelineConditionType, c, diags))
	}
	return listOf(pipelineConditionType, out, diags)
}

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
		var pr, ar []pipelineRuleModel
		if isKnownList(pp.Rules) {
			diags.Append(pp.Rules.ElementsAs(ctx, &pr, true)...)
		}
		if isKnownList(ap.Rules) {
			diags.Append(ap.Rules.ElementsAs(ctx, &ar, true)...)
		}
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

func emptyListOf(elem attr.Type) types.List {
	return types.ListValueMust(elem, []attr.Value{})
}

func phaseModels(ctx context.Context, l types.List, diags *diag.Diagnostics) []pipelinePhaseModel {
	if !isKnownList(l) {
		return nil
	}
	var out []pipelinePhaseModel
	diags.Append(l.ElementsAs(ctx, &out, true)...)
	return out
}

// knownElements is the list's elements, or none while the list is null or unknown.
func knownElements(l types.List) []attr.Value {
	if !isKnownList(l) {
		return nil
	}
	return l.Elements()
}

func asModel(ctx context.Context, v attr.Value, target any, diags *diag.Diagnostics) bool {
	obj, ok := v.(basetypes.ObjectValue)
	if !ok || obj.IsNull() || obj.IsUnknown() {
		return false
	}
	d := obj.As(ctx, target, basetypes.ObjectAsOptions{})
	diags.Append(d...)
	return !d.HasError()
}

func objectOf(ctx context.Context, typ types.ObjectType, model any, diags *diag.Diagnostics) attr.Value {
	obj, d := types.ObjectValueFrom(ctx, typ.AttrTypes, model)
	diags.Append(d...)
	return obj
}

func listOf(elem attr.Type, vals []attr.Value, diags *diag.Diagnostics) types.List {
	l, d := types.ListValue(elem, vals)
	diags.Append(d...)
	return l
}

func knownName(s types.String) (string, bool) {
	if s.IsNull() || s.IsUnknown() {
		return "", false
	}
	return s.ValueString(), true
}

func describePhase(ph pipelinePhaseModel, i int) string {
	if name, ok := knownName(ph.Name); ok {
		return fmt.Sprintf("%q", name)
	}
	return fmt.Sprintf("%d", i)
}
