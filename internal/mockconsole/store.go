// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// The store is the Server's maps and lists, guarded by s.mu; each object's file holds its own
// accessors (Gate, PutGate, ...). Here: what they share, the request log and the ids the service
// makes up.

// locked runs f with s.mu held.
func (s *Server) locked(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f()
}

// stored returns a copy of one object, under the lock. The maps it reads are made once in New and
// never replaced, so reading the map itself before locking is safe.
func stored[V, T any](s *Server, m map[string]V, id string, clone func(V) T) (T, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := m[id]
	if !ok {
		var zero T
		return zero, false
	}
	return clone(v), true
}

// remove deletes one object, under the lock (see stored).
func remove[V any](s *Server, m map[string]V, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(m, id)
}

// find looks up the object a path names; a missing one is the service's 404, naming its kind
// ("Gate"); s.mu is held.
func find[V any](m map[string]V, kind, id string) (V, *response) {
	v, ok := m[id]
	if !ok {
		e := errResp(http.StatusNotFound, "%s %q not found", kind, id)
		return v, &e
	}
	return v, nil
}

// readOne answers the read endpoint of the object a path names.
func readOne[V, T any](m map[string]V, kind, id string, clone func(V) T) response {
	v, miss := find(m, kind, id)
	if miss != nil {
		return *miss
	}
	return okResp(kind+" read successfully", clone(v))
}

// sortedKeys lists a map's keys in order, under the lock (see stored).
func sortedKeys[V any](s *Server, m map[string]V) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(maps.Keys(m))
}

// ---- request log ----

func (s *Server) record(r *http.Request, body []byte, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.appendLog(r, body, status)
}

func (s *Server) appendLog(r *http.Request, body []byte, status int) {
	s.log = append(s.log, Request{
		Method:   r.Method,
		Path:     r.URL.Path,
		RawQuery: r.URL.RawQuery,
		Status:   status,
		Header:   r.Header.Clone(),
		Body:     append([]byte(nil), body...),
	})
}

// Requests returns a copy of the request log, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.log))
	for i, r := range s.log {
		r.Header = r.Header.Clone()
		r.Body = append([]byte(nil), r.Body...)
		out[i] = r
	}
	return out
}

// ResetRequests clears the request log.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = nil
}

// CountRequests counts logged requests with the method ("" = any) whose path,
// relative to /console/v1, starts with pathPrefix (e.g. "/gates/").
func (s *Server) CountRequests(method, pathPrefix string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.log {
		if method != "" && !strings.EqualFold(r.Method, method) {
			continue
		}
		if strings.HasPrefix(strings.TrimPrefix(r.Path, basePath), pathPrefix) {
			n++
		}
	}
	return n
}

// ---- ids ----

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

func (s *Server) newBaseID() string {
	for {
		b := make([]byte, 22)
		for i := range b {
			b[i] = alnum[s.rng.IntN(len(alnum))]
		}
		id := string(b)
		if !s.usedBaseIDs[id] {
			s.usedBaseIDs[id] = true
			return id
		}
	}
}

func (s *Server) newLocalID(prefix string, used map[string]bool) string {
	for {
		s.idCounter++
		id := prefix + strconv.Itoa(s.idCounter)
		if !used[id] {
			used[id] = true
			return id
		}
	}
}
