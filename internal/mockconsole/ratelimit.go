// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// writeTier is one of the project's write limits, counted on a sliding window over every client
// of the project: the mock serves one project, so every API key holder and process shares it.
type writeTier struct {
	limit  int
	window time.Duration
	times  []time.Time // accepted writes within the window, oldest first
}

// prune drops writes that left the window; it returns how long until the oldest leaves.
func (t *writeTier) prune(now time.Time) {
	cut := now.Add(-t.window)
	i := 0
	for i < len(t.times) && !t.times[i].After(cut) {
		i++
	}
	t.times = t.times[i:]
}

func (t *writeTier) reset(now time.Time) time.Duration {
	if len(t.times) == 0 {
		return 0
	}
	return t.times[0].Add(t.window).Sub(now)
}

// admitWrite counts a mutating request against every tier, or refuses it with 429 and the
// Retry-After of the tier that is full (the longest wait when several are). Refused writes are not
// counted. With rlHeaders, the answer carries RateLimit-Limit/-Remaining/-Reset of the
// tightest tier either way. s.mu is held.
func (s *Server) admitWrite(now time.Time) (refusal *response, headers http.Header) {
	var (
		wait time.Duration
		full *writeTier
	)
	for _, t := range s.writeTiers {
		t.prune(now)
		if len(t.times) >= t.limit {
			if w := t.reset(now); full == nil || w > wait {
				wait, full = w, t
			}
		}
	}
	if full == nil {
		for _, t := range s.writeTiers {
			t.times = append(t.times, now)
		}
	}
	if s.rlHeaders && len(s.writeTiers) > 0 {
		headers = http.Header{}
		tight := s.writeTiers[0]
		for _, t := range s.writeTiers[1:] {
			if t.limit-len(t.times) < tight.limit-len(tight.times) {
				tight = t
			}
		}
		secs := int((tight.reset(now) + time.Second - 1) / time.Second)
		headers.Set("RateLimit-Limit", strconv.Itoa(tight.limit))
		headers.Set("RateLimit-Remaining", strconv.Itoa(max(tight.limit-len(tight.times), 0)))
		headers.Set("RateLimit-Reset", strconv.Itoa(secs))
	}
	if full == nil {
		return nil, headers
	}
	secs := max(int((wait+time.Second-1)/time.Second), 1)
	resp := errResp(http.StatusTooManyRequests, "Rate limit exceeded: at most %d mutations per %s", full.limit, full.window)
	if headers == nil {
		headers = http.Header{}
	}
	if !s.habits.NoRetryAfter {
		headers.Set("Retry-After", strconv.Itoa(secs))
	}
	resp.header = headers
	return &resp, nil
}

// newWriteTiers builds the tiers of cfg; a long tier without a short one is still enforced.
func newWriteTiers(cfg Config) []*writeTier {
	var tiers []*writeTier
	if cfg.WriteLimit > 0 {
		w := cfg.WriteWindow
		if w <= 0 {
			w = defaultWriteWin
		}
		tiers = append(tiers, &writeTier{limit: cfg.WriteLimit, window: w})
	}
	if cfg.WriteLimitLong > 0 {
		w := cfg.WriteWindowLong
		if w <= 0 {
			w = defaultWriteWinLong
		}
		tiers = append(tiers, &writeTier{limit: cfg.WriteLimitLong, window: w})
	}
	return tiers
}

const defaultWriteWinLong = 15 * time.Minute

// String describes the limits (for the standalone mock's log).
func (t *writeTier) String() string { return fmt.Sprintf("%d per %s", t.limit, t.window) }

// The service's write limits per project (DESIGN §3): what the standalone mock enforces under
// make mock, so that what a user times locally is what the service allows.
const (
	ServiceWriteLimit      = 100
	ServiceWriteWindow     = 10 * time.Second
	ServiceWriteLimitLong  = 900
	ServiceWriteWindowLong = 15 * time.Minute
)

// WithServiceLimits is cfg with the project's write limits of the service (make mock's).
func (cfg Config) WithServiceLimits() Config {
	cfg.WriteLimit, cfg.WriteWindow = ServiceWriteLimit, ServiceWriteWindow
	cfg.WriteLimitLong, cfg.WriteWindowLong = ServiceWriteLimitLong, ServiceWriteWindowLong
	cfg.NoIDListLimits = false
	return cfg
}

// WithoutWriteLimits is cfg with no write limit at all, the id endpoints' own included.
func (cfg Config) WithoutWriteLimits() Config {
	cfg.WriteLimit, cfg.WriteLimitLong, cfg.NoIDListLimits = 0, 0, true
	return cfg
}

// WriteLimits says which write limits are in force, for the standalone mock's start message.
func (s *Server) WriteLimits() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var parts []string
	if len(s.writeTiers) > 0 {
		parts = append(parts, describeTiers(s.writeTiers)+" per project")
	}
	if len(s.idTiers) > 0 {
		parts = append(parts, describeTiers(s.idTiers)+" on the segment id endpoints")
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

// describeTiers is "100 writes per 10s and 900 per 15m0s".
func describeTiers(tiers []*writeTier) string {
	var out []string
	for i, t := range tiers {
		what := "%d per %s"
		if i == 0 {
			what = "%d writes per %s"
		}
		out = append(out, fmt.Sprintf(what, t.limit, t.window))
	}
	return strings.Join(out, " and ")
}
