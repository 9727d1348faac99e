// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

func NewTagList() list.ListResource {
	return newPagedList(pagedListSpec[console.Tag, struct{}]{
		typeName:     "tag",
		description:  "Lists the tags of the project (`GET /tags`), identified by id and displayed by name. Takes no filter.",
		pages:        (*console.Client).EachTagsPage,
		failure:      framework.APIFailure{Op: "list", Object: "tags"},
		identityAttr: tagIdentityAttr,
		identify:     func(t *console.Tag) (string, string) { return nameOrID(t.ID, t.Name) },
		model: func(_ context.Context, obj *console.Tag, nullTO timeouts.Value) (any, diag.Diagnostics) {
			m := tagModel{Description: types.StringNull(), Timeouts: nullTO}
			flattenTag(obj, &m)
			return &m, nil
		},
	})
}
