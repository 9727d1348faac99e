package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

var (
	_ resource.ResourceWithConfigure      = &gateRulesResource{}
	_ resource.ResourceWithImportState    = &gateRulesResource{}
	_ resource.ResourceWithModifyPlan     = &gateRulesResource{}
	_ resource.ResourceWithValidateConfig = &gateRulesResource{}
)

func NewGateRulesResource() resource.Resource { return &gateRulesResource{} }

type gateRulesResource struct{ data *providerData }

type gateRulesModel struct {
	ID               types.String   `tfsdk:"id"`
	GateID           types.String   `tfsdk:"gate_id"`
	Rules            types.List     `tfsdk:"rules"`
	IsEnabled        types.Bool     `tfsdk:"is_enabled"`
	Description      types.String   `tfsdk:"description"`
	Status           types.String   `tfsdk:"status"`
	Tags             types.List     `tfsdk:"tags"`
	LastModifierID   types.String   `tfsdk:"last_modifier_id"`
	LastModifierName types.String   `tfsdk:"last_modifier_name"`
	Timeouts         timeouts.Value `tfsdk:"timeouts"`
}

type gateRuleModel struct {
	ID             types.String         `tfsdk:"id"`
	BaseID         types.String         `tfsdk:"base_id"`
	Name           types.String         `tfsdk:"name"`
	PassPercentage types.Number         `tfsdk:"pass_percentage"`
	Environments   types.List           `tfsdk:"environments"`
	Conditions     types.List           `tfsdk:"conditions"`
	ReturnValue    jsontypes.Normalized `tfsdk:"return_value"`
}

type gateConditionModel struct {
	Type          types.String `tfsdk:"type"`
	Operator      types.String `tfsdk:"operator"`
	Field         types.String `tfsdk:"field"`
	CustomID      types.String `tfsdk:"custom_id"`
	TargetValue   types.List   `tfsdk:"target_value"`
	TargetNumbers types.List   `tfsdk:"target_numbers"`
}

var (
	gateConditionAttrTypes = map[string]attr.Type{
		"type":           types.StringType,
		"operator":       types.StringType,
		"field":          types.StringType,
		"custom_id":      types.StringType,
		"target_value":   types.ListType{ElemType: types.StringType},
		"target_numbers": types.ListType{ElemType: types.NumberType},
	}
	gateConditionObjectType = types.ObjectType{AttrTypes: gateConditionAttrTypes}
	gateRuleAttrTypes       = map[string]attr.Type{
		"id":              types.StringType,
		"base_id":         types.StringType,
		"name":            types.StringType,
		"pass_percentage": types.NumberType,
		"environments":    types.ListType{ElemType: types.StringType},
		"conditions":      types.ListType{ElemType: gateConditionObjectType},
		"return_value":    jsontypes.NormalizedType{},
	}
	gateRuleObjectType = types.ObjectType{AttrTypes: gateRuleAttrTypes}
)

// The service's documented condition types and operators. Unknown values only warn: the service may add more.
var (
	gateConditionTypes = []string{
		"app_version", "browser_name", "browser_version", "country", "custom_field", "email", "environment_tier",
		"fails_gate", "fails_segment", "ip_address", "locale", "os_name", "os_version", "passes_gate",
		"passes_segment", "public", "time", "unit_id", "user_id", "url", "javascript", "device_model", "target_app",
	}
	gateConditionOperators = []string{
		"any", "none", "any_case_sensitive", "none_case_sensitive", "str_contains_any", "str_contains_none",
		"str_starts_with_any", "str_ends_with_any", "str_matches", "gt", "gte", "lt", "lte", "eq", "neq",
		"before", "after", "on", "version_gt", "version_gte", "version_lt", "version_lte", "version_eq",
		"version_neq", "is_null", "is_not_null", "in_segment_list", "not_in_segment_list", "array_contains_any",
		"array_contains_none", "array_contains_all", "not_array_contains_all",
	}
)

func (r *gateRulesResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_gate_rules"
}

func (r *gateRulesResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	computedString := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{
			Computed: true, MarkdownDescription: desc,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseNonNullStateForUnknown()},
		}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The complete, ordered rule list of an existing feature gate. The first rule whose conditions " +
			"match decides, so the order of `rules` is the evaluation order. Rules not listed here are removed from the gate. " +
			"Create and update send the whole list (`PATCH /gates/{id}/rules`); destroy leaves the gate in place with no rules. " +
			"A rule that keeps its `name` keeps its identity (`base_id`) and history, wherever it moves in the list; " +
			"when Terraform first takes over a gate, the rules the gate already has keep theirs if the configuration " +
			"names them (create reads the gate once for that).",
		Attributes: map[string]schema.Attribute{
			"id": computedString("Identifier of this resource: the gate id."),
			"gate_id": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Identifier of the gate, such as `new_checkout`. The gate must already exist: this " +
					"resource manages its rules, not the gate. Changing it forces replacement.",
				Validators:    []validator.String{notBlank()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"rules": schema.ListNestedAttribute{
				Required: true,
				MarkdownDescription: "The gate's rules in evaluation order; `[]` leaves the gate with no rules. " +
					"Changes are made in place.",
				Validators: []validator.List{listvalidator.NoNullValues()},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id": schema.StringAttribute{
						Computed: true,
						MarkdownDescription: "Identifier of this version of the rule, assigned by the service (opaque). " +
							"Changes whenever the rule's content changes; kept when only its position changes.",
					},
					"base_id": schema.StringAttribute{
						Computed: true,
						MarkdownDescription: "Lasting identity of the rule, assigned by the service when the rule is first " +
							"created and kept as long as the rule keeps its `name`.",
					},
					"name": schema.StringAttribute{
						Required: true,
						MarkdownDescription: "Name of the rule; unique within the gate and not empty. Rules are matched to " +
							"the gate's existing rules by name: renaming a rule replaces it with a new one (new `base_id`).",
						Validators: []validator.String{notBlank()},
					},
					"pass_percentage": schema.NumberAttribute{
						Required: true,
						MarkdownDescription: "Percentage of the units matching the conditions that pass the gate, " +
							"from `0` to `100` with at most two decimals (for example `12.5` or `33.33`).",
						Validators: []validator.Number{passPercentageValidator{}},
					},
					"environments": schema.ListAttribute{
						Optional:    true,
						ElementType: types.StringType,
						MarkdownDescription: "Environments where the rule applies, such as `production`. Omit (or `[]`) for " +
							"every environment.",
						Validators: []validator.List{listvalidator.NoNullValues(), listvalidator.ValueStringsAre(notBlank())},
					},
					"conditions": schema.ListNestedAttribute{
						Optional: true,
						MarkdownDescription: "Conditions, all of which must match for the rule to apply. Omit (or `[]`) for a " +
							"rule that matches every unit.",
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"type": schema.StringAttribute{
								Required: true,
								MarkdownDescription: "What the condition tests. Documented types: " + codeList(gateConditionTypes) +
									". Other values are accepted with a warning, since the service may add types.",
								Validators: []validator.String{notBlank(), documentedValue("condition type", gateConditionTypes)},
							},
							"operator": schema.StringAttribute{
								Optional: true,
								MarkdownDescription: "How the value is compared with the targets. Documented operators: " +
									codeList(gateConditionOperators) + ". Other values are accepted with a warning.",
								Validators: []validator.String{stringvalidator.LengthAtLeast(1), documentedValue("condition operator", gateConditionOperators)},
							},
							"field": schema.StringAttribute{
								Optional:            true,
								MarkdownDescription: "Field tested by `custom_field` conditions, such as `age`.",
								Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
							},
							"custom_id": schema.StringAttribute{
								Optional:            true,
								MarkdownDescription: "Custom unit ID type, for conditions on a custom ID (such as `unit_id`).",
								Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
							},
							"target_value": schema.ListAttribute{
								Optional:    true,
								ElementType: types.StringType,
								MarkdownDescription: "Target values, sent as JSON strings. Conflicts with `target_numbers`. " +
									"Values the service holds as a mix of strings and numbers are read back here as strings.",
								Validators: []validator.List{
									listvalidator.NoNullValues(),
									listvalidator.ConflictsWith(path.MatchRelative().AtParent().AtName("target_numbers")),
								},
							},
							"target_numbers": schema.ListAttribute{
								Optional:    true,
								ElementType: types.NumberType,
								MarkdownDescription: "Target values, sent as JSON numbers exactly as written (`12.5` stays `12.5`). " +
									"Conflicts with `target_value`.",
								Validators: []validator.List{listvalidator.NoNullValues()},
							},
						}},
					},
					"return_value": schema.StringAttribute{
						Optional:   true,
						CustomType: jsontypes.NormalizedType{},
						MarkdownDescription: "Value returned to units that pass, as a JSON object (use `jsonencode`). " +
							"Omit for `{}`. Formatting and key order do not matter.",
						Validators: []validator.String{jsonObjectValidator{}},
					},
				}},
			},
			"is_enabled": schema.BoolAttribute{
				Computed: true, MarkdownDescription: "Whether the gate is enabled (managed outside this resource).",
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseNonNullStateForUnknown()},
			},
			"description": computedString("Description of the gate (managed outside this resource)."),
			"status":      computedString("Status of the gate, such as `In Progress` (managed outside this resource)."),
			"tags": schema.ListAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "Tags of the gate (managed outside this resource).",
				PlanModifiers:       []planmodifier.List{listplanmodifier.UseNonNullStateForUnknown()},
			},
			"last_modifier_id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "Identifier of whoever last changed the gate; changes when the rules are updated.",
			},
			"last_modifier_name": schema.StringAttribute{
				Computed: true, MarkdownDescription: "Name of whoever last changed the gate; changes when the rules are updated.",
			},
			"timeouts": timeoutsAttribute(ctx, "the gate's rules", timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, nil),
		},
	}
}

func (r *gateRulesResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, resp.Diagnostics.AddError)
}

func (r *gateRulesResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan gateRulesModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	op, cancel, d := startOperation(ctx, plan.Timeouts, "create")
	defer cancel()
	resp.Diagnostics.Append(d...)
	// Taking over a gate: rules it already has keep their identity and history when the
	// configuration names them, so their baseID is read once and sent back. A missing gate is
	// reported by the write itself.
	gateID := plan.GateID.ValueString()
	existing, err := r.data.client.GetGate(op.ctx, gateID)
	if err != nil && !console.NotFound(err) {
		summary := fmt.Sprintf("Unable to read gate %q", gateID)
		resp.Diagnostics.AddError(summary, op.explain(summary, err).Error())
		return
	}
	r.apply(ctx, op, &plan, existing, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *gateRulesResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state gateRulesModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	gateID := state.GateID.ValueString()
	op, cancel, d := startOperation(ctx, state.Timeouts, "read")
	defer cancel()
	resp.Diagnostics.Append(d...)
	g, err := r.data.client.GetGate(op.ctx, gateID)
	if console.NotFound(err) {
		resp.Diagnostics.AddWarning(fmt.Sprintf("Gate %q not found", gateID),
			"The gate no longer exists in the service; its rules were removed from the Terraform state.")
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		summary := fmt.Sprintf("Unable to read gate %q", gateID)
		resp.Diagnostics.AddError(summary, op.explain(summary, err).Error())
		return
	}
	hints, d := ruleModels(ctx, state.Rules)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(flattenGate(ctx, g, &state, hints)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *gateRulesResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state gateRulesModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	if plan.Rules.Equal(state.Rules) { // only timeouts changed: nothing to send
		state.Timeouts = plan.Timeouts
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return
	}
	op, cancel, d := startOperation(ctx, plan.Timeouts, "update")
	defer cancel()
	resp.Diagnostics.Append(d...)
	r.apply(ctx, op, &plan, nil, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// apply sends the planned rule list and replaces plan's computed values with the service's answer.
// apply sends the planned rules; existing (on create) lends its baseIDs to planned rules of the same name.
func (r *gateRulesResource) apply(ctx context.Context, op *operation, plan *gateRulesModel, existing *console.Gate, diags *diag.Diagnostics) {
	gateID := plan.GateID.ValueString()
	planned, d := ruleModels(ctx, plan.Rules)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	rules, d := expandRules(ctx, planned)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	if existing != nil {
		baseIDs := make(map[string]string, len(existing.Rules))
		for _, er := range existing.Rules {
			baseIDs[er.Name] = er.BaseID
		}
		for i := range rules {
			if rules[i].BaseID == "" {
				rules[i].BaseID = baseIDs[rules[i].Name]
			}
		}
	}
	g, err := r.data.client.UpdateGateRules(op.ctx, gateID, rules)
	if err != nil {
		addGateWriteError(diags, gateID, op.explain(fmt.Sprintf("Unable to update rules of gate %q", gateID), err))
		return
	}
	diags.Append(flattenGate(ctx, g, plan, planned)...)
}

func (r *gateRulesResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state gateRulesModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	gateID := state.GateID.ValueString()
	op, cancel, d := startOperation(ctx, state.Timeouts, "delete")
	defer cancel()
	resp.Diagnostics.Append(d...)
	_, err := r.data.client.UpdateGateRules(op.ctx, gateID, []console.GateRule{})
	if err != nil && !console.NotFound(err) { // a gate that is gone has no rules left to remove
		summary := fmt.Sprintf("Unable to remove the rules of gate %q", gateID)
		resp.Diagnostics.AddError(summary, op.explain(summary, err).Error())
	}
}

func (r *gateRulesResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if strings.TrimSpace(req.ID) == "" {
		resp.Diagnostics.AddError("Invalid import id", "Import featureconsole_gate_rules by gate id, for example `terraform import featureconsole_gate_rules.checkout new_checkout`.")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("gate_id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}

func addGateWriteError(diags *diag.Diagnostics, gateID string, err error) {
	if console.NotFound(err) {
		diags.AddAttributeError(path.Root("gate_id"), fmt.Sprintf("Gate %q not found", gateID),
			"featureconsole_gate_rules manages the rules of an existing gate and cannot create the gate itself: "+
				"create the gate in the console first, or check gate_id.\n\n"+err.Error())
		return
	}
	detail := err.Error()
	var ae *console.APIError
	if errors.As(err, &ae) && ae.MaybeCommitted {
		detail += "\n\nThe change may have been applied even though its answer was lost; the next plan reads the gate again and shows what is left to do."
	}
	diags.AddError(fmt.Sprintf("Unable to update rules of gate %q", gateID), detail)
}

func ruleModels(ctx context.Context, l types.List) ([]gateRuleModel, diag.Diagnostics) {
	if l.IsNull() || l.IsUnknown() {
		return nil, nil
	}
	var out []gateRuleModel
	d := l.ElementsAs(ctx, &out, false)
	return out, d
}

func conditionModels(ctx context.Context, l types.List) ([]gateConditionModel, diag.Diagnostics) {
	if l.IsNull() || l.IsUnknown() {
		return nil, nil
	}
	var out []gateConditionModel
	d := l.ElementsAs(ctx, &out, false)
	return out, d
}

// expandRules builds the request body. baseID goes back for every rule whose base_id is known,
// so the service keeps the rule's identity; empty lists and objects take one canonical wire form
// (environments null, conditions [], targetValue [], returnValue {}) so that what was sent and what
// is read back always compare equal.
func expandRules(ctx context.Context, rules []gateRuleModel) ([]console.GateRule, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := make([]console.GateRule, 0, len(rules))
	for i, m := range rules {
		p := path.Root("rules").AtListIndex(i)
		r := console.GateRule{
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
		if !m.Environments.IsNull() && !m.Environments.IsUnknown() {
			var envs []string
			diags.Append(m.Environments.ElementsAs(ctx, &envs, false)...)
			if len(envs) > 0 {
				r.Environments = envs
			}
		}
		conds, d := conditionModels(ctx, m.Conditions)
		diags.Append(d...)
		for k, c := range conds {
			tv, err := expandTargets(ctx, c)
			if err != nil {
				diags.AddAttributeError(p.AtName("conditions").AtListIndex(k), "Invalid condition targets", err.Error())
				continue
			}
			r.Conditions = append(r.Conditions, console.Condition{
				Type:        c.Type.ValueString(),
				Operator:    c.Operator.ValueString(),
				Field:       c.Field.ValueString(),
				CustomID:    c.CustomID.ValueString(),
				TargetValue: tv,
			})
		}
		if !m.ReturnValue.IsNull() && !m.ReturnValue.IsUnknown() {
			r.ReturnValue = json.RawMessage(compactJSON(json.RawMessage(m.ReturnValue.ValueString())))
		}
		out = append(out, r)
	}
	return out, diags
}

// expandTargets renders target_value as JSON strings and target_numbers as JSON numbers; neither is `[]`.
func expandTargets(ctx context.Context, c gateConditionModel) (json.RawMessage, error) {
	switch {
	case !c.TargetNumbers.IsNull():
		var nums []types.Number
		if d := c.TargetNumbers.ElementsAs(ctx, &nums, false); d.HasError() {
			return nil, fmt.Errorf("target_numbers could not be read")
		}
		parts := make([]string, len(nums))
		for i, n := range nums {
			bf := n.ValueBigFloat()
			if bf == nil {
				return nil, fmt.Errorf("target_numbers[%d] is null", i)
			}
			if bf.IsInf() {
				return nil, fmt.Errorf("target_numbers[%d] is not a finite number", i)
			}
			parts[i] = bf.Text('f', -1)
		}
		return json.RawMessage("[" + strings.Join(parts, ",") + "]"), nil
	case !c.TargetValue.IsNull():
		var vals []string
		if d := c.TargetValue.ElementsAs(ctx, &vals, false); d.HasError() {
			return nil, fmt.Errorf("target_value could not be read")
		}
		b, err := json.Marshal(vals)
		return b, err
	}
	return json.RawMessage("[]"), nil
}

// flattenGate stores the service's gate in m. hints (the plan after apply, the prior state on read)
// are matched to the service's rules by name; where the service's value means the same as the
// hint's (null or [] environments, absent or [] conditions, {} or absent return value, equal
// numbers), the hint's form is kept so the configuration and the state never differ in form only.
func flattenGate(ctx context.Context, g *console.Gate, m *gateRulesModel, hints []gateRuleModel) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(m.GateID.ValueString())
	m.IsEnabled = types.BoolValue(g.IsEnabled)
	m.Description = types.StringValue(g.Description)
	m.Status = types.StringValue(g.Status)
	m.LastModifierID = types.StringValue(g.LastModifierID)
	m.LastModifierName = types.StringValue(g.LastModifierName)
	tags := g.Tags
	if tags == nil {
		tags = []string{}
	}
	m.Tags = stringList(tags)

	byName := map[string]*gateRuleModel{}
	for i := range hints {
		if h := &hints[i]; !h.Name.IsUnknown() && !h.Name.IsNull() {
			if _, dup := byName[h.Name.ValueString()]; !dup {
				byName[h.Name.ValueString()] = h
			}
		}
	}
	rules := make([]attr.Value, 0, len(g.Rules))
	for _, r := range g.Rules {
		hint := byName[r.Name]
		delete(byName, r.Name) // a name the service holds twice takes its hint once
		obj, d := flattenRule(ctx, r, hint)
		diags.Append(d...)
		rules = append(rules, obj)
	}
	if diags.HasError() {
		return diags
	}
	m.Rules = types.ListValueMust(gateRuleObjectType, rules)
	return diags
}

func flattenRule(ctx context.Context, r console.GateRule, hint *gateRuleModel) (attr.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	if hint == nil {
		hint = &gateRuleModel{}
	}

	pct := numberFromFloat(r.PassPercentage)
	if hb := hint.PassPercentage.ValueBigFloat(); hb != nil && !hint.PassPercentage.IsUnknown() {
		if f, _ := hb.Float64(); f == r.PassPercentage {
			pct = hint.PassPercentage
		}
	}

	envs := types.ListNull(types.StringType)
	if len(r.Environments) > 0 {
		envs = stringList(r.Environments)
	} else if isEmptyList(hint.Environments) {
		envs = hint.Environments
	}

	hintConds, d := conditionModels(ctx, hint.Conditions)
	diags.Append(d...)
	conds := types.ListNull(gateConditionObjectType)
	if len(r.Conditions) > 0 {
		vals := make([]attr.Value, len(r.Conditions))
		for k, c := range r.Conditions {
			var hc *gateConditionModel
			if k < len(hintConds) {
				hc = &hintConds[k]
			}
			v, err := flattenCondition(c, hc)
			if err != nil {
				diags.AddError("Unable to read a gate rule condition",
					fmt.Sprintf("Rule %q, condition %d: the service's targetValue could not be read: %s", r.Name, k, err))
				return nil, diags
			}
			vals[k] = v
		}
		conds = types.ListValueMust(gateConditionObjectType, vals)
	} else if isEmptyList(hint.Conditions) {
		conds = hint.Conditions
	}

	rv := jsontypes.NewNormalizedNull()
	hintRV := !hint.ReturnValue.IsNull() && !hint.ReturnValue.IsUnknown()
	switch {
	case !isEmptyJSONObject(r.ReturnValue):
		rv = jsontypes.NewNormalizedValue(compactJSON(r.ReturnValue))
		if hintRV {
			if eq, _ := hint.ReturnValue.StringSemanticEquals(ctx, rv); eq {
				rv = hint.ReturnValue // the configuration's formatting and key order
			}
		}
	case hintRV && isEmptyJSONObject(json.RawMessage(hint.ReturnValue.ValueString())):
		rv = hint.ReturnValue
	}

	obj, d := types.ObjectValue(gateRuleAttrTypes, map[string]attr.Value{
		"id":              types.StringValue(r.ID),
		"base_id":         types.StringValue(r.BaseID),
		"name":            types.StringValue(r.Name),
		"pass_percentage": pct,
		"environments":    envs,
		"conditions":      conds,
		"return_value":    rv,
	})
	diags.Append(d...)
	return obj, diags
}

// flattenCondition puts the targets back into the attribute matching their JSON type: all strings
// into target_value, all numbers into target_numbers (exactly), a mix into target_value as strings.
func flattenCondition(c console.Condition, hint *gateConditionModel) (attr.Value, error) {
	if hint == nil {
		hint = &gateConditionModel{}
	}
	tv := types.ListNull(types.StringType)
	tn := types.ListNull(types.NumberType)

	raw := bytes.TrimSpace(c.TargetValue)
	var items []json.RawMessage
	switch {
	case len(raw) == 0 || string(raw) == "null":
	case raw[0] == '[':
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, err
		}
	default:
		items = []json.RawMessage{raw}
	}

	allNumbers := true
	for _, it := range items {
		if jsonKind(it) != '0' || !numberFits(it) {
			allNumbers = false // a number too large to hold as one is read back as its JSON text
		}
	}
	switch {
	case len(items) == 0:
		// Absent and [] mean the same; keep whichever empty list the configuration wrote.
		if isEmptyList(hint.TargetNumbers) {
			tn = hint.TargetNumbers
		} else if isEmptyList(hint.TargetValue) {
			tv = hint.TargetValue
		}
	case allNumbers:
		var hintNums []types.Number
		if !hint.TargetNumbers.IsNull() && !hint.TargetNumbers.IsUnknown() {
			hintNums = make([]types.Number, 0, len(hint.TargetNumbers.Elements()))
			for _, e := range hint.TargetNumbers.Elements() {
				n, _ := e.(types.Number)
				hintNums = append(hintNums, n)
			}
		}
		vals := make([]attr.Value, len(items))
		for i, it := range items {
			bf, err := parseNumber(string(bytes.TrimSpace(it)))
			if err != nil {
				return nil, err
			}
			vals[i] = types.NumberValue(bf)
			if len(hintNums) == len(items) {
				if hb := hintNums[i].ValueBigFloat(); hb != nil && !hintNums[i].IsUnknown() && hb.Cmp(bf) == 0 {
					vals[i] = hintNums[i]
				}
			}
		}
		tn = types.ListValueMust(types.NumberType, vals)
	default: // all strings, or a mix rendered as strings
		l, err := targetValueStrings(raw)
		if err != nil {
			return nil, err
		}
		tv = l
	}

	return types.ObjectValueMust(gateConditionAttrTypes, map[string]attr.Value{
		"type":           types.StringValue(c.Type),
		"operator":       stringOrNull(c.Operator),
		"field":          stringOrNull(c.Field),
		"custom_id":      stringOrNull(c.CustomID),
		"target_value":   tv,
		"target_numbers": tn,
	}), nil
}

// jsonKind classifies a JSON value by its first byte: '"' string, '0' number, other bytes as they are.
func jsonKind(raw json.RawMessage) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	if c := raw[0]; c == '-' || (c >= '0' && c <= '9') {
		return '0'
	}
	return raw[0]
}

// numberFits reports whether a JSON number can be held as a Terraform number without a decimal
// expansion of millions of digits (see decimalFits).
func numberFits(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) > maxNumberText {
		return false
	}
	bf, err := parseNumber(string(raw))
	return err == nil && decimalFits(bf)
}

// parseNumber reads a JSON number at the precision Terraform uses for configuration numbers,
// so that a value read back equals the value written (0.1 stays 0.1).
func parseNumber(s string) (*big.Float, error) {
	bf, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	if err != nil {
		return nil, fmt.Errorf("invalid number %q: %w", s, err)
	}
	return bf, nil
}

func numberFromFloat(f float64) types.Number {
	bf, err := parseNumber(strconv.FormatFloat(f, 'g', -1, 64))
	if err != nil {
		return types.NumberValue(big.NewFloat(f))
	}
	return types.NumberValue(bf)
}

func isEmptyList(l types.List) bool {
	return !l.IsNull() && !l.IsUnknown() && len(l.Elements()) == 0
}

func isEmptyJSONObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return true
	}
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && len(m) == 0
}
