// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

func NewKeyList() list.ListResource {
	return newPagedList(pagedListSpec[console.Key, keyListModel]{
		typeName: "key",
		description: "Lists the keys of the project (`GET /keys`), one `featureconsole_key` per key of a type the resource " +
			"manages (`SERVER`, `CLIENT`, `CONSOLE`), identified by the fingerprint of its secret and displayed by type, " +
			"fingerprint and description. The secret is never in the identity or the display name; with " +
			"`include_resource = true` it is in the resource, as sensitive as in the state.",
		config: map[string]listschema.Attribute{
			"target_app_id": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the keys whose target app is this one. Omit for every key.",
			},
			"environment": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only the keys that serve this environment. Omit for every key.",
			},
		},
		filter: func(_ context.Context, cfg *keyListModel) (func(*console.Key) bool, diag.Diagnostics) {
			app, _ := framework.KnownString(cfg.TargetAppID)
			env, _ := framework.KnownString(cfg.Environment)
			return func(k *console.Key) bool {
				return slices.Contains(keyTypes, k.Type) &&
					(app == "" || framework.Deref(k.PrimaryTargetApp, "") == app) &&
					(env == "" || slices.Contains(k.Environments, env))
			}, nil
		},
		pages: func(c *console.Client, ctx context.Context, opts console.ListOptions, fn func([]console.Key) error) error {
			return c.EachKeysPage(ctx, console.KeyFilter{}, opts, fn)
		},
		failure:      framework.APIFailure{Op: "list", Object: "keys"},
		identityAttr: keyIdentityAttr,
		identify: func(k *console.Key) (string, string) {
			if k.Secret == "" {
				return "", ""
			}
			name := k.String()
			if d := framework.Deref(k.Description, ""); d != "" {
				name += " (" + d + ")"
			}
			return console.Fingerprint(k.Secret), name
		},
		model: func(_ context.Context, obj *console.Key, nullTO timeouts.Value) (any, diag.Diagnostics) {
			m := keyModel{ID: types.StringNull(), RotationTriggers: types.MapNull(types.StringType), Timeouts: nullTO,
				Environments: types.SetNull(types.StringType), SecondaryTargetAppIDs: types.SetNull(types.StringType)}
			flattenKey(obj, &m)
			return &m, nil
		},
	})
}

type keyListModel struct {
	TargetAppID types.String `tfsdk:"target_app_id"`
	Environment types.String `tfsdk:"environment"`
}
