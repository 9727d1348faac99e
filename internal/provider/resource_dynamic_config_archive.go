// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// Archived configs (PUT /dynamic_configs/{id}/archive), as archived gates (resource_gate_archive.go):
// `archived` is the desired state, so a config archived in the console is brought back by apply
// before any other write of it (the service refuses writes of an archived config's fields and
// rules); `archive_on_destroy` makes destroy archive the config, keeping it with its rules.

// configArchiveAttributes are `archived` and `archive_on_destroy` of featureconsole_dynamic_config.
func configArchiveAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"archived": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "Whether the config is archived. An archived config keeps its rules and history, and " +
				"neither its fields nor its rules can change until it is unarchived. `true` archives the config, `false` " +
				"(the default) unarchives it: a config archived in the console shows as `archived = true -> false`, and " +
				"apply unarchives it before any other change of the config or its rules. Updated in place.",
		},
		"archive_on_destroy": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "What destroy does with the config: `false` (the default) deletes it with its rules; " +
				"`true` archives it instead and leaves it in the console with its rules and history. A config already " +
				"archived is left as it is. Terraform destroys a `featureconsole_dynamic_config_rules` of the config " +
				"before the config, which removes the rules: set that resource's `keep_on_destroy` to this value " +
				"(`keep_on_destroy = featureconsole_dynamic_config.<name>.archive_on_destroy`) to keep them. Changing it " +
				"sends no request: it only changes what a later destroy does.",
		},
	}
}

// setArchived archives (archive) or unarchives the config.
func (r *dynamicConfigResource) setArchived(ctx context.Context, id string, archive bool) (*console.DynamicConfig, error) {
	if archive {
		return r.data.client.ArchiveDynamicConfig(ctx, id)
	}
	return r.data.client.UnarchiveDynamicConfig(ctx, id)
}

// archiveOnDestroy archives the config that destroy keeps (archive_on_destroy). A config already
// archived is done, and so is one the service refuses to archive again once a read shows it
// archived (archived since the refresh).
func (r *dynamicConfigResource) archiveOnDestroy(ctx context.Context, op *framework.Operation, id string, archived bool, diags *diag.Diagnostics) {
	if archived {
		return
	}
	_, err := r.setArchived(ctx, id, true)
	if err == nil || console.NotFound(err) {
		return
	}
	if console.Refused(err) {
		if c, gerr := r.data.client.GetDynamicConfig(ctx, id); gerr == nil && c.Archived() {
			return
		}
	}
	configArchiveFailure(id, true).Add(ctx, diags, op, err)
}

// configArchiveFailure names a failed archive or unarchive of a config in its diagnostic.
func configArchiveFailure(id string, archive bool) framework.APIFailure {
	verb := "unarchive"
	if archive {
		verb = "archive"
	}
	return framework.APIFailure{Op: verb, Object: fmt.Sprintf("dynamic config %q", id)}
}

// addArchivedConfigWriteError reports a write of a config's fields or rules that the service refused
// because the config is archived, and reports whether it did (archivedWrite).
func addArchivedConfigWriteError(ctx context.Context, client *console.Client, diags *diag.Diagnostics, id string, write framework.APIFailure, op *framework.Operation, err error) bool {
	return configArchivedWrite.add(ctx, diags, id, write, op, err, func() bool {
		c, gerr := client.GetDynamicConfig(ctx, id)
		return gerr == nil && c.Archived()
	})
}

var configArchivedWrite = archivedWrite{
	kind: "Dynamic config", noun: "dynamic config", ownType: "featureconsole_dynamic_config",
	rulesType: "featureconsole_dynamic_config_rules", idAttr: "config_id",
	refused: "The service refuses changes of an archived config's fields and rules.",
	leftInPlace: "The config is archived, and the service refuses changes of an archived config's rules. They are " +
		"deleted with the config, or kept with it while it stays archived. Terraform no longer manages them.",
	before: "any other write of the config, and before ",
}
