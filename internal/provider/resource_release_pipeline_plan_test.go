// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// Bad input of a pipeline Terraform would create: refused at plan time with
// the attribute path, and nothing, a create least of all, reaches the service.
func TestAccReleasePipeline_createValidation(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	before := m.PipelineIDs()
	cases := []struct{ hcl, wantErr string }{
		{createdPipelineHCL("   ", canaryHCL), `name must not be empty or only white space`},
		{createdPipelineHCL("Web", canaryHCL, canaryHCL), `Phases 0 and 1 are both named "Canary"`},
		{createdPipelineHCL("Web", `{ name = "a", time_interval_ms = 0, rules = [{ name = "r", conditions = [{ type = " " }] }] }`),
			`phases[0].rules[0].conditions[0].type must not be empty`},
	}
	var steps []resource.TestStep
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: providerBlock(url) + c.hcl, ExpectError: errRe(c.wantErr)})
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
	if reqs := m.Requests(); len(reqs) != 0 {
		t.Fatalf("invalid configurations sent %d requests to the service, first %s %s", len(reqs), reqs[0].Method, reqs[0].Path)
	}
	if after := m.PipelineIDs(); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Fatalf("pipelines %v after invalid creates, %v before", after, before)
	}
}
