package console

import (
	"context"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Pacer spaces mutating requests so a large apply stays under the service's write limit,
// and holds every writer back once the service answers 429 with Retry-After.
type Pacer struct {
	limiter *rate.Limiter

	mu         sync.Mutex
	pauseUntil time.Time
}

// NewPacer allows perSecond writes per second with the given burst; perSecond <= 0 disables the
// rate (a 429's Retry-After is still shared by all writers).
func NewPacer(perSecond float64, burst int) *Pacer {
	p := &Pacer{}
	if perSecond > 0 {
		p.limiter = rate.NewLimiter(rate.Limit(perSecond), max(burst, 1))
	}
	return p
}

// Wait blocks until a write may be sent, or ctx ends.
func (p *Pacer) Wait(ctx context.Context) error {
	p.mu.Lock()
	until := p.pauseUntil
	p.mu.Unlock()
	if d := time.Until(until); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	if p.limiter != nil {
		return p.limiter.Wait(ctx)
	}
	return nil
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
