// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// refreshGates is the configuration of n gates tfacc_many_001.. with their rules (one rule each).
func refreshGates(url string, n int) string {
	var b strings.Builder
	// 300 writes meet the idle-connection drops of the live service's habits often enough for one
	// write to be dropped five times: more retries keep this test about reads.
	b.WriteString(providerBlock(url, "max_retries = 10"))
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("tfacc_many_%03d", i)
		fmt.Fprintf(&b, `
resource "featureconsole_gate" %[1]q {
  gate_id     = %[1]q
  description = "gate %[2]d"
}

resource "featureconsole_gate_rules" %[1]q {
  gate_id = featureconsole_gate.%[1]s.gate_id
  rules = [{
    name            = "employees"
    pass_percentage = %[2]d
    conditions      = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]
  }]
}
`, id, i%100)
	}
	return b.String()
}

// unlistedGates serves the mock with the gates of hidden left out of GET /gates, as the service
// leaves out archived gates, while GET /gates/{id} still reads them.
type unlistedGates struct {
	m      *mockconsole.Server
	mu     sync.Mutex
	hidden map[string]bool
}

func (u *unlistedGates) hide(id string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.hidden[id] = true
}

func (u *unlistedGates) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || r.URL.Path != "/console/v1/gates" {
		u.m.ServeHTTP(w, r)
		return
	}
	r.Header.Del("Accept-Encoding") // a body the filter can read
	rec := httptest.NewRecorder()
	u.m.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var env map[string]any
	if rec.Code == http.StatusOK && dec.Decode(&env) == nil {
		if list, ok := env["data"].([]any); ok {
			u.mu.Lock()
			env["data"] = slices.DeleteFunc(list, func(g any) bool {
				obj, _ := g.(map[string]any)
				id, _ := obj["id"].(string)
				return u.hidden[id]
			})
			u.mu.Unlock()
			body, _ = json.Marshal(env)
		}
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.Header().Del("Content-Length")
	w.WriteHeader(rec.Code)
	_, _ = io.Copy(w, bytes.NewReader(body))
}

// gateReadsOf counts the GETs of gates the mock answered: single reads and list pages.
func gateReadsOf(m *mockconsole.Server) (reads, pages, writes int) {
	for _, r := range m.Requests() {
		p := strings.TrimPrefix(r.Path, "/console/v1")
		switch {
		case r.Method != http.MethodGet:
			writes++
		case p == "/gates":
			pages++
		case strings.HasPrefix(p, "/gates/"):
			reads++
		}
	}
	return reads, pages, writes
}

// A refresh of 150 gates, each declared with its rules, at the service's latency reads them from
// list pages: at most 40 GETs where one read per resource made 300. The plan stays exact: a
// description changed, a rule list emptied, a gate archived (left out of the list, still read)
// or deleted in the console between two applies each shows in the next plan, although the provider
// server stays up across the commands.
func TestAccRefresh_manyGates(t *testing.T) {
	t.Parallel()
	mockOnly(t, "it counts the mock's requests")
	const n = 150
	m := mockconsole.New(mockconsole.Config{Latency: 10 * time.Millisecond})
	h, err := mockconsole.HabitsFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	m.SetHabits(h)
	srv := &unlistedGates{m: m, hidden: map[string]bool{}}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)

	c := newTFCLI(t)
	c.write("main.tf", refreshGates(ts.URL, n))
	c.must("apply", "-input=false", "-no-color", "-auto-approve")

	m.ResetRequests()
	if code, out := c.run([]int{0, 2}, "plan", "-input=false", "-no-color", "-detailed-exitcode"); code != 0 {
		t.Fatalf("the plan after apply is not empty:\n%s", out)
	}
	reads, pages, writes := gateReadsOf(m)
	t.Logf("refresh of %d gates with their rules: %d reads, %d list pages", n, reads, pages)
	if reads+pages > 40 || writes > 0 {
		t.Errorf("the refresh sent %d reads, %d list pages and %d writes; want at most 40 GETs and no write", reads, pages, writes)
	}

	edit := func(id string, change func(*mockconsole.Gate)) {
		g, ok := m.Gate(id)
		if !ok {
			t.Fatalf("no gate %s", id)
		}
		change(&g)
		m.PutGate(g)
	}
	edit("tfacc_many_005", func(g *mockconsole.Gate) { g.Description = "edited in the console" })
	edit("tfacc_many_077", func(g *mockconsole.Gate) { g.Rules = nil })
	edit("tfacc_many_120", func(g *mockconsole.Gate) { g.Status, g.Description = "Archived", "archived in the console" })
	srv.hide("tfacc_many_120")
	m.DeleteGate("tfacc_many_140")

	got := map[string]string{}
	for addr, ch := range c.planActions() {
		got[addr] = ch.actions
	}
	want := map[string]string{
		"featureconsole_gate.tfacc_many_005":       "update",
		"featureconsole_gate_rules.tfacc_many_077": "update",
		"featureconsole_gate.tfacc_many_120":       "update",
		"featureconsole_gate.tfacc_many_140":       "create",
		"featureconsole_gate_rules.tfacc_many_140": "create",
	}
	for addr, action := range got {
		if action != "no-op" && want[addr] == "" {
			t.Errorf("%s: planned %s, want no change", addr, action)
		}
	}
	for addr, action := range want {
		if got[addr] != action {
			t.Errorf("%s: planned %q, want %q", addr, got[addr], action)
		}
	}
	if t.Failed() {
		return
	}
	c.must("apply", "-input=false", "-no-color", "tfplan")
	if g, _ := m.Gate("tfacc_many_077"); len(g.Rules) != 1 {
		t.Errorf("the emptied rule list was not put back: %+v", g.Rules)
	}
	if code, out := c.run([]int{0, 2}, "plan", "-input=false", "-no-color", "-detailed-exitcode"); code != 0 {
		t.Errorf("the plan after the repair is not empty:\n%s", out)
	}

	c.must("destroy", "-input=false", "-no-color", "-auto-approve")
	for _, id := range m.GateIDs() {
		if strings.HasPrefix(id, "tfacc_many_") {
			t.Errorf("gate %s left after destroy", id)
		}
	}
}

// A gate declared with its rules is read once per refresh: the two resources share the read.
func TestAccRefresh_oneReadPerRefresh(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{Latency: 10 * time.Millisecond})
	c := newTFCLI(t)
	c.write("main.tf", refreshGates(url, 1))
	c.must("apply", "-input=false", "-no-color", "-auto-approve")
	m.ResetRequests()
	if code, out := c.run([]int{0, 2}, "plan", "-input=false", "-no-color", "-detailed-exitcode"); code != 0 {
		t.Fatalf("the plan after apply is not empty:\n%s", out)
	}
	if reads, pages, writes := gateReadsOf(m); reads != 1 || pages != 0 || writes != 0 {
		t.Errorf("the refresh of one gate with its rules sent %d reads, %d list pages and %d writes; want one read", reads, pages, writes)
	}
	// A change made in the console after that refresh shows in the next one.
	g, _ := m.Gate("tfacc_many_001")
	g.Description = "edited in the console"
	m.PutGate(g)
	if code, _ := c.run([]int{0, 2}, "plan", "-input=false", "-no-color", "-detailed-exitcode"); code != 2 {
		t.Errorf("the console's change did not show in the next plan")
	}
	c.must("destroy", "-input=false", "-no-color", "-auto-approve")
	if _, ok := m.Gate("tfacc_many_001"); ok {
		t.Error("the gate is left after destroy")
	}
}

// A refresh of many configs with their rules reads list pages, as one of gates does, not one read
// per config and resource.
func TestAccRefresh_manyConfigs(t *testing.T) {
	t.Parallel()
	const n = 60
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	var b strings.Builder
	b.WriteString(providerBlock(url))
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `
resource "featureconsole_dynamic_config" "c%[1]d" {
  config_id     = "tfacc_many_%03[1]d"
  default_value = jsonencode({ n = %[1]d })
}
resource "featureconsole_dynamic_config_rules" "c%[1]d" {
  config_id = featureconsole_dynamic_config.c%[1]d.config_id
  rules     = [{ name = "all", pass_percentage = 100, return_value = jsonencode({ n = %[1]d }) }]
}
`, i)
	}
	c := newTFCLI(t)
	c.write("main.tf", b.String())
	c.must("apply", "-input=false", "-no-color", "-auto-approve")
	m.ResetRequests()
	if code, out := c.run([]int{0, 2}, "plan", "-input=false", "-no-color", "-detailed-exitcode"); code != 0 {
		t.Fatalf("the plan after apply is not empty:\n%s", out)
	}
	reads, pages := 0, 0
	for _, r := range m.Requests() {
		switch p := strings.TrimPrefix(r.Path, "/console/v1"); {
		case r.Method != http.MethodGet:
			t.Errorf("the refresh sent %s %s", r.Method, r.Path)
		case p == "/dynamic_configs":
			pages++
		case strings.HasPrefix(p, "/dynamic_configs/"):
			reads++
		}
	}
	t.Logf("refresh of %d configs with their rules: %d reads, %d list pages", n, reads, pages)
	if reads+pages > 20 {
		t.Errorf("the refresh sent %d reads and %d list pages; want at most 20 GETs for %d configs", reads, pages, n)
	}
	c.must("destroy", "-input=false", "-no-color", "-auto-approve")
	if ids := m.DynamicConfigIDs(); len(ids) != 0 {
		t.Errorf("configs left after destroy: %v", ids)
	}
}
