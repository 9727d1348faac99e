// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The rule model that gate rules, segment rules, pipeline phases and dynamic config rules share:
// one rule, its schema, and its way to and from the service (conditions.go holds its conditions).

var (
	ruleObjectType       = framework.ResourceObjectType(ruleAttributes())
	scheduledRolloutType = framework.NestedObjectType(ruleObjectType, "scheduled_rollouts")
)

// ruleModels reads a list of rules, a config's with their variants.
func ruleModels(ctx context.Context, l types.List) ([]ruleModel, diag.Diagnostics) {
	if hasVariants(l.ElementType(ctx)) {
		return variantRuleModels(ctx, l)
	}
	return framework.ListModels[ruleModel](ctx, l)
}

// expandRules builds the request body. baseID goes back for every rule whose base_id is known,
// so the service keeps the rule's identity; empty lists and objects take one canonical wire form
// (environments null, conditions [], targetValue [], returnValue {}) so that what was sent and what
// is read back always compare equal.
func expandRules(ctx context.Context, rules []ruleModel) ([]console.Rule, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := make([]console.Rule, 0, len(rules))
	for i, m := range rules {
		p := path.Root("rules").AtListIndex(i)
		r := console.Rule{
			Name:         m.Name.ValueString(),
			Environments: nil,
			Conditions:   []console.Condition{},
			ReturnValue:  json.RawMessage("{}"),
		}
		if !m.BaseID.IsUnknown() {
			r.BaseID = m.BaseID.ValueString()
		}
		if bf := m.PassPercentage.ValueBigFloat(); bf != nil {
			r.PassPercentage, _ = bf.Float64()
		}
		if framework.IsKnownList(m.Environments) {
			var envs []string
			diags.Append(m.Environments.ElementsAs(ctx, &envs, false)...)
			if len(envs) > 0 {
				r.Environments = envs
			}
		}
		conds, d := framework.ListModels[ruleConditionModel](ctx, m.Conditions)
		diags.Append(d...)
		for k, c := range conds {
			tv, err := expandTargets(ctx, c)
			if err != nil {
				diags.AddAttributeError(p.AtName("conditions").AtListIndex(k), "Invalid condition targets", err.Error())
				continue
			}
			r.Conditions = append(r.Conditions, expandCondition(c.conditionModel, tv))
		}
		if !m.ReturnValue.IsNull() && !m.ReturnValue.IsUnknown() {
			r.ReturnValue = json.RawMessage(framework.CompactJSON(json.RawMessage(m.ReturnValue.ValueString())))
		}
		variants, d := expandVariants(ctx, m.Variants)
		diags.Append(d...)
		r.Variants = variants
		out = append(out, r)
	}
	return out, diags
}

// flattenRules is the service's rules (of a gate or a segment) as the gate rule object type, each
// matched by name to its hint.
func flattenRules(ctx context.Context, service []console.Rule, hints []ruleModel) (types.List, diag.Diagnostics) {
	return flattenRulesAs(ctx, ruleObjectType, service, hints)
}

// flattenRulesAs converts the service's rules into a list of ruleType: ruleObjectType, or
// variantRuleObjectType for rules with variants.
func flattenRulesAs(ctx context.Context, ruleType types.ObjectType, service []console.Rule, hints []ruleModel) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	byName := indexByName(len(hints), func(i int) (string, bool) {
		return hints[i].Name.ValueString(), !hints[i].Name.IsUnknown() && !hints[i].Name.IsNull()
	})
	rules := make([]attr.Value, 0, len(service))
	for _, r := range service {
		var hint *ruleModel
		if i, ok := byName.take(r.Name); ok { // a name the service holds twice takes its hint once
			hint = &hints[i]
		}
		obj, d := flattenRule(ctx, r, hint)
		diags.Append(d...)
		if hasVariants(ruleType) && !d.HasError() {
			obj, d = withVariantsOf(ctx, obj, r.Variants, hint)
			diags.Append(d...)
		}
		rules = append(rules, obj)
	}
	if diags.HasError() {
		return types.ListNull(ruleType), diags
	}
	return types.ListValueMust(ruleType, rules), diags
}

func flattenRule(ctx context.Context, r console.Rule, hint *ruleModel) (attr.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	if hint == nil {
		hint = &ruleModel{}
	}

	pct := heldPercent(r.PassPercentage, hint.PassPercentage)

	envs := types.ListNull(types.StringType)
	if len(r.Environments) > 0 {
		envs = framework.StringList(r.Environments)
	} else if framework.IsEmptyList(hint.Environments) {
		envs = hint.Environments
	}

	hintConds, d := framework.ListModels[ruleConditionModel](ctx, hint.Conditions)
	diags.Append(d...)
	conds := types.ListNull(ruleConditionObjectType)
	if len(r.Conditions) > 0 {
		vals := make([]attr.Value, len(r.Conditions))
		for k, c := range r.Conditions {
			var hc *ruleConditionModel
			if k < len(hintConds) {
				hc = &hintConds[k]
			}
			v, err := flattenRuleCondition(c, hc)
			if err != nil {
				diags.AddError("Unable to read a gate rule condition",
					fmt.Sprintf("Rule %q, condition %d: the service's targetValue could not be read: %s", r.Name, k, err))
				return nil, diags
			}
			vals[k] = v
		}
		conds = types.ListValueMust(ruleConditionObjectType, vals)
	} else if framework.IsEmptyList(hint.Conditions) {
		conds = hint.Conditions
	}

	rv := framework.NewJSONNull()
	switch {
	case !framework.IsEmptyJSONObject(r.ReturnValue):
		rv = heldJSON(ctx, r.ReturnValue, hint.ReturnValue)
	case !hint.ReturnValue.IsNull() && !hint.ReturnValue.IsUnknown() && framework.IsEmptyJSONObject(json.RawMessage(hint.ReturnValue.ValueString())):
		rv = hint.ReturnValue
	}

	obj, d := types.ObjectValue(ruleObjectType.AttrTypes, map[string]attr.Value{
		"id":                 types.StringValue(r.ID),
		"base_id":            types.StringValue(r.BaseID),
		"name":               types.StringValue(r.Name),
		"pass_percentage":    pct,
		"environments":       envs,
		"conditions":         conds,
		"return_value":       rv,
		"scheduled_rollouts": flattenSchedule(r),
	})
	diags.Append(d...)
	return obj, diags
}

// flattenSchedule converts a rule's schedule: the steps made, then the steps to come; [] when none.
func flattenSchedule(r console.Rule) types.List {
	elem := scheduledRolloutType
	steps := make([]attr.Value, 0, len(r.CompletedAutomatedRollouts)+len(r.PendingAutomatedRollouts))
	add := func(list []console.AutomatedRollout, done bool) {
		for _, st := range list {
			steps = append(steps, types.ObjectValueMust(elem.AttrTypes, map[string]attr.Value{
				"time":            types.StringValue(time.UnixMilli(st.Time.Value).UTC().Format(time.RFC3339)),
				"pass_percentage": framework.PercentFromFloat(st.PassPercent),
				"done":            types.BoolValue(done),
			}))
		}
	}
	add(r.CompletedAutomatedRollouts, true)
	add(r.PendingAutomatedRollouts, false)
	return types.ListValueMust(elem, steps)
}

// ruleAttributes returns the schema of one rule in a gate's words (ruleAttributesOf), which a
// segment's rules share; ruleObjectType is derived from it.
func ruleAttributes() map[string]schema.Attribute {
	return ruleAttributesOf("gate", "pass the gate")
}

// ruleAttributesOf returns the schema of one rule of the owner ("gate", "config"), described in the
// owner's words; passing says what the units a rule passes do, as in "units ... that pass the gate".
func ruleAttributesOf(owner, passing string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed: true,
			MarkdownDescription: "Identifier of this version of the rule, assigned by the service (opaque). " +
				"The service may give every rule of the " + owner + " a new one on any change of the rule list, so it is " +
				"unknown in the plan of a change; use `base_id` for a rule's lasting identity.",
		},
		"base_id": schema.StringAttribute{
			Computed: true,
			MarkdownDescription: "Lasting identity of the rule, assigned by the service when the rule is first " +
				"created and kept as long as the rule keeps its `name`.",
		},
		"name": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "Name of the rule; unique within the " + owner + " and not empty. Rules are matched to " +
				"the " + owner + "'s existing rules by name: renaming a rule replaces it with a new one (new `base_id`).",
			Validators: []validator.String{framework.NotBlank()},
		},
		"pass_percentage": schema.NumberAttribute{
			Required: true,
			MarkdownDescription: "Percentage of the units matching the conditions that " + passing + ", " +
				"from `0` to `100` with at most two decimals (for example `12.5` or `33.33`).",
			Validators: []validator.Number{framework.PassPercentageValidator{}},
		},
		"environments": schema.ListAttribute{
			Optional:    true,
			ElementType: types.StringType,
			MarkdownDescription: "Environments where the rule applies, such as `production`. Omit (or `[]`) for " +
				"every environment.",
			Validators: []validator.List{listvalidator.NoNullValues(), listvalidator.ValueStringsAre(framework.NotBlank())},
		},
		"conditions": schema.ListNestedAttribute{
			Optional: true,
			MarkdownDescription: "Conditions, all of which must match for the rule to apply. Omit (or `[]`) for a " +
				"rule that matches every unit.",
			NestedObject: schema.NestedAttributeObject{Attributes: ruleConditions.resourceAttributes()},
		},
		"scheduled_rollouts": schema.ListNestedAttribute{
			Computed: true,
			MarkdownDescription: "The rule's schedule, set in the console (read-only): at each step's `time` the service " +
				"itself sets the rule's percentage to the step's `pass_percentage`. Steps already made come first " +
				"(`done = true`), then the ones to come. A plan that shows `pass_percentage` going back after a step " +
				"was made is the schedule's doing: to let the schedule own the percentage, add " +
				"`lifecycle { ignore_changes = [rules[N].pass_percentage] }` for the rule at index N. " +
				"Unknown in the plan of a change of the rules.",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"time": schema.StringAttribute{Computed: true, MarkdownDescription: "When the step is made, in RFC 3339 form (UTC)."},
				"pass_percentage": schema.NumberAttribute{
					Computed: true, MarkdownDescription: "The rule's percentage from that time on.",
				},
				"done": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the step was made already."},
			}},
		},
		"return_value": schema.StringAttribute{
			Optional:   true,
			CustomType: framework.JSONValueType{},
			MarkdownDescription: "Value returned to units that pass, as a JSON object (use `jsonencode`). " +
				"Omit for `{}`. Formatting and key order do not matter.",
			Validators:    []validator.String{framework.JSONObject()},
			PlanModifiers: []planmodifier.String{framework.PlanPriorJSON()},
		},
	}
}

// sameRuleContent compares two rules as the service will see them; a rule with values unknown
// until apply is never the same.
func sameRuleContent(ctx context.Context, a, b ruleModel) bool {
	if !ruleFullyKnown(ctx, a) || !ruleFullyKnown(ctx, b) {
		return false
	}
	ca, ok := canonicalRule(ctx, a)
	if !ok {
		return false
	}
	cb, ok := canonicalRule(ctx, b)
	return ok && ca == cb
}

func ruleFullyKnown(ctx context.Context, m ruleModel) bool {
	return fullyKnown(ctx, m.Name, m.PassPercentage, m.Environments, m.Conditions, m.ReturnValue) && variantsKnown(ctx, m.Variants)
}

// canonicalRule renders the content of a rule (everything but its ids) as sent on the wire, with
// the return value's keys sorted.
func canonicalRule(ctx context.Context, m ruleModel) (string, bool) {
	rules, d := expandRules(ctx, []ruleModel{m})
	if d.HasError() || len(rules) != 1 {
		return "", false
	}
	r := rules[0]
	r.ID, r.BaseID = "", ""
	rvb, ok := sortedJSON(r.ReturnValue)
	if !ok {
		return "", false
	}
	r.ReturnValue = rvb
	for k := range r.Variants {
		v := &r.Variants[k]
		v.ID = ""
		if v.ReturnValue, ok = sortedJSON(v.ReturnValue); !ok {
			return "", false
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// sortedJSON sorts a JSON value's object keys, numbers as written, so that texts compare by content.
func sortedJSON(raw json.RawMessage) (json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	b, err := json.Marshal(v)
	return b, err == nil
}

// variantRuleObjectType is a config rule's object type.
var variantRuleObjectType = framework.ResourceObjectType(variantRuleAttributes())

// variantRuleAttributes returns the schema of a rule with variants, in a dynamic config's words.
func variantRuleAttributes() map[string]schema.Attribute {
	attrs := ruleAttributesOf("config", "pass the rule and are served its `return_value`")
	attrs["variants"] = variantsAttribute()
	return attrs
}

// variantRuleModels reads a list of config rules: each a ruleModel with its Variants.
func variantRuleModels(ctx context.Context, l types.List) ([]ruleModel, diag.Diagnostics) {
	models, diags := framework.ListModels[ruleModel](ctx, convertRules(l, ruleObjectType, func(attrs map[string]attr.Value) {
		delete(attrs, "variants")
	}))
	for i, e := range framework.KnownElements(l) {
		if obj, ok := e.(types.Object); ok && i < len(models) {
			models[i].Variants, _ = obj.Attributes()["variants"].(types.List)
		}
	}
	return models, diags
}

// ruleList lists models as rules of elem's type: a config rule's carries the model's Variants.
func ruleList(ctx context.Context, elem attr.Type, models []ruleModel) (types.List, diag.Diagnostics) {
	l, diags := types.ListValueFrom(ctx, ruleObjectType, models)
	if diags.HasError() || !hasVariants(elem) {
		return l, diags
	}
	vals := make([]attr.Value, 0, len(models))
	for i, e := range l.Elements() {
		obj, d := setVariants(ctx, e, models[i].Variants)
		diags.Append(d...)
		vals = append(vals, obj)
	}
	if diags.HasError() {
		return types.ListNull(variantRuleObjectType), diags
	}
	return types.ListValue(variantRuleObjectType, vals)
}

// setVariants returns rule as a rule with variants (null when unset).
func setVariants(ctx context.Context, rule attr.Value, variants types.List) (attr.Value, diag.Diagnostics) {
	obj, ok := rule.(types.Object)
	if !ok {
		return types.ObjectUnknown(variantRuleObjectType.AttrTypes), nil
	}
	if variants.ElementType(ctx) == nil {
		variants = types.ListNull(variantObjectType)
	}
	attrs := maps.Clone(obj.Attributes())
	attrs["variants"] = variants
	return types.ObjectValue(variantRuleObjectType.AttrTypes, attrs)
}

// withVariantsOf is a flattened gate rule as a config rule holding the service's variants, each
// matched by name to the hint's to keep the configuration's forms.
func withVariantsOf(ctx context.Context, rule attr.Value, service []console.RuleVariant, hint *ruleModel) (attr.Value, diag.Diagnostics) {
	var hints types.List
	if hint != nil {
		hints = hint.Variants
	}
	variants, diags := flattenVariants(ctx, service, hints)
	if diags.HasError() {
		return rule, diags
	}
	obj, d := setVariants(ctx, rule, variants)
	diags.Append(d...)
	return obj, diags
}

func convertRules(l types.List, to types.ObjectType, edit func(map[string]attr.Value)) types.List {
	switch {
	case l.IsNull():
		return types.ListNull(to)
	case l.IsUnknown():
		return types.ListUnknown(to)
	}
	vals := make([]attr.Value, 0, len(l.Elements()))
	for _, e := range l.Elements() {
		obj, ok := e.(types.Object)
		switch {
		case !ok || obj.IsUnknown():
			vals = append(vals, types.ObjectUnknown(to.AttrTypes))
			continue
		case obj.IsNull():
			vals = append(vals, types.ObjectNull(to.AttrTypes))
			continue
		}
		attrs := maps.Clone(obj.Attributes())
		edit(attrs)
		vals = append(vals, types.ObjectValueMust(to.AttrTypes, attrs))
	}
	return types.ListValueMust(to, vals)
}

// expandForWrite is expandRules for a write of planned: a rule whose base_id the plan does not know
// takes the one of the rule of the same name that holds (what the object holds, on create) or prior
// (the state's rules) has. A plan that may supersede a run promises no base_id (supersedePlan), yet
// the service keeps the identity of every rule the object still holds when it is sent back.
func expandForWrite(ctx context.Context, planned, prior []ruleModel, holds []console.Rule) ([]console.Rule, diag.Diagnostics) {
	rules, diags := expandRules(ctx, planned)
	if diags.HasError() {
		return nil, diags
	}
	baseIDs := map[string]string{}
	for _, p := range prior {
		if !p.BaseID.IsUnknown() && !p.BaseID.IsNull() {
			baseIDs[p.Name.ValueString()] = p.BaseID.ValueString()
		}
	}
	for _, h := range holds {
		baseIDs[h.Name] = h.BaseID
	}
	for i := range rules {
		if rules[i].BaseID == "" {
			rules[i].BaseID = baseIDs[rules[i].Name]
		}
	}
	fillVariantIDs(rules, prior, holds)
	return rules, diags
}

// expandStateRules converts a rule list as state holds it for a write (expandRules).
func expandStateRules(ctx context.Context, l types.List) ([]console.Rule, diag.Diagnostics) {
	rules, diags := ruleModels(ctx, l)
	if diags.HasError() {
		return nil, diags
	}
	out, d := expandRules(ctx, rules)
	diags.Append(d...)
	return out, diags
}

// rulesFields are the attributes every rules resource has beside its object's id; the models embed
// them (the framework promotes an embedded struct's attributes).
type rulesFields struct {
	ID    types.String `tfsdk:"id"`
	Rules types.List   `tfsdk:"rules"`
	// OnActiveRun and KeepOnDestroy are Terraform's only: never sent.
	OnActiveRun   types.String   `tfsdk:"on_active_run"`
	KeepOnDestroy types.Bool     `tfsdk:"keep_on_destroy"`
	Timeouts      timeouts.Value `tfsdk:"timeouts"`
}

func (f *rulesFields) fields() *rulesFields { return f }

// rulesModel is a rules resource's model: its object's id (identity) and the shared fields.
type rulesModel interface {
	identifiedModel
	fields() *rulesFields
}

// objectID returns the id of the object whose rules m holds.
func objectID(m rulesModel) string {
	_, id := m.identity()
	return id.ValueString()
}

// flattenRulesModel stores the rules the service holds in m. hints (the plan after apply, the prior
// state on read) are matched to the service's rules by name; where the service's value means the
// same as the hint's, the hint's form is kept so the configuration and the state never differ in
// form only (flattenRulesAs).
func flattenRulesModel(ctx context.Context, ruleType types.ObjectType, service []console.Rule, m rulesModel, hints []ruleModel) diag.Diagnostics {
	f := m.fields()
	f.ID = types.StringValue(objectID(m))
	if f.OnActiveRun.IsNull() || f.OnActiveRun.IsUnknown() { // imported, or listed: the default
		f.OnActiveRun = types.StringValue(onActiveRunFail)
	}
	rules, diags := flattenRulesAs(ctx, ruleType, service, hints)
	if !diags.HasError() {
		f.Rules = rules
	}
	return diags
}
