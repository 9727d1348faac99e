// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

const tagAddr = "featureconsole_tag.team"

// onlyTag is the one tag the mock holds.
func onlyTag(m *mockconsole.Server) (mockconsole.Tag, error) {
	ids := m.TagIDs()
	if len(ids) != 1 {
		return mockconsole.Tag{}, fmt.Errorf("the mock holds %d tags, want 1", len(ids))
	}
	t, _ := m.Tag(ids[0])
	return t, nil
}

func noTags(m *mockconsole.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if ids := m.TagIDs(); len(ids) > 0 {
			return fmt.Errorf("destroy left tags %v in the mock", ids)
		}
		return nil
	}
}

// TestAccTag_lifecycle: created as written, updated in place (description, is_core, name), imported
// by id, destroyed.
func TestAccTag_lifecycle(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	config := func(name, description string, core bool) string {
		return providerBlock(url) + fmt.Sprintf(`
resource "featureconsole_tag" "team" {
  name        = %q
  description = %q
  is_core     = %t
}
`, name, description, core)
	}
	expect := func(name, description string, core bool) resource.TestCheckFunc {
		return func(*terraform.State) error {
			tag, err := onlyTag(m)
			if err == nil && (tag.Name != name || tag.Description != description || tag.IsCore != core) {
				err = fmt.Errorf("the mock holds %+v", tag)
			}
			return err
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             noTags(m),
		Steps: []resource.TestStep{
			{
				Config: config("checkout_team", "the checkout team's", false),
				Check:  expect("checkout_team", "the checkout team's", false),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownValue(tagAddr, tfjsonpath.New("id"))},
				},
			},
			{
				Config: config("tfacc_checkout", "owned by checkout", true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tagAddr, plancheck.ResourceActionUpdate),
				}},
				Check: expect("tfacc_checkout", "owned by checkout", true),
			},
			// The document's examples give no description: imported then, it is null until applied.
			{ResourceName: tagAddr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: importIgnored(t, "description")},
			{
				// Changed in the console: the plan puts it back.
				PreConfig: func() {
					tag, _ := onlyTag(m)
					tag.IsCore = false
					m.PutTag(tag)
				},
				Config: config("tfacc_checkout", "owned by checkout", true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tagAddr, plancheck.ResourceActionUpdate),
				}},
				Check: expect("tfacc_checkout", "owned by checkout", true),
			},
		},
	})
}

// TestAccTag_inUse: a gate carries the tag by reference; a destroy of the tag while a gate still
// carries it fails naming the gate, and succeeds once the gate no longer does.
func TestAccTag_inUse(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	tag := `
resource "featureconsole_tag" "team" {
  name = "tfacc_team"
}
`
	gate := func(tags string) string {
		return fmt.Sprintf(`
resource "featureconsole_gate" "g" {
  gate_id = "tfacc_tag_user"
  tags    = %s
}
`, tags)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             noTags(m),
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + tag + gate("[featureconsole_tag.team.name]"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("featureconsole_gate.g", tfjsonpath.New("tags"),
						knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("tfacc_team")})),
				},
			},
			{
				// The tag goes, the gate keeps it: the service refuses, and the error names the gate.
				Config:      providerBlock(url) + gate(`["tfacc_team"]`),
				ExpectError: regexp.MustCompile(`(?s)Unable to delete tag "tfacc_team".*in use.*gate "tfacc_tag_user"`),
			},
			{
				Config: providerBlock(url) + tag + gate("[]"),
				Check: func(*terraform.State) error {
					if _, err := onlyTag(m); err != nil {
						return err
					}
					return nil
				},
			},
		},
	})
}

// importIgnored is what an import cannot verify: timeouts, and under the habit ExampleForms the
// fields the document's examples leave out.
func importIgnored(t *testing.T, leftOutByExamples ...string) []string {
	if envHabits(t).ExampleForms {
		return append([]string{"timeouts"}, leftOutByExamples...)
	}
	return []string{"timeouts"}
}
