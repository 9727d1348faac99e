// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"net/http"
)

// Faults injects failures.
type Faults struct {
	FailEvery      int    // every Nth request (global counter over all requests) fails instead of being served
	ReadStatus     int    // status for a failed GET (default 503)
	WriteStatus    int    // status for a failed write (default 429)
	RetryAfter     string // Retry-After header on 429 fault responses ("" → "0")
	LoseWriteEvery int    // every Nth mutating request (separate counter) is committed, but answered 502 with an HTML body
	RawBody        string // if non-empty, every response is replaced by this raw body with RawStatus (default 200)
	RawStatus      int
}

// SetFaults replaces the fault configuration and resets the fault counters; it also drops the
// writes LoseNextWrite still waits for.
func (s *Server) SetFaults(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = f
	s.reqCounter = 0
	s.writeCount = 0
	s.loseNext = nil
}

// LoseNextWrite loses the answer of the next write of method to path (under /console/v1, e.g.
// "/gates") that the service takes: it is committed, then answered as lostWrite answers, once.
// A write refused before or by the service (a fault, the write limit, a 4xx) is answered as usual
// and leaves the switch set, so that the test's write is the one lost, whatever came before it.
func (s *Server) LoseNextWrite(method, path string) { s.LoseNextWriteAs(method, path, LostAs502) }

// Loss is how LoseNextWriteAs loses a committed write's answer.
type Loss int

const (
	// LostAs502 answers with a proxy's 502 page.
	LostAs502 Loss = iota
	// LostAsEOF closes the connection without any answer, as a reset or a proxy's timeout does.
	LostAsEOF
	// LostAsGarbled answers with the write's own 2xx status and a body cut short: a success that
	// cannot be decoded.
	LostAsGarbled
	// LostAsTimeout holds the answer until the client gives up waiting (its time limit for one
	// attempt), then closes the connection: a write committed while its client timed out.
	LostAsTimeout
)

// LoseNextWriteAs is LoseNextWrite with the answer lost as how says.
func (s *Server) LoseNextWriteAs(method, path string, how Loss) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.loseNext = append(s.loseNext, lostAnswer{key: method + " " + basePath + path, how: how})
}

// lostAnswer is a write LoseNextWriteAs waits for.
type lostAnswer struct {
	key string
	how Loss
}

// lostNextWrite answers a write LoseNextWrite waits for, committed as resp, as lost and clears its
// switch; s.mu is held.
func (s *Server) lostNextWrite(r *http.Request, resp response) (response, bool) {
	if resp.status >= 300 {
		return response{}, false
	}
	key := r.Method + " " + r.URL.Path
	for i, l := range s.loseNext {
		if l.key != key {
			continue
		}
		s.loseNext = append(s.loseNext[:i], s.loseNext[i+1:]...)
		switch l.how {
		case LostAsEOF:
			return response{status: resp.status, hangUp: true}, true
		case LostAsTimeout:
			return response{status: resp.status, hangUp: true, holdAnswer: true}, true
		case LostAsGarbled:
			resp.body = resp.body[:len(resp.body)/2]
			return resp, true
		}
		return badGateway(), true
	}
	return response{}, false
}

// rawBodyFault serves the request (a write is committed) but replaces its answer with
// Faults.RawBody; s.mu is held.
func (s *Server) rawBodyFault(r *http.Request, body []byte) (response, bool) {
	f := s.faults
	if f.RawBody == "" {
		return response{}, false
	}
	s.serve(r, body)
	st := f.RawStatus
	if st == 0 {
		st = http.StatusOK
	}
	return response{status: st, body: []byte(f.RawBody), contentType: "application/json"}, true
}

// failEveryFault fails every FailEvery-th request unserved; s.mu is held and reqCounter counts
// this request already.
func (s *Server) failEveryFault(mut bool) (response, bool) {
	f := s.faults
	if f.FailEvery <= 0 || s.reqCounter%f.FailEvery != 0 {
		return response{}, false
	}
	st := f.ReadStatus
	if st == 0 {
		st = http.StatusServiceUnavailable
	}
	if mut {
		st = f.WriteStatus
		if st == 0 {
			st = http.StatusTooManyRequests
		}
	}
	resp := errResp(st, "injected fault: %s", http.StatusText(st))
	if st == http.StatusTooManyRequests {
		ra := f.RetryAfter
		if ra == "" {
			ra = "0"
		}
		resp.header = http.Header{"Retry-After": {ra}}
	}
	return resp, true
}

// lostWrite answers every LoseWriteEvery-th write, already committed, with a proxy's 502 page, as
// when the answer is lost on the way back; s.mu is held.
func (s *Server) lostWrite() (response, bool) {
	if s.faults.LoseWriteEvery <= 0 {
		return response{}, false
	}
	s.writeCount++
	if s.writeCount%s.faults.LoseWriteEvery != 0 {
		return response{}, false
	}
	return badGateway(), true
}

// badGateway is a proxy's 502 page, as when a write's answer is lost on the way back.
func badGateway() response {
	return response{
		status:      http.StatusBadGateway,
		body:        []byte("<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n"),
		contentType: "text/html",
	}
}
