// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package framework

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// The detail of every diagnostic about a failed call: the client's account, the advice that goes
// with it, and whether a write may have been applied, never the summary again.
func TestFailureDetail(t *testing.T) {
	ctx := context.Background()
	_, write, cancelWrite, _ := NewOperation(ctx, "update", time.Hour, nil)
	defer cancelWrite()
	_, read, cancelRead, _ := NewOperation(ctx, "read", time.Hour, nil)
	defer cancelRead()
	expired := map[*Operation]context.Context{} // the contexts of the operations that timed out
	timedOut := func(name string) *Operation {
		opCtx, op, cancel, _ := NewOperation(ctx, name, time.Millisecond, nil)
		t.Cleanup(cancel)
		<-opCtx.Done()
		expired[op] = opCtx
		return op
	}
	const (
		mayHaveBeenApplied = "\n\nThe change may have been applied even though its answer was lost; the next plan reads " +
			`gate "g" again and shows what is left to do: re-run apply if it still shows a change.`
		authFailed = " (authentication failed: check the API key given in api_key or FEATURECONSOLE_API_KEY)"
		rateLimit  = "The project's 10-second write limit was exhausted for 3 seconds: the service answered 429 Too Many Requests to " +
			"4 attempt(s) of this request, waiting out each Retry-After, until the time allowed ran out. The 10-second window " +
			"allows about 100 writes. The limit belongs to the project and is shared by every client writing to it: " +
			"other terraform applies, CI jobs, scripts and people in the console. To get through, lower -parallelism, stagger " +
			"the applies that write to this project, or give the resource more time in its timeouts block"
		rateLimitLong = "The project's 15-minute write limit was exhausted for 2 minutes: the service answered 429 Too Many Requests to " +
			"3 attempt(s) of this request, waiting out each Retry-After, until the time allowed ran out. Its last answer asked " +
			"to retry after 12 minutes. The 15-minute window (about 900 writes per 15 minutes) frees a write only as the writes " +
			"that filled it are 15 minutes old. The limit belongs to the project and is shared by every client writing to it: " +
			"other terraform applies, CI jobs, scripts and people in the console. To get through, give the resource at least " +
			"15 minutes in its timeouts block, or wait for the window to free and run apply again; spread large changes over " +
			"several applies, and set write_limit_long below the project's share this configuration may use so that the " +
			"provider paces itself"
		notAllowed = " (not allowed: the service does not let this API key update rules of gate \"g\": check the key's role, " +
			"since a read-only key cannot write, and the object's restrictions in the console, such as a gate or pipeline " +
			"limited to some teams or roles"
		createExample = ", for example:\n\n  timeouts = {\n    create = \"2ms\"\n  }"
	)
	apiErr := func(status int, message string, attempts int) *console.APIError {
		return &console.APIError{Op: "update rules of gate", Object: `"g"`, StatusCode: status, Message: message, Attempts: attempts}
	}
	limited := &console.RateLimitError{Op: "create rules of gate", Object: `"g"`, Limited: 3 * time.Second, Refusals: 4, Err: context.DeadlineExceeded}
	limitedLost := *limited
	limitedLost.MaybeCommitted = true
	forbidden401 := apiErr(403, "Unauthorized", 1)
	forbidden401.BodyStatus = 401
	lost := apiErr(502, "", 3)
	lost.MaybeCommitted = true
	for _, tc := range []struct {
		name string
		op   *Operation
		err  error
		want string
	}{
		{"status and words", write, apiErr(400, "rules[0].passPercentage must be between 0 and 100", 1),
			"400 Bad Request: rules[0].passPercentage must be between 0 and 100"},
		{"rejected key", nil, apiErr(401, "Unauthorized", 1), "401 Unauthorized: Unauthorized" + authFailed},
		{"403 whose body says 401", nil, forbidden401, "403 Forbidden: Unauthorized" + notAllowed + "; the service's message " +
			"speaks of authentication, so also check that the API key given in api_key or FEATURECONSOLE_API_KEY is the " +
			"project's and still valid)"},
		{"plain 403", nil, apiErr(403, "project is read-only", 1), "403 Forbidden: project is read-only" + notAllowed + ")"},
		{"concurrent edit", write, apiErr(409, "", 1),
			"409 Conflict (someone else changed it at the same time; nothing was retried: run terraform plan to see where it stands now)"},
		{"5xx retried", read, apiErr(500, "boom", 3), "500 Internal Server Error: boom (gave up after 3 attempts)"},
		{"5xx once", read, apiErr(503, "", 1), "503 Service Unavailable"},
		{"429 retried", nil, apiErr(429, "slow down", 4), "429 Too Many Requests: slow down (gave up after 4 attempts: the service kept rate limiting)"},
		{"write whose answer was lost", write, lost, "502 Bad Gateway (gave up after 3 attempts)" + mayHaveBeenApplied},
		{"read whose answer was lost", read, lost, "502 Bad Gateway (gave up after 3 attempts)"},
		{"rate limited", nil, limited, rateLimit},
		{"15-minute window", nil, &console.RateLimitError{Op: "create rules of gate", Object: `"g"`, Limited: 2 * time.Minute,
			Refusals: 3, RetryAfter: 12 * time.Minute, LongWindow: true, Err: context.DeadlineExceeded}, rateLimitLong},
		{"no answer", write, &console.TransportError{Op: "update rules of gate", Object: `"g"`, Attempts: 3, Err: errors.New("connection refused")},
			"No answer from the service after 3 attempt(s): connection refused" + mayHaveBeenApplied},
		{"undecodable", nil, &console.DecodeError{Op: "list", Object: "users", Err: errors.New("invalid character '<'"), Body: []byte("<html>")},
			"The service's response could not be decoded: invalid character '<' (the body is an HTML page, perhaps from a proxy)"},
		{"cancelled", read, &console.CancelledError{Op: "read gate", Object: `"g"`, Err: context.Canceled}, "The request was cancelled: context canceled"},
		{"cancelled unsent write", write, &console.CancelledError{Op: "update rules of gate", Object: `"g"`, Err: context.Canceled}, "The request was cancelled: context canceled"},
		{"request not made", nil, &console.RequestError{Op: "read gate", Object: `""`, Err: errors.New("the identifier is empty")}, "The identifier is empty"},
		{"held for review", nil, &console.ReviewPendingError{Op: "update rules of gate", Object: `"g"`, ReviewID: "rev_7", Message: "Review submitted."},
			`The change awaits review "rev_7" and has not been applied. The service says: Review submitted.`},
		{"held for a review without id", nil, &console.ReviewPendingError{Op: "update rules of gate", Object: `"g"`},
			"The change awaits a review and has not been applied."},
		{"a cause with words after it", nil, fmt.Errorf("%w\n\nThe run does not record the operation; it is now ABORTED at phase %q", apiErr(400, "stale phase", 1), "Canary"),
			"400 Bad Request: stale phase\n\nThe run does not record the operation; it is now ABORTED at phase \"Canary\""},
		{"not the client's", nil, errors.New("something else"), "something else"},
		{"timed out", timedOut("create"), &console.CancelledError{Op: "read gate", Object: `"g"`, MaybeCommitted: true, Err: context.DeadlineExceeded},
			"Timed out after 1ms waiting for the service (raise timeouts.create)\n\nThe create operation has a budget of 1ms, retries, " +
				"Retry-After waits and write pacing included. Allow more in the resource's configuration" + createExample +
				"\n\nThe service may still have received the change: the next plan reads it again and shows what is left to do."},
		{"timed out before sending", timedOut("create"), &console.CancelledError{Op: "read gate", Object: `"g"`, Err: context.DeadlineExceeded},
			"Timed out after 1ms waiting for the service (raise timeouts.create)\n\nThe create operation has a budget of 1ms, retries, " +
				"Retry-After waits and write pacing included. Allow more in the resource's configuration" + createExample},
		{"timed out rate limited", timedOut("create"), limited, rateLimit + " (timeouts.create, 1ms here)" + createExample +
			"\n\nThe service refused every attempt, so nothing was applied: the next plan shows the same change."},
		{"timed out rate limited after a lost answer", timedOut("create"), &limitedLost, rateLimit + " (timeouts.create, 1ms here)" + createExample +
			"\n\nAn earlier attempt's answer was lost, so the change may have been applied: the next plan reads it again and shows what is left to do."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := APIFailure{"update rules of", `gate "g"`}
			opCtx, ok := expired[tc.op]
			if !ok {
				opCtx = ctx
			}
			got := f.Detail(opCtx, tc.op, tc.err)
			if got != tc.want {
				t.Errorf("detail:\n got %q\nwant %q", got, tc.want)
			}
			if strings.Contains(got, "Unable to") {
				t.Errorf("the detail repeats a summary: %q", got)
			}
		})
	}
}

func TestHumanDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{20 * time.Minute: "20 minutes", 61 * time.Second: "1 minute",
		90 * time.Second: "2 minutes", 45 * time.Second: "45 seconds", time.Second: "1 second"} {
		if got := HumanDuration(d); got != want {
			t.Errorf("humanDuration(%v) = %q, want %q", d, got, want)
		}
	}
}
