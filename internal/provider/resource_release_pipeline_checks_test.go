// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// checkMockPipeline asserts the service holds exactly want: name, phases in order and every field
// of them. Empty and null environments and target values are the same to the service.
func checkMockPipeline(m *mockconsole.Server, id string, want mockconsole.Pipeline) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, ok := m.Pipeline(id)
		if !ok {
			return fmt.Errorf("pipeline %q is not on the service", id)
		}
		if got.Name != want.Name {
			return fmt.Errorf("pipeline name = %q, want %q", got.Name, want.Name)
		}
		if len(got.Phases) != len(want.Phases) {
			return fmt.Errorf("pipeline has %d phases %v, want %d", len(got.Phases), phaseNames(got.Phases), len(want.Phases))
		}
		for i, w := range want.Phases {
			g := got.Phases[i]
			if g.Name != w.Name || g.TimeIntervalMs != w.TimeIntervalMs || g.RequiredReview != w.RequiredReview {
				return fmt.Errorf("phase %d = {%q %d %v}, want {%q %d %v}", i, g.Name, g.TimeIntervalMs, g.RequiredReview, w.Name, w.TimeIntervalMs, w.RequiredReview)
			}
			if len(g.Rules) != len(w.Rules) {
				return fmt.Errorf("phase %q has %d rules, want %d", w.Name, len(g.Rules), len(w.Rules))
			}
			for j, wr := range w.Rules {
				gr := g.Rules[j]
				if gr.Name != wr.Name || strings.Join(gr.Environments, ",") != strings.Join(wr.Environments, ",") {
					return fmt.Errorf("phase %q rule %d = {%q %v}, want {%q %v}", w.Name, j, gr.Name, gr.Environments, wr.Name, wr.Environments)
				}
				if a, b := conditionsJSON(gr.Conditions), conditionsJSON(wr.Conditions); a != b {
					return fmt.Errorf("phase %q rule %q conditions = %s, want %s", w.Name, wr.Name, a, b)
				}
			}
		}
		return nil
	}
}

func conditionsJSON(cs []mockconsole.Condition) string {
	norm := make([]mockconsole.Condition, len(cs))
	for i, c := range cs {
		if tv, ok := c.TargetValue.([]any); ok && len(tv) == 0 {
			c.TargetValue = nil
		}
		norm[i] = c
	}
	b, _ := json.Marshal(norm)
	return string(b)
}

func phaseNames(ps []mockconsole.Phase) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// checkStateIDsMatchMock asserts that every phase and rule id in state is the service's.
func checkStateIDsMatchMock(m *mockconsole.Server, id string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		p, _ := m.Pipeline(id)
		rs, ok := s.RootModule().Resources[pipelineAddr]
		if !ok {
			return fmt.Errorf("%s not in state", pipelineAddr)
		}
		a := rs.Primary.Attributes
		for i, ph := range p.Phases {
			if got := a[fmt.Sprintf("phases.%d.id", i)]; got != ph.ID {
				return fmt.Errorf("phases.%d.id = %q, the service says %q", i, got, ph.ID)
			}
			for j, r := range ph.Rules {
				if got := a[fmt.Sprintf("phases.%d.rules.%d.id", i, j)]; got != r.ID {
					return fmt.Errorf("phases.%d.rules.%d.id = %q, the service says %q", i, j, got, r.ID)
				}
			}
		}
		return nil
	}
}

// phaseIDOf captures the service's id of the named phase into *dst.
func phaseIDOf(m *mockconsole.Server, id, phase string, dst *string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		p, _ := m.Pipeline(id)
		for _, ph := range p.Phases {
			if ph.Name == phase {
				*dst = ph.ID
				return nil
			}
		}
		return fmt.Errorf("no phase %q on the service", phase)
	}
}

// equalTo checks a string against a value captured by an earlier step.
func equalTo(want *string) knownvalue.Check {
	return knownvalue.StringFunc(func(v string) error {
		if *want == "" || v != *want {
			return fmt.Errorf("got %q, want %q", v, *want)
		}
		return nil
	})
}

// wrapped matches text that Terraform may have wrapped over several lines.
func phasePath(i int, rest ...any) tfjsonpath.Path {
	p := tfjsonpath.New("phases").AtSliceIndex(i)
	for _, r := range rest {
		switch r := r.(type) {
		case string:
			p = p.AtMapKey(r)
		case int:
			p = p.AtSliceIndex(r)
		}
	}
	return p
}
