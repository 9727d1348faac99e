// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package framework

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// Defaults of the per-resource `timeouts`. A write may wait for the client's pacing (write_limit)
// and for Retry-After on 429 besides the service itself, so writes get far more time than reads.
const (
	DefaultWriteTimeout = 20 * time.Minute
	DefaultReadTimeout  = 5 * time.Minute
	// DefaultDryRunTimeout bounds a plan-time dry run when no create/update timeout is configured:
	// a plan should not hang on a check that is only advisory.
	DefaultDryRunTimeout = 2 * time.Minute
)

// TimeoutsAttribute is the `timeouts` nested attribute with the given operations; `what` names the
// resource's object in descriptions ("the gate's rules"), notes adds to an operation's description.
func TimeoutsAttribute(ctx context.Context, what string, opts timeouts.Opts, notes map[string]string) schema.Attribute {
	a, _ := timeouts.Attributes(ctx, opts).(schema.SingleNestedAttribute)
	durations := "Go duration such as `30s`, `10m` or `1h30m` (units `ms`, `s`, `m`, `h`); must be positive."
	descriptions := map[string]string{
		"create": fmt.Sprintf("How long creating %s may take, retries and write pacing included. A %s Defaults to `%s`.", what, durations, FormatTimeout(DefaultWriteTimeout)),
		"read":   fmt.Sprintf("How long reading %s (refresh, import) may take. A %s Defaults to `%s`.", what, durations, FormatTimeout(DefaultReadTimeout)),
		"update": fmt.Sprintf("How long updating %s may take, retries and write pacing included. A %s Defaults to `%s`.", what, durations, FormatTimeout(DefaultWriteTimeout)),
		"delete": fmt.Sprintf("How long deleting %s may take, retries and write pacing included. A %s Defaults to `%s`. "+
			"Destroy reads it from the state: a new value takes effect once applied.", what, durations, FormatTimeout(DefaultWriteTimeout)),
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
		s.Validators = append(s.Validators, PositiveTimeout())
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

// Operation bounds one CRUD call by its `timeouts.<name>` and explains a failure the deadline caused.
// Its context is passed beside it, never kept in it: the context's cause says whether the
// Operation's own deadline ended it (OwnDeadlinePassed).
type Operation struct {
	Name    string // create, read, update, delete
	Write   bool   // a timed-out write may still have reached the service
	Timeout time.Duration
}

// StartOperation derives the operation's context, adding to diags what reading its timeout found;
// the caller must call the returned cancel and pass the returned context wherever the operation goes.
func StartOperation(ctx context.Context, t timeouts.Value, name string, diags *diag.Diagnostics) (context.Context, *Operation, context.CancelFunc) {
	var (
		d time.Duration
		x diag.Diagnostics
	)
	switch name {
	case "create":
		d, x = t.Create(ctx, DefaultWriteTimeout)
	case "read":
		d, x = t.Read(ctx, DefaultReadTimeout)
	case "update":
		d, x = t.Update(ctx, DefaultWriteTimeout)
	case "delete":
		d, x = t.Delete(ctx, DefaultWriteTimeout)
	default:
		panic("unknown operation " + name)
	}
	ctx, op, cancel, x := NewOperation(ctx, name, d, x)
	diags.Append(x...)
	return ctx, op, cancel
}

func NewOperation(ctx context.Context, name string, d time.Duration, diags diag.Diagnostics) (context.Context, *Operation, context.CancelFunc, diag.Diagnostics) {
	if d <= 0 { // rejected at validation; never let a zero value mean "fail at once"
		d = DefaultReadTimeout
		if name != "read" {
			d = DefaultWriteTimeout
		}
	}
	tctx, cancel := WithOwnDeadline(ctx, d)
	return tctx, &Operation{Name: name, Write: name != "read", Timeout: d}, cancel, diags
}

// errOwnDeadline is the cause of a context that its own deadline ended (WithOwnDeadline), told
// apart from Terraform's cancellation or an earlier deadline of the parent, whose causes are theirs.
var errOwnDeadline = errors.New("its own deadline passed")

// WithOwnDeadline is context.WithTimeout whose end by d is recognisable by OwnDeadlinePassed.
func WithOwnDeadline(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, d, errOwnDeadline)
}

// OwnDeadlinePassed reports whether ctx (or the context it derives from) was ended by the deadline
// of WithOwnDeadline, not by a cancellation by Terraform.
func OwnDeadlinePassed(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errOwnDeadline)
}

// TimedOut reports whether the operation's own deadline ended it (not a cancellation by Terraform);
// ctx is the operation's context.
func (o *Operation) TimedOut(ctx context.Context) bool {
	return o != nil && OwnDeadlinePassed(ctx)
}

// FormatTimeout renders 20m0s as 20m and 1h0m0s as 1h.
func FormatTimeout(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
