// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package framework

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// Every diagnostic about a failed call to the service is built here, so that resources, data
// sources, list resources and the action word them alike. The client's errors are typed and carry
// the facts (status, the service's words, attempts, whether a write may have been committed); the
// Summary names the operation and the object ("Unable to update rules of gate \"x\""), and the
// Detail gives the rest once: the status and the service's words, what to do about them, what the
// Operation's timeout did, and, for a write that may have reached the service although its answer
// was lost, that it may have been applied.

// APIFailure names what failed: Unable to <op> <object>.
type APIFailure struct {
	Op     string // read, create, update, delete, list, update rules of, remove the rules of, ...
	Object string // `gate "x"`, "segments"
}

func (f APIFailure) Summary() string {
	return strings.TrimSpace("Unable to " + f.Op + " " + f.Object)
}

// Detail is the body of the diagnostic of err. op (nil outside CRUD calls), with its context ctx,
// says whether its own deadline ended the call, and whether it writes: a failed write whose fate is unknown
// (console.MaybeApplied) may have been applied.
func (f APIFailure) Detail(ctx context.Context, op *Operation, err error) string {
	if op.TimedOut(ctx) {
		return timeoutDetail(op, err) + requestAccount(err)
	}
	detail := FailureAccount(err)
	if op != nil && op.Write && console.MaybeApplied(err) {
		detail += fmt.Sprintf("\n\nThe change may have been applied even though its answer was lost; the next plan reads %s again "+
			"and shows what is left to do: re-run apply if it still shows a change.", f.Object)
	}
	return detail + requestAccount(err)
}

// triedRequest is an error of the client that names the request it was the outcome of.
type triedRequest interface {
	error
	Tried() string
	APIRoot() string
}

// requestAccount names the request that failed, and base_url where the address is what is wrong:
// the service's root was not found, or no connection opened at all.
func requestAccount(err error) string {
	tr, ok := errors.AsType[triedRequest](err)
	if !ok || tr.Tried() == "" {
		return ""
	}
	msg := "\n\nRequest: " + tr.Tried()
	if ae, ok := errors.AsType[*console.APIError](err); ok && ae.RootNotFound {
		msg += fmt.Sprintf("\n\nThe console API was not found at base_url (its API root is %s): check the path of base_url, "+
			"the service's address with or without /console/v1, in the provider block or %s.", tr.APIRoot(), EnvBaseURL)
	}
	if te, ok := errors.AsType[*console.TransportError](err); ok && te.NeverSent {
		msg += fmt.Sprintf("\n\nNo connection to the service opened, so nothing was sent: check base_url (its API root is %s) "+
			"in the provider block or %s: that its host name resolves, that the service accepts connections on that port, "+
			"and, for https, that its certificate is valid for that name.", tr.APIRoot(), EnvBaseURL)
	}
	return msg
}

// Add adds the error diagnostic of err.
func (f APIFailure) Add(ctx context.Context, diags *diag.Diagnostics, op *Operation, err error) {
	diags.AddError(f.Summary(), f.Detail(ctx, op, err))
}

// AddAt is add on an attribute, with guidance before the request's account (such as what to do
// when the object does not exist).
func (f APIFailure) AddAt(ctx context.Context, diags *diag.Diagnostics, attr path.Path, summary string, op *Operation, err error, guidance string) {
	detail := f.Detail(ctx, op, err)
	if guidance != "" {
		detail = guidance + "\n\n" + detail
	}
	diags.AddAttributeError(attr, summary, detail)
}

// FailureAccount is what err says after "Unable to <op> <object>", with the advice that goes with
// it. Errors that wrap a cause only to add words after it keep those words.
func FailureAccount(err error) string {
	switch e := err.(type) {
	case *console.APIError:
		return Capitalize(e.Reason()) + apiAdvice(e)
	case *console.RateLimitError:
		return rateLimitAccount(e)
	case *console.ReviewPendingError:
		review := "a review"
		if e.ReviewID != "" {
			review = fmt.Sprintf("review %q", e.ReviewID)
		}
		msg := "The change awaits " + review + " and has not been applied."
		if m := strings.TrimSpace(e.Message); m != "" {
			msg += " The service says: " + m
		}
		return msg
	case *console.CancelledError:
		return "The request was cancelled: " + e.Err.Error()
	case interface{ Reason() string }: // the client's other errors: nothing to add
		return Capitalize(e.Reason())
	}
	if inner := errors.Unwrap(err); inner != nil {
		if more, ok := strings.CutPrefix(err.Error(), inner.Error()); ok {
			return FailureAccount(inner) + more
		}
	}
	return err.Error()
}

// rateLimitAccount says which of the project's two write windows ran out and what gets through it:
// the 10-second one clears within seconds, so spreading the writes is the cure; the 15-minute one
// frees a write only as the writes that filled it age out, so time is.
func rateLimitAccount(e *console.RateLimitError) string {
	if e.Read {
		msg := fmt.Sprintf("The service's read limit was exhausted for %s: the service answered 429 Too Many Requests to %d attempt(s) "+
			"of this read, waiting out each Retry-After, until the time allowed ran out.", HumanDuration(e.Limited), e.Refusals)
		if e.RetryAfter > 0 {
			msg += fmt.Sprintf(" Its last answer asked to retry after %s.", HumanDuration(e.RetryAfter))
		}
		return msg + " Reads of a segment's ids are limited to about 100 requests a minute per project (100 ids a request), " +
			"shared by every client reading the project. Nothing was written. To get through, give the read more time in the " +
			"resource's timeouts block (timeouts.read), or wait a minute and run the plan again; a segment whose id list has " +
			"not changed since the last refresh costs no page reads"
	}
	msg := fmt.Sprintf("The project's %s write limit was exhausted for %s: the service answered 429 Too Many Requests "+
		"to %d attempt(s) of this request, waiting out each Retry-After, until the time allowed ran out.",
		e.Window(), HumanDuration(e.Limited), e.Refusals)
	if e.RetryAfter > 0 {
		msg += fmt.Sprintf(" Its last answer asked to retry after %s.", HumanDuration(e.RetryAfter))
	}
	shared := " The limit belongs to the project and is shared by every client writing to it: other terraform applies, " +
		"CI jobs, scripts and people in the console."
	if e.LongWindow {
		return msg + " The 15-minute window (about 900 writes per 15 minutes) frees a write only as the writes that filled it " +
			"are 15 minutes old." + shared + " To get through, give the resource at least 15 minutes in its timeouts block, " +
			"or wait for the window to free and run apply again; spread large changes over several applies, and set " +
			"write_limit_long below the project's share this configuration may use so that the provider paces itself"
	}
	return msg + " The 10-second window allows about 100 writes." + shared + " To get through, lower -parallelism, " +
		"stagger the applies that write to this project, or give the resource more time in its timeouts block"
}

// apiAdvice is what to do about an answer, worded after the account: a rejected key, a
// concurrent edit, a service that kept failing.
func apiAdvice(e *console.APIError) string {
	switch {
	case console.Unauthorized(e):
		return " (authentication failed: check the API key given in api_key or FEATURECONSOLE_API_KEY)"
	case console.Forbidden(e):
		// The HTTP status is trusted: 403 is a key the service accepted but does not allow this. Some
		// gateways answer a bad key 403 with a body that says 401, so that case names the key too.
		advice := fmt.Sprintf(" (not allowed: the service does not let this API key %s: check the key's role, since a "+
			"read-only key cannot write, and the object's restrictions in the console, such as a gate or pipeline limited "+
			"to some teams or roles", strings.TrimSpace(e.Op+" "+e.Object))
		if console.SaysUnauthorized(e) {
			advice += "; the service's message speaks of authentication, so also check that the API key given in api_key " +
				"or FEATURECONSOLE_API_KEY is the project's and still valid"
		}
		return advice + ")"
	case console.Conflict(e):
		return " (someone else changed it at the same time; nothing was retried: run terraform plan to see where it stands now)"
	case console.RateLimited(e) && e.Attempts > 1:
		return fmt.Sprintf(" (gave up after %d attempts: the service kept rate limiting)", e.Attempts)
	case console.ServerFailed(e) && e.Attempts > 1:
		return fmt.Sprintf(" (gave up after %d attempts)", e.Attempts)
	}
	return ""
}

// timeoutDetail explains an operation that its own deadline ended: after how long, how to allow
// more, and whether the change may have been applied. Waiting out the project's write limit is
// said as such, since more time is only one of the ways through.
func timeoutDetail(op *Operation, err error) string {
	example := fmt.Sprintf("\n\n  timeouts = {\n    %s = \"%s\"\n  }", op.Name, FormatTimeout(2*op.Timeout))
	if rle, ok := errors.AsType[*console.RateLimitError](err); ok {
		msg := FailureAccount(rle) + fmt.Sprintf(" (timeouts.%s, %s here), for example:", op.Name, FormatTimeout(op.Timeout)) + example
		if rle.MaybeCommitted {
			return msg + "\n\nAn earlier attempt's answer was lost, so the change may have been applied: the next plan reads it again and shows what is left to do."
		}
		if rle.Read {
			return msg
		}
		return msg + "\n\nThe service refused every attempt, so nothing was applied: the next plan shows the same change."
	}
	msg := fmt.Sprintf("Timed out after %s waiting for the service (raise timeouts.%s)", FormatTimeout(op.Timeout), op.Name)
	msg += fmt.Sprintf("\n\nThe %s operation has a budget of %s, retries, Retry-After waits and write pacing included. "+
		"Allow more in the resource's configuration, for example:", op.Name, FormatTimeout(op.Timeout)) + example
	// A write that never left the pacer, or that every attempt of was refused, was not applied.
	if op.Write && console.MaybeApplied(err) {
		msg += "\n\nThe service may still have received the change: the next plan reads it again and shows what is left to do."
	}
	return msg
}

// HumanDuration renders d as "N minutes" from a minute on, else "N seconds".
func HumanDuration(d time.Duration) string {
	if d >= time.Minute {
		m := int((d + 30*time.Second) / time.Minute)
		if m == 1 {
			return "1 minute"
		}
		return strconv.Itoa(m) + " minutes"
	}
	s := int((d + 500*time.Millisecond) / time.Second)
	if s == 1 {
		return "1 second"
	}
	return strconv.Itoa(s) + " seconds"
}

// RemovedFromState handles a Read that found the object gone: the one wording of every resource,
// then the resource leaves the state so that the next plan proposes to create it again.
func RemovedFromState(ctx context.Context, resp *resource.ReadResponse, kind, id string) {
	resp.Diagnostics.AddWarning(fmt.Sprintf("%s %q not found", kind, id),
		fmt.Sprintf("%s %q no longer exists in the service; it was removed from the Terraform state, and the next plan "+
			"shows what applying the configuration again would do.", kind, id))
	resp.State.RemoveResource(ctx)
}
