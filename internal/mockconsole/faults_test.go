// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// LoseNextWrite loses exactly the write it names, once, and only a write the service takes: other
// writes, a refused one and the write after it are answered as usual.
func TestLoseNextWrite(t *testing.T) {
	s, c := newClient(t, Config{})
	s.LoseNextWrite("POST", "/metrics/metric_source")

	// Another method and another path are not the one asked for.
	expect(t, c.do("PATCH", "/gates/dark_mode", map[string]any{"description": "other path"}), 200)
	// Refused by the service (no sql): answered as usual, and the switch stays set.
	expect(t, c.do("POST", "/metrics/metric_source", map[string]any{"name": "refused"}), 400)

	r := c.do("POST", "/metrics/metric_source", validSource("lost"))
	if r.Status != 502 || !strings.Contains(string(r.Raw), "<html>") {
		t.Fatalf("lost write answered %d %s", r.Status, r.Raw)
	}
	if _, ok := s.MetricSource("lost"); !ok {
		t.Fatal("the lost write was not committed")
	}
	// Once: the next create is answered.
	expect(t, c.do("POST", "/metrics/metric_source", validSource("answered")), 200)

	// SetFaults drops a switch not yet spent.
	s.LoseNextWrite("POST", "/metrics/metric_source")
	s.SetFaults(Faults{})
	expect(t, c.do("POST", "/metrics/metric_source", validSource("after_reset")), 200)
}

// The switch is set and spent under the server's mutex: writes racing with it lose one answer.
func TestLoseNextWriteConcurrent(t *testing.T) {
	s, c := newClient(t, Config{})
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		statuses = map[int]int{}
	)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 0 {
				s.LoseNextWrite("PATCH", "/gates/dark_mode")
			}
			st := c.do("PATCH", "/gates/dark_mode", map[string]any{"description": "racing"}).Status
			mu.Lock()
			statuses[st]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if statuses[502] != 1 || statuses[200] != 7 {
		t.Fatalf("statuses %v: want one lost answer among 8 writes", statuses)
	}
}

// LoseNextWriteAs loses a committed write's answer as a closed connection, as a 2xx whose body is
// cut short, or as no answer until the client gives up.
func TestLoseNextWriteAs(t *testing.T) {
	s, c := newClient(t, Config{})
	s.LoseNextWriteAs("POST", "/gates", LostAsEOF)
	req, _ := http.NewRequest("POST", c.url+"/gates", strings.NewReader(`{"id":"lost_eof"}`))
	req.Header.Set("SERVICE-API-KEY", c.key)
	if resp, err := (&http.Transport{}).RoundTrip(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the lost write was answered %d", resp.StatusCode)
	}
	if _, ok := s.Gate("lost_eof"); !ok {
		t.Fatal("the write lost as EOF was not committed")
	}

	s.LoseNextWriteAs("POST", "/gates", LostAsGarbled)
	st, _, body := raw(t, c, "POST", "/gates", `{"id":"lost_garbled"}`)
	if st/100 != 2 || json.Valid([]byte(body)) {
		t.Fatalf("the garbled answer is %d %s", st, body)
	}
	if _, ok := s.Gate("lost_garbled"); !ok {
		t.Fatal("the write lost as garbled was not committed")
	}

	s.LoseNextWriteAs("POST", "/gates", LostAsTimeout)
	req, _ = http.NewRequest("POST", c.url+"/gates", strings.NewReader(`{"id":"lost_timeout"}`))
	req.Header.Set("SERVICE-API-KEY", c.key)
	start := time.Now()
	if resp, err := (&http.Client{Timeout: 200 * time.Millisecond}).Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the write lost to a timeout was answered %d", resp.StatusCode)
	}
	if waited := time.Since(start); waited < 200*time.Millisecond || waited > 10*time.Second {
		t.Errorf("the client gave up after %v, want its own time limit", waited)
	}
	if _, ok := s.Gate("lost_timeout"); !ok {
		t.Fatal("the write lost to a timeout was not committed")
	}
}
