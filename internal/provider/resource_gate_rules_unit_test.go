// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// hclNumber is a number as Terraform reads it from configuration.
func hclNumber(t *testing.T, s string) types.Number {
	t.Helper()
	bf, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	return types.NumberValue(bf)
}

func numberList(t *testing.T, nums ...string) types.List {
	vals := make([]attr.Value, len(nums))
	for i, n := range nums {
		vals[i] = hclNumber(t, n)
	}
	return types.ListValueMust(types.NumberType, vals)
}

func TestGateRulesFlattenConditionTargets(t *testing.T) {
	emptyStrings := types.ListValueMust(types.StringType, nil)
	emptyNumbers := types.ListValueMust(types.NumberType, nil)
	cases := []struct {
		name        string
		raw         string
		hint        *ruleConditionModel
		wantValue   types.List
		wantNumbers types.List
	}{
		{"strings", `["a","b"]`, nil, framework.StringList([]string{"a", "b"}), types.ListNull(types.NumberType)},
		{"numbers", `[12.5,100,0.1,-3,1e3]`, nil, types.ListNull(types.StringType), numberList(t, "12.5", "100", "0.1", "-3", "1000")},
		{"mixed", `["a",5,1.50,true]`, nil, framework.StringList([]string{"a", "5", "1.5", "true"}), types.ListNull(types.NumberType)},
		{"scalar", `"x"`, nil, framework.StringList([]string{"x"}), types.ListNull(types.NumberType)},
		{"absent", ``, nil, types.ListNull(types.StringType), types.ListNull(types.NumberType)},
		{"empty, no hint", `[]`, nil, types.ListNull(types.StringType), types.ListNull(types.NumberType)},
		{"empty, hint []", `[]`, &ruleConditionModel{conditionModel: conditionModel{TargetValue: emptyStrings}, TargetNumbers: types.ListNull(types.NumberType)}, emptyStrings, types.ListNull(types.NumberType)},
		{"null, hint numbers []", `null`, &ruleConditionModel{conditionModel: conditionModel{TargetValue: types.ListNull(types.StringType)}, TargetNumbers: emptyNumbers}, types.ListNull(types.StringType), emptyNumbers},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := flattenRuleCondition(console.Condition{Type: "user_id", TargetValue: json.RawMessage(c.raw)}, c.hint)
			if err != nil {
				t.Fatal(err)
			}
			attrs := v.(types.Object).Attributes()
			if got := attrs["target_value"]; !got.Equal(c.wantValue) {
				t.Errorf("target_value = %s, want %s", got, c.wantValue)
			}
			if got := attrs["target_numbers"]; !got.Equal(c.wantNumbers) {
				t.Errorf("target_numbers = %s, want %s", got, c.wantNumbers)
			}
			if !attrs["operator"].IsNull() || !attrs["field"].IsNull() || !attrs["custom_id"].IsNull() {
				t.Errorf("empty strings should read as null: %v", attrs)
			}
		})
	}
}

// Numbers read back equal exactly what the configuration wrote, so no diff ever shows.
func TestGateRulesNumbersRoundTrip(t *testing.T) {
	ctx := context.Background()
	for _, s := range []string{"12.5", "100", "0.1", "33.33", "0", "-7.25", "1e3", "0.30"} {
		cfg := hclNumber(t, s)
		tv, err := expandTargets(ctx, ruleConditionModel{conditionModel: conditionModel{TargetValue: types.ListNull(types.StringType)}, TargetNumbers: types.ListValueMust(types.NumberType, []attr.Value{cfg})})
		if err != nil {
			t.Fatal(err)
		}
		v, err := flattenRuleCondition(console.Condition{Type: "custom_field", TargetValue: tv}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := v.(types.Object).Attributes()["target_numbers"].(types.List).Elements()[0]
		if !got.Equal(cfg) {
			t.Errorf("%s: wire %s, read back %s", s, tv, got)
		}
		f, _ := cfg.ValueBigFloat().Float64() // pass_percentage travels as a float64
		if pct := framework.NumberFromFloat(f); !pct.Equal(cfg) {
			t.Errorf("%s: pass_percentage read back %s", s, pct)
		}
	}
}

func TestGateRulesExpandTargets(t *testing.T) {
	ctx := context.Background()
	null := ruleConditionModel{conditionModel: conditionModel{TargetValue: types.ListNull(types.StringType)}, TargetNumbers: types.ListNull(types.NumberType)}
	numbers := null
	numbers.TargetNumbers = numberList(t, "12.5", "100", "0.1")
	strs := null
	strs.TargetValue = framework.StringList([]string{"18", "a\"b"})
	for _, c := range []struct {
		in   ruleConditionModel
		want string
	}{{null, `[]`}, {numbers, `[12.5,100,0.1]`}, {strs, `["18","a\"b"]`}} {
		got, err := expandTargets(ctx, c.in)
		if err != nil || string(got) != c.want {
			t.Errorf("expandTargets = %s, %v; want %s", got, err, c.want)
		}
	}
}

func testRule(t *testing.T, name, pct string) ruleModel {
	return ruleModel{
		ID: types.StringValue("id-" + name), BaseID: types.StringValue("base-" + name),
		Name: types.StringValue(name), PassPercentage: hclNumber(t, pct),
		Environments:      types.ListNull(types.StringType),
		Conditions:        types.ListNull(ruleConditionObjectType),
		ReturnValue:       framework.NewJSONNull(),
		ScheduledRollouts: types.ListNull(scheduledRolloutType),
	}
}

func TestGateRulesSameRuleContent(t *testing.T) {
	ctx := context.Background()
	base := testRule(t, "a", "50")
	same := []func(*ruleModel){
		func(r *ruleModel) { r.Environments = types.ListValueMust(types.StringType, nil) },
		func(r *ruleModel) { r.Conditions = types.ListValueMust(ruleConditionObjectType, nil) },
		func(r *ruleModel) { r.ReturnValue = framework.NewJSONValue(`{ }`) },
		func(r *ruleModel) { r.ID, r.BaseID = types.StringUnknown(), types.StringNull() },
	}
	for i, f := range same {
		r := base
		f(&r)
		if !sameRuleContent(ctx, base, r) {
			t.Errorf("same[%d]: rules differ", i)
		}
	}
	rv := base
	rv.ReturnValue = framework.NewJSONValue(`{"b":1,"a":2}`)
	rv2 := base
	rv2.ReturnValue = framework.NewJSONValue(`{ "a": 2, "b": 1 }`)
	if !sameRuleContent(ctx, rv, rv2) {
		t.Error("key order made rules differ")
	}

	cond := func(tv, tn types.List) types.List {
		return types.ListValueMust(ruleConditionObjectType, []attr.Value{types.ObjectValueMust(ruleConditionObjectType.AttrTypes, map[string]attr.Value{
			"type": types.StringValue("custom_field"), "operator": types.StringValue("gt"), "field": types.StringValue("age"),
			"custom_id": types.StringNull(), "target_value": tv, "target_numbers": tn,
		})})
	}
	asStrings, asNumbers := base, base
	asStrings.Conditions = cond(framework.StringList([]string{"18"}), types.ListNull(types.NumberType))
	asNumbers.Conditions = cond(types.ListNull(types.StringType), numberList(t, "18"))
	pct := base
	pct.PassPercentage = hclNumber(t, "50.5")
	unknown := base
	unknown.Environments = types.ListUnknown(types.StringType)
	for name, r := range map[string]ruleModel{"percentage": pct, "unknown": unknown, "strings": asStrings} {
		other := base
		if name == "strings" {
			other = asNumbers
		}
		if sameRuleContent(ctx, other, r) {
			t.Errorf("%s: rules compare the same", name)
		}
	}
}

func TestGateRulesMatchPriorRules(t *testing.T) {
	ctx := context.Background()
	prior := []ruleModel{testRule(t, "a", "10"), testRule(t, "b", "20"), testRule(t, "c", "30")}
	planned := []ruleModel{testRule(t, "new", "1"), testRule(t, "c", "30"), testRule(t, "a", "11"), testRule(t, "b", "20")}
	for i := range planned {
		planned[i].ID, planned[i].BaseID = types.StringUnknown(), types.StringUnknown()
	}
	matchPriorRules(ctx, planned, prior)
	// The list is written: the service may give every rule a new id, so none is promised; base ids are.
	want := []struct{ id, base string }{{"?", "?"}, {"?", "base-c"}, {"?", "base-a"}, {"?", "base-b"}}
	got := func(s types.String) string {
		if s.IsUnknown() {
			return "?"
		}
		return s.ValueString()
	}
	for i, w := range want {
		if got(planned[i].ID) != w.id || got(planned[i].BaseID) != w.base {
			t.Errorf("planned[%d] = %s/%s, want %s/%s", i, got(planned[i].ID), got(planned[i].BaseID), w.id, w.base)
		}
	}

	// The same list as before, rule for rule: nothing is written, every id is kept.
	same := []ruleModel{testRule(t, "a", "10"), testRule(t, "b", "20"), testRule(t, "c", "30")}
	matchPriorRules(ctx, same, prior)
	for i, r := range same {
		if got(r.ID) != got(prior[i].ID) || got(r.BaseID) != got(prior[i].BaseID) {
			t.Errorf("unchanged[%d] = %s/%s, want %s/%s", i, got(r.ID), got(r.BaseID), got(prior[i].ID), got(prior[i].BaseID))
		}
	}
	// Reordered only: still a write, ids unknown.
	moved := []ruleModel{testRule(t, "b", "20"), testRule(t, "a", "10"), testRule(t, "c", "30")}
	matchPriorRules(ctx, moved, prior)
	for i, r := range moved {
		if !r.ID.IsUnknown() {
			t.Errorf("reordered[%d] promises id %s", i, r.ID)
		}
	}
}

func TestGateRulesFlattenGateKeepsConfigForms(t *testing.T) {
	ctx := context.Background()
	hint := testRule(t, "a", "0.1")
	hint.Environments = types.ListValueMust(types.StringType, nil)
	hint.Conditions = types.ListValueMust(ruleConditionObjectType, nil)
	hint.ReturnValue = framework.NewJSONValue(`{}`)
	hintB := testRule(t, "b", "1")
	hintB.ReturnValue = framework.NewJSONValue(`{"z": 1, "y": 2}`)
	g := &console.Gate{ID: "g", Rules: []console.Rule{
		{ID: "2", BaseID: "B", Name: "b", PassPercentage: 1, ReturnValue: json.RawMessage(`{"y":2,"z":1}`)},
		{ID: "1", BaseID: "A", Name: "a", PassPercentage: 0.1, ReturnValue: json.RawMessage(`{}`)},
		{ID: "3", BaseID: "C", Name: "c", PassPercentage: 5, Conditions: []console.Condition{}, ReturnValue: json.RawMessage(`{}`)},
	}}
	m := gateRulesModel{GateID: types.StringValue("g")}
	if d := flattenGate(ctx, g, &m, []ruleModel{hint, hintB}); d.HasError() {
		t.Fatal(d)
	}
	rules, _ := ruleModels(ctx, m.Rules)
	if r := rules[1]; !r.Environments.Equal(hint.Environments) || !r.Conditions.Equal(hint.Conditions) || !r.ReturnValue.Equal(hint.ReturnValue) || !r.PassPercentage.Equal(hint.PassPercentage) {
		t.Errorf("rule a lost the configuration's forms: %+v", r)
	}
	if r := rules[0]; !r.ReturnValue.Equal(hintB.ReturnValue) {
		t.Errorf("rule b return value %s, want the configuration's %s", r.ReturnValue, hintB.ReturnValue)
	}
	if r := rules[2]; !r.Environments.IsNull() || !r.Conditions.IsNull() || !r.ReturnValue.IsNull() {
		t.Errorf("rule c without hint should read empties as null: %+v", r)
	}
	if m.OnActiveRun.ValueString() != onActiveRunFail {
		t.Errorf("on_active_run %s, want the default %q", m.OnActiveRun, onActiveRunFail)
	}
}

func TestGateRulesPassPercentageValidator(t *testing.T) {
	ctx := context.Background()
	for s, wantErr := range map[string]string{
		"0": "", "100": "", "12.5": "", "33.33": "", "0.01": "", "99.99": "",
		"100.01": "between 0 and 100", "-0.5": "between 0 and 100", "12.345": "at most two decimals", "0.001": "at most two decimals",
	} {
		resp := &validator.NumberResponse{}
		framework.PassPercentageValidator{}.ValidateNumber(ctx, validator.NumberRequest{Path: path.Root("p"), ConfigValue: hclNumber(t, s)}, resp)
		got := ""
		if resp.Diagnostics.HasError() {
			got = resp.Diagnostics.Errors()[0].Detail()
		}
		if (wantErr == "") != (got == "") || !strings.Contains(got, wantErr) {
			t.Errorf("%s: error %q, want %q", s, got, wantErr)
		}
	}
}

func TestGateRulesDocumentedValueWarns(t *testing.T) {
	ctx := context.Background()
	v := framework.KnownValue("condition type", conditionTypes, "", true)
	for s, warn := range map[string]bool{"email": false, "target_app": false, "shiny_new_type": true} {
		resp := &validator.StringResponse{}
		v.ValidateString(ctx, validator.StringRequest{Path: path.Root("type"), ConfigValue: types.StringValue(s)}, resp)
		if resp.Diagnostics.HasError() || (resp.Diagnostics.WarningsCount() == 1) != warn {
			t.Errorf("%s: diagnostics %v, want warning %v", s, resp.Diagnostics, warn)
		}
	}
}

func TestGateRulesJSONObjectValidator(t *testing.T) {
	ctx := context.Background()
	for s, wantErr := range map[string]bool{`{}`: false, `{"a":[1]}`: false, `[1]`: true, `"x"`: true, `3`: true, `null`: true, `{bad`: false} {
		resp := &validator.StringResponse{}
		framework.JSONObject().ValidateString(ctx, validator.StringRequest{Path: path.Root("r"), ConfigValue: types.StringValue(s)}, resp)
		if resp.Diagnostics.HasError() != wantErr {
			t.Errorf("%s: error %v, want %v", s, resp.Diagnostics.HasError(), wantErr)
		}
	}
}

// Pass percentages are read at two decimals, float noise dropped, so that they equal the
// configuration's and pass its validator.
func TestPercentFromFloat(t *testing.T) {
	for in, want := range map[float64]string{
		33.330000000000005: "33.33", 12.5: "12.5", 100: "100", 0: "0", 0.1 + 0.2: "0.3", 99.99: "99.99",
	} {
		got := framework.PercentFromFloat(in).ValueBigFloat().Text('f', -1)
		if got != want {
			t.Errorf("percentFromFloat(%v) = %s, want %s", in, got, want)
		}
		resp := &validator.NumberResponse{}
		framework.PassPercentageValidator{}.ValidateNumber(context.Background(), validator.NumberRequest{Path: path.Root("p"), ConfigValue: framework.PercentFromFloat(in)}, resp)
		if resp.Diagnostics.HasError() {
			t.Errorf("percentFromFloat(%v) fails the validator: %v", in, resp.Diagnostics)
		}
	}
}

// A rule's schedule reads as the steps made, then the steps to come; none is [], never null.
func TestGateRulesFlattenSchedule(t *testing.T) {
	r := console.Rule{
		CompletedAutomatedRollouts: []console.AutomatedRollout{{Time: console.Millis{Value: 1767225600000, Set: true}, PassPercent: 30}},
		PendingAutomatedRollouts:   []console.AutomatedRollout{{Time: console.Millis{Value: 1767229200000, Set: true}, PassPercent: 60.5}},
	}
	got := flattenSchedule(r).String()
	want := `[{"done":true,"pass_percentage":30,"time":"2026-01-01T00:00:00Z"},{"done":false,"pass_percentage":60.5,"time":"2026-01-01T01:00:00Z"}]`
	if got != want {
		t.Errorf("schedule = %s\nwant %s", got, want)
	}
	if none := flattenSchedule(console.Rule{}); none.IsNull() || len(none.Elements()) != 0 {
		t.Errorf("no schedule = %s, want []", none)
	}
	// Planned: unknown when the list is written, the prior schedule when nothing is.
	prior := []ruleModel{testRule(t, "a", "10")}
	prior[0].ScheduledRollouts = flattenSchedule(r)
	changed := []ruleModel{testRule(t, "a", "11")}
	matchPriorRules(context.Background(), changed, prior)
	if !changed[0].ScheduledRollouts.IsUnknown() {
		t.Errorf("a written rule promises its schedule %s", changed[0].ScheduledRollouts)
	}
	same := []ruleModel{testRule(t, "a", "10")}
	matchPriorRules(context.Background(), same, prior)
	if !same[0].ScheduledRollouts.Equal(prior[0].ScheduledRollouts) {
		t.Errorf("an unchanged rule's schedule = %s", same[0].ScheduledRollouts)
	}
}

// on_active_run = "wait": the update timeout may run out while a read of the run is under way
// (a slow service, or a busy machine), and that says the same as running out between two reads:
// where the run was last seen and what to do, not a failed read.
func TestWaitForRun_timeoutDuringRead(t *testing.T) {
	var reads atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reads.Add(1)
		<-r.Context().Done() // the read outlasts the operation's budget
	}))
	t.Cleanup(srv.Close)
	c, err := console.New(console.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: 1, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	r := gateRulesWith(&providerData{client: c, runPollInterval: time.Millisecond})
	var diags diag.Diagnostics
	ctx, op, cancel, _ := framework.NewOperation(context.Background(), "update", 300*time.Millisecond, nil)
	defer cancel()
	run := &console.ReleasePipelineTrigger{ID: "rpt_1", Status: console.TriggerInProgress, CurrentPhase: "Canary"}
	if gateRulesTarget.waitForRun(ctx, op, r.data, "new_checkout", run, &diags) {
		t.Fatal("the wait reported the run ended")
	}
	if reads.Load() == 0 {
		t.Fatal("the run was never read")
	}
	if len(diags) != 1 {
		t.Fatalf("diagnostics %v, want one error", diags)
	}
	d := diags[0]
	if want := `Stopped waiting for release pipeline run "rpt_1" of gate "new_checkout"`; d.Summary() != want {
		t.Errorf("summary %q, want %q", d.Summary(), want)
	}
	for _, want := range []string{"The update timeout (300ms) ran out", `Last state seen: IN_PROGRESS at phase "Canary"`, `on_active_run = "abort"`} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("detail lacks %q:\n%s", want, d.Detail())
		}
	}
}

// on_active_run = "abort": a refusal of the rules that is not the run's lock (a rule the service
// finds invalid) is reported as it is, and the run rolling out is left alone; a refusal that
// names the active run (its id, as the service and the mock do) is the lock and aborts it. Words
// of a rollout that name no active run are not the lock: the runs decide, not the wording.
func TestWriteRules_onlyTheLockAbortsTheRun(t *testing.T) {
	const lock = `Gate "new_checkout" is being rolled out by release pipeline trigger "rpt_1": its rules cannot change until it ends`
	for msg, wantAbort := range map[string]bool{
		`rules[0].conditions[0].operator "any" is not valid for type "time"`: false,
		`rules[0].name "checkout beta" duplicates rules[1].name`:             false,
		lock: true,
		`Rules of this gate cannot change until rpt_1 has ended`:                      true,
		`The gate's rules are locked while a rollout is in progress`:                  false,
		`Gate "new_checkout" is being rolled out by release pipeline trigger "rpt_0"`: false,
	} {
		t.Run(msg, func(t *testing.T) {
			var mu sync.Mutex
			var patches, aborts int
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				switch {
				case r.Method == http.MethodPatch && strings.HasSuffix(r.URL.Path, "/gates/new_checkout/rules"):
					patches++
					if patches == 1 || aborts == 0 {
						w.WriteHeader(http.StatusBadRequest)
						_ = json.NewEncoder(w).Encode(map[string]any{"status": 400, "message": msg})
						return
					}
					_, _ = w.Write([]byte(`{"data":{"id":"new_checkout","rules":[]}}`))
				case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/release_pipeline_triggers"):
					_, _ = w.Write([]byte(`{"data":[{"id":"rpt_1","gateID":"new_checkout","releasePipelineID":"pl_web","status":"IN_PROGRESS","currentPhase":"Canary"}]}`))
				case r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/release_pipeline_triggers/rpt_1/abort"):
					aborts++
					_, _ = w.Write([]byte(`{"data":{"id":"rpt_1","gateID":"new_checkout","status":"ABORTED","actions":[{"type":"ABORT"}]}}`))
				default:
					w.WriteHeader(http.StatusNotFound)
					_, _ = w.Write([]byte(`{"status":404,"message":"not here"}`))
				}
			}))
			t.Cleanup(srv.Close)
			c, err := console.New(console.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: 1, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			r := gateRulesWith(&providerData{client: c})
			ctx, op, cancel, _ := framework.NewOperation(context.Background(), "update", 10*time.Second, nil)
			defer cancel()
			var diags diag.Diagnostics
			_, superseded, err := r.target.writePastRun(ctx, op, r.data, "new_checkout", []console.Rule{}, onActiveRunAbort, &diags)
			mu.Lock()
			defer mu.Unlock()
			if wantAbort {
				if err != nil || diags.HasError() || superseded == nil || superseded.ID != "rpt_1" || aborts != 1 || patches != 2 {
					t.Errorf("the lock: err %v, diags %v, superseded %v, %d aborts, %d writes; want rpt_1 aborted and the rules written", err, diags, superseded, aborts, patches)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "400") && !strings.Contains(err.Error(), msg) || superseded != nil || aborts != 0 || patches != 1 {
				t.Errorf("another refusal: err %v, superseded %v, %d aborts, %d writes; want the refusal, no abort, one write", err, superseded, aborts, patches)
			}
		})
	}
}

// gateRulesWith is featureconsole_gate_rules configured with data.
func gateRulesWith(data *providerData) *gateRulesResource {
	r := NewGateRulesResource().(*gateRulesResource)
	r.data = data
	return r
}
