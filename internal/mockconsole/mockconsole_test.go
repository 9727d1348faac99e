// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

type client struct {
	t   *testing.T
	url string
	key string
}

func newClient(t *testing.T, cfg Config) (*Server, *client) {
	t.Helper()
	s, ts := NewTestServer(t, cfg)
	key := cfg.APIKey
	if key == "" {
		key = DefaultAPIKey
	}
	return s, &client{t: t, url: ts.URL + "/console/v1", key: key}
}

type result struct {
	Status int
	Header http.Header
	Raw    []byte
	Body   map[string]any
}

func (c *client) do(method, path string, body any) result {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, c.url+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if c.key != "" {
		req.Header.Set("SERVICE-API-KEY", c.key)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	res := result{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	_ = dec.Decode(&res.Body)
	return res
}

func (r result) data() map[string]any {
	m, _ := r.Body["data"].(map[string]any)
	return m
}

func (r result) list() []any {
	l, _ := r.Body["data"].([]any)
	return l
}

func (r result) pg() map[string]any {
	m, _ := r.Body["pagination"].(map[string]any)
	return m
}

func expect(t *testing.T, r result, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status = %d, want %d; body %s", r.Status, status, r.Raw)
	}
	if status >= 300 && status != http.StatusBadGateway {
		if r.Body["status"] != json.Number(fmt.Sprint(status)) {
			t.Fatalf("error body status = %v, want %d: %s", r.Body["status"], status, r.Raw)
		}
		if _, ok := r.Body["message"].(string); !ok {
			t.Fatalf("error body lacks message: %s", r.Raw)
		}
	}
}

func TestAuth(t *testing.T) {
	s, c := newClient(t, Config{APIKey: "secret-key"})
	c.key = ""
	r := c.do("GET", "/gates/new_checkout", nil)
	expect(t, r, 401)
	if r.Body["message"] != "Authentication failed: invalid or missing SERVICE-API-KEY" {
		t.Fatalf("message %v", r.Body["message"])
	}
	c.key = "wrong"
	r = c.do("GET", "/gates/new_checkout", nil)
	expect(t, r, 401)
	if strings.Contains(string(r.Raw), "secret-key") || strings.Contains(string(r.Raw), "wrong") {
		t.Fatal("key echoed")
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("content type %q", ct)
	}
	c.key = "secret-key"
	expect(t, c.do("GET", "/gates/new_checkout", nil), 200)
	if n := len(s.Requests()); n != 3 {
		t.Fatalf("logged %d requests", n)
	}
}

func TestRoutingErrors(t *testing.T) {
	_, c := newClient(t, Config{})
	expect(t, c.do("GET", "/nope", nil), 404)
	expect(t, c.do("GET", "/gates/new_checkout/rules/x", nil), 404)
	r := c.do("PUT", "/gates/new_checkout", nil)
	expect(t, r, 405)
	expect(t, c.do("GET", "/gates/new_checkout/rules", nil), 405)
	expect(t, c.do("PUT", "/users", nil), 405)
	expect(t, c.do("PUT", "/metrics/metric_source", nil), 405)
	expect(t, c.do("GET", "/users?page=0", nil), 400)
	expect(t, c.do("GET", "/users?limit=abc", nil), 400)
}

func TestLatencyAndCancel(t *testing.T) {
	s, c := newClient(t, Config{Latency: 30 * time.Millisecond})
	start := time.Now()
	expect(t, c.do("GET", "/gates/dark_mode", nil), 200)
	if time.Since(start) < 30*time.Millisecond {
		t.Fatal("latency not applied")
	}
	s.SetLatency(time.Hour)
	req := httptest.NewRequest("GET", "/console/v1/gates/dark_mode", nil)
	req.Header.Set("SERVICE-API-KEY", DefaultAPIKey)
	ctx, cancel := contextWithTimeout(20 * time.Millisecond)
	defer cancel()
	req = req.WithContext(ctx)
	done := make(chan struct{})
	go func() { s.ServeHTTP(httptest.NewRecorder(), req); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("cancel not honoured")
	}
	s.SetLatency(0)
}

func TestConcurrency(t *testing.T) {
	s, c := newClient(t, Config{PageSizeCap: 50})
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gate := fmt.Sprintf("gate_%03d", i+1)
			for j := range 10 {
				switch j % 5 {
				case 0:
					c.do("PATCH", "/gates/"+gate+"/rules", fmt.Sprintf(`{"rules":[{"name":"r%d","passPercentage":%d}]}`, j, j))
				case 1:
					c.do("GET", "/gates/"+gate, nil)
				case 2:
					c.do("GET", "/users?page=2", nil)
				case 3:
					c.do("POST", "/metrics/metric_source", validSource(fmt.Sprintf("src_%d_%d", i, j)))
				case 4:
					s.Gate(gate)
					s.Requests()
					s.CountRequests("", "/")
					s.SetFaults(Faults{})
				}
			}
		}()
	}
	wg.Wait()
	if n := len(s.MetricSourceNames()); n != 32 {
		t.Fatalf("sources %d", n)
	}
}

func contextWithTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}
