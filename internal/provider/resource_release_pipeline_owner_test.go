// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// A state without the key (written before the provider could create pipelines, when every one was
// taken over) is never deleted by destroy; what setOwnership stores reads back.
func TestPipelineOwnership(t *testing.T) {
	ctx := context.Background()
	p := &memPrivate{}
	if got := ownership(ctx, p); got != pipelineTakenOver {
		t.Fatalf("no key: %q, want taken over", got)
	}
	for _, o := range []pipelineOwnership{pipelineCreated, pipelineImported, pipelineTakenOver} {
		if d := setOwnership(ctx, p, o); d.HasError() {
			t.Fatal(d)
		}
		if got := ownership(ctx, p); got != o {
			t.Errorf("stored %q, read %q", o, got)
		}
	}
	p.data[pipelineOwnershipKey] = []byte("not json")
	if got := ownership(ctx, p); got != pipelineTakenOver {
		t.Errorf("garbage read as %q", got)
	}
}

func TestReplacedByAnotherPipelineID(t *testing.T) {
	s, n, u := types.StringValue, types.StringNull(), types.StringUnknown()
	for _, c := range []struct {
		state, config types.String
		want          bool
	}{
		{s("pl_a"), s("pl_b"), true},
		{s("pl_a"), s("pl_a"), false},
		{s("pl_a"), n, false}, // removed from the configuration: kept
		{n, s("pl_a"), false}, // create
		{s("pl_a"), u, false}, // not known yet: decided when it is
	} {
		if got := anotherPipelineID(c.state, c.config); got != c.want {
			t.Errorf("state %v, config %v: replace = %v, want %v", c.state, c.config, got, c.want)
		}
	}
}

// pipeline_id decides at create: a pipeline taken over stays on destroy even after pipeline_id is
// removed from the configuration (which changes nothing), and one imported into a configuration
// that sets pipeline_id is deleted by destroy, as every imported object is.
func TestAccReleasePipeline_ownership(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if _, ok := m.Pipeline("pl_web"); !ok {
				return fmt.Errorf("destroy deleted pl_web, which was taken over")
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: providerBlock(url) + pipelineExampleHCL, Check: checkMockPipeline(m, "pl_web", pipelineExample)},
			{
				// pipeline_id removed from the configuration: kept, nothing planned.
				Config: providerBlock(url) + createdPipelineHCL("Web rollout", canaryHCL),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
			{
				// Another value replaces: the old pipeline is left, the new one taken over.
				Config: providerBlock(url) + strings.Replace(pipelineExampleHCL, `"pl_web"`, `"pl_mobile"`, 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pipelineAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkMockPipeline(m, "pl_web", pipelineExample),
					checkMockPipeline(m, "pl_mobile", pipelineExample),
				),
			},
			{
				// Released from the state (destroy leaves pl_mobile), then imported: imported is deleted by destroy.
				Config: providerBlock(url),
				Check: func(*terraform.State) error {
					if _, ok := m.Pipeline("pl_mobile"); !ok {
						return fmt.Errorf("destroy deleted pl_mobile, which was taken over")
					}
					return nil
				},
			},
			{
				Config:             providerBlock(url) + strings.Replace(pipelineExampleHCL, `"pl_web"`, `"pl_mobile"`, 1),
				ResourceName:       pipelineAddr,
				ImportState:        true,
				ImportStateId:      "pl_mobile",
				ImportStatePersist: true,
			},
			{
				Config:           providerBlock(url) + strings.Replace(pipelineExampleHCL, `"pl_web"`, `"pl_mobile"`, 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: providerBlock(url),
				Check: func(*terraform.State) error {
					if _, ok := m.Pipeline("pl_mobile"); ok {
						return fmt.Errorf("destroy left pl_mobile, which was imported")
					}
					return nil
				},
			},
		},
	})
}
