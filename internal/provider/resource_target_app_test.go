// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

const targetAppAddr = "featureconsole_target_app.web"

// TestAccTargetApp_lifecycle: created as written, renamed and described in place, imported by id
// (the description, which reads do not give, is not imported), gone from the console (removed from
// the state, created again), destroyed.
func TestAccTargetApp_lifecycle(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	config := func(name, description string) string {
		return providerBlock(url) + fmt.Sprintf(`
resource "featureconsole_target_app" "web" {
  name        = %q
  description = %q
}
`, name, description)
	}
	expect := func(name, description string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			ids := m.TargetAppIDs()
			if len(ids) != 1 {
				return fmt.Errorf("the mock holds %d target apps, want 1", len(ids))
			}
			if a, _ := m.TargetApp(ids[0]); a.Name != name || a.Description != description {
				return fmt.Errorf("the mock holds %+v", a)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if ids := m.TargetAppIDs(); len(ids) > 0 {
				return fmt.Errorf("destroy left target apps %v", ids)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: config("web", "the web app"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(targetAppAddr, tfjsonpath.New("id"))},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: expect("web", "the web app"),
			},
			{
				Config: config("web-eu", "the web app, EU"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(targetAppAddr, plancheck.ResourceActionUpdate),
				}},
				Check: expect("web-eu", "the web app, EU"),
			},
			{
				ResourceName: targetAppAddr, ImportState: true, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"timeouts", "description"},
			},
			{
				PreConfig: func() {
					for _, id := range m.TargetAppIDs() {
						m.DeleteTargetApp(id)
					}
				},
				Config: config("web-eu", "the web app, EU"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(targetAppAddr, plancheck.ResourceActionCreate),
				}},
				Check: expect("web-eu", "the web app, EU"),
			},
		},
	})
}
