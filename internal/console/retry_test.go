// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRetry503ThenSuccess(t *testing.T) {
	f := newFake(t, script(apiErr(503, "try later"), ok(`{"id":"g"}`)))
	g, err := f.client().GetGate(context.Background(), "g")
	if err != nil || g.ID != "g" {
		t.Fatalf("got %v, %v", g, err)
	}
	if f.count() != 2 {
		t.Errorf("%d requests, want 2", f.count())
	}
}

// The body of a retried write is sent again, whole, on every attempt.
func TestRetryResendsBody(t *testing.T) {
	f := newFake(t, script(reply{Status: 500}, reply{Status: 502}, ok(`{"id":"g","rules":[{"name":"a","passPercentage":1}]}`)))
	_, err := f.client().UpdateGateRules(context.Background(), "g", []Rule{{Name: "a", PassPercentage: 1}})
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for i, r := range reqs {
		if r.Body != `{"rules":[{"name":"a","passPercentage":1,"conditions":[],"environments":null}]}` {
			t.Errorf("attempt %d body %s", i+1, r.Body)
		}
		checkHeaders(t, r, true, false)
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	f := newFake(t, script(reply{Status: 429, Body: `{"status":429,"message":"slow down"}`, Header: map[string]string{"Retry-After": "1"}}, ok(`{"id":"g"}`)))
	start := time.Now()
	// RetryWaitMax is 5ms: only Retry-After can make the client wait a second.
	_, err := f.client().GetGate(context.Background(), "g")
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if elapsed < 900*time.Millisecond {
		t.Errorf("retried after %v, want >= ~1s", elapsed)
	}
	reqs := f.requests()
	if gap := reqs[1].At.Sub(reqs[0].At); gap < 900*time.Millisecond {
		t.Errorf("gap between attempts %v", gap)
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	when := time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat)
	f := newFake(t, script(reply{Status: 503, Header: map[string]string{"Retry-After": when}}, ok(`{"id":"g"}`)))
	start := time.Now()
	if _, err := f.client().GetGate(context.Background(), "g"); err != nil {
		t.Fatal(err)
	}
	// The date has one-second resolution.
	if e := time.Since(start); e < 900*time.Millisecond {
		t.Errorf("retried after %v", e)
	}
}

func TestRetries5xxGiveUp(t *testing.T) {
	f := newFake(t, script(apiErr(500, "boom")))
	_, err := f.client(func(c *Config) { c.MaxRetries = 2 }).GetGate(context.Background(), "g")
	if f.count() != 3 {
		t.Errorf("%d requests, want 3", f.count())
	}
	var ae *APIError
	if err == nil || err.Error() != `Unable to read gate "g": 500 Internal Server Error: boom` || !errors.As(err, &ae) || ae.Attempts != 3 {
		t.Errorf("error: %v", err)
	}
}

func TestMaxRetriesZeroIsOneAttempt(t *testing.T) {
	for _, n := range []int{0, -1} {
		f := newFake(t, script(reply{Status: 503}, ok(`{"id":"g"}`)))
		_, err := f.client(func(c *Config) { c.MaxRetries = n }).GetGate(context.Background(), "g")
		if !hasStatus(err, 503) {
			t.Errorf("MaxRetries %d: got %v", n, err)
		}
		if f.count() != 1 {
			t.Errorf("MaxRetries %d: %d requests", n, f.count())
		}
		// One attempt: the provider does not say it gave up (TestFailureDetail).
		if ae := (*APIError)(nil); !errors.As(err, &ae) || ae.Attempts != 1 {
			t.Errorf("a single attempt counts %v", err)
		}
	}
}

func TestCancelStopsWaiting(t *testing.T) {
	f := newFake(t, script(reply{Status: 429, Header: map[string]string{"Retry-After": "60"}}))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := f.client(func(c *Config) { c.MaxRetries = 5 }).UpdateGateRules(ctx, "g", nil)
	if e := time.Since(start); e > 2*time.Second {
		t.Errorf("cancel took %v to stop the wait", e)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	if err != nil && !strings.HasPrefix(err.Error(), `Unable to update rules of gate "g"`) {
		t.Errorf("error does not name the call: %s", err)
	}
	if f.count() != 1 {
		t.Errorf("%d requests", f.count())
	}
}

func TestCancelledBeforeStart(t *testing.T) {
	f := newFake(t, script(ok(`{"id":"g"}`)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := f.client().GetGate(ctx, "g")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v", err)
	}
	if f.count() != 0 {
		t.Errorf("%d requests after cancel", f.count())
	}
}

func TestMaybeCommitted(t *testing.T) {
	t.Run("write answered 502 then 400", func(t *testing.T) {
		f := newFake(t, script(reply{Status: 502}, apiErr(400, "Name is already in use")))
		_, err := f.client().CreateMetricSource(context.Background(), MetricSource{Name: "m"})
		var ae *APIError
		if !errors.As(err, &ae) || ae.StatusCode != 400 {
			t.Fatalf("got %v", err)
		}
		if !ae.MaybeCommitted || ae.Attempts != 2 {
			t.Errorf("MaybeCommitted %v, Attempts %d", ae.MaybeCommitted, ae.Attempts)
		}
		if err.Error() != `Unable to create metric source "m": 400 Bad Request: Name is already in use` {
			t.Errorf("Error() = %s", err)
		}
	})
	t.Run("write answered 429 then 400", func(t *testing.T) {
		f := newFake(t, script(reply{Status: 429, Header: map[string]string{"Retry-After": "0"}}, apiErr(400, "bad")))
		_, err := f.client().CreateMetricSource(context.Background(), MetricSource{Name: "m"})
		var ae *APIError
		if !errors.As(err, &ae) || ae.MaybeCommitted {
			t.Errorf("got %v (%+v)", err, ae)
		}
	})
	t.Run("write answered 400 at once", func(t *testing.T) {
		f := newFake(t, script(apiErr(400, "bad")))
		err := f.client().DeleteMetricSource(context.Background(), "m")
		var ae *APIError
		if !errors.As(err, &ae) || ae.MaybeCommitted {
			t.Errorf("got %v (%+v)", err, ae)
		}
	})
	t.Run("GET never", func(t *testing.T) {
		f := newFake(t, script(reply{Status: 502}, reply{Status: 500}, apiErr(404, "gone")))
		_, err := f.client().GetMetricSource(context.Background(), "m")
		var ae *APIError
		if !errors.As(err, &ae) || ae.StatusCode != 404 || ae.MaybeCommitted || ae.Attempts != 3 {
			t.Errorf("got %v (%+v)", err, ae)
		}
	})
	t.Run("write 502 until give-up", func(t *testing.T) {
		f := newFake(t, script(reply{Status: 502}))
		_, err := f.client().UpdateReleasePipeline(context.Background(), "p", ReleasePipelineUpdate{Name: "n"})
		var ae *APIError
		if !errors.As(err, &ae) || !ae.MaybeCommitted {
			t.Errorf("got %v (%+v)", err, ae)
		}
	})
}

func TestNotImplementedIsNotRetried(t *testing.T) {
	f := newFake(t, script(apiErr(501, "not implemented"), ok(`{"id":"g"}`)))
	_, err := f.client().GetGate(context.Background(), "g")
	if !hasStatus(err, 501) || f.count() != 1 {
		t.Errorf("got %v after %d requests", err, f.count())
	}
}

func TestClientErrorsAreNotRetried(t *testing.T) {
	for _, st := range []int{400, 401, 403, 404, 409, 422} {
		f := newFake(t, script(apiErr(st, "no"), ok(`{"id":"g"}`)))
		_, err := f.client().UpdateGateRules(context.Background(), "g", nil)
		if !hasStatus(err, st) || f.count() != 1 {
			t.Errorf("%d: got %v after %d requests", st, err, f.count())
		}
	}
}

// A service that is not there at all gives a TransportError after one retry (nothing listens:
// more retries only delay the error), naming the request, without the key.
func TestTransportError(t *testing.T) {
	f := newFake(t, script(ok(`{}`)))
	url := f.srv.URL
	f.srv.Close()
	c, err := New(Config{BaseURL: url, APIKey: testKey, MaxRetries: 2, RetryWaitMin: time.Millisecond, RetryWaitMax: 2 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetGate(context.Background(), "g")
	var te *TransportError
	if !errors.As(err, &te) {
		t.Fatalf("got %T %v", err, err)
	}
	if te.Attempts != 2 || !te.NeverSent || !strings.Contains(err.Error(), "could not connect to the service, so nothing was sent (2 attempt(s))") ||
		te.Tried() != "GET "+url+"/console/v1/gates/g" || te.APIRoot() != url+"/console/v1" {
		t.Errorf("error: %s, request %q", err, te.Tried())
	}
	noKey(t, "transport error", err.Error())
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("the cause is lost: %#v", te.Err)
	}
}

// Every attempt timing out gives a TransportError that still says it was a timeout.
func TestTransportErrorTimeout(t *testing.T) {
	f := newFake(t, func(int, seen) reply { time.Sleep(200 * time.Millisecond); return ok(`{}`) })
	_, err := f.client(func(c *Config) { c.Timeout = 20 * time.Millisecond; c.MaxRetries = 1 }).GetGate(context.Background(), "g")
	var te *TransportError
	if !errors.As(err, &te) || te.Attempts != 2 {
		t.Fatalf("got %T %v", err, err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a timeout is not recognisable: %v", err)
	}
}

// An attempt that hangs is cut by Timeout and retried.
func TestAttemptTimeout(t *testing.T) {
	f := newFake(t, func(n int, r seen) reply {
		if n == 0 {
			time.Sleep(300 * time.Millisecond)
		}
		return ok(`{"id":"g"}`)
	})
	g, err := f.client(func(c *Config) { c.Timeout = 50 * time.Millisecond }).GetGate(context.Background(), "g")
	if err != nil || g.ID != "g" {
		t.Fatalf("got %v %v", g, err)
	}
	if f.count() != 2 {
		t.Errorf("%d requests", f.count())
	}
}

func TestParseRetryAfter(t *testing.T) {
	for in, want := range map[string]time.Duration{"0": 0, "1": time.Second, " 7 ": 7 * time.Second} {
		if d, ok := parseRetryAfter(in); !ok || d != want {
			t.Errorf("parseRetryAfter(%q) = %v %v", in, d, ok)
		}
	}
	for _, in := range []string{"", "-1", "soon", "1.5"} {
		if d, ok := parseRetryAfter(in); ok {
			t.Errorf("parseRetryAfter(%q) = %v, accepted", in, d)
		}
	}
	if d, ok := parseRetryAfter(time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)); !ok || d != 0 {
		t.Errorf("past date: %v %v", d, ok)
	}
}

func TestBackoff(t *testing.T) {
	for attempt := 0; attempt < 40; attempt++ {
		d := backoff(100*time.Millisecond, 3*time.Second, attempt, nil)
		ceiling := min(100*time.Millisecond<<min(attempt, 30), 3*time.Second)
		if d < ceiling/2 || d > ceiling {
			t.Errorf("attempt %d: %v outside [%v, %v]", attempt, d, ceiling/2, ceiling)
		}
	}
	resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"3600"}}}
	if d := backoff(time.Millisecond, time.Millisecond, 0, resp); d < maxRetryAfter || d > maxRetryAfter+maxRetryAfter/4+time.Second {
		t.Errorf("Retry-After not capped (before jitter): %v", d)
	}
	resp = &http.Response{StatusCode: 500, Header: http.Header{"Retry-After": {"5"}}}
	if d := backoff(time.Millisecond, 2*time.Millisecond, 0, resp); d > 2*time.Millisecond {
		t.Errorf("Retry-After honoured on a 500: %v", d)
	}
}
