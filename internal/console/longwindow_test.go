// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The service's second window (900 writes per 15 minutes) answers 429 with a Retry-After of many
// minutes, or with none (the live service's 429s). These tests prove the client waits as long as it is told,
// backs off when it is not told, and names the window that ran out.

// A Retry-After of minutes is honoured, not cut to a retry every two minutes; an absurd one is
// capped at the 15-minute window and a minute more. The jitter of a long wait stays small.
func TestBackoffHonoursLongRetryAfter(t *testing.T) {
	for _, c := range []struct {
		header string
		want   time.Duration
	}{{"600", 10 * time.Minute}, {"840", 14 * time.Minute}, {"86400", maxRetryAfter}} {
		resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {c.header}}}
		for range 50 {
			d := backoff(time.Millisecond, time.Millisecond, 0, resp)
			if d < c.want || d > c.want+maxJitter+time.Second {
				t.Fatalf("Retry-After %s: waited %v, want [%v, %v]", c.header, d, c.want, c.want+maxJitter+time.Second)
			}
		}
	}
}

// Without Retry-After the client backs off exponentially from a second up to RetryWaitMax,
// never asking every second for the minutes the 15-minute window may take.
func TestBackoffWithoutRetryAfterGrows(t *testing.T) {
	resp := &http.Response{StatusCode: 429, Header: http.Header{}}
	for attempt := range 12 {
		ceiling := min(time.Second<<attempt, DefaultRetryWaitMax)
		d := backoff(DefaultRetryWaitMin, DefaultRetryWaitMax, attempt, resp)
		if d < ceiling/2 || d > ceiling {
			t.Errorf("attempt %d: %v outside [%v, %v]", attempt, d, ceiling/2, ceiling)
		}
	}
	// Also where the client retries 5xx within milliseconds (tests, tuning).
	if d := backoff(time.Millisecond, 5*time.Millisecond, 8, resp); d < 15*time.Second {
		t.Errorf("the ninth refusal without Retry-After waits only %v", d)
	}
}

// A 429 without Retry-After is retried until it passes, within the request's time.
func TestRateLimitedWithoutRetryAfterSucceeds(t *testing.T) {
	bare := reply{Status: 429, Body: `{"status":429,"message":"Too many requests"}`}
	f := newFake(t, script(bare, ok(`{"id":"g"}`)))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if g, err := f.client(func(c *Config) { c.MaxRetries = 0 }).UpdateGateRules(ctx, "g", nil); err != nil || g.ID != "g" {
		t.Fatalf("got %v %v", g, err)
	}
	reqs := f.requests()
	if len(reqs) != 2 || reqs[1].At.Sub(reqs[0].At) < 500*time.Millisecond {
		t.Errorf("%d requests; retried without backing off", len(reqs))
	}
}

// When the time runs out, the error says which window was full: a Retry-After beyond ten seconds
// is the 15-minute window's, a short one the 10-second window's.
func TestRateLimitErrorNamesWindow(t *testing.T) {
	for _, c := range []struct {
		retryAfter string
		long       bool
		window     string
	}{{"1", false, "10-second"}, {"600", true, "15-minute"}} {
		answer := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {c.retryAfter}},
				Body: io.NopCloser(strings.NewReader(`{"status":429,"message":"Too many requests"}`)), Request: r}, nil
		})
		ctx, cancel := context.WithTimeout(WithOperation(context.Background(), "create"), 300*time.Millisecond)
		f := newFake(t, script(limited))
		_, err := f.client(func(c *Config) { c.Transport = answer }).UpdateGateRules(ctx, "g", nil)
		cancel()
		var re *RateLimitError
		if !errors.As(err, &re) {
			t.Fatalf("Retry-After %s: got %T %v", c.retryAfter, err, err)
		}
		if re.LongWindow != c.long || !strings.Contains(err.Error(), "the project's "+c.window+" write limit was exhausted") {
			t.Errorf("Retry-After %s: LongWindow %v, %v", c.retryAfter, re.LongWindow, err)
		}
		if want := parseSeconds(c.retryAfter); re.RetryAfter != want {
			t.Errorf("RetryAfter %v, want %v", re.RetryAfter, want)
		}
	}
}

// Without Retry-After, refusals that outlast the 10-second window can only be the 15-minute one's.
func TestLongWindowFullWithoutRetryAfter(t *testing.T) {
	for _, c := range []struct {
		retryAfter, limited time.Duration
		want                bool
	}{
		{0, 3 * time.Second, false},
		{0, 40 * time.Second, true},
		{5 * time.Second, 40 * time.Second, false},
		{11 * time.Second, time.Second, true},
	} {
		if got := longWindowFull(c.retryAfter, c.limited); got != c.want {
			t.Errorf("Retry-After %v, limited %v: long %v, want %v", c.retryAfter, c.limited, got, c.want)
		}
	}
}

func parseSeconds(s string) time.Duration {
	d, _ := parseRetryAfter(s)
	return d
}
