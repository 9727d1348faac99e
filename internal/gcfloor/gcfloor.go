// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

// Package gcfloor keeps the garbage collector from running while the provider's heap is small.
//
// A plan sends the provider three RPCs per resource, and the framework allocates a few hundred
// kilobytes for each while holding almost nothing between them: with Go's default (GOGC=100, the
// next collection when the heap doubles) the live heap of a few megabytes made a plan of 300
// resources collect about fifty times, and the collector took a third of the provider's CPU.
// Start gives the heap a floor instead: while less than Floor/2 is live, the next collection comes
// when the heap reaches Floor; above that, Go's default applies unchanged, so a large read (a long
// event history, a segment of many ids) peaks at the same memory as before.
package gcfloor

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// Floor is the heap size under which no collection is started. The provider process peaks at
// about this much for a plan of a hundred resources anyway (the gRPC buffers, the schemas, the
// binary's own pages).
const Floor = 64 << 20

// Start sets the floor and keeps it after every collection. It does nothing when GOGC is set:
// the user's choice wins.
func Start() {
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(Percent(0))
	runtime.SetFinalizer(&sentinel{}, retune)
}

// sentinel is unreachable from its allocation on: its finalizer runs after each collection and
// arms itself again for the next one.
type sentinel struct{ _ *int }

func retune(s *sentinel) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	live := uint64(0)
	if sample[0].Value.Kind() == metrics.KindUint64 {
		live = sample[0].Value.Uint64()
	}
	debug.SetGCPercent(Percent(live))
	runtime.SetFinalizer(s, retune)
}

// Percent is the GOGC that puts the next collection at Floor for a live heap of live bytes, and
// Go's default of 100 once twice the live heap is beyond Floor. Before the first collection
// (live 0) the runtime's own minimum of 4 MiB stands for the live heap.
func Percent(live uint64) int {
	const minHeap = 4 << 20 // the runtime's heap minimum at GOGC=100
	if live < minHeap {
		live = minHeap
	}
	if 2*live >= Floor {
		return 100
	}
	return int(Floor*100/live) - 100
}
