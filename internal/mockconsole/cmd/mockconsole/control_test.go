// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

func call(t *testing.T, method, url, key string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("SERVICE-API-KEY", key)
	}
	if method == http.MethodPatch {
		req.Body = io.NopCloser(strings.NewReader(`{"rules":[]}`))
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

func TestControlEndpoints(t *testing.T) {
	srv := mockconsole.New(mockconsole.Config{EventRecords: 300, WriteLimit: 1})
	ts := httptest.NewServer(withControl(srv))
	defer ts.Close()
	api := ts.URL + "/console/v1"
	key := mockconsole.DefaultAPIKey

	call(t, "GET", api+"/gates/gate_001", key)
	call(t, "GET", api+"/gates/gate_002", key)
	call(t, "PATCH", api+"/gates/gate_001/rules", key)
	if st, _ := call(t, "PATCH", api+"/gates/gate_002/rules", key); st != http.StatusTooManyRequests {
		t.Fatalf("second write: %d, want 429", st)
	}
	call(t, "GET", api+"/events/checkout_completed", key)

	for q, want := range map[string]string{
		"":                                       "5",
		"?method=GET&prefix=/gates/":             "2",
		"?method=patch":                          "2",
		"?status=429":                            "1",
		"?method=PATCH&prefix=/gates&status=200": "1",
		"?prefix=/events/":                       "1",
	} {
		if st, got := call(t, "GET", ts.URL+"/_mock/count"+q, ""); st != 200 || got != want {
			t.Errorf("count%s = %d %q, want %q", q, st, got, want)
		}
	}

	st, body := call(t, "GET", ts.URL+"/_mock/stats", "")
	var s stats
	if err := json.Unmarshal([]byte(body), &s); st != 200 || err != nil {
		t.Fatalf("stats: %d %v %s", st, err, body)
	}
	if s.Total != 5 || s.ByStatus["429"] != 1 || s.ByMethod["GET"] != 3 || s.ByPath["/gates"].Total != 4 ||
		s.ByPath["/gates"].ByMethod["PATCH"] != 2 || s.ByPath["/events"].Total != 1 {
		t.Fatalf("stats: %s", body)
	}

	// Control requests are not API requests: no key, not logged, no latency.
	if st, _ := call(t, "POST", ts.URL+"/_mock/latency?d=300ms", ""); st != http.StatusNoContent {
		t.Fatalf("latency: %d", st)
	}
	if st, _ := call(t, "POST", ts.URL+"/_mock/latency?d=soon", ""); st != http.StatusBadRequest {
		t.Fatalf("bad latency: %d", st)
	}
	start := time.Now()
	call(t, "GET", api+"/gates/gate_003", key)
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Fatalf("latency not applied: %v", d)
	}
	if _, got := call(t, "GET", ts.URL+"/_mock/span?method=GET&prefix=/gates/gate_003", ""); !atLeast(got, 0.3) {
		t.Fatalf("span of the request with latency = %q s, want at least 0.300", got)
	}
	if _, got := call(t, "GET", ts.URL+"/_mock/span?prefix=/nothing", ""); got != "0.000" {
		t.Fatalf("span of no request = %q", got)
	}
	if st, _ := call(t, "POST", ts.URL+"/_mock/reset", ""); st != http.StatusNoContent {
		t.Fatalf("reset: %d", st)
	}
	if _, got := call(t, "GET", ts.URL+"/_mock/count", ""); got != "0" {
		t.Fatalf("count after reset = %s", got)
	}
	if _, got := call(t, "GET", ts.URL+"/_mock/span", ""); got != "0.000" {
		t.Fatalf("span after reset = %s", got)
	}

	want, _ := json.Marshal(srv.EventRecords("checkout_completed"))
	if _, got := call(t, "GET", ts.URL+"/_mock/events-json-bytes?name=checkout_completed", ""); got != strconv.Itoa(len(want)) {
		t.Fatalf("events-json-bytes = %s, want %d", got, len(want))
	}
	if _, got := call(t, "GET", ts.URL+"/_mock/events-json-bytes?name=nothing", ""); got != "2" {
		t.Fatalf("events-json-bytes of an unknown event = %s, want 2 ([])", got)
	}
	if _, got := call(t, "GET", ts.URL+"/_mock/count", ""); got != "0" {
		t.Fatalf("control requests were logged: %s", got)
	}
}

func atLeast(s string, floor float64) bool {
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && f >= floor
}

// The start message says which write limits are in force and how to lift them.
func TestLimitsNotice(t *testing.T) {
	for _, tc := range []struct {
		cfg  mockconsole.Config
		want string
	}{
		{mockconsole.Config{}.WithServiceLimits(), "write limits: 100 writes per 10s and 900 per 15m0s per project; " +
			"12 writes per 10s and 900 per 15m0s on the segment id endpoints (-no-write-limits lifts them)"},
		{mockconsole.Config{WriteLimit: 5, WriteWindow: time.Minute}, "write limits: 5 writes per 1m0s per project; " +
			"12 writes per 10s and 900 per 15m0s on the segment id endpoints (-no-write-limits lifts them)"},
		{mockconsole.Config{}.WithServiceLimits().WithoutWriteLimits(), "write limits: none (-service-write-limits enforces the service's)"},
	} {
		if got := limitsNotice(mockconsole.New(tc.cfg)); got != tc.want {
			t.Errorf("limitsNotice = %q\nwant %q", got, tc.want)
		}
	}
}

// The id-list lag of the benchmark: writes of a large list stay on their way until settled.
func TestControlIDListLag(t *testing.T) {
	srv := mockconsole.New(mockconsole.Config{NoSeed: true, NoIDListLimits: true})
	ts := httptest.NewServer(withControl(srv))
	defer ts.Close()
	ids := make([]string, 0, 1001)
	for i := range 1000 {
		ids = append(ids, "u_"+strconv.Itoa(i))
	}
	srv.PutSegment(mockconsole.Segment{ID: "big", Name: "big", Type: "id_list", IDs: append(ids, "u_extra")})
	if st, _ := call(t, "POST", ts.URL+"/_mock/id-list-lag?d=soon", ""); st != http.StatusBadRequest {
		t.Fatalf("bad lag: %d", st)
	}
	if st, _ := call(t, "POST", ts.URL+"/_mock/id-list-lag?d=1h", ""); st != http.StatusNoContent {
		t.Fatalf("lag: %d", st)
	}
	req, _ := http.NewRequest(http.MethodDelete, ts.URL+"/console/v1/segments/big/id_list", strings.NewReader(`{"ids":["u_extra"]}`))
	req.Header.Set("SERVICE-API-KEY", mockconsole.DefaultAPIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("write: %v %v", resp, err)
	}
	resp.Body.Close()
	if !srv.IDListUpdating("big") {
		t.Fatal("the write of a list over 1,000 ids took effect at once under a lag of an hour")
	}
	if st, _ := call(t, "POST", ts.URL+"/_mock/settle-id-lists", ""); st != http.StatusNoContent || srv.IDListUpdating("big") {
		t.Fatalf("settle: %d, still on its way: %v", st, srv.IDListUpdating("big"))
	}
}
