// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/apidoc"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The import guide's promise: for objects that exist in the console, import blocks and
// `terraform plan -generate-config-out=generated.tf` write a configuration that plans clean: the
// plan of the generated configuration imports each object and changes nothing, apply sends no
// write, the next plan is empty, and so is the plan of the configuration tidied as the guide says.
// One configuration imports every case, so that each command serves them all.
func TestAccGenerateConfig(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	// A target list of strings and numbers mixed, as rules written in the console hold them (the
	// document's targetValue is a list of one or the other).
	m.ServeBeyondDocument("/targetValue")
	// Terraform before 1.9.3 cannot generate configuration for nested objects holding computed
	// attributes (hashicorp/terraform#35478, and #34463 crashes): the import guide says so.
	cli := newTFCLI(t, featGenerateConfig)
	var imports strings.Builder
	for _, tc := range generateConfigCases {
		if tc.seed != nil {
			tc.seed(m)
		}
		fmt.Fprintf(&imports, "\nimport {\n  to = %s.%s\n  id = %q\n}\n", tc.typ, tc.name, tc.id)
	}
	cli.write("main.tf", providerBlock(url)+imports.String())
	cli.must("init", "-input=false", "-no-color")
	cli.must("plan", "-input=false", "-no-color", "-generate-config-out=generated.tf")
	gen := cli.read("generated.tf")
	t.Logf("generated configuration:\n%s", gen)
	for _, tc := range generateConfigCases {
		if block := fmt.Sprintf("resource %q %q {", tc.typ, tc.name); !strings.Contains(gen, block) {
			t.Errorf("generated.tf has no %s", block)
		}
	}
	cli.importsOnlyThenEmpty(m, gen, len(generateConfigCases))

	// The import guide's tidying: no null arguments, no pinned pipeline ids, no default
	// validate_on_plan; the import blocks have done their work.
	cli.write("main.tf", providerBlock(url))
	cli.write("generated.tf", tidyRe.ReplaceAllString(gen, ""))
	if code, out := cli.run([]int{0, 2}, "plan", "-input=false", "-no-color", "-detailed-exitcode"); code != 0 {
		t.Errorf("the tidied configuration plans changes:\n%s", out)
	}
}

// generateConfigCase is one object TestAccGenerateConfig imports with generated configuration.
type generateConfigCase struct {
	name, typ, id string
	seed          func(*mockconsole.Server)
}

var generateConfigCases = []generateConfigCase{
	{name: "gate_rules_seeded", typ: "featureconsole_gate_rules", id: "new_checkout"},
	{name: "gate_rules_no_rules", typ: "featureconsole_gate_rules", id: "dark_mode"},
	{name: "gate_rules_every_field", typ: "featureconsole_gate_rules", id: "gate_001", seed: func(m *mockconsole.Server) {
		g, _ := m.Gate("gate_001")
		g.Rules = []mockconsole.Rule{
			{
				Name: "mixed targets", PassPercentage: 33.33, Environments: []string{"staging", "production"},
				Conditions: []mockconsole.Condition{
					{Type: "country", Operator: "any", TargetValue: []any{"US", "CA"}},
					{Type: "custom_field", Operator: "gte", Field: "age", TargetValue: []any{json.Number("18.5"), json.Number("21")}},
					{Type: "unit_id", Operator: "any", CustomID: "stableID", TargetValue: []any{"a", json.Number("2")}},
					{Type: "public"},
				},
				ReturnValue: map[string]any{"nested": map[string]any{"b": true, "a": []any{json.Number("1"), "x"}}},
			},
			{Name: "nobody", PassPercentage: 0, Environments: []string{}, ReturnValue: map[string]any{}},
		}
		m.PutGate(g)
	}},
	// The objects whose only nested attribute is timeouts: generated as every other.
	{name: "gate_seeded", typ: "featureconsole_gate", id: "search_v2"},
	// A gate served to target apps set in the console (one of them: a bare string on the live wire).
	{name: "gate_target_apps", typ: "featureconsole_gate", id: "tfacc_apps", seed: func(m *mockconsole.Server) {
		m.PutGate(mockconsole.Gate{ID: "tfacc_apps", Name: "Served to web", TargetApps: []string{"web"}})
	}},
	{name: "dynamic_config_seeded", typ: "featureconsole_dynamic_config", id: "homepage_banner"},
	{name: "dynamic_config_rules_variants", typ: "featureconsole_dynamic_config_rules", id: "homepage_banner", seed: func(m *mockconsole.Server) {
		c, _ := m.DynamicConfig("homepage_banner")
		c.Rules[0].Variants = []mockconsole.Variant{
			{Name: "control", PassPercentage: 66.67, ReturnValue: map[string]any{"text": "Willkommen", "color": "red"}},
			{Name: "green", PassPercentage: 33.33, ReturnValue: map[string]any{"text": "Hallo", "color": "green"}},
		}
		m.PutDynamicConfig(c)
	}},
	{name: "release_pipeline_seeded", typ: "featureconsole_release_pipeline", id: "pl_web"},
	{name: "release_pipeline_no_phases", typ: "featureconsole_release_pipeline", id: "pl_api"},
	{name: "metric_source_console_created", typ: "featureconsole_metric_source", id: "orders", seed: func(m *mockconsole.Server) {
		m.PutMetricSource(mockconsole.MetricSource{
			Name: "orders", SQL: "SELECT user_id, ts, amount FROM orders", TimestampColumn: "ts",
			IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}, {ServiceUnitID: "stableID", Column: "device"}},
			Description:   "Orders table", Tags: []string{"finance", "core"}, TimestampAsDay: true,
			SourceType: "table", TableName: "warehouse.orders", DatePartitionColumn: "ds",
			CustomFieldMapping: []mockconsole.CustomFieldMapping{{Key: "revenue_cents", Formula: "amount * 100"}},
			IsReadOnly:         true, IsVerified: true, Team: new("Payments"), TeamID: new("team_7"),
			Owner: &mockconsole.Owner{OwnerID: "user_1", OwnerType: "USER", OwnerName: "Ada Lovelace", OwnerEmail: "ada@example.com"},
		})
	}},
	// The statuses the service sets itself (an experiment archived in the console, or stopped by the
	// service, allocation 0 once it assigns no one): generated as they stand.
	{name: "experiment_archived", typ: "featureconsole_experiment", id: "tfacc_archived", seed: seedExperimentIn(mockconsole.ExperimentArchived, 50)},
	{name: "experiment_stopped", typ: "featureconsole_experiment", id: "tfacc_experiment_stopped", seed: seedExperimentIn(mockconsole.ExperimentStopped, 50)},
	{name: "experiment_assignment_stopped", typ: "featureconsole_experiment", id: "tfacc_assignment_stopped", seed: seedExperimentIn(mockconsole.AssignmentStopped, 0)},
	{name: "metric_warehouse_console_made", typ: "featureconsole_metric", id: "revenue::user_warehouse", seed: func(m *mockconsole.Server) {
		m.PutMetric(mockconsole.Metric{Name: "revenue", Type: "user_warehouse", Description: "Revenue per user",
			Directionality: "increase", Tags: []string{"checkout", "finance"}, UnitTypes: []string{"userID", "stableID"},
			IsVerified: true, Team: new("Payments"),
			WarehouseNative: &mockconsole.WarehouseNative{Aggregation: "ratio", MetricSourceName: "orders", ValueColumn: "amount",
				Criteria:               []mockconsole.MetricCriterion{{Type: "value", Column: "amount", Condition: ">", Values: []string{"0"}}, {Type: "user", Column: "country", Condition: "is_null"}},
				DenominatorAggregation: "count", DenominatorMetricSourceName: "orders", MetricDimensionColumns: []string{"country"}}})
	}},
	{name: "metric_event_console_made", typ: "featureconsole_metric", id: "Checkout Purchases::event_count_custom", seed: func(m *mockconsole.Server) {
		m.PutMetric(mockconsole.Metric{Name: "Checkout Purchases", Type: "event_count_custom", Directionality: "decrease",
			MetricEvents: []mockconsole.MetricEvent{
				{Name: "purchase", Type: new("metadata"), MetadataKey: "price", Criteria: []mockconsole.MetricCriterion{{Type: "metadata", Column: "currency", Condition: "in", Values: []string{"EUR"}}}},
				{Name: "refund"},
			}})
	}},
	{name: "segment_rule_based_seeded", typ: "featureconsole_segment", id: "segment_04"},
	{name: "segment_id_list_seeded", typ: "featureconsole_segment", id: "segment_03"},
	// A key made in the console, imported by its fingerprint: the secret is never the import id.
	{name: "key_console_made", typ: "featureconsole_key", id: console.Fingerprint("server-generated-config"), seed: func(m *mockconsole.Server) {
		m.PutKey(mockconsole.Key{Key: "server-generated-config", Type: "SERVER", Description: "made in the console",
			Scopes: []string{}, Environments: []string{"production"}})
	}},
	// A target app and a tag made in the console, imported by id.
	{name: "target_app_console_made", typ: "featureconsole_target_app", id: "ta_mobile", seed: func(m *mockconsole.Server) {
		m.PutTargetApp(mockconsole.TargetApp{ID: "ta_mobile", Name: "mobile", Description: "the iOS and Android apps"})
	}},
	{name: "tag_console_made", typ: "featureconsole_tag", id: "tag_growth", seed: func(m *mockconsole.Server) {
		m.PutTag(mockconsole.Tag{ID: "tag_growth", Name: "growth", Description: "the growth team's", IsCore: true})
	}},
	{name: "tag_without_description", typ: "featureconsole_tag", id: "tag_plain", seed: func(m *mockconsole.Server) {
		m.PutTag(mockconsole.Tag{ID: "tag_plain", Name: "plain"})
	}},
	{name: "metric_source_minimal", typ: "featureconsole_metric_source", id: "signups", seed: func(m *mockconsole.Server) {
		m.PutMetricSource(mockconsole.MetricSource{
			Name: "signups", SQL: "SELECT * FROM signups", TimestampColumn: "created_at",
			IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}},
		})
	}},
}

// The version tables say which Terraform release generates configuration for every resource: each
// resource has a case of TestAccGenerateConfig that proves it.
func TestGenerateConfigCases_everyResource(t *testing.T) {
	ctx := context.Background()
	p := newTestProvider()
	for _, f := range p.Resources(ctx) {
		name := typeName(ctx, f())
		if !slices.ContainsFunc(generateConfigCases, func(c generateConfigCase) bool { return c.typ == name }) {
			t.Errorf("%s has no case in generateConfigCases", name)
		}
	}
}

// seedExperimentIn seeds the experiment tfacc_<status>, started and in the status given.
func seedExperimentIn(status string, allocation float64) func(*mockconsole.Server) {
	return func(m *mockconsole.Server) {
		m.PutExperiment(mockconsole.Experiment{ID: "tfacc_" + status, Status: status, Allocation: allocation, StartTime: 1761955200000,
			Groups: []mockconsole.ExperimentGroup{
				{Name: "Control", Size: 50, ParameterValues: []byte(`{"color":"grey"}`)},
				{Name: "Green", Size: 50, ParameterValues: []byte(`{"color":"green","size":2.0}`)},
			}})
	}
}

var tidyRe = regexp.MustCompile(`(?m)^\s*(\w+\s*=\s*null|id\s*=\s*"[^"]*"|validate_on_plan\s*=\s*true)\s*\n`)

// An import block with an identity and `plan -generate-config-out`, as the import guide shows them
// (Terraform 1.12+, and OpenTofu 1.12, which does both): the generated configuration imports
// without a write and plans clean afterwards.
func TestAccGenerateConfig_identityImportBlock(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	cli := newTFCLI(t, featIdentity, featGenerateConfig)
	cli.write("main.tf", providerBlock(url)+`
import {
  to       = featureconsole_gate_rules.checkout
  identity = { gate_id = "new_checkout" }
}
`)
	cli.must("init", "-input=false", "-no-color")
	cli.must("plan", "-input=false", "-no-color", "-generate-config-out=generated.tf")
	if gen := cli.read("generated.tf"); !strings.Contains(gen, `resource "featureconsole_gate_rules" "checkout"`) {
		t.Fatalf("generated.tf:\n%s", gen)
	}
	if got := cli.planActions()["featureconsole_gate_rules.checkout"]; got.actions != "no-op" || !got.importing {
		t.Fatalf("the generated configuration plans %s, want a no-op import", got)
	}
	m.ResetRequests()
	cli.must("apply", "-input=false", "-no-color", "tfplan")
	for _, r := range m.Requests() {
		if r.Method != http.MethodGet {
			t.Fatalf("importing with the generated configuration sent %s %s", r.Method, r.Path)
		}
	}
	if code, out := cli.run([]int{0, 2}, "plan", "-input=false", "-no-color", "-detailed-exitcode"); code != 0 {
		t.Fatalf("the plan after the import is not empty:\n%s", out)
	}
}

// The service's document's own GET example of each object the provider manages, imported with
// `plan -generate-config-out` from a service that answers exactly as the examples do (no
// controlGroupID, a group without an id, "" for no targeting gate, a segment's rules as one object,
// fields left out): the generated configuration plans only the imports, apply sends no write, and
// the plan after is empty.
func TestAccGenerateConfig_documentedExamples(t *testing.T) {
	t.Parallel()
	mockOnly(t, "it serves the document's examples")
	cli := newTFCLI(t, featGenerateConfig)
	doc := apidoc.MustLoad()
	rec := &recorder{next: doc.ExampleHandler("id_list")}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)

	cases := []struct{ typ, route, key string }{
		{"featureconsole_gate", "GET /console/v1/gates/{id}", "id"},
		{"featureconsole_experiment", "GET /console/v1/experiments/{id}", "id"},
		{"featureconsole_release_pipeline", "GET /console/v1/release_pipelines/{id}", "id"},
		{"featureconsole_metric_source", "GET /console/v1/metrics/metric_source/{name}", "name"},
		{"featureconsole_segment", "GET /console/v1/segments/{id}", "id"}, // the id_list example
		{"featureconsole_dynamic_config", "GET /console/v1/dynamic_configs/{id}", "id"},
		{"featureconsole_metric", "GET /console/v1/metrics/{id}", "id"},
	}
	var imports strings.Builder
	for _, tc := range cases {
		id := exampleField(t, doc, tc.route, "id_list", tc.key)
		fmt.Fprintf(&imports, "\nimport {\n  to = %s.documented\n  id = %q\n}\n", tc.typ, id)
	}
	cli.write("main.tf", providerBlock(srv.URL)+imports.String())
	cli.must("init", "-input=false", "-no-color")
	cli.must("plan", "-input=false", "-no-color", "-generate-config-out=generated.tf")
	gen := cli.read("generated.tf")
	t.Logf("generated configuration:\n%s", gen)
	cli.importsOnlyThenEmpty(rec, gen, len(cases))
}

// exampleField is a field of the data of a route's first 2xx example (the named one, where the
// route has several).
func exampleField(t *testing.T, doc *apidoc.Document, route, name, field string) string {
	t.Helper()
	var found *apidoc.Example
	for _, ex := range doc.Examples() {
		if ex.Route == route && (found == nil || ex.Name == name) {
			found = &ex
		}
	}
	if found == nil {
		t.Fatalf("the document has no example of %s", route)
	}
	data, _ := found.Value.(map[string]any)["data"].(map[string]any)
	v, _ := data[field].(string)
	if v == "" {
		t.Fatalf("the example of %s has no data.%s", route, field)
	}
	return v
}

// recorder logs the requests a handler serves, as the mock's log does.
type recorder struct {
	next http.Handler
	mu   sync.Mutex
	log  []mockconsole.Request
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.log = append(r.log, mockconsole.Request{Method: req.Method, Path: req.URL.Path, RawQuery: req.URL.RawQuery})
	r.mu.Unlock()
	r.next.ServeHTTP(w, req)
}

func (r *recorder) ResetRequests() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log = nil
}

func (r *recorder) Requests() []mockconsole.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.log)
}
