package console

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// Pacer keeps mutating requests within the service's limit of Limit writes in any Window (the
// service counts a sliding window), and holds every writer back once the service answers 429 with
// Retry-After. A sliding window, unlike a token bucket, lets a large apply reach the limit's own
// floor: a full window at once, then one write as each earlier write leaves the window.
type Pacer struct {
	limit  int
	window time.Duration

	mu         sync.Mutex
	sent       []time.Time // send times of the last `limit` writes, oldest first
	pauseUntil time.Time
}

// NewPacer allows limit writes in any window; limit <= 0 disables the window (a 429's
// Retry-After is still shared by all writers).
func NewPacer(limit int, window time.Duration) *Pacer {
	if window <= 0 {
		limit = 0
	}
	return &Pacer{limit: limit, window: window}
}

// margin covers the difference between when the client sends and when the service counts.
func (p *Pacer) margin() time.Duration { return 50*time.Millisecond + p.window/100 }

// Wait blocks until a write may be sent, or ctx ends, and counts the write as sent.
func (p *Pacer) Wait(ctx context.Context) error {
	for {
		p.mu.Lock()
		now := time.Now()
		wait := p.pauseUntil.Sub(now)
		if wait <= 0 && p.limit > 0 {
			cut := 0
			for cut < len(p.sent) && now.Sub(p.sent[cut]) >= p.window+p.margin() {
				cut++
			}
			p.sent = p.sent[cut:]
			if len(p.sent) >= p.limit {
				wait = p.sent[0].Add(p.window + p.margin()).Sub(now)
			}
		}
		if wait <= 0 {
			if p.limit > 0 {
				p.sent = append(p.sent, now)
			}
			p.mu.Unlock()
			return nil
		}
		p.mu.Unlock()
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// Pause holds every writer back for d.
func (p *Pacer) Pause(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t := time.Now().Add(d); t.After(p.pauseUntil) {
		p.pauseUntil = t
	}
}

// pacedTransport applies the pacer to every attempt of a mutating request, retries included.
type pacedTransport struct {
	next  http.RoundTripper
	pacer *Pacer
}

func (t *pacedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	write := r.Method != http.MethodGet && r.Method != http.MethodHead
	if t.pacer != nil && write {
		if err := t.pacer.Wait(r.Context()); err != nil {
			return nil, err
		}
	}
	resp, err := t.next.RoundTrip(r)
	if t.pacer != nil && err == nil && resp.StatusCode == http.StatusTooManyRequests {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After")); ok {
			t.pacer.Pause(min(d, maxRetryAfter))
		}
	}
	return resp, err
}
