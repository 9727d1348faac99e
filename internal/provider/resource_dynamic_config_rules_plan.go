// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/valueschema"
)

// checkReturnValues is the config rules' plan check (rulesTarget.checkPlan): each rule's return
// value against the config's schema, the one this plan gives featureconsole_dynamic_config (planned
// first, as config_id refers to it), else the one the service holds. One error per value that
// breaks it, on that rule's return_value.
func checkReturnValues(ctx context.Context, data *providerData, m rulesModel, diags *diag.Diagnostics) {
	plan, isConfig := m.(*configRulesModel)
	if !isConfig || data == nil {
		return
	}
	id, ok := framework.KnownString(plan.ConfigID)
	if !ok || !framework.ElementsKnown(plan.Rules) {
		return
	}
	ps, planned := data.schemas.get(id)
	if planned && !ps.known {
		return // the schema is known only after apply: the service checks the values then
	}
	raw, from := ps.raw, "the schema this plan gives featureconsole_dynamic_config"
	if !planned {
		if data.client == nil {
			return
		}
		c, err := data.client.GetDynamicConfig(ctx, id)
		if console.NotFound(err) {
			return // reported on apply, naming what to do
		}
		if err != nil {
			framework.APIFailure{Op: "read", Object: fmt.Sprintf("dynamic config %q", id)}.Add(ctx, diags, nil, err)
			return
		}
		// Planned without the config (a literal config_id, or the config not in this configuration):
		// a schema change this plan makes is not known here.
		raw, from = []byte(c.Schema), "the schema the service holds for the config (if this plan changes the config's "+
			"schema, reference the config as config_id = featureconsole_dynamic_config.<name>.config_id, so that Terraform "+
			"plans the config first and the values are checked against its new schema)"
	}
	rules, d := ruleModels(ctx, plan.Rules)
	diags.Append(d...)
	if d.HasError() {
		return
	}
	check := func(s *valueschema.Schema, from string, diags *diag.Diagnostics) {
		for i, m := range rules {
			if !m.ReturnValue.IsUnknown() {
				value, _ := framework.KnownJSON(m.ReturnValue)
				checkValue(s, value, path.Root("rules").AtListIndex(i).AtName("return_value"),
					fmt.Sprintf("Return value of rule %q", m.Name.ValueString()), fmt.Sprintf("rules[%d].return_value", i), from, diags)
			}
			checkVariantValues(ctx, s, m, i, from, diags)
		}
	}
	if !planned {
		data.schemas.checkedHeld(id, raw, func(s *valueschema.Schema) bool {
			var d diag.Diagnostics
			check(s, "", &d)
			return !d.HasError()
		})
	}
	if s := compiledSchema(raw); s != nil {
		check(s, from, diags)
	}
}
