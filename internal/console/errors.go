// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// APIError is a non-2xx answer of the service.
type APIError struct {
	Op, Object string
	Call
	StatusCode int
	// Message is the service's own message, or a summary of a body that was not the error shape.
	Message string
	Body    []byte
	// Attempts counts the HTTP attempts made, retries included.
	Attempts int
	// BodyStatus is the status the body itself states, when it states one; the HTTP status is
	// trusted over it, but a 403 whose body says 401 is a rejected key all the same.
	BodyStatus int
	// MaybeCommitted is true for a write when an earlier attempt may have reached the service
	// even though its answer was lost (a 5xx or a broken connection was retried).
	MaybeCommitted bool
	// RootNotFound is a 404 of a collection of the API (a list, a create), which exists in every
	// project: the API's root is not at base_url.
	RootNotFound bool
	// RouteMissing is a 404 of a route the service does not serve ("Cannot PATCH /console/v1/..."),
	// not of an object: it says nothing about whether the object exists.
	RouteMissing bool
}

// unable is the sentence every error of this package starts with: "Unable to <op> <object>".
func unable(op, object string) string {
	if object == "" {
		return "Unable to " + op
	}
	return "Unable to " + op + " " + object
}

// Every error of this package is typed and says, in Error, a short account for logs and callers
// other than the provider: "Unable to <op> <object>: <Reason>". Its fields carry the rest (attempts,
// whether a write may have been committed); advice to the user is the provider's to give.

func (e *APIError) Error() string { return unable(e.Op, e.Object) + ": " + e.Reason() }

// Reason is the status and the service's words: "400 Bad Request: rules[0] is invalid".
func (e *APIError) Reason() string {
	s := fmt.Sprintf("%d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// NotFound reports whether err is a 404 of the service for its object. A 404 of a route the service
// does not serve (RouteMissing) is not: read as "gone", it would make a write or a destroy that never
// took report success.
func NotFound(err error) bool {
	ae, ok := errors.AsType[*APIError](err)
	return ok && ae.StatusCode == http.StatusNotFound && !ae.RouteMissing
}

// The predicates below are what the provider decides on; it never reads a status or the service's
// words itself (DESIGN §1). Each holds for an APIError, also wrapped.

// Refused reports a 400: the service refused the request as sent, for its content (an invalid
// rule, an id that exists) or for the object's state (archived, locked by a run: see LockedByRun).
func Refused(err error) bool { return answered(err, http.StatusBadRequest) }

// Unauthorized reports a 401: the service rejected the API key.
func Unauthorized(err error) bool { return answered(err, http.StatusUnauthorized) }

// Forbidden reports a 403: the service accepted the key but does not allow it this operation or
// object (a read-only key, a restricted object).
func Forbidden(err error) bool { return answered(err, http.StatusForbidden) }

// SaysUnauthorized reports an answer whose body states 401 whatever its HTTP status: some gateways
// answer a bad key 403 with such a body.
func SaysUnauthorized(err error) bool {
	ae, ok := errors.AsType[*APIError](err)
	return ok && ae.BodyStatus == http.StatusUnauthorized
}

// Conflict reports a 409: someone else changed the object at the same time (never retried).
func Conflict(err error) bool { return answered(err, http.StatusConflict) }

// RateLimited reports the service's write limit: a 429 answer, or a RateLimitError (429s until
// the time allowed ran out).
func RateLimited(err error) bool {
	if _, ok := errors.AsType[*RateLimitError](err); ok {
		return true
	}
	return answered(err, http.StatusTooManyRequests)
}

// ServerFailed reports a 5xx: the service failed (retried, but for 501).
func ServerFailed(err error) bool {
	ae, ok := errors.AsType[*APIError](err)
	return ok && ae.StatusCode >= 500
}

// HeldForReview reports a write the service holds for review instead of applying it.
func HeldForReview(err error) bool {
	_, ok := errors.AsType[*ReviewPendingError](err)
	return ok
}

// LockedByRun is the run, among the target's active runs, whose lock made the service refuse a
// write: a refusal (400) that names the run (its id is in the service's words, as the service
// names it). nil when err is not a refusal or names none of them: a refusal of the
// content sent (an invalid rule) while a run is active is not the lock, and aborting or waiting
// for the run would not help.
func LockedByRun(err error, activeRuns []ReleasePipelineTrigger) *ReleasePipelineTrigger {
	ae, ok := errors.AsType[*APIError](err)
	if !ok || ae.StatusCode != http.StatusBadRequest {
		return nil
	}
	for i := range activeRuns {
		if id := activeRuns[i].ID; id != "" && strings.Contains(ae.Message, id) {
			return &activeRuns[i]
		}
	}
	return nil
}

// answered reports an APIError of status.
func answered(err error, status int) bool {
	ae, ok := errors.AsType[*APIError](err)
	return ok && ae.StatusCode == status
}

// newAPIError builds the error of a non-2xx answer; a service that echoes the API key (in a 401
// message, say) never gets it into the error, which ends up in diagnostics.
func newAPIError(r request, call Call, resp *http.Response, body []byte, apiKey string, attempts int, ambiguous bool) *APIError {
	e := &APIError{
		Op:             r.op,
		Object:         r.object,
		Call:           call,
		RootNotFound:   resp.StatusCode == http.StatusNotFound && collectionPath(r.path),
		StatusCode:     resp.StatusCode,
		Body:           redactKey(body, apiKey),
		Attempts:       attempts,
		MaybeCommitted: ambiguous && r.method != http.MethodGet,
	}
	// The API is not at that address: no attempt, answered or lost, reached anything that writes.
	e.MaybeCommitted = e.MaybeCommitted && !e.RootNotFound
	e.BodyStatus = bodyStatus(e.Body)
	// Redacted before (a summary could cut the key in two) and after (JSON escapes may spell it differently).
	e.Message = string(redactKey([]byte(errorMessage(resp.Header.Get("Content-Type"), e.Body)), apiKey))
	e.RouteMissing = resp.StatusCode == http.StatusNotFound && routeMissing(e.Message, r.method)
	if loc := resp.Header.Get("Location"); resp.StatusCode >= 300 && resp.StatusCode < 400 && loc != "" {
		e.Message = string(redactKey([]byte("the service redirects to "+truncate(loc, 200)+
			"; redirects are not followed, set base_url to the address the service answers on"), apiKey))
	}
	return e
}

// routeMissing reports the words of a framework that has no route for a request (Express and NestJS
// answer "Cannot PATCH /path"), as against the service's own "not found" of an object.
func routeMissing(message, method string) bool {
	return strings.HasPrefix(strings.TrimSpace(message), "Cannot "+method+" /")
}

const redacted = "***"

// redactKey replaces every occurrence of key in b.
func redactKey(b []byte, key string) []byte {
	if key == "" || !bytes.Contains(b, []byte(key)) {
		return b
	}
	return bytes.ReplaceAll(b, []byte(key), []byte(redacted))
}

// errorMessage extracts the service's message; bodies that are not the error shape
// (proxies' HTML pages, truncated JSON, nothing) are summarised, never dumped whole.
func errorMessage(contentType string, body []byte) string {
	trimmed := strings.TrimSpace(string(body))
	if trimmed == "" {
		return ""
	}
	var eb struct {
		Status  json.RawMessage `json:"status"`
		Message json.RawMessage `json:"message"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal([]byte(trimmed), &eb) == nil {
		// NestJS answers {"statusCode", "message": string or [strings], "error"}: its "error" is only
		// the status text, so the messages come first and every one of them is kept.
		for _, raw := range []json.RawMessage{eb.Message, eb.Error} {
			if s := messageText(raw); s != "" {
				return s
			}
		}
	}
	if strings.Contains(contentType, "html") || strings.HasPrefix(strings.ToLower(trimmed), "<") {
		return "the service answered with an HTML page instead of JSON"
	}
	return "unexpected response body: " + truncate(trimmed, 200)
}

// bodyStatus is the status an error body states ({"status"} or NestJS's {"statusCode"}), or 0.
func bodyStatus(body []byte) int {
	var eb struct {
		Status     json.RawMessage `json:"status"`
		StatusCode json.RawMessage `json:"statusCode"`
	}
	if json.Unmarshal(body, &eb) != nil {
		return 0
	}
	for _, raw := range []json.RawMessage{eb.StatusCode, eb.Status} {
		var n WholeNumber
		if len(raw) > 0 && n.UnmarshalJSON(raw) == nil && n >= 100 && n <= 599 {
			return int(n)
		}
	}
	return 0
}

// messageText reads a message that is a string or a list of strings (joined with "; ").
func messageText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return ""
	}
	parts := make([]string, 0, len(list))
	for _, item := range list {
		var one string
		if json.Unmarshal(item, &one) != nil {
			one = compact(item)
		}
		if one = strings.TrimSpace(one); one != "" {
			parts = append(parts, one)
		}
	}
	return truncate(strings.Join(parts, "; "), 2000)
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// DecodeError is a 2xx answer whose body could not be understood.
type DecodeError struct {
	Op, Object string
	Call
	Err  error
	Body []byte
}

func (e *DecodeError) Error() string { return unable(e.Op, e.Object) + ": " + e.Reason() }

// Reason says what could not be decoded and how the body starts.
func (e *DecodeError) Reason() string {
	msg := "the service's response could not be decoded: " + e.Err.Error()
	if len(e.Body) > 0 {
		if strings.HasPrefix(strings.TrimSpace(string(e.Body)), "<") {
			msg += " (the body is an HTML page, perhaps from a proxy)"
		} else {
			msg += " (body starts: " + truncate(strings.TrimSpace(string(e.Body)), 120) + ")"
		}
	}
	return msg
}

func (e *DecodeError) Unwrap() error { return e.Err }

// TransportError is a request that got no HTTP answer at all, after retries.
type TransportError struct {
	Op, Object string
	Call
	Attempts int
	// NeverSent is true when no attempt opened a connection (the name did not resolve, nothing
	// listened, the TLS handshake failed): nothing reached the service.
	NeverSent bool
	Err       error
}

func (e *TransportError) Error() string { return unable(e.Op, e.Object) + ": " + e.Reason() }

// Reason says how many attempts went unanswered and why the last did.
func (e *TransportError) Reason() string {
	cause := e.Err
	if ue, ok := errors.AsType[*url.Error](cause); ok && e.URL != "" {
		cause = ue.Err // it repeats the method and address, which the error names itself
	}
	if e.NeverSent {
		return fmt.Sprintf("could not connect to the service, so nothing was sent (%d attempt(s)): %v", e.Attempts, cause)
	}
	return fmt.Sprintf("no answer from the service after %d attempt(s): %v", e.Attempts, cause)
}

func (e *TransportError) Unwrap() error { return e.Err }

// RequestError is a request that could not be made (an empty identifier, a body that does not
// encode), or a listing whose pages could not be followed.
type RequestError struct {
	Op, Object string
	Err        error
}

func (e *RequestError) Error() string { return unable(e.Op, e.Object) + ": " + e.Reason() }

// Reason is what stopped the request.
func (e *RequestError) Reason() string { return e.Err.Error() }

func (e *RequestError) Unwrap() error { return e.Err }

// RateLimitError is a request whose context ran out while the service kept answering 429: the
// project's write limit, shared by every client of the project, stayed exhausted (or, for a read,
// one of the service's read limits).
type RateLimitError struct {
	Op, Object string
	Call
	// Limited is how long the service refused this request, from its first 429 to the end.
	Limited time.Duration
	// Refusals counts the attempts answered 429.
	Refusals int
	// RetryAfter is the wait the last 429 asked for; 0 when it carried no Retry-After.
	RetryAfter time.Duration
	// LongWindow is true when the 15-minute window (900 writes) was the full one, as far as the
	// answers tell: a Retry-After beyond the 10-second window, or refusals that outlasted it.
	LongWindow bool
	// Read is true for a read the service kept refusing: its read limits (such as the id lists'
	// 100 reads a minute) are not the write limit, and LongWindow means nothing for them.
	Read bool
	// MaybeCommitted is true when an earlier attempt's fate is unknown (a 5xx or a lost answer).
	MaybeCommitted bool
	Err            error
}

func (e *RateLimitError) Error() string { return unable(e.Op, e.Object) + ": " + e.Reason() }

// Window names the window that ran out: "10-second" or "15-minute".
func (e *RateLimitError) Window() string {
	if e.LongWindow {
		return "15-minute"
	}
	return "10-second"
}

// Reason says which window ran out, how long and how often the service refused the request.
func (e *RateLimitError) Reason() string {
	if e.Read {
		return fmt.Sprintf("the service's read limit was exhausted for %s: 429 Too Many Requests to %d attempt(s) of this read, until the time allowed ran out",
			e.Limited.Round(10*time.Millisecond), e.Refusals)
	}
	return fmt.Sprintf("the project's %s write limit was exhausted for %s: 429 Too Many Requests to %d attempt(s), until the time allowed ran out",
		e.Window(), e.Limited.Round(10*time.Millisecond), e.Refusals)
}

// longWindowFull tells the service's longer window from its 10-second one: a Retry-After beyond
// the short window, or without one, refusals that lasted longer than the short window can.
func longWindowFull(retryAfter, limited time.Duration) bool {
	if retryAfter > 0 {
		return retryAfter > shortWindow
	}
	return limited > shortWindow+margin(shortWindow)
}

func (e *RateLimitError) Unwrap() error { return e.Err }

// CancelledError is a request whose context ended before it got an answer it could return.
type CancelledError struct {
	Op, Object string
	Call
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
	var amb *AmbiguousCreateError
	switch {
	case err == nil:
		return false
	case errors.As(err, &amb): // it names what was made: nothing to guess
		return false
	case errors.As(err, &re):
		return re.MaybeCommitted
	case errors.As(err, &ce):
		return ce.MaybeCommitted
	case errors.As(err, &ae):
		return ae.MaybeCommitted
	case errors.As(err, &te):
		return !te.NeverSent
	}
	return true
}

// AmbiguousCreateError is a create whose answer was lost, after which more than one new object
// of the name sent turned up: which one it made cannot be told, so none is taken.
type AmbiguousCreateError struct {
	Op, Object string
	IDs        []string
}

func (e *AmbiguousCreateError) Error() string { return unable(e.Op, e.Object) + ": " + e.Reason() }

// Reason names the objects found.
func (e *AmbiguousCreateError) Reason() string {
	return fmt.Sprintf("the answer was lost, and %d new objects of that name appeared meanwhile (%s): which one this create made cannot be told",
		len(e.IDs), strings.Join(e.IDs, ", "))
}
