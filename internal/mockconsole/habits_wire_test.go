// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// The habits of issue 21, each as the wire shows it.

func TestHabitsLists(t *testing.T) {
	s, c := newClient(t, Config{})
	s.SetHabits(Habits{UnpagedLists: true})
	_, _, body := raw(t, c, "GET", "/users?page=2&limit=10", "")
	var env struct {
		Data       []User          `json:"data"`
		Pagination json.RawMessage `json:"pagination"`
	}
	if err := json.Unmarshal([]byte(body), &env); err != nil || len(env.Data) != 250 || env.Pagination != nil {
		t.Errorf("unpaged: %d users, pagination %s, %v", len(env.Data), env.Pagination, err)
	}

	s.SetHabits(Habits{PageIgnored: true})
	_, _, one := raw(t, c, "GET", "/users?page=1&limit=10", "")
	_, _, three := raw(t, c, "GET", "/users?page=3&limit=10", "")
	if one != three || !strings.Contains(three, `"nextPage":"/console/v1/users?page=2&limit=10"`) {
		t.Errorf("page 3 differs from page 1 or links no next page: %s", three)
	}

	s.SetHabits(Habits{LimitCeiling: true})
	if st, _, body := raw(t, c, "GET", "/segments?limit=101", ""); st != 400 || !strings.Contains(body, "limit must not be greater than 100") {
		t.Errorf("limit 101: %d %s", st, body)
	}
	if st, _, _ := raw(t, c, "GET", "/segments?limit=100", ""); st != 200 {
		t.Errorf("limit 100: %d", st)
	}
}

func TestHabitNoRetryAfter(t *testing.T) {
	s, c := newClient(t, Config{WriteLimitLong: 1, WriteWindowLong: time.Hour})
	s.SetHabits(Habits{NoRetryAfter: true})
	write := `{"rules":[]}`
	if st, _, _ := raw(t, c, "PATCH", "/gates/dark_mode/rules", write); st != 200 {
		t.Fatalf("first write %d", st)
	}
	st, h, _ := raw(t, c, "PATCH", "/gates/dark_mode/rules", write)
	if st != 429 || h.Get("Retry-After") != "" {
		t.Errorf("second write %d, Retry-After %q", st, h.Get("Retry-After"))
	}
	s.SetHabits(Habits{})
	if st, h, _ := raw(t, c, "PATCH", "/gates/dark_mode/rules", write); st != 429 || h.Get("Retry-After") == "" {
		t.Errorf("without the habit: %d, Retry-After %q", st, h.Get("Retry-After"))
	}
}

func TestHabitReadOnlyKey(t *testing.T) {
	s, c := newClient(t, Config{})
	ro := &client{t: t, url: c.url, key: ReadOnlyAPIKey}
	if st, _, _ := raw(t, ro, "GET", "/gates/dark_mode", ""); st != 401 {
		t.Errorf("read-only key accepted without the habit: %d", st)
	}
	s.SetHabits(Habits{ReadOnlyKey: true})
	if st, _, _ := raw(t, ro, "GET", "/gates/dark_mode", ""); st != 200 {
		t.Errorf("read with the read-only key: %d", st)
	}
	before, _ := s.Gate("new_checkout")
	st, _, body := raw(t, ro, "PATCH", "/gates/new_checkout/rules", `{"rules":[]}`)
	if st != 403 || !strings.Contains(body, `"status":403`) || !strings.Contains(body, "Read Only") {
		t.Errorf("write with the read-only key: %d %s", st, body)
	}
	if after, _ := s.Gate("new_checkout"); len(after.Rules) != len(before.Rules) {
		t.Error("a refused write was applied")
	}
	if st, _, _ := raw(t, c, "PATCH", "/gates/dark_mode/rules", `{"rules":[]}`); st != 200 {
		t.Errorf("write with the project's key: %d", st)
	}
}

func TestHabitRoleNames(t *testing.T) {
	s, c := newClient(t, Config{})
	s.SetUsers([]User{{Email: "a@x", Role: "admin"}, {Email: "b@x", Role: "read_only"}, {Email: "c@x", Role: "Release managers"}})
	s.SetHabits(Habits{RoleNames: true})
	_, _, body := raw(t, c, "GET", "/users", "")
	for _, want := range []string{`"role":"Admin"`, `"role":"Read Only"`, `"role":"Release managers"`} {
		if !strings.Contains(body, want) {
			t.Errorf("users lack %s: %s", want, body)
		}
	}
}

func TestHabitOwnerLaterAndPlaceholders(t *testing.T) {
	s, c := newClient(t, Config{})
	s.SetHabits(Habits{OwnerLater: true, Placeholders: true})
	src := `{"name":"Log Events","sql":"SELECT 1","timestampColumn":"ts","idTypeMapping":[{"serviceUnitID":"userID","column":"u"}]}`
	st, _, created := raw(t, c, "POST", "/metrics/metric_source", src)
	if st != 200 || strings.Contains(created, "owner") {
		t.Errorf("create answered %d with an owner: %s", st, created)
	}
	for _, path := range []string{"/metrics/metric_source/Log%20Events", "/metrics/metric_source/list"} {
		_, _, body := raw(t, c, "GET", path, "")
		for _, want := range []string{`"ownerType":"SDK_KEY"`, `"ownerName":"CONSOLE API"`, `"customFieldMapping":[{"formula":"","key":""}]`, `"tableName":""`} {
			if !strings.Contains(body, want) {
				t.Errorf("%s lacks %s: %s", path, want, body)
			}
		}
		if strings.Contains(body, "sourceType") {
			t.Errorf("%s carries sourceType: %s", path, body)
		}
	}
	if m, _ := s.MetricSource("Log Events"); m.SourceType != "query" || len(m.CustomFieldMapping) != 0 {
		t.Errorf("placeholders stored: %+v", m)
	}
	_, _, a := raw(t, c, "PATCH", "/gates/dark_mode/rules", `{"rules":[]}`)
	_, _, b := raw(t, c, "PATCH", "/gates/dark_mode/rules", `{"rules":[]}`)
	mod := func(body string) string {
		var env struct {
			Data struct {
				LastModifierID string `json:"lastModifierID"`
			} `json:"data"`
		}
		_ = json.Unmarshal([]byte(body), &env)
		return env.Data.LastModifierID
	}
	if mod(a) == "" || mod(a) == mod(b) {
		t.Errorf("lastModifierID %q then %q", mod(a), mod(b))
	}
}

func TestHabitsWith(t *testing.T) {
	h := Habits{Gzip: true, ErrorForm: "text"}.With(Habits{Placeholders: true, ErrorForm: "nestjs"})
	if !h.Gzip || !h.Placeholders || h.ErrorForm != "nestjs" || h.Reviews {
		t.Errorf("%+v", h)
	}
	if AllHabits().With(Habits{}) != AllHabits() {
		t.Error("With(nothing) changed the habits")
	}
}

// A gate created through the API gets its owner later too: the create answer leaves it out, reads
// (one gate and the list) show it.
func TestHabitOwnerLaterGate(t *testing.T) {
	s, c := newClient(t, Config{NoSeed: true})
	s.SetHabits(Habits{OwnerLater: true})
	st, _, created := raw(t, c, "POST", "/gates", `{"id":"new_checkout"}`)
	if st != 201 || strings.Contains(created, "owner") {
		t.Errorf("create answered %d with an owner: %s", st, created)
	}
	for _, path := range []string{"/gates/new_checkout", "/gates"} {
		if _, _, body := raw(t, c, "GET", path, ""); !strings.Contains(body, `"ownerType":"SDK_KEY"`) {
			t.Errorf("%s lacks the owner: %s", path, body)
		}
	}
	s.SetHabits(Habits{})
	raw(t, c, "POST", "/gates", `{"id":"other_gate"}`)
	if _, _, body := raw(t, c, "GET", "/gates/other_gate", ""); strings.Contains(body, "owner") {
		t.Errorf("without the habit a gate has no owner: %s", body)
	}
}

// Segments without count (the 2025-12 document): every segment object the service answers, read
// or written, lacks it; the page of an id list keeps its own.
func TestHabitSegmentsWithoutCount(t *testing.T) {
	s, c := newClient(t, Config{NoSeed: true})
	s.SetHabits(Habits{SegmentsWithoutCount: true})
	for _, step := range []struct{ method, path, body string }{
		{"POST", "/segments", `{"id":"beta","name":"beta","type":"id_list"}`},
		{"PATCH", "/segments/beta/id_list", `{"ids":["u_1","u_2"]}`},
		{"GET", "/segments/beta", ""},
		{"GET", "/segments", ""},
		{"POST", "/segments", `{"id":"staff","name":"staff","type":"rule_based"}`},
		{"POST", "/segments/staff/conditional", `[{"name":"a","passPercentage":10,"conditions":[{"type":"email","operator":"any","targetValue":["x"]}]}]`},
		{"PUT", "/segments/staff/archive", ""},
	} {
		st, _, body := raw(t, c, step.method, step.path, step.body)
		if st/100 != 2 {
			t.Fatalf("%s %s: %d %s", step.method, step.path, st, body)
		}
		if step.method != "PATCH" && strings.Contains(body, `"count"`) {
			t.Errorf("%s %s carries a count: %s", step.method, step.path, body)
		}
	}
	if _, _, body := raw(t, c, "GET", "/segments/beta/id_list?page=1&limit=100", ""); !strings.Contains(body, `"count":2`) {
		t.Errorf("the id list's page lost its count: %s", body)
	}
	s.SetHabits(Habits{})
	if _, _, body := raw(t, c, "GET", "/segments/beta", ""); !strings.Contains(body, `"count":2`) {
		t.Errorf("without the habit: %s", body)
	}
}
