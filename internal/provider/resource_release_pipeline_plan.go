// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// ValidateConfig rejects duplicate names: a phase (and a rule within its phase) is tied to its id
// by name, so two of the same name could not both keep theirs.
func (r *releasePipelineResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var phases types.List
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("phases"), &phases)...)
	if resp.Diagnostics.HasError() {
		return
	}
	for i, pv := range framework.KnownElements(phases) {
		var ph pipelinePhaseModel
		if !framework.AsModel(ctx, pv, &ph, &resp.Diagnostics) {
			continue
		}
		framework.UniqueNames(ph.Rules, path.Root("phases").AtListIndex(i).AtName("rules"), &resp.Diagnostics, func(first, j int, name string) (string, string) {
			return "Duplicate rule name", fmt.Sprintf("Rules %d and %d of phase %s are both named %q. Rule names must be unique "+
				"within a phase: the name is what keeps a rule's id across changes.", first, j, describePhase(ph, i), name)
		})
	}
	framework.UniqueNames(phases, path.Root("phases"), &resp.Diagnostics, func(first, i int, name string) (string, string) {
		return "Duplicate phase name", fmt.Sprintf("Phases %d and %d are both named %q. Phase names must be unique within a "+
			"pipeline: the name is what keeps a phase's id across changes.", first, i, name)
	})
}

// ModifyPlan gives phases and rules their identity by name. List plan modifiers would pair plan and
// state by index, so inserting a phase at the front would shift every id; here each configured phase
// takes the id of the prior phase of the same name (and each rule that of the same rule of that
// phase), and new ones stay unknown. Omitted lists are planned as [], the form state always holds.
func (r *releasePipelineResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer r.checkAccess(ctx, req, resp)
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
	var state releasePipelineModel
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		// Another pipeline's phase ids mean nothing here (pipeline_id changed: replacement).
		if cfg.PipelineID.IsNull() || state.PipelineID.Equal(cfg.PipelineID) {
			prior = phaseModels(ctx, state.Phases, &resp.Diagnostics)
		}
	}
	// id is pipeline_id: known when configured or kept from state, else the service's to choose.
	if !plan.PipelineID.IsUnknown() {
		plan.ID = plan.PipelineID
	} else {
		plan.ID = types.StringUnknown()
	}
	if !cfg.Phases.IsUnknown() && !cfg.Phases.IsNull() {
		plan.Phases = planPipelinePhases(ctx, cfg.Phases, prior, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
	if !req.State.Raw.IsNull() && plan.PipelineID.Equal(state.PipelineID) && plan.Name.Equal(state.Name) && plan.Phases.Equal(state.Phases) {
		// Update sends nothing (only timeouts changed).
		resp.Diagnostics.Append(framework.KeepUnwritten(ctx, req.State, &resp.Plan, "last_modifier_id")...)
	}
}

func planPipelinePhases(ctx context.Context, cfg types.List, prior []pipelinePhaseModel, diags *diag.Diagnostics) types.List {
	return planByName(ctx, cfg, prior, pipelinePhaseType, phaseKey, func(ph, match *pipelinePhaseModel) {
		var priorRules types.List
		if match != nil {
			priorRules = match.Rules
		}
		if ph.RequiredReview.IsNull() {
			ph.RequiredReview = types.BoolValue(false)
		}
		ph.Rules = planPipelineRules(ctx, ph.Rules, priorRules, diags)
	}, diags)
}

func planPipelineRules(ctx context.Context, cfg, prior types.List, diags *diag.Diagnostics) types.List {
	if cfg.IsUnknown() {
		return cfg
	}
	if cfg.IsNull() {
		return framework.EmptyListOf(pipelineRuleType)
	}
	priorRules, d := framework.ListModels[pipelineRuleModel](ctx, prior)
	diags.Append(d...)
	return planByName(ctx, cfg, priorRules, pipelineRuleType, ruleKey, func(ru, _ *pipelineRuleModel) {
		if ru.Environments.IsNull() {
			ru.Environments = framework.EmptyListOf(types.StringType)
		}
		ru.Conditions = planPipelineConditions(ctx, ru.Conditions, diags)
	}, diags)
}

func phaseKey(p *pipelinePhaseModel) (name, id *types.String) { return &p.Name, &p.ID }
func ruleKey(r *pipelineRuleModel) (name, id *types.String)   { return &r.Name, &r.ID }

// planByName plans the configured elements of a list whose elements keep their identity by name
// (phases, and rules within a phase): each takes the id of the first unused prior element of the
// same name, or stays unknown as a new one, unless the configuration pins an id; finish then
// completes it, given its match (nil for a new one).
func planByName[T any](ctx context.Context, cfg types.List, prior []T, typ types.ObjectType, key func(*T) (name, id *types.String), finish func(t, match *T), diags *diag.Diagnostics) types.List {
	used := make([]bool, len(prior))
	priorName := func(i int) string { n, _ := key(&prior[i]); return n.ValueString() }
	return framework.MapObjects(ctx, cfg, typ, func(t *T) {
		name, id := key(t)
		var match *T
		if n, ok := framework.KnownString(*name); ok {
			if i := matchName(len(prior), priorName, used, n); i >= 0 {
				match = &prior[i]
			}
		}
		if id.IsNull() {
			*id = types.StringUnknown()
			if match != nil {
				_, matchID := key(match)
				*id = *matchID
			}
		}
		finish(t, match)
	}, diags)
}

func planPipelineConditions(ctx context.Context, cfg types.List, diags *diag.Diagnostics) types.List {
	if cfg.IsUnknown() {
		return cfg
	}
	if cfg.IsNull() {
		return framework.EmptyListOf(pipelineConditionType)
	}
	return framework.MapObjects(ctx, cfg, pipelineConditionType, func(c *conditionModel) {
		if c.TargetValue.IsNull() {
			c.TargetValue = framework.EmptyListOf(types.StringType)
		}
	}, diags)
}

func describePhase(ph pipelinePhaseModel, i int) string {
	if name, ok := framework.KnownString(ph.Name); ok {
		return fmt.Sprintf("%q", name)
	}
	return fmt.Sprintf("%d", i)
}
