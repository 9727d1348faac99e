// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"net/http"
	"strings"
	"testing"
)

// A stale gate (round three): TEMPORARY gates the service judges stale read STALE with a reason,
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

// Archived gates (rows 31, 32, 35): archive and unarchive, left out of GET /gates unless
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
	expect(t, c.do("PUT", "/gates/g_one/archive", nil), http.StatusOK) // again: nothing changes
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
