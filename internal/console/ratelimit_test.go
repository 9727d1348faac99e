// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var limited = reply{Status: 429, Body: `{"status":429,"message":"Too many requests"}`, Header: map[string]string{"Retry-After": "0"}}

// A 429 is not a failure while the context has time: max_retries does not count it.
func TestRateLimitedWaitsPastMaxRetries(t *testing.T) {
	f := newFake(t, script(limited, limited, limited, limited, limited, limited, ok(`{"id":"g"}`)))
	g, err := f.client(func(c *Config) { c.MaxRetries = 1 }).UpdateGateRules(context.Background(), "g", nil)
	if err != nil || g.ID != "g" {
		t.Fatalf("got %v %v", g, err)
	}
	if f.count() != 7 {
		t.Errorf("%d requests, want 7", f.count())
	}
}

// When the time is up the error names the operation and object, says the project's limit was
// exhausted and shared, and what to do; a refused write was never applied.
func TestRateLimitErrorAtDeadline(t *testing.T) {
	f := newFake(t, script(limited))
	// Answered in-process and at once: the deadline can only fall in a wait between attempts, never
	// while an attempt is on the wire (that write would rightly be "may have been applied").
	var mu sync.Mutex
	requests := 0
	answer := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		requests++
		mu.Unlock()
		return &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"0"}},
			Body: io.NopCloser(strings.NewReader(limited.Body)), Request: r}, nil
	})
	ctx, cancel := context.WithTimeout(WithOperation(context.Background(), "create"), 700*time.Millisecond)
	defer cancel()
	_, err := f.client(func(c *Config) { c.MaxRetries = 1; c.Transport = answer }).UpdateGateRules(ctx, "g", nil)
	var re *RateLimitError
	if !errors.As(err, &re) {
		t.Fatalf("got %T %v", err, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if re.Refusals < 3 || re.Refusals != requests {
		t.Errorf("Refusals %d, requests %d: want every attempt, more than max_retries+1", re.Refusals, requests)
	}
	if re.Limited < 400*time.Millisecond || re.Limited > 2*time.Second {
		t.Errorf("Limited %v", re.Limited)
	}
	msg := err.Error()
	// What the limit is and what to do about it is the provider's to say (TestFailureDetail).
	for _, want := range []string{`Unable to create rules of gate "g"`, "write limit was exhausted for", "429 Too Many Requests"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q: %s", want, msg)
		}
	}
	if strings.Contains(msg, "update rules") {
		t.Errorf("a create is described as an update: %s", msg)
	}
	if MaybeApplied(err) {
		t.Error("a write refused with 429 every time cannot have been applied")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Error("the deadline is not in the chain")
	}
}

// 5xx answers keep their own count even between 429s.
func TestServerErrorsCountedApartFrom429(t *testing.T) {
	f := newFake(t, script(limited, reply{Status: 502}, limited, limited, reply{Status: 502}, reply{Status: 502}, ok(`{"id":"g"}`)))
	_, err := f.client(func(c *Config) { c.MaxRetries = 2 }).UpdateGateRules(context.Background(), "g", nil)
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 502 || !ae.MaybeCommitted {
		t.Fatalf("got %v", err)
	}
	if f.count() != 6 || ae.Attempts != 6 {
		t.Errorf("%d requests, Attempts %d; want 6 (three 429s free, three 502s = 1 + max_retries 2)", f.count(), ae.Attempts)
	}
}

// Retry-After is honoured, plus a spread: never earlier, and within a twentieth of the wait (at most
// half a second) and 20 ms more, so the window is not left idle once it frees.
func TestBackoffJitter(t *testing.T) {
	resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"2"}}}
	seen := map[time.Duration]bool{}
	lo, hi := time.Hour, time.Duration(0)
	for range 300 {
		d := backoff(time.Millisecond, time.Millisecond, 0, resp)
		if d < 2*time.Second || d >= 2*time.Second+120*time.Millisecond {
			t.Fatalf("backoff %v outside [2s, 2.12s)", d)
		}
		seen[d] = true
		lo, hi = min(lo, d), max(hi, d)
	}
	if len(seen) < 250 || hi-lo < 60*time.Millisecond {
		t.Errorf("no real spread: %d distinct values in [%v, %v]", len(seen), lo, hi)
	}
	// The pacer's pause after a 429 is jittered too.
	p := NewPacer(10, time.Second)
	var ends []time.Time
	for range 50 {
		p.pauseUntil = time.Time{}
		p.throttled(time.Second)
		ends = append(ends, p.pauseUntil)
	}
	distinct := map[time.Time]bool{}
	for _, e := range ends {
		distinct[e] = true
	}
	if len(distinct) < 40 {
		t.Errorf("pacer pauses not jittered: %d distinct of 50", len(distinct))
	}
}

// Multiplicative decrease on 429 (once per burst), additive increase on success, never above the limit.
func TestPacerRateAdjustments(t *testing.T) {
	p := NewPacer(100, 10*time.Second)
	p.jitter = func(time.Duration) time.Duration { return 0 }
	if p.currentRate() != 10 {
		t.Fatalf("initial rate %v, want 10/s (write_limit/window)", p.currentRate())
	}
	for range 20 {
		p.succeeded()
	}
	if p.currentRate() != 10 {
		t.Fatalf("rate rose above write_limit: %v", p.currentRate())
	}
	p.throttled(0)
	if p.currentRate() != 10*decrease {
		t.Fatalf("after a 429: %v, want %v", p.currentRate(), 10*decrease)
	}
	p.throttled(0)
	if p.currentRate() != 10*decrease {
		t.Fatalf("a second 429 of the same burst cut again: %v", p.currentRate())
	}
	p.lastCut = time.Now().Add(-3 * time.Second)
	p.throttled(0)
	r0 := p.currentRate()
	if math.Abs(r0-10*decrease*decrease) > 1e-9 {
		t.Fatalf("a 429 after the burst: %v, want %v", r0, 10*decrease*decrease)
	}
	// One window's worth of writes at the current rate raises it by about a fifth of the ceiling.
	for range int(r0 * 10) {
		p.succeeded()
	}
	if r := p.currentRate(); r-r0 < 1.6 || r-r0 > 2.2 {
		t.Errorf("after a window of successes: %v -> %v, want about +2/s", r0, r)
	}
	// Two windows without a 429: faster, about half the ceiling per window.
	p.lastCut = time.Now().Add(-21 * time.Second)
	r1 := p.currentRate()
	for range int(r1 * 10) {
		p.succeeded()
	}
	if r := p.currentRate(); r-r1 < 3.5 && r != 10 {
		t.Errorf("after a quiet window of successes: %v -> %v, want about +5/s", r1, r)
	}
	for range 2000 {
		p.succeeded()
	}
	if p.currentRate() != 10 {
		t.Errorf("rate did not recover to the ceiling: %v", p.currentRate())
	}
	for range 40 {
		p.lastCut = time.Time{}
		p.throttled(0)
	}
	if p.currentRate() != p.minRate || p.minRate <= 0 {
		t.Errorf("rate %v, floor %v", p.currentRate(), p.minRate)
	}
}

// Below the ceiling, writes are spaced at the adaptive rate instead of bursting after a pause.
func TestPacerSpacesAtReducedRate(t *testing.T) {
	p := NewPacer(100, time.Second) // 100/s
	p.jitter = func(time.Duration) time.Duration { return 0 }
	p.throttled(0)
	p.lastCut = time.Time{}
	p.throttled(0)
	gap := time.Duration(float64(time.Second) / p.currentRate())
	start := time.Now()
	for range 6 {
		if err := p.wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if e := time.Since(start); e < 5*gap*95/100 {
		t.Errorf("6 writes at %.0f/s took %v, want >= 5 × %v", p.currentRate(), e, gap)
	}
}

// The second published limit is paced too.
func TestPacerLongTier(t *testing.T) {
	p := NewTieredPacer(Limit{N: 100, Window: 10 * time.Millisecond}, Limit{N: 3, Window: 300 * time.Millisecond})
	start := time.Now()
	for range 4 {
		if err := p.wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if e := time.Since(start); e < 300*time.Millisecond {
		t.Errorf("4 writes with 3 per 300ms took %v", e)
	}
}

func TestRateLimitHeaders(t *testing.T) {
	for _, tc := range []struct {
		h        http.Header
		rem      int
		reset    time.Duration
		ok       bool
		resetMin time.Duration
	}{
		{http.Header{"Ratelimit-Remaining": {"0"}, "Ratelimit-Reset": {"3"}}, 0, 3 * time.Second, true, 0},
		{http.Header{"X-Ratelimit-Remaining": {"12"}, "X-Ratelimit-Reset": {"1.5"}}, 12, 1500 * time.Millisecond, true, 0},
		{http.Header{"X-Ratelimit-Remaining": {"0"}}, 0, 0, true, 0},
		{http.Header{"Ratelimit-Remaining": {"x"}}, 0, 0, false, 0},
		{http.Header{}, 0, 0, false, 0},
	} {
		rem, reset, ok := rateLimitHeaders(tc.h)
		if rem != tc.rem || reset != tc.reset || ok != tc.ok {
			t.Errorf("%v: %d %v %v", tc.h, rem, reset, ok)
		}
	}
	unix := time.Now().Add(5 * time.Second).Unix()
	_, reset, ok := rateLimitHeaders(http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {itoa(unix)}})
	if !ok || reset < 3*time.Second || reset > 6*time.Second {
		t.Errorf("unix reset: %v %v", reset, ok)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// A write told "nothing remaining until the reset" holds every writer back for it.
func TestPacerHonoursRemainingZero(t *testing.T) {
	var mu sync.Mutex
	first := true
	f := newFake(t, func(int, seen) reply {
		mu.Lock()
		defer mu.Unlock()
		r := ok(`{"id":"g"}`)
		if first {
			first = false
			r.Header = map[string]string{"RateLimit-Remaining": "0", "RateLimit-Reset": "1"}
		}
		return r
	})
	c := f.client(func(cfg *Config) { cfg.Pacer = NewPacer(100, time.Second) })
	for range 2 {
		if _, err := c.UpdateGateRules(context.Background(), "g", nil); err != nil {
			t.Fatal(err)
		}
	}
	reqs := f.requests()
	if gap := reqs[1].At.Sub(reqs[0].At); gap < time.Second {
		t.Errorf("second write %v after a response saying none remain for 1s", gap)
	}
}

// Waiting for the pacer is not part of request_timeout: a write that waits longer for its turn than
// an attempt may take is sent once, not cut and sent again.
func TestPacerWaitIsNotRequestTimeout(t *testing.T) {
	f := newFake(t, func(int, seen) reply { time.Sleep(20 * time.Millisecond); return ok(`{"id":"g"}`) })
	c := f.client(func(cfg *Config) {
		cfg.Pacer = NewPacer(1, 400*time.Millisecond)
		cfg.Timeout = 150 * time.Millisecond
	})
	var wg sync.WaitGroup
	for _, id := range []string{"a", "b", "c"} {
		wg.Go(func() {
			if _, err := c.UpdateGateRules(context.Background(), id, nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if f.count() != 3 {
		t.Errorf("%d requests for 3 writes: a pacer wait was counted against the attempt's timeout", f.count())
	}
	// The attempt itself is still bounded once sent.
	slow := newFake(t, func(int, seen) reply { time.Sleep(300 * time.Millisecond); return ok(`{"id":"g"}`) })
	_, err := slow.client(func(cfg *Config) { cfg.Timeout = 50 * time.Millisecond; cfg.MaxRetries = 0 }).UpdateGateRules(context.Background(), "g", nil)
	if err == nil || !MaybeApplied(err) {
		t.Errorf("an attempt cut in flight: %v (may have been applied: %v)", err, MaybeApplied(err))
	}
}

// A write whose time ran out while it waited for the pacer was never sent: never "may have been applied".
func TestWriteNeverSentIsNotMaybeApplied(t *testing.T) {
	f := newFake(t, script(ok(`{"id":"g"}`)))
	p := NewPacer(1, time.Hour)
	c := f.client(func(cfg *Config) { cfg.Pacer = p })
	if _, err := c.UpdateGateRules(context.Background(), "a", nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := c.UpdateGateRules(ctx, "b", nil)
	var ce *CancelledError
	if !errors.As(err, &ce) || ce.MaybeCommitted || MaybeApplied(err) {
		t.Fatalf("got %T %v (may have been applied: %v)", err, err, MaybeApplied(err))
	}
	if f.count() != 1 {
		t.Errorf("%d requests", f.count())
	}
}

// The rate-limit headers come from the network: any value is read without panic, and never as a
// negative count or wait.
func FuzzRateLimitHeaders(f *testing.F) {
	for _, seed := range [][2]string{{"0", "3"}, {"12", "1.5"}, {"-1", "x"}, {"", ""}, {"5", "1e300"}, {"3", "NaN"}, {"1", "-Inf"}} {
		f.Add(seed[0], seed[1], true)
	}
	f.Fuzz(func(t *testing.T, remaining, reset string, ietf bool) {
		prefix := "X-RateLimit-"
		if ietf {
			prefix = "RateLimit-"
		}
		h := http.Header{}
		h.Set(prefix+"Remaining", remaining)
		h.Set(prefix+"Reset", reset)
		rem, d, ok := rateLimitHeaders(h)
		if ok && (rem < 0 || d < 0) {
			t.Fatalf("%q %q: remaining %d, reset %v", remaining, reset, rem, d)
		}
		p := NewPacer(10, time.Second)
		p.remaining(rem, min(d, maxRetryAfter))
		if w := time.Until(p.pauseUntil); w > maxRetryAfter+maxRetryAfter/4+time.Second {
			t.Fatalf("%q %q: pause of %v", remaining, reset, w)
		}
	})
}
