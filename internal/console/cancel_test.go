// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// Terraform cancels the context of a running CRUD call when the user presses Ctrl-C (the plugin
// server's StopProvider). These tests prove that the client then stops at once, whether it is
// waiting out a Retry-After between attempts or held back by the shared write pacer; the
// provider's own test (internal/provider, TestCancelStopsResourceWrites) proves that its
// resources pass that context down.

// throttledClient is a client configured as the provider configures it by default (retries with
// the real backoff, a pacer of 100 writes per 10s), against a mock that answers every request 429
// with Retry-After: 30.
func throttledClient(t *testing.T) (*Client, *mockconsole.Server) {
	t.Helper()
	m, ts := mockconsole.NewTestServer(t, mockconsole.Config{})
	m.SetFaults(mockconsole.Faults{FailEvery: 1, WriteStatus: http.StatusTooManyRequests, ReadStatus: http.StatusTooManyRequests, RetryAfter: "30"})
	c, err := New(Config{
		BaseURL: ts.URL, APIKey: mockconsole.DefaultAPIKey,
		MaxRetries: DefaultMaxRetries,
		Pacer:      NewPacer(100, 10*time.Second),
	})
	if err != nil {
		t.Fatal(err)
	}
	return c, m
}

// cancelAfter runs call with a context cancelled after d, and fails unless call returns within
// a second of the cancellation with a CancelledError (not a timeout, not the 429).
func cancelAfter(t *testing.T, d time.Duration, call func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- call(ctx) }()
	time.Sleep(d)
	select {
	case err := <-done:
		t.Fatalf("returned before the cancellation: %v", err)
	default:
	}
	cancelled := time.Now()
	cancel()
	select {
	case err := <-done:
		if e := time.Since(cancelled); e > time.Second {
			t.Errorf("returned %s after the cancellation, want under 1s", e)
		}
		if ce := (*CancelledError)(nil); !errors.As(err, &ce) || !errors.Is(err, context.Canceled) {
			t.Errorf("got %v (%T), want a CancelledError of context.Canceled", err, err)
		}
		t.Logf("error: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("still running 10s after the cancellation")
	}
}

func TestCancelStopsRetryAfterWait(t *testing.T) {
	c, m := throttledClient(t)
	cancelAfter(t, 300*time.Millisecond, func(ctx context.Context) error {
		_, err := c.UpdateGateRules(ctx, "dark_mode", nil)
		return err
	})
	if n := m.CountRequests(http.MethodPatch, "/"); n != 1 {
		t.Errorf("%d attempts, want 1 (the retry waits 30s)", n)
	}
	// Reads wait out Retry-After too (no pacer for them), and stop the same way.
	cancelAfter(t, 300*time.Millisecond, func(ctx context.Context) error {
		_, err := c.GetGate(ctx, "dark_mode")
		return err
	})
}

func TestCancelStopsPacerWait(t *testing.T) {
	c, m := throttledClient(t)
	// A first write meets the 429: the pacer now holds every writer back for 30s.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	_, _ = c.UpdateGateRules(ctx, "dark_mode", nil)
	cancel()
	m.ResetRequests()
	cancelAfter(t, 300*time.Millisecond, func(ctx context.Context) error {
		_, err := c.UpdateGateRules(ctx, "new_checkout", nil)
		return err
	})
	if r := m.Requests(); len(r) != 0 {
		t.Errorf("the paced write reached the service: %v", r)
	}
}
