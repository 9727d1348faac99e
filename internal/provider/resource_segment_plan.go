// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// ValidateConfig checks what single-attribute validators cannot: rules only with rule_based, ids
// only with id_list, unique rule names. The condition types segments accept are checked in the
// plan (checkSegmentConditionTypes), which knows the rules the segment already holds; near misses
// by the conditions' own validators (segmentRuleConditions).
func (r *segmentResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m segmentModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if typ, ok := framework.KnownString(m.Type); ok {
		if typ == console.SegmentIDList && !m.Rules.IsNull() {
			resp.Diagnostics.AddAttributeError(path.Root("rules"), "Rules on an id_list segment",
				"An id_list segment's members are its ids: rules are allowed only with type = \"rule_based\".")
		}
		if typ == console.SegmentRuleBased && !m.IDs.IsNull() {
			resp.Diagnostics.AddAttributeError(path.Root("ids"), "Ids on a rule_based segment",
				"A rule_based segment's members are the units its rules match: ids are allowed only with type = \"id_list\".")
		}
	}
	framework.UniqueNames(m.Rules, path.Root("rules"), &resp.Diagnostics, func(first, i int, name string) (string, string) {
		return "Duplicate rule name", fmt.Sprintf("Rule names must be unique within a segment: rules[%d] and rules[%d] are both named %q.", first, i, name)
	})
}

// ModifyPlan keeps rule identities as featureconsole_gate_rules does (matchPriorRules): a rule
// that keeps its name keeps its base_id, and rule ids are promised only when no rule is written.
// The count is the service's: kept while the ids and rules stay as they are, unknown when the write
// changes them; with neither changed, nothing is written.
func (r *segmentResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	defer r.checkAccess(ctx, req, resp)
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan, state segmentModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if req.State.Raw.IsNull() {
		checkSegmentConditionTypes(plan.Rules, types.ListNull(segmentRuleObjectType), &resp.Diagnostics)
		resp.Diagnostics.Append(framework.PlanIDAs(ctx, &resp.Plan, "segment_id")...)
		return
	}
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !plan.SegmentID.Equal(state.SegmentID) {
		checkSegmentConditionTypes(plan.Rules, types.ListNull(segmentRuleObjectType), &resp.Diagnostics)
		return
	}
	if checkSegmentConditionTypes(plan.Rules, state.Rules, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	if framework.ElementsKnown(plan.Rules) {
		rules, d := plannedRules(ctx, asGateRules(plan.Rules), asGateRules(state.Rules), supersedePlan{})
		resp.Diagnostics.Append(d...)
		if resp.Diagnostics.HasError() {
			return
		}
		plan.Rules = asSegmentRules(rules)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("rules"), plan.Rules)...)
	}
	if !plan.Rules.Equal(state.Rules) {
		// The rules are written whole: a held rule of a type the service refuses in writes
		// makes the write fail, so the plan says so before any request.
		eachRefusedConditionType(plan.Rules, nil, func(at path.Path, typ string) {
			resp.Diagnostics.AddAttributeError(at, "Segment rules cannot be written while a rule holds a refused condition type",
				fmt.Sprintf("%s: the segment holds a rule with a %q condition (written in the console), and this plan changes its "+
					"rules. The service writes a segment's rules whole and refuses %q in any write of them (segments accept these "+
					"condition types only: %s), so the change would fail. Remove or rewrite that rule in the configuration (or "+
					"in the console) in the same change, or leave this segment's rules as they are.", at, typ, typ,
					strings.Join(segmentConditionTypes, ", ")))
		})
		if resp.Diagnostics.HasError() {
			return
		}
	}
	if !plan.Rules.Equal(state.Rules) || !plan.IDs.Equal(state.IDs) {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("entry_count"), types.Int64Unknown())...)
		return
	}
	// Nothing is written (the same ids in another order, or only timeouts changed): Update sends
	// the rules when they differ and the ids added and removed.
	resp.Diagnostics.Append(framework.KeepUnwritten(ctx, req.State, &resp.Plan, "last_modifier_name", "last_modifier_id")...)
}

// checkSegmentConditionTypes refuses condition types segments do not accept in the rules the
// plan adds or changes. A rule the segment already holds as planned (the same name and
// conditions: written in the console, say, with a `public` condition) is what the service holds,
// read, imported and generated as it is, and is never refused for it.
func checkSegmentConditionTypes(planned, held types.List, diags *diag.Diagnostics) {
	heldConds := map[string]attr.Value{}
	if framework.IsKnownList(held) {
		for _, e := range held.Elements() {
			if obj, ok := e.(types.Object); ok && !obj.IsNull() && !obj.IsUnknown() {
				if name, ok := obj.Attributes()["name"].(types.String); ok {
					heldConds[name.ValueString()] = obj.Attributes()["conditions"]
				}
			}
		}
	}
	eachRefusedConditionType(planned, func(rule map[string]attr.Value) bool {
		name, ok := rule["name"].(types.String)
		h, isHeld := heldConds[name.ValueString()]
		return ok && isHeld && h.Equal(rule["conditions"])
	}, func(at path.Path, typ string) {
		framework.NotAcceptedIn(diags, at, "condition type", "segments", typ, segmentConditionTypes)
	})
}

// eachRefusedConditionType calls refused with the path and type of every condition of rules
// (but those of the rules skip tells) whose type segments do not accept. Near misses are left to
// the conditions' validators, which refuse them as such.
func eachRefusedConditionType(rules types.List, skip func(rule map[string]attr.Value) bool, refused func(at path.Path, typ string)) {
	if !framework.IsKnownList(rules) {
		return
	}
	for i, e := range rules.Elements() {
		obj, ok := e.(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			continue
		}
		attrs := obj.Attributes()
		conds, ok := attrs["conditions"].(types.List)
		if !ok || !framework.IsKnownList(conds) || skip != nil && skip(attrs) {
			continue
		}
		for k, ce := range conds.Elements() {
			c, ok := ce.(types.Object)
			if !ok || c.IsNull() || c.IsUnknown() {
				continue
			}
			typ, ok := c.Attributes()["type"].(types.String)
			if !ok || typ.IsNull() || typ.IsUnknown() || slices.Contains(segmentConditionTypes, typ.ValueString()) ||
				len(framework.Nearest(typ.ValueString(), segmentConditionTypes)) > 0 {
				continue
			}
			refused(path.Root("rules").AtListIndex(i).AtName("conditions").AtListIndex(k).AtName("type"), typ.ValueString())
		}
	}
}
