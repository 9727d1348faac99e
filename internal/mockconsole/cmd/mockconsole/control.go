// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// controlPrefix serves the benchmark's control endpoints beside the API, without authentication:
// the command only ever listens on loopback. Control requests are not logged as API requests.
const controlPrefix = "/_mock/"

// withControl routes /_mock/ to the control endpoints and everything else to the mock API:
//
//	GET  /_mock/stats                        request log summary (JSON)
//	GET  /_mock/count?method=&prefix=&status= number of logged requests matching all given filters
//	GET  /_mock/idle?method=&prefix=&limit=&window=  seconds a write limit was idle, had room, and
//	                                         all the seconds counted (timeline.go)
//	GET  /_mock/span?method=&prefix=          seconds from the arrival of the first matching request to
//	                                         the answer of the last (0 when none)
//	POST /_mock/reset                        clears the request log
//	POST /_mock/latency?d=10ms               latency added to every API request
//	GET  /_mock/events-json-bytes?name=      size of json.Marshal of every record of the event
//	POST /_mock/runs, /_mock/run-clock, /_mock/run-speed: release pipeline runs (control_runs.go)
//	POST /_mock/gates/{id}/stale, /_mock/gates/{id}/archive, /_mock/gates/{id}/runless: a gate judged
//	                                         stale, archived in the console, whose rule writes start no
//	                                         run (control_gates.go)
//	POST /_mock/seed-gates?n=1000            replaces every gate with n gates (onboard_0001..), each with
//	                                         one or two rules, as a project made in the console
//	POST /_mock/id-list-lag?d=1h             writes of id lists over 1,000 ids take effect d after they are
//	                                         answered (0: at once)
//	POST /_mock/settle-id-lists              every id-list write on its way takes effect now
func withControl(srv *mockconsole.Server) http.Handler {
	var tl timeline
	mux := http.NewServeMux()
	mux.HandleFunc("GET /_mock/span", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		fmt.Fprintf(w, "%.3f\n", tl.span(q.Get("method"), q.Get("prefix")).Seconds())
	})
	mux.HandleFunc("GET /_mock/idle", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		limit, err := strconv.Atoi(q.Get("limit"))
		window, werr := time.ParseDuration(q.Get("window"))
		if err != nil || werr != nil || limit <= 0 || window <= 0 {
			http.Error(w, "limit must be a positive number and window a positive Go duration such as 10s", http.StatusBadRequest)
			return
		}
		idle, room, span := tl.idle(q.Get("method"), q.Get("prefix"), limit, window)
		fmt.Fprintf(w, "%d %d %d\n", idle, room, span)
	})
	mux.HandleFunc("GET /_mock/stats", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, summarize(srv.Requests()))
	})
	mux.HandleFunc("GET /_mock/count", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		status := 0
		if s := q.Get("status"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil {
				http.Error(w, "status must be a number", http.StatusBadRequest)
				return
			}
			status = n
		}
		n := 0
		for _, req := range srv.Requests() {
			if matches(req, q.Get("method"), q.Get("prefix"), status) {
				n++
			}
		}
		fmt.Fprintln(w, n)
	})
	mux.HandleFunc("POST /_mock/reset", func(w http.ResponseWriter, _ *http.Request) {
		srv.ResetRequests()
		tl.reset()
		w.WriteHeader(http.StatusNoContent)
	})
	setting(mux, "/_mock/latency", "d", "a non-negative Go duration such as 10ms", time.ParseDuration, srv.SetLatency)
	registerRunControls(mux, srv)
	registerGateControls(mux, srv)
	mux.HandleFunc("GET /_mock/events-json-bytes", func(w http.ResponseWriter, r *http.Request) {
		b, err := json.Marshal(srv.EventRecords(r.URL.Query().Get("name")))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprintln(w, len(b))
	})
	setting(mux, "/_mock/seed-gates", "n", "a non-negative number", strconv.Atoi, func(n int) { seedGates(srv, n) })
	setting(mux, "/_mock/id-list-lag", "d", "a non-negative Go duration such as 1h", time.ParseDuration, srv.SetIDListLag)
	mux.HandleFunc("POST /_mock/settle-id-lists", func(w http.ResponseWriter, _ *http.Request) {
		srv.SettleIDLists()
		w.WriteHeader(http.StatusNoContent)
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, controlPrefix) {
			mux.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		srv.ServeHTTP(sw, r)
		tl.add(timed{method: r.Method, path: strings.TrimPrefix(r.URL.Path, "/console/v1"), status: sw.status, start: start, end: time.Now()})
	})
}

// setting adds a control endpoint POST path?param=value that applies one non-negative value and
// answers 204; a value parse refuses, or a negative one, is a 400 that says what it must be.
func setting[T int | float64 | time.Duration](mux *http.ServeMux, path, param, must string, parse func(string) (T, error), apply func(T)) {
	mux.HandleFunc("POST "+path, func(w http.ResponseWriter, r *http.Request) {
		v, err := parse(r.URL.Query().Get(param))
		if err != nil || v < 0 {
			http.Error(w, param+" must be "+must, http.StatusBadRequest)
			return
		}
		apply(v)
		w.WriteHeader(http.StatusNoContent)
	})
}

// apiPath is a logged path relative to /console/v1.
func apiPath(req mockconsole.Request) string {
	return strings.TrimPrefix(req.Path, "/console/v1")
}

// matches applies the filters of /_mock/count; empty method or prefix and zero status match anything.
func matches(req mockconsole.Request, method, prefix string, status int) bool {
	return (method == "" || strings.EqualFold(req.Method, method)) &&
		strings.HasPrefix(apiPath(req), prefix) &&
		(status == 0 || req.Status == status)
}

type counts struct {
	Total    int            `json:"total"`
	ByStatus map[string]int `json:"by_status"`
	ByMethod map[string]int `json:"by_method"`
}

type stats struct {
	counts
	// ByPath groups requests by the first segment of their path under /console/v1, such as "/gates".
	ByPath map[string]*counts `json:"by_path"`
}

func newCounts() counts {
	return counts{ByStatus: map[string]int{}, ByMethod: map[string]int{}}
}

func (c *counts) add(req mockconsole.Request) {
	c.Total++
	c.ByStatus[strconv.Itoa(req.Status)]++
	c.ByMethod[req.Method]++
}

func summarize(reqs []mockconsole.Request) stats {
	s := stats{counts: newCounts(), ByPath: map[string]*counts{}}
	for _, req := range reqs {
		s.add(req)
		p := apiPath(req)
		if i := strings.IndexByte(strings.TrimPrefix(p, "/"), '/'); i >= 0 {
			p = p[:i+1]
		}
		pc := s.ByPath[p]
		if pc == nil {
			c := newCounts()
			pc = &c
			s.ByPath[p] = pc
		}
		pc.add(req)
	}
	return s
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}
