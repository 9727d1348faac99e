// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"strings"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

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
