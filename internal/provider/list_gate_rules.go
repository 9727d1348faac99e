// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

var _ list.ListResourceWithConfigure = &gateRulesList{}

func NewGateRulesList() list.ListResource {
	return &gateRulesList{resourceData{typeName: "gate_rules"}}
}

type gateRulesList struct{ resourceData }

type gateRulesListModel struct {
	Tags         types.List `tfsdk:"tags"`
	IncludeEmpty types.Bool `tfsdk:"include_empty"`
}

func (l *gateRulesList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the gates of the project with their rules, one `featureconsole_gate_rules` per gate, " +
			"identified by `gate_id`; the display name is the gate id. With `include_resource = true` each result " +
			"carries the gate's rules, read from the list pages themselves (`GET /gates`), not one read per gate.",
		Attributes: map[string]listschema.Attribute{
			"tags": listschema.ListAttribute{
				Optional:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "Only gates carrying every tag listed. Omit for every gate.",
			},
			"include_empty": listschema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Also list gates that have no rules (a `featureconsole_gate_rules` with `rules = []`). " +
					"Defaults to `false`: they are left out.",
			},
		},
	}
}

func (l *gateRulesList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg gateRulesListModel
	if d := req.Config.Get(ctx, &cfg); d.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(d)
		return
	}
	client, nullTO, ok := listSetup(ctx, req, stream, l.data)
	if !ok {
		return
	}
	var tags []string
	if isKnownList(cfg.Tags) {
		if d := cfg.Tags.ElementsAs(ctx, &tags, false); d.HasError() {
			stream.Results = list.ListResultsStreamDiagnostics(d)
			return
		}
	}
	includeEmpty := cfg.IncludeEmpty.ValueBool()

	// Without a filter the service's page can stop at the limit; with one, pages are read until
	// enough gates pass it.
	opts := console.ListOptions{}
	if len(tags) == 0 && includeEmpty {
		opts.MaxRecords = int(req.Limit)
	}
	stream.Results = listStream(req.Limit, apiFailure{"list", "gates"},
		func(fn func([]console.Gate) error) error { return client.EachGatesPage(ctx, opts, fn) },
		func(g console.Gate) (list.ListResult, bool) {
			if (!includeEmpty && len(g.Rules) == 0) || !hasEveryTag(g.Tags, tags) {
				return list.ListResult{}, false
			}
			return listedResult(ctx, req, gateIdentityAttr, g.ID, g.ID, func() (any, diag.Diagnostics) {
				m := gateRulesModel{GateID: types.StringValue(g.ID), Timeouts: nullTO}
				diags := flattenGate(ctx, &g, &m, nil)
				if diags.HasError() {
					diags.AddError(fmt.Sprintf("Unable to list gate %q", g.ID), "The gate's rules could not be read (see above).")
				}
				return &m, diags
			})
		})
}

func hasEveryTag(have, want []string) bool {
	for _, t := range want {
		if !slices.Contains(have, t) {
			return false
		}
	}
	return true
}
