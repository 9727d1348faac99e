// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"net/http"
	"strings"
	"testing"
)

// Schemas travel as text both ways; an older service version answers the object and still takes
// PATCH .../rules.
func TestDynamicConfigSchemaText(t *testing.T) {
	s, ts := NewTestServer(t, Config{NoSeed: true})
	st, b := do(t, ts.URL, http.MethodPost, "/dynamic_configs", `{"id":"cfg1","name":"Cfg","schema":`+schemaString(`{ "type": "object" }`)+`}`)
	if st != 201 || b["data"].(map[string]any)["schema"] != `{"type":"object"}` || b["data"].(map[string]any)["status"] != "Enabled" {
		t.Fatalf("create: %d %v", st, b)
	}
	if _, b := do(t, ts.URL, http.MethodPost, "/dynamic_configs", `{"id":"cfg2","name":"Cfg"}`); b["data"].(map[string]any)["schema"] != nil {
		t.Errorf("no schema answered as %v", b["data"])
	}
	if st, b := do(t, ts.URL, http.MethodPatch, "/dynamic_configs/cfg1", `{"schema":null}`); st != 200 || b["data"].(map[string]any)["schema"] != nil {
		t.Errorf("schema removed: %d %v", st, b)
	}
	if c, _ := s.DynamicConfig("cfg1"); c.Schema != nil {
		t.Errorf("stored %s", c.Schema)
	}
	if err := s.ServeOlderConfigService("cfg1", true); err != nil {
		t.Fatal(err)
	}
	_, _ = do(t, ts.URL, http.MethodPatch, "/dynamic_configs/cfg1", `{"schema":`+schemaString(`{"type":"object"}`)+`}`)
	if st, b := do(t, ts.URL, http.MethodGet, "/dynamic_configs/cfg1", ""); st != 200 || b["data"].(map[string]any)["schema"].(map[string]any)["type"] != "object" {
		t.Errorf("older form: %d %v", st, b)
	}
	if st, b := do(t, ts.URL, http.MethodPatch, "/dynamic_configs/cfg1/rules", `{"rules":[]}`); st != 200 {
		t.Errorf("older route: %d %v", st, b)
	}
}

// PUT /dynamic_configs/{id}/archive: an archived config refuses writes of its fields and rules, naming the archive.
func TestDynamicConfigArchive(t *testing.T) {
	s, ts := NewTestServer(t, Config{NoSeed: true})
	_, _ = do(t, ts.URL, http.MethodPost, "/dynamic_configs", `{"id":"cfg1","name":"Cfg","isEnabled":false}`)
	if st, b := do(t, ts.URL, http.MethodPut, "/dynamic_configs/cfg1/archive", ""); st != 200 || b["data"].(map[string]any)["status"] != "Archived" {
		t.Fatalf("archive: %d %v", st, b)
	}
	for _, w := range []struct{ method, path, body string }{
		{http.MethodPatch, "/dynamic_configs/cfg1", `{"description":"x"}`},
		{http.MethodPatch, "/dynamic_configs/cfg1", `{"rules":[]}`},
		{http.MethodPut, "/dynamic_configs/cfg1/enable", ""},
		{http.MethodPut, "/dynamic_configs/cfg1/archive", ""},
	} {
		if st, b := do(t, ts.URL, w.method, w.path, w.body); st != 400 || !strings.Contains(b["message"].(string), "archived") {
			t.Errorf("%s %s %s: %d %v", w.method, w.path, w.body, st, b)
		}
	}
	if st, b := do(t, ts.URL, http.MethodPut, "/dynamic_configs/cfg1/unarchive", ""); st != 200 || b["data"].(map[string]any)["status"] != "Disabled" {
		t.Fatalf("unarchive: %d %v", st, b)
	}
	if err := s.ArchiveDynamicConfig("cfg1", true); err != nil {
		t.Fatal(err)
	}
	if st, _ := do(t, ts.URL, http.MethodDelete, "/dynamic_configs/cfg1", ""); st != 200 || len(s.DynamicConfigIDs()) != 0 {
		t.Errorf("delete of an archived config: %d", st)
	}
}

// The wire habits of configs: one target app as a bare string, JSON5 copies beside the JSON fields,
// the schema re-serialised; the JSON fields still say the same.
func TestConfigWireHabits(t *testing.T) {
	s, ts := NewTestServer(t, Config{NoSeed: true})
	s.SetHabits(Habits{BareTargetApps: true, JSON5Copies: true, SchemaReserialised: true})
	s.PutDynamicConfig(DynamicConfig{ID: "cfg1", TargetApps: []string{"web"}, DefaultValue: []byte(`{"text":"Hi"}`),
		Schema: []byte(`{"type":"object","minProperties":1}`), Rules: []Rule{{Name: "r", PassPercentage: 5, ReturnValue: map[string]any{"text": "Yo"}}}})
	st, b := do(t, ts.URL, http.MethodGet, "/dynamic_configs/cfg1", "")
	d := b["data"].(map[string]any)
	rule := d["rules"].([]any)[0].(map[string]any)
	if st != 200 || d["targetApps"] != "web" || d["schema"] != `{"type":"object","minProperties":1.0}` ||
		!strings.Contains(d["schemaJson5"].(string), "type: 'object',") || !strings.Contains(d["defaultValueJson5"].(string), "text: 'Hi',") ||
		!strings.Contains(rule["returnValueJson5"].(string), "text: 'Yo',") {
		t.Errorf("answered %d %v", st, d)
	}
	if HabitNames()[0] == "" || !strings.Contains(strings.Join(HabitNames(), ","), "JSON5Copies") {
		t.Errorf("habit names %v", HabitNames())
	}
}
