// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// A condition ({type, operator, field, customID, targetValue}) is the same object in gate rules,
// pipeline phase rules, segments and dynamic config rules: one model and one schema builder live
// here, one conversion to and from the service in condition_targets.go. They differ only in what
// conditionKind states.

// conditionModel is a condition as pipelines and segments hold it.
type conditionModel struct {
	Type        types.String `tfsdk:"type"`
	Operator    types.String `tfsdk:"operator"`
	Field       types.String `tfsdk:"field"`
	CustomID    types.String `tfsdk:"custom_id"`
	TargetValue types.List   `tfsdk:"target_value"`
}

// ruleConditionModel adds target_numbers: gate rules can send targets as JSON numbers.
type ruleConditionModel struct {
	conditionModel
	TargetNumbers types.List `tfsdk:"target_numbers"`
}

// conditionKind is what sets the conditions of one object apart from the others.
type conditionKind struct {
	typeDesc, operatorDesc, fieldDesc, customIDDesc, targetDesc string
	// types and operators are the service's documented values: a near miss of one is refused with
	// the value meant (framework.KnownValue). Nil: not checked (data sources).
	types, operators []string
	// typesOnlyIn names whose whole list types is ("segments"): any other type is refused.
	typesOnlyIn string
	// warnUnknown: other types and operators warn (gate rules), since the service may add more.
	warnUnknown bool
	// numbers: target_numbers beside target_value (gate rules).
	numbers bool
	// plannedTargets: an omitted target_value is planned and stored as [] (pipelines).
	plannedTargets bool
}

// The service's documented condition types and operators. In gate rules unknown values only warn:
// the service may add more. Segments accept only segmentConditionTypes, a subset (their family holds
// it, with their kind of condition).
var (
	conditionTypes = []string{
		"app_version", "browser_name", "browser_version", "country", "custom_field", "email", "environment_tier",
		"fails_gate", "fails_segment", "ip_address", "locale", "os_name", "os_version", "passes_gate",
		"passes_segment", "public", "time", "unit_id", "user_id", "url", "javascript", "device_model", "target_app",
	}
	conditionOperators = []string{
		"any", "none", "any_case_sensitive", "none_case_sensitive", "str_contains_any", "str_contains_none",
		"str_starts_with_any", "str_ends_with_any", "str_matches", "gt", "gte", "lt", "lte", "eq", "neq",
		"before", "after", "on", "version_gt", "version_gte", "version_lt", "version_lte", "version_eq",
		"version_neq", "is_null", "is_not_null", "in_segment_list", "not_in_segment_list", "array_contains_any",
		"array_contains_none", "array_contains_all", "not_array_contains_all",
	}
)

var (
	ruleConditions = conditionKind{
		typeDesc: "What the condition tests. Documented types: " + framework.CodeList(conditionTypes) +
			". A value that differs from one of them only by case or a typo (such as `emial`) is refused with " +
			"a suggestion; other values are accepted with a warning, since the service may add types.",
		operatorDesc: operatorDesc,
		fieldDesc:    "Field tested by `custom_field` conditions, such as `age`.",
		customIDDesc: "Custom unit ID type, for conditions on a custom ID (such as `unit_id`).",
		targetDesc: "Target values, sent as JSON strings. Conflicts with `target_numbers`. " +
			"Values the service holds as a mix of strings and numbers are read back here as strings.",
		types:       conditionTypes,
		operators:   conditionOperators,
		warnUnknown: true,
		numbers:     true,
	}

	ruleConditionObjectType = framework.ResourceObjectType(ruleConditions.resourceAttributes())
)

// operatorDesc describes the operator of gate and segment rules.
var operatorDesc = "How the value is compared with the targets. Documented operators: " + framework.CodeList(conditionOperators) +
	". A value that differs from one of them only by case or a typo is refused with a suggestion; " +
	"other values are accepted with a warning."

const emptyMeansNone = "Omitting it, `null` and `[]` all mean none and never show a difference in a plan (state holds `[]`)."

// resourceAttributes returns the schema of one condition of a resource, with k's descriptions and checks.
func (k conditionKind) resourceAttributes() map[string]schema.Attribute {
	typeValidators := []validator.String{framework.NotBlank()}
	operatorValidators := []validator.String{stringvalidator.LengthAtLeast(1)}
	if k.types != nil {
		typeValidators = append(typeValidators, framework.KnownValue("condition type", k.types, k.typesOnlyIn, k.warnUnknown))
	}
	if k.operators != nil {
		operatorValidators = append(operatorValidators, framework.KnownValue("condition operator", k.operators, "", k.warnUnknown))
	}
	optionalText := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, MarkdownDescription: desc,
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)}}
	}
	targets := schema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: k.targetDesc}
	attrs := map[string]schema.Attribute{
		"type":      schema.StringAttribute{Required: true, MarkdownDescription: k.typeDesc, Validators: typeValidators},
		"operator":  schema.StringAttribute{Optional: true, MarkdownDescription: k.operatorDesc, Validators: operatorValidators},
		"field":     optionalText(k.fieldDesc),
		"custom_id": optionalText(k.customIDDesc),
	}
	if k.plannedTargets {
		targets.Computed = true
	}
	if k.numbers {
		targets.Validators = []validator.List{
			listvalidator.NoNullValues(),
			framework.ConflictsWith("target_numbers"),
		}
		attrs["target_numbers"] = schema.ListAttribute{
			Optional:    true,
			ElementType: types.NumberType,
			MarkdownDescription: "Target values, sent as JSON numbers exactly as written (`12.5` stays `12.5`). " +
				"Conflicts with `target_value`.",
			Validators: []validator.List{listvalidator.NoNullValues()},
		}
	}
	attrs["target_value"] = targets
	return attrs
}

// dataSourceAttributes returns the schema of one condition a data source reads: all computed.
func (k conditionKind) dataSourceAttributes() map[string]dschema.Attribute {
	return map[string]dschema.Attribute{
		"type":         framework.ComputedText(k.typeDesc),
		"operator":     framework.ComputedText(k.operatorDesc),
		"field":        framework.ComputedText(k.fieldDesc),
		"custom_id":    framework.ComputedText(k.customIDDesc),
		"target_value": dschema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: k.targetDesc},
	}
}
