// Package mockconsole is an in-memory, faithful mock of the service's console
// API (/console/v1) used by acceptance tests, the demo and benchmarks.
package mockconsole

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// DefaultAPIKey is the key used when Config.APIKey is empty.
const DefaultAPIKey = "mock-api-key"

const (
	basePath        = "/console/v1"
	apiKeyHeader    = "SERVICE-API-KEY"
	modifierName    = "Console API"
	modifierID      = "api_key"
	maxBodyBytes    = 32 << 20
	checkoutEvent   = "checkout_completed"
	defaultEvents   = 2500
	defaultLimit    = 100
	defaultWriteWin = 10 * time.Second
)

// Config configures a Server.
type Config struct {
	APIKey       string        // "" → DefaultAPIKey
	PageSizeCap  int           // 0 → no cap
	EventRecords int           // records seeded for event "checkout_completed"; 0 → 2500
	Latency      time.Duration // added to every request (honours request context cancel)
	WriteLimit   int           // >0: at most WriteLimit mutating requests per WriteWindow; beyond → 429
	WriteWindow  time.Duration // default 10s
	NoSeed       bool          // start empty
}

// Faults injects failures.
type Faults struct {
	FailEvery      int    // every Nth request (global counter over all requests) fails instead of being served
	ReadStatus     int    // status for a failed GET (default 503)
	WriteStatus    int    // status for a failed write (default 429)
	RetryAfter     string // Retry-After header on 429 fault responses ("" → "0")
	LoseWriteEvery int    // every Nth mutating request (separate counter) is committed, but answered 502 with an HTML body
	RawBody        string // if non-empty, every response is replaced by this raw body with RawStatus (default 200)
	RawStatus      int
}

type gateState struct {
	gate    Gate
	counter int
}

type pipelineState struct {
	p      Pipeline
	locked bool
}

// Server is the mock console API. It implements http.Handler.
type Server struct {
	apiKey      string
	pageCap     int
	writeLimit  int
	writeWindow time.Duration

	mu          sync.Mutex
	latency     time.Duration
	faults      Faults
	reqCounter  int
	writeCount  int
	writeTimes  []time.Time
	log         []Request
	gates       map[string]*gateState
	pipelines   map[string]*pipelineState
	sources     map[string]MetricSource
	users       []User
	segments    []Segment
	events      map[string][]Event
	genEvents   int // lazily generated checkout_completed records (unless overridden in events)
	idCounter   int
	rng         *rand.Rand
	usedBaseIDs map[string]bool
	now         func() time.Time
}

// New returns a server, seeded with deterministic data unless cfg.NoSeed.
func New(cfg Config) *Server {
	s := &Server{
		apiKey:      cfg.APIKey,
		pageCap:     cfg.PageSizeCap,
		writeLimit:  cfg.WriteLimit,
		writeWindow: cfg.WriteWindow,
		latency:     cfg.Latency,
		gates:       map[string]*gateState{},
		pipelines:   map[string]*pipelineState{},
		sources:     map[string]MetricSource{},
		events:      map[string][]Event{},
		rng:         rand.New(rand.NewPCG(0x5eed, 0xfeed)),
		usedBaseIDs: map[string]bool{},
		now:         time.Now,
	}
	if s.apiKey == "" {
		s.apiKey = DefaultAPIKey
	}
	if s.writeWindow <= 0 {
		s.writeWindow = defaultWriteWin
	}
	if !cfg.NoSeed {
		n := cfg.EventRecords
		if n <= 0 {
			n = defaultEvents
		}
		s.seed(n)
	}
	return s
}

// NewTestServer starts an httptest server serving a new Server; t.Cleanup closes it.
func NewTestServer(t testing.TB, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	s := New(cfg)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

// SetLatency changes the latency added to every request.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}

// SetFaults replaces the fault configuration and resets the fault counters.
func (s *Server) SetFaults(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = f
	s.reqCounter = 0
	s.writeCount = 0
}

// ---- HTTP plumbing ----

type response struct {
	status      int
	body        []byte
	contentType string
	header      http.Header
}

type errorBody struct {
	Status  int    `json:"status"`
	Message string `json:"message"`
}

type envelope struct {
	Message string `json:"message"`
	Data    any    `json:"data"`
}

type listEnvelope struct {
	Message    string     `json:"message"`
	Data       any        `json:"data"`
	Pagination pagination `json:"pagination"`
}

type pagination struct {
	ItemsPerPage int     `json:"itemsPerPage"`
	PageNumber   int     `json:"pageNumber"`
	TotalItems   int     `json:"totalItems"`
	NextPage     *string `json:"nextPage"`
	PreviousPage *string `json:"previousPage"`
	All          string  `json:"all"`
}

func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Should not happen: stored values are JSON-safe.
		b, _ := json.Marshal(errorBody{Status: 500, Message: "internal error: " + err.Error()})
		return b
	}
	return buf.Bytes()
}

func jsonResp(status int, v any) response {
	return response{status: status, body: marshal(v), contentType: "application/json"}
}

func errResp(status int, format string, args ...any) response {
	return jsonResp(status, errorBody{Status: status, Message: fmt.Sprintf(format, args...)})
}

func okResp(msg string, data any) response {
	return jsonResp(http.StatusOK, envelope{Message: msg, Data: data})
}

func isMutating(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes))

	s.mu.Lock()
	lat := s.latency
	s.mu.Unlock()
	if lat > 0 {
		t := time.NewTimer(lat)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			s.record(r, body, 499)
			return
		}
	}

	var resp response
	if r.Header.Get(apiKeyHeader) != s.apiKey {
		resp = errResp(http.StatusUnauthorized, "Authentication failed: invalid or missing SERVICE-API-KEY")
		s.mu.Lock()
		s.appendLog(r, body, resp.status)
		s.mu.Unlock()
	} else {
		s.mu.Lock()
		resp = s.process(r, body)
		s.appendLog(r, body, resp.status)
		s.mu.Unlock()
	}

	h := w.Header()
	for k, v := range resp.header {
		h[k] = v
	}
	if resp.contentType != "" {
		h.Set("Content-Type", resp.contentType)
	}
	h.Set("Content-Length", strconv.Itoa(len(resp.body)))
	w.WriteHeader(resp.status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(resp.body)
	}
}

func (s *Server) record(r *http.Request, body []byte, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.appendLog(r, body, status)
}

func (s *Server) appendLog(r *http.Request, body []byte, status int) {
	s.log = append(s.log, Request{
		Method:   r.Method,
		Path:     r.URL.Path,
		RawQuery: r.URL.RawQuery,
		Status:   status,
		Header:   r.Header.Clone(),
		Body:     append([]byte(nil), body...),
	})
}

// process runs with s.mu held.
func (s *Server) process(r *http.Request, body []byte) response {
	f := s.faults
	mut := isMutating(r.Method)
	s.reqCounter++

	if f.RawBody != "" {
		s.serve(r, body) // the request is processed (and committed); only the response is replaced
		st := f.RawStatus
		if st == 0 {
			st = http.StatusOK
		}
		return response{status: st, body: []byte(f.RawBody), contentType: "application/json"}
	}

	if f.FailEvery > 0 && s.reqCounter%f.FailEvery == 0 {
		st := f.ReadStatus
		if st == 0 {
			st = http.StatusServiceUnavailable
		}
		if mut {
			st = f.WriteStatus
			if st == 0 {
				st = http.StatusTooManyRequests
			}
		}
		resp := errResp(st, "injected fault: %s", http.StatusText(st))
		if st == http.StatusTooManyRequests {
			ra := f.RetryAfter
			if ra == "" {
				ra = "0"
			}
			resp.header = http.Header{"Retry-After": {ra}}
		}
		return resp
	}

	if mut && s.writeLimit > 0 {
		now := s.now()
		cut := now.Add(-s.writeWindow)
		i := 0
		for i < len(s.writeTimes) && !s.writeTimes[i].After(cut) {
			i++
		}
		s.writeTimes = s.writeTimes[i:]
		if len(s.writeTimes) >= s.writeLimit {
			wait := s.writeTimes[0].Add(s.writeWindow).Sub(now)
			secs := int((wait + time.Second - 1) / time.Second)
			if secs < 1 {
				secs = 1
			}
			resp := errResp(http.StatusTooManyRequests, "Rate limit exceeded: at most %d mutations per %s", s.writeLimit, s.writeWindow)
			resp.header = http.Header{"Retry-After": {strconv.Itoa(secs)}}
			return resp
		}
		s.writeTimes = append(s.writeTimes, now)
	}

	resp := s.serve(r, body)

	if mut && f.LoseWriteEvery > 0 {
		s.writeCount++
		if s.writeCount%f.LoseWriteEvery == 0 {
			return response{
				status:      http.StatusBadGateway,
				body:        []byte("<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n"),
				contentType: "text/html",
			}
		}
	}
	return resp
}

func methodNotAllowed(r *http.Request, allowed ...string) response {
	resp := errResp(http.StatusMethodNotAllowed, "Method %s not allowed on %s", r.Method, r.URL.Path)
	resp.header = http.Header{"Allow": {strings.Join(allowed, ", ")}}
	return resp
}

// serve routes the request; s.mu is held.
func (s *Server) serve(r *http.Request, body []byte) response {
	raw := r.URL.EscapedPath()
	if raw != basePath && !strings.HasPrefix(raw, basePath+"/") {
		return errResp(http.StatusNotFound, "Not found: %s", r.URL.Path)
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(raw, basePath), "/")
	var segs []string
	for _, p := range strings.Split(rest, "/") {
		u, err := url.PathUnescape(p)
		if err != nil {
			return errResp(http.StatusNotFound, "Not found: %s", r.URL.Path)
		}
		segs = append(segs, u)
	}
	for _, sgm := range segs {
		if sgm == "" {
			return errResp(http.StatusNotFound, "Not found: %s", r.URL.Path)
		}
	}
	m := r.Method
	switch {
	case len(segs) == 2 && segs[0] == "release_pipelines":
		switch m {
		case http.MethodGet:
			return s.getPipeline(segs[1])
		case http.MethodPost:
			return s.updatePipeline(segs[1], body)
		}
		return methodNotAllowed(r, http.MethodGet, http.MethodPost)
	case len(segs) == 1 && segs[0] == "users":
		if m != http.MethodGet {
			return methodNotAllowed(r, http.MethodGet)
		}
		return s.listUsers(r)
	case len(segs) == 1 && segs[0] == "segments":
		if m != http.MethodGet {
			return methodNotAllowed(r, http.MethodGet)
		}
		return s.listSegments(r)
	case len(segs) == 2 && segs[0] == "metrics" && segs[1] == "metric_source":
		if m != http.MethodPost {
			return methodNotAllowed(r, http.MethodPost)
		}
		return s.createMetricSource(body)
	case len(segs) == 3 && segs[0] == "metrics" && segs[1] == "metric_source":
		switch m {
		case http.MethodGet:
			return s.getMetricSource(segs[2])
		case http.MethodPost:
			return s.updateMetricSource(segs[2], body)
		case http.MethodDelete:
			return s.deleteMetricSource(segs[2])
		}
		return methodNotAllowed(r, http.MethodGet, http.MethodPost, http.MethodDelete)
	case len(segs) == 2 && segs[0] == "gates":
		if m != http.MethodGet {
			return methodNotAllowed(r, http.MethodGet)
		}
		return s.getGate(segs[1])
	case len(segs) == 3 && segs[0] == "gates" && segs[2] == "rules":
		if m != http.MethodPatch {
			return methodNotAllowed(r, http.MethodPatch)
		}
		return s.updateGateRules(segs[1], body)
	case len(segs) == 2 && segs[0] == "events":
		if m != http.MethodGet {
			return methodNotAllowed(r, http.MethodGet)
		}
		return s.listEvents(r, segs[1])
	}
	return errResp(http.StatusNotFound, "Not found: %s", r.URL.Path)
}

// ---- paging ----

type pageReq struct {
	page, limit int
}

func (s *Server) parsePage(r *http.Request) (pageReq, *response) {
	q := r.URL.Query()
	p := pageReq{page: 1, limit: defaultLimit}
	for _, k := range []string{"page", "limit"} {
		if !q.Has(k) {
			continue
		}
		n, err := strconv.Atoi(q.Get(k))
		if err != nil || n < 1 {
			e := errResp(http.StatusBadRequest, "%s must be a positive integer, got %q", k, q.Get(k))
			return p, &e
		}
		if k == "page" {
			p.page = n
		} else {
			p.limit = n
		}
	}
	if s.pageCap > 0 && p.limit > s.pageCap {
		p.limit = s.pageCap
	}
	return p, nil
}

// window returns [lo,hi) of the page and the pagination object.
func (p pageReq) window(total int, all string) (int, int, pagination) {
	lo := (p.page - 1) * p.limit
	if lo > total || lo < 0 {
		lo = total
	}
	hi := min(lo+p.limit, total)
	pg := pagination{ItemsPerPage: p.limit, PageNumber: p.page, TotalItems: total, All: all}
	link := func(n int) *string {
		s := fmt.Sprintf("%s?page=%d&limit=%d", all, n, p.limit)
		return &s
	}
	if p.page*p.limit < total {
		pg.NextPage = link(p.page + 1)
	}
	if p.page > 1 {
		pg.PreviousPage = link(p.page - 1)
	}
	return lo, hi, pg
}

// ---- strict decoding ----

func decodeStrict(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return fmt.Errorf("invalid JSON body: request body is empty")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return describeDecodeErr(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("invalid JSON body: unexpected data after the top-level value")
	}
	return nil
}

func describeDecodeErr(err error) error {
	switch e := err.(type) {
	case *json.UnmarshalTypeError:
		field := e.Field
		if field == "" {
			field = "body"
		}
		return fmt.Errorf("invalid value for field %q: expected %s, got JSON %s", field, goTypeToJSON(e.Type.String()), e.Value)
	case *json.SyntaxError:
		return fmt.Errorf("invalid JSON body at offset %d: %s", e.Offset, e.Error())
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "json: unknown field ") {
		return fmt.Errorf("unknown field %s in request body", strings.TrimPrefix(msg, "json: unknown field "))
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return fmt.Errorf("invalid JSON body: unexpected end of input")
	}
	return fmt.Errorf("invalid JSON body: %s", strings.TrimPrefix(msg, "json: "))
}

func goTypeToJSON(t string) string {
	switch {
	case t == "string":
		return "string"
	case t == "bool":
		return "boolean"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "integer"
	case strings.HasPrefix(t, "float"):
		return "number"
	case strings.HasPrefix(t, "[]"):
		return "array"
	case strings.HasPrefix(t, "map"), strings.HasPrefix(t, "mockconsole."), strings.HasPrefix(t, "struct"):
		return "object"
	}
	return t
}

// ---- state access for tests ----

// Requests returns a copy of the request log, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.log))
	for i, r := range s.log {
		r.Header = r.Header.Clone()
		r.Body = append([]byte(nil), r.Body...)
		out[i] = r
	}
	return out
}

// ResetRequests clears the request log.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = nil
}

// CountRequests counts logged requests with the method ("" = any) whose path,
// relative to /console/v1, starts with pathPrefix (e.g. "/gates/").
func (s *Server) CountRequests(method, pathPrefix string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.log {
		if method != "" && !strings.EqualFold(r.Method, method) {
			continue
		}
		if strings.HasPrefix(strings.TrimPrefix(r.Path, basePath), pathPrefix) {
			n++
		}
	}
	return n
}

// Gate returns a deep copy of the gate.
func (s *Server) Gate(id string) (Gate, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.gates[id]
	if !ok {
		return Gate{}, false
	}
	return g.gate.clone(), true
}

// PutGate creates or replaces a gate; rules lacking baseID/id get them.
func (s *Server) PutGate(g Gate) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.putGate(g)
}

func (s *Server) putGate(g Gate) {
	st := s.gates[g.ID]
	if st == nil {
		st = &gateState{}
		s.gates[g.ID] = st
	}
	g = g.clone()
	for i := range g.Rules {
		r := &g.Rules[i]
		r.Conditions = normConditions(r.Conditions)
		r.Environments = normEnvs(r.Environments)
		r.ReturnValue = normJSON(r.ReturnValue)
		if r.ReturnValue == nil {
			r.ReturnValue = map[string]any{}
		}
		r.ReturnValueJSON5 = normJSON(r.ReturnValueJSON5)
		if r.ReturnValueJSON5 == nil {
			r.ReturnValueJSON5 = copyJSON(r.ReturnValue)
		}
		if r.ID != "" {
			if parts := strings.Split(r.ID, ":"); len(parts) >= 3 {
				if n, err := strconv.Atoi(parts[len(parts)-1]); err == nil && n > st.counter {
					st.counter = n
				}
			}
		}
	}
	for i := range g.Rules {
		r := &g.Rules[i]
		if r.BaseID == "" {
			r.BaseID = s.newBaseID()
		}
		s.usedBaseIDs[r.BaseID] = true
		if r.ID == "" {
			st.counter++
			r.ID = ruleID(r.BaseID, r.PassPercentage, st.counter)
		}
	}
	st.gate = g
}

// DeleteGate removes a gate.
func (s *Server) DeleteGate(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.gates, id)
}

// Pipeline returns a deep copy of the pipeline.
func (s *Server) Pipeline(id string) (Pipeline, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.pipelines[id]
	if !ok {
		return Pipeline{}, false
	}
	return p.p.clone(), true
}

// PutPipeline creates or replaces a pipeline; phases/rules lacking ids get them.
// The lock flag of an existing pipeline is kept.
func (s *Server) PutPipeline(p Pipeline) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.putPipeline(p)
}

func (s *Server) putPipeline(p Pipeline) {
	p = p.clone()
	used := map[string]bool{}
	for _, ph := range p.Phases {
		used[ph.ID] = true
		for _, r := range ph.Rules {
			used[r.ID] = true
		}
	}
	for i := range p.Phases {
		ph := &p.Phases[i]
		if ph.ID == "" {
			ph.ID = s.newLocalID("ph_", used)
		}
		for j := range ph.Rules {
			r := &ph.Rules[j]
			if r.ID == "" {
				r.ID = s.newLocalID("pr_", used)
			}
			r.Conditions = normConditions(r.Conditions)
			r.Environments = normEnvs(r.Environments)
		}
	}
	st := s.pipelines[p.ID]
	if st == nil {
		st = &pipelineState{}
		s.pipelines[p.ID] = st
	}
	st.p = p
}

// DeletePipeline removes a pipeline.
func (s *Server) DeletePipeline(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.pipelines, id)
}

// LockPipeline flags a pipeline as having a rollout in progress (POST → 400).
func (s *Server) LockPipeline(id string, locked bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.pipelines[id]; ok {
		st.locked = locked
	}
}

// MetricSource returns a deep copy of the metric source.
func (s *Server) MetricSource(name string) (MetricSource, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.sources[name]
	if !ok {
		return MetricSource{}, false
	}
	return m.clone(), true
}

// PutMetricSource creates or replaces a metric source (defaults applied, no validation).
func (s *Server) PutMetricSource(m MetricSource) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sources[m.Name] = withSourceDefaults(m.clone())
}

// DeleteMetricSource removes a metric source.
func (s *Server) DeleteMetricSource(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sources, name)
}

// MetricSourceNames returns the names of all metric sources, sorted.
func (s *Server) MetricSourceNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.sources))
	for n := range s.sources {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// SetUsers replaces the user list.
func (s *Server) SetUsers(u []User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users = append([]User{}, u...)
}

// SetSegments replaces the segment list.
func (s *Server) SetSegments(sg []Segment) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.segments = make([]Segment, len(sg))
	for i, x := range sg {
		x = x.clone()
		if x.Rules != nil {
			x.Rules.Conditions = normConditions(x.Rules.Conditions)
			x.Rules.ReturnValue = normJSON(x.Rules.ReturnValue)
		}
		s.segments[i] = x
	}
}

// SetEvents replaces the records of an event (overriding generated seed data).
// A nil slice makes the event unknown again (empty listing).
func (s *Server) SetEvents(name string, ev []Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == checkoutEvent {
		s.genEvents = 0
	}
	if ev == nil {
		delete(s.events, name)
		return
	}
	out := make([]Event, len(ev))
	for i, e := range ev {
		if e.Metadata != nil {
			e.Metadata, _ = normJSON(e.Metadata).(map[string]any)
		}
		out[i] = e.clone()
	}
	s.events[name] = out
}

// ---- id helpers ----

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

func (s *Server) newBaseID() string {
	for {
		b := make([]byte, 22)
		for i := range b {
			b[i] = alnum[s.rng.IntN(len(alnum))]
		}
		id := string(b)
		if !s.usedBaseIDs[id] {
			s.usedBaseIDs[id] = true
			return id
		}
	}
}

func (s *Server) newLocalID(prefix string, used map[string]bool) string {
	for {
		s.idCounter++
		id := prefix + strconv.Itoa(s.idCounter)
		if !used[id] {
			used[id] = true
			return id
		}
	}
}

func ruleID(baseID string, pct float64, counter int) string {
	return baseID + ":" + strconv.FormatFloat(pct, 'f', -1, 64) + ":" + strconv.Itoa(counter)
}
