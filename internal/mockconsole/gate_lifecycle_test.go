// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// A stale gate: TEMPORARY gates the service judges stale read STALE with a reason,
// every other gate NONE, on reads and list pages; a write never sends STALE, and any write of the
// gate, its fields or its rules, makes it fresh again.
func TestGateStale(t *testing.T) {
	s, c := newClient(t, Config{NoSeed: true})
	s.PutGate(Gate{ID: "g_perm"})
	s.PutGate(Gate{ID: "g_temp", Type: "TEMPORARY"})
	if err := s.MarkGateStale("g_perm", "STALE_NO_RULES"); err == nil {
		t.Error("a PERMANENT gate went stale")
	}
	read := func(id string) map[string]any {
		r := c.do("GET", "/gates/"+id, nil)
		expect(t, r, http.StatusOK)
		return r.data()
	}
	if g := read("g_temp"); g["type"] != "TEMPORARY" || g["typeReason"] != "NONE" {
		t.Errorf("fresh gate %v/%v", g["type"], g["typeReason"])
	}
	for _, write := range []struct{ path, body string }{
		{"/gates/g_temp", `{"description":"touched"}`},
		{"/gates/g_temp/rules", `{"rules":[]}`},
	} {
		if err := s.MarkGateStale("g_temp", "STALE_NO_RULES"); err != nil {
			t.Fatal(err)
		}
		if g := read("g_temp"); g["type"] != "STALE" || g["typeReason"] != "STALE_NO_RULES" {
			t.Errorf("stale gate %v/%v", g["type"], g["typeReason"])
		}
		var listed map[string]any
		for _, g := range c.do("GET", "/gates", nil).list() {
			if m := g.(map[string]any); m["id"] == "g_temp" {
				listed = m
			}
		}
		if listed["type"] != "STALE" || listed["typeReason"] != "STALE_NO_RULES" {
			t.Errorf("listed stale gate %v", listed)
		}
		expect(t, c.do("PATCH", write.path, write.body), http.StatusOK)
		if g := read("g_temp"); g["type"] != "TEMPORARY" || g["typeReason"] != "NONE" {
			t.Errorf("after PATCH %s: %v/%v, want fresh", write.path, g["type"], g["typeReason"])
		}
	}
	expect(t, c.do("PATCH", "/gates/g_temp", `{"type":"STALE"}`), http.StatusBadRequest)
	expect(t, c.do("POST", "/gates", `{"id":"g_new","type":"STALE"}`), http.StatusBadRequest)
}

// A TEMPORARY gate nobody writes for 30 days (on the run clock) reads STALE, with a reason drawn
// from its rules; a write makes it fresh and starts the 30 days again. PERMANENT and archived
// gates never age.
func TestGateStaleAfterThirtyDays(t *testing.T) {
	s, c := newClient(t, Config{NoSeed: true})
	s.SetRunSpeed(0)
	s.PutGate(Gate{ID: "g_perm"})
	s.PutGate(Gate{ID: "g_none", Type: "TEMPORARY"})
	s.PutGate(Gate{ID: "g_arch", Type: "TEMPORARY"})
	expect(t, c.do("POST", "/gates", `{"id":"g_all","type":"TEMPORARY"}`), http.StatusCreated)
	expect(t, c.do("PATCH", "/gates/g_all/rules", `{"rules":[{"name":"everyone","passPercentage":100,"conditions":[],"environments":[]}]}`), http.StatusOK)
	expect(t, c.do("POST", "/gates", `{"id":"g_zero","type":"TEMPORARY"}`), http.StatusCreated)
	expect(t, c.do("PATCH", "/gates/g_zero/rules", `{"rules":[{"name":"nobody","passPercentage":0,"conditions":[],"environments":[]}]}`), http.StatusOK)
	expect(t, c.do("POST", "/gates", `{"id":"g_half","type":"TEMPORARY"}`), http.StatusCreated)
	expect(t, c.do("PATCH", "/gates/g_half/rules", `{"rules":[{"name":"half","passPercentage":50,"conditions":[],"environments":[]}]}`), http.StatusOK)
	expect(t, c.do("PUT", "/gates/g_arch/archive", `{}`), http.StatusOK)
	read := func(id string) string {
		g := c.do("GET", "/gates/"+id, nil).data()
		return g["type"].(string) + "/" + g["typeReason"].(string)
	}
	s.AdvanceRunClock(29 * 24 * time.Hour)
	for _, id := range []string{"g_perm", "g_none", "g_all", "g_zero", "g_half", "g_arch"} {
		if got := read(id); strings.HasPrefix(got, "STALE") {
			t.Errorf("%s stale after 29 days: %s", id, got)
		}
	}
	expect(t, c.do("PATCH", "/gates/g_half", `{"description":"touched"}`), http.StatusOK) // day 29
	s.AdvanceRunClock(2 * 24 * time.Hour)
	want := map[string]string{
		"g_perm": "PERMANENT/NONE", "g_none": "STALE/STALE_NO_RULES", "g_all": "STALE/STALE_PROBABLY_LAUNCHED",
		"g_zero": "STALE/STALE_PROBABLY_UNLAUNCHED", "g_half": "TEMPORARY/NONE", "g_arch": "TEMPORARY/NONE",
	}
	for id, w := range want {
		if got := read(id); got != w {
			t.Errorf("%s after 31 days: %s, want %s", id, got, w)
		}
	}
	s.AdvanceRunClock(29 * 24 * time.Hour) // 30 days after the write
	if got := read("g_half"); got != "STALE/STALE_PROBABLY_FORGOTTEN" {
		t.Errorf("g_half 30 days after its write: %s", got)
	}
	for _, g := range c.do("GET", "/gates", nil).list() { // lists say the same
		if m := g.(map[string]any); m["id"] == "g_none" && m["typeReason"] != "STALE_NO_RULES" {
			t.Errorf("listed g_none %v", m)
		}
	}
	expect(t, c.do("PATCH", "/gates/g_none/rules", `{"rules":[]}`), http.StatusOK)
	if got := read("g_none"); got != "TEMPORARY/NONE" {
		t.Errorf("g_none after a write: %s", got)
	}
}

// Archived gates: archive and unarchive, left out of GET /gates unless
// includeArchived=true, writes of their fields and rules refused until unarchived, a create over
// their id refused as any existing id, DELETE removes them.
func TestGateArchive(t *testing.T) {
	s, c := newClient(t, Config{NoSeed: true})
	s.PutGate(Gate{ID: "g_one"})
	s.PutGate(Gate{ID: "g_two"})
	ids := func(path string) string {
		var out []string
		for _, g := range c.do("GET", path, nil).list() {
			out = append(out, g.(map[string]any)["id"].(string))
		}
		return strings.Join(out, ",")
	}

	r := c.do("PUT", "/gates/g_one/archive", `{"archiveReason":"launched"}`)
	expect(t, r, http.StatusOK)
	if r.data()["status"] != "Archived" {
		t.Errorf("archive answered %s", r.Raw)
	}
	// Again: the live service refuses it, naming the gate (issue 31).
	if r := c.do("PUT", "/gates/g_one/archive", nil); r.Status != http.StatusBadRequest || !strings.Contains(string(r.Raw), "g_one is already archived") {
		t.Errorf("a second archive answered %d %s, want 400 already archived", r.Status, r.Raw)
	}
	expect(t, c.do("PUT", "/gates/missing/archive", `{}`), http.StatusNotFound)
	expect(t, c.do("PUT", "/gates/g_one/archive", `{"bogus":1}`), http.StatusBadRequest)
	if got := ids("/gates"); got != "g_two" {
		t.Errorf("GET /gates listed %s, want the archived gate left out", got)
	}
	if got := ids("/gates?includeArchived=true"); got != "g_one,g_two" {
		t.Errorf("GET /gates?includeArchived=true listed %s", got)
	}
	expect(t, c.do("GET", "/gates/g_one", nil), http.StatusOK)
	for _, w := range []struct{ path, body string }{
		{"/gates/g_one", `{"description":"x"}`},
		{"/gates/g_one/rules", `{"rules":[]}`},
	} {
		r := c.do("PATCH", w.path, w.body)
		expect(t, r, http.StatusBadRequest)
		if !strings.Contains(r.Body["message"].(string), "archived") {
			t.Errorf("PATCH %s of an archived gate: %s", w.path, r.Raw)
		}
	}
	r = c.do("POST", "/gates", `{"id":"g_one"}`)
	expect(t, r, http.StatusBadRequest)
	if !strings.Contains(r.Body["message"].(string), "already exists") {
		t.Errorf("create over an archived id: %s", r.Raw)
	}

	r = c.do("PUT", "/gates/g_one/unarchive", `{"unarchiveReason":"back"}`)
	expect(t, r, http.StatusOK)
	if r.data()["status"] != "In Progress" {
		t.Errorf("unarchive answered %s", r.Raw)
	}
	expect(t, c.do("PATCH", "/gates/g_one", `{"description":"x"}`), http.StatusOK)

	if err := s.ArchiveGateInConsole("g_two"); err != nil {
		t.Fatal(err)
	}
	expect(t, c.do("DELETE", "/gates/g_two", nil), http.StatusOK)
	if _, ok := s.Gate("g_two"); ok {
		t.Error("DELETE left the archived gate")
	}
}
