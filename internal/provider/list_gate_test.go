// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The list resources leave archived gates out unless include_archived is set (Terraform 1.14+).
func TestAccGate_listIncludeArchived(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	m.PutGate(mockconsole.Gate{ID: "live_gate", Rules: []mockconsole.Rule{{Name: "r", PassPercentage: 1}}})
	m.PutGate(mockconsole.Gate{ID: "old_gate", Rules: []mockconsole.Rule{{Name: "r", PassPercentage: 1}}})
	if err := m.ArchiveGateInConsole("old_gate"); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, queryTestCase(t, providerBlock(url),
		resource.TestStep{
			Query: true,
			Config: `
list "featureconsole_gate" "default" {
  provider = featureconsole
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("featureconsole_gate.default", 1),
				querycheck.ExpectIdentity("featureconsole_gate.default", map[string]knownvalue.Check{"gate_id": knownvalue.StringExact("live_gate")}),
			},
		},
		resource.TestStep{
			Query: true,
			Config: `
list "featureconsole_gate" "all" {
  provider         = featureconsole
  include_resource = true
  config {
    include_archived = true
  }
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("featureconsole_gate.all", 2),
				querycheck.ExpectResourceKnownValues("featureconsole_gate.all", byGate("old_gate"), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("archived"), KnownValue: knownvalue.Bool(true)},
					{Path: tfjsonpath.New("archive_on_destroy"), KnownValue: knownvalue.Bool(false)},
				}),
			},
		},
		resource.TestStep{
			Query: true,
			Config: `
list "featureconsole_gate_rules" "default" {
  provider = featureconsole
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("featureconsole_gate_rules.default", 1),
			},
		},
		resource.TestStep{
			Query: true,
			Config: `
list "featureconsole_gate_rules" "all" {
  provider = featureconsole
  config {
    include_archived = true
  }
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("featureconsole_gate_rules.all", 2),
				querycheck.ExpectIdentity("featureconsole_gate_rules.all", map[string]knownvalue.Check{"gate_id": knownvalue.StringExact("old_gate")}),
			},
		},
	))
}
