// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// A pipeline Terraform created is listed like any other (Terraform 1.14+): the list resource finds
// it by its name, with its identity and the resource built from the list page.
func TestAccReleasePipeline_createdListed(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	const name = "tfacc_web_listed"
	var id string
	byName := queryfilter.ByDisplayName(knownvalue.StringExact(name))
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             noPipelineNamed(m, name),
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + createdPipelineHCL(name, canaryHCL),
				Check:  checkCreatedPipeline(m, mockconsole.Pipeline{Name: name, Phases: []mockconsole.Phase{canaryPhase}}, &id),
			},
			{
				Query: true,
				Config: `
list "featureconsole_release_pipeline" "all" {
  provider         = featureconsole
  include_resource = true
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("featureconsole_release_pipeline.all", 4),
					querycheck.ExpectResourceKnownValues("featureconsole_release_pipeline.all", byName, []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("pipeline_id"), KnownValue: equalTo(&id)},
						{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact(name)},
						{Path: phasePath(0, "name"), KnownValue: knownvalue.StringExact("Canary")},
					}),
				},
			},
		},
	})
}
