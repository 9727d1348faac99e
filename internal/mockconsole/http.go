// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// The request path every API call goes through: drop (habit DropIdle), latency, authentication,
// faults and the write limit, routing (routes.go), the live service's habits, the request log.
// Everything after the latency runs with s.mu held, so that each request sees and leaves a
// consistent store.

// response is an answer before it is written, so that faults and habits can still reshape it.
type response struct {
	status      int
	body        []byte
	contentType string
	header      http.Header
	// hangUp closes the connection instead of answering (the request was served).
	hangUp bool
	// holdAnswer, with hangUp, first waits for the client to give up (at most holdLimit).
	holdAnswer bool
}

// holdLimit bounds how long a held answer waits for its client to give up.
const holdLimit = time.Minute

type errorBody struct {
	Status  int    `json:"status"`
	Message string `json:"message"`
}

type envelope struct {
	Message string `json:"message"`
	Data    any    `json:"data"`
}

func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Should not happen: stored values are JSON-safe.
		b, _ := json.Marshal(errorBody{Status: 500, Message: "internal error: " + err.Error()})
		return b
	}
	return buf.Bytes()
}

func jsonResp(status int, v any) response {
	return response{status: status, body: marshal(v), contentType: "application/json"}
}

func errResp(status int, format string, args ...any) response {
	return jsonResp(status, errorBody{Status: status, Message: fmt.Sprintf(format, args...)})
}

func okResp(msg string, data any) response {
	return jsonResp(http.StatusOK, envelope{Message: msg, Data: data})
}

// messageResp is a success the document answers with a message alone, no data.
func messageResp(msg string) response {
	return jsonResp(http.StatusOK, struct {
		Message string `json:"message"`
	}{msg})
}

func isMutating(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes))
	if s.dropConnection(w, r) {
		return
	}

	s.mu.Lock()
	lat := s.latency
	s.mu.Unlock()
	if lat > 0 {
		t := time.NewTimer(lat)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			s.record(r, body, 499)
			return
		}
	}

	var resp response
	s.mu.Lock()
	if refusal, readOnly := s.readOnlyRefusal(r); readOnly {
		resp = s.decorate(r, refusal)
	} else if !s.acceptsKey(r.Header.Get(apiKeyHeader)) {
		resp = errResp(http.StatusUnauthorized, "Authentication failed: invalid or missing SERVICE-API-KEY")
		if s.habits.AuthAs403 {
			resp.status = http.StatusForbidden // the body still says 401
		}
		resp = s.decorate(r, resp)
	} else {
		// The document's check of the exchange (document.go) is the test's, not the request's: it
		// runs to its end even when the client has gone.
		resp = s.process(r, body) //nolint:contextcheck // see above
	}
	s.appendLog(r, body, resp.status)
	s.mu.Unlock()
	if resp.hangUp {
		if resp.holdAnswer {
			held := time.NewTimer(holdLimit)
			select {
			case <-r.Context().Done():
			case <-held.C:
			}
			held.Stop()
		}
		hangUp(w)
		return
	}

	h := w.Header()
	for k, v := range resp.header {
		h[k] = v
	}
	if resp.contentType != "" {
		h.Set("Content-Type", resp.contentType)
	}
	h.Set("Content-Length", strconv.Itoa(len(resp.body)))
	w.WriteHeader(resp.status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(resp.body)
	}
}

// process answers an authenticated request: faults first (faults.go), then the write limits
// (ratelimit.go), then the API itself; s.mu is held.
func (s *Server) process(r *http.Request, body []byte) response {
	mut := isMutating(r.Method)
	s.reqCounter++
	s.checkRequest(r, body)

	if resp, raw := s.rawBodyFault(r, body); raw {
		return resp
	}
	if resp, failed := s.failEveryFault(mut); failed {
		return resp
	}
	var limitHeaders http.Header
	if mut && len(s.writeTiers) > 0 {
		refusal, h := s.admitWrite(s.now())
		if refusal != nil {
			return *refusal
		}
		limitHeaders = h
	}
	served := s.serve(r, body)
	s.checkAnswer(r, served)
	resp := s.decorate(r, served)
	for k, v := range limitHeaders {
		if resp.header == nil {
			resp.header = http.Header{}
		}
		resp.header[k] = v
	}
	if mut {
		if lost, isLost := s.lostNextWrite(r, resp); isLost {
			return lost
		}
		if lost, isLost := s.lostWrite(); isLost {
			return lost
		}
	}
	return resp
}
