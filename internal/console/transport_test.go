// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// TestPagerReusesConnections: fetching pages 8 at a time keeps 8 connections, instead of dialling
// again for most pages once more than the transport's idle connections per host are in flight.
func TestPagerReusesConnections(t *testing.T) {
	m := mockconsole.New(mockconsole.Config{EventRecords: 5000, Latency: 5 * time.Millisecond})
	var conns atomic.Int32
	ts := httptest.NewUnstartedServer(m)
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	ts.Start()
	defer ts.Close()
	c, err := New(Config{BaseURL: ts.URL, APIKey: mockconsole.DefaultAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := c.ListEvents(context.Background(), "checkout_completed", ListOptions{Concurrency: 8})
	if err != nil || len(evs) != 5000 {
		t.Fatalf("ListEvents: %d records, %v", len(evs), err)
	}
	if n := conns.Load(); n > 9 {
		t.Fatalf("%d connections for 50 pages fetched 8 at a time, want at most 9", n)
	}
}

// staleConnsServer answers on new connections and, once stale is set, closes every connection
// that served a request before as soon as a request arrives on it, unanswered: as a load
// balancer that dropped the idle connections the client still keeps in its pool.
// Writes are answered writeStatus (with the service's error body when it is not 200).
func staleConnsServer(t *testing.T, writeStatus int) (srv *httptest.Server, stale *atomic.Bool, writes *atomic.Int32) {
	t.Helper()
	stale, writes = &atomic.Bool{}, &atomic.Int32{}
	var mu sync.Mutex
	served := map[string]int{}
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		served[r.RemoteAddr]++
		reused := served[r.RemoteAddr] > 1
		mu.Unlock()
		if reused && stale.Load() {
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				_ = conn.Close()
				return
			}
		}
		if r.Method != http.MethodGet {
			writes.Add(1)
		}
		time.Sleep(20 * time.Millisecond) // keeps the warm-up's reads in flight together
		w.Header().Set("Content-Type", "application/json")
		if r.Method != http.MethodGet && writeStatus != http.StatusOK {
			w.WriteHeader(writeStatus)
			_, _ = fmt.Fprintf(w, `{"status":%d,"message":"Gate with id g already exists"}`, writeStatus)
			return
		}
		_, _ = io.WriteString(w, `{"message":"ok","data":{"id":"g","rules":[]}}`)
	}))
	t.Cleanup(srv.Close)
	return srv, stale, writes
}

// overStalePool is a client of a staleConnsServer (writes answered 200) with n connections in its
// pool, left by n reads at once.
func overStalePool(t *testing.T, n int) (*Client, *atomic.Bool, *atomic.Int32) {
	t.Helper()
	srv, stale, writes := staleConnsServer(t, http.StatusOK)
	c, err := New(Config{BaseURL: srv.URL, APIKey: testKey, MaxRetries: 4, RetryWaitMin: time.Millisecond, RetryWaitMax: 2 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if _, err := c.GetGate(uncachedReads(context.Background()), fmt.Sprintf("g%d", i)); err != nil {
				t.Errorf("warm-up read: %v", err)
			}
		})
	}
	wg.Wait()
	return c, stale, writes
}

// A write after a long wait meets pooled connections the service already closed: the EOF of a
// reused connection is sent again on a fresh one instead of trying the next dead connection until
// max_retries runs out (issue 31: TestAccHabits_longWindow's destroy failed on seven EOFs).
func TestStalePooledConnectionsAreNotRetriedOneByOne(t *testing.T) {
	c, stale, writes := overStalePool(t, 8)
	stale.Store(true)
	if _, err := c.UpdateGateRules(context.Background(), "g", nil); err != nil {
		t.Fatalf("a write over stale pooled connections failed: %v", err)
	}
	if n := writes.Load(); n != 1 {
		t.Errorf("the service received %d writes, want 1", n)
	}
}

// A write sent again on a new connection after a pooled one was closed under it may meet its own
// first attempt ("already exists"): the error says the write may have been committed, so that a
// create reads the object back instead of calling it someone else's.
func TestWriteSentAgainOnNewConnectionMayHaveBeenCommitted(t *testing.T) {
	srv, stale, _ := staleConnsServer(t, http.StatusBadRequest)
	c, err := New(Config{BaseURL: srv.URL, APIKey: testKey, MaxRetries: 4, RetryWaitMin: time.Millisecond, RetryWaitMax: 2 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.GetGate(uncachedReads(ctx), "g"); err != nil {
		t.Fatalf("warm-up read: %v", err)
	}
	stale.Store(true)
	_, err = c.CreateGate(ctx, GateFields{ID: "g"})
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusBadRequest || !ae.MaybeCommitted || !MaybeApplied(err) {
		t.Fatalf("got %#v, want a 400 that may have been committed", err)
	}
}

// A create that must not be sent twice never meets a pooled connection the service closed: it goes
// on a new one, where the idle-connection race cannot happen, so its answer is not lost and no read
// back or second create is needed (issue 39: the demo's segment and pipeline creates failed in the
// all-habits run after four EOFs in a row).
func TestCreatesThatMustNotBeResentTakeNoPooledConnection(t *testing.T) {
	c, stale, writes := overStalePool(t, 4)
	stale.Store(true)
	for i := range 3 {
		if _, err := c.CreateSegment(context.Background(), NewSegment{ID: fmt.Sprintf("s%d", i), Type: "id_list"}); err != nil {
			t.Fatalf("create %d over stale pooled connections: %v", i, err)
		}
	}
	if n := writes.Load(); n != 3 {
		t.Errorf("the service received %d writes, want 3", n)
	}
}
