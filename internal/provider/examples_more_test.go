// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The registry page of a resource shows every resource*.tf of its examples; TestAccExamples_resources
// applies resource.tf, this test each of the others: applied, planned clean, destroyed, and the
// service holds no more objects afterwards than before (what the example created, destroy deleted).
func TestAccExamples_moreResourceFiles(t *testing.T) {
	t.Parallel()
	for _, typ := range exampleTypeDirs(t, "resources") {
		for _, f := range moreResourceExamples(t, typ) {
			f := filepath.Join(examplesDir, f)
			t.Run(typ+"/"+strings.TrimSuffix(filepath.Base(f), ".tf"), func(t *testing.T) {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				m, url := startMock(t, mockconsole.Config{})
				before := m.PipelineIDs()
				cfg := providerBlock(url) + string(b)
				resource.Test(t, resource.TestCase{
					PreCheck:                 func() { testAccPreCheck(t) },
					ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
					CheckDestroy: func(*terraform.State) error {
						if after := m.PipelineIDs(); strings.Join(after, ",") != strings.Join(before, ",") {
							t.Errorf("after destroy the service holds pipelines %v, before the example %v", after, before)
						}
						return nil
					},
					Steps: []resource.TestStep{{
						Config: cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
					}},
				})
			})
		}
	}
}

// moreResourceExamples is the resource*.tf files of a resource's examples besides resource.tf,
// relative to examples/.
func moreResourceExamples(t *testing.T, typ string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(examplesDir, "resources", typ, "resource?*.tf"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		rel, err := filepath.Rel(examplesDir, f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rel)
	}
	return out
}
