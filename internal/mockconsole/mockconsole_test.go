// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

type client struct {
	t   *testing.T
	url string
	key string
}

func newClient(t *testing.T, cfg Config) (*Server, *client) {
	t.Helper()
	s, ts := NewTestServer(t, cfg)
	key := cfg.APIKey
	if key == "" {
		key = DefaultAPIKey
	}
	return s, &client{t: t, url: ts.URL + "/console/v1", key: key}
}

type result struct {
	Status int
	Header http.Header
	Raw    []byte
	Body   map[string]any
}

func (c *client) do(method, path string, body any) result {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, c.url+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if c.key != "" {
		req.Header.Set("SERVICE-API-KEY", c.key)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	res := result{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	_ = dec.Decode(&res.Body)
	return res
}

func (r result) data() map[string]any {
	m, _ := r.Body["data"].(map[string]any)
	return m
}

func (r result) list() []any {
	l, _ := r.Body["data"].([]any)
	return l
}

func (r result) pg() map[string]any {
	m, _ := r.Body["pagination"].(map[string]any)
	return m
}

func expect(t *testing.T, r result, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status = %d, want %d; body %s", r.Status, status, r.Raw)
	}
	if status >= 300 && status != http.StatusBadGateway {
		if r.Body["status"] != json.Number(fmt.Sprint(status)) {
			t.Fatalf("error body status = %v, want %d: %s", r.Body["status"], status, r.Raw)
		}
		if _, ok := r.Body["message"].(string); !ok {
			t.Fatalf("error body lacks message: %s", r.Raw)
		}
	}
}

func TestAuth(t *testing.T) {
	s, c := newClient(t, Config{APIKey: "secret-key"})
	c.key = ""
	r := c.do("GET", "/gates/new_checkout", nil)
	expect(t, r, 401)
	if r.Body["message"] != "Authentication failed: invalid or missing SERVICE-API-KEY" {
		t.Fatalf("message %v", r.Body["message"])
	}
	c.key = "wrong"
	r = c.do("GET", "/gates/new_checkout", nil)
	expect(t, r, 401)
	if strings.Contains(string(r.Raw), "secret-key") || strings.Contains(string(r.Raw), "wrong") {
		t.Fatal("key echoed")
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("content type %q", ct)
	}
	c.key = "secret-key"
	expect(t, c.do("GET", "/gates/new_checkout", nil), 200)
	if n := len(s.Requests()); n != 3 {
		t.Fatalf("logged %d requests", n)
	}
}

func TestRoutingErrors(t *testing.T) {
	_, c := newClient(t, Config{})
	expect(t, c.do("GET", "/nope", nil), 404)
	expect(t, c.do("GET", "/gates/new_checkout/rules/x", nil), 404)
	r := c.do("PUT", "/gates/new_checkout", nil)
	expect(t, r, 405)
	expect(t, c.do("GET", "/gates/new_checkout/rules", nil), 405)
	expect(t, c.do("PUT", "/users", nil), 405)
	expect(t, c.do("GET", "/metrics/metric_source", nil), 405)
	expect(t, c.do("GET", "/users?page=0", nil), 400)
	expect(t, c.do("GET", "/users?limit=abc", nil), 400)
}

func TestGates(t *testing.T) {
	s, c := newClient(t, Config{})
	r := c.do("GET", "/gates/new_checkout", nil)
	expect(t, r, 200)
	g := r.data()
	rules := g["rules"].([]any)
	if len(rules) != 2 || g["status"] != "In Progress" {
		t.Fatalf("gate %s", r.Raw)
	}
	r = c.do("GET", "/gates/missing", nil)
	expect(t, r, 404)
	if r.Body["message"] != `Gate "missing" not found` {
		t.Fatalf("message %v", r.Body["message"])
	}
	expect(t, c.do("PATCH", "/gates/missing/rules", map[string]any{"rules": []any{}}), 404)
	for _, id := range []string{"dark_mode", "search_v2", "gate_001", "gate_300"} {
		expect(t, c.do("GET", "/gates/"+id, nil), 200)
	}

	// Send rule 0 back unchanged with its baseID, change rule 1, add a new rule.
	r0 := rules[0].(map[string]any)
	r1 := rules[1].(map[string]any)
	body := `{"rules":[
	  {"name":"employees","baseID":"` + r0["baseID"].(string) + `","passPercentage":100,
	   "conditions":[{"type":"email","operator":"str_contains_any","targetValue":["@example.com"]}],
	   "returnValue":{},"environments":["production"]},
	  {"name":"beta","baseID":"` + r1["baseID"].(string) + `","passPercentage":12.5,
	   "conditions":[{"type":"custom_field","operator":"gt","field":"age","targetValue":[21]}],
	   "returnValue":{"color":"blue","size":3}},
	  {"name":"fresh","passPercentage":33.33,"environments":[],"conditions":[{"type":"country","operator":"any","targetValue":["US",12.5,100]}]}
	]}`
	r = c.do("PATCH", "/gates/new_checkout/rules", body)
	expect(t, r, 200)
	out := r.data()["rules"].([]any)
	if len(out) != 3 {
		t.Fatalf("rules %s", r.Raw)
	}
	o0, o1, o2 := out[0].(map[string]any), out[1].(map[string]any), out[2].(map[string]any)
	if o0["baseID"] != r0["baseID"] || o0["id"] != r0["id"] {
		t.Fatalf("unchanged rule lost identity: %v vs %v", o0, r0)
	}
	if o1["baseID"] != r1["baseID"] || o1["id"] == r1["id"] {
		t.Fatalf("changed rule: %v vs %v", o1, r1)
	}
	if !strings.HasPrefix(o1["id"].(string), r1["baseID"].(string)+":12.5:") {
		t.Fatalf("id format %v", o1["id"])
	}
	if o2["baseID"] == "" || len(o2["baseID"].(string)) != 22 || !strings.Contains(o2["id"].(string), ":33.33:") {
		t.Fatalf("new rule %v", o2)
	}
	if o2["environments"] != nil {
		t.Fatalf("environments [] not returned as null: %v", o2["environments"])
	}
	if rv, ok := o2["returnValue"].(map[string]any); !ok || len(rv) != 0 {
		t.Fatalf("absent returnValue not {}: %v", o2["returnValue"])
	}
	if !strings.Contains(string(r.Raw), `"targetValue":["US",12.5,100]`) || !strings.Contains(string(r.Raw), `"passPercentage":12.5`) {
		t.Fatalf("numbers not preserved: %s", r.Raw)
	}
	if r.data()["lastModifierName"] != "Console API" || r.data()["lastModifierID"] != "api_key" {
		t.Fatalf("modifier %s", r.Raw)
	}
	// Absent conditions → [].
	r = c.do("PATCH", "/gates/dark_mode/rules", `{"rules":[{"name":"a","passPercentage":1}]}`)
	expect(t, r, 200)
	if !strings.Contains(string(r.Raw), `"conditions":[]`) {
		t.Fatalf("conditions %s", r.Raw)
	}

	// Counter behaviour: resend the same list → same ids.
	g2, _ := s.Gate("new_checkout")
	b, _ := json.Marshal(map[string]any{"rules": g2.Rules})
	r = c.do("PATCH", "/gates/new_checkout/rules", string(b))
	expect(t, r, 200)
	g3, _ := s.Gate("new_checkout")
	for i := range g2.Rules {
		if g2.Rules[i].ID != g3.Rules[i].ID {
			t.Fatalf("id changed on identical resend: %s → %s", g2.Rules[i].ID, g3.Rules[i].ID)
		}
	}
	// Unknown baseID → a new one.
	r = c.do("PATCH", "/gates/search_v2/rules", `{"rules":[{"name":"x","baseID":"doesnotexist","passPercentage":5}]}`)
	expect(t, r, 200)
	if r.data()["rules"].([]any)[0].(map[string]any)["baseID"] == "doesnotexist" {
		t.Fatal("unknown baseID kept")
	}
	// Clear.
	r = c.do("PATCH", "/gates/search_v2/rules", `{"rules":[]}`)
	expect(t, r, 200)
	if !strings.Contains(string(r.Raw), `"rules":[]`) {
		t.Fatalf("clear: %s", r.Raw)
	}
}

func TestGateValidation(t *testing.T) {
	s, c := newClient(t, Config{})
	before, _ := s.Gate("new_checkout")
	cases := map[string]string{
		`{"rules":[{"name":"a","passPercentage":1},{"name":"b","passPercentage":101}]}`: "rules[1].passPercentage must be between 0 and 100",
		`{"rules":[{"name":"a","passPercentage":-1}]}`:                                  "rules[0].passPercentage",
		`{"rules":[{"name":"","passPercentage":1}]}`:                                    "rules[0].name",
		`{"rules":[{"name":"a"},{"name":"a"}]}`:                                         "rules[1].name",
		`{"rules":[{"name":"a","conditions":[{"operator":"any"}]}]}`:                    "rules[0].conditions[0].type",
		`{"rules":[{"name":"a","returnValue":"x"}]}`:                                    "rules[0].returnValue",
		`{"rules":[{"name":"a","returnValue":[1]}]}`:                                    "rules[0].returnValue",
		`{"rules":[{"name":"a","bogus":1}]}`:                                            `"bogus"`,
		`{"rules":[{"name":"a","passPercentage":"50"}]}`:                                "passPercentage",
		`{"rules":[{"name":"a"}],"extra":true}`:                                         `"extra"`,
		`{"rules":`:                                                                     "invalid JSON",
		`{}`:                                                                            "rules is required",
		``:                                                                              "empty",
		`{"rules":[]} {}`:                                                               "unexpected data",
		`{"rules":[{"name":"a","environments":"prod"}]}`:                                "environments",
		`{"rules":[{"name":"a","conditions":[{"type":"x","targetValue":[1]}],"id":5}]}`: "id",
		`{"rules":[{"name":"a","conditions":[{"type":"x","customID":false}]}]}`:         "customID",
	}
	for body, want := range cases {
		r := c.do("PATCH", "/gates/new_checkout/rules", body)
		expect(t, r, 400)
		if msg := r.Body["message"].(string); !strings.Contains(msg, want) {
			t.Errorf("body %s: message %q does not contain %q", body, msg, want)
		}
	}
	after, _ := s.Gate("new_checkout")
	if after.Rules[0].ID != before.Rules[0].ID || len(after.Rules) != 2 {
		t.Fatal("invalid request changed state")
	}
}

func TestPutGateAndAccessors(t *testing.T) {
	s := New(Config{NoSeed: true})
	if _, ok := s.Gate("new_checkout"); ok {
		t.Fatal("NoSeed has gates")
	}
	s.PutGate(Gate{ID: "g", Rules: []GateRule{
		{Name: "a", PassPercentage: 12.5, Conditions: []Condition{{Type: "t", TargetValue: []string{"x"}}}},
		{Name: "b", BaseID: "fixedbase", ID: "fixedbase:100:7", PassPercentage: 100},
	}})
	g, _ := s.Gate("g")
	if g.Rules[0].BaseID == "" || !strings.Contains(g.Rules[0].ID, ":12.5:") || g.Rules[1].ID != "fixedbase:100:7" {
		t.Fatalf("ids %+v", g.Rules)
	}
	if g.Tags == nil || g.Rules[1].Conditions == nil {
		t.Fatal("nil slices")
	}
	// deep copy
	g.Rules[0].Conditions[0].TargetValue.([]any)[0] = "mutated"
	g2, _ := s.Gate("g")
	if g2.Rules[0].Conditions[0].TargetValue.([]any)[0] != "x" {
		t.Fatal("Gate() does not return a deep copy")
	}
	s.DeleteGate("g")
	if _, ok := s.Gate("g"); ok {
		t.Fatal("not deleted")
	}
}

func TestPipelines(t *testing.T) {
	s, c := newClient(t, Config{})
	r := c.do("GET", "/release_pipelines/pl_web", nil)
	expect(t, r, 200)
	p := r.data()
	phases := p["phases"].([]any)
	if len(phases) != 2 || p["creatorID"] == "" {
		t.Fatalf("pipeline %s", r.Raw)
	}
	ph0 := phases[0].(map[string]any)
	rule0 := ph0["rules"].([]any)[0].(map[string]any)
	expect(t, c.do("GET", "/release_pipelines/nope", nil), 404)
	expect(t, c.do("POST", "/release_pipelines/nope", `{"name":"x","phases":[]}`), 404)
	expect(t, c.do("GET", "/release_pipelines/pl_mobile", nil), 200)
	expect(t, c.do("GET", "/release_pipelines/pl_api", nil), 200)

	body := map[string]any{
		"name": "Web rollout 2",
		"phases": []any{
			map[string]any{"name": "New first", "timeIntervalMs": 10, "requiredReview": false},
			map[string]any{"id": ph0["id"], "name": "Canary", "timeIntervalMs": 3600000, "requiredReview": true,
				"rules": []any{
					map[string]any{"id": rule0["id"], "name": "internal", "environments": []any{},
						"conditions": []any{map[string]any{"type": "user_id", "operator": "any", "targetValue": []any{"42"}, "field": "", "customID": ""}}},
					map[string]any{"id": "bogus", "name": "other"},
				}},
		},
	}
	r = c.do("POST", "/release_pipelines/pl_web", body)
	expect(t, r, 200)
	p = r.data()
	phases = p["phases"].([]any)
	n0, n1 := phases[0].(map[string]any), phases[1].(map[string]any)
	if n1["id"] != ph0["id"] || n0["id"] == ph0["id"] || n0["id"] == "" {
		t.Fatalf("phase ids %v %v (old %v)", n0["id"], n1["id"], ph0["id"])
	}
	if n0["rules"] == nil || len(n0["rules"].([]any)) != 0 {
		t.Fatalf("absent rules not []: %s", r.Raw)
	}
	nr := n1["rules"].([]any)
	if nr[0].(map[string]any)["id"] != rule0["id"] || nr[1].(map[string]any)["id"] == "bogus" {
		t.Fatalf("rule ids %s", r.Raw)
	}
	if nr[0].(map[string]any)["environments"] != nil {
		t.Fatalf("environments [] not null: %s", r.Raw)
	}
	if c := nr[1].(map[string]any)["conditions"]; c == nil || len(c.([]any)) != 0 {
		t.Fatalf("absent conditions not []: %s", r.Raw)
	}
	if p["lastModifierID"] != "api_key" || p["name"] != "Web rollout 2" || p["createdTime"] != json.Number("1700000000000") {
		t.Fatalf("pipeline %s", r.Raw)
	}

	for body, want := range map[string]string{
		`{"name":"","phases":[]}`:                                                       "name",
		`{"name":"x","phases":[{"name":""}]}`:                                           "phases[0].name",
		`{"name":"x","phases":[{"name":"a","timeIntervalMs":-1}]}`:                      "phases[0].timeIntervalMs",
		`{"name":"x","phases":[{"name":"a","timeIntervalMs":1.5}]}`:                     "timeIntervalMs",
		`{"name":"x","phases":[{"name":"a","rules":[{"name":"r","conditions":[{}]}]}]}`: "phases[0].rules[0].conditions[0].type",
		`{"name":"x","phases":[],"id":"pl_web"}`:                                        `"id"`,
	} {
		r := c.do("POST", "/release_pipelines/pl_web", body)
		expect(t, r, 400)
		if !strings.Contains(r.Body["message"].(string), want) {
			t.Errorf("%s: %v lacks %q", body, r.Body["message"], want)
		}
	}

	s.LockPipeline("pl_web", true)
	r = c.do("POST", "/release_pipelines/pl_web", `{"name":"x","phases":[]}`)
	expect(t, r, 400)
	if r.Body["message"] != `Cannot modify release pipeline "pl_web": a rollout is in progress` {
		t.Fatalf("locked: %v", r.Body["message"])
	}
	s.LockPipeline("pl_web", false)
	expect(t, c.do("POST", "/release_pipelines/pl_web", `{"name":"x","phases":[]}`), 200)

	s.PutPipeline(Pipeline{ID: "pl_t", Name: "t", Phases: []Phase{{Name: "a", Rules: []PipelineRule{{Name: "r"}}}}})
	pt, _ := s.Pipeline("pl_t")
	if pt.Phases[0].ID == "" || pt.Phases[0].Rules[0].ID == "" {
		t.Fatalf("PutPipeline ids: %+v", pt)
	}
	s.DeletePipeline("pl_t")
	expect(t, c.do("GET", "/release_pipelines/pl_t", nil), 404)
}

func TestPagingWithCap(t *testing.T) {
	s, c := newClient(t, Config{PageSizeCap: 40})
	seen := 0
	path := "/users?limit=100"
	pages := 0
	for path != "" {
		r := c.do("GET", path, nil)
		expect(t, r, 200)
		pg := r.pg()
		pages++
		if pg["itemsPerPage"] != json.Number("40") || pg["totalItems"] != json.Number("250") || pg["all"] != "/console/v1/users" {
			t.Fatalf("pagination %v", pg)
		}
		seen += len(r.list())
		if next, ok := pg["nextPage"].(string); ok {
			path = strings.TrimPrefix(next, "/console/v1")
		} else {
			if pg["nextPage"] != nil {
				t.Fatalf("nextPage %v", pg["nextPage"])
			}
			path = ""
		}
		if pages == 1 && pg["previousPage"] != nil {
			t.Fatal("previousPage on first page")
		}
		if pages == 2 && pg["previousPage"] != "/console/v1/users?page=1&limit=40" {
			t.Fatalf("previousPage %v", pg["previousPage"])
		}
	}
	if seen != 250 || pages != 7 {
		t.Fatalf("seen %d users in %d pages", seen, pages)
	}
	// default limit 100, no cap
	_, c2 := newClient(t, Config{})
	r := c2.do("GET", "/users", nil)
	if len(r.list()) != 100 || r.pg()["nextPage"] != "/console/v1/users?page=2&limit=100" {
		t.Fatalf("default page %v", r.pg())
	}
	r = c2.do("GET", "/users?page=3", nil)
	if len(r.list()) != 50 || r.pg()["nextPage"] != nil {
		t.Fatalf("last page %v", r.pg())
	}
	u := r.list()[0].(map[string]any)
	for _, k := range []string{"email", "firstName", "lastName", "role"} {
		if _, ok := u[k]; !ok {
			t.Fatalf("user lacks %s", k)
		}
	}
	// past the end
	r = c2.do("GET", "/users?page=9", nil)
	expect(t, r, 200)
	if len(r.list()) != 0 || r.Body["data"] == nil {
		t.Fatalf("past end %s", r.Raw)
	}
	s.SetUsers([]User{{Email: "a@b.c", Role: "admin"}})
	r = c.do("GET", "/users", nil)
	if len(r.list()) != 1 {
		t.Fatal("SetUsers")
	}
}

func TestSegments(t *testing.T) {
	s, c := newClient(t, Config{})
	r := c.do("GET", "/segments", nil)
	expect(t, r, 200)
	l := r.list()
	if len(l) < 10 {
		t.Fatalf("segments %d", len(l))
	}
	raw := string(r.Raw)
	if !strings.Contains(raw, `"targetValue":5`) || !strings.Contains(raw, `12.5`) {
		t.Fatalf("seed segments lack scalar/mixed target values: %s", raw)
	}
	types := map[any]int{}
	for _, x := range l {
		m := x.(map[string]any)
		types[m["type"]]++
		if m["type"] == "id_list" && m["rules"] != nil {
			t.Fatal("id_list with rules")
		}
	}
	if types["id_list"] == 0 || types["rule_based"] == 0 {
		t.Fatalf("types %v", types)
	}
	s.SetSegments(nil)
	r = c.do("GET", "/segments", nil)
	if len(r.list()) != 0 || r.pg()["totalItems"] != json.Number("0") {
		t.Fatalf("empty segments %s", r.Raw)
	}
}

// Segments accept the 14 condition types of round three and refuse every other, in a create's
// rules and in a write of the rules, naming the condition and the types allowed.
func TestSegmentConditionTypes(t *testing.T) {
	_, c := newClient(t, Config{})
	rule := func(typ string) map[string]any {
		return map[string]any{"name": typ, "passPercentage": 100,
			"conditions": []any{map[string]any{"type": typ, "operator": "any", "targetValue": []any{"x"}}}}
	}
	var every []any
	for _, typ := range SegmentConditionTypes {
		every = append(every, rule(typ))
	}
	expect(t, c.do("POST", "/segments", map[string]any{"id": "every_type", "name": "every_type", "type": "rule_based", "rules": every}), 201)
	expect(t, c.do("POST", "/segments/every_type/conditional", every), 200)
	for _, typ := range []string{"locale", "url", "public", "time", "passes_gate", "fails_gate", "target_app", "Email"} {
		for _, r := range []result{
			c.do("POST", "/segments", map[string]any{"id": "with_" + strings.ToLower(typ), "name": "with_" + strings.ToLower(typ), "type": "rule_based", "rules": []any{rule("email"), rule(typ)}}),
			c.do("POST", "/segments/every_type/conditional", []any{rule("email"), rule(typ)}),
		} {
			expect(t, r, 400)
			if msg := string(r.Raw); !strings.Contains(msg, fmt.Sprintf(`rules[1].conditions[0].type \"%s\" is not allowed in segments`, typ)) ||
				!strings.Contains(msg, strings.Join(SegmentConditionTypes, ", ")) {
				t.Errorf("%s: %s", typ, msg)
			}
		}
	}
	r := c.do("GET", "/segments/every_type", nil)
	if got := strings.Count(string(r.Raw), `"operator":"any"`); got != len(SegmentConditionTypes) {
		t.Errorf("the segment holds %d conditions after refused writes, want %d: %s", got, len(SegmentConditionTypes), r.Raw)
	}
}

// Stale members are listed only when asked for (row 36, snake_case on the wire), in their place
// among the others.
func TestUsersStaleMembers(t *testing.T) {
	_, c := newClient(t, Config{})
	emails := func(path string) []string {
		var out []string
		for page := 1; ; page++ {
			r := c.do("GET", fmt.Sprintf("%s&page=%d", path, page), nil)
			expect(t, r, 200)
			for _, u := range r.list() {
				out = append(out, u.(map[string]any)["email"].(string))
				if _, ok := u.(map[string]any)["stale"]; ok {
					t.Fatalf("a user carries the mock's stale mark: %v", u)
				}
			}
			if r.pg()["nextPage"] == nil {
				return out
			}
		}
	}
	current := emails("/users?limit=100")
	every := emails("/users?limit=100&include_stale_members=true")
	if len(current) != 250 || len(every) != 260 {
		t.Fatalf("%d current users and %d with stale members, want 250 and 260", len(current), len(every))
	}
	if !strings.HasPrefix(every[25], "former001@") || every[24] != current[24] {
		t.Errorf("stale members out of place: %v", every[20:30])
	}
	for _, e := range current {
		if strings.HasPrefix(e, "former") {
			t.Errorf("stale member %s listed without include_stale_members", e)
		}
	}
	if n := len(emails("/users?limit=100&includeStaleMembers=true")); n != 250 {
		t.Errorf("the camelCase parameter listed %d users: the service's is snake_case", n)
	}
}

func TestEvents(t *testing.T) {
	s, c := newClient(t, Config{EventRecords: 100000, PageSizeCap: 1000})
	r := c.do("GET", "/events/checkout_completed?limit=5000&page=100", nil)
	expect(t, r, 200)
	if r.pg()["totalItems"] != json.Number("100000") || r.pg()["itemsPerPage"] != json.Number("1000") || r.pg()["nextPage"] != nil {
		t.Fatalf("pagination %v", r.pg())
	}
	l := r.list()
	if len(l) != 1000 {
		t.Fatalf("len %d", len(l))
	}
	e0 := l[0].(map[string]any)
	if _, ok := e0["timestamp"].(string); !ok || e0["name"] != "checkout_completed" {
		t.Fatalf("event %v", e0)
	}
	if _, ok := e0["metadata"].(map[string]any); !ok {
		t.Fatalf("metadata %v", e0)
	}
	r = c.do("GET", "/events/signup", nil)
	if len(r.list()) != 3 {
		t.Fatalf("signup %s", r.Raw)
	}
	r = c.do("GET", "/events/unknown_event", nil)
	expect(t, r, 200)
	if len(r.list()) != 0 || r.Body["data"] == nil || r.pg()["totalItems"] != json.Number("0") || r.pg()["nextPage"] != nil {
		t.Fatalf("unknown event %s", r.Raw)
	}
	s.SetEvents("checkout_completed", []Event{{Timestamp: "1", Name: "checkout_completed", Metadata: map[string]any{"n": 1.5, "nested": map[string]any{"b": true}}}})
	r = c.do("GET", "/events/checkout_completed", nil)
	if len(r.list()) != 1 || !strings.Contains(string(r.Raw), `"n":1.5`) {
		t.Fatalf("SetEvents %s", r.Raw)
	}
	// increasing timestamps in generated events
	_, c2 := newClient(t, Config{})
	r = c2.do("GET", "/events/checkout_completed?limit=50", nil)
	if r.pg()["totalItems"] != json.Number("2500") {
		t.Fatalf("default records %v", r.pg())
	}
	prev := ""
	for _, x := range r.list() {
		ts := x.(map[string]any)["timestamp"].(string)
		increasing := len(ts) == len(prev) && ts > prev
		if prev != "" && !increasing {
			t.Fatalf("timestamps not increasing: %s after %s", ts, prev)
		}
		prev = ts
	}
}

func validSource(name string) map[string]any {
	return map[string]any{
		"name":            name,
		"sql":             "SELECT user_id, ts, amount FROM orders WHERE (amount > 0)",
		"timestampColumn": "ts",
		"idTypeMapping":   []any{map[string]any{"serviceUnitID": "userID", "column": "user_id"}},
		"description":     "Orders",
		"tags":            []any{"finance"},
		"customFieldMapping": []any{
			map[string]any{"key": "k", "formula": "amount * 2"},
		},
		"isVerified": true,
		"team":       "payments",
	}
}

func TestMetricSources(t *testing.T) {
	s, c := newClient(t, Config{})
	// dry run persists nothing
	body := validSource("orders")
	body["dryRun"] = true
	r := c.do("POST", "/metrics/metric_source", body)
	expect(t, r, 200)
	if len(s.MetricSourceNames()) != 0 {
		t.Fatal("dry run persisted")
	}
	delete(body, "dryRun")
	r = c.do("POST", "/metrics/metric_source", body)
	expect(t, r, 200)
	d := r.data()
	want := []string{"name", "description", "tags", "sql", "timestampColumn", "timestampAsDay", "idTypeMapping", "sourceType", "tableName"}
	if len(d) != len(want) {
		t.Fatalf("create response fields: %s", r.Raw)
	}
	for _, k := range want {
		if _, ok := d[k]; !ok {
			t.Fatalf("create response lacks %s", k)
		}
	}
	if d["sourceType"] != "query" {
		t.Fatalf("default sourceType %v", d["sourceType"])
	}
	r = c.do("POST", "/metrics/metric_source", body)
	expect(t, r, 400)
	if r.Body["message"] != "Name is already in use" {
		t.Fatalf("dup %v", r.Body["message"])
	}
	r = c.do("GET", "/metrics/metric_source/orders", nil)
	expect(t, r, 200)
	d = r.data()
	for _, k := range []string{"name", "sql", "timestampColumn", "idTypeMapping", "description", "tags", "timestampAsDay", "sourceType", "tableName", "datePartitionColumn", "customFieldMapping", "isReadOnly", "isVerified", "owner", "team", "teamID"} {
		if _, ok := d[k]; !ok {
			t.Fatalf("GET lacks %s: %s", k, r.Raw)
		}
	}
	if d["owner"] != nil || d["teamID"] != nil || d["team"] != "payments" || d["isVerified"] != true {
		t.Fatalf("GET %s", r.Raw)
	}
	expect(t, c.do("GET", "/metrics/metric_source/nope", nil), 404)

	// update
	upd := validSource("orders")
	upd["description"] = "changed"
	upd["sourceType"] = "table"
	upd["tableName"] = "db.orders"
	upd["dryRun"] = true
	expect(t, c.do("POST", "/metrics/metric_source/orders", upd), 200)
	if m, _ := s.MetricSource("orders"); m.Description != "Orders" {
		t.Fatal("update dry run persisted")
	}
	delete(upd, "dryRun")
	r = c.do("POST", "/metrics/metric_source/orders", upd)
	expect(t, r, 200)
	if r.data()["description"] != "changed" || r.data()["tableName"] != "db.orders" {
		t.Fatalf("update %s", r.Raw)
	}
	upd["name"] = "other"
	expect(t, c.do("POST", "/metrics/metric_source/orders", upd), 400)
	expect(t, c.do("POST", "/metrics/metric_source/nope", validSource("nope")), 404)

	// validation
	for mut, want := range map[string]string{
		"name":      "name",
		"sql":       "sql",
		"ts":        "timestampColumn",
		"idmap":     "idTypeMapping",
		"idcol":     "idTypeMapping[0].column",
		"srctype":   "sourceType",
		"table":     "tableName",
		"badsql":    `syntax error at or near "SELEC"`,
		"parens":    "unbalanced parentheses",
		"unknown":   `"bogus"`,
		"wrongtype": "timestampAsDay",
	} {
		b := validSource("v_" + mut)
		switch mut {
		case "name":
			b["name"] = ""
		case "sql":
			b["sql"] = " "
		case "ts":
			delete(b, "timestampColumn")
		case "idmap":
			b["idTypeMapping"] = []any{}
		case "idcol":
			b["idTypeMapping"] = []any{map[string]any{"serviceUnitID": "u"}}
		case "srctype":
			b["sourceType"] = "view"
		case "table":
			b["sourceType"] = "table"
		case "badsql":
			b["sql"] = "  SELEC * FROM x"
		case "parens":
			b["sql"] = "with a as (select 1 select * from a"
		case "unknown":
			b["bogus"] = 1
		case "wrongtype":
			b["timestampAsDay"] = "yes"
		}
		for _, dry := range []bool{true, false} {
			b["dryRun"] = dry
			r := c.do("POST", "/metrics/metric_source", b)
			expect(t, r, 400)
			if !strings.Contains(r.Body["message"].(string), want) {
				t.Errorf("%s: %v lacks %q", mut, r.Body["message"], want)
			}
		}
	}
	if n := s.MetricSourceNames(); len(n) != 1 {
		t.Fatalf("names %v", n)
	}

	// delete
	r = c.do("DELETE", "/metrics/metric_source/orders", nil)
	expect(t, r, 200)
	if string(bytes.TrimSpace(r.Raw)) != `{"message":"deleted","data":{}}` {
		t.Fatalf("delete body %s", r.Raw)
	}
	expect(t, c.do("DELETE", "/metrics/metric_source/orders", nil), 404)

	// accessors
	s.PutMetricSource(MetricSource{Name: "b"})
	s.PutMetricSource(MetricSource{Name: "a", Owner: &Owner{OwnerID: "u1", OwnerType: "USER"}})
	if n := s.MetricSourceNames(); strings.Join(n, ",") != "a,b" {
		t.Fatalf("names %v", n)
	}
	r = c.do("GET", "/metrics/metric_source/a", nil)
	if !strings.Contains(string(r.Raw), `"ownerType":"USER"`) || !strings.Contains(string(r.Raw), `"tags":[]`) {
		t.Fatalf("put source %s", r.Raw)
	}
	s.DeleteMetricSource("a")
	if _, ok := s.MetricSource("a"); ok {
		t.Fatal("not deleted")
	}
}

func TestFaults(t *testing.T) {
	s, c := newClient(t, Config{})
	s.SetFaults(Faults{FailEvery: 3, RetryAfter: "2"})
	var statuses []int
	for range 6 {
		statuses = append(statuses, c.do("GET", "/gates/dark_mode", nil).Status)
	}
	if fmt.Sprint(statuses) != "[200 200 503 200 200 503]" {
		t.Fatalf("statuses %v", statuses)
	}
	c.do("GET", "/gates/dark_mode", nil)
	c.do("GET", "/gates/dark_mode", nil)
	r := c.do("PATCH", "/gates/dark_mode/rules", `{"rules":[{"name":"never"}]}`)
	expect(t, r, 429)
	if r.Header.Get("Retry-After") != "2" {
		t.Fatalf("retry-after %q", r.Header.Get("Retry-After"))
	}
	if g, _ := s.Gate("dark_mode"); len(g.Rules) != 0 {
		t.Fatal("faulted write was committed")
	}

	s.SetFaults(Faults{LoseWriteEvery: 2})
	body := validSource("lost")
	expect(t, c.do("POST", "/metrics/metric_source", validSource("first")), 200)
	r = c.do("POST", "/metrics/metric_source", body)
	if r.Status != 502 || !strings.Contains(string(r.Raw), "<html>") {
		t.Fatalf("lost write %d %s", r.Status, r.Raw)
	}
	if _, ok := s.MetricSource("lost"); !ok {
		t.Fatal("lost write not committed")
	}
	r = c.do("POST", "/metrics/metric_source", body)
	expect(t, r, 400) // already in use: the client must read back

	s.SetFaults(Faults{RawBody: `{"message": "ok", "data": [`, RawStatus: 200})
	r = c.do("GET", "/gates/dark_mode", nil)
	if r.Status != 200 || string(r.Raw) != `{"message": "ok", "data": [` {
		t.Fatalf("raw %d %s", r.Status, r.Raw)
	}
	s.SetFaults(Faults{})
	expect(t, c.do("GET", "/gates/dark_mode", nil), 200)
	if n := s.CountRequests("GET", "/gates/"); n < 10 {
		t.Fatalf("count %d", n)
	}
	if n := s.CountRequests("POST", "/metrics/"); n != 3 {
		t.Fatalf("count POST %d", n)
	}
	reqs := s.Requests()
	last := reqs[len(reqs)-1]
	if last.Path != "/console/v1/gates/dark_mode" || last.Status != 200 || last.Method != "GET" {
		t.Fatalf("last %+v", last)
	}
	s.ResetRequests()
	if len(s.Requests()) != 0 {
		t.Fatal("reset")
	}
}

func TestWriteRateLimit(t *testing.T) {
	s, c := newClient(t, Config{WriteLimit: 3, WriteWindow: 2500 * time.Millisecond})
	for range 3 {
		expect(t, c.do("PATCH", "/gates/dark_mode/rules", `{"rules":[]}`), 200)
	}
	// reads are not limited
	expect(t, c.do("GET", "/gates/dark_mode", nil), 200)
	r := c.do("PATCH", "/gates/dark_mode/rules", `{"rules":[]}`)
	expect(t, r, 429)
	if ra := r.Header.Get("Retry-After"); ra != "3" && ra != "2" {
		t.Fatalf("Retry-After %q", ra)
	}
	// advance the clock
	s.mu.Lock()
	s.now = func() time.Time { return time.Now().Add(3 * time.Second) }
	s.mu.Unlock()
	expect(t, c.do("PATCH", "/gates/dark_mode/rules", `{"rules":[]}`), 200)
}

// make mock's limits are the service's: the 101st write within 10 s is refused; without limits,
// neither the project's nor the id endpoints' own refuse anything.
func TestServiceWriteLimits(t *testing.T) {
	_, c := newClient(t, Config{}.WithServiceLimits())
	for range ServiceWriteLimit {
		expect(t, c.do("PATCH", "/gates/dark_mode/rules", `{"rules":[]}`), 200)
	}
	expect(t, c.do("PATCH", "/gates/dark_mode/rules", `{"rules":[]}`), 429)

	_, c = newClient(t, Config{}.WithServiceLimits())
	for i := range DefaultIDListLimit.N + 1 {
		want := 200
		if i == DefaultIDListLimit.N {
			want = 429
		}
		expect(t, c.do("PATCH", "/segments/segment_01/id_list", fmt.Sprintf(`{"ids":["u_%d"]}`, i)), want)
	}

	_, c = newClient(t, Config{}.WithServiceLimits().WithoutWriteLimits())
	for i := range ServiceWriteLimit + DefaultIDListLimit.N + 1 {
		expect(t, c.do("PATCH", "/segments/segment_01/id_list", fmt.Sprintf(`{"ids":["u_%d"]}`, i)), 200)
	}
}

func TestLatencyAndCancel(t *testing.T) {
	s, c := newClient(t, Config{Latency: 30 * time.Millisecond})
	start := time.Now()
	expect(t, c.do("GET", "/gates/dark_mode", nil), 200)
	if time.Since(start) < 30*time.Millisecond {
		t.Fatal("latency not applied")
	}
	s.SetLatency(time.Hour)
	req := httptest.NewRequest("GET", "/console/v1/gates/dark_mode", nil)
	req.Header.Set("SERVICE-API-KEY", DefaultAPIKey)
	ctx, cancel := contextWithTimeout(20 * time.Millisecond)
	defer cancel()
	req = req.WithContext(ctx)
	done := make(chan struct{})
	go func() { s.ServeHTTP(httptest.NewRecorder(), req); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("cancel not honoured")
	}
	s.SetLatency(0)
}

// New stays fast with many event records because they are generated when read, never stored:
// asserted on the state rather than timed (a timed test fails on a loaded machine).
func TestNewDoesNotMaterialiseEvents(t *testing.T) {
	s := New(Config{EventRecords: 100000})
	s.mu.Lock()
	stored, generated := len(s.events[checkoutEvent]), s.genEvents
	s.mu.Unlock()
	if stored != 0 || generated != 100000 {
		t.Fatalf("%d records stored, %d generated on demand; want 0 and 100000", stored, generated)
	}
	if got := s.EventRecords(checkoutEvent); len(got) != 100000 || got[99999].Name != checkoutEvent {
		t.Fatalf("reading gives %d records", len(got))
	}
}

func TestConcurrency(t *testing.T) {
	s, c := newClient(t, Config{PageSizeCap: 50})
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gate := fmt.Sprintf("gate_%03d", i+1)
			for j := range 10 {
				switch j % 5 {
				case 0:
					c.do("PATCH", "/gates/"+gate+"/rules", fmt.Sprintf(`{"rules":[{"name":"r%d","passPercentage":%d}]}`, j, j))
				case 1:
					c.do("GET", "/gates/"+gate, nil)
				case 2:
					c.do("GET", "/users?page=2", nil)
				case 3:
					c.do("POST", "/metrics/metric_source", validSource(fmt.Sprintf("src_%d_%d", i, j)))
				case 4:
					s.Gate(gate)
					s.Requests()
					s.CountRequests("", "/")
					s.SetFaults(Faults{})
				}
			}
		}()
	}
	wg.Wait()
	if n := len(s.MetricSourceNames()); n != 32 {
		t.Fatalf("sources %d", n)
	}
}

func BenchmarkEventsPage(b *testing.B) {
	s := New(Config{EventRecords: 100000})
	req := httptest.NewRequest("GET", "/console/v1/events/checkout_completed?page=900&limit=100", nil)
	req.Header.Set("SERVICE-API-KEY", DefaultAPIKey)
	for b.Loop() {
		s.ServeHTTP(httptest.NewRecorder(), req)
	}
}

func contextWithTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

func TestEventRecords(t *testing.T) {
	s, c := newClient(t, Config{EventRecords: 250})
	recs := s.EventRecords("checkout_completed")
	if len(recs) != 250 {
		t.Fatalf("len %d", len(recs))
	}
	// The records are the ones the listing serves, in the same order.
	r := c.do("GET", "/events/checkout_completed?limit=250", nil)
	want, _ := json.Marshal(recs)
	got, _ := json.Marshal(r.Body["data"])
	var a, b any
	_ = json.Unmarshal(want, &a)
	_ = json.Unmarshal(got, &b)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("EventRecords differ from the listing:\n%s\n%s", want[:200], got[:200])
	}
	if n := len(s.EventRecords("signup")); n != 3 {
		t.Fatalf("signup %d", n)
	}
	if l := s.EventRecords("unknown_event"); l == nil || len(l) != 0 {
		t.Fatalf("unknown event %v", l)
	}
	recs[0].Metadata["currency"] = "XXX"
	if s.EventRecords("checkout_completed")[0].Metadata["currency"] == "XXX" {
		t.Fatal("EventRecords returned shared metadata")
	}
}
