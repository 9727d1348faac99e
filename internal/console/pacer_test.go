// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func TestPacerSpacesWrites(t *testing.T) {
	f := newFake(t, script(ok(`{"id":"g"}`)))
	// 50 writes/s with a burst of 1: one write per 20ms window.
	c := f.client(func(cfg *Config) { cfg.Pacer = NewPacer(1, 20*time.Millisecond) })
	start := time.Now()
	for i := 0; i < 10; i++ {
		if _, err := c.UpdateGateRules(context.Background(), "g", nil); err != nil {
			t.Fatal(err)
		}
	}
	// One at once, then nine 20ms apart.
	if e := time.Since(start); e < 175*time.Millisecond {
		t.Errorf("10 writes at 50/s with burst 1 took %v, want >= ~180ms", e)
	}
}

func TestPacerSpacesConcurrentWrites(t *testing.T) {
	f := newFake(t, script(ok(`{}`)))
	c := f.client(func(cfg *Config) { cfg.Pacer = NewPacer(1, 20*time.Millisecond) })
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Go(func() {
			if err := c.DeleteMetricSource(context.Background(), "m"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if e := time.Since(start); e < 175*time.Millisecond {
		t.Errorf("10 concurrent writes took %v", e)
	}
}

func TestPacerDoesNotPaceReads(t *testing.T) {
	f := newFake(t, script(ok(`{"id":"g"}`)))
	c := f.client(func(cfg *Config) { cfg.Pacer = NewPacer(1, time.Second) })
	start := time.Now()
	for i := 0; i < 10; i++ {
		if _, err := c.GetGate(context.Background(), "g"); err != nil {
			t.Fatal(err)
		}
	}
	// Paced, they would take 9 s; the margin is for a loaded machine.
	if e := time.Since(start); e > 5*time.Second {
		t.Errorf("10 reads with a 1 write/s pacer took %v", e)
	}
}

// Retries are writes too: each attempt waits for the pacer.
func TestPacerPacesRetries(t *testing.T) {
	f := newFake(t, script(reply{Status: 502}, reply{Status: 502}, ok(`{"id":"g"}`)))
	c := f.client(func(cfg *Config) { cfg.Pacer = NewPacer(1, 100*time.Millisecond) })
	start := time.Now()
	if _, err := c.UpdateGateRules(context.Background(), "g", nil); err != nil {
		t.Fatal(err)
	}
	if e := time.Since(start); e < 190*time.Millisecond {
		t.Errorf("3 attempts at 10/s took %v", e)
	}
}

func TestPacer429PausesOtherWriters(t *testing.T) {
	var once sync.Once
	got429 := make(chan time.Time, 1)
	f := newFake(t, func(n int, r seen) reply {
		if r.Path == "/console/v1/gates/a/rules" {
			var first bool
			once.Do(func() { first = true })
			if first {
				got429 <- time.Now()
				return reply{Status: 429, Header: map[string]string{"Retry-After": "1"}}
			}
		}
		return ok(`{"id":"x"}`)
	})
	c := f.client(func(cfg *Config) { cfg.Pacer = NewPacer(0, 0) })
	var wg sync.WaitGroup
	wg.Go(func() {
		if _, err := c.UpdateGateRules(context.Background(), "a", nil); err != nil {
			t.Error(err)
		}
	})
	sent := <-got429
	time.Sleep(100 * time.Millisecond) // let writer a see its 429
	if _, err := c.UpdateGateRules(context.Background(), "b", nil); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	var bAt time.Time
	for _, r := range f.requests() {
		if r.Path == "/console/v1/gates/b/rules" {
			bAt = r.At
		}
	}
	if gap := bAt.Sub(sent); gap < 900*time.Millisecond {
		t.Errorf("writer b was sent %v after the 429, want >= ~1s", gap)
	}
}

func TestPacerPauseReadNotHeld(t *testing.T) {
	f := newFake(t, script(ok(`{"id":"g"}`)))
	p := NewPacer(0, 0)
	pauseFor(p, time.Hour)
	c := f.client(func(cfg *Config) { cfg.Pacer = p })
	start := time.Now()
	if _, err := c.GetGate(context.Background(), "g"); err != nil {
		t.Fatal(err)
	}
	if e := time.Since(start); e > 5*time.Second { // held, it would wait an hour
		t.Errorf("a read waited %v for a write pause", e)
	}
}

func TestPacerWaitCancel(t *testing.T) {
	p := NewPacer(0, 0)
	pauseFor(p, time.Hour)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := p.wait(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Wait = %v", err)
	}
	if e := time.Since(start); e > time.Second {
		t.Errorf("Wait ignored the context for %v", e)
	}
	// A shorter pause never shortens a longer one.
	pauseFor(p, time.Millisecond)
	ctx2, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	if err := p.wait(ctx2); err == nil {
		t.Error("a shorter Pause cut the longer one")
	}
}

// A write held by the pacer stops when its context ends and names the call.
func TestPacerCancelWrite(t *testing.T) {
	f := newFake(t, script(ok(`{}`)))
	p := NewPacer(0, 0)
	pauseFor(p, time.Hour)
	c := f.client(func(cfg *Config) { cfg.Pacer = p })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := c.DeleteMetricSource(ctx, "m")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v", err)
	}
	if f.count() != 0 {
		t.Errorf("%d requests sent", f.count())
	}
}

// pauseFor holds every writer of p back for d, as a 429 does, without its jitter or rate cut.
func pauseFor(p *Pacer, d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pauseLocked(time.Now().Add(d))
}
