// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

func TestReleasePipelineDelete_warnsAndLeavesPipeline(t *testing.T) {
	ctx := context.Background()
	r := &releasePipelineResource{} // no client: destroy must not need the service
	var sr fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &sr)
	state := tfsdk.State{Schema: sr.Schema}
	diags := state.Set(ctx, &releasePipelineModel{
		ID: types.StringValue("pl_web"), PipelineID: types.StringValue("pl_web"), Name: types.StringValue("Web"),
		Phases:    types.ListValueMust(pipelinePhaseType, []attr.Value{}),
		CreatorID: types.StringValue("u"), CreatedTime: types.Int64Value(1), LastModifierID: types.StringValue("u"),
		Timeouts: nullTimeouts(ctx, r),
	})
	if diags.HasError() {
		t.Fatal(diags)
	}
	resp := fwresource.DeleteResponse{State: state}
	r.Delete(ctx, fwresource.DeleteRequest{State: state}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("delete failed: %v", resp.Diagnostics)
	}
	warnings := resp.Diagnostics.Warnings()
	if len(warnings) != 1 || !strings.Contains(warnings[0].Detail(), `"pl_web"`) || !strings.Contains(warnings[0].Detail(), "leaves the pipeline") {
		t.Fatalf("want one warning naming the pipeline and saying it stays, got %v", warnings)
	}
}

// During a destroy the gate of the run may be gone already: the delete's advice names the run and
// that it blocks the delete, says to abort it or wait and then destroy again, and neither speaks of
// putting the gate's rules back nor of applying.
func TestReleasePipelineDeleteAdvice_runOfDeletedGate(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	run, err := m.StartRun("pl_web", "new_checkout")
	if err != nil {
		t.Fatal(err)
	}
	m.DeleteGate("new_checkout")
	c, err := console.New(console.Config{BaseURL: url, APIKey: mockconsole.DefaultAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	r := &releasePipelineResource{resourceData{data: &providerData{client: c}}}
	got := r.lockAdvice(context.Background(), "pl_web", &console.APIError{StatusCode: 400}, "deleted")
	for _, want := range []string{
		fmt.Sprintf(`Run %q (`, run), `phase "Canary", for gate "new_checkout") of release pipeline "pl_web" is active, and an active run blocks the delete.`,
		"Abort the run (in the console, or with the featureconsole_release_pipeline_trigger action's `abort`) or wait for it to end, " +
			"then run `terraform destroy` again.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("advice lacks %q:\n%s", want, got)
		}
	}
	for _, untrue := range []string{"apply", "previous rules", "rollout"} {
		if strings.Contains(got, untrue) {
			t.Errorf("advice speaks of %q:\n%s", untrue, got)
		}
	}
}

func TestReleasePipelineSchema_markdownEverywhere(t *testing.T) {
	var sr fwresource.SchemaResponse
	(&releasePipelineResource{}).Schema(context.Background(), fwresource.SchemaRequest{}, &sr)
	if sr.Schema.MarkdownDescription == "" {
		t.Fatal("resource has no MarkdownDescription")
	}
	var missing []string
	var walk func(prefix string, attrs map[string]rschema.Attribute)
	walk = func(prefix string, attrs map[string]rschema.Attribute) {
		for name, a := range attrs {
			if a.GetMarkdownDescription() == "" {
				missing = append(missing, prefix+name)
			}
			if ln, ok := a.(rschema.ListNestedAttribute); ok {
				walk(prefix+name+".", ln.NestedObject.Attributes)
			}
		}
	}
	walk("", sr.Schema.Attributes)
	if len(missing) > 0 {
		t.Fatalf("attributes without MarkdownDescription: %v", missing)
	}
}

// Duplicate names are reported on the attribute path of the second occurrence.
func TestReleasePipelineValidateConfig_paths(t *testing.T) {
	ctx := context.Background()
	r := &releasePipelineResource{}
	var sr fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &sr)
	var diags diag.Diagnostics
	phases := framework.ListOf(pipelinePhaseType, []attr.Value{
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("", "A", testPipelineRule("", "x"), testPipelineRule("", "y"), testPipelineRule("", "x")), &diags),
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("", "B"), &diags),
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("", "A"), &diags),
	}, &diags)
	state := tfsdk.State{Schema: sr.Schema}
	diags.Append(state.Set(ctx, &releasePipelineModel{
		ID: types.StringNull(), PipelineID: types.StringValue("pl_web"), Name: types.StringValue("Web"), Phases: phases,
		CreatorID: types.StringNull(), CreatedTime: types.Int64Null(), LastModifierID: types.StringNull(),
		Timeouts: nullTimeouts(ctx, r),
	})...)
	if diags.HasError() {
		t.Fatal(diags)
	}
	var resp fwresource.ValidateConfigResponse
	r.ValidateConfig(ctx, fwresource.ValidateConfigRequest{Config: tfsdk.Config{Schema: sr.Schema, Raw: state.Raw}}, &resp)
	var got []string
	for _, d := range resp.Diagnostics.Errors() {
		if wp, ok := d.(diag.DiagnosticWithPath); ok {
			got = append(got, d.Summary()+" at "+wp.Path().String())
		}
	}
	want := []string{"Duplicate rule name at phases[0].rules[2].name", "Duplicate phase name at phases[2].name"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Fatalf("diagnostics = %q, want %q", got, want)
	}
}

func TestPlanPipelinePhases_idsFollowNames(t *testing.T) {
	ctx := context.Background()
	var diags diag.Diagnostics
	prior := []pipelinePhaseModel{
		testPhase("ph_a", "A", testPipelineRule("pr_1", "one"), testPipelineRule("pr_2", "two")),
		testPhase("ph_b", "B"),
	}
	cfg := framework.ListOf(pipelinePhaseType, []attr.Value{
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("", "New"), &diags),
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("", "B"), &diags),
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("", "A", testPipelineRule("", "two"), testPipelineRule("", "three"), testPipelineRule("pr_9", "one")), &diags),
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("ph_pinned", "Pinned"), &diags),
	}, &diags)
	planned := phaseModels(ctx, planPipelinePhases(ctx, cfg, prior, &diags), &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	wantIDs := []types.String{types.StringUnknown(), types.StringValue("ph_b"), types.StringValue("ph_a"), types.StringValue("ph_pinned")}
	for i, w := range wantIDs {
		if !planned[i].ID.Equal(w) {
			t.Errorf("phase %s id = %s, want %s", planned[i].Name, planned[i].ID, w)
		}
		if !planned[i].RequiredReview.Equal(types.BoolValue(false)) {
			t.Errorf("phase %s required_review = %s, want false", planned[i].Name, planned[i].RequiredReview)
		}
	}
	var rules []pipelineRuleModel
	diags.Append(planned[2].Rules.ElementsAs(ctx, &rules, false)...)
	wantRuleIDs := []types.String{types.StringValue("pr_2"), types.StringUnknown(), types.StringValue("pr_9")}
	for i, w := range wantRuleIDs {
		if !rules[i].ID.Equal(w) {
			t.Errorf("rule %s id = %s, want %s", rules[i].Name, rules[i].ID, w)
		}
		if !rules[i].Environments.Equal(framework.EmptyListOf(types.StringType)) || !rules[i].Conditions.Equal(framework.EmptyListOf(pipelineConditionType)) {
			t.Errorf("rule %s: omitted lists should be planned as [], got %s and %s", rules[i].Name, rules[i].Environments, rules[i].Conditions)
		}
	}
	if !planned[0].Rules.Equal(framework.EmptyListOf(pipelineRuleType)) {
		t.Errorf("omitted rules should be planned as [], got %s", planned[0].Rules)
	}
}

func TestExpandPipelinePhases(t *testing.T) {
	ctx := context.Background()
	var diags diag.Diagnostics
	cond := conditionModel{
		Type: types.StringValue("user_id"), Operator: types.StringValue("any"), Field: types.StringNull(), CustomID: types.StringNull(),
		TargetValue: types.ListValueMust(types.StringType, []attr.Value{types.StringValue("42")}),
	}
	withCond := testPipelineRule("", "internal")
	withCond.Conditions = framework.ListOf(pipelineConditionType, []attr.Value{framework.ObjectOf(ctx, pipelineConditionType, cond, &diags)}, &diags)
	withCond.Environments = types.ListValueMust(types.StringType, []attr.Value{types.StringValue("staging")})
	plan := framework.ListOf(pipelinePhaseType, []attr.Value{
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("", "Canary", withCond, testPipelineRule("", "new")), &diags),
		framework.ObjectOf(ctx, pipelinePhaseType, testPhase("ph_pinned", "GA"), &diags),
	}, &diags)
	existing := []console.Phase{
		{ID: "ph_ga", Name: "GA"},
		{ID: "ph_canary", Name: "Canary", Rules: []console.PipelineRule{{ID: "pr_internal", Name: "internal"}}},
	}
	got, d := expandPipelinePhases(ctx, plan, existing)
	diags.Append(d...)
	if diags.HasError() {
		t.Fatal(diags)
	}
	b, _ := json.Marshal(got)
	want := `[{"id":"ph_canary","name":"Canary","timeIntervalMs":0,"requiredReview":false,"rules":[` +
		`{"id":"pr_internal","name":"internal","conditions":[{"type":"user_id","operator":"any","targetValue":["42"]}],"environments":["staging"]},` +
		`{"name":"new","conditions":[],"environments":[]}]},` +
		`{"id":"ph_pinned","name":"GA","timeIntervalMs":0,"requiredReview":false,"rules":[]}]`
	if string(b) != want {
		t.Fatalf("request phases\n got %s\nwant %s", b, want)
	}
	// Without existing phases (update), unknown ids are sent empty for the service to assign.
	got, _ = expandPipelinePhases(ctx, plan, nil)
	if got[0].ID != "" || got[0].Rules[0].ID != "" || got[1].ID != "ph_pinned" {
		t.Fatalf("update ids = %q %q %q", got[0].ID, got[0].Rules[0].ID, got[1].ID)
	}
}

func TestFlattenPipelinePhases_canonicalEmpties(t *testing.T) {
	ctx := context.Background()
	l, diags := flattenPipelinePhases(ctx, []console.Phase{{
		ID: "ph_1", Name: "P", TimeIntervalMs: 3600000, Rules: []console.PipelineRule{{
			ID: "pr_1", Name: "r", Environments: nil, Conditions: []console.Condition{
				{Type: "public"},
				{Type: "user_id", Operator: "any", TargetValue: json.RawMessage(`[42, "x"]`)},
			},
		}},
	}, {ID: "ph_2", Name: "Q"}})
	if diags.HasError() {
		t.Fatal(diags)
	}
	phases := phaseModels(ctx, l, &diags)
	var rules []pipelineRuleModel
	diags.Append(phases[0].Rules.ElementsAs(ctx, &rules, false)...)
	var conds []conditionModel
	diags.Append(rules[0].Conditions.ElementsAs(ctx, &conds, false)...)
	switch {
	case phases[0].TimeIntervalMs.ValueInt64() != 3600000:
		t.Errorf("time_interval_ms = %s", phases[0].TimeIntervalMs)
	case !rules[0].Environments.Equal(framework.EmptyListOf(types.StringType)):
		t.Errorf("null environments should be [], got %s", rules[0].Environments)
	case !conds[0].TargetValue.Equal(framework.EmptyListOf(types.StringType)) || !conds[0].Operator.IsNull():
		t.Errorf("public condition = %s %s", conds[0].Operator, conds[0].TargetValue)
	case conds[1].TargetValue.String() != `["42","x"]`:
		t.Errorf("numbers should become strings, got %s", conds[1].TargetValue)
	case !phases[1].Rules.Equal(framework.EmptyListOf(pipelineRuleType)):
		t.Errorf("no rules should be [], got %s", phases[1].Rules)
	}
}

func testPhase(id, name string, rules ...pipelineRuleModel) pipelinePhaseModel {
	var diags diag.Diagnostics
	p := pipelinePhaseModel{
		ID: types.StringNull(), Name: types.StringValue(name), TimeIntervalMs: types.Int64Value(0),
		RequiredReview: types.BoolNull(), Rules: types.ListNull(pipelineRuleType),
	}
	if id != "" {
		p.ID = types.StringValue(id)
	}
	if len(rules) > 0 {
		vals := make([]attr.Value, len(rules))
		for i, r := range rules {
			vals[i] = framework.ObjectOf(context.Background(), pipelineRuleType, r, &diags)
		}
		p.Rules = framework.ListOf(pipelineRuleType, vals, &diags)
	}
	return p
}

func testPipelineRule(id, name string) pipelineRuleModel {
	r := pipelineRuleModel{ID: types.StringNull(), Name: types.StringValue(name),
		Environments: types.ListNull(types.StringType), Conditions: types.ListNull(pipelineConditionType)}
	if id != "" {
		r.ID = types.StringValue(id)
	}
	return r
}
