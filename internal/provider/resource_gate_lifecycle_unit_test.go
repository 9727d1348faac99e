// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// A stale gate reads as declared (TEMPORARY) with its reason, an archived one as archived;
// archive_on_destroy is Terraform's own: kept as it is, false where nothing set it.
func TestFlattenGateFields_staleAndArchived(t *testing.T) {
	var m gateModel
	flattenGateFields(&console.Gate{ID: "g_1", Type: "STALE", TypeReason: "STALE_NO_RULES", Status: "Archived"}, &m)
	if m.Type.ValueString() != "TEMPORARY" || m.TypeReason.ValueString() != "STALE_NO_RULES" || !m.Archived.ValueBool() ||
		m.ArchiveOnDestroy.IsNull() || m.ArchiveOnDestroy.ValueBool() {
		t.Errorf("flattened %+v", m)
	}
	m.ArchiveOnDestroy = types.BoolValue(true)
	flattenGateFields(&console.Gate{ID: "g_1", Type: "PERMANENT", Status: "In Progress"}, &m)
	if m.Type.ValueString() != "PERMANENT" || m.TypeReason.ValueString() != "NONE" || m.Archived.ValueBool() || !m.ArchiveOnDestroy.ValueBool() {
		t.Errorf("flattened %+v", m)
	}
}

// The "already exists" error of a create that met an archived gate says so and how to bring it back.
func TestExistsArchived(t *testing.T) {
	err := error(&objectExistsError{creation: gateCreation, id: "g_1", cause: &console.APIError{StatusCode: 400}})
	existsArchived(err)
	msg := err.Error()
	for _, want := range []string{`A gate with id "g_1" already exists in the console, archived,`, `terraform import featureconsole_gate`, "`archived = true -> false`"} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing %q in:\n%s", want, msg)
		}
	}
}
