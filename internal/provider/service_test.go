// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// The tests of this file run against the in-process mock and, unchanged, against a real console
// project (acc_service_test.go): they check what the service holds through the API, never through
// the mock's internals.

func TestAccService_gateRulesLifecycle(t *testing.T) {
	svc := testAccService(t, "gate")
	c := svc.Client(t)
	config := func(rules string) string {
		return svc.ProviderBlock() + fmt.Sprintf(`
resource "featureconsole_gate_rules" "acc" {
  gate_id = %q
  rules   = [%s]
}
`, svc.Gate, rules)
	}
	const employees = `{
      name            = "tfacc employees"
      pass_percentage = 100
      environments    = ["production"]
      conditions      = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]
      return_value    = jsonencode({ color = "blue" })
    }`
	beta := func(pct string) string {
		return `{
      name            = "tfacc beta"
      pass_percentage = ` + pct + `
      conditions      = [{ type = "custom_field", field = "age", operator = "gt", target_numbers = [18] }]
    }`
	}
	const addr = "featureconsole_gate_rules.acc"
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkServiceGateRules(c, svc.Gate),
		Steps: []resource.TestStep{
			{
				Config: config(employees + ",\n    " + beta("12.5")),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkServiceGateRules(c, svc.Gate, "tfacc employees|100", "tfacc beta|12.5"),
					resource.TestCheckResourceAttr(addr, "id", svc.Gate),
				),
				ConfigPlanChecks: emptyPlanAfterApply(),
			},
			{
				// Reorder and change a percentage.
				Config:           config(beta("33.33") + ",\n    " + employees),
				Check:            checkServiceGateRules(c, svc.Gate, "tfacc beta|33.33", "tfacc employees|100"),
				ConfigPlanChecks: updateInPlace(addr),
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     svc.Gate,
				ImportStateVerify: true,
			},
		},
	})
}

// emptyPlanAfterApply: the plan after apply and refresh has nothing to do.
func emptyPlanAfterApply() resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
}

// updateInPlace: the step updates addr in place, and the plan after it is empty.
func updateInPlace(addr string) resource.ConfigPlanChecks {
	c := emptyPlanAfterApply()
	c.PreApply = []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}
	return c
}

// checkServiceGateRules compares the gate's rules, read through the API, with "name|percentage"
// lines in order; with no lines the gate must have no rules (what destroy leaves).
func checkServiceGateRules(c *console.Client, gateID string, want ...string) func(*terraform.State) error {
	return func(*terraform.State) error {
		g, err := c.GetGate(context.Background(), gateID)
		if err != nil {
			return err
		}
		got := make([]string, 0, len(g.Rules))
		for _, r := range g.Rules {
			// By value at the attribute's two decimals: the service may answer 33.330000000000005.
			got = append(got, r.Name+"|"+strconv.FormatFloat(math.Round(r.PassPercentage*100)/100, 'f', -1, 64))
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			return fmt.Errorf("gate %s has rules %q, want %q", gateID, got, want)
		}
		return nil
	}
}

func TestAccService_releasePipelineLifecycle(t *testing.T) {
	svc := testAccService(t, "pipeline")
	c := svc.Client(t)
	// canaryHCL and gaHCL: resource_release_pipeline_test.go.
	canary, ga := canaryHCL, gaHCL
	config := func(name string, phases ...string) string {
		return svc.ProviderBlock() + fmt.Sprintf(`
resource "featureconsole_release_pipeline" "acc" {
  pipeline_id = %q
  name        = %q
  phases      = [%s]
}
`, svc.Pipeline, name, strings.Join(phases, ",\n    "))
	}
	const addr = "featureconsole_release_pipeline.acc"
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		// Destroy leaves the pipeline as the last apply made it.
		CheckDestroy: checkServicePipeline(c, svc.Pipeline, "tfacc rollout", "Canary"),
		Steps: []resource.TestStep{
			{
				Config: config("tfacc rollout", canary, ga),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkServicePipeline(c, svc.Pipeline, "tfacc rollout", "Canary", "General availability"),
					resource.TestCheckResourceAttr(addr, "id", svc.Pipeline),
				),
				ConfigPlanChecks: emptyPlanAfterApply(),
			},
			{
				Config:           config("tfacc rollout", canary),
				Check:            checkServicePipeline(c, svc.Pipeline, "tfacc rollout", "Canary"),
				ConfigPlanChecks: updateInPlace(addr),
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     svc.Pipeline,
				ImportStateVerify: true,
			},
		},
	})
}

// checkServicePipeline compares the pipeline's name and phase names, read through the API.
func checkServicePipeline(c *console.Client, id, name string, phases ...string) func(*terraform.State) error {
	return func(*terraform.State) error {
		p, err := c.GetReleasePipeline(context.Background(), id)
		if err != nil {
			return err
		}
		got := make([]string, 0, len(p.Phases))
		for _, ph := range p.Phases {
			got = append(got, ph.Name)
		}
		if p.Name != name || strings.Join(got, ",") != strings.Join(phases, ",") {
			return fmt.Errorf("pipeline %s is %q with phases %q, want %q with %q", id, p.Name, got, name, phases)
		}
		return nil
	}
}

func TestAccService_metricSourceLifecycle(t *testing.T) {
	svc := testAccService(t)
	c := svc.Client(t)
	name := svc.MetricPrefix + "orders"
	config := func(sql, description string) string {
		return svc.ProviderBlock() + fmt.Sprintf(`
resource "featureconsole_metric_source" "acc" {
  name             = %q
  sql              = %q
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
  description      = %q
  tags             = ["tfacc"]
}
`, name, sql, description)
	}
	const addr = "featureconsole_metric_source.acc"
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			_, err := c.GetMetricSource(context.Background(), name)
			if !console.NotFound(err) {
				return fmt.Errorf("metric source %q after destroy: want not found, got %v", name, err)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config:           config("SELECT user_id, ts FROM orders", "Orders"),
				Check:            checkServiceMetricSource(c, name, "SELECT user_id, ts FROM orders", "Orders"),
				ConfigPlanChecks: emptyPlanAfterApply(),
			},
			{
				Config:           config("SELECT user_id, ts, amount FROM orders", "Orders with amounts"),
				Check:            checkServiceMetricSource(c, name, "SELECT user_id, ts, amount FROM orders", "Orders with amounts"),
				ConfigPlanChecks: updateInPlace(addr),
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     name,
				ImportStateVerify: true,
			},
		},
	})
}

// A metric on a metric source, created in one apply with its source, changed in place, imported by
// its id and destroyed with it.
func TestAccService_metricLifecycle(t *testing.T) {
	svc := testAccService(t)
	c := svc.Client(t)
	source, name := svc.MetricPrefix+"orders", svc.MetricPrefix+"revenue"
	id := name + "::user_warehouse"
	config := func(description string) string {
		return svc.ProviderBlock() + fmt.Sprintf(`
resource "featureconsole_metric_source" "acc" {
  name             = %q
  sql              = "SELECT user_id, ts, amount FROM orders"
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
}

resource "featureconsole_metric" "acc" {
  name        = %q
  type        = "user_warehouse"
  description = %q
  tags        = ["tfacc"]
  warehouse_native = {
    aggregation        = "sum"
    metric_source_name = featureconsole_metric_source.acc.name
    value_column       = "amount"
  }
}
`, source, name, description)
	}
	const addr = "featureconsole_metric.acc"
	check := func(description string) func(*terraform.State) error {
		return func(*terraform.State) error {
			m, err := c.GetMetric(context.Background(), id)
			if err != nil {
				return err
			}
			if m.WarehouseNative == nil || m.WarehouseNative.MetricSourceName != source || m.Description != nil && *m.Description != description {
				return fmt.Errorf("metric %q reads %+v, want the source %q and the description %q", id, m, source, description)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if _, err := c.GetMetric(context.Background(), id); !console.NotFound(err) {
				return fmt.Errorf("metric %q after destroy: want not found, got %v", id, err)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: config("Revenue per user"), Check: check("Revenue per user"), ConfigPlanChecks: emptyPlanAfterApply()},
			{Config: config("Revenue per paying user"), Check: check("Revenue per paying user"), ConfigPlanChecks: updateInPlace(addr)},
			{ResourceName: addr, ImportState: true, ImportStateId: id, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"timeouts", "validate_on_plan"}},
		},
	})
}

// checkServiceMetricSource compares the source's query and description, read through the API.
func checkServiceMetricSource(c *console.Client, name, sql, description string) func(*terraform.State) error {
	return func(*terraform.State) error {
		m, err := c.GetMetricSource(context.Background(), name)
		if err != nil {
			return err
		}
		if m.SQL != sql || m.Description == nil || *m.Description != description {
			return fmt.Errorf("metric source %q has sql %q and description %v, want %q and %q", name, m.SQL, m.Description, sql, description)
		}
		return nil
	}
}

// The data sources list what the API lists: as many users and segments as the client reads.
func TestAccService_dataSources(t *testing.T) {
	svc := testAccService(t, "event")
	c := svc.Client(t)
	ctx := context.Background()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: svc.ProviderBlock() + fmt.Sprintf(`
data "featureconsole_users" "all" {}
data "featureconsole_segments" "all" {}
data "featureconsole_events" "some" {
  event_name  = %q
  max_records = 3
}
`, svc.Event),
			Check: resource.ComposeAggregateTestCheckFunc(
				func(s *terraform.State) error {
					users, err := c.ListUsers(ctx, console.ListOptions{})
					if err != nil {
						return err
					}
					return resource.TestCheckResourceAttr("data.featureconsole_users.all", "users.#", strconv.Itoa(len(users)))(s)
				},
				func(s *terraform.State) error {
					segments, err := c.ListSegments(ctx, console.ListOptions{})
					if err != nil {
						return err
					}
					return resource.TestCheckResourceAttr("data.featureconsole_segments.all", "segments.#", strconv.Itoa(len(segments)))(s)
				},
				func(s *terraform.State) error {
					events, err := c.ListEvents(ctx, svc.Event, console.ListOptions{MaxRecords: 3})
					if err != nil {
						return err
					}
					return resource.TestCheckResourceAttr("data.featureconsole_events.some", "events.#", strconv.Itoa(min(len(events), 3)))(s)
				},
			),
		}},
	})
}

// The gate resource against the service: created with the test prefix (the sweeper deletes such
// gates), changed in place, imported, destroyed; checked through the API.
func TestAccService_gateLifecycle(t *testing.T) {
	svc := testAccService(t)
	c := svc.Client(t)
	id := svc.MetricPrefix + "gate"
	config := func(description string) string {
		return svc.ProviderBlock() + fmt.Sprintf(`
resource "featureconsole_gate" "acc" {
  gate_id     = %q
  description = %q
  tags        = ["tfacc"]
}
`, id, description)
	}
	const addr = "featureconsole_gate.acc"
	check := func(description string) func(*terraform.State) error {
		return func(*terraform.State) error {
			g, err := c.GetGate(context.Background(), id)
			if err != nil {
				return err
			}
			if g.Description != description || !slices.Equal(g.Tags, []string{"tfacc"}) {
				return fmt.Errorf("gate %q has description %q and tags %v, want %q and [tfacc]", id, g.Description, g.Tags, description)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if _, err := c.GetGate(context.Background(), id); !console.NotFound(err) {
				return fmt.Errorf("gate %q after destroy: want not found, got %v", id, err)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: config("Created by the acceptance tests"), Check: check("Created by the acceptance tests"), ConfigPlanChecks: emptyPlanAfterApply()},
			{Config: config("Changed by the acceptance tests"), Check: check("Changed by the acceptance tests"), ConfigPlanChecks: updateInPlace(addr)},
			{ResourceName: addr, ImportState: true, ImportStateId: id, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"}},
		},
	})
}

// TestAccService_keyAppAndTag: a target app, a tag and a server key scoped to the app, created,
// changed in place (the key rotated), imported and destroyed, on the service itself.
func TestAccService_keyAppAndTag(t *testing.T) {
	svc := testAccService(t)
	c := svc.Client(t)
	prefix := svc.MetricPrefix
	config := func(description, rotated string) string {
		return svc.ProviderBlock() + fmt.Sprintf(`
resource "featureconsole_target_app" "acc" {
  name        = "%[1]sweb"
  description = "the web app"
}
resource "featureconsole_tag" "acc" {
  name        = "%[1]steam"
  description = "the team's"
}
resource "featureconsole_key" "acc" {
  type              = "SERVER"
  description       = "%[1]s%[2]s"
  target_app_id     = featureconsole_target_app.acc.id
  rotation_triggers = { rotated = %[3]q }
}
`, prefix, description, rotated)
	}
	var secrets []string
	noteSecret := func(s *terraform.State) error {
		secrets = append(secrets, s.RootModule().Resources["featureconsole_key.acc"].Primary.Attributes["secret"])
		return nil
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			for _, s := range secrets {
				if _, err := c.GetKey(context.Background(), s); !console.NotFound(err) {
					return fmt.Errorf("a key after destroy: want not found, got %v", err)
				}
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: config("backend", "1"), Check: noteSecret, ConfigPlanChecks: emptyPlanAfterApply()},
			{Config: config("backend, changed", "2"), Check: resource.ComposeAggregateTestCheckFunc(noteSecret, func(*terraform.State) error {
				if secrets[0] == secrets[1] {
					return fmt.Errorf("the rotation kept the secret")
				}
				if _, err := c.GetKey(context.Background(), secrets[0]); !console.NotFound(err) {
					return fmt.Errorf("the old secret after the rotation: want not found, got %v", err)
				}
				return nil
			}), ConfigPlanChecks: emptyPlanAfterApply()},
			{ResourceName: "featureconsole_tag.acc", ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts", "description"}},
			{ResourceName: "featureconsole_target_app.acc", ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts", "description"}},
		},
	})
}
