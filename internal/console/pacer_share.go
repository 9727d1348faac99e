// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"math/rand/v2"
	"slices"
	"time"
)

// Several processes writing to one project share its window, and none sees the others' writes. A
// 429 whose Retry-After says when the window frees tells a process two things: the window is full
// now, and the writes it holds in it are its share (the others hold the rest). So the pacer:
//   - drops the refused write's stamp (the service did not count it);
//   - keeps the process to that share (at least minShare, so that none starves) instead of cutting
//     its rate: as its own writes leave the window, the same number go at once;
//   - beyond the share, probes: one write, then two more for each probe accepted (TCP's slow
//     start), so the room others leave when they finish is taken within a few round trips, and a
//     window that is full costs one refused probe, which sets the share again;
//   - holds every writer until the window frees, plus a spread under a second (retryAfterSpread):
//     each process takes only its share then, so a longer spread would only idle the window; the
//     less a process holds, the sooner it comes back, so one the others crowded out gets its share;
//   - then lets one write go, and one more for each accepted (slow start again): the writes let go
//     at once would meet a window that frees over a second, one 429 each.
//
// A process that is never refused never has a share: alone, it paces to the whole limit.

// refused records a 429, answered at now, of the write h that said when the window frees
// (Retry-After).
func (p *Pacer) refused(now time.Time, h held, retryAfter time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range p.tiers {
		if i := slices.Index(t.sent, h.stamp); i >= 0 {
			t.sent = slices.Delete(t.sent, i, i+1)
		}
	}
	if h.probe {
		p.probesOut = max(p.probesOut-1, 0)
	}
	p.inflight = max(p.inflight-1, 0)
	p.ramp = 1
	until := now.Add(retryAfter)
	if len(p.tiers) > 0 {
		first := p.tiers[0]
		p.share = max(len(first.sent), minShare(first.N))
		p.credit = 0
		p.lastShare = now
		// The less a process holds in the window, the sooner it comes back when the window frees:
		// those who hold much take their share after those who hold little, so that a process the
		// others crowded out gets its share, and the shares converge on fair ones.
		until = until.Add(time.Duration(float64(len(first.sent)) / float64(first.N) * float64(min(retryAfter/20, 500*time.Millisecond))))
	}
	p.pauseLocked(until.Add(rand.N(20 * time.Millisecond)))
}

// answered records the answer to the write h other than a refusal with Retry-After. After a
// refusal, each accepted write lets one more be unanswered at once (the ramp doubles per round
// trip), so the writes a process lets go when the window frees do not all meet a window still full.
// An accepted probe widens the share by one and lets two more probes go; a share as wide as the
// limit is no share. A probe sent before the last refusal proves nothing about the window since.
func (p *Pacer) answered(h held, accepted bool) {
	if h.stamp.IsZero() {
		return // not counted by this pacer
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inflight = max(p.inflight-1, 0)
	wake := p.ramp > 0
	if accepted && p.ramp > 0 {
		if p.ramp++; len(p.tiers) == 0 || p.ramp >= p.tiers[0].N {
			p.ramp = 0
		}
	}
	if h.probe {
		p.probesOut = max(p.probesOut-1, 0)
		if accepted && p.share > 0 && !h.stamp.Before(p.lastShare) {
			p.share++
			if p.share >= p.tiers[0].N {
				p.share, p.credit = 0, 0
			} else {
				p.credit += 2
			}
			wake = true
		}
	}
	if wake {
		close(p.wake)
		p.wake = make(chan struct{})
	}
}

// minShare is the least share of the window a process keeps, so that none starves.
func minShare(n int) int { return max(1, n/10) }

// retryAfterSpread is the jitter on a Retry-After that says when the window frees: every process
// told the same second comes back within it, each taking only its share, so a spread of a fraction
// of a second is enough (defaultJitter's quarter of the wait would leave the window idle).
func retryAfterSpread(d time.Duration) time.Duration {
	return rand.N(min(d/20, 500*time.Millisecond) + 20*time.Millisecond)
}
