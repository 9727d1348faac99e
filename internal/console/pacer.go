// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"cmp"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// Limit is one published limit of the service: at most N writes in any Window (sliding).
type Limit struct {
	N      int
	Window time.Duration
}

// decrease is the multiplicative decrease on a 429: gentler than TCP's half, since a 429 costs the
// service nothing and an idle budget costs the apply time.
const decrease = 0.6

// Pacer keeps this process's mutating requests within the service's limits and adapts to the
// writes of other processes it cannot see. The limit is per project and every client of the project
// spends it, so the pacer:
//   - never sends more than each Limit allows in its sliding window (a sliding window, unlike a
//     token bucket, lets a lone apply reach the limit's floor: a full window at once, then one write
//     as each earlier write leaves the window);
//   - on a 429 that says when the window frees (Retry-After), keeps to its share of the window and
//     probes beyond it (pacer_share.go): spacing writes would leave the window part empty;
//   - on a 429 that does not, cuts its rate to `decrease` of what it was and spaces writes evenly at
//     that rate, then raises it step by step while writes succeed, never above the first limit's
//     rate (AIMD, as TCP does for a shared link);
//   - holds every writer back for the answer's Retry-After, or until the reset the rate-limit headers
//     announce, plus a random spread so processes told the same second do not come back together.
type Pacer struct {
	tiers   []*tier
	maxRate float64 // writes per second allowed by the first limit; the adaptive rate never exceeds it
	minRate float64
	// cutEvery spaces multiplicative decreases: the 429s of one burst are one signal, not many.
	cutEvery time.Duration

	mu         sync.Mutex
	rate       float64 // current rate; at maxRate writes are not spaced, only windowed
	lastSend   time.Time
	pauseUntil time.Time
	lastCut    time.Time
	jitter     func(time.Duration) time.Duration
	// The process's share of the first limit's window while other processes spend it too
	// (pacer_share.go).
	share     int           // 0: the whole limit
	credit    int           // probe writes beyond the share that may go now
	probesOut int           // probe writes awaiting their answer
	lastShare time.Time     // when a refusal last set the share
	inflight  int           // writes let go and not yet answered
	ramp      int           // after a refusal, how many writes may be unanswered at once (0: any)
	wake      chan struct{} // closed when an answer lets more writes go (share or ramp)
}

type tier struct {
	Limit
	sent []time.Time // send times of the last N writes, oldest first
}

// NewPacer allows limit writes in any window; limit <= 0 disables the window (a 429's
// Retry-After is still shared by all writers).
func NewPacer(limit int, window time.Duration) *Pacer {
	return NewTieredPacer(Limit{N: limit, Window: window})
}

// NewTieredPacer paces against every limit at once (the service publishes 100 per 10 s and 900 per
// 15 min); limits with N or Window <= 0 are ignored. The first valid limit sets the adaptive ceiling.
func NewTieredPacer(limits ...Limit) *Pacer {
	p := &Pacer{jitter: defaultJitter, wake: make(chan struct{})}
	for _, l := range limits {
		if l.N <= 0 || l.Window <= 0 {
			continue
		}
		p.tiers = append(p.tiers, &tier{Limit: l})
	}
	if len(p.tiers) > 0 {
		first := p.tiers[0]
		p.maxRate = float64(first.N) / first.Window.Seconds()
		p.minRate = p.maxRate / 50
		p.cutEvery = first.Window / 5
	}
	p.rate = p.maxRate
	return p
}

// The service's two published limits: about 100 writes per shortWindow and 900 per longWindow.
const (
	shortWindow = 10 * time.Second
	longWindow  = 15 * time.Minute
)

// maxJitter bounds the spread of a long wait: minutes of jitter on a 15-minute Retry-After would
// only idle the budget.
const maxJitter = 15 * time.Second

// defaultJitter adds up to a quarter of d (at most maxJitter) and up to a second more: enough to
// spread processes that were told the same Retry-After second (a whole second: the header has no
// finer unit), little enough not to waste the budget. A Retry-After of 0 gets a token spread only.
func defaultJitter(d time.Duration) time.Duration {
	if d <= 0 {
		return rand.N(50 * time.Millisecond)
	}
	return rand.N(min(d/4, maxJitter) + time.Second)
}

// margin covers the difference between when the client sends and when the service counts.
func margin(window time.Duration) time.Duration { return 50*time.Millisecond + window/100 }

// wait blocks until a write may be sent, or ctx ends, and counts the write as sent. Time spent here
// is not part of any attempt's request_timeout: the attempt's clock starts after Wait returns.
func (p *Pacer) wait(ctx context.Context) error {
	h, err := p.take(ctx)
	p.answered(h, false) // its answer is not fed back: not in flight for the ramp
	return err
}

// held is what a pacer did with one write before letting it go: when it counted it (its stamp, which
// refused drops), whether it went beyond the process's share (a probe), and how long it was held
// back for each reason (for the write trace).
type held struct {
	stamp time.Time
	probe bool
	waits map[string]time.Duration
}

// The reasons a pacer holds a write back: a 429's Retry-After or a reset the headers announced
// (pause), a full window (window), the process's share of a window others spend too (share), the
// spacing of a rate cut after a 429 without Retry-After (spacing), the writes still unanswered while
// they resume after a refusal (ramp).
const (
	heldPause   = "pause"
	heldWindow  = "window"
	heldShare   = "share"
	heldSpacing = "spacing"
	heldRamp    = "ramp"
)

// take is wait, answering what the pacer did with the write.
func (p *Pacer) take(ctx context.Context) (held, error) {
	var h held
	for {
		now := time.Now()
		p.mu.Lock()
		wait, why := p.reserveLocked(now, &h)
		wake := p.wake
		p.mu.Unlock()
		if wait <= 0 {
			return h, nil
		}
		if h.waits == nil {
			h.waits = map[string]time.Duration{}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			h.waits[why] += time.Since(now)
			return h, ctx.Err()
		case <-t.C:
		case <-wake: // an answer let more writes go
			t.Stop()
		}
		h.waits[why] += time.Since(now)
	}
}

// reserveLocked counts a write sent at now, stamped in h, and returns 0, or returns how long to wait
// before asking again and why (one of the held reasons). p.mu is held.
func (p *Pacer) reserveLocked(now time.Time, h *held) (time.Duration, string) {
	for _, t := range p.tiers {
		cut := 0
		for cut < len(t.sent) && now.Sub(t.sent[cut]) >= t.Window+margin(t.Window) {
			cut++
		}
		t.sent = t.sent[cut:]
	}
	if wait := p.pauseUntil.Sub(now); wait > 0 {
		return wait, heldPause
	}
	if p.ramp > 0 && p.inflight >= p.ramp {
		return time.Second, heldRamp // an answer wakes it sooner
	}
	wait := time.Duration(0)
	why, probe := heldWindow, false
	for i, t := range p.tiers {
		edge := t.sent0(margin(t.Window))
		if len(t.sent) >= t.N {
			wait = max(wait, edge.Sub(now))
			continue
		}
		if i == 0 && p.share > 0 && len(t.sent) >= p.share {
			if p.credit > 0 || p.probesOut == 0 {
				probe = true
			} else if w := edge.Sub(now); w > wait {
				wait, why = w, heldShare
			}
		}
	}
	if wait <= 0 && p.rate < p.maxRate && !p.lastSend.IsZero() {
		gap := time.Duration(float64(time.Second) / p.rate)
		wait, why = p.lastSend.Add(gap).Sub(now), heldSpacing
	}
	if wait > 0 {
		return wait, why
	}
	for _, t := range p.tiers {
		t.sent = append(t.sent, now)
	}
	if probe {
		p.credit = max(p.credit-1, 0)
		p.probesOut++
	}
	p.inflight++
	p.lastSend = now
	h.stamp, h.probe = now, probe
	return 0, ""
}

// sent0 is when the oldest write counted in the window leaves it (with margin m).
func (t *tier) sent0(m time.Duration) time.Time {
	if len(t.sent) == 0 {
		return time.Time{}
	}
	return t.sent[0].Add(t.Window + m)
}

func (p *Pacer) pauseLocked(until time.Time) {
	if until.After(p.pauseUntil) {
		p.pauseUntil = until
	}
}

// throttled records a 429: the rate is cut (at most once per cutEvery) and every writer waits
// retryAfter plus jitter.
func (p *Pacer) throttled(retryAfter time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if p.maxRate > 0 && now.Sub(p.lastCut) >= p.cutEvery {
		p.rate = max(p.rate*decrease, p.minRate)
		p.lastCut = now
	}
	p.pauseLocked(now.Add(retryAfter + p.jitter(retryAfter)))
}

// succeeded records a write the service accepted: the rate grows by a fifth of the ceiling per
// window's worth of writes at the current rate (half of it once two windows passed without a 429),
// so a process left alone recovers within a few windows, while several processes sharing the
// project grow slowly enough not to collide every window.
func (p *Pacer) succeeded() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rate >= p.maxRate || len(p.tiers) == 0 {
		return
	}
	step := p.maxRate / 5
	if time.Since(p.lastCut) > 2*p.tiers[0].Window {
		// Two windows without a 429: the others have likely finished; come back faster.
		step = p.maxRate / 2
	}
	perWindow := p.rate * p.tiers[0].Window.Seconds()
	p.rate = min(p.rate+step/max(perWindow, 1), p.maxRate)
}

// remaining applies what the service's rate-limit headers say: with no write left until the reset,
// every writer waits for it (plus jitter) instead of collecting 429s.
func (p *Pacer) remaining(remaining int, reset time.Duration) {
	if remaining > 0 || reset <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pauseLocked(time.Now().Add(reset + p.jitter(reset)))
}

// currentRate is the current adaptive rate in writes per second (0 when no limit is paced).
func (p *Pacer) currentRate() float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rate
}

// pacedTransport applies the pacer to every attempt of a mutating request, retries included, and
// bounds each attempt by timeout from the moment it is sent, so waiting for the pacer never uses up
// an attempt's request_timeout.
type pacedTransport struct {
	next http.RoundTripper
	// own carries the writes that must not be sent twice (noResend), each on a connection of its
	// own (ownConnection); nil sends them through next.
	own     http.RoundTripper
	pacer   *Pacer
	timeout time.Duration
}

func (t *pacedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	write := r.Method != http.MethodGet && r.Method != http.MethodHead
	own := ownPacer(r.Context())
	if own != nil && write {
		// The endpoint's own limit first: a write waiting for it holds no slot of the project's.
		if err := own.wait(r.Context()); err != nil {
			return nil, err
		}
	}
	var h held
	if t.pacer != nil && write {
		var err error
		if h, err = t.pacer.take(r.Context()); err != nil {
			return nil, err // never sent: not a write that may have been applied
		}
	}
	sent := time.Now()
	if err := r.Context().Err(); err != nil {
		if t.pacer != nil && write {
			t.pacer.answered(h, false)
		}
		return nil, err // the time ran out before it left: never sent
	}
	ctx, cancel := context.WithTimeout(r.Context(), t.timeout)
	if write {
		markSent(r.Context())
	}
	resp, err := t.roundTripFresh(ctx, r)
	if err != nil {
		cancel()
		if t.pacer != nil && write {
			t.pacer.answered(h, false)
		}
		if write && !neverSent(err) {
			markAmbiguous(r.Context()) // sent, or perhaps sent: its fate is unknown
		}
		return nil, err
	}
	// The deadline keeps bounding the body until the caller closes it.
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	switch {
	case own != nil && write:
		// A 429 here is the endpoint's own limit: it slows these writes, not the project's others.
		observe(own, resp, held{})
		if t.pacer != nil && resp.StatusCode != http.StatusTooManyRequests {
			observe(t.pacer, resp, h)
		} else if t.pacer != nil {
			t.pacer.answered(h, false)
		}
	case t.pacer != nil && write:
		observe(t.pacer, resp, h)
	}
	if write {
		traceWrite(r, resp, sent, h)
	}
	return resp, nil
}

// traceWrite logs one attempt of a write: when it left, its answer, and how long the pacer held it
// back and why, so that where the time of applies sharing a limit goes can be read from their logs
// (TF_LOG_PROVIDER=DEBUG; BENCHMARKS.md, "Several applies at once, one write limit").
func traceWrite(r *http.Request, resp *http.Response, sent time.Time, h held) {
	fields := map[string]any{
		"method":  r.Method,
		"path":    r.URL.Path,
		"sent_at": sent.UTC().Format(time.RFC3339Nano),
		"status":  resp.StatusCode,
	}
	if ra := resp.Header.Get("Retry-After"); ra != "" {
		fields["retry_after"] = ra
	}
	for why, d := range h.waits {
		fields["held_"+why+"_ms"] = d.Milliseconds()
	}
	tflog.Debug(r.Context(), "console API write attempt", fields)
}

// observe feeds a write's answer to a pacer; h is what the pacer did with the write (zero when it
// did not count it).
func observe(p *Pacer, resp *http.Response, h held) {
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		d, ok := parseRetryAfter(resp.Header.Get("Retry-After"))
		if !ok || h.stamp.IsZero() {
			// Nothing says when the window frees: slow down (AIMD) and wait.
			p.answered(h, false)
			p.throttled(min(cmp.Or(d, time.Second), maxRetryAfter))
			return
		}
		p.refused(time.Now(), h, min(d, maxRetryAfter))
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
		p.answered(h, true)
		p.succeeded()
		if rem, reset, ok := rateLimitHeaders(resp.Header); ok {
			p.remaining(rem, min(reset, maxRetryAfter))
		}
	default:
		p.answered(h, false)
	}
}

type ownPacerKey struct{}

// withOwnPacer marks the requests of ctx as writes to endpoints with their own limit, paced by p
// on top of the project's pacer.
func withOwnPacer(ctx context.Context, p *Pacer) context.Context {
	if p == nil {
		return ctx
	}
	return context.WithValue(ctx, ownPacerKey{}, p)
}

func ownPacer(ctx context.Context) *Pacer {
	p, _ := ctx.Value(ownPacerKey{}).(*Pacer)
	return p
}

// cancelOnClose releases an attempt's deadline once its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// rateLimitHeaders reads the remaining writes and the time to the reset from the IETF draft's
// RateLimit-Remaining/RateLimit-Reset or the common X-RateLimit-Remaining/X-RateLimit-Reset. A
// reset larger than a year of seconds is a Unix time, as some services send.
func rateLimitHeaders(h http.Header) (remaining int, reset time.Duration, ok bool) {
	for _, prefix := range []string{"RateLimit-", "X-RateLimit-"} {
		rs := strings.TrimSpace(h.Get(prefix + "Remaining"))
		if rs == "" {
			continue
		}
		rem, err := strconv.Atoi(rs)
		if err != nil || rem < 0 {
			continue
		}
		v := strings.TrimSpace(h.Get(prefix + "Reset"))
		secs, err := strconv.ParseFloat(v, 64)
		if err != nil || !(secs >= 0) || secs > 1e11 { // NaN, negative, or past any date: no reset
			return rem, 0, true
		}
		if secs > 365*24*3600 {
			return rem, max(time.Until(time.Unix(int64(secs), 0)), 0), true
		}
		return rem, time.Duration(secs * float64(time.Second)), true
	}
	return 0, 0, false
}
