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

func NewDynamicConfigList() list.ListResource {
	spec := configListSpec("dynamic_config", "Lists the dynamic configs of the project, one `featureconsole_dynamic_config` "+
		"per config, identified by `config_id` and displayed by name. With `include_resource = true` each result carries "+
		"the whole config, its default value and schema included, read from the list pages themselves, not one read per config.")
	spec.identify = func(c *console.DynamicConfig) (string, string) { return nameOrID(c.ID, c.Name) }
	spec.model = func(_ context.Context, c *console.DynamicConfig, nullTO timeouts.Value) (any, diag.Diagnostics) {
		m := dynamicConfigModel{Timeouts: nullTO}
		m.flatten(c)
		return &m, nil
	}
	return newPagedList(spec)
}

// configListSpec is what the list resources of dynamic configs (featureconsole_dynamic_config and
// featureconsole_dynamic_config_rules) share: the tags filter and the listing of configs; each adds
// how a config is identified and built.
func configListSpec(typeName, description string) pagedListSpec[console.DynamicConfig, configListModel] {
	return pagedListSpec[console.DynamicConfig, configListModel]{
		typeName:     typeName,
		description:  description,
		config:       map[string]listschema.Attribute{"tags": tagsFilterAttribute("config")},
		filter:       configFilter,
		pages:        (*console.Client).EachDynamicConfigsPage,
		failure:      framework.APIFailure{Op: "list", Object: "dynamic configs"},
		identityAttr: configIdentityAttr,
	}
}

type configListModel struct {
	Tags types.List `tfsdk:"tags"`
}

// configFilter keeps the configs that carry every tag asked for; without tags every config (nil),
// so that the service's pages stop at the limit.
func configFilter(ctx context.Context, cfg *configListModel) (func(*console.DynamicConfig) bool, diag.Diagnostics) {
	tags, diags := wantedTags(ctx, cfg.Tags)
	if len(tags) == 0 {
		return nil, diags
	}
	return func(c *console.DynamicConfig) bool { return hasEveryTag(c.Tags, tags) }, nil
}
