// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// One rule as Terraform holds it (rules.go converts it to and from the service, rule_variants.go its
// variants), and the matching by name and the written forms that both keep.

type ruleModel struct {
	ID             types.String        `tfsdk:"id"`
	BaseID         types.String        `tfsdk:"base_id"`
	Name           types.String        `tfsdk:"name"`
	PassPercentage types.Number        `tfsdk:"pass_percentage"`
	Environments   types.List          `tfsdk:"environments"`
	Conditions     types.List          `tfsdk:"conditions"`
	ReturnValue    framework.JSONValue `tfsdk:"return_value"`
	// ScheduledRollouts is the service's, read-only: never sent back.
	ScheduledRollouts types.List `tfsdk:"scheduled_rollouts"`
	// Variants are a config rule's (rule_variants.go: ruleModels and ruleList carry them between the
	// rule and its object); null for every other rule.
	Variants types.List `tfsdk:"-"`
}

// nameIndex is the one way rules (and a rule's variants) are matched by name to earlier ones (the
// prior state's, the hints of a read): the first of a name wins, and each is taken once.
type nameIndex map[string]int

// indexByName indexes n items by the names name gives (false: an item without a known name).
func indexByName(n int, name func(i int) (string, bool)) nameIndex {
	idx := nameIndex{}
	for i := n - 1; i >= 0; i-- {
		if s, ok := name(i); ok {
			idx[s] = i
		}
	}
	return idx
}

// take returns the index of the item named name and forgets it, so that each is matched once.
func (x nameIndex) take(name string) (int, bool) {
	i, ok := x[name]
	delete(x, name)
	return i, ok
}

// heldPercent is a percentage the service holds, as the hint writes it when it is the same: they
// compare by value at their two decimals (33.330000000000005 is 33.33).
func heldPercent(held float64, hint types.Number) types.Number {
	if hb := hint.ValueBigFloat(); hb != nil && !hint.IsUnknown() {
		if f, _ := hb.Float64(); framework.RoundPercentage(f) == framework.RoundPercentage(held) {
			return hint
		}
	}
	return framework.PercentFromFloat(held)
}

// heldJSON is a JSON value the service holds, as the hint writes it (the configuration's formatting
// and key order) when it means the same.
func heldJSON(ctx context.Context, held json.RawMessage, hint framework.JSONValue) framework.JSONValue {
	v := framework.NewJSONValue(framework.CanonicalJSON(held))
	if !hint.IsNull() && !hint.IsUnknown() {
		if eq, _ := hint.StringSemanticEquals(ctx, v); eq {
			return hint
		}
	}
	return v
}

func fullyKnown(ctx context.Context, values ...attr.Value) bool {
	for _, v := range values {
		tv, err := v.ToTerraformValue(ctx)
		if err != nil || !tv.IsFullyKnown() {
			return false
		}
	}
	return true
}
