// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"sync"
	"testing"
	"time"
)

func TestPacerSlidingWindow(t *testing.T) {
	p := NewPacer(5, 200*time.Millisecond)
	var mu sync.Mutex
	var sent []time.Time
	var wg sync.WaitGroup
	start := time.Now()
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.wait(context.Background()); err != nil {
				t.Error(err)
			}
			mu.Lock()
			sent = append(sent, time.Now())
			mu.Unlock()
		}()
	}
	wg.Wait()
	if el := time.Since(start); el < 400*time.Millisecond {
		t.Fatalf("12 writes at 5 per 200ms took %v, want at least 400ms", el)
	}
	for i := range sent {
		n := 0
		for j := range sent {
			if d := sent[j].Sub(sent[i]); d >= 0 && d < 200*time.Millisecond {
				n++
			}
		}
		if n > 5 {
			t.Fatalf("%d writes within 200ms of write %d, the limit is 5", n, i)
		}
	}
}

func TestPacerBurstUpToLimitIsImmediate(t *testing.T) {
	p := NewPacer(100, time.Hour)
	start := time.Now()
	for range 100 {
		if err := p.wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if el := time.Since(start); el > 100*time.Millisecond {
		t.Fatalf("a full window of writes took %v, want no wait", el)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := p.wait(ctx); err == nil {
		t.Fatal("the 101st write in the window did not wait")
	}
}

func TestPacerPauseHoldsEveryWriter(t *testing.T) {
	p := NewPacer(0, 0)
	pauseFor(p, 150*time.Millisecond)
	start := time.Now()
	if err := p.wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < 140*time.Millisecond {
		t.Fatalf("a paused pacer let a write through after %v", el)
	}
}
