// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RateLimitError is a request whose context ran out while the service kept answering 429: the
// project's write limit, shared by every client of the project, stayed exhausted.
type RateLimitError struct {
	Op, Object string
	// Limited is how long the service refused this request, from its first 429 to the end.
	Limited time.Duration
	// Refusals counts the attempts answered 429.
	Refusals int
	// MaybeCommitted is true when an earlier attempt's fate is unknown (a 5xx or a lost answer).
	MaybeCommitted bool
	Err            error
}

func (e *RateLimitError) Error() string { return unable(e.Op, e.Object) + ": " + e.Reason() }

// Reason says how long and how often the service refused the request.
func (e *RateLimitError) Reason() string {
	return fmt.Sprintf("the project's write limit was exhausted for %s: 429 Too Many Requests to %d attempt(s), until the time allowed ran out",
		e.Limited.Round(10*time.Millisecond), e.Refusals)
}

func (e *RateLimitError) Unwrap() error { return e.Err }

// CancelledError is a request whose context ended before it got an answer it could return.
type CancelledError struct {
	Op, Object string
	// MaybeCommitted is true when an attempt of a write was sent and its outcome is unknown;
	// a write that never left the pacer is never "may have been applied".
	MaybeCommitted bool
	Err            error
}

func (e *CancelledError) Error() string { return unable(e.Op, e.Object) + ": " + e.Reason() }

// Reason is the context's own account.
func (e *CancelledError) Reason() string { return "cancelled: " + e.Err.Error() }

func (e *CancelledError) Unwrap() error { return e.Err }

// MaybeApplied reports whether a failed write may nonetheless have been applied by the service.
// Errors this package does not know are assumed to be ambiguous.
func MaybeApplied(err error) bool {
	var (
		ae *APIError
		re *RateLimitError
		ce *CancelledError
		te *TransportError
	)
	switch {
	case err == nil:
		return false
	case errors.As(err, &re):
		return re.MaybeCommitted
	case errors.As(err, &ce):
		return ce.MaybeCommitted
	case errors.As(err, &ae):
		return ae.MaybeCommitted
	case errors.As(err, &te):
		return true
	}
	return true
}

// rateLimitHeaders reads the remaining writes and the time to the reset from the IETF draft's
// RateLimit-Remaining/RateLimit-Reset or the common X-RateLimit-Remaining/X-RateLimit-Reset. A
// reset larger than a year of seconds is a Unix time, as some services send.
func rateLimitHeaders(h http.Header) (remaining int, reset time.Duration, ok bool) {
	for _, prefix := range []string{"RateLimit-", "X-RateLimit-"} {
		rs := strings.TrimSpace(h.Get(prefix + "Remaining"))
		if rs == "" {
			continue
		}
		rem, err := strconv.Atoi(rs)
		if err != nil || rem < 0 {
			continue
		}
		v := strings.TrimSpace(h.Get(prefix + "Reset"))
		secs, err := strconv.ParseFloat(v, 64)
		if err != nil || !(secs >= 0) || secs > 1e11 { // NaN, negative, or past any date: no reset
			return rem, 0, true
		}
		if secs > 365*24*3600 {
			return rem, max(time.Until(time.Unix(int64(secs), 0)), 0), true
		}
		return rem, time.Duration(secs * float64(time.Second)), true
	}
	return 0, 0, false
}
