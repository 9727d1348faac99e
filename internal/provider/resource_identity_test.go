// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

type identityCase struct {
	addr, attr, id string
	config         func(version string) string // version changes something that updates in place
	drop           func(*mockconsole.Server)   // makes the object disappear
}

func identityCases() []identityCase {
	return []identityCase{
		{
			addr: "featureconsole_gate.test", attr: "gate_id", id: "tfacc_identity",
			config: func(v string) string {
				return `
resource "featureconsole_gate" "test" {
  gate_id     = "tfacc_identity"
  description = "` + v + `"
}
`
			},
			drop: func(m *mockconsole.Server) { m.DeleteGate("tfacc_identity") },
		},
		{
			addr: "featureconsole_gate_rules.test", attr: "gate_id", id: "dark_mode",
			config: func(v string) string {
				return `
resource "featureconsole_gate_rules" "test" {
  gate_id = "dark_mode"
  rules   = [{ name = "` + v + `", pass_percentage = 50 }]
}
`
			},
			drop: func(m *mockconsole.Server) { m.DeleteGate("dark_mode") },
		},
		{
			addr: "featureconsole_release_pipeline.test", attr: "pipeline_id", id: "pl_api",
			config: func(v string) string {
				return `
resource "featureconsole_release_pipeline" "test" {
  pipeline_id = "pl_api"
  name        = "API rollout ` + v + `"
  phases      = [{ name = "Canary", time_interval_ms = 60000 }]
}
`
			},
			drop: func(m *mockconsole.Server) { m.DeletePipeline("pl_api") },
		},
		{
			addr: "featureconsole_metric_source.test", attr: "name", id: "orders",
			config: func(v string) string {
				return `
resource "featureconsole_metric_source" "test" {
  name             = "orders"
  sql              = "SELECT user_id, ts FROM orders"
  timestamp_column = "ts"
  description      = "` + v + `"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
}
`
			},
			drop: func(m *mockconsole.Server) { m.DeleteMetricSource("orders") },
		},
		{
			addr: "featureconsole_metric.test", attr: "id", id: "tfacc_identity::event_count_custom",
			config: func(v string) string {
				return `
resource "featureconsole_metric" "test" {
  name          = "tfacc_identity"
  type          = "event_count_custom"
  description   = "` + v + `"
  metric_events = [{ name = "purchase" }]
}
`
			},
			drop: func(m *mockconsole.Server) { m.DeleteMetric("tfacc_identity::event_count_custom") },
		},
		{
			addr: "featureconsole_segment.test", attr: "segment_id", id: "beta_testers",
			config: func(v string) string {
				return `
resource "featureconsole_segment" "test" {
  segment_id = "beta_testers"
  type       = "id_list"
  ids        = ["u_1", "` + v + `"]
}
`
			},
			drop: func(m *mockconsole.Server) { m.DeleteSegment("beta_testers") },
		},
	}
}

// identityConfig declares every case's object, at version v.
func identityConfig(url, v string) string {
	cfg := providerBlock(url)
	for _, tc := range identityCases() {
		cfg += tc.config(v)
	}
	return cfg
}

// identityChecks expects each case's object to have its identity in state.
func identityChecks() []statecheck.StateCheck {
	var out []statecheck.StateCheck
	for _, tc := range identityCases() {
		out = append(out, statecheck.ExpectIdentity(tc.addr, map[string]knownvalue.Check{tc.attr: knownvalue.StringExact(tc.id)}))
	}
	return out
}

// Identity on Terraform 1.12+: set by create, kept by update, read back by refresh, and accepted by
// an import block; a refresh of an object that is gone still answers with the identity and removes
// it from the state. One configuration holds an object of each kind, so that each command serves
// them all; import by id (block and command) is TestAcc<Resource>_sharedImport's.
func TestAccResourceIdentity(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	var updates []plancheck.PlanCheck
	for _, tc := range identityCases() {
		updates = append(updates, plancheck.ExpectResourceAction(tc.addr, plancheck.ResourceActionUpdate))
	}
	steps := []resource.TestStep{
		{Config: identityConfig(url, "one"), ConfigStateChecks: identityChecks()},
		{
			Config:            identityConfig(url, "two"),
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: updates},
			ConfigStateChecks: identityChecks(),
		},
	}
	for _, tc := range identityCases() {
		steps = append(steps, resource.TestStep{Config: identityConfig(url, "two"), ResourceName: tc.addr, ImportState: true,
			ImportStateKind: resource.ImportBlockWithResourceIdentity})
	}
	steps = append(steps, resource.TestStep{
		PreConfig: func() {
			for _, tc := range identityCases() {
				tc.drop(m)
			}
		},
		Config: identityConfig(url, "two"), PlanOnly: true, ExpectNonEmptyPlan: true,
	})
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   cliCan(featIdentity),
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// An import block whose identity names an object that does not exist fails with the service's words.
func TestAccResourceIdentity_importMissing(t *testing.T) {
	t.Parallel()
	_, url := startMock(t, mockconsole.Config{})
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   cliCan(featIdentity),
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
import {
  to       = featureconsole_metric_source.gone
  identity = { name = "no_such_source" }
}

resource "featureconsole_metric_source" "gone" {
  name             = "no_such_source"
  sql              = "SELECT 1"
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
}
`,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?i)cannot import non-existent remote object|no_such_source`),
		}},
	})
}

// States written without identity (an earlier version of the provider, or Terraform 1.11) gain it on
// the next refresh, with nothing to change and nothing said. Step 1 runs the provider behind a
// server that hides identity, as a provider without identity support would.
func TestAccResourceIdentity_upgradeFromStateWithout(t *testing.T) {
	t.Parallel()
	_, url := startMock(t, mockconsole.Config{})
	cfg := identityConfig(url, "one")
	var without []statecheck.StateCheck
	var noop []plancheck.PlanCheck
	for _, tc := range identityCases() {
		without = append(without, expectNoIdentity{addr: tc.addr})
		noop = append(noop, plancheck.ExpectResourceAction(tc.addr, plancheck.ResourceActionNoop))
	}
	resource.Test(t, resource.TestCase{
		PreCheck:               func() { testAccPreCheck(t) },
		TerraformVersionChecks: cliCan(featIdentity),
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: map[string]func() (tfprotov6.ProviderServer, error){
					"featureconsole": func() (tfprotov6.ProviderServer, error) {
						s, err := newServerFactory(newTestProvider)()
						if err != nil {
							return nil, err
						}
						return &noIdentityServer{ProviderServer: s}, nil
					},
				},
				Config:            cfg,
				ConfigStateChecks: without,
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Config:                   cfg,
				ConfigPlanChecks:         resource.ConfigPlanChecks{PreApply: noop},
				ConfigStateChecks:        identityChecks(),
			},
		},
	})
}

// expectNoIdentity asserts that the state holds the resource without an identity.
type expectNoIdentity struct{ addr string }

func (e expectNoIdentity) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if req.State == nil || req.State.Values == nil || req.State.Values.RootModule == nil {
		resp.Error = fmt.Errorf("%s: no state", e.addr)
		return
	}
	for _, r := range req.State.Values.RootModule.Resources {
		if r.Address == e.addr {
			if len(r.IdentityValues) > 0 {
				resp.Error = fmt.Errorf("%s: the state holds identity %v", e.addr, r.IdentityValues)
			}
			return
		}
	}
	resp.Error = fmt.Errorf("%s: not in the state", e.addr)
}

// noIdentityServer is the provider as a version without resource identity would serve it.
type noIdentityServer struct{ tfprotov6.ProviderServer }

func (s *noIdentityServer) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{IdentitySchemas: map[string]*tfprotov6.ResourceIdentitySchema{}}, nil
}

func (s *noIdentityServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resp, err := s.ProviderServer.ReadResource(ctx, req)
	if resp != nil {
		resp.NewIdentity = nil
	}
	return resp, err
}

func (s *noIdentityServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		resp.PlannedIdentity = nil
	}
	return resp, err
}

func (s *noIdentityServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := s.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil {
		resp.NewIdentity = nil
	}
	return resp, err
}
