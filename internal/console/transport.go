// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"syscall"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// roundTripFresh sends r once more on a new connection when a pooled one turns out to have been
// closed by the service (or a load balancer before it) while it sat idle: the request met a closed
// connection, not the service, and the next pooled connection, idle as long, would most likely be
// closed too. net/http resends by itself only idempotent requests, and a retry through
// go-retryablehttp would take the next pooled connection and count against max_retries; after a
// long wait (the 15-minute write window) every attempt met a dead connection. Writes that must
// not be sent twice (noResend) never take a pooled connection (ownConnection). ctx is r's context
// bounded by the attempt's timeout: every step of the request takes it.
func (t *pacedTransport) roundTripFresh(ctx context.Context, r *http.Request) (*http.Response, error) {
	if noResend(ctx) && t.own != nil {
		return t.own.RoundTrip(r.WithContext(ctx))
	}
	var reused atomic.Bool
	trace := &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) { reused.Store(info.Reused) }}
	resp, err := t.next.RoundTrip(r.WithContext(httptrace.WithClientTrace(ctx, trace)))
	if err == nil || !reused.Load() || !closedUnder(err) || ctx.Err() != nil || noResend(ctx) {
		return resp, err
	}
	if r.Body != nil && r.Body != http.NoBody {
		if r.GetBody == nil {
			return resp, err
		}
		body, berr := r.GetBody()
		if berr != nil {
			return resp, err
		}
		r = r.Clone(ctx)
		r.Body = body
	}
	if ci, ok := t.next.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections() // idle as long as the one that failed: closed too, most likely
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		// Closed under the request as a rule before the service read it, but not surely: an answer
		// that then says "exists" may be the first attempt's work, which the caller reads back.
		markAmbiguous(ctx)
	}
	tflog.Debug(ctx, "a pooled connection was closed by the service; sending the request again on a new one",
		map[string]any{"method": r.Method, "path": r.URL.Path, "error": err.Error()})
	return t.next.RoundTrip(r.WithContext(ctx))
}

// ownConnection is a transport like next that dials a new connection for every request and closes
// it after the answer. A write that must not be sent twice (a create whose id the service chooses,
// a run's operation) is sent on it: a pooled connection may have been closed by the service while
// it sat idle, and a write that meets one cannot be told from a write whose answer was lost, so it
// would have to be read back and sent again (and, where the service drops idle connections often,
// again). A new connection costs a dial per such write, which are few. nil when next is not an
// *http.Transport.
func ownConnection(next http.RoundTripper) http.RoundTripper {
	t, ok := next.(*http.Transport)
	if !ok {
		return nil
	}
	own := t.Clone()
	own.DisableKeepAlives = true
	return own
}

// closedUnder reports whether err is a connection closed under a request before any answer.
func closedUnder(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed)
}
