// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// mockClient serves a mock console API (seeded with gate_001..gate_N) and a client of it.
func mockClient(t *testing.T, cfg mockconsole.Config, opts ...func(*Config)) (*mockconsole.Server, *Client) {
	t.Helper()
	m, ts := mockconsole.NewTestServer(t, cfg)
	return m, mockClientOf(t, ts, opts...)
}

// mockClientOf is a new client, as a new configuration of the provider makes, of the mock at ts.
func mockClientOf(t *testing.T, ts *httptest.Server, opts ...func(*Config)) *Client {
	t.Helper()
	return (&fakeAPI{t: t, srv: ts}).client(append([]func(*Config){func(c *Config) { c.APIKey = mockconsole.DefaultAPIKey }, shareReads}, opts...)...)
}

// readGates reads ids as a refresh does: ten at a time, each id twice (gate and gate rules).
func readGates(t *testing.T, c *Client, ids []string) map[string]*Gate {
	t.Helper()
	var mu sync.Mutex
	got := map[string]*Gate{}
	work := make(chan string)
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range work {
				g, err := c.GetGate(context.Background(), id)
				if err != nil && !NotFound(err) {
					t.Errorf("GetGate(%s): %v", id, err)
				}
				mu.Lock()
				got[id] = g
				mu.Unlock()
			}
		}()
	}
	for range 2 {
		for _, id := range ids {
			work <- id
		}
	}
	close(work)
	wg.Wait()
	return got
}

func benchIDs(from, to int) []string {
	var ids []string
	for i := from; i <= to; i++ {
		ids = append(ids, fmt.Sprintf("gate_%03d", i))
	}
	return ids
}

// gateGETs counts the reads (GET /gates/{id}) and list pages (GET /gates) the mock answered.
func gateGETs(m *mockconsole.Server) (reads, pages int) {
	for _, r := range m.Requests() {
		if r.Method != http.MethodGet {
			continue
		}
		switch p := strings.TrimPrefix(r.Path, "/console/v1"); {
		case p == "/gates":
			pages++
		case strings.HasPrefix(p, "/gates/"):
			reads++
		}
	}
	return reads, pages
}

// TestGetGateSharedInFlight: callers asking for one gate at once send one request, and each gets
// its own copy.
func TestGetGateSharedInFlight(t *testing.T) {
	m, c := mockClient(t, mockconsole.Config{Latency: 50 * time.Millisecond})
	m.PutGate(mockconsole.Gate{ID: "gate_001", Rules: []mockconsole.Rule{{Name: "employees", PassPercentage: 100}}})
	m.ResetRequests()
	var wg sync.WaitGroup
	got := make([]*Gate, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g, err := c.GetGate(context.Background(), "gate_001")
			if err != nil {
				t.Errorf("GetGate: %v", err)
			}
			got[i] = g
		}()
	}
	wg.Wait()
	if reads, pages := gateGETs(m); reads != 1 || pages != 0 {
		t.Fatalf("8 callers at once sent %d reads and %d list pages, want 1 read", reads, pages)
	}
	got[0].Description = "changed by a caller"
	got[0].Rules[0].Name = "changed"
	again, err := c.GetGate(context.Background(), "gate_001")
	if err != nil {
		t.Fatal(err)
	}
	if again.Description == "changed by a caller" || again.Rules[0].Name == "changed" || got[1].Rules[0].Name == "changed" {
		t.Errorf("a caller's change reached another caller's gate: %+v", again)
	}
	if reads, _ := gateGETs(m); reads != 1 {
		t.Errorf("a second read within the refresh sent a request (%d reads)", reads)
	}
}

// TestGetGateWriteForgets: after any write through the client (of this gate, of another object),
// a read asks the service again and sees the change.
func TestGetGateWriteForgets(t *testing.T) {
	writes := map[string]func(context.Context, *Client) error{
		"the gate's fields": func(ctx context.Context, c *Client) error {
			_, err := c.UpdateGate(ctx, "gate_001", GateFields{Description: ptr("new words")})
			return err
		},
		"the gate's rules": func(ctx context.Context, c *Client) error {
			_, err := c.UpdateGateRules(ctx, "gate_001", []Rule{})
			return err
		},
		"another gate": func(ctx context.Context, c *Client) error { return c.DeleteGate(ctx, "gate_002") },
	}
	for name, write := range writes {
		t.Run(name, func(t *testing.T) {
			m, c := mockClient(t, mockconsole.Config{})
			ctx := context.Background()
			before, err := c.GetGate(ctx, "gate_001")
			if err != nil {
				t.Fatal(err)
			}
			if err := write(ctx, c); err != nil {
				t.Fatal(err)
			}
			// What the console changes meanwhile must show as well.
			g, _ := m.Gate("gate_001")
			g.Name = "Renamed in the console"
			m.PutGate(g)
			after, err := c.GetGate(ctx, "gate_001")
			if err != nil {
				t.Fatal(err)
			}
			if after.Name != "Renamed in the console" {
				t.Errorf("the read after a write returned the answer from before it: %q (before: %q)", after.Name, before.Name)
			}
			if reads, _ := gateGETs(m); reads < 2 {
				t.Errorf("%d reads of the gate, want one before and one after the write", reads)
			}
		})
	}
}

// TestGetGateReadOverlappingWriteNotKept: a read answered while a write was under way is not
// handed out after the write.
func TestGetGateReadOverlappingWriteNotKept(t *testing.T) {
	release := make(chan struct{})
	arrived := make(chan struct{}, 1)
	var mu sync.Mutex
	desc, blocked := "old", false
	f := newFake(t, func(_ int, r seen) reply {
		if r.Method == http.MethodGet {
			mu.Lock()
			d, first := desc, !blocked
			blocked = true
			mu.Unlock()
			if first {
				arrived <- struct{}{}
				<-release
			}
			return ok(`{"id":"a","description":"` + d + `","rules":[]}`)
		}
		mu.Lock()
		desc = "new"
		mu.Unlock()
		return ok(`{"id":"a","description":"new","rules":[]}`)
	})
	// A read joined to the blocked one would wait for this long before failing the test.
	c := f.client(func(c *Config) { c.Timeout, c.MaxRetries = 2*time.Second, 0 })
	ctx := context.Background()
	done := make(chan *Gate)
	go func() {
		g, err := c.GetGate(ctx, "a")
		if err != nil {
			t.Error(err)
		}
		done <- g
	}()
	<-arrived
	if _, err := c.UpdateGate(ctx, "a", GateFields{Description: ptr("new")}); err != nil {
		t.Fatal(err)
	}
	// Asked after the write, while the read from before it is still in flight: not joined to it.
	g, err := c.GetGate(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if g.Description != "new" {
		t.Errorf("a read asked for after the write joined the read from before it: %q", g.Description)
	}
	close(release)
	if g := <-done; g.Description != "old" {
		t.Fatalf("the overlapping read: %q", g.Description)
	}
	if g, err = c.GetGate(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if g.Description != "new" {
		t.Errorf("after the write the client handed out the read that overlapped it: %q", g.Description)
	}
}

// TestGetGateUncachedReads: a poller's reads go to the service each time.
func TestGetGateUncachedReads(t *testing.T) {
	m, c := mockClient(t, mockconsole.Config{})
	ctx := uncachedReads(context.Background())
	for range 3 {
		if _, err := c.GetGate(ctx, "gate_001"); err != nil {
			t.Fatal(err)
		}
	}
	if reads, _ := gateGETs(m); reads != 3 {
		t.Errorf("%d reads, want 3", reads)
	}
}

// TestGetGateCancelledLeader: a caller whose own context ends does not fail another that waits
// for the same read.
func TestGetGateCancelledLeader(t *testing.T) {
	_, c := mockClient(t, mockconsole.Config{Latency: 100 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	leader := make(chan error)
	go func() {
		_, err := c.GetGate(ctx, "gate_001")
		leader <- err
	}()
	time.Sleep(20 * time.Millisecond)
	follower := make(chan error)
	go func() {
		_, err := c.GetGate(context.Background(), "gate_001")
		follower <- err
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-leader; err == nil {
		t.Error("the cancelled caller got no error")
	}
	if err := <-follower; err != nil {
		t.Errorf("the waiting caller failed with the other's cancellation: %v", err)
	}
}

// TestGetGateCancelledCallers: the caller whose read is in flight returns what its own read met
// (the request it tried), and a caller waiting for another's read leaves as soon as its own context
// ends, while that read goes on for the other.
func TestGetGateCancelledCallers(t *testing.T) {
	_, c := mockClient(t, mockconsole.Config{Latency: 300 * time.Millisecond})
	leaderCtx, cancelLeader := context.WithCancel(context.Background())
	defer cancelLeader()
	leader := make(chan error, 1)
	go func() {
		_, err := c.GetGate(leaderCtx, "gate_001")
		leader <- err
	}()
	time.Sleep(30 * time.Millisecond)
	waiterCtx, cancelWaiter := context.WithCancel(context.Background())
	waiter := make(chan error, 1)
	go func() {
		_, err := c.GetGate(waiterCtx, "gate_001")
		waiter <- err
	}()
	time.Sleep(30 * time.Millisecond)
	cancelWaiter()
	select {
	case err := <-waiter:
		if ce := (*CancelledError)(nil); !errors.As(err, &ce) || ce.Tried() != "" {
			t.Errorf("the waiter got %v (%T), want a CancelledError naming no request of its own", err, err)
		}
	case err := <-leader:
		t.Fatalf("the read ended (%v) before the cancelled waiter left", err)
	}
	cancelLeader()
	err := <-leader
	if ce := (*CancelledError)(nil); !errors.As(err, &ce) || !strings.HasPrefix(ce.Tried(), "GET ") {
		t.Errorf("the cancelled leader got %v (%T), want its own read's CancelledError naming the GET", err, err)
	}
}

// shareReads configures a client as the provider does: reads shared until its next write.
func shareReads(c *Config) { c.SharedReads = true }

// A client made without SharedReads (a test's or a sweeper's checks, which never write) reads every
// time: a kept answer would hide what changed since.
func TestGetGateUnsharedReadsEveryTime(t *testing.T) {
	m, c := mockClient(t, mockconsole.Config{SeedGates: 150}, func(c *Config) { c.SharedReads = false })
	readGates(t, c, []string{"gate_001", "gate_002", "gate_003"})
	gets := 0
	for _, r := range m.Requests() {
		if r.Method == "GET" {
			gets++
			if r.Path == "/console/v1/gates" {
				t.Errorf("an unshared client listed gates: %+v", r)
			}
		}
	}
	if gets != 6 {
		t.Errorf("%d GETs for three gates read twice, want 6", gets)
	}
}
