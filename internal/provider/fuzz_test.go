// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The flatten functions turn what the service answers into Terraform values. Whatever the service
// sends (that the client decodes), they must not panic (the framework's ...ValueMust helpers panic
// on a type mismatch), and what they produce without an error must fit the schema. Run one with
// `go test -fuzz FuzzFlattenGate ./internal/provider/`; plain `go test` runs the seeds.

var fuzzConditionSeeds = []string{
	`{"type":"email","operator":"str_contains_any","targetValue":["@example.com"]}`,
	`{"type":"custom_field","field":"age","operator":"gt","targetValue":[18, 12.5, -0, 1e3]}`,
	`{"type":"user_id","operator":"any","targetValue":["42", 42, true, null, {"a":[1]}, [1,"x"]]}`,
	`{"type":"public"}`,
	`{"type":"public","targetValue":null}`,
	`{"type":"country","operator":"any","targetValue":"US"}`,
	`{"type":"time","operator":"after","targetValue":1700000000000}`,
	`{"type":"unit_id","customID":"deviceID","operator":"any","targetValue":[]}`,
	`{"type":"x","targetValue":[1e400, 123456789012345678901234567890, 0.1]}`,
	`{"type":"x","targetValue":{"k":"v"}}`,
	`{"type":"x","targetValue":[" ", "", "\u0000"]}`,
	// Ten bytes each, but ten million digits in plain decimal form (found by fuzzing: minutes of CPU).
	`{"type":"x","targetValue":[1e9999999]}`,
	`{"type":"x","targetValue":[-1e-9999999, "a"]}`,
	`{"type":"x","targetValue":1e999999999}`,
}

func FuzzFlattenGate(f *testing.F) {
	for _, c := range fuzzConditionSeeds {
		f.Add([]byte(`{"id":"g","isEnabled":true,"description":"d","status":"In Progress","tags":["a"],"lastModifierID":"u","lastModifierName":"n",` +
			`"rules":[{"id":"b:100:1","baseID":"b","name":"r","passPercentage":33.33,"environments":["production"],"conditions":[` + c + `],"returnValue":{"color":"blue"}}]}`))
	}
	f.Add([]byte(`{"id":"g","rules":null,"tags":null}`))
	f.Add([]byte(`{"id":"g","rules":[{"name":"a"},{"name":"a"},{"name":""}]}`))
	f.Add([]byte(`{"rules":[{"name":"a","passPercentage":1e308,"returnValue":null,"environments":[]}]}`))
	f.Add([]byte(`{"rules":[{"name":"a","returnValue":"text"},{"name":"b","returnValue":[1,2]},{"name":"c","returnValue":{}}]}`))
	f.Add([]byte(`{"rules":[{"name":"a","passPercentage":-0.0000001,"conditions":[{"type":""}]}]}`))

	ctx := context.Background()
	r := NewGateRulesResource()
	f.Fuzz(func(t *testing.T, data []byte) {
		var g console.Gate
		if json.Unmarshal(data, &g) != nil {
			return
		}
		// As after apply: no hints beyond the gate id.
		m := gateRulesModel{GateID: types.StringValue("g"), rulesFields: rulesFields{Timeouts: nullTimeouts(ctx, r)}}
		if d := flattenGate(ctx, &g, &m, nil); d.HasError() {
			return
		}
		mustFitState(t, r, &m)
		// As on refresh: the state just stored is the hint.
		hints, d := ruleModels(ctx, m.Rules)
		if d.HasError() {
			t.Fatalf("rules stored by flattenGate cannot be read back: %v", d)
		}
		again := gateRulesModel{GateID: m.GateID, rulesFields: rulesFields{Timeouts: m.Timeouts}}
		if d := flattenGate(ctx, &g, &again, hints); d.HasError() {
			t.Fatalf("second flatten with the first as hints failed: %v", d)
		}
		mustFitState(t, r, &again)
		if !again.Rules.Equal(m.Rules) {
			t.Fatalf("refresh of an unchanged gate changes its rules:\n%s\n%s", m.Rules, again.Rules)
		}
	})
}

func FuzzFlattenReleasePipeline(f *testing.F) {
	for _, c := range fuzzConditionSeeds {
		f.Add([]byte(`{"id":"pl","name":"Web","creatorID":"u","createdTime":1700000000000,"lastModifierID":"k","phases":[` +
			`{"id":"p1","name":"Canary","timeIntervalMs":3600000,"requiredReview":true,"rules":[{"id":"r1","name":"internal","environments":["staging"],"conditions":[` + c + `]}]}]}`))
	}
	f.Add([]byte(`{"id":"pl","phases":null}`))
	f.Add([]byte(`{"phases":[{"name":"a","rules":null},{"name":"a","rules":[{"name":"x","environments":null,"conditions":null}]}]}`))
	f.Add([]byte(`{"phases":[{"timeIntervalMs":-1,"createdTime":-9223372036854775808}]}`))

	ctx := context.Background()
	r := NewReleasePipelineResource()
	f.Fuzz(func(t *testing.T, data []byte) {
		var p console.ReleasePipeline
		if json.Unmarshal(data, &p) != nil {
			return
		}
		m := releasePipelineModel{PipelineID: types.StringValue("pl"), Timeouts: nullTimeouts(ctx, r)}
		if d := setPipelineModel(ctx, &m, &p); d.HasError() {
			return
		}
		mustFitState(t, r, &m)
	})
}

func FuzzFlattenMetricSource(f *testing.F) {
	f.Add([]byte(`{"name":"orders","sql":"SELECT 1","timestampColumn":"ts","idTypeMapping":[{"serviceUnitID":"userID","column":"user_id"}],` +
		`"description":"d","tags":["a"],"timestampAsDay":true,"sourceType":"table","tableName":"t","datePartitionColumn":"ds",` +
		`"customFieldMapping":[{"key":"k","formula":"f"}],"isReadOnly":true,"isVerified":true,"team":"T","teamID":"t1",` +
		`"owner":{"ownerID":"o","ownerType":"USER","ownerName":"N","ownerEmail":"e@x"}}`))
	f.Add([]byte(`{"name":"orders"}`))
	f.Add([]byte(`{"name":"","idTypeMapping":null,"tags":null,"customFieldMapping":null,"owner":null,"sourceType":"","team":""}`))
	f.Add([]byte(`{"name":"a","owner":{},"description":null,"timestampAsDay":null,"isReadOnly":false}`))

	ctx := context.Background()
	r := NewMetricSourceResource()
	f.Fuzz(func(t *testing.T, data []byte) {
		var src console.MetricSource
		if json.Unmarshal(data, &src) != nil {
			return
		}
		m := metricSourceModel{Timeouts: nullTimeouts(ctx, r)}
		flattenMetricSource(&src, &m)
		mustFitState(t, r, &m)
		// What was read is what an update would send back: no change seen where there is none.
		back, d := expandMetricSource(ctx, m)
		if d.HasError() {
			t.Fatalf("state from flattenMetricSource cannot be expanded: %v", d)
		}
		if !sameMetricSource(back, src) {
			t.Fatalf("flatten then expand changes the source:\n%+v\n%+v", normalizeMetricSource(src), normalizeMetricSource(back))
		}
	})
}

func FuzzFlattenEvents(f *testing.F) {
	f.Add([]byte(`[{"timestamp":"2024-01-01T00:00:00Z","name":"purchase","source":"server","value":"9.99","userID":"u1",` +
		`"metadata":{"s":"x","n":1.50,"b":true,"o":{"a":[1]},"null":null,"esc":"\u00e9\n\"q\""}}]`))
	f.Add([]byte(`[{"timestamp":1700000000000,"value":12.5,"metadata":null},{"timestamp":null,"value":null,"metadata":{}}]`))
	f.Add([]byte(`[{"timestamp":true,"value":false,"metadata":{"":"","k":"\ud800"}}]`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`null`))

	d := NewEventsDataSource()
	f.Fuzz(func(t *testing.T, data []byte) {
		var events []console.Event
		if json.Unmarshal(data, &events) != nil {
			return
		}
		m := eventsModel{EventName: types.StringValue("e"), MaxRecords: types.Int64Null(), Events: flattenEvents(events)}
		mustFitDataState(t, d, &m)
	})
}

func FuzzFlattenSegments(f *testing.F) {
	for _, c := range fuzzConditionSeeds {
		f.Add([]byte(`[{"id":"s","isEnabled":true,"description":"d","lastModifierName":"n","lastModifierID":"u","type":"rule_based","count":3,"tags":["t"],`+
			`"rules":{"name":"r","passPercentage":100,"conditions":[`+c+`],"returnValue":{"a":1}}}]`), "")
	}
	f.Add([]byte(`[{"id":"s","type":"id_list","rules":null,"tags":null},{"id":"t","type":"rule_based","rules":{"conditions":null,"returnValue":"x"}}]`), "id_list")
	f.Add([]byte(`[{"rules":{"returnValue":null}},{"rules":{"returnValue":[1]}}]`), "")
	f.Add([]byte(`null`), "x")

	d := NewSegmentsDataSource()
	f.Fuzz(func(t *testing.T, data []byte, typ string) {
		var segs []console.Segment
		if json.Unmarshal(data, &segs) != nil {
			return
		}
		m := segmentsModel{Type: types.StringValue(typ), Segments: flattenSegments(segs, typ)}
		mustFitDataState(t, d, &m)
		var users []console.User // the same bytes as users, for the third data source
		if json.Unmarshal(data, &users) == nil {
			um := usersModel{Role: types.StringValue(typ), Users: flattenUsers(users, typ)}
			mustFitDataState(t, NewUsersDataSource(), &um)
		}
	})
}

// A number the service sends as 1e9999999 must not be expanded into its ten million decimal
// digits: not when rendered as a string (pipelines, segments, mixed gate targets), and not by the
// plugin protocol's msgpack encoding, which writes a number that is no exact float64 as decimal text.
func TestFlattenHugeExponentsQuickly(t *testing.T) {
	ctx := context.Background()
	for _, tv := range []string{`[1e9999999]`, `[-1e-9999999]`, `[1e9999999, "a"]`, `1e999999999`, `[1` + strings.Repeat("0", 5000) + `]`} {
		start := time.Now()
		cond := console.Condition{Type: "x", TargetValue: json.RawMessage(tv)}
		g := console.Gate{Rules: []console.Rule{{Name: "r", Conditions: []console.Condition{cond}}}}
		m := gateRulesModel{GateID: types.StringValue("g"), rulesFields: rulesFields{Timeouts: nullTimeouts(ctx, NewGateRulesResource())}}
		failOn(t, flattenGate(ctx, &g, &m, nil))
		mustFitState(t, NewGateRulesResource(), &m)

		p := console.ReleasePipeline{Phases: []console.Phase{{Name: "p", Rules: []console.PipelineRule{{Name: "r", Conditions: []console.Condition{cond}}}}}}
		pm := releasePipelineModel{PipelineID: types.StringValue("pl"), Timeouts: nullTimeouts(ctx, NewReleasePipelineResource())}
		failOn(t, setPipelineModel(ctx, &pm, &p))
		mustFitState(t, NewReleasePipelineResource(), &pm)

		segs := flattenSegments([]console.Segment{{ID: "s", Rules: []console.SegmentRule{{Conditions: []console.Condition{cond}}}}}, "")
		mustFitDataState(t, NewSegmentsDataSource(), &segmentsModel{Type: types.StringNull(), Segments: segs})
		if e := time.Since(start); e > 2*time.Second {
			t.Errorf("%.30s: %s", tv, e)
		}
	}
	// Ordinary numbers keep their shortest decimal form.
	for in, want := range map[string]string{"12.50": "12.5", "1e3": "1000", "-0.000001": "-0.000001", "1e9999999": "1e9999999", "1E+400": "1" + strings.Repeat("0", 400)} {
		if got, err := framework.ShortestDecimal(in); err != nil || got != want {
			t.Errorf("shortestDecimal(%s) = %.40q, %v; want %.40q", in, got, err, want)
		}
	}
}

// mustFitState fails unless m can be stored as r's state and encoded for Terraform as the plugin
// protocol does (msgpack).
func mustFitState(t *testing.T, r fwresource.Resource, m any) {
	t.Helper()
	ctx := context.Background()
	var sr fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &sr)
	st := tfsdk.State{Schema: sr.Schema}
	failOn(t, st.Set(ctx, m))
	mustEncode(t, st)
}

func mustFitDataState(t *testing.T, d datasource.DataSource, m any) {
	t.Helper()
	ctx := context.Background()
	var sr datasource.SchemaResponse
	d.Schema(ctx, datasource.SchemaRequest{}, &sr)
	st := tfsdk.State{Schema: sr.Schema}
	failOn(t, st.Set(ctx, m))
	mustEncode(t, st)
}

func mustEncode(t *testing.T, st tfsdk.State) {
	t.Helper()
	if _, err := tfprotov6.NewDynamicValue(st.Raw.Type(), st.Raw); err != nil {
		t.Fatalf("state cannot be encoded for Terraform: %v", err)
	}
}

func failOn(t *testing.T, d diag.Diagnostics) {
	t.Helper()
	if d.HasError() {
		t.Fatalf("flattened value does not fit the schema: %v", d)
	}
}
