// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A write answered 429 is not a failure while its context (the resource's `timeouts`) has time
// left: the client keeps waiting for the project's budget. Only 5xx answers and unanswered
// attempts are counted against max_retries.

type attemptKey struct{}

// checkRetry retries 429 while ctx lives, and 5xx (but 501) and unanswered attempts up to maxRetries.
func (c *Client) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	st, _ := ctx.Value(attemptKey{}).(*attemptState)
	if st == nil {
		st = &attemptState{}
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if ctx.Err() != nil {
		// An answer that came as the time ran out still counts: a 429 is one more refusal to report.
		if err == nil {
			st.answered(resp)
		}
		return false, ctx.Err()
	}
	if err != nil {
		st.lastStatus = 0
		var ue *url.Error
		if errors.As(err, &ue) && (strings.Contains(ue.Error(), "unsupported protocol scheme") || strings.Contains(ue.Error(), "certificate")) {
			return false, err
		}
		st.failures++
		if st.noResend && st.ambiguous {
			return false, nil // the caller finds out whether it landed instead
		}
		if neverSent(err) && !st.ambiguous {
			// base_url or the network is wrong: one more try covers a blip, more only delay the error.
			return st.failures <= min(c.maxRetries, 1), nil
		}
		return st.failures <= c.maxRetries, nil
	}
	if st.answered(resp) {
		return true, nil
	}
	if resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented {
		if resp.Request != nil && resp.Request.Method != http.MethodGet {
			st.ambiguous = true
		}
		st.failures++
		if st.noResend && st.ambiguous {
			return false, nil
		}
		return st.failures <= c.maxRetries, nil
	}
	return false, nil
}

// maxRetryAfter caps how long a single Retry-After may hold a request: the service's longer window
// (900 writes per 15 minutes) frees its first write at most 15 minutes on, so a longer Retry-After
// is not believed. The request's context (the resource's timeouts) bounds every wait anyway.
const maxRetryAfter = longWindow + time.Minute

// backoff is exponential with full jitter, but honours Retry-After on 429 and 503.
func backoff(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After")); ok {
			// The pacer holds each process to its share of the window as it frees, so a spread under
			// a second is enough (retryAfterSpread).
			d = min(d, maxRetryAfter)
			return d + retryAfterSpread(d)
		}
		// No Retry-After: the full window may be the 15-minute one, which frees a write only minutes
		// on; asking every second would spend the wait on refusals. Back off from a second to at
		// least DefaultRetryWaitMax instead, whatever shorter waits the client uses for 5xx.
		minWait = max(minWait, time.Second)
		maxWait = max(maxWait, DefaultRetryWaitMax)
	}
	if resp != nil && resp.StatusCode == http.StatusServiceUnavailable {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After")); ok {
			return min(d, maxRetryAfter)
		}
	}
	ceiling := minWait << min(attempt, 30)
	if ceiling <= 0 || ceiling > maxWait {
		ceiling = maxWait
	}
	// Half fixed, half random: spreads concurrent writers without ever retrying at once.
	half := ceiling / 2
	return half + rand.N(half+1)
}

func parseRetryAfter(v string) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}

// attemptState follows one logical request across its attempts.
type attemptState struct {
	mu           sync.Mutex
	attempts     int
	failures     int // 5xx and unanswered attempts: the ones max_retries counts
	refusals     int // 429 answers
	firstRefused time.Time
	retryAfter   time.Duration // of the last 429; 0 when it had none
	lastStatus   int
	// ambiguous is set once an attempt of a write may have reached the service without its answer reaching us.
	ambiguous bool
	// sent is set once an attempt left the pacer.
	sent bool
	// noResend stops retries once an attempt may have reached the service: the caller finds out
	// whether it landed instead (a run's operation is read back from its recorded actions).
	noResend bool
}

func (s *attemptState) snapshot() attemptState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return attemptState{attempts: s.attempts, failures: s.failures, refusals: s.refusals,
		firstRefused: s.firstRefused, retryAfter: s.retryAfter, lastStatus: s.lastStatus,
		ambiguous: s.ambiguous, sent: s.sent, noResend: s.noResend}
}

// answered records an attempt's HTTP answer; it reports whether it was a 429. s.mu is held.
func (s *attemptState) answered(resp *http.Response) bool {
	s.lastStatus = resp.StatusCode
	if resp.StatusCode != http.StatusTooManyRequests {
		return false
	}
	if s.refusals == 0 {
		s.firstRefused = time.Now()
	}
	s.refusals++
	s.retryAfter, _ = parseRetryAfter(resp.Header.Get("Retry-After"))
	return true
}

func markAmbiguous(ctx context.Context) {
	if st, ok := ctx.Value(attemptKey{}).(*attemptState); ok {
		st.mu.Lock()
		st.ambiguous = true
		st.mu.Unlock()
	}
}

// noResend reports whether the request of ctx must not be sent twice once it may have reached the service.
func noResend(ctx context.Context) bool {
	st, ok := ctx.Value(attemptKey{}).(*attemptState)
	if !ok {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.noResend
}

func markSent(ctx context.Context) {
	if st, ok := ctx.Value(attemptKey{}).(*attemptState); ok {
		st.mu.Lock()
		st.sent = true
		st.mu.Unlock()
	}
}
