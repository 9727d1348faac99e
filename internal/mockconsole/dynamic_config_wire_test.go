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

// Row 46: an archived config refuses writes of its fields and rules, naming the archive.
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
