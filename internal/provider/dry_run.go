// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The plan-time dry run of the resources the service checks before it stores them (metric sources,
// metrics: validate_on_plan): what bounds it, and what the plan says when it fails. A dry run
// writes nothing; the client does not send again a body that already passed (internal/console/dryrun.go).

// dryRunOperation bounds the dry run by the timeout of the apply it checks (timeouts.create or
// timeouts.update) when configured, else by framework.DefaultDryRunTimeout. It writes nothing.
func dryRunOperation(ctx context.Context, t timeouts.Value, update bool) (context.Context, *framework.Operation, context.CancelFunc) {
	name, get := "create", t.Create
	if update {
		name, get = "update", t.Update
	}
	d, diags := get(ctx, framework.DefaultDryRunTimeout)
	ctx, op, cancel, _ := framework.NewOperation(ctx, name, d, diags)
	op.Write = false
	return ctx, op, cancel
}

// dryRunFailure is what a failed dry run of one object says.
type dryRunFailure struct {
	creation creation // the object's kind, and how to import one that exists
	id       string
	update   bool
	// exists reads the object: a refused create of an object that exists is an objectExistsError.
	exists func(context.Context, string) error
	// refusal, when set, says more of a refusal it recognises: at the attribute, a summary, advice.
	refusal func(err error) (at path.Path, summary, advice string, ok bool)
}

// add reports err at plan time: a refusal is an error in the service's words, a key that may not
// check one too, anything else a warning (apply meets the real outcome).
func (f dryRunFailure) add(ctx context.Context, diags *diag.Diagnostics, op *framework.Operation, err error) {
	noun := strings.ToLower(f.creation.kind)
	validate := framework.APIFailure{Op: "validate", Object: fmt.Sprintf("%s %q", noun, f.id)}
	switch {
	case console.Refused(err):
		if !f.update {
			if gerr := f.exists(ctx, f.id); gerr == nil {
				exists := &objectExistsError{creation: f.creation, id: f.id, cause: err}
				diags.AddAttributeError(path.Root("name"), fmt.Sprintf("%s %q already exists", exists.kind, f.id), exists.Error())
				return
			}
		}
		detail := fmt.Sprintf("The console validated the planned %s in a dry run (nothing was saved) and rejected it:\n\n", noun) +
			validate.Detail(ctx, op, err)
		if f.refusal != nil {
			if at, summary, advice, ok := f.refusal(err); ok {
				diags.AddAttributeError(at, summary, detail+"\n\n"+advice)
				return
			}
		}
		diags.AddError(fmt.Sprintf("%s %q rejected by the console", f.creation.kind, f.id),
			detail+"\n\nFix the configuration, or set validate_on_plan = false to skip this check.")
	case console.Unauthorized(err) || console.Forbidden(err):
		validate.Add(ctx, diags, op, err)
	default:
		diags.AddWarning(fmt.Sprintf("%s %q not validated at plan time", f.creation.kind, f.id),
			fmt.Sprintf("The dry run that checks the planned %s failed, so the plan was made without it:\n\n", noun)+validate.Detail(ctx, op, err))
	}
}
