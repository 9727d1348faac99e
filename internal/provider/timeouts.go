// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// Defaults of the per-resource `timeouts`. A write may wait for the client's pacing (write_limit)
// and for Retry-After on 429 besides the service itself, so writes get far more time than reads.
const (
	defaultWriteTimeout = 20 * time.Minute
	defaultReadTimeout  = 5 * time.Minute
	// defaultDryRunTimeout bounds a plan-time dry run when no create/update timeout is configured:
	// a plan should not hang on a check that is only advisory.
	defaultDryRunTimeout = 2 * time.Minute
)

// timeoutsAttribute is the `timeouts` nested attribute with the given operations; `what` names the
// resource's object in descriptions ("the gate's rules"), notes adds to an operation's description.
func timeoutsAttribute(ctx context.Context, what string, opts timeouts.Opts, notes map[string]string) schema.Attribute {
	a, _ := timeouts.Attributes(ctx, opts).(schema.SingleNestedAttribute)
	durations := "Go duration such as `30s`, `10m` or `1h30m` (units `ms`, `s`, `m`, `h`); must be positive."
	descriptions := map[string]string{
		"create": fmt.Sprintf("How long creating %s may take, retries and write pacing included. A %s Defaults to `%s`.", what, durations, formatTimeout(defaultWriteTimeout)),
		"read":   fmt.Sprintf("How long reading %s (refresh, import) may take. A %s Defaults to `%s`.", what, durations, formatTimeout(defaultReadTimeout)),
		"update": fmt.Sprintf("How long updating %s may take, retries and write pacing included. A %s Defaults to `%s`.", what, durations, formatTimeout(defaultWriteTimeout)),
		"delete": fmt.Sprintf("How long deleting %s may take, retries and write pacing included. A %s Defaults to `%s`. "+
			"Destroy reads it from the state: a new value takes effect once applied.", what, durations, formatTimeout(defaultWriteTimeout)),
	}
	var ops []string
	for _, name := range []string{"create", "read", "update", "delete"} {
		s, ok := a.Attributes[name].(schema.StringAttribute)
		if !ok {
			continue
		}
		desc := descriptions[name]
		if n := notes[name]; n != "" {
			desc += " " + n
		}
		s.MarkdownDescription = desc
		s.Description = desc
		s.Validators = append(s.Validators, framework.PositiveTimeout())
		a.Attributes[name] = s
		ops = append(ops, "`"+name+"`")
	}
	a.MarkdownDescription = "How long each operation may take before it fails, waiting on the service, retries and " +
		"write pacing included; for example `timeouts = { " + firstOp(opts) + " = \"40m\" }`. Operations: " +
		strings.Join(ops, ", ") + ". Terraform-side only: changing it sends no request."
	a.Description = a.MarkdownDescription
	return a
}

func firstOp(o timeouts.Opts) string {
	if o.Create {
		return "create"
	}
	return "read"
}

// operation bounds one CRUD call by its `timeouts.<name>` and explains a failure the deadline caused.
// Its context is passed beside it, never kept in it: the context's cause says whether the
// operation's own deadline ended it (ownDeadlinePassed).
type operation struct {
	name    string // create, read, update, delete
	write   bool   // a timed-out write may still have reached the service
	timeout time.Duration
}

// startOperation derives the operation's context, adding to diags what reading its timeout found;
// the caller must call the returned cancel and pass the returned context wherever the operation goes.
func startOperation(ctx context.Context, t timeouts.Value, name string, diags *diag.Diagnostics) (context.Context, *operation, context.CancelFunc) {
	var (
		d time.Duration
		x diag.Diagnostics
	)
	switch name {
	case "create":
		d, x = t.Create(ctx, defaultWriteTimeout)
	case "read":
		d, x = t.Read(ctx, defaultReadTimeout)
	case "update":
		d, x = t.Update(ctx, defaultWriteTimeout)
	case "delete":
		d, x = t.Delete(ctx, defaultWriteTimeout)
	default:
		panic("unknown operation " + name)
	}
	ctx, op, cancel, x := newOperation(ctx, name, d, x)
	diags.Append(x...)
	return ctx, op, cancel
}

func newOperation(ctx context.Context, name string, d time.Duration, diags diag.Diagnostics) (context.Context, *operation, context.CancelFunc, diag.Diagnostics) {
	if d <= 0 { // rejected at validation; never let a zero value mean "fail at once"
		d = defaultReadTimeout
		if name != "read" {
			d = defaultWriteTimeout
		}
	}
	tctx, cancel := withOwnDeadline(ctx, d)
	return tctx, &operation{name: name, write: name != "read", timeout: d}, cancel, diags
}

// errOwnDeadline is the cause of a context that its own deadline ended (withOwnDeadline), told
// apart from Terraform's cancellation or an earlier deadline of the parent, whose causes are theirs.
var errOwnDeadline = errors.New("its own deadline passed")

// withOwnDeadline is context.WithTimeout whose end by d is recognisable by ownDeadlinePassed.
func withOwnDeadline(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, d, errOwnDeadline)
}

// ownDeadlinePassed reports whether ctx (or the context it derives from) was ended by the deadline
// of withOwnDeadline, not by a cancellation by Terraform.
func ownDeadlinePassed(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errOwnDeadline)
}

// timedOut reports whether the operation's own deadline ended it (not a cancellation by Terraform);
// ctx is the operation's context.
func (o *operation) timedOut(ctx context.Context) bool {
	return o != nil && ownDeadlinePassed(ctx)
}

// formatTimeout renders 20m0s as 20m and 1h0m0s as 1h.
func formatTimeout(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
