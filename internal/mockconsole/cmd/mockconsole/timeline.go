// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bufio"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// timed is when one API request arrived, when it was answered, and how.
type timed struct {
	method, path string
	status       int
	start, end   time.Time
}

// statusWriter remembers the status an API request was answered with.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

// Hijack keeps the habits that close a connection under a request working (http.Hijacker).
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// timeline keeps the times of the API requests since the last reset (the mock's own log has none).
type timeline struct {
	mu   sync.Mutex
	reqs []timed
}

func (tl *timeline) add(t timed) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	tl.reqs = append(tl.reqs, t)
}

func (tl *timeline) reset() {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	tl.reqs = nil
}

// matching answers the requests that match method (any when empty) and the path prefix, in order
// of arrival.
func (tl *timeline) matching(method, prefix string) []timed {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	var out []timed
	for _, t := range tl.reqs {
		if (method == "" || strings.EqualFold(t.method, method)) && strings.HasPrefix(t.path, prefix) {
			out = append(out, t)
		}
	}
	return out
}

func (tl *timeline) span(method, prefix string) time.Duration {
	var first, last time.Time
	for _, t := range tl.matching(method, prefix) {
		if first.IsZero() || t.start.Before(first) {
			first = t.start
		}
		if t.end.After(last) {
			last = t.end
		}
	}
	return last.Sub(first)
}

// idle counts the seconds, from the first matching request's arrival to the last's, in which no
// matching request arrived although the project's window (limit accepted writes in any window)
// could have taken one: the time several applies sharing the limit leave unused. A second in which
// none arrives only loses writes, so the window holds the fewest at its end: the second is idle when
// the window then holds fewer than limit. room counts the seconds at whose end the window had room,
// writes or not (a pacer that spaces its writes leaves room without leaving a second empty); span is
// the number of whole seconds counted.
func (tl *timeline) idle(method, prefix string, limit int, window time.Duration) (idle, room, span int) {
	reqs := tl.matching(method, prefix)
	if len(reqs) == 0 {
		return 0, 0, 0
	}
	// Arrivals keep their order (the log is appended as answers come, not as requests arrive).
	arrived := make([]time.Time, len(reqs))
	var accepted []time.Time
	for i, t := range reqs {
		arrived[i] = t.start
		if t.status >= 200 && t.status <= 299 {
			accepted = append(accepted, t.start)
		}
	}
	sortTimes(arrived)
	sortTimes(accepted)
	first, last := arrived[0], arrived[len(arrived)-1]
	span = int(last.Sub(first) / time.Second)
	a := 0
	for s := range span {
		from, to := first.Add(time.Duration(s)*time.Second), first.Add(time.Duration(s+1)*time.Second)
		for a < len(arrived) && arrived[a].Before(from) {
			a++
		}
		held := 0
		for _, at := range accepted {
			if at.After(to.Add(-window)) && !at.After(to) {
				held++
			}
		}
		if held < limit {
			room++
			if a == len(arrived) || !arrived[a].Before(to) {
				idle++ // and no write arrived in this second
			}
		}
	}
	return idle, room, span
}

func sortTimes(ts []time.Time) {
	slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
}
