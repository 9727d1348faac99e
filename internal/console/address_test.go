// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// refusedURL is an address where nothing listens.
func refusedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr
}

// Failures where nothing was sent (no such host, nothing listening, a failed TLS handshake) are
// retried at most once, quickly, and a write that met them was not applied (issue 31, item 4).
func TestNeverSentFailsAtOnce(t *testing.T) {
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer tlsSrv.Close()
	plain := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer plain.Close()
	for name, base := range map[string]string{
		"refused":   refusedURL(t),
		"no_such":   "http://console.no-such-host.invalid",
		"tls":       tlsSrv.URL,                                            // its certificate is not trusted
		"tls_plain": "https://" + strings.TrimPrefix(plain.URL, "http://"), // https to a plain HTTP server
	} {
		t.Run(name, func(t *testing.T) {
			c, err := New(Config{BaseURL: base, APIKey: testKey, MaxRetries: 4, RetryWaitMin: 50 * time.Millisecond, RetryWaitMax: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, err = c.UpdateGateRules(context.Background(), "g", nil)
			took := time.Since(start)
			var te *TransportError
			if !errors.As(err, &te) {
				t.Fatalf("got %T %v", err, err)
			}
			if !te.NeverSent || te.Attempts > 2 || MaybeApplied(err) {
				t.Errorf("never sent %v, %d attempts, may have been applied %v: %v", te.NeverSent, te.Attempts, MaybeApplied(err), err)
			}
			if te.Tried() != "PATCH "+strings.TrimRight(base, "/")+"/console/v1/gates/g/rules" {
				t.Errorf("request named %q", te.Tried())
			}
			if took > 3*time.Second {
				t.Errorf("failed after %s", took)
			}
			noKey(t, "error", err.Error())
		})
	}
}

// A 404 of a collection is the API's root missing at base_url; a 404 of an object is not. Every
// API error names the request.
func TestRootNotFound(t *testing.T) {
	f := newFake(t, script(reply{Status: 404, Body: "Not Found", Header: map[string]string{"Content-Type": "text/plain"}}))
	c := f.client()
	_, err := c.CreateGate(context.Background(), GateFields{ID: "g"})
	var ae *APIError
	if !errors.As(err, &ae) || !ae.RootNotFound || ae.Tried() != "POST "+f.srv.URL+"/console/v1/gates" || ae.APIRoot() != f.srv.URL+"/console/v1" {
		t.Fatalf("create: %#v", err)
	}
	_, err = c.GetGate(context.Background(), "g")
	if !errors.As(err, &ae) || ae.RootNotFound || ae.Tried() != "GET "+f.srv.URL+"/console/v1/gates/g" {
		t.Fatalf("read: %#v", err)
	}
}

// A write whose first attempt went unanswered and whose retry met the API's root missing was not
// applied: nothing that writes is at that address.
func TestRootNotFoundAfterLostAttemptWasNotApplied(t *testing.T) {
	f := newFake(t, script(reply{Status: 502}, reply{Status: 404, Body: "Not Found"}))
	_, err := f.client().CreateGate(context.Background(), GateFields{ID: "g"})
	var ae *APIError
	if !errors.As(err, &ae) || !ae.RootNotFound || MaybeApplied(err) {
		t.Fatalf("got %#v, may have been applied: %v", err, MaybeApplied(err))
	}
}

// An error whose text holds the key is flattened to hide it, and still says that nothing was sent.
func TestNeverSentSurvivesRedaction(t *testing.T) {
	c, err := New(Config{BaseURL: refusedURL(t), APIKey: "connect", MaxRetries: 1, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.UpdateGateRules(context.Background(), "g", nil)
	var te *TransportError
	if !errors.As(err, &te) || !te.NeverSent || MaybeApplied(err) || strings.Contains(err.Error(), "connect:") {
		t.Fatalf("got %v (never sent: %v)", err, te != nil && te.NeverSent)
	}
}
