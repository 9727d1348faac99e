// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"testing"
	"time"
)

// A second has room when the window could take a write at its end, and is idle when no write
// arrived in it either.
func TestTimelineIdle(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	for _, c := range []struct {
		name             string
		limit            int
		window           time.Duration
		writes           []timed
		idle, room, span int
	}{
		{"room left after the first second", 2, 2 * time.Second, []timed{
			{method: "PATCH", path: "/gates/a", status: 200, start: at(0)},
			{method: "PATCH", path: "/gates/b", status: 200, start: at(100)},
			{method: "PATCH", path: "/gates/c", status: 429, start: at(200)},
			{method: "GET", path: "/gates/c", status: 200, start: at(3000)},
			{method: "PATCH", path: "/gates/c", status: 200, start: at(5500)},
		}, 4, 4, 5},
		{"a full window is not idle", 1, 3 * time.Second, []timed{
			{method: "PATCH", path: "/gates/a", status: 200, start: at(0)},
			{method: "PATCH", path: "/gates/b", status: 429, start: at(500)},
			{method: "PATCH", path: "/gates/b", status: 200, start: at(3200)},
		}, 1, 1, 3},
		{"refused writes hold no room", 1, 3 * time.Second, []timed{
			{method: "PATCH", path: "/gates/a", status: 429, start: at(0)},
			{method: "PATCH", path: "/gates/b", status: 200, start: at(2100)},
		}, 1, 2, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			var tl timeline
			// Answers are logged as they come, not in order of arrival.
			for i := len(c.writes) - 1; i >= 0; i-- {
				tl.add(c.writes[i])
			}
			idle, room, span := tl.idle("PATCH", "/gates/", c.limit, c.window)
			if idle != c.idle || room != c.room || span != c.span {
				t.Errorf("idle %d, room %d of %d s; want %d, %d of %d", idle, room, span, c.idle, c.room, c.span)
			}
		})
	}
}
