// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// testKey is long and distinctive so a leak into any text is easy to spot.
const testKey = "sk-test-SECRET-7f3a9c2e5b1d4086"

// seen is one request as it arrived on the wire.
type seen struct {
	Method string
	// Path is the escaped path exactly as sent (RequestURI without the query).
	Path   string
	Query  string
	Header http.Header
	Body   string
	At     time.Time
}

// reply is what the fake service answers.
type reply struct {
	Status int
	Body   string
	Header map[string]string
}

func ok(data string) reply { return reply{Status: 200, Body: `{"message":"ok","data":` + data + `}`} }

func apiErr(status int, msg string) reply {
	return reply{Status: status, Body: `{"status":` + strconv.Itoa(status) + `,"message":"` + msg + `"}`}
}

// fakeAPI is an httptest server that records every request and answers from a script.
type fakeAPI struct {
	t   *testing.T
	srv *httptest.Server

	mu      sync.Mutex
	reqs    []seen
	respond func(n int, r seen) reply
}

// newFake starts a server; respond gets the 0-based index of the request.
func newFake(t *testing.T, respond func(n int, r seen) reply) *fakeAPI {
	t.Helper()
	f := &fakeAPI{t: t, respond: respond}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// script answers the n-th request with replies[n], repeating the last one.
func script(replies ...reply) func(int, seen) reply {
	return func(n int, _ seen) reply { return replies[min(n, len(replies)-1)] }
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	path, query, _ := strings.Cut(r.RequestURI, "?")
	s := seen{Method: r.Method, Path: path, Query: query, Header: r.Header.Clone(), Body: string(body), At: time.Now()}
	f.mu.Lock()
	n := len(f.reqs)
	f.reqs = append(f.reqs, s)
	f.mu.Unlock()
	rep := f.respond(n, s)
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	if w.Header().Get("Content-Type") == "" && rep.Body != "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(rep.Status)
	_, _ = io.WriteString(w, rep.Body)
}

func (f *fakeAPI) requests() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seen(nil), f.reqs...)
}

func (f *fakeAPI) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

// client builds a Client for the fake with fast retries; opts adjust the config.
func (f *fakeAPI) client(opts ...func(*Config)) *Client {
	f.t.Helper()
	cfg := Config{
		BaseURL:      f.srv.URL,
		APIKey:       testKey,
		MaxRetries:   2,
		RetryWaitMin: time.Millisecond,
		RetryWaitMax: 5 * time.Millisecond,
		UserAgent:    "featureconsole-test/1.0",
	}
	for _, o := range opts {
		o(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		f.t.Fatalf("New: %v", err)
	}
	return c
}

// noKey fails the test when s contains the API key.
func noKey(t *testing.T, what, s string) {
	t.Helper()
	if strings.Contains(s, testKey) {
		t.Errorf("%s contains the API key: %s", what, s)
	}
}

// hasStatus reports whether err is an APIError with the given status.
func hasStatus(err error, status int) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.StatusCode == status
}
