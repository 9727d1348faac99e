// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The import guide's promise: for an object that exists in the console, an import block and
// `terraform plan -generate-config-out=generated.tf` write a configuration that plans clean.
//
// Step 1 is the harness's generated-config import (the plan made while generating must be a no-op
// import). Step 2 does what the user does next: the generated resource block becomes the
// configuration, with the import block beside it; the plan imports without changing anything,
// apply sends no write, and the next plan is empty.
func TestAccGenerateConfig(t *testing.T) {
	t.Parallel()
	ptr := func(s string) *string { return &s }
	cases := []struct {
		name, typ, id string
		seed          func(*mockconsole.Server)
	}{
		{name: "gate_rules_seeded", typ: "featureconsole_gate_rules", id: "new_checkout"},
		{name: "gate_rules_no_rules", typ: "featureconsole_gate_rules", id: "dark_mode"},
		{name: "gate_rules_every_field", typ: "featureconsole_gate_rules", id: "gate_001", seed: func(m *mockconsole.Server) {
			g, _ := m.Gate("gate_001")
			g.Rules = []mockconsole.GateRule{
				{
					Name: "mixed targets", PassPercentage: 33.33, Environments: []string{"staging", "production"},
					Conditions: []mockconsole.Condition{
						{Type: "country", Operator: "any", TargetValue: []any{"US", "CA"}},
						{Type: "custom_field", Operator: "gte", Field: "age", TargetValue: []any{json.Number("18.5"), json.Number("21")}},
						{Type: "unit_id", Operator: "any", CustomID: "stableID", TargetValue: []any{"a", json.Number("2")}},
						{Type: "public"},
					},
					ReturnValue: map[string]any{"nested": map[string]any{"b": true, "a": []any{json.Number("1"), "x"}}},
				},
				{Name: "nobody", PassPercentage: 0, Environments: []string{}, ReturnValue: map[string]any{}},
			}
			m.PutGate(g)
		}},
		{name: "dynamic_config_rules_variants", typ: "featureconsole_dynamic_config_rules", id: "homepage_banner", seed: func(m *mockconsole.Server) {
			c, _ := m.DynamicConfig("homepage_banner")
			c.Rules[0].Variants = []mockconsole.Variant{
				{Name: "control", PassPercentage: 66.67, ReturnValue: map[string]any{"text": "Willkommen", "color": "red"}},
				{Name: "green", PassPercentage: 33.33, ReturnValue: map[string]any{"text": "Hallo", "color": "green"}},
			}
			m.PutDynamicConfig(c)
		}},
		{name: "release_pipeline_seeded", typ: "featureconsole_release_pipeline", id: "pl_web"},
		{name: "release_pipeline_no_phases", typ: "featureconsole_release_pipeline", id: "pl_api"},
		{name: "metric_source_console_created", typ: "featureconsole_metric_source", id: "orders", seed: func(m *mockconsole.Server) {
			m.PutMetricSource(mockconsole.MetricSource{
				Name: "orders", SQL: "SELECT user_id, ts, amount FROM orders", TimestampColumn: "ts",
				IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}, {ServiceUnitID: "stableID", Column: "device"}},
				Description:   "Orders table", Tags: []string{"finance", "core"}, TimestampAsDay: true,
				SourceType: "table", TableName: "warehouse.orders", DatePartitionColumn: "ds",
				CustomFieldMapping: []mockconsole.CustomFieldMapping{{Key: "revenue_cents", Formula: "amount * 100"}},
				IsReadOnly:         true, IsVerified: true, Team: ptr("Payments"), TeamID: ptr("team_7"),
				Owner: &mockconsole.Owner{OwnerID: "user_1", OwnerType: "USER", OwnerName: "Ada Lovelace", OwnerEmail: "ada@example.com"},
			})
		}},
		{name: "segment_rule_based_seeded", typ: "featureconsole_segment", id: "segment_04"},
		{name: "segment_id_list_seeded", typ: "featureconsole_segment", id: "segment_03"},
		{name: "metric_source_minimal", typ: "featureconsole_metric_source", id: "signups", seed: func(m *mockconsole.Server) {
			m.PutMetricSource(mockconsole.MetricSource{
				Name: "signups", SQL: "SELECT * FROM signups", TimestampColumn: "created_at",
				IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}},
			})
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, url := startMock(t, mockconsole.Config{})
			if tc.seed != nil {
				tc.seed(m)
			}
			addr := tc.typ + ".imported"
			importBlock := fmt.Sprintf("\nimport {\n  to = %s\n  id = %q\n}\n", addr, tc.id)

			// Step 2's configuration, written once step 1 has generated it. The harness reads the
			// file when it validates the test case too, so it starts out as a bare provider block.
			dir := t.TempDir()
			generated, tidied := filepath.Join(dir, "generated.tf"), filepath.Join(dir, "tidied.tf")
			for _, f := range []string{generated, tidied} {
				if err := os.WriteFile(f, []byte(providerBlock(url)), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			var generatedHCL string

			// Providers per step: the harness counts the provider block of a ConfigFile as step-level providers.
			resource.Test(t, resource.TestCase{
				PreCheck: func() { testAccPreCheck(t) },
				// Terraform before 1.9.3 cannot generate configuration for nested objects holding
				// computed attributes (hashicorp/terraform#35478, and #34463 crashes): the import
				// guide says so.
				TerraformVersionChecks: cliCan(featGenerateConfig),
				Steps: []resource.TestStep{
					{
						ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
						Config:                   providerBlock(url),
						ResourceName:             addr,
						ImportState:              true,
						ImportStateKind:          resource.ImportBlockWithID,
						ImportStateId:            tc.id,
						GenerateConfig:           true,
						ImportPlanChecks: resource.ImportPlanChecks{
							PreApply: []plancheck.PlanCheck{saveGeneratedConfig{
								addr: addr, provider: providerBlock(url), importBlock: importBlock,
								generated: generated, tidied: tidied, hcl: &generatedHCL,
							}},
						},
					},
					{
						ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
						PreConfig:                func() { m.ResetRequests() },
						ConfigFile:               config.StaticFile(generated),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop)},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						Check: func(*terraform.State) error {
							for _, r := range m.Requests() {
								if r.Method != http.MethodGet {
									return fmt.Errorf("importing with the generated configuration sent %s %s; generated:\n%s", r.Method, r.Path, generatedHCL)
								}
							}
							return nil
						},
					},
					{
						// The import guide's tidying advice keeps the plan empty.
						ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
						ConfigFile:               config.StaticFile(tidied),
						PlanOnly:                 true,
					},
				},
			})
			t.Logf("generated configuration:\n%s", generatedHCL)
		})
	}
}

// saveGeneratedConfig writes the configuration Terraform generated for addr (the plan's
// generated_config): as generated, with the import block, into generated; tidied as the import
// guide suggests (no null arguments, no pinned pipeline ids, no default validate_on_plan) into tidied.
type saveGeneratedConfig struct {
	addr, provider, importBlock string
	generated, tidied           string
	hcl                         *string
}

var tidyRe = regexp.MustCompile(`(?m)^\s*(\w+\s*=\s*null|id\s*=\s*"[^"]*"|validate_on_plan\s*=\s*true)\s*\n`)

func (c saveGeneratedConfig) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr {
			continue
		}
		hcl := rc.Change.GeneratedConfig
		if strings.TrimSpace(hcl) == "" {
			resp.Error = fmt.Errorf("%s: the plan holds no generated configuration", c.addr)
			return
		}
		if !strings.HasPrefix(strings.TrimSpace(hcl), "resource ") {
			typ, name, _ := strings.Cut(c.addr, ".")
			hcl = fmt.Sprintf("resource %q %q {\n%s\n}\n", typ, name, hcl)
		}
		*c.hcl = hcl
		if err := os.WriteFile(c.generated, []byte(c.provider+c.importBlock+"\n"+hcl), 0o600); err != nil {
			resp.Error = err
			return
		}
		resp.Error = os.WriteFile(c.tidied, []byte(c.provider+"\n"+tidyRe.ReplaceAllString(hcl, "")), 0o600)
		return
	}
	resp.Error = fmt.Errorf("%s: not in the plan", c.addr)
}

// An import block with an identity and `plan -generate-config-out`, as the import guide shows them
// (Terraform 1.12+, and OpenTofu 1.12, which does both): the generated configuration imports
// without a write and plans clean afterwards.
func TestAccGenerateConfig_identityImportBlock(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	cli := newTFCLI(t, featIdentity, featGenerateConfig)
	cli.write("main.tf", providerBlock(url)+`
import {
  to       = featureconsole_gate_rules.checkout
  identity = { gate_id = "new_checkout" }
}
`)
	cli.must("init", "-input=false", "-no-color")
	cli.must("plan", "-input=false", "-no-color", "-generate-config-out=generated.tf")
	if gen := cli.read("generated.tf"); !strings.Contains(gen, `resource "featureconsole_gate_rules" "checkout"`) {
		t.Fatalf("generated.tf:\n%s", gen)
	}
	if got := cli.planActions()["featureconsole_gate_rules.checkout"]; got.actions != "no-op" || !got.importing {
		t.Fatalf("the generated configuration plans %s, want a no-op import", got)
	}
	m.ResetRequests()
	cli.must("apply", "-input=false", "-no-color", "tfplan")
	for _, r := range m.Requests() {
		if r.Method != http.MethodGet {
			t.Fatalf("importing with the generated configuration sent %s %s", r.Method, r.Path)
		}
	}
	if code, out := cli.run([]int{0, 2}, "plan", "-input=false", "-no-color", "-detailed-exitcode"); code != 0 {
		t.Fatalf("the plan after the import is not empty:\n%s", out)
	}
}
