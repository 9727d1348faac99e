// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// What every resource that creates does when its create fails (DESIGN.md §5): an object of the same
// id is never taken over, and a create whose answer was lost is read back and compared, never sent
// twice.

// creation names what a resource creates, for its "already exists" error.
type creation struct {
	typeName string // featureconsole_gate
	kind     string // "Gate", as a sentence starts
	noun     string // "A gate with id", as the error's first sentence starts
	plural   string // "gates"
	idWord   string // "gate id", what the user may change instead
}

// maxCreateResends bounds how often a create lost on the way (read back: nothing there) is sent again.
const maxCreateResends = 3

// createResending sends create and, while it fails, hands the failure to recoverFrom: a create it
// finds never arrived (again) is sent once more, at most maxCreateResends times, since sending it
// cannot duplicate anything.
func createResending[T any](ctx context.Context, create func(context.Context) (*T, error),
	recoverFrom func(context.Context, error) (_ *T, again bool, _ error)) (*T, error) {
	got, err := create(ctx)
	for attempt := 1; err != nil; attempt++ {
		var again bool
		if got, again, err = recoverFrom(ctx, err); !again || attempt > maxCreateResends {
			break
		}
		got, err = create(ctx)
	}
	return got, err
}

// createRecovering creates the object id with create, recovering a failed create (recoverCreate).
func createRecovering[T any](ctx context.Context, c creation, id string, create func(context.Context) (*T, error),
	read func(context.Context, string) (*T, error), asSent func(*T) bool) (*T, error) {
	return createResending(ctx, create, func(ctx context.Context, err error) (*T, bool, error) {
		return recoverCreate(ctx, c, id, err, read, asSent)
	})
}

// recoverCreate handles a failed create of the object id. When the create may have been applied
// though its answer was lost (no answer, a 5xx, a retry that met "already exists", a 2xx that could
// not be decoded), the stored object is read back: if it holds what was sent (asSent), the create
// succeeded; if there is none, the create never arrived and may be sent again (again). An object
// that exists otherwise is an objectExistsError; any other failure is err as it was.
func recoverCreate[T any](ctx context.Context, c creation, id string, err error,
	read func(context.Context, string) (*T, error), asSent func(*T) bool) (_ *T, again bool, _ error) {
	ambiguous := console.MaybeApplied(err)
	refused := console.Refused(err) // perhaps "already exists"
	if !ambiguous && !refused {
		return nil, false, err
	}
	got, gerr := read(ctx, id)
	if gerr != nil {
		if !console.NotFound(gerr) {
			tflog.Warn(ctx, "could not read back after a failed create", map[string]any{"type": c.typeName, "id": id, "error": gerr.Error()})
		}
		return nil, ambiguous && console.NotFound(gerr), err
	}
	if ambiguous && asSent(got) {
		tflog.Info(ctx, "create answer was lost but the object was stored as sent: carrying on as created", map[string]any{"type": c.typeName, "id": id})
		return got, false, nil
	}
	var undecoded *console.DecodeError
	return nil, false, &objectExistsError{creation: c, id: id, cause: err, differs: ambiguous, answered: errors.As(err, &undecoded)}
}

// objectExistsError is a create that met an object of the same id that is not in the state.
type objectExistsError struct {
	creation
	id      string
	cause   error
	differs bool
	// answered: the service said it created the object (a 2xx), but its answer could not be decoded.
	answered bool
	// state ("archived") and advice, when set, say what else the object is and what to do after the
	// import.
	state, advice string
}

func (e *objectExistsError) Error() string {
	advice := ""
	if e.advice != "" {
		advice = " " + e.advice
	}
	what := "already exists in the console but is not managed by this Terraform state"
	if e.state != "" {
		what = "already exists in the console, " + e.state + ", and is not managed by this Terraform state"
	}
	if e.differs {
		what = "already exists in the console and differs from this configuration, so it was not created by this apply"
	}
	if e.answered {
		what = "was created by this apply (the service answered that it was), but the answer could not be read, and " +
			"what the console holds differs from this configuration"
	}
	return fmt.Sprintf("%[4]s %[1]q %[2]s. Terraform does not take over existing %[5]s silently.\n\n"+
		"To manage it with Terraform, import it with:\n\n"+
		"  terraform import %[6]s.<resource name> %[1]q\n\n"+
		"or an import block:\n\n"+
		"  import {\n    to = %[6]s.<resource name>\n    id = %[1]q\n  }\n\n"+
		"then adjust the configuration until the plan shows no changes.%[8]s Or choose another %[7]s.\n\n"+
		"The console answered: %[3]s", e.id, what, framework.FailureAccount(e.cause), e.noun, e.plural, e.typeName, e.idWord, advice)
}

func (e *objectExistsError) Unwrap() error { return e.cause }

// addCreateFailure reports a failed create: an object that exists on the attribute that names it
// (its own words say what happened to the attempts, no "may have been applied"), anything else
// through create.
func addCreateFailure(ctx context.Context, diags *diag.Diagnostics, at path.Path, create framework.APIFailure, op *framework.Operation, err error) {
	var exists *objectExistsError
	if !errors.As(err, &exists) {
		create.Add(ctx, diags, op, err)
		return
	}
	detail := exists.Error()
	if op.TimedOut(ctx) {
		detail = create.Detail(ctx, op, err)
	}
	summary := fmt.Sprintf("%s %q already exists", exists.kind, exists.id)
	if exists.state != "" {
		summary += " and is " + exists.state
	}
	diags.AddAttributeError(at, summary, detail)
}

// adoptLost is the object a create whose answer was lost made, found by its name (unique in the
// project) and holding what was sent (asSent); otherwise the create's error stands.
func adoptLost[T any](ctx context.Context, err error, name string, find func(context.Context, string) (*T, error), asSent func(*T) bool) (*T, error) {
	got, ferr := find(ctx, name)
	if ferr != nil || !asSent(got) {
		return nil, err
	}
	tflog.Info(ctx, "create answer was lost but the object was stored as sent: carrying on as created", map[string]any{"name": name})
	return got, nil
}
