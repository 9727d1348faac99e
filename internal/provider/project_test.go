// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// projectAddrs are the resources of projectConfig with the id each imports by.
var projectAddrs = []struct{ addr, attr, id string }{
	{"featureconsole_release_pipeline.web", "pipeline_id", ""}, // the id the service chose: read from the state
	{"featureconsole_gate.checkout", "gate_id", "tfacc_checkout"},
	{"featureconsole_gate_rules.checkout", "gate_id", "tfacc_checkout"},
	{"featureconsole_segment.beta", "segment_id", "tfacc_beta"},
	{"featureconsole_segment.vip", "segment_id", "tfacc_vip"},
	{"featureconsole_metric_source.orders", "name", "tfacc_orders"},
}

// projectConfig is a project declared from nothing: a pipeline, a gate attached to it with its
// rules, a segment of each type and a metric source. v changes something of each in place. The
// pipeline's phase has no bake time, so the run a rules write starts ends at once and the next
// write (and the destroy, which empties the rules and then deletes the pipeline) is not refused.
func projectConfig(url, v string) string {
	return providerBlock(url) + fmt.Sprintf(`
resource "featureconsole_release_pipeline" "web" {
  name   = "Web rollout %[1]s"
  phases = [{ name = "Everyone", time_interval_ms = 0, rules = [{ name = "internal", conditions = [{ type = "user_id", operator = "any", target_value = ["42"] }] }] }]
}

resource "featureconsole_gate" "checkout" {
  gate_id             = "tfacc_checkout"
  description         = "Checkout rewrite %[1]s"
  tags                = ["checkout"]
  type                = "TEMPORARY"
  release_pipeline_id = featureconsole_release_pipeline.web.pipeline_id
}

resource "featureconsole_gate_rules" "checkout" {
  gate_id = featureconsole_gate.checkout.gate_id
  rules = [
    { name = "staff", pass_percentage = 100, conditions = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }] },
    { name = "rollout %[1]s", pass_percentage = 12.5 },
  ]
}

resource "featureconsole_segment" "beta" {
  segment_id = "tfacc_beta"
  type       = "rule_based"
  rules = [
    { name = "staff", pass_percentage = 100, conditions = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }] },
    { name = "adults %[1]s", pass_percentage = 50, conditions = [{ type = "custom_field", field = "age", operator = "gte", target_value = ["18"] }] }, # the service may store numbers as strings: an import reads strings
  ]
}

resource "featureconsole_segment" "vip" {
  segment_id = "tfacc_vip"
  type       = "id_list"
  ids        = ["u_1", "u_2", "v_%[1]s"]
}

resource "featureconsole_metric_source" "orders" {
  name             = "tfacc_orders"
  sql              = "SELECT user_id, ts, amount FROM orders"
  timestamp_column = "ts"
  description      = "Orders %[1]s"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
}
`, v)
}

func expectActions(action plancheck.ResourceActionType, addrs ...string) resource.ConfigPlanChecks {
	var checks []plancheck.PlanCheck
	for _, a := range addrs {
		checks = append(checks, plancheck.ExpectResourceAction(a, action))
	}
	return resource.ConfigPlanChecks{PreApply: checks}
}

// projectGone checks that destroy left nothing of the project in the service.
func projectGone(m *mockconsole.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var left []string
		if _, ok := m.Gate("tfacc_checkout"); ok {
			left = append(left, "gate tfacc_checkout")
		}
		for _, id := range []string{"tfacc_beta", "tfacc_vip"} {
			if _, ok := m.Segment(id); ok {
				left = append(left, "segment "+id)
			}
		}
		if _, ok := m.MetricSource("tfacc_orders"); ok {
			left = append(left, "metric source tfacc_orders")
		}
		if ids := m.PipelineIDs(); len(ids) > 0 {
			left = append(left, fmt.Sprintf("pipelines %v", ids))
		}
		if len(left) > 0 {
			return fmt.Errorf("destroy left %v in the service", left)
		}
		return nil
	}
}

// pipelineIDFrom makes an import step's id the pipeline's, which the service chose.
func pipelineIDFrom(addr, attr, id string) resource.ImportStateIdFunc {
	return func(s *terraform.State) (string, error) {
		if id != "" {
			return id, nil
		}
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return "", fmt.Errorf("%s is not in the state", addr)
		}
		return rs.Primary.Attributes[attr], nil
	}
}

// A whole project declared from nothing in one configuration (issue 20's "done when"): it applies
// and re-plans empty, updates in place, shows the console's changes as drift and restores them,
// imports each object by id into a fresh configuration with an empty plan, and destroys to
// nothing. Under every CLI of the matrix, and with FEATURECONSOLE_MOCK_HABITS=all.
func TestAccProject_fromNothing(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	all := make([]string, len(projectAddrs))
	for i, a := range projectAddrs {
		all[i] = a.addr
	}
	steps := []resource.TestStep{
		{Config: projectConfig(url, "1"), ConfigPlanChecks: expectActions(plancheck.ResourceActionCreate, all...),
			Check: func(*terraform.State) error {
				g, ok := m.Gate("tfacc_checkout")
				if !ok || len(g.Rules) != 2 || g.ReleasePipelineID == "" {
					return fmt.Errorf("the gate is not as declared: %+v", g)
				}
				if sg, ok := m.Segment("tfacc_vip"); !ok || len(sg.IDs) != 3 {
					return fmt.Errorf("the id list segment is not as declared: %+v", sg)
				}
				return nil
			}},
		{Config: projectConfig(url, "2"), ConfigPlanChecks: expectActions(plancheck.ResourceActionUpdate, all...)},
		{
			// Drift: the console changes the gate, adds an id and rewrites the source's description.
			PreConfig: func() {
				g, _ := m.Gate("tfacc_checkout")
				g.Description = "changed in the console"
				m.PutGate(g)
				sg, _ := m.Segment("tfacc_vip")
				sg.IDs = append(slices.Clone(sg.IDs), "u_console")
				m.PutSegment(sg)
				src, _ := m.MetricSource("tfacc_orders")
				src.Description = "changed in the console"
				m.PutMetricSource(src)
			},
			Config: projectConfig(url, "2"),
			ConfigPlanChecks: expectActions(plancheck.ResourceActionUpdate,
				"featureconsole_gate.checkout", "featureconsole_segment.vip", "featureconsole_metric_source.orders"),
		},
	}
	for _, a := range projectAddrs {
		steps = append(steps, resource.TestStep{
			Config: projectConfig(url, "2"), ResourceName: a.addr, ImportState: true,
			ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: pipelineIDFrom(a.addr, a.attr, a.id),
		})
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             projectGone(m),
		Steps:                    steps,
	})
}

// The same project imported by identity (Terraform 1.12+, OpenTofu 1.12).
func TestAccProject_importByIdentity(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	steps := []resource.TestStep{{Config: projectConfig(url, "1")}}
	for _, a := range projectAddrs {
		steps = append(steps, resource.TestStep{
			Config: projectConfig(url, "1"), ResourceName: a.addr, ImportState: true,
			ImportStateKind: resource.ImportBlockWithResourceIdentity,
		})
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   cliCan(featIdentity),
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             projectGone(m),
		Steps:                    steps,
	})
}
