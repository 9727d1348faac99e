// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"net/http"
	"testing"
	"time"
)

// send lets one write go at now, failing the test when the pacer holds it back.
func send(t *testing.T, p *Pacer, now time.Time) held {
	t.Helper()
	var h held
	p.mu.Lock()
	wait, why := p.reserveLocked(now, &h)
	p.mu.Unlock()
	if wait > 0 {
		t.Fatalf("write held back %v (%s), want it sent", wait, why)
	}
	return h
}

// heldBack answers why the pacer holds a write back at now ("" when it lets it go, and counts it).
func heldBack(p *Pacer, now time.Time) string {
	var h held
	p.mu.Lock()
	defer p.mu.Unlock()
	_, why := p.reserveLocked(now, &h)
	return why
}

func refusal(retryAfter string) *http.Response {
	return &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {retryAfter}}}
}

var accepted = &http.Response{StatusCode: http.StatusOK, Header: http.Header{}}

// A process that is never refused paces to the whole limit: no share, no probes.
func TestPacerAloneHasNoShare(t *testing.T) {
	p := NewPacer(100, 10*time.Second)
	t0 := time.Now()
	for range 100 {
		if h := send(t, p, t0); h.probe {
			t.Fatal("a write of a process never refused went as a probe")
		}
		observe(p, accepted, held{})
	}
	if why := heldBack(p, t0); why != heldWindow {
		t.Fatalf("write 101 in the window: held for %q, want %q", why, heldWindow)
	}
}

// A 429 with Retry-After drops the refused write's stamp, makes what the process holds its share,
// keeps its rate, and pauses it until the window frees.
func TestPacerRefusalSetsShare(t *testing.T) {
	p := NewPacer(100, 10*time.Second)
	t0 := time.Now()
	for range 29 {
		observe(p, accepted, send(t, p, t0))
	}
	observe(p, refusal("10"), send(t, p, t0))
	if n := len(p.tiers[0].sent); n != 29 {
		t.Fatalf("the window counts %d writes after the refusal, want 29 (the refused one dropped)", n)
	}
	if p.share != 29 {
		t.Fatalf("share %d, want the 29 writes held", p.share)
	}
	if r := p.currentRate(); r != p.maxRate {
		t.Fatalf("rate cut to %v on a 429 with Retry-After, want %v", r, p.maxRate)
	}
	if why := heldBack(p, t0.Add(5*time.Second)); why != heldPause {
		t.Fatalf("5 s after the refusal: held for %q, want %q", why, heldPause)
	}

	// Once the window frees, one write goes, then one more for each answered (slow start).
	at := t0.Add(10*time.Second + 700*time.Millisecond)
	first := send(t, p, at)
	if why := heldBack(p, at); why != heldRamp {
		t.Fatalf("a second write before the first is answered: held for %q, want %q", why, heldRamp)
	}
	observe(p, accepted, first)
	a, b := send(t, p, at), send(t, p, at)
	observe(p, accepted, a)
	observe(p, accepted, b)
	// The share, then one probe, then the share holds.
	for i := range 26 {
		h := send(t, p, at)
		if h.probe {
			t.Fatalf("write %d within the share went as a probe", i+4)
		}
		observe(p, accepted, h)
	}
	probe := send(t, p, at)
	if !probe.probe {
		t.Fatal("the first write beyond the share did not go as a probe")
	}
	if why := heldBack(p, at); why != heldShare {
		t.Fatalf("a second write beyond the share while the probe is out: held for %q, want %q", why, heldShare)
	}

	// An accepted probe widens the share by one and lets two more go (slow start), and wakes the
	// writers the share holds.
	wake := p.wake
	observe(p, accepted, probe)
	select {
	case <-wake:
	default:
		t.Fatal("an accepted probe did not wake the writers held by the share")
	}
	if p.share != 30 {
		t.Fatalf("share %d after an accepted probe, want 30", p.share)
	}
	a, b = send(t, p, at), send(t, p, at)
	if !a.probe || !b.probe {
		t.Fatal("the two writes an accepted probe allows did not go as probes")
	}
	if why := heldBack(p, at); why != heldShare {
		t.Fatalf("a third write while two probes are out: held for %q, want %q", why, heldShare)
	}

	// A refused probe sets the share to what the process holds again, and probes stop.
	observe(p, accepted, a)
	observe(p, refusal("9"), b)
	if p.share != 31 || p.credit != 0 {
		t.Fatalf("after a refused probe: share %d, credit %d, want 31 and 0", p.share, p.credit)
	}
}

// A share that grows to the limit is no share: the process paces to the whole limit again.
func TestPacerShareGrowsBackToTheLimit(t *testing.T) {
	p := NewPacer(5, 10*time.Second)
	t0 := time.Now()
	observe(p, accepted, send(t, p, t0))
	observe(p, refusal("10"), send(t, p, t0))
	if p.share != 1 {
		t.Fatalf("share %d, want 1", p.share)
	}
	at := t0.Add(11 * time.Second)
	observe(p, accepted, send(t, p, at))
	for range 4 {
		h := send(t, p, at)
		if !h.probe {
			t.Fatal("a write beyond the share did not go as a probe")
		}
		observe(p, accepted, h)
	}
	if p.share != 0 {
		t.Fatalf("share %d once it reached the limit, want 0 (none)", p.share)
	}
	if why := heldBack(p, at); why != heldWindow {
		t.Fatalf("a sixth write: held for %q, want %q", why, heldWindow)
	}
}

// After a refusal, the process that holds less of the window comes back first, so that one the
// others crowded out gets its share.
func TestPacerLessHeldComesBackFirst(t *testing.T) {
	t0 := time.Now()
	crowded, holder := NewPacer(100, 10*time.Second), NewPacer(100, 10*time.Second)
	observe(crowded, refusal("10"), send(t, crowded, t0))
	var last held
	for range 81 {
		last = send(t, holder, t0)
	}
	observe(holder, refusal("10"), last)
	if crowded.share != minShare(100) {
		t.Fatalf("the crowded-out process's share %d, want the least share %d", crowded.share, minShare(100))
	}
	if d := holder.pauseUntil.Sub(crowded.pauseUntil); d < 300*time.Millisecond {
		t.Fatalf("the process holding 80 comes back %v after the one holding none, want at least 300ms", d)
	}
}

// An accepted probe sent before the last refusal says nothing of the window since.
func TestPacerStaleProbe(t *testing.T) {
	p := NewPacer(100, 10*time.Second)
	t0 := time.Now()
	for range 20 {
		observe(p, accepted, send(t, p, t0))
	}
	p.refused(t0, send(t, p, t0), 10*time.Second)
	at := t0.Add(11 * time.Second)
	var first held
	for i := range 20 {
		h := send(t, p, at)
		if i == 0 {
			first = h
		}
		observe(p, accepted, h)
	}
	probe := send(t, p, at)
	p.refused(at.Add(time.Millisecond), first, 10*time.Second) // the probe's answer comes after this refusal
	share := p.share
	observe(p, accepted, probe)
	if p.share != share || p.credit != 0 || p.probesOut != 0 {
		t.Fatalf("a stale probe: share %d → %d, credit %d, probes out %d; want the share kept, no credit, none out",
			share, p.share, p.credit, p.probesOut)
	}
}
