// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"fmt"
	"testing"
	"time"
)

func TestWriteRateLimit(t *testing.T) {
	s, c := newClient(t, Config{WriteLimit: 3, WriteWindow: 2500 * time.Millisecond})
	for range 3 {
		expect(t, c.do("PATCH", "/gates/dark_mode/rules", `{"rules":[]}`), 200)
	}
	// reads are not limited
	expect(t, c.do("GET", "/gates/dark_mode", nil), 200)
	r := c.do("PATCH", "/gates/dark_mode/rules", `{"rules":[]}`)
	expect(t, r, 429)
	if ra := r.Header.Get("Retry-After"); ra != "3" && ra != "2" {
		t.Fatalf("Retry-After %q", ra)
	}
	// advance the clock
	s.mu.Lock()
	s.now = func() time.Time { return time.Now().Add(3 * time.Second) }
	s.mu.Unlock()
	expect(t, c.do("PATCH", "/gates/dark_mode/rules", `{"rules":[]}`), 200)
}

// make mock's limits are the service's: the 101st write within 10 s is refused; without limits,
// neither the project's nor the id endpoints' own refuse anything.
func TestServiceWriteLimits(t *testing.T) {
	_, c := newClient(t, Config{}.WithServiceLimits())
	for range ServiceWriteLimit {
		expect(t, c.do("PATCH", "/gates/dark_mode/rules", `{"rules":[]}`), 200)
	}
	expect(t, c.do("PATCH", "/gates/dark_mode/rules", `{"rules":[]}`), 429)

	_, c = newClient(t, Config{}.WithServiceLimits())
	for i := range DefaultIDListLimit.N + 1 {
		want := 200
		if i == DefaultIDListLimit.N {
			want = 429
		}
		expect(t, c.do("PATCH", "/segments/segment_01/id_list", fmt.Sprintf(`{"ids":["u_%d"]}`, i)), want)
	}

	_, c = newClient(t, Config{}.WithServiceLimits().WithoutWriteLimits())
	for i := range ServiceWriteLimit + DefaultIDListLimit.N + 1 {
		expect(t, c.do("PATCH", "/segments/segment_01/id_list", fmt.Sprintf(`{"ids":["u_%d"]}`, i)), 200)
	}
}
