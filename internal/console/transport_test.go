// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
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
