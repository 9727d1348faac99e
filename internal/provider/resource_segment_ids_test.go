// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// A segment's ids are a set: the order is never compared (issue 27).

// orderIDs is more than one write of ids (console.MaxIDsPerWrite), so that an id moves between
// chunks when the order changes.
const orderIDs = 1500

// reordered is ids in another order: every stride-th id from each start (a permutation, no two
// neighbours kept).
func reordered(ids []string, stride int) []string {
	out := make([]string, 0, len(ids))
	for start := range stride {
		for i := start; i < len(ids); i += stride {
			out = append(out, ids[i])
		}
	}
	return out
}

// noIDWrites checks that the apply sent no write of the ids.
func noIDWrites(m *mockconsole.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n, _ := idWrites(m, http.MethodPatch); n > 0 {
			return fmt.Errorf("%d writes added ids, want none", n)
		}
		if n, _ := idWrites(m, http.MethodDelete); n > 0 {
			return fmt.Errorf("%d writes removed ids, want none", n)
		}
		return nil
	}
}

// 1,500 ids listed in another order plan empty; so do a read that answers them in another order
// and a configuration in a third; a change of one id (in yet another order) plans the ids alone
// and sends that id alone.
func TestAccSegment_idsOrderNotCompared(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{})
	ids := idRange(0, orderIDs)
	changed := append(slices.Clone(ids[1:]), "u_new")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoSegments(m),
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + idsListConfig(ids),
				Check:  expectSegmentIDs(m, "beta_testers", 0, orderIDs),
			},
			{
				PreConfig: m.ResetRequests,
				Config:    providerBlock(url) + idsListConfig(reordered(ids, 7)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: noIDWrites(m),
			},
			{
				// The service answers the ids in another order than the state holds them.
				PreConfig: func() {
					sg, _ := m.Segment("beta_testers")
					slices.Reverse(sg.IDs)
					m.PutSegment(sg)
					m.ResetRequests()
				},
				Config: providerBlock(url) + idsListConfig(reordered(ids, 3)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: noIDWrites(m),
			},
			{
				PreConfig: m.ResetRequests,
				Config:    providerBlock(url) + idsListConfig(reordered(changed, 5)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(segIDsAddr, plancheck.ResourceActionUpdate),
						plansOnly(segIDsAddr, "ids", "entry_count", "last_modifier_id", "last_modifier_name"),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectSegmentHolds(m, "beta_testers", changed),
					func(*terraform.State) error {
						_, added := idWrites(m, http.MethodPatch)
						_, removed := idWrites(m, http.MethodDelete)
						if !slices.Equal(added, []string{"u_new"}) || !slices.Equal(removed, []string{"u_0"}) {
							return fmt.Errorf("added %d ids and removed %d, want u_new and u_0", len(added), len(removed))
						}
						return nil
					},
				),
			},
		},
	})
}

// A segment imported into a configuration that lists its ids in another order plans the import
// alone, and nothing after it.
func TestAccSegment_idsImportedInAnotherOrder(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{})
	ids := idRange(0, orderIDs)
	m.PutSegment(mockconsole.Segment{ID: "beta_testers", Name: "beta_testers", IsEnabled: true, Type: console.SegmentIDList,
		IDType: "userID", IDs: ids})
	importBlock := `
import {
  to = featureconsole_segment.beta
  id = "beta_testers"
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoSegments(m),
		Steps: []resource.TestStep{{
			PreConfig: m.ResetRequests,
			Config:    providerBlock(url) + importBlock + idsListConfig(reordered(ids, 7)),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(segIDsAddr, plancheck.ResourceActionNoop), plansOnly(segIDsAddr)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: noIDWrites(m),
		}},
	})
}
