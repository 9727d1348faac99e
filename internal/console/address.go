// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strings"
	"syscall"
)

// Call is the request a failed call made: its method and the address it tried, named in every
// error of a request so that a wrong base_url shows in the error instead of being guessed at.
type Call struct {
	Method string
	URL    string
	// BaseURL is the API root the client was configured with (ending in /console/v1).
	BaseURL string
}

// Tried is "PATCH https://console.example.com/console/v1/gates/x/rules" ("" when nothing was built).
func (c Call) Tried() string {
	if c.URL == "" {
		return ""
	}
	return c.Method + " " + c.URL
}

// APIRoot is the API root the request went to (base_url, normalised).
func (c Call) APIRoot() string { return c.BaseURL }

// call names r as errors show it: as the client sends it, less a key's secret (redactedPath).
func (c *Client) call(r request) Call {
	target := c.base.String() + r.redactedPath()
	if len(r.query) > 0 {
		target += "?" + r.query.Encode()
	}
	return Call{Method: r.method, URL: target, BaseURL: c.base.String()}
}

// target is the address r is sent to.
func (c *Client) target(r request) string {
	target := c.base.String() + r.path
	if len(r.query) > 0 {
		target += "?" + r.query.Encode()
	}
	return target
}

// neverSent reports whether err is a failure to open the connection at all: the name does not
// resolve, nothing listens, the TLS handshake fails. Nothing reached the service, so a write was
// not applied, and trying again at once rarely helps: base_url (or the network) is wrong.
func neverSent(err error) bool {
	var (
		dns   *net.DNSError
		op    *net.OpError
		rec   tls.RecordHeaderError
		alert tls.AlertError
		cert  *tls.CertificateVerificationError
		auth  x509.UnknownAuthorityError
		host  x509.HostnameError
	)
	switch {
	case errors.As(err, &dns), errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.EHOSTUNREACH),
		errors.Is(err, syscall.ENETUNREACH):
		return true
	case errors.As(err, &op) && op.Op == "dial":
		return true
	case errors.As(err, &rec), errors.As(err, &alert), errors.As(err, &cert), errors.As(err, &auth), errors.As(err, &host):
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "tls: ") && strings.Contains(msg, "handshake") ||
		strings.Contains(msg, "server gave HTTP response to HTTPS client")
}

// collectionPath reports whether path is a collection of the API (a list or a create), which
// exists whatever the project holds: its 404 says the API's root is not at base_url.
func collectionPath(path string) bool {
	p := strings.Trim(path, "/")
	return p != "" && (!strings.Contains(p, "/") || p == "metrics/metric_source" || p == "metrics/metric_source/list" || p == "metrics/list")
}
