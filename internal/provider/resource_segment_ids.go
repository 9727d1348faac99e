// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// A segment's ids are a set whose order is never compared (DESIGN.md §4), held in a list: the
// framework's own set compares a set read back with the state element against element, which a
// list of 100,000 ids cannot afford. Two lists of the same ids are the same value by meaning
// (semantic equality, O(n) with a map), which keeps the prior order wherever the framework compares
// what comes back with what it had (Read, Create, Update); and the plan keeps the state's order
// when the configuration lists the same ids in another (sameIDsKeepState), which semantic equality
// cannot do, as the framework does not run it when planning.

// segmentIDsType is the type of featureconsole_segment.ids: a list of strings compared as a set.
type segmentIDsType struct{ basetypes.ListType }

var (
	_ basetypes.ListTypable                    = segmentIDsType{}
	_ basetypes.ListValuableWithSemanticEquals = segmentIDs{}
	_ planmodifier.List                        = sameIDsKeepState{}
)

func newSegmentIDsType() segmentIDsType {
	return segmentIDsType{basetypes.ListType{ElemType: types.StringType}}
}

func (t segmentIDsType) Equal(o attr.Type) bool {
	other, ok := o.(segmentIDsType)
	return ok && t.ListType.Equal(other.ListType)
}

func (t segmentIDsType) String() string { return "segmentIDsType" }

func (t segmentIDsType) ValueFromList(_ context.Context, in basetypes.ListValue) (basetypes.ListValuable, diag.Diagnostics) {
	return segmentIDs{in}, nil
}

func (t segmentIDsType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	v, err := t.ListType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	l, ok := v.(basetypes.ListValue)
	if !ok {
		return nil, fmt.Errorf("unexpected value type %T", v)
	}
	return segmentIDs{l}, nil
}

func (t segmentIDsType) ValueType(context.Context) attr.Value { return segmentIDs{} }

// segmentIDs is a value of segmentIDsType.
type segmentIDs struct{ basetypes.ListValue }

func segmentIDsNull() segmentIDs { return segmentIDs{types.ListNull(types.StringType)} }

// segmentIDsOf returns ids as a value; nil and empty are both [].
func segmentIDsOf(ids []string) segmentIDs { return segmentIDs{framework.StringList(ids)} }

func (v segmentIDs) Type(context.Context) attr.Type { return newSegmentIDsType() }

func (v segmentIDs) Equal(o attr.Value) bool {
	other, ok := o.(segmentIDs)
	return ok && v.ListValue.Equal(other.ListValue)
}

// ListSemanticEquals reports the same ids, in whatever order.
func (v segmentIDs) ListSemanticEquals(ctx context.Context, prior basetypes.ListValuable) (bool, diag.Diagnostics) {
	p, diags := prior.ToListValue(ctx)
	return !diags.HasError() && sameIDSet(v.ListValue, p), diags
}

// sameIDSet reports two known lists holding the same strings, each once (the configuration's ids
// are unique, and so are the service's), in any order.
func sameIDSet(a, b basetypes.ListValue) bool {
	if a.IsNull() || a.IsUnknown() || b.IsNull() || b.IsUnknown() {
		return false
	}
	ae, be := a.Elements(), b.Elements()
	if len(ae) != len(be) {
		return false
	}
	if a.Equal(b) {
		return true // the same order: no map needed
	}
	held := make(map[string]struct{}, len(ae))
	for _, e := range ae {
		s, ok := e.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			return false
		}
		held[s.ValueString()] = struct{}{}
	}
	if len(held) != len(ae) {
		return false
	}
	for _, e := range be {
		s, ok := e.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			return false
		}
		if _, ok := held[s.ValueString()]; !ok {
			return false
		}
	}
	return true
}

// sameIDsKeepState plans the state's ids when the configuration lists the same ids in another
// order: Terraform accepts a planned value equal to the prior one in place of the configuration's,
// and the plan then shows no change. Other ids are planned as configured.
type sameIDsKeepState struct{}

func (sameIDsKeepState) Description(context.Context) string {
	return "the same ids in another order plan no change"
}

func (m sameIDsKeepState) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (sameIDsKeepState) PlanModifyList(_ context.Context, req planmodifier.ListRequest, resp *planmodifier.ListResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return // create or destroy
	}
	if !req.PlanValue.Equal(req.StateValue) && sameIDSet(req.PlanValue, req.StateValue) {
		resp.PlanValue = req.StateValue
	}
}
