// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

func NewDynamicConfigRulesList() list.ListResource {
	spec := configListSpec("dynamic_config_rules", "Lists the dynamic configs of the project with their rules, one "+
		"`featureconsole_dynamic_config_rules` per config, identified by `config_id`; the display name is the config id. "+
		"With `include_resource = true` each result carries the config's rules and their return values, read from the "+
		"list pages themselves.")
	spec.identify = func(c *console.DynamicConfig) (string, string) { return c.ID, c.ID }
	spec.model = func(ctx context.Context, c *console.DynamicConfig, nullTO timeouts.Value) (any, diag.Diagnostics) {
		m := configRulesModel{ConfigID: types.StringValue(c.ID), rulesFields: rulesFields{Timeouts: nullTO}}
		diags := flattenConfigRules(ctx, c.Rules, &m, nil)
		if diags.HasError() {
			diags.AddError(fmt.Sprintf("Unable to list dynamic config %q", c.ID), "The config's rules could not be read (see above).")
		}
		return &m, diags
	}
	return newPagedList(spec)
}
