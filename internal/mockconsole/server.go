// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

// Package mockconsole is an in-memory, faithful mock of the service's console
// API (/console/v1) used by acceptance tests, the demo and benchmarks.
package mockconsole

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
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
	// WriteLimitLong > 0 adds the second published tier (900 per 15 min), scaled down in tests.
	WriteLimitLong  int
	WriteWindowLong time.Duration // default 15m
	// RateLimitHeaders adds RateLimit-Limit/-Remaining/-Reset to every answer of a write.
	RateLimitHeaders bool
	NoSeed           bool // start empty
	SeedGates        int  // benchmark gates gate_001.. seeded; 0 → 300

	// NoIDListLimits lifts the segment id endpoints' own limit (on by default, as on the service).
	NoIDListLimits bool
}

// Server is the mock console API. It implements http.Handler.
type Server struct {
	apiKey  string
	pageCap int

	mu          sync.Mutex
	latency     time.Duration
	faults      Faults
	reqCounter  int
	writeCount  int
	loseNext    []lostAnswer // faults.go: LoseNextWriteAs, "METHOD /console/v1/path" once each
	writeTiers  []*writeTier // ratelimit.go
	seedGates   int
	rlHeaders   bool // RateLimit-* headers on every answer of a write
	log         []Request
	gates       map[string]*gateState
	configs     map[string]*configState     // dynamic_configs.go
	experiments map[string]*experimentState // experiments.go
	pipelines   map[string]*pipelineState
	sources     map[string]MetricSource
	metrics     map[string]Metric    // metrics.go
	keys        map[string]Key       // keys.go, by secret
	targetApps  map[string]TargetApp // target_apps.go
	tags        map[string]Tag       // tags.go
	// environments are the project's environments (environments.go).
	environments []string
	// metricsMeasured: experiments refuse metrics the project does not hold (metrics.go).
	metricsMeasured bool
	users           []User
	segments        map[string]*segmentState // segments.go
	idTiers         []*writeTier             // segments.go: the id endpoints' own limit
	idReadTiers     []*writeTier             // segments_scale.go: the id list reads' limit
	idCap           int                      // segments_scale.go: most ids a list holds (0: no cap)
	largeIDLists    bool                     // segments_scale.go: the project lifts idCap
	idLag           time.Duration            // segments_scale.go: how late large id list writes take effect
	events          map[string][]Event
	genEvents       int // lazily generated checkout_completed records (unless overridden in events)
	idCounter       int
	rng             *rand.Rand
	usedBaseIDs     map[string]bool
	now             func() time.Time
	runs            map[string]*runState // release pipeline runs (release_pipeline_triggers.go)
	runSeq          int
	clock           runClock

	habits      Habits                    // habits.go
	dropCounter int                       // habits.go: DropIdle
	servedConns map[string]bool           // habits.go: DropIdle, the connections (by client address) that served a request
	conflicts   int                       // habits.go: ConflictOnNextWrites
	reviews     map[string]*pendingReview // reviews.go
	reviewSeq   int

	mux *http.ServeMux // routes.go; made once in New, read-only after

	document *documentCheck // document.go: HoldToDocument

	experimentsAsExample bool // habits_examples.go: ServeExperimentsAsExample
}

// New returns a server, seeded with deterministic data unless cfg.NoSeed.
func New(cfg Config) *Server {
	s := &Server{
		apiKey:       cfg.APIKey,
		pageCap:      cfg.PageSizeCap,
		latency:      cfg.Latency,
		gates:        map[string]*gateState{},
		configs:      map[string]*configState{},
		experiments:  map[string]*experimentState{},
		pipelines:    map[string]*pipelineState{},
		sources:      map[string]MetricSource{},
		metrics:      map[string]Metric{},
		keys:         map[string]Key{},
		targetApps:   map[string]TargetApp{},
		tags:         map[string]Tag{},
		environments: slices.Clone(defaultEnvironments),
		segments:     map[string]*segmentState{},
		events:       map[string][]Event{},
		rng:          rand.New(rand.NewPCG(0x5eed, 0xfeed)),
		usedBaseIDs:  map[string]bool{},
		now:          time.Now,
		writeTiers:   newWriteTiers(cfg),
		rlHeaders:    cfg.RateLimitHeaders,
		seedGates:    cfg.SeedGates,
	}
	if s.seedGates <= 0 {
		s.seedGates = 300
	}
	s.mux = s.routes()
	if !cfg.NoIDListLimits {
		s.SetIDListLimits(DefaultIDListLimit, DefaultIDListLong)
	}
	if s.apiKey == "" {
		s.apiKey = DefaultAPIKey
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
