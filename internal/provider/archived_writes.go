// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// archivedWrite says that the service refused a write because its object is archived, and what to
// do, for every object archived with its rules (a gate, a dynamic config). Destroy of the rules is
// done with a warning: they go with the object when it is deleted, or stay with it while it stays
// archived.
type archivedWrite struct {
	kind, noun, ownType, rulesType, idAttr string
	refused, leftInPlace                   string
	before                                 string // the other writes the unarchive comes before, "" for the rules only
}

// add reports err when it is a refusal (400) of an object that archived (read after the refusal)
// says is archived, and reports whether it did.
func (a archivedWrite) add(ctx context.Context, diags *diag.Diagnostics, id string, write framework.APIFailure, op *framework.Operation, err error, archived func() bool) bool {
	if !console.Refused(err) || !archived() {
		return false
	}
	if op.Name == "delete" {
		diags.AddWarning(fmt.Sprintf("Rules of archived %s %q left in place", a.noun, id), a.leftInPlace)
		return true
	}
	diags.AddError(fmt.Sprintf("%s %q is archived", a.kind, id),
		fmt.Sprintf("%s Nothing was changed. Set `archived = false` on the %s's %s (the default) to unarchive it: apply does "+
			"that before %sit writes the rules of a %s that refers to it (`%s = %s.<name>.%s`).\n\n%s", a.refused, a.noun, a.ownType,
			a.before, a.rulesType, a.idAttr, a.ownType, a.idAttr, write.Detail(ctx, op, err)))
	return true
}
