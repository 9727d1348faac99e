// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

const gateJSON = `{"id":"a b/c","isEnabled":true,"description":"Checkout","status":"In Progress",` +
	`"lastModifierName":"CONSOLE API","lastModifierID":"u1","tags":["web"],"rules":[` +
	`{"name":"employees","id":"6X:100.00:3","baseID":"6X","passPercentage":12.5,` +
	`"conditions":[{"type":"email","operator":"str_contains_any","targetValue":["@example.com"]},` +
	`{"type":"custom_field","field":"age","operator":"gt","targetValue":[18,2.5]}],` +
	`"returnValue":{"color":"blue"},"environments":null}]}`

var wantGate = &Gate{
	ID: "a b/c", IsEnabled: true, Description: "Checkout", Status: "In Progress",
	LastModifierName: "CONSOLE API", LastModifierID: "u1", Tags: []string{"web"},
	Rules: []Rule{{
		Name: "employees", ID: "6X:100.00:3", BaseID: "6X", PassPercentage: 12.5,
		Conditions: []Condition{
			{Type: "email", Operator: "str_contains_any", TargetValue: json.RawMessage(`["@example.com"]`)},
			{Type: "custom_field", Field: "age", Operator: "gt", TargetValue: json.RawMessage(`[18,2.5]`)},
		},
		ReturnValue: json.RawMessage(`{"color":"blue"}`),
	}},
}

const pipelineJSON = `{"id":"pl/1 x","name":"Web","creatorID":"c1","createdTime":1700000000123,"lastModifierID":"m1",` +
	`"phases":[{"id":"ph1","name":"Canary","timeIntervalMs":3600000,"requiredReview":true,` +
	`"rules":[{"id":"r1","name":"internal","conditions":[{"type":"user_id","operator":"any","targetValue":["42"]}],"environments":null}]}]}`

var wantPipeline = &ReleasePipeline{
	ID: "pl/1 x", Name: "Web", CreatorID: "c1", CreatedTime: 1700000000123, LastModifierID: "m1",
	Phases: []Phase{{ID: "ph1", Name: "Canary", TimeIntervalMs: 3600000, RequiredReview: true,
		Rules: []PipelineRule{{ID: "r1", Name: "internal",
			Conditions: []Condition{{Type: "user_id", Operator: "any", TargetValue: json.RawMessage(`["42"]`)}}}}}},
}

const metricSourceJSON = `{"name":"orders/eu 1","sql":"SELECT 1","timestampColumn":"ts",` +
	`"idTypeMapping":[{"serviceUnitID":"userID","column":"user_id"}],"description":"Orders","tags":["finance"],` +
	`"timestampAsDay":false,"sourceType":"table","tableName":"orders","datePartitionColumn":"ds",` +
	`"customFieldMapping":[{"key":"k","formula":"f"}],"isReadOnly":true,"isVerified":false,` +
	`"owner":{"ownerID":"o1","ownerType":"USER","ownerName":"Ann","ownerEmail":"ann@example.com"},"team":null,"teamID":"t1"}`

var wantMetricSource = &MetricSource{
	Name: "orders/eu 1", SQL: "SELECT 1", TimestampColumn: "ts",
	IDTypeMapping: []IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}},
	Description:   ptr("Orders"), Tags: []string{"finance"}, TimestampAsDay: ptr(false), SourceType: ptr("table"),
	TableName: ptr("orders"), DatePartitionColumn: ptr("ds"), CustomFieldMapping: []CustomFieldMapping{{Key: "k", Formula: "f"}},
	IsReadOnly: ptr(true), IsVerified: ptr(false),
	Owner:  &Owner{OwnerID: "o1", OwnerType: "USER", OwnerName: "Ann", OwnerEmail: "ann@example.com"},
	TeamID: ptr("t1"),
}

func lastPage(data string) reply {
	return reply{Status: 200, Body: `{"message":"ok","data":` + data +
		`,"pagination":{"itemsPerPage":100,"pageNumber":1,"totalItems":1,"nextPage":null,"previousPage":null,"all":"/x"}}`}
}

// TestEndpointsWire checks each of the 11 endpoints on the wire: method, escaped path, query,
// headers, exact request body, and the decoded response.
func TestEndpointsWire(t *testing.T) {
	fullSource := MetricSource{
		Name: "orders/eu 1", SQL: "SELECT 1", TimestampColumn: "ts",
		IDTypeMapping: []IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}},
		Description:   ptr(""), Tags: []string{"finance"}, TimestampAsDay: ptr(false), SourceType: ptr("table"),
		TableName: ptr("orders"), DatePartitionColumn: ptr("ds"), CustomFieldMapping: []CustomFieldMapping{{Key: "k", Formula: "f"}},
		IsReadOnly: ptr(true), IsVerified: ptr(false), Team: ptr("core"), TeamID: ptr("t1"),
		// Owner is read-only: the client never sends it.
		Owner: &Owner{OwnerID: "o1"},
	}
	const fullSourceBody = `{"name":"orders/eu 1","sql":"SELECT 1","timestampColumn":"ts",` +
		`"idTypeMapping":[{"serviceUnitID":"userID","column":"user_id"}],"description":"","tags":["finance"],` +
		`"timestampAsDay":false,"sourceType":"table","tableName":"orders","datePartitionColumn":"ds",` +
		`"customFieldMapping":[{"key":"k","formula":"f"}],"isReadOnly":true,"isVerified":false,"team":"core","teamID":"t1"}`
	minimalSource := MetricSource{Name: "m", SQL: "SELECT 2", TimestampColumn: "ts",
		IDTypeMapping: []IDTypeMapping{{ServiceUnitID: "userID", Column: "uid"}}, DryRun: true}
	const minimalSourceBody = `{"name":"m","sql":"SELECT 2","timestampColumn":"ts",` +
		`"idTypeMapping":[{"serviceUnitID":"userID","column":"uid"}],"tags":[],"customFieldMapping":[],"dryRun":true}`

	cases := []struct {
		name      string
		call      func(context.Context, *Client) (any, error)
		reply     reply
		method    string
		path      string
		query     string
		body      string // "" means no body
		want      any
		wantError bool
	}{
		{
			name:   "1 update release pipeline",
			method: http.MethodPost, path: "/console/v1/release_pipelines/pl%2F1%20x",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateReleasePipeline(ctx, "pl/1 x", ReleasePipelineUpdate{Name: "Web", Phases: []Phase{
					{ID: "ph1", Name: "Canary", TimeIntervalMs: 3600000, RequiredReview: true, Rules: []PipelineRule{
						{ID: "r1", Name: "internal", Conditions: []Condition{{Type: "user_id", Operator: "any", TargetValue: json.RawMessage(`["42"]`)}}},
						{Name: "new", Conditions: []Condition{}, Environments: []string{"staging"}},
					}},
					{Name: "All", TimeIntervalMs: 0},
				}})
			},
			body: `{"name":"Web","phases":[{"id":"ph1","name":"Canary","timeIntervalMs":3600000,"requiredReview":true,"rules":[` +
				`{"id":"r1","name":"internal","conditions":[{"type":"user_id","operator":"any","targetValue":["42"]}],"environments":null},` +
				`{"name":"new","conditions":[],"environments":["staging"]}]},` +
				`{"name":"All","timeIntervalMs":0,"requiredReview":false,"rules":[]}]}`,
			reply: ok(pipelineJSON),
			want:  wantPipeline,
		},
		{
			name:   "1 update release pipeline with nil phases",
			method: http.MethodPost, path: "/console/v1/release_pipelines/p",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateReleasePipeline(ctx, "p", ReleasePipelineUpdate{Name: "Empty"})
			},
			body:  `{"name":"Empty","phases":[]}`,
			reply: ok(`{"id":"p","name":"Empty","phases":[]}`),
			want:  &ReleasePipeline{ID: "p", Name: "Empty", Phases: []Phase{}},
		},
		{
			name:   "2 list users",
			method: http.MethodGet, path: "/console/v1/users", query: "limit=100&page=1",
			call: func(ctx context.Context, c *Client) (any, error) { return c.ListUsers(ctx, ListOptions{}) },
			reply: lastPage(`[{"email":"a@example.com","firstName":"A","lastName":"","role":"admin"},` +
				`{"email":"b@example.com","firstName":"B","lastName":"Bee","role":"member"}]`),
			want: []User{{Email: "a@example.com", FirstName: "A", Role: "admin"}, {Email: "b@example.com", FirstName: "B", LastName: "Bee", Role: "member"}},
		},
		{
			name:   "3 create metric source with every field",
			method: http.MethodPost, path: "/console/v1/metrics/metric_source",
			call:  func(ctx context.Context, c *Client) (any, error) { return c.CreateMetricSource(ctx, fullSource) },
			body:  fullSourceBody,
			reply: ok(metricSourceJSON),
			want:  wantMetricSource,
		},
		{
			name:   "3 create metric source dry run, nil pointers omitted, nil lists sent as []",
			method: http.MethodPost, path: "/console/v1/metrics/metric_source",
			call:  func(ctx context.Context, c *Client) (any, error) { return c.CreateMetricSource(ctx, minimalSource) },
			body:  minimalSourceBody,
			reply: ok(`{"name":"m","sql":"SELECT 2","timestampColumn":"ts","idTypeMapping":[{"serviceUnitID":"userID","column":"uid"}]}`),
			want: &MetricSource{Name: "m", SQL: "SELECT 2", TimestampColumn: "ts",
				IDTypeMapping: []IDTypeMapping{{ServiceUnitID: "userID", Column: "uid"}}},
		},
		{
			name:   "4 list segments",
			method: http.MethodGet, path: "/console/v1/segments", query: "limit=100&page=1",
			call: func(ctx context.Context, c *Client) (any, error) { return c.ListSegments(ctx, ListOptions{}) },
			reply: lastPage(`[{"id":"s1","isEnabled":true,"description":"d","lastModifierName":"n","lastModifierID":"i",` +
				`"type":"rule_based","count":3,"tags":["t"],"rules":{"name":"r","passPercentage":50,` +
				`"conditions":[{"type":"public","targetValue":7}],"returnValue":{"a":1}}},` +
				`{"id":"s2","type":"id_list","count":10,"tags":[],"rules":null}]`),
			want: []Segment{
				{ID: "s1", IsEnabled: true, Description: "d", LastModifierName: "n", LastModifierID: "i", Type: "rule_based", Count: new(WholeNumber(3)),
					Tags: []string{"t"}, Rules: []SegmentRule{{Name: "r", PassPercentage: 50,
						Conditions: []Condition{{Type: "public", TargetValue: json.RawMessage(`7`)}}, ReturnValue: json.RawMessage(`{"a":1}`)}}},
				{ID: "s2", Type: "id_list", Count: new(WholeNumber(10)), Tags: []string{}},
			},
		},
		{
			name:   "5 update gate rules: numbers stay numbers, nil environments are null",
			method: http.MethodPatch, path: "/console/v1/gates/a%20b%2Fc/rules",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateGateRules(ctx, "a b/c", []Rule{{
					BaseID: "6X", Name: "employees", PassPercentage: 12.5,
					Conditions: []Condition{
						{Type: "email", Operator: "str_contains_any", TargetValue: json.RawMessage(`["@example.com"]`)},
						{Type: "custom_field", Field: "age", Operator: "gt", TargetValue: json.RawMessage(`[18,2.5]`)},
						{Type: "unit_id", CustomID: "stableID", TargetValue: json.RawMessage(`["1"]`)},
					},
					ReturnValue: json.RawMessage(`{"color":"blue"}`),
				}, {Name: "everyone", PassPercentage: 0, Conditions: []Condition{{Type: "public"}}, Environments: []string{"production"}}})
			},
			body: `{"rules":[{"baseID":"6X","name":"employees","passPercentage":12.5,"conditions":[` +
				`{"type":"email","operator":"str_contains_any","targetValue":["@example.com"]},` +
				`{"type":"custom_field","operator":"gt","targetValue":[18,2.5],"field":"age"},` +
				`{"type":"unit_id","targetValue":["1"],"customID":"stableID"}],` +
				`"returnValue":{"color":"blue"},"environments":null},` +
				`{"name":"everyone","passPercentage":0,"conditions":[{"type":"public"}],"environments":["production"]}]}`,
			reply: ok(gateJSON),
			want:  wantGate,
		},
		{
			name:   "5 update gate rules with nil sends an empty list",
			method: http.MethodPatch, path: "/console/v1/gates/g/rules",
			call:  func(ctx context.Context, c *Client) (any, error) { return c.UpdateGateRules(ctx, "g", nil) },
			body:  `{"rules":[]}`,
			reply: ok(`{"id":"g","rules":[],"tags":null}`),
			want:  &Gate{ID: "g", Rules: []Rule{}},
		},
		{
			name:   "5 update gate rules: no empty ids, the read-only schedule never sent back; the answer's schedule and pipeline read",
			method: http.MethodPatch, path: "/console/v1/gates/g/rules",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateGateRules(ctx, "g", []Rule{{Name: "ramp", PassPercentage: 10,
					PendingAutomatedRollouts:   []AutomatedRollout{{Time: Millis{Value: 2, Set: true}, PassPercent: 60}},
					CompletedAutomatedRollouts: []AutomatedRollout{{Time: Millis{Value: 1, Set: true}, PassPercent: 30}}}})
			},
			body: `{"rules":[{"name":"ramp","passPercentage":10,"conditions":[],"environments":null}]}`,
			reply: ok(`{"id":"g","releasePipelineID":"pl_web","rules":[{"id":"b:10:2","baseID":"b","name":"ramp","passPercentage":10,` +
				`"conditions":[],"pendingAutomatedRollouts":[{"time":2.0,"passPercent":60}],"completedAutomatedRollouts":[]}]}`),
			want: &Gate{ID: "g", ReleasePipelineID: "pl_web", Rules: []Rule{{ID: "b:10:2", BaseID: "b", Name: "ramp", PassPercentage: 10,
				Conditions: []Condition{}, PendingAutomatedRollouts: []AutomatedRollout{{Time: Millis{Value: 2, Set: true}, PassPercent: 60}},
				CompletedAutomatedRollouts: []AutomatedRollout{}}}},
		},
		{
			name:   "6 list events",
			method: http.MethodGet, path: "/console/v1/events/add%20to%2Fcart", query: "limit=100&page=1",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListEvents(ctx, "add to/cart", ListOptions{})
			},
			reply: lastPage(`[{"timestamp":"1700000000000","name":"add to/cart","source":"web","value":"","userID":"u1","metadata":{}},` +
				`{"timestamp":1700000000001,"name":"add to/cart","source":"sdk","value":12.50,"userID":"u2","metadata":{"sku":"X","qty":2}}]`),
			want: []Event{
				{Timestamp: "1700000000000", Name: "add to/cart", Source: "web", UserID: "u1", Metadata: map[string]json.RawMessage{}},
				{Timestamp: "1700000000001", Name: "add to/cart", Source: "sdk", Value: "12.50", UserID: "u2",
					Metadata: map[string]json.RawMessage{"sku": json.RawMessage(`"X"`), "qty": json.RawMessage(`2`)}},
			},
		},
		{
			name:   "7 read gate",
			method: http.MethodGet, path: "/console/v1/gates/a%20b%2Fc",
			call:  func(ctx context.Context, c *Client) (any, error) { return c.GetGate(ctx, "a b/c") },
			reply: ok(gateJSON),
			want:  wantGate,
		},
		{
			name:   "8 read release pipeline",
			method: http.MethodGet, path: "/console/v1/release_pipelines/pl%2F1%20x",
			call:  func(ctx context.Context, c *Client) (any, error) { return c.GetReleasePipeline(ctx, "pl/1 x") },
			reply: ok(pipelineJSON),
			want:  wantPipeline,
		},
		{
			name:   "9 read metric source",
			method: http.MethodGet, path: "/console/v1/metrics/metric_source/orders%2Feu%201",
			call:  func(ctx context.Context, c *Client) (any, error) { return c.GetMetricSource(ctx, "orders/eu 1") },
			reply: ok(metricSourceJSON),
			want:  wantMetricSource,
		},
		{
			name:   "10 update metric source: name comes from the path argument",
			method: http.MethodPost, path: "/console/v1/metrics/metric_source/orders%2Feu%201",
			call: func(ctx context.Context, c *Client) (any, error) {
				s := fullSource
				s.Name = "ignored"
				return c.UpdateMetricSource(ctx, "orders/eu 1", s)
			},
			body:  fullSourceBody,
			reply: ok(metricSourceJSON),
			want:  wantMetricSource,
		},
		{
			name:   "10 update metric source dry run",
			method: http.MethodPost, path: "/console/v1/metrics/metric_source/m",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateMetricSource(ctx, "m", minimalSource)
			},
			body:  minimalSourceBody,
			reply: ok(`{"name":"m","sql":"SELECT 2","timestampColumn":"ts","idTypeMapping":[]}`),
			want:  &MetricSource{Name: "m", SQL: "SELECT 2", TimestampColumn: "ts", IDTypeMapping: []IDTypeMapping{}},
		},
		{
			name:   "11 delete metric source",
			method: http.MethodDelete, path: "/console/v1/metrics/metric_source/orders%2Feu%201",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.DeleteMetricSource(ctx, "orders/eu 1")
			},
			reply: ok(`{}`),
		},
	}
	for _, review := range []bool{false, true} {
		for _, tc := range cases {
			name := tc.name
			if review {
				name += " (respect review settings)"
			}
			t.Run(name, func(t *testing.T) {
				f := newFake(t, script(tc.reply))
				c := f.client(func(cfg *Config) { cfg.RespectReviewSettings = review })
				got, err := tc.call(context.Background(), c)
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				if tc.want != nil && !reflect.DeepEqual(got, tc.want) {
					t.Errorf("decoded response:\n got %#v\nwant %#v", got, tc.want)
				}
				reqs := f.requests()
				if len(reqs) != 1 {
					t.Fatalf("got %d requests, want 1", len(reqs))
				}
				r := reqs[0]
				if r.Method != tc.method || r.Path != tc.path || r.Query != tc.query {
					t.Errorf("request line: got %s %s?%s, want %s %s?%s", r.Method, r.Path, r.Query, tc.method, tc.path, tc.query)
				}
				if r.Body != tc.body {
					t.Errorf("body:\n got %s\nwant %s", r.Body, tc.body)
				}
				checkHeaders(t, r, tc.body != "", review)
			})
		}
	}
}

func checkHeaders(t *testing.T, r seen, hasBody, review bool) {
	t.Helper()
	if got := r.Header.Values("SERVICE-API-KEY"); len(got) != 1 || got[0] != testKey {
		t.Errorf("SERVICE-API-KEY = %q", got)
	}
	if got := r.Header.Get("Accept"); got != "application/json" {
		t.Errorf("Accept = %q", got)
	}
	if got := r.Header.Get("User-Agent"); got != "featureconsole-test/1.0" {
		t.Errorf("User-Agent = %q", got)
	}
	ct, hasCT := r.Header["Content-Type"]
	if hasBody && (len(ct) != 1 || ct[0] != "application/json") {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	if !hasBody && hasCT {
		t.Errorf("Content-Type %q sent on a request without a body", ct)
	}
	rv, hasRV := r.Header["X-Respect-Review-Settings"]
	if review && (len(rv) != 1 || rv[0] != "true") {
		t.Errorf("x-respect-review-settings = %q, want true", rv)
	}
	if !review && hasRV {
		t.Errorf("x-respect-review-settings sent though not configured: %q", rv)
	}
}

func TestConfiguredUserAgent(t *testing.T) {
	f := newFake(t, script(ok(`{"id":"g"}`)))
	c := f.client(func(cfg *Config) { cfg.UserAgent = "Terraform/1.9.0 terraform-provider-featureconsole/1.2.3" })
	if _, err := c.GetGate(context.Background(), "g"); err != nil {
		t.Fatal(err)
	}
	if got := f.requests()[0].Header.Get("User-Agent"); got != "Terraform/1.9.0 terraform-provider-featureconsole/1.2.3" {
		t.Errorf("User-Agent = %q", got)
	}
}

func TestDefaultUserAgent(t *testing.T) {
	f := newFake(t, script(ok(`{"id":"g"}`)))
	c := f.client(func(cfg *Config) { cfg.UserAgent = "" })
	if _, err := c.GetGate(context.Background(), "g"); err != nil {
		t.Fatal(err)
	}
	if got := f.requests()[0].Header.Get("User-Agent"); got != "terraform-provider-featureconsole/dev" {
		t.Errorf("User-Agent = %q", got)
	}
}

// A gate or pipeline id with characters that mean something in a URL must stay one path segment.
func TestPathEscaping(t *testing.T) {
	cases := map[string]string{
		"plain":       "/console/v1/gates/plain",
		"with space":  "/console/v1/gates/with%20space",
		"a/b":         "/console/v1/gates/a%2Fb",
		"q?x=1#frag":  "/console/v1/gates/q%3Fx=1%23frag",
		"percent%2F":  "/console/v1/gates/percent%252F",
		"ünïcode":     "/console/v1/gates/%C3%BCn%C3%AFcode",
		"semi;colon+": "/console/v1/gates/semi%3Bcolon+",
		".":           "/console/v1/gates/%2E",
		"..":          "/console/v1/gates/%2E%2E",
		"...":         "/console/v1/gates/...",
		"../x":        "/console/v1/gates/..%2Fx",
	}
	for id, want := range cases {
		f := newFake(t, script(ok(`{"id":"x"}`)))
		if _, err := f.client().GetGate(context.Background(), id); err != nil {
			t.Fatalf("%q: %v", id, err)
		}
		if got := f.requests()[0].Path; got != want {
			t.Errorf("GetGate(%q) path = %s, want %s", id, got, want)
		}
	}
}

// An empty id never reaches the wire: it would address the collection.
func TestEmptyIDSendsNothing(t *testing.T) {
	f := newFake(t, script(ok(`{}`)))
	c := f.client()
	ctx := context.Background()
	errs := map[string]error{}
	_, errs["GetGate"] = c.GetGate(ctx, "")
	_, errs["UpdateGateRules"] = c.UpdateGateRules(ctx, "", nil)
	_, errs["GetReleasePipeline"] = c.GetReleasePipeline(ctx, "")
	_, errs["UpdateReleasePipeline"] = c.UpdateReleasePipeline(ctx, "", ReleasePipelineUpdate{})
	_, errs["GetMetricSource"] = c.GetMetricSource(ctx, "")
	_, errs["UpdateMetricSource"] = c.UpdateMetricSource(ctx, "", MetricSource{})
	errs["DeleteMetricSource"] = c.DeleteMetricSource(ctx, "")
	_, errs["ListEvents"] = c.ListEvents(ctx, "", ListOptions{})
	for name, err := range errs {
		if err == nil || !strings.Contains(err.Error(), "identifier is empty") || !strings.HasPrefix(err.Error(), "Unable to ") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if f.count() != 0 {
		t.Errorf("%d requests sent", f.count())
	}
}
