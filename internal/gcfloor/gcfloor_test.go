// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package gcfloor

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 1500},              // before the first collection: 4 MiB × 16 = Floor
		{4 << 20, 1500},        // the same
		{8 << 20, 700},         // 8 MiB × 8 = Floor
		{16 << 20, 300},        // 16 MiB × 4 = Floor
		{Floor/2 - 1<<20, 106}, // just under: still a little above the default
		{Floor / 2, 100},       // from here on Go's default
		{1 << 30, 100},
	} {
		if got := Percent(c.live); got != c.want {
			t.Errorf("Percent(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}

// TestStartRetunes proves the floor holds after collections: the finalizer arms itself again.
func TestStartRetunes(t *testing.T) {
	t.Setenv("GOGC", "")
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	Start()
	for i := 0; i < 3; i++ {
		debug.SetGCPercent(100)
		deadline := time.Now().Add(5 * time.Second)
		for {
			runtime.GC() // the finalizer runs on its own goroutine after a collection
			time.Sleep(10 * time.Millisecond)
			if got := debug.SetGCPercent(100); got > 100 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("after collection %d the GC percent stays 100, want the floor's", i)
			}
		}
	}
}
