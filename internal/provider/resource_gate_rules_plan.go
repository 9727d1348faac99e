package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// ModifyPlan follows rules by name rather than by list position: a rule whose name is in the prior
// state keeps its base_id in the plan wherever it moves, and keeps its id too unless its content
// changes. The framework alone would match by index, so inserting a rule at the top would show
// every rule below it as changed.
func (r *gateRulesResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return // destroy, or create: every id is unknown until the service assigns it
	}
	var plan, state gateRulesModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !elementsKnown(plan.Rules) || !plan.GateID.Equal(state.GateID) {
		return
	}
	planned, d := ruleModels(ctx, plan.Rules)
	resp.Diagnostics.Append(d...)
	prior, d := ruleModels(ctx, state.Rules)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	matchPriorRules(ctx, planned, prior)
	rules, d := types.ListValueFrom(ctx, gateRuleObjectType, planned)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("rules"), rules)...)
}

// matchPriorRules fills id and base_id of planned rules from the prior rule of the same name.
func matchPriorRules(ctx context.Context, planned, prior []gateRuleModel) {
	byName := map[string]int{}
	for j := len(prior) - 1; j >= 0; j-- { // first occurrence wins
		byName[prior[j].Name.ValueString()] = j
	}
	for i := range planned {
		p := &planned[i]
		p.ID, p.BaseID = types.StringUnknown(), types.StringUnknown()
		if p.Name.IsUnknown() {
			continue
		}
		j, ok := byName[p.Name.ValueString()]
		if !ok {
			continue
		}
		delete(byName, p.Name.ValueString())
		p.BaseID = prior[j].BaseID
		if sameRuleContent(ctx, *p, prior[j]) {
			p.ID = prior[j].ID
		}
	}
}

// sameRuleContent compares two rules as the service will see them; a rule with values unknown
// until apply is never the same.
func sameRuleContent(ctx context.Context, a, b gateRuleModel) bool {
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

func ruleFullyKnown(ctx context.Context, m gateRuleModel) bool {
	for _, v := range []attr.Value{m.Name, m.PassPercentage, m.Environments, m.Conditions, m.ReturnValue} {
		tv, err := v.ToTerraformValue(ctx)
		if err != nil || !tv.IsFullyKnown() {
			return false
		}
	}
	return true
}

// canonicalRule renders the content of a rule (everything but its ids) as sent on the wire, with
// the return value's keys sorted.
func canonicalRule(ctx context.Context, m gateRuleModel) (string, bool) {
	rules, d := expandRules(ctx, []gateRuleModel{m})
	if d.HasError() || len(rules) != 1 {
		return "", false
	}
	r := rules[0]
	r.ID, r.BaseID = "", ""
	dec := json.NewDecoder(bytes.NewReader(r.ReturnValue))
	dec.UseNumber()
	var rv any
	if dec.Decode(&rv) != nil {
		return "", false
	}
	rvb, err := json.Marshal(rv)
	if err != nil {
		return "", false
	}
	r.ReturnValue = rvb
	b, err := json.Marshal(r)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// ValidateConfig checks what single-attribute validators cannot: rule names unique within the gate.
func (r *gateRulesResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var rules types.List
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("rules"), &rules)...)
	if resp.Diagnostics.HasError() || rules.IsNull() || rules.IsUnknown() {
		return
	}
	seen := map[string]int{}
	for i, e := range rules.Elements() {
		obj, ok := e.(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			continue
		}
		n, ok := obj.Attributes()["name"].(types.String)
		if !ok || n.IsNull() || n.IsUnknown() {
			continue
		}
		name := n.ValueString()
		if j, dup := seen[name]; dup {
			resp.Diagnostics.AddAttributeError(path.Root("rules").AtListIndex(i).AtName("name"), "Duplicate rule name",
				fmt.Sprintf("Rule names must be unique within a gate: rules[%d] and rules[%d] are both named %q.", j, i, name))
			continue
		}
		seen[name] = i
	}
}

// elementsKnown reports whether l and each of its elements are known (their contents may not be).
func elementsKnown(l types.List) bool {
	if l.IsNull() || l.IsUnknown() {
		return false
	}
	for _, e := range l.Elements() {
		if e.IsNull() || e.IsUnknown() {
			return false
		}
	}
	return true
}

// passPercentageValidator accepts 0..100 with at most two decimals.
type passPercentageValidator struct{}

func (passPercentageValidator) Description(context.Context) string {
	return "value must be between 0 and 100 with at most two decimals"
}

func (v passPercentageValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (passPercentageValidator) ValidateNumber(_ context.Context, req validator.NumberRequest, resp *validator.NumberResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	bf := req.ConfigValue.ValueBigFloat()
	text := bf.Text('f', -1)
	if bf.Sign() < 0 || bf.Cmp(big.NewFloat(100)) > 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Pass percentage out of range",
			fmt.Sprintf("%s must be between 0 and 100, got %s.", req.Path, text))
		return
	}
	if dot := strings.IndexByte(text, '.'); dot >= 0 && len(text)-dot-1 > 2 {
		resp.Diagnostics.AddAttributeError(req.Path, "Too many decimals in pass percentage",
			fmt.Sprintf("%s may have at most two decimals (such as 12.5 or 33.33), got %s.", req.Path, text))
	}
}

// documentedValue warns about values outside the service's documented set; the service may add more.
func documentedValue(kind string, values []string) validator.String {
	return documentedValueValidator{kind: kind, values: values}
}

type documentedValueValidator struct {
	kind   string
	values []string
}

func (v documentedValueValidator) Description(context.Context) string {
	return fmt.Sprintf("a %s the service documents: %s (others only warn)", v.kind, strings.Join(v.values, ", "))
}

func (v documentedValueValidator) MarkdownDescription(context.Context) string {
	return fmt.Sprintf("a %s the service documents: %s (others only warn)", v.kind, codeList(v.values))
}

func (v documentedValueValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || strings.TrimSpace(req.ConfigValue.ValueString()) == "" {
		return
	}
	if s := req.ConfigValue.ValueString(); !slices.Contains(v.values, s) {
		resp.Diagnostics.AddAttributeWarning(req.Path, fmt.Sprintf("Undocumented %s", v.kind),
			fmt.Sprintf("%q is not a %s the service documents (%s). It is sent as written; the service rejects it if it does not know it.",
				s, v.kind, strings.Join(v.values, ", ")))
	}
}

// jsonObjectValidator requires a JSON object; invalid JSON is reported by the JSON type itself.
type jsonObjectValidator struct{}

func (jsonObjectValidator) Description(context.Context) string { return "value must be a JSON object" }
func (v jsonObjectValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (jsonObjectValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	raw := []byte(req.ConfigValue.ValueString())
	if !json.Valid(raw) {
		return
	}
	if jsonKind(raw) != '{' {
		resp.Diagnostics.AddAttributeError(req.Path, "Return value is not a JSON object",
			fmt.Sprintf("%s must be a JSON object, such as jsonencode({ color = \"blue\" }); got %s.", req.Path, truncateText(string(raw), 80)))
	}
}

func codeList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "`" + v + "`"
	}
	return strings.Join(quoted, ", ")
}

func truncateText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
