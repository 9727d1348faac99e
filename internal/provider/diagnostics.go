// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// Every diagnostic about a failed call to the service is built here, so that resources, data
// sources, list resources and the action word them alike: the summary names the operation and the
// object ("Unable to update rules of gate \"x\""), the detail gives the request's own account (the
// status, the service's words, how many attempts were made), what the operation's timeout did, and,
// for a write that may have reached the service although its answer was lost, that it may have been
// applied.

// apiFailure names what failed: Unable to <op> <object>.
type apiFailure struct {
	op     string // read, create, update, delete, list, update rules of, remove the rules of, ...
	object string // `gate "x"`, "segments"
}

func (f apiFailure) summary() string {
	return strings.TrimSpace("Unable to " + f.op + " " + f.object)
}

// detail is the body of the diagnostic. op (nil outside CRUD calls) explains its own timeout,
// which says itself whether the change may have been applied; otherwise a failed write whose fate
// is unknown (console.MaybeApplied: an answer lost after an attempt may have reached the service)
// says that it may have been applied.
func (f apiFailure) detail(op *operation, err error) string {
	if op != nil && op.timedOut() {
		return op.explain(f.summary(), err).Error()
	}
	detail := err.Error()
	if op != nil && op.write && console.MaybeApplied(err) {
		detail += fmt.Sprintf("\n\nThe change may have been applied even though its answer was lost; the next plan reads %s again "+
			"and shows what is left to do: re-run apply if it still shows a change.", f.object)
	}
	return detail
}

// add adds the error diagnostic of err.
func (f apiFailure) add(diags *diag.Diagnostics, op *operation, err error) {
	diags.AddError(f.summary(), f.detail(op, err))
}

// addAt is add on an attribute, with guidance before the request's account (such as what to do
// when the object does not exist).
func (f apiFailure) addAt(diags *diag.Diagnostics, attr path.Path, summary string, op *operation, err error, guidance string) {
	detail := f.detail(op, err)
	if guidance != "" {
		detail = guidance + "\n\n" + detail
	}
	diags.AddAttributeError(attr, summary, detail)
}

// removedFromState handles a Read that found the object gone: the one wording of every resource,
// then the resource leaves the state so that the next plan proposes to create it again.
func removedFromState(ctx context.Context, resp *resource.ReadResponse, kind, id string) {
	resp.Diagnostics.AddWarning(fmt.Sprintf("%s %q not found", kind, id),
		fmt.Sprintf("%s %q no longer exists in the service; it was removed from the Terraform state, and the next plan "+
			"shows what applying the configuration again would do.", kind, id))
	resp.State.RemoveResource(ctx)
}
