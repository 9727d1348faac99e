// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// Ids and names as the service checks them (the service's 2025 documents).

// dottedObjects are a config and a gate whose ids hold dots, as the service allows.
const dottedObjects = `
resource "featureconsole_dynamic_config" "dotted" {
  config_id = "checkout.copy"
  name      = "Checkout copy v1.0"
}

resource "featureconsole_gate" "dotted" {
  gate_id = "new.checkout"
  name    = "New checkout 2.0"
}
`

// A config id and a gate id with dots are declared, applied (the service holds them), plan clean,
// and import by id; destroy deletes them.
func TestAccIDs_dotted(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := providerBlock(url) + dottedObjects
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             resource.ComposeAggregateTestCheckFunc(expectNoMockConfig(m, "checkout.copy"), expectNoMockGate(m, "new.checkout")),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("featureconsole_dynamic_config.dotted", plancheck.ResourceActionCreate),
						plancheck.ExpectResourceAction("featureconsole_gate.dotted", plancheck.ResourceActionCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("featureconsole_dynamic_config.dotted", tfjsonpath.New("id"), knownvalue.StringExact("checkout.copy")),
					statecheck.ExpectKnownValue("featureconsole_gate.dotted", tfjsonpath.New("id"), knownvalue.StringExact("new.checkout")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectMockConfig(m, "checkout.copy", func(c mockconsole.DynamicConfig) error {
						if c.Name != "Checkout copy v1.0" {
							return fmt.Errorf("name %q", c.Name)
						}
						return nil
					}),
					expectMockGate(m, "new.checkout", func(g mockconsole.Gate) error {
						if g.Name != "New checkout 2.0" {
							return fmt.Errorf("name %q", g.Name)
						}
						return nil
					})),
			},
			{
				Config: cfg, ResourceName: "featureconsole_dynamic_config.dotted", ImportState: true, ImportStateId: "checkout.copy",
				ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"},
			},
			{
				Config: cfg, ResourceName: "featureconsole_gate.dotted", ImportState: true, ImportStateId: "new.checkout",
				ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts", "archive_on_destroy"},
			},
		},
	})
}

// Under Terraform 1.12+, identity carries the dotted ids, and import blocks by identity and by id
// take them.
func TestAccIDs_dottedIdentity(t *testing.T) {
	_, url := startMock(t, mockconsole.Config{})
	cfg := providerBlock(url) + dottedObjects
	var steps []resource.TestStep
	steps = append(steps, resource.TestStep{Config: cfg, ConfigStateChecks: []statecheck.StateCheck{
		statecheck.ExpectIdentity("featureconsole_dynamic_config.dotted", map[string]knownvalue.Check{"config_id": knownvalue.StringExact("checkout.copy")}),
		statecheck.ExpectIdentity("featureconsole_gate.dotted", map[string]knownvalue.Check{"gate_id": knownvalue.StringExact("new.checkout")}),
	}})
	for _, addr := range []string{"featureconsole_dynamic_config.dotted", "featureconsole_gate.dotted"} {
		for _, kind := range []resource.ImportStateKind{resource.ImportBlockWithResourceIdentity, resource.ImportBlockWithID} {
			steps = append(steps, resource.TestStep{Config: cfg, ResourceName: addr, ImportState: true, ImportStateKind: kind})
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   cliCan(featIdentity),
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// Names with letters the service refuses (`Größe`) fail the plan at the attribute, for gates,
// configs and segments alike, and nothing is sent.
func TestAccNames_refusedAtPlan(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	var steps []resource.TestStep
	for _, c := range []struct{ block, want string }{
		{`resource "featureconsole_gate" "x" {
  gate_id = "tfacc_size"
  name    = "Größe"
}`, `name must be 3 to 100 characters of letters A-Z and a-z, digits, spaces, '_', '-' and '.'`},
		{`resource "featureconsole_dynamic_config" "x" {
  config_id = "tfacc_size"
  name      = "Größe"
}`, `name must be 3 to 100 characters of letters A-Z and a-z, digits, spaces, '_', '-' and '.'`},
		{`resource "featureconsole_segment" "x" {
  segment_id = "tfacc_size"
  name       = "Größe"
  type       = "id_list"
}`, `name must be 3 to 100 characters of letters A-Z and a-z, digits, spaces, '_' and '-'`},
		{`resource "featureconsole_segment" "x" {
  segment_id = "tfacc.size"
  type       = "id_list"
}`, `segment_id must be 3 to 100 characters of letters A-Z and a-z, digits, '_' and '-'`},
	} {
		steps = append(steps, resource.TestStep{
			Config: providerBlock(url) + c.block, PlanOnly: true,
			ExpectError: wrapped("Character the service does not accept", c.want, "which the service refuses"),
		})
	}
	steps[0].PreConfig = m.ResetRequests
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
		CheckDestroy: func(*terraform.State) error {
			if reqs := m.Requests(); len(reqs) > 0 {
				return fmt.Errorf("refused names reached the mock: %d requests, first %s %s", len(reqs), reqs[0].Method, reqs[0].Path)
			}
			return nil
		},
	})
}
