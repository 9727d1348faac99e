// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// What the resources of an object's own fields whose rules live apart (featureconsole_gate,
// featureconsole_dynamic_config) share: how their attributes are planned and how an update's body
// takes only what changed.

// chosenString is an optional attribute the service chooses when the configuration omits it:
// unknown until the object is created, then kept, as an update leaves out what it does not change.
func chosenString(desc string, v ...validator.String) schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true, Computed: true, MarkdownDescription: desc, Validators: v,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// keptString is a computed attribute no write of the object's fields changes: it keeps its value in
// the plan of an update.
func keptString(desc string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: desc,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
}

// ifChanged calls set when the planned value is known and differs from the state's: an update
// sends only the fields that change.
func ifChanged(planned, state attr.Value, set func()) {
	if !planned.IsUnknown() && !planned.Equal(state) {
		set()
	}
}

// knownLink is the link a create sends (a release pipeline, a targeting gate): the id a known,
// non-null attribute names, else left out.
func knownLink(s types.String) console.Link {
	if s.IsNull() || s.IsUnknown() {
		return console.Link{}
	}
	return console.LinkTo(s.ValueString())
}

// plannedLink is the link an update sends for an attribute whose planned value changed: the id the
// plan names, or, where it names none, the link cleared (null: "" would name an object the service
// does not have).
func plannedLink(planned types.String) console.Link {
	if planned.IsNull() {
		return console.Unlinked()
	}
	return console.LinkTo(planned.ValueString())
}

// maxDescription is the service's longest description of a gate, a config or an experiment.
const maxDescription = 1000

func sameStringSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// knownPointer returns a known, non-null string's value, else nil (left out of the request).
func knownPointer(s types.String) *string {
	if s.IsNull() || s.IsUnknown() {
		return nil
	}
	return s.ValueStringPointer()
}

// knownTags returns a known set's strings ([] for an empty one), else nil (left out of the request).
func knownTags(ctx context.Context, s types.Set) (*[]string, diag.Diagnostics) {
	if s.IsNull() || s.IsUnknown() {
		return nil, nil
	}
	tags := []string{}
	diags := s.ElementsAs(ctx, &tags, false)
	return &tags, diags
}
