// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Habits switches on what the live service does that the seed does not show (HABITS.md). Each is
// off by default, so the mock answers in the seed's tidy form; a test switches on the ones it
// proves, and AllHabits (or FEATURECONSOLE_MOCK_HABITS=all, see HabitsFromEnv) switches on every
// one of them at once.
type Habits struct {
	// ExtraFields: objects carry fields the seed does not list; empty strings are left out and
	// empty lists come back null.
	ExtraFields bool
	// NumberForms: integers come back as 3600000.0, percentages with binary float noise
	// (33.33 → 33.330000000000005, 100 → 100.0), other fractions with a trailing zero (12.50).
	NumberForms bool
	// StringTargets: numeric condition targets are stored and returned as strings ([18] → ["18"]).
	StringTargets bool
	// ConsoleRules: the rules gates already have were written in the console (id == baseID, null
	// operator and targetValue, a lone target as a scalar, no environments, returnValue null), and
	// every write gives every rule of the gate a new id (a baseID sent back is kept).
	ConsoleRules bool
	// SegmentRuleObject: lists show a segment's rules in an older form, its first rule alone as an
	// object (nothing for id-list segments); the document answers an array of every rule.
	SegmentRuleObject bool
	// PagingLinks: nextPage and previousPage are scheme-less host-relative links to another host,
	// all is "", totalItems is missing.
	PagingLinks bool
	// Created201: successful writes are answered 201.
	Created201 bool
	// Charset: Content-Type carries a charset.
	Charset bool
	// Gzip: bodies are gzip-encoded when the client accepts it.
	Gzip bool
	// EmptyWrites: successful writes of gates, pipelines, metric sources, metrics and segments are answered 200 with
	// an empty body (writes carrying dryRun keep theirs).
	EmptyWrites bool
	// DropIdle: every third request that comes on a connection used before (a pooled keep-alive
	// connection) has it closed under it, unanswered and unprocessed, as a server closing an idle
	// keep-alive connection does; a new connection's first request is never dropped.
	DropIdle bool
	// ErrorForm is the form of error bodies: "" (the contract's {"status","message"}), "nestjs"
	// ({"statusCode","message": [strings],"error"}) or "text" (the message as plain text).
	ErrorForm string
	// AuthAs403: a bad key is answered 403 with a body that says 401.
	AuthAs403 bool
	// Reviews: with x-respect-review-settings: true, writes to gates and pipelines are held for
	// review (see ApproveReview) instead of applied.
	Reviews bool
	// ReviewCommits: with Reviews, an approved change of a gate is not applied until its review is
	// committed (PUT /gates/{id}/reviews/{reviewID}/commit, or CommitReview in the console);
	// pipelines keep the form where approval applies.
	ReviewCommits bool
	// PartialRuleWrites: on gates served by an old service version (see ServeOldRuleWrites), a
	// write of the rules changes only rules the gate already holds (matched by baseID), ignores
	// added rules, keeps omitted ones, and still answers 200 with the gate.
	PartialRuleWrites bool
	// ScheduledRollouts: gate rules carry pendingAutomatedRollouts and completedAutomatedRollouts
	// ([] when none), and at each scheduled time (the run clock's) the service sets the rule's
	// passPercentage itself (see ScheduleRollouts).
	ScheduledRollouts bool

	// The habits below are the ones issue 21 found (habits_wire.go).

	// UnpagedLists: lists answer the whole list in data, without a pagination object.
	UnpagedLists bool
	// PageIgnored: lists ignore page and answer the first page every time, still linking a next one.
	PageIgnored bool
	// LimitCeiling: lists refuse a limit above 100 with a 400.
	LimitCeiling bool
	// NoRetryAfter: a write refused by the write limits (Config.WriteLimit, WriteLimitLong) is
	// answered 429 without Retry-After.
	NoRetryAfter bool
	// ReadOnlyKey: the mock also accepts ReadOnlyAPIKey, a key whose reads are served and whose
	// writes are answered 403.
	ReadOnlyKey bool
	// RoleNames: users' roles come as the console's display names (admin → "Admin", member →
	// "Member", read_only → "Read Only"; custom roles as they are named).
	RoleNames bool
	// OwnerLater: a metric source or gate created through the API gets its owner (SDK_KEY, "CONSOLE
	// API") although the create answer leaves it out, and every write of a gate's rules or a pipeline
	// records a new lastModifierID.
	OwnerLater bool
	// Placeholders: metric source reads carry placeholders for "not set": customFieldMapping
	// [{"key":"","formula":""}], tableName "" and no sourceType for a query source.
	Placeholders bool
	// ConsolePipelineRules: the rules of pipeline phases read as the console writes them: operator
	// and an empty targetValue null, a lone target a scalar (a number stays a number), no
	// environments.
	ConsolePipelineRules bool
	// PartialPipelineWrites: on pipelines served by an old service version (see
	// ServeOldPipelineWrites), an update applies only what changes phases and rules the pipeline
	// already holds (matched by id), ignores added ones, keeps omitted ones, and answers 200 with
	// what it holds.
	PartialPipelineWrites bool

	// The habits of dynamic configs on the 2025 wire (habits_configs.go).

	// BareTargetApps: a gate or config with one target app answers it as a bare string.
	BareTargetApps bool
	// JSON5Copies: configs answer schemaJson5, defaultValueJson5 and each rule's returnValueJson5 as
	// the console's JSON5 text (comments, unquoted keys, trailing commas).
	JSON5Copies bool
	// SchemaReserialised: a config's schema text comes back with its keys in another order and whole
	// numbers as 1.0.
	SchemaReserialised bool
	// SegmentsWithoutCount: segments come without count, as the 2025-12 document has them (the id
	// list's own page, GET /segments/{id}/id_list, keeps its count).
	SegmentsWithoutCount bool

	// ExampleForms: where the service's document shows an answer in its examples unlike its schema,
	// the example's form (habits_examples.go): pulse results in snake_case without metricName and
	// ds, an experiment's update answered with part of it, a segment's one rule as an object, and
	// deletes, archives and rule writes answered by a message alone. ServeExperimentsAsExample
	// adds reads without controlGroupID and with an id on the first group alone.
	ExampleForms bool
}

// AllHabits is every habit at once (errors in the NestJS form). A 409 is no habit but the answer to
// a concurrent edit: see ConflictOnNextWrites.
func AllHabits() Habits {
	var h Habits
	for _, on := range h.switches() {
		*on = true
	}
	h.ErrorForm = "nestjs"
	return h
}

// switches names every habit that is on or off, by its field name: the one list ParseHabits,
// HabitNames and AllHabits read.
func (h *Habits) switches() map[string]*bool {
	m := map[string]*bool{
		"ExtraFields": &h.ExtraFields, "NumberForms": &h.NumberForms, "StringTargets": &h.StringTargets,
		"ConsoleRules": &h.ConsoleRules, "SegmentRuleObject": &h.SegmentRuleObject, "PagingLinks": &h.PagingLinks,
		"Created201": &h.Created201, "Charset": &h.Charset, "Gzip": &h.Gzip, "EmptyWrites": &h.EmptyWrites,
		"DropIdle": &h.DropIdle, "AuthAs403": &h.AuthAs403, "Reviews": &h.Reviews, "ReviewCommits": &h.ReviewCommits,
		"PartialRuleWrites": &h.PartialRuleWrites, "ScheduledRollouts": &h.ScheduledRollouts,
		"UnpagedLists": &h.UnpagedLists, "PageIgnored": &h.PageIgnored, "LimitCeiling": &h.LimitCeiling,
		"NoRetryAfter": &h.NoRetryAfter, "ReadOnlyKey": &h.ReadOnlyKey, "RoleNames": &h.RoleNames,
		"OwnerLater": &h.OwnerLater, "Placeholders": &h.Placeholders,
		"ConsolePipelineRules": &h.ConsolePipelineRules, "PartialPipelineWrites": &h.PartialPipelineWrites,
		"SegmentsWithoutCount": &h.SegmentsWithoutCount, "ExampleForms": &h.ExampleForms,
	}
	maps.Copy(m, h.configHabits())
	return m
}

// With is h with every habit of o switched on as well; o's ErrorForm, when set, wins.
func (h Habits) With(o Habits) Habits {
	ons := h.switches()
	for name, on := range o.switches() {
		if *on {
			*ons[name] = true
		}
	}
	h.ErrorForm = cmp.Or(o.ErrorForm, h.ErrorForm)
	return h
}

// errorForms are the values of Habits.ErrorForm besides the contract's own "".
var errorForms = []string{"nestjs", "text"}

// HabitsEnv names the environment variable HabitsFromEnv reads.
const HabitsEnv = "FEATURECONSOLE_MOCK_HABITS"

// HabitsFromEnv reads FEATURECONSOLE_MOCK_HABITS: "all", or a comma-separated list of habit names
// (the field names, case-insensitive; "nestjs" and "text" set ErrorForm). Unset or "" is none.
func HabitsFromEnv() (Habits, error) {
	return ParseHabits(os.Getenv(HabitsEnv))
}

// ParseHabits reads a habit list as HabitsFromEnv does.
func ParseHabits(spec string) (Habits, error) {
	var h Habits
	for _, name := range strings.Split(spec, ",") {
		word := strings.ToLower(strings.TrimSpace(name))
		switch {
		case word == "":
		case word == "all":
			h = AllHabits()
		case slices.Contains(errorForms, word):
			h.ErrorForm = word
		default:
			on := h.switchNamed(word)
			if on == nil {
				return Habits{}, fmt.Errorf("%s: unknown habit %q", HabitsEnv, name)
			}
			*on = true
		}
	}
	return h, nil
}

// switchNamed is the switch of the habit named word (lower case), or nil.
func (h *Habits) switchNamed(word string) *bool {
	for name, on := range h.switches() {
		if strings.ToLower(name) == word {
			return on
		}
	}
	return nil
}

// SetHabits switches habits on and off. Switching ConsoleRules on turns the rules gates hold now
// into rules written in the console.
func (s *Server) SetHabits(h Habits) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.habits = h
	if h.ConsoleRules {
		for _, st := range s.gates {
			for i := range st.gate.Rules {
				st.gate.Rules[i].ID = st.gate.Rules[i].BaseID
			}
		}
	}
}

// Habits returns the habits switched on.
func (s *Server) Habits() Habits {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.habits
}

// dropConnection closes, when DropIdle is on, the connection under every third request that comes
// on a connection that served one before (a pooled, idle keep-alive connection, which a server
// closes when it has waited long enough), before the request is processed; it reports whether it
// did. A new connection is never closed under its first request: the service does not do that.
func (s *Server) dropConnection(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	drop := false
	if s.habits.DropIdle {
		if s.servedConns == nil {
			s.servedConns = map[string]bool{}
		}
		if s.servedConns[r.RemoteAddr] {
			s.dropCounter++
			drop = s.dropCounter%3 == 0
		}
		// A dropped connection is gone: the address may come back as a new one.
		s.servedConns[r.RemoteAddr] = !drop
	}
	s.mu.Unlock()
	return drop && hangUp(w)
}

// hangUp closes the connection of w without an answer; it reports whether it could.
func hangUp(w http.ResponseWriter) bool {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return false
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		return false
	}
	_ = conn.Close()
	return true
}

// decorate gives an answer the form the live service gives it; s.mu is held.
func (s *Server) decorate(r *http.Request, resp response) response {
	h := s.habits
	ok := resp.status >= 200 && resp.status < 300
	mut := isMutating(r.Method)
	if ok && len(resp.body) > 0 && (h != Habits{} || len(s.reviews) > 0) {
		resp.body = s.reshapeBody(r, resp.body)
	}
	if !ok && h.ErrorForm != "" {
		resp = reshapeError(resp, h.ErrorForm)
	}
	if ok && mut && h.EmptyWrites && isObjectWrite(r) && !bytes.Contains(resp.body, []byte(`dry run`)) {
		resp.body = nil
	}
	if ok && mut && h.Created201 {
		resp.status = http.StatusCreated
	}
	if h.Charset && resp.contentType != "" && !strings.Contains(resp.contentType, "charset") {
		resp.contentType += "; charset=utf-8"
	}
	if h.Gzip && len(resp.body) > 0 && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		_, _ = zw.Write(resp.body)
		_ = zw.Close()
		resp.body = b.Bytes()
		if resp.header == nil {
			resp.header = http.Header{}
		}
		resp.header.Set("Content-Encoding", "gzip")
		resp.header.Add("Vary", "Accept-Encoding")
	}
	return resp
}

// isObjectWrite is a write of a gate (its fields or its rules), a pipeline (its create and delete
// included), a metric source, a metric or a segment.
func isObjectWrite(r *http.Request) bool {
	p := strings.TrimPrefix(r.URL.Path, basePath)
	return p == "/gates" || strings.HasPrefix(p, "/gates/") || strings.HasPrefix(p, "/release_pipelines") ||
		strings.HasPrefix(p, "/metrics") || strings.HasPrefix(p, "/segments") ||
		strings.HasPrefix(p, "/dynamic_configs")
}

// reshapeBody rewrites a success envelope; a body it cannot read is left as it is.
func (s *Server) reshapeBody(r *http.Request, body []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var env map[string]any
	if dec.Decode(&env) != nil || env == nil {
		return body
	}
	h := s.habits
	if h.ExampleForms {
		s.exampleForm(r, env)
	}
	if data, ok := env["data"]; ok {
		s.withActiveReview(r, data)
		if h.ConsolePipelineRules && strings.HasPrefix(strings.TrimPrefix(r.URL.Path, basePath), "/release_pipelines") {
			consolePipelineRules(data)
		}
		h.reshapeConfigs(r, data)
		if h.SegmentsWithoutCount && segmentObjects(r) {
			withoutCount(data)
		}
		env["data"] = h.reshape(data, "")
		if h.Placeholders && r.Method == http.MethodGet && strings.HasPrefix(strings.TrimPrefix(r.URL.Path, basePath), "/metrics/metric_source/") {
			sourcePlaceholders(env["data"])
		}
	}
	if h.UnpagedLists {
		delete(env, "pagination")
	}
	if pg, ok := env["pagination"].(map[string]any); ok && h.PagingLinks {
		delete(pg, "totalItems")
		pg["all"] = ""
		for _, k := range []string{"nextPage", "previousPage"} {
			if link, ok := pg[k].(string); ok {
				pg[k] = "console.elsewhere.example" + link // scheme-less, another host
			}
		}
	}
	return marshal(env)
}

// reshape rewrites one decoded JSON value found under key.
func (h Habits) reshape(v any, key string) any {
	switch t := v.(type) {
	case map[string]any:
		if opaqueKeys[key] {
			return t // the user's own JSON: returned as it was written
		}
		if h.ConsoleRules {
			consoleRuleShape(t)
		}
		if h.ScheduledRollouts && key == "rules" {
			scheduleFields(t)
		}
		for k, x := range t {
			t[k] = h.reshape(x, k)
			if h.ExtraFields {
				if str, ok := t[k].(string); ok && str == "" {
					delete(t, k)
				} else if arr, ok := t[k].([]any); ok && len(arr) == 0 {
					t[k] = nil
				}
			}
		}
		if h.ExtraFields {
			t["updatedTime"] = json.Number("1700000000000")
			t["auditInfo"] = map[string]any{"source": "console", "schemaVersion": json.Number("3")}
		}
		return t
	case []any:
		for i, x := range t {
			if key == "targetValue" && h.StringTargets {
				if n, ok := x.(json.Number); ok {
					t[i] = numberText(n)
					continue
				}
			}
			t[i] = h.reshape(x, key)
		}
		return t
	case json.Number:
		if key == "targetValue" && h.StringTargets {
			return numberText(t)
		}
		if h.NumberForms {
			return numberForm(t, key)
		}
	}
	return v
}

// numberText is a number as the service's JavaScript turns it into a string: 19.50 → "19.5".
func numberText(n json.Number) string {
	f, err := n.Float64()
	if err != nil {
		return string(n)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// opaqueKeys hold JSON written by users (return values, an experiment group's parameter values,
// event metadata, a change under review), which the service keeps as it is.
var opaqueKeys = map[string]bool{"returnValue": true, "returnValueJson5": true, "metadata": true, "change": true,
	"defaultValue": true, "schema": true, "parameterValues": true}

// numberForm writes a number as the live service may: percentages with float noise, integers with
// ".0", fractions with a trailing zero.
func numberForm(n json.Number, key string) json.Number {
	f, err := n.Float64()
	if err != nil || math.IsInf(f, 0) {
		return n
	}
	whole := f == math.Trunc(f) && math.Abs(f) < 1e15
	switch {
	case whole:
		return json.Number(strconv.FormatFloat(f, 'f', 1, 64))
	case key == "passPercentage":
		return json.Number(strconv.FormatFloat(math.Nextafter(f, math.Inf(1)), 'g', -1, 64))
	case strings.Contains(string(n), ".") && !strings.ContainsAny(string(n), "eE"):
		return n + "0"
	}
	return n
}

// consoleRuleShape gives a gate rule written in the console (id == baseID) the shape the console
// writes: operator and an empty targetValue null, a lone target a scalar, no environments,
// returnValue null.
func consoleRuleShape(rule map[string]any) {
	id, _ := rule["id"].(string)
	base, _ := rule["baseID"].(string)
	if id == "" || id != base {
		return
	}
	consoleConditionsShape(rule)
	if rv, _ := rule["returnValue"].(map[string]any); len(rv) == 0 {
		rule["returnValue"] = nil
	}
}

// consoleConditionsShape is the part of the console's shape that gate and pipeline rules share: no
// environments, operator and an empty targetValue null, a lone target a scalar.
func consoleConditionsShape(rule map[string]any) {
	if envs, _ := rule["environments"].([]any); len(envs) == 0 {
		delete(rule, "environments")
	}
	conds, _ := rule["conditions"].([]any)
	for _, c := range conds {
		cm, ok := c.(map[string]any)
		if !ok {
			continue
		}
		if op, _ := cm["operator"].(string); op == "" {
			cm["operator"] = nil
		}
		tv, isList := cm["targetValue"].([]any)
		switch {
		case !isList: // a scalar or null already
		case len(tv) == 0:
			cm["targetValue"] = nil
		case len(tv) == 1:
			cm["targetValue"] = tv[0]
		}
	}
}

// consolePipelineRules gives every rule of the pipelines in data (one pipeline or a list) the
// console's shape.
func consolePipelineRules(data any) {
	pipelines, ok := data.([]any)
	if !ok {
		pipelines = []any{data}
	}
	for _, p := range pipelines {
		pm, _ := p.(map[string]any)
		phases, _ := pm["phases"].([]any)
		for _, ph := range phases {
			phm, _ := ph.(map[string]any)
			rules, _ := phm["rules"].([]any)
			for _, r := range rules {
				if rm, ok := r.(map[string]any); ok {
					consoleConditionsShape(rm)
				}
			}
		}
	}
}

// reshapeError rewrites an error of the contract's form into another form the service uses.
func reshapeError(resp response, form string) response {
	var eb errorBody
	if json.Unmarshal(resp.body, &eb) != nil || eb.Message == "" {
		return resp
	}
	switch form {
	case "nestjs":
		var msg any = eb.Message
		if resp.status == http.StatusBadRequest {
			// Validation errors come as a list, one message per broken constraint.
			parts := []any{}
			for _, p := range strings.Split(eb.Message, "; ") {
				parts = append(parts, p)
			}
			msg = parts
		}
		code := cmp.Or(eb.Status, resp.status) // a 403 may still say 401
		resp.body = marshal(map[string]any{"statusCode": code, "message": msg, "error": http.StatusText(code)})
	case "text":
		resp.body = []byte(eb.Message + "\n")
		resp.contentType = "text/plain"
	}
	return resp
}

// HabitNames lists the names ParseHabits knows, sorted.
func HabitNames() []string {
	var h Habits
	names := slices.AppendSeq(slices.Clone(errorForms), maps.Keys(h.switches()))
	sort.Strings(names)
	return names
}

// ConflictOnNextWrites answers the next n writes 409, as the service does when someone else edited
// the object at the same time; they are not applied.
func (s *Server) ConflictOnNextWrites(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conflicts = n
}

// conflict answers a write 409 while ConflictOnNextWrites asks for it; s.mu is held.
func (s *Server) conflict(r *http.Request) (response, bool) {
	if s.conflicts <= 0 || !isMutating(r.Method) {
		return response{}, false
	}
	s.conflicts--
	return errResp(http.StatusConflict, "The object was modified by another request. Reload it and try again."), true
}
