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
)

func NewDynamicConfigList() list.ListResource {
	return newPagedList(pagedListSpec[console.DynamicConfig, configListModel]{
		typeName: "dynamic_config",
		description: "Lists the dynamic configs of the project, one `featureconsole_dynamic_config` per config, identified " +
			"by `config_id` and displayed by name. With `include_resource = true` each result carries the whole config, " +
			"its default value and schema included, read from the list pages themselves, not one read per config.",
		config:       map[string]listschema.Attribute{"tags": configTagsFilterAttribute()},
		filter:       configFilter,
		pages:        (*console.Client).EachDynamicConfigsPage,
		failure:      apiFailure{"list", "dynamic configs"},
		identityAttr: configIdentityAttr,
		identify: func(c *console.DynamicConfig) (string, string) {
			if isBlank(c.Name) {
				return c.ID, c.ID
			}
			return c.ID, c.Name
		},
		model: func(_ context.Context, c *console.DynamicConfig, nullTO timeouts.Value) (any, diag.Diagnostics) {
			m := dynamicConfigModel{ID: types.StringValue(c.ID), Timeouts: nullTO}
			flattenConfigFields(c, &m.dynamicConfigFields)
			return &m, nil
		},
	})
}

type configListModel struct {
	Tags types.List `tfsdk:"tags"`
}

// configFilter keeps the configs that carry every tag asked for; without tags every config (nil),
// so that the service's pages stop at the limit.
func configFilter(ctx context.Context, cfg *configListModel) (func(*console.DynamicConfig) bool, diag.Diagnostics) {
	var tags []string
	if isKnownList(cfg.Tags) {
		if d := cfg.Tags.ElementsAs(ctx, &tags, false); d.HasError() {
			return nil, d
		}
	}
	if len(tags) == 0 {
		return nil, nil
	}
	return func(c *console.DynamicConfig) bool { return hasEveryTag(c.Tags, tags) }, nil
}

func configTagsFilterAttribute() listschema.ListAttribute {
	return listschema.ListAttribute{
		Optional: true, ElementType: types.StringType,
		MarkdownDescription: "Only configs carrying every tag listed. Omit for every config.",
	}
}
