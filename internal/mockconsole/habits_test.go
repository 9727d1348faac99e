// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// raw sends a request with extra headers and returns the status, headers and body as sent.
func raw(t *testing.T, c *client, method, path, body string, header ...string) (int, http.Header, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, c.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("SERVICE-API-KEY", c.key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func TestParseHabits(t *testing.T) {
	if h, err := ParseHabits("all"); err != nil || h != AllHabits() {
		t.Errorf("all: %+v %v", h, err)
	}
	if h, err := ParseHabits(" numberForms, nestjs ,Reviews"); err != nil || !h.NumberForms || !h.Reviews || h.ErrorForm != "nestjs" || h.Gzip {
		t.Errorf("list: %+v %v", h, err)
	}
	if _, err := ParseHabits("tidy"); err == nil {
		t.Error("unknown habit accepted")
	}
	for _, n := range HabitNames() {
		if _, err := ParseHabits(n); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
}

func TestHabitsAnswerForms(t *testing.T) {
	s, c := newClient(t, Config{PageSizeCap: 5})
	g, _ := s.Gate("new_checkout")
	g.Rules[1].PassPercentage = 33.33
	s.PutGate(g)

	s.SetHabits(Habits{NumberForms: true, StringTargets: true, ExtraFields: true})
	_, _, body := raw(t, c, "GET", "/gates/new_checkout", "")
	for _, want := range []string{`"passPercentage":33.330000000000005`, `"passPercentage":100.0`, `"targetValue":["18"]`, `"updatedTime":`, `"returnValue":{"color":"blue","size":3}`} {
		if !strings.Contains(body, want) {
			t.Errorf("gate lacks %s: %s", want, body)
		}
	}
	if strings.Contains(body, `"customID":""`) {
		t.Errorf("empty strings kept: %s", body)
	}
	_, _, body = raw(t, c, "GET", "/release_pipelines/pl_web", "")
	if !strings.Contains(body, `"timeIntervalMs":3600000.0`) {
		t.Errorf("pipeline: %s", body)
	}
	if got, _ := s.Gate("new_checkout"); got.Rules[1].PassPercentage != 33.33 {
		t.Error("a habit changed the stored gate")
	}

	s.SetHabits(Habits{PagingLinks: true})
	_, _, body = raw(t, c, "GET", "/segments?limit=5", "")
	for _, want := range []string{`"rules":[]`, `"rules":[{`, `"nextPage":"console.elsewhere.example/console/v1/segments?page=2&limit=5"`, `"all":""`} {
		if !strings.Contains(body, want) {
			t.Errorf("segments lack %s: %s", want, body)
		}
	}
	if strings.Contains(body, "totalItems") {
		t.Errorf("totalItems kept: %s", body)
	}

	s.SetHabits(Habits{EmptyWrites: true, Created201: true, Charset: true, Gzip: true})
	st, h, body := raw(t, c, "PATCH", "/gates/dark_mode/rules", `{"rules":[{"name":"a","passPercentage":5}]}`)
	if st != 201 || body != "" || !strings.Contains(h.Get("Content-Type"), "charset=utf-8") {
		t.Errorf("write answered %d %q %v", st, body, h)
	}
	if g, _ := s.Gate("dark_mode"); len(g.Rules) != 1 {
		t.Error("the write answered without a body was not applied")
	}
	st, h, body = raw(t, c, "GET", "/gates/dark_mode", "", "Accept-Encoding", "gzip")
	if st != 200 || h.Get("Content-Encoding") != "gzip" {
		t.Fatalf("not gzip: %d %v", st, h)
	}
	zr, err := gzip.NewReader(bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !strings.Contains(string(plain), `"name":"a"`) {
		t.Errorf("gunzipped %s", plain)
	}

	s.SetHabits(Habits{ErrorForm: "nestjs", AuthAs403: true})
	st, _, body = raw(t, c, "GET", "/gates/nope", "")
	if st != 404 || body != `{"error":"Not Found","message":"Gate \"nope\" not found","statusCode":404}`+"\n" {
		t.Errorf("nestjs 404: %d %s", st, body)
	}
	st, _, body = raw(t, c, "POST", "/metrics/metric_source", `{"name":"x"}`)
	if st != 400 || !strings.Contains(body, `"message":["sql must not be empty"]`) {
		t.Errorf("nestjs 400: %d %s", st, body)
	}
	st, _, body = raw(t, &client{url: c.url, key: "wrong"}, "GET", "/users", "")
	if st != 403 || !strings.Contains(body, `"statusCode":401`) {
		t.Errorf("bad key: %d %s", st, body)
	}
	s.SetHabits(Habits{ErrorForm: "text"})
	st, h, body = raw(t, c, "GET", "/gates/nope", "")
	if st != 404 || body != "Gate \"nope\" not found\n" || h.Get("Content-Type") != "text/plain" {
		t.Errorf("text 404: %d %s %v", st, body, h)
	}
}

func TestHabitConsoleRules(t *testing.T) {
	s, c := newClient(t, Config{})
	s.SetHabits(Habits{ConsoleRules: true})
	g, _ := s.Gate("new_checkout")
	for _, r := range g.Rules {
		if r.ID != r.BaseID {
			t.Fatalf("rule %q: id %q, base %q", r.Name, r.ID, r.BaseID)
		}
	}
	_, _, body := raw(t, c, "GET", "/gates/new_checkout", "")
	for _, want := range []string{`"targetValue":"@example.com"`, `"returnValue":null`} {
		if !strings.Contains(body, want) {
			t.Errorf("console rule lacks %s: %s", want, body)
		}
	}
	// Any write renumbers every rule; base ids sent back are kept.
	st, _, _ := raw(t, c, "PATCH", "/gates/new_checkout/rules", `{"rules":[{"name":"employees","baseID":"`+g.Rules[0].BaseID+
		`","passPercentage":100,"environments":["production"],"conditions":[{"type":"email","operator":"str_contains_any","targetValue":["@example.com"]}]}]}`)
	after, _ := s.Gate("new_checkout")
	if st != 200 || len(after.Rules) != 1 || after.Rules[0].BaseID != g.Rules[0].BaseID || after.Rules[0].ID == g.Rules[0].ID {
		t.Errorf("write %d: %+v (was %+v)", st, after.Rules, g.Rules[0])
	}
}

// DropIdle closes every third request that comes on a pooled connection, never a new connection's
// first: ten requests over one keep-alive client lose the 4th and the 8th (each after a new
// connection and two reuses); ten over new connections lose none.
func TestHabitDropIdle(t *testing.T) {
	s, c := newClient(t, Config{})
	s.SetHabits(Habits{DropIdle: true})
	send := func(tr http.RoundTripper) error {
		// A write: net/http would send a read again by itself on a new connection.
		req, _ := http.NewRequest("POST", c.url+"/segments", strings.NewReader(`{}`))
		req.Header.Set("SERVICE-API-KEY", c.key)
		resp, err := tr.RoundTrip(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body) // read whole, so that the connection goes back to the pool
		return resp.Body.Close()
	}
	fresh := &http.Transport{DisableKeepAlives: true}
	for i := 0; i < 10; i++ {
		if err := send(fresh); err != nil {
			t.Errorf("request %d on a new connection dropped: %v", i+1, err)
		}
	}
	s.ResetRequests()
	pooled := &http.Transport{MaxIdleConnsPerHost: 1}
	defer pooled.CloseIdleConnections()
	var dropped []int
	for i := 1; i <= 10; i++ {
		if send(pooled) != nil {
			dropped = append(dropped, i)
		}
	}
	if fmt.Sprint(dropped) != "[4 8]" {
		t.Errorf("requests %v dropped, want [4 8]", dropped)
	}
	if n := len(s.Requests()); n != 8 {
		t.Errorf("%d requests served, want 8", n)
	}
}

func TestReviews(t *testing.T) {
	s, c := newClient(t, Config{})
	s.SetHabits(Habits{Reviews: true})
	before, _ := s.Gate("new_checkout")
	change := `{"rules":[{"name":"only","passPercentage":5}]}`

	// Without the header, writes apply as ever.
	if st, _, _ := raw(t, c, "PATCH", "/gates/dark_mode/rules", change); st != 200 {
		t.Fatal(st)
	}
	if g, _ := s.Gate("dark_mode"); len(g.Rules) != 1 {
		t.Error("write without review settings was held")
	}

	st, _, body := raw(t, c, "PATCH", "/gates/new_checkout/rules", change, "x-respect-review-settings", "true")
	if st != 200 || !strings.Contains(body, `"message":"Review submitted. Changes will be applied after approval."`) ||
		!strings.Contains(body, `"activeReview":{"requestedBy":"Console API","reviewID":"rev_1","reviewStatus":"PENDING","reviewers":[]}`) ||
		!strings.Contains(body, `"name":"employees"`) {
		t.Fatalf("held: %d %s", st, body)
	}
	if g, _ := s.Gate("new_checkout"); len(g.Rules) != len(before.Rules) {
		t.Fatal("a held write was applied")
	}
	if _, _, body = raw(t, c, "GET", "/gates/new_checkout", ""); !strings.Contains(body, `"reviewID":"rev_1"`) {
		t.Errorf("read shows no pending review: %s", body)
	}
	// A pipeline too; a second change to the gate supersedes the first.
	raw(t, c, "POST", "/release_pipelines/pl_api", `{"name":"renamed","phases":[]}`, "x-respect-review-settings", "true")
	raw(t, c, "PATCH", "/gates/new_checkout/rules", `{"rules":[]}`, "x-respect-review-settings", "true")
	pending := s.PendingReviews()
	if len(pending) != 2 || pending[0].ID != "rev_2" || pending[0].Kind != "release_pipeline" || pending[1].ID != "rev_3" {
		t.Fatalf("pending %+v", pending)
	}
	if err := s.ApproveReview("rev_1"); err == nil {
		t.Error("a superseded review was approved")
	}
	if err := s.RejectReview("rev_2"); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.Pipeline("pl_api"); p.Name != "API rollout" {
		t.Error("a rejected change was applied")
	}
	if err := s.ApproveAllReviews(); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Gate("new_checkout"); len(g.Rules) != 0 {
		t.Errorf("approved change not applied: %+v", g.Rules)
	}
	if _, _, body = raw(t, c, "GET", "/gates/new_checkout", ""); strings.Contains(body, "activeReview") {
		t.Errorf("review still shown: %s", body)
	}
	// A gate that does not exist is a 404, not a review.
	if st, _, _ := raw(t, c, "PATCH", "/gates/nope/rules", change, "x-respect-review-settings", "true"); st != 404 {
		t.Errorf("missing gate: %d", st)
	}
}
