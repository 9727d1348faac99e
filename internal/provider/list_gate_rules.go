// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

func NewGateRulesList() list.ListResource {
	return newPagedList(pagedListSpec[console.Gate, gateRulesListModel]{
		typeName: "gate_rules",
		description: "Lists the gates of the project with their rules, one `featureconsole_gate_rules` per gate, " +
			"identified by `gate_id`; the display name is the gate id. With `include_resource = true` each result " +
			"carries the gate's rules, read from the list pages themselves (`GET /gates`), not one read per gate.",
		config: map[string]listschema.Attribute{
			"tags": tagsFilterAttribute("gate"),
			"include_empty": listschema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Also list gates that have no rules (a `featureconsole_gate_rules` with `rules = []`). " +
					"Defaults to `false`: they are left out.",
			},
			"include_archived": includeArchivedAttribute(),
		},
		filter: gateRulesFilter,
		listOptions: func(cfg *gateRulesListModel, opts *console.ListOptions) {
			opts.IncludeArchived = cfg.IncludeArchived.ValueBool()
		},
		pages:        (*console.Client).EachGatesPage,
		failure:      framework.APIFailure{Op: "list", Object: "gates"},
		identityAttr: gateIdentityAttr,
		identify:     func(g *console.Gate) (string, string) { return g.ID, g.ID },
		model: func(ctx context.Context, g *console.Gate, nullTO timeouts.Value) (any, diag.Diagnostics) {
			m := gateRulesModel{GateID: types.StringValue(g.ID), rulesFields: rulesFields{Timeouts: nullTO}}
			diags := flattenGate(ctx, g, &m, nil)
			if diags.HasError() {
				diags.AddError(fmt.Sprintf("Unable to list gate %q", g.ID), "The gate's rules could not be read (see above).")
			}
			return &m, diags
		},
	})
}
