// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"sync"
)

// A plan that only creates sends nothing to the service: a wrong API key or base_url would be
// found by the apply. CheckAccess finds them at plan time for the price of at most one cheap read,
// and for none when the client's other requests (refreshes, data sources, dry runs) already had an
// answer: any 2xx proves the key and the address, so the check shares what the plan reads anyway.

// access follows what the client's requests proved about the key and the address.
type access struct {
	mu       sync.Mutex
	verified bool          // a request was answered 2xx
	inflight int           // requests sent and not yet answered
	settled  chan struct{} // closed when a request in flight ends, then replaced
	check    *accessCheck  // the check, once one was sent
}

type accessCheck struct {
	done chan struct{}
	err  error
}

func newAccess() *access { return &access{settled: make(chan struct{})} }

// begin notes a request sent.
func (a *access) begin() {
	a.mu.Lock()
	a.inflight++
	a.mu.Unlock()
}

// end notes a request answered (ok: with a 2xx).
func (a *access) end(ok bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.inflight--
	a.verified = a.verified || ok
	close(a.settled)
	a.settled = make(chan struct{})
}

// accessCheckRequest is the cheapest request every key may make: one gate of the first page.
var accessCheckRequest = request{method: http.MethodGet, path: "/gates", query: url.Values{"page": {"1"}, "limit": {"1"}},
	op: "reach the console API with", object: "the configured base_url and api_key"}

// CheckAccess reports whether the key and the address work: nil once any request of the client
// was answered 2xx. Requests in flight are waited for, since their answer may tell; otherwise one
// read is sent, and its outcome is the answer of every later call.
func (c *Client) CheckAccess(ctx context.Context) error {
	a := c.access
	for {
		a.mu.Lock()
		switch {
		case a.verified:
			a.mu.Unlock()
			return nil
		case a.check != nil:
			ch := a.check
			a.mu.Unlock()
			select {
			case <-ch.done:
				return ch.err
			case <-ctx.Done():
				return ctx.Err()
			}
		case a.inflight > 0:
			settled := a.settled
			a.mu.Unlock()
			select {
			case <-settled:
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		ch := &accessCheck{done: make(chan struct{})}
		a.check = ch
		a.mu.Unlock()
		ch.err = c.do(uncachedReads(ctx), accessCheckRequest, nil)
		if _, ok := errors.AsType[*DecodeError](ch.err); ok {
			ch.err = nil // answered 2xx: the key and the address work, whatever the body
		}
		if ctx.Err() != nil {
			// This caller's end, not the service's answer: a later caller checks again.
			a.mu.Lock()
			a.check = nil
			a.mu.Unlock()
		}
		close(ch.done)
		return ch.err
	}
}
