// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// Archived configs (PUT /dynamic_configs/{id}/archive), as archived gates (resource_gate_archive.go):
// `archived` is the desired state, so a config archived in the console is brought back by apply
// before any other write of it (the service refuses writes of an archived config's fields and
// rules); `archive_on_destroy` makes destroy archive the config, keeping it with its rules.

// setConfigArchived archives (archive) or unarchives the config.
func setConfigArchived(ctx context.Context, data *providerData, id string, archive bool) (*console.DynamicConfig, error) {
	if archive {
		return data.client.ArchiveDynamicConfig(ctx, id)
	}
	return data.client.UnarchiveDynamicConfig(ctx, id)
}

// archiveConfigOnDestroy archives the config that destroy keeps (archive_on_destroy). A config already
// archived is done, and so is one the service refuses to archive again once a read shows it
// archived (archived since the refresh).
func archiveConfigOnDestroy(ctx context.Context, data *providerData, op *framework.Operation, id string, archived bool, diags *diag.Diagnostics) {
	if archived {
		return
	}
	_, err := setConfigArchived(ctx, data, id, true)
	if err == nil || console.NotFound(err) {
		return
	}
	if console.Refused(err) {
		if c, gerr := data.client.GetDynamicConfig(ctx, id); gerr == nil && c.Archived() {
			return
		}
	}
	configArchiveFailure(id, true).Add(ctx, diags, op, err)
}
