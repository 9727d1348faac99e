// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/valueschema"
)

// Variants of a config rule: the users a rule passes split between variants, each served its own
// return value. A config rule is a gate rule with variants: the rule family's code (plannedRules,
// expandRules, flattenRules, the comparisons of written.go) handles it as a ruleModel whose
// Variants ruleModels and ruleList carry to and from the config rule's object. Variants are matched
// by name within their rule (nameIndex, as rules are), so a kept variant keeps its id.

type variantModel struct {
	ID             types.String        `tfsdk:"id"`
	Name           types.String        `tfsdk:"name"`
	PassPercentage types.Number        `tfsdk:"pass_percentage"`
	ReturnValue    framework.JSONValue `tfsdk:"return_value"`
}

var variantObjectType = framework.ResourceObjectType(variantsAttribute().NestedObject.Attributes)

// hasVariants says whether t is the object type of a rule with variants.
func hasVariants(t attr.Type) bool {
	o, ok := t.(types.ObjectType)
	if !ok {
		return false
	}
	_, ok = o.AttrTypes["variants"]
	return ok
}

// flattenVariants converts the service's variants of a rule; none is null, or [] where the hint says [].
func flattenVariants(ctx context.Context, service []console.RuleVariant, hint types.List) (types.List, diag.Diagnostics) {
	if len(service) == 0 {
		if framework.IsEmptyList(hint) {
			return hint, nil
		}
		return types.ListNull(variantObjectType), nil
	}
	hints, diags := framework.ListModels[variantModel](ctx, hint)
	byName := indexByName(len(hints), func(i int) (string, bool) { return framework.KnownString(hints[i].Name) })
	models := make([]variantModel, len(service))
	for k, v := range service {
		var h variantModel
		if j, ok := byName.take(v.Name); ok {
			h = hints[j]
		}
		held := v.ReturnValue
		if framework.IsEmptyJSONObject(held) {
			held = json.RawMessage("{}")
		}
		models[k] = variantModel{ID: types.StringValue(v.ID), Name: types.StringValue(v.Name),
			PassPercentage: heldPercent(v.PassPercentage, h.PassPercentage), ReturnValue: heldJSON(ctx, held, h.ReturnValue)}
	}
	l, d := types.ListValueFrom(ctx, variantObjectType, models)
	diags.Append(d...)
	return l, diags
}

// expandVariants converts a rule's variants for a write: a known id is sent back; none (null or []) is none.
func expandVariants(ctx context.Context, l types.List) ([]console.RuleVariant, diag.Diagnostics) {
	models, diags := framework.ListModels[variantModel](ctx, l)
	if len(models) == 0 {
		return nil, diags
	}
	out := make([]console.RuleVariant, len(models))
	for k, m := range models {
		v := console.RuleVariant{Name: m.Name.ValueString(), ReturnValue: json.RawMessage("{}")}
		if id, ok := framework.KnownString(m.ID); ok {
			v.ID = id
		}
		if bf := m.PassPercentage.ValueBigFloat(); bf != nil {
			v.PassPercentage, _ = bf.Float64()
		}
		if raw, ok := framework.KnownJSON(m.ReturnValue); ok {
			v.ReturnValue = json.RawMessage(framework.CompactJSON(raw))
		}
		out[k] = v
	}
	return out, diags
}

// plannedVariantIDs is the planned variants of a rule with the id of the prior rule's variant of
// the same name, unknown for a variant new to it (prior the zero List: every id unknown).
func plannedVariantIDs(planned, prior types.List) types.List {
	if !framework.IsKnownList(planned) || len(planned.Elements()) == 0 {
		return planned
	}
	priorVariants := framework.KnownElements(prior)
	byName := indexByName(len(priorVariants), func(j int) (string, bool) { return variantAttr(priorVariants[j], "name") })
	vals := make([]attr.Value, 0, len(planned.Elements()))
	for _, e := range planned.Elements() {
		obj, ok := e.(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			vals = append(vals, e)
			continue
		}
		attrs := maps.Clone(obj.Attributes())
		attrs["id"] = types.StringUnknown()
		if name, ok := variantAttr(obj, "name"); ok {
			if j, ok := byName.take(name); ok {
				if id, ok := variantAttr(priorVariants[j], "id"); ok {
					attrs["id"] = types.StringValue(id)
				}
			}
		}
		vals = append(vals, types.ObjectValueMust(variantObjectType.AttrTypes, attrs))
	}
	return types.ListValueMust(variantObjectType, vals)
}

// variantAttr returns a known string attribute of a variant object.
func variantAttr(v attr.Value, name string) (string, bool) {
	obj, ok := v.(types.Object)
	if !ok || obj.IsNull() || obj.IsUnknown() {
		return "", false
	}
	s, _ := obj.Attributes()[name].(types.String)
	return framework.KnownString(s)
}

// variantsKnown says whether what a rule's variants send is known (their ids are the service's).
func variantsKnown(ctx context.Context, l types.List) bool {
	if l.IsNull() {
		return true
	}
	if l.IsUnknown() {
		return false
	}
	for _, e := range l.Elements() {
		obj, ok := e.(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			return false
		}
		for name, v := range obj.Attributes() {
			if name != "id" && !fullyKnown(ctx, v) {
				return false
			}
		}
	}
	return true
}

// fillVariantIDs gives a variant written without an id the id of the variant of the same name of
// the rule of the same name that holds (what the config holds) or prior (the state's) has, as
// expandForWrite does for base ids.
func fillVariantIDs(rules []console.Rule, prior []ruleModel, holds []console.Rule) {
	ids := map[[2]string]string{}
	for _, p := range prior {
		for _, v := range framework.KnownElements(p.Variants) {
			name, okName := variantAttr(v, "name")
			if id, okID := variantAttr(v, "id"); okName && okID {
				ids[[2]string{p.Name.ValueString(), name}] = id
			}
		}
	}
	for _, h := range holds {
		for _, v := range h.Variants {
			ids[[2]string{h.Name, v.Name}] = v.ID
		}
	}
	for i := range rules {
		for k := range rules[i].Variants {
			if v := &rules[i].Variants[k]; v.ID == "" {
				v.ID = ids[[2]string{rules[i].Name, v.Name}]
			}
		}
	}
}

// canonicalVariant is a variant as the service sees it, its id aside.
type canonicalVariant struct {
	Name        string
	Percentage  float64
	ReturnValue any
}

// canonicalVariants renders variants as the service sees them: percentages at two decimals, return
// values by meaning; none (nil or []) is nil.
func canonicalVariants(vs []console.RuleVariant) ([]canonicalVariant, bool) {
	var out []canonicalVariant
	for _, v := range vs {
		c := canonicalVariant{Name: v.Name, Percentage: framework.RoundPercentage(v.PassPercentage)}
		if !framework.IsEmptyJSONObject(v.ReturnValue) && json.Unmarshal(v.ReturnValue, &c.ReturnValue) != nil {
			return nil, false
		}
		out = append(out, c)
	}
	return out, true
}

// validateVariants checks each rule's variants before anything is sent: names unique within the
// rule, percentages summing to 100 at two decimals, return values that are JSON.
func validateVariants(rules types.List, diags *diag.Diagnostics) {
	for i, e := range framework.KnownElements(rules) {
		obj, ok := e.(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			continue
		}
		variants, _ := obj.Attributes()["variants"].(types.List)
		at := path.Root("rules").AtListIndex(i).AtName("variants")
		rule, _ := variantAttr(obj, "name")
		framework.UniqueNames(variants, at, diags, func(first, k int, name string) (string, string) {
			return "Duplicate variant name", fmt.Sprintf("Variant names must be unique within a rule: rules[%d].variants[%d] and "+
				"rules[%d].variants[%d] of rule %q are both named %q.", i, first, i, k, rule, name)
		})
		if sum, known := variantPercentSum(variants); known && len(variants.Elements()) > 0 && sum != 10000 {
			diags.AddAttributeError(at, "Variant percentages do not sum to 100",
				fmt.Sprintf("The pass_percentage values of the variants of rule %q (rules[%d].variants) sum to %s: the variants "+
					"split the units the rule passes, so they must sum to 100 (compared at two decimals). Change them so that "+
					"they do. Nothing was sent.", rule, i, strconv.FormatFloat(float64(sum)/100, 'f', -1, 64)))
		}
	}
}

// variantPercentSum adds the variants' percentages in hundredths; false while one is unknown.
func variantPercentSum(variants types.List) (int64, bool) {
	var sum int64
	for _, e := range framework.KnownElements(variants) {
		obj, ok := e.(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			return 0, false
		}
		n, _ := obj.Attributes()["pass_percentage"].(types.Number)
		bf := n.ValueBigFloat()
		if n.IsUnknown() || bf == nil {
			return 0, false
		}
		f, _ := bf.Float64()
		sum += int64(math.Round(f * 100))
	}
	return sum, true
}

// checkVariantValues checks the return values of rule i's variants against the schema s, as
// checkReturnValues checks the rule's own.
func checkVariantValues(ctx context.Context, s *valueschema.Schema, rule ruleModel, i int, against string, diags *diag.Diagnostics) {
	variants, d := framework.ListModels[variantModel](ctx, rule.Variants)
	diags.Append(d...)
	for k, v := range variants {
		value, ok := framework.KnownJSON(v.ReturnValue)
		if !ok {
			continue
		}
		checkValue(s, value, path.Root("rules").AtListIndex(i).AtName("variants").AtListIndex(k).AtName("return_value"),
			fmt.Sprintf("Return value of variant %q of rule %q", v.Name.ValueString(), rule.Name.ValueString()),
			fmt.Sprintf("rules[%d].variants[%d].return_value", i, k), against, diags)
	}
}

// checkHeldVariantValues checks the return values of the variants of rule i that config id holds
// against a changed schema s, as checkHeldValues checks the rule's own.
func checkHeldVariantValues(s *valueschema.Schema, rule console.Rule, i int, id string, diags *diag.Diagnostics) {
	for k, v := range rule.Variants {
		checkValue(s, v.ReturnValue, path.Root("schema"), fmt.Sprintf("Return value of variant %q of rule %q", v.Name, rule.Name),
			fmt.Sprintf("rules[%d].variants[%d] as dynamic config %q holds it", i, k, id), "the planned schema", diags)
	}
}

// variantsAttribute returns the schema of a rule's variants (variantRuleAttributes).
func variantsAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		Optional: true,
		MarkdownDescription: "Splits the units the rule passes between variants, each served its own `return_value` " +
			"instead of the rule's. Their `pass_percentage` values must sum to `100`, and each `return_value` must match " +
			"the config's schema; both are checked at plan time, before anything is sent. A variant that keeps its " +
			"`name` keeps its `id`. Omit (or `[]`) for a rule without variants: variants the config holds are then " +
			"removed, and the plan shows it.",
		Validators: []validator.List{listvalidator.NoNullValues()},
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "Identifier of the variant, assigned by the service (opaque) and kept as long as the " +
					"variant keeps its `name`.",
			},
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Name of the variant; unique within the rule and not empty.",
				Validators:          []validator.String{framework.NotBlank()},
			},
			"pass_percentage": schema.NumberAttribute{
				Required: true,
				MarkdownDescription: "Share of the units the rule passes that get this variant, from `0` to `100` with " +
					"at most two decimals; the variants of a rule sum to `100`.",
				Validators: []validator.Number{framework.PassPercentageValidator{}},
			},
			"return_value": schema.StringAttribute{
				Required:   true,
				CustomType: framework.JSONValueType{},
				MarkdownDescription: "Value returned to the units that get this variant, as a JSON object (use " +
					"`jsonencode`). Formatting and key order do not matter.",
				Validators: []validator.String{framework.JSONObject()},
			},
		}},
	}
}
