// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

func NewGateList() list.ListResource {
	return newPagedList(pagedListSpec[console.Gate, gateListModel]{
		typeName: "gate",
		description: "Lists the gates of the project, one `featureconsole_gate` per gate, identified by `gate_id` and " +
			"displayed by name. With `include_resource = true` each result carries the whole gate, read from the list " +
			"pages themselves (`GET /gates`), not one read per gate.",
		config: map[string]listschema.Attribute{
			"tags":             tagsFilterAttribute("gate"),
			"include_archived": includeArchivedAttribute(),
		},
		filter: gateFilter,
		listOptions: func(cfg *gateListModel, opts *console.ListOptions) {
			opts.IncludeArchived = cfg.IncludeArchived.ValueBool()
		},
		pages:        (*console.Client).EachGatesPage,
		failure:      framework.APIFailure{Op: "list", Object: "gates"},
		identityAttr: gateIdentityAttr,
		identify:     func(g *console.Gate) (string, string) { return nameOrID(g.ID, g.Name) },
		model: func(_ context.Context, g *console.Gate, nullTO timeouts.Value) (any, diag.Diagnostics) {
			m := gateModel{Timeouts: nullTO}
			flattenGateFields(g, &m)
			return &m, nil
		},
	})
}

type gateListModel struct {
	Tags            types.List `tfsdk:"tags"`
	IncludeArchived types.Bool `tfsdk:"include_archived"`
}

// gateFilter keeps the gates that carry every tag asked for; without tags it keeps every gate (nil),
// so that the service's pages stop at the limit.
func gateFilter(ctx context.Context, cfg *gateListModel) (func(*console.Gate) bool, diag.Diagnostics) {
	return gateRulesFilter(ctx, &gateRulesListModel{Tags: cfg.Tags, IncludeEmpty: types.BoolValue(true)})
}

// gateRulesListModel is the configuration of the featureconsole_gate_rules list. It lives here, with
// its filter, because the gate list filters through it too (gateFilter), and list_gate_rules.go
// builds on both.
type gateRulesListModel struct {
	Tags            types.List `tfsdk:"tags"`
	IncludeEmpty    types.Bool `tfsdk:"include_empty"`
	IncludeArchived types.Bool `tfsdk:"include_archived"`
}

// gateRulesFilter keeps the gates with rules (all of them with include_empty) that carry every tag
// asked for; when that is every gate it says so (nil), so that the service's pages stop at the limit.
func gateRulesFilter(ctx context.Context, cfg *gateRulesListModel) (func(*console.Gate) bool, diag.Diagnostics) {
	tags, diags := wantedTags(ctx, cfg.Tags)
	if diags.HasError() {
		return nil, diags
	}
	includeEmpty := cfg.IncludeEmpty.ValueBool()
	if len(tags) == 0 && includeEmpty {
		return nil, nil
	}
	return func(g *console.Gate) bool { return (includeEmpty || len(g.Rules) > 0) && hasEveryTag(g.Tags, tags) }, nil
}

// includeArchivedAttribute returns the include_archived filter of the lists of gates.
func includeArchivedAttribute() listschema.BoolAttribute {
	return listschema.BoolAttribute{
		Optional: true,
		MarkdownDescription: "Also list archived gates. Defaults to `false`: archived gates are left out, as the " +
			"console's list of gates leaves them out.",
	}
}
