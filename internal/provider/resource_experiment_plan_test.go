// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// controlBlue names a control group the examples do not have.
const controlBlue = `control_group = "Blue"`

// Every bad input fails at plan, at its attribute, saying what to write, and nothing is sent.
func TestAccExperiment_badInput(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cases := []struct {
		groups string
		lines  []string
		want   *regexp.Regexp
	}{
		{strings.Replace(ctaGroupsHCL, "size = 50", "size = 40", 1), nil,
			wrapped("Group sizes do not sum to 100", "these sum to 90")},
		{strings.Replace(ctaGroupsHCL, `name = "Green"`, `name = "Control"`, 1), nil,
			wrapped("Duplicate group name", `groups[0] and groups[1] are both named "Control"`)},
		{`{ name = "Control", size = 100, parameter_values = "{}" }`, nil, errRe("groups list must contain at least 2 elements")},
		{ctaGroupsHCL, []string{controlBlue}, wrapped("No such group", `control_group = "Blue" names no group of the experiment; its groups are "Control", "Green"`)},
		{ctaGroupsHCL, []string{`status = "decision_made"`, `launched_group = "Blue"`, `decision_reason = "x"`},
			wrapped(`launched_group = "Blue" names no group`)},
		{ctaGroupsHCL, []string{`launched_group = "Green"`}, wrapped("Launched group without a decision", "would stand setup", `status = "decision_made"`)},
		// Shown on the group's line, not on the experiment's own description or name.
		{strings.Replace(ctaGroupsHCL, `size = 2 }) },`, `size = 2 }), description = "" },`, 1), []string{`description = "About the CTA"`},
			wrapped("Empty value", `description = "" },`, "Attribute groups[0].description must not be empty")},
		{strings.Replace(ctaGroupsHCL, `name = "Green"`, `name = " "`, 1), nil,
			wrapped("Empty value", `{ name = " ",`, "Attribute groups[0].name must not be empty")},
		{ctaGroupsHCL, []string{`status = "decision_made"`, `launched_group = "Green"`}, wrapped("Decision without a reason", "decision_reason")},
		{ctaGroupsHCL, []string{`status = "abandoned"`}, wrapped("Decision without a reason", `status = "abandoned" needs decision_reason`, `"Too little traffic to measure"`)},
		{ctaGroupsHCL, []string{`status = "decision_made"`, `decision_reason = "x"`}, wrapped("Decision without a launched group")},
		{ctaGroupsHCL, []string{`status = "decision_made"`, `launched_group = "Green"`, `decision_reason = "x"`},
			wrapped(`Experiment "tfacc_cta" does not exist yet and cannot be created decision_made`, `create it with status = "active"`)},
		{ctaGroupsHCL, []string{`status = "experiment_stopped"`}, wrapped(`cannot be created experiment_stopped: only the console or the service`)},
		{strings.Replace(ctaGroupsHCL, `jsonencode({ color = "green", size = 2 })`, `"green"`, 1), nil,
			wrapped("Parameter values are not a JSON object", "groups[0].parameter_values must be a JSON object, written with jsonencode({...})", "which is not JSON")},
		{strings.Replace(ctaGroupsHCL, `jsonencode({ color = "green", size = 2 })`, `jsonencode(["green"])`, 1), nil,
			wrapped("Parameter values are not a JSON object", "which is JSON but not an object")},
		{ctaGroupsHCL, []string{"allocation = 101"}, wrapped("Allocation out of range", "allocation must be between 0 and 100, got 101")},
		{ctaGroupsHCL, []string{"allocation = -1"}, wrapped("Allocation out of range")},
		{strings.Replace(ctaGroupsHCL, "size = 50", "size = 49.999", 1), nil, wrapped("Too many decimals in group size")},
		{ctaGroupsHCL, []string{`status = "running"`}, errRe(`value must be one of`)},
		{ctaGroupsHCL, []string{"duration = 1"}, errRe("duration value must be at least 2")},
	}
	var steps []resource.TestStep
	for _, c := range cases {
		cfg := experimentHCL(c.groups, c.lines...)
		if slices.Contains(c.lines, controlBlue) {
			cfg = strings.Replace(cfg, `control_group   = "Control"`, "", 1)
		}
		steps = append(steps, resource.TestStep{
			Config:      providerBlock(url) + cfg,
			ExpectError: c.want,
		})
	}
	steps = append(steps, resource.TestStep{
		Config: providerBlock(url),
		Check:  func(*terraform.State) error { return noStoredWrite(m) },
	})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
	if ids := m.ExperimentIDs(); len(ids) != 0 {
		t.Errorf("bad input created %v", ids)
	}
}
