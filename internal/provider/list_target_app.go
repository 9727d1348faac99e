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

func NewTargetAppList() list.ListResource {
	return newPagedList(pagedListSpec[console.TargetApp, struct{}]{
		typeName: "target_app",
		description: "Lists the target apps of the project (`GET /target_app`), identified by id and displayed by name. " +
			"Takes no filter. The listing gives no description: with `include_resource = true` each result has none.",
		pages:        (*console.Client).EachTargetAppsPage,
		failure:      framework.APIFailure{Op: "list", Object: "target apps"},
		identityAttr: targetAppIdentityAttr,
		identify:     func(a *console.TargetApp) (string, string) { return nameOrID(a.ID, a.Name) },
		model: func(_ context.Context, obj *console.TargetApp, nullTO timeouts.Value) (any, diag.Diagnostics) {
			m := targetAppModel{Description: types.StringNull(), Timeouts: nullTO}
			flattenTargetApp(obj, &m)
			return &m, nil
		},
	})
}
