// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestDynamicConfigWire checks a config's operations on the wire: methods, escaped paths, the bodies (create
// carries the id and no rules, an update only the fields set, rules as gate rules) and that answers
// without a body are completed by a read.
func TestDynamicConfigWire(t *testing.T) {
	cfg := `{"id":"c 1","name":"C","isEnabled":true,"defaultValue":{"a":1},"schema":{"type":"object"},"rules":[],"version":"3"}`
	name, enabled := "C", false
	dv := json.RawMessage(`{"a":1}`)
	cases := []struct {
		name       string
		call       func(context.Context, *Client) (*DynamicConfig, error)
		replies    []reply
		method     string
		path, body string
		requests   int
	}{
		{"create", func(ctx context.Context, c *Client) (*DynamicConfig, error) {
			return c.CreateDynamicConfig(ctx, DynamicConfigFields{ID: "c 1", Name: &name, DefaultValue: &dv})
		}, []reply{{Status: 201, Body: `{"message":"created","data":` + cfg + `}`}}, http.MethodPost, "/console/v1/dynamic_configs",
			`{"id":"c 1","name":"C","defaultValue":{"a":1}}`, 1},
		{"create answered without a body", func(ctx context.Context, c *Client) (*DynamicConfig, error) {
			return c.CreateDynamicConfig(ctx, DynamicConfigFields{ID: "c 1"})
		}, []reply{{Status: 201}, ok(cfg)}, http.MethodPost, "/console/v1/dynamic_configs", `{"id":"c 1"}`, 2},
		{"update own fields", func(ctx context.Context, c *Client) (*DynamicConfig, error) {
			return c.UpdateDynamicConfig(ctx, "c 1", DynamicConfigFields{ID: "ignored", IsEnabled: &enabled})
		}, []reply{ok(cfg)}, http.MethodPatch, "/console/v1/dynamic_configs/c%201", `{"isEnabled":false}`, 1},
		{"update detaches the pipeline with null", func(ctx context.Context, c *Client) (*DynamicConfig, error) {
			return c.UpdateDynamicConfig(ctx, "c 1", DynamicConfigFields{ReleasePipelineID: Unlinked()})
		}, []reply{ok(cfg)}, http.MethodPatch, "/console/v1/dynamic_configs/c%201", `{"releasePipelineID":null}`, 1},
		{"rules", func(ctx context.Context, c *Client) (*DynamicConfig, error) {
			return c.UpdateDynamicConfigRules(ctx, "c 1", []Rule{{Name: "r", PassPercentage: 50, ReturnValue: json.RawMessage(`{"b":2}`),
				PendingAutomatedRollouts: []AutomatedRollout{{PassPercent: 1}}}})
		}, []reply{ok(cfg)}, http.MethodPatch, "/console/v1/dynamic_configs/c%201",
			`{"rules":[{"name":"r","passPercentage":50,"conditions":[],"returnValue":{"b":2},"environments":null}]}`, 1},
		{"archive", func(ctx context.Context, c *Client) (*DynamicConfig, error) {
			return c.ArchiveDynamicConfig(ctx, "c 1")
		}, []reply{ok(cfg)}, http.MethodPut, "/console/v1/dynamic_configs/c%201/archive", `{}`, 1},
		{"unarchive", func(ctx context.Context, c *Client) (*DynamicConfig, error) {
			return c.UnarchiveDynamicConfig(ctx, "c 1")
		}, []reply{ok(cfg)}, http.MethodPut, "/console/v1/dynamic_configs/c%201/unarchive", `{}`, 1},
		{"enable", func(ctx context.Context, c *Client) (*DynamicConfig, error) {
			return c.SetDynamicConfigEnabled(ctx, "c 1", true)
		},
			[]reply{{Status: 200}, ok(cfg)}, http.MethodPut, "/console/v1/dynamic_configs/c%201/enable", ``, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, script(tc.replies...))
			d, err := tc.call(context.Background(), f.client())
			if err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			if len(reqs) != tc.requests || reqs[0].Method != tc.method || reqs[0].Path != tc.path || reqs[0].Body != tc.body {
				t.Fatalf("sent %+v", reqs)
			}
			if tc.requests > 1 && (reqs[1].Method != http.MethodGet || reqs[1].Path != "/console/v1/dynamic_configs/c%201") {
				t.Errorf("read back with %s %s", reqs[1].Method, reqs[1].Path)
			}
			if d.ID != "c 1" || string(d.DefaultValue) != `{"a":1}` || d.Version != 3 {
				t.Errorf("got %+v", d)
			}
		})
	}
}

// TestDynamicConfigJSONForms: a default value or schema kept as a JSON document in a string reads
// as the object; null and "" read as none.
func TestDynamicConfigJSONForms(t *testing.T) {
	var d DynamicConfig
	if err := json.Unmarshal([]byte(`{"defaultValue":"{\"a\": 1}","schema":null}`), &d); err != nil {
		t.Fatal(err)
	}
	if string(d.DefaultValue) != `{"a": 1}` || d.Schema != nil {
		t.Fatalf("got %q, %q", d.DefaultValue, d.Schema)
	}
	if err := json.Unmarshal([]byte(`{"defaultValue":"","schema":{"type":"object"}}`), &d); err != nil {
		t.Fatal(err)
	}
	if d.DefaultValue != nil || string(d.Schema) != `{"type":"object"}` {
		t.Fatalf("got %q, %q", d.DefaultValue, d.Schema)
	}
}

// TestDynamicConfigSchemaOnTheWire: POST /dynamic_configs, the schema is sent as a string holding its text, null
// for none, or left out; never an object, never {}.
func TestDynamicConfigSchemaOnTheWire(t *testing.T) {
	for _, c := range []struct {
		schema *SchemaText
		want   string
	}{
		{nil, `{"id":"cfg"}`},
		{&NoSchema, `{"id":"cfg","schema":null}`},
		{&SchemaText{Text: `{"type":"object"}`}, `{"id":"cfg","schema":"{\"type\":\"object\"}"}`},
	} {
		b, err := json.Marshal(DynamicConfigFields{ID: "cfg", Schema: c.schema})
		if err != nil || string(b) != c.want {
			t.Errorf("sent %s (%v), want %s", b, err, c.want)
		}
	}
}

// TestTargetAppsForms: targetApps as a list, one bare string, "" or null, for configs and gates.
func TestTargetAppsForms(t *testing.T) {
	for raw, want := range map[string][]string{
		`{"targetApps":["web","ios"]}`: {"web", "ios"}, `{"targetApps":"web"}`: {"web"}, `{"targetApps":""}`: nil,
		`{"targetApps":null}`: nil, `{}`: nil, `{"targetApps":[]}`: {},
	} {
		var d DynamicConfig
		var g Gate
		if err := json.Unmarshal([]byte(raw), &d); err != nil || !slices.Equal(d.TargetApps, want) {
			t.Errorf("config %s: %q %v", raw, d.TargetApps, err)
		}
		if err := json.Unmarshal([]byte(raw), &g); err != nil || !slices.Equal(g.TargetApps, want) {
			t.Errorf("gate %s: %q %v", raw, g.TargetApps, err)
		}
	}
	var d DynamicConfig
	if err := json.Unmarshal([]byte(`{"targetApps":7}`), &d); err == nil {
		t.Error("a number read as target apps")
	}
	// A config read with its JSON5 copies and a re-serialised schema: the JSON fields are what counts.
	if err := json.Unmarshal([]byte(`{"schema":"{\"type\":\"object\"}","schemaJson5":"{type: 'object',}","status":"Archived"}`), &d); err != nil ||
		string(d.Schema) != `{"type":"object"}` || !d.Archived() {
		t.Errorf("got %+v, %v", d, err)
	}
}

// TestRouteMissingIsNotGone: a 404 of a route the service does not serve is no "not found" of the
// object: a write there must never read as "the config is gone".
func TestRouteMissingIsNotGone(t *testing.T) {
	f := newFake(t, script(
		reply{Status: 404, Body: `{"statusCode":404,"message":"Cannot PATCH /console/v1/dynamic_configs/cfg","error":"Not Found"}`},
		reply{Status: 404, Body: `{"status":404,"message":"Dynamic config \"cfg\" not found"}`}))
	_, err := f.client().UpdateDynamicConfigRules(context.Background(), "cfg", nil)
	if NotFound(err) || !strings.Contains(err.Error(), "Cannot PATCH") {
		t.Errorf("route missing read as gone: %v", err)
	}
	if _, err = f.client().UpdateDynamicConfigRules(context.Background(), "cfg", nil); !NotFound(err) {
		t.Errorf("the config's own 404: %v", err)
	}
}

// TestDynamicConfigDeleteAndErrors: DELETE on the config's path; a refusal names the operation,
// the config, the status and the service's words.
func TestDynamicConfigDeleteAndErrors(t *testing.T) {
	f := newFake(t, script(reply{Status: 400, Body: `{"status":400,"message":"rules[0].returnValue: missing property 'title'"}`}, ok(`{}`)))
	c := f.client()
	_, err := c.UpdateDynamicConfigRules(context.Background(), "cfg", nil)
	if err == nil || !strings.Contains(err.Error(), `update rules of dynamic config "cfg"`) || !strings.Contains(err.Error(), "400") ||
		!strings.Contains(err.Error(), "missing property 'title'") {
		t.Fatalf("error: %v", err)
	}
	if err := c.DeleteDynamicConfig(context.Background(), "cfg"); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if reqs[0].Body != `{"rules":[]}` || reqs[1].Method != http.MethodDelete || reqs[1].Path != "/console/v1/dynamic_configs/cfg" {
		t.Fatalf("sent %+v", reqs)
	}
}

// TestTriggerFilterDynamicConfig: GET /release_pipeline_triggers with dynamicConfigID, the runs of a config; a run carries dynamicConfigID.
func TestTriggerFilterDynamicConfig(t *testing.T) {
	f := newFake(t, script(reply{Status: 200, Body: `{"message":"ok","data":[{"id":"rpt_1","dynamicConfigID":"cfg","status":"IN_PROGRESS"}],` +
		`"pagination":{"itemsPerPage":100,"pageNumber":1,"totalItems":1,"nextPage":null}}`}))
	runs, err := f.client().ListReleasePipelineTriggers(context.Background(), TriggerFilter{DynamicConfigID: "cfg", Statuses: []string{TriggerInProgress}}, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].DynamicConfigID != "cfg" || runs[0].GateID != "" {
		t.Fatalf("runs %+v", runs)
	}
	if q := f.requests()[0].Query; !strings.Contains(q, "dynamicConfigID=cfg") || !strings.Contains(q, "status=IN_PROGRESS") {
		t.Errorf("query %q", q)
	}
}
