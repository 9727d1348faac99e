// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// seedConfigs puts configs as the console makes them: rules with return values, a schema, tags on
// some, one without rules, numbers in another form.
func seedConfigs(m *mockconsole.Server, n int) {
	for i := 1; i <= n; i++ {
		c := mockconsole.DynamicConfig{
			ID: fmt.Sprintf("config_%02d", i), Name: fmt.Sprintf("Config %d", i), IsEnabled: i%2 == 0,
			DefaultValue: json.RawMessage(fmt.Sprintf(`{"title":"Default %d","max_items":%d.0}`, i, i)),
			Schema:       json.RawMessage(`{"type":"object","required":["title"]}`), TargetApps: []string{"web"},
		}
		if i%2 == 1 {
			c.Tags = []string{"checkout"}
		}
		if i%3 != 0 {
			c.Rules = []mockconsole.Rule{{
				Name: "germany", PassPercentage: 33.33,
				Conditions:  []mockconsole.Condition{{Type: "country", Operator: "any", TargetValue: []any{"DE"}}},
				ReturnValue: map[string]any{"title": "Jetzt kaufen", "nested": map[string]any{"b": json.Number("1.50"), "a": []any{"x"}}},
			}}
		}
		if i%3 == 2 { // a rule split between variants
			c.Rules[0].Variants = []mockconsole.Variant{
				{Name: "control", PassPercentage: 50, ReturnValue: map[string]any{"title": "Jetzt kaufen"}},
				{Name: "urgent", PassPercentage: 50, ReturnValue: map[string]any{"title": "Heute kaufen", "n": json.Number("5.0")}},
			}
		}
		m.PutDynamicConfig(c)
	}
}

// The data source reads one config: its fields, default value, schema and rules with return values;
// a config that does not exist is an error naming it.
func TestAccDynamicConfigDataSource(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	seedConfigs(m, 2)
	addr := "data.featureconsole_dynamic_config.c"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + `data "featureconsole_dynamic_config" "c" { config_id = "config_01" }`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("Config 1")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tags"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("checkout")})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("default_value"), knownvalue.StringExact(`{"max_items":1,"title":"Default 1"}`)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("schema"), knownvalue.StringExact(`{"required":["title"],"type":"object"}`)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact("germany")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("return_value"),
						knownvalue.StringExact(`{"nested":{"a":["x"],"b":1.5},"title":"Jetzt kaufen"}`)),
				},
			},
			{
				Config:      providerBlock(url) + `data "featureconsole_dynamic_config" "c" { config_id = "no_such_config" }`,
				ExpectError: regexp.MustCompile(`Dynamic config "no_such_config" not found`),
			},
		},
	})
}

// The runs data source filters by dynamic_config_id: a config's run is listed, a gate's is not.
func TestAccReleasePipelineTriggers_dynamicConfig(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.SetRunSpeed(0)
	m.PutDynamicConfig(mockconsole.DynamicConfig{ID: "tfacc_copy", ReleasePipelineID: "pl_web"})
	if _, err := m.StartRun("pl_web", "new_checkout"); err != nil {
		t.Fatal(err)
	}
	addr := "data.featureconsole_release_pipeline_triggers.runs"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			PreConfig: func() {
				// A write of the config's rules starts its run, as the service does.
				req, _ := http.NewRequest(http.MethodPatch, url+"/console/v1/dynamic_configs/tfacc_copy",
					strings.NewReader(`{"rules":[{"name":"all","passPercentage":100,"conditions":[],"returnValue":{"a":1}}]}`))
				req.Header.Set("SERVICE-API-KEY", mockconsole.DefaultAPIKey)
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil || resp.StatusCode/100 != 2 { // 200, or 201 as the live service may answer
					t.Fatalf("rules write: %v %v", resp, err)
				}
				_ = resp.Body.Close()
			},
			Config: providerBlock(url) + `data "featureconsole_release_pipeline_triggers" "runs" { dynamic_config_id = "tfacc_copy" }`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("triggers"), knownvalue.ListSizeExact(1)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("triggers").AtSliceIndex(0).AtMapKey("dynamic_config_id"), knownvalue.StringExact("tfacc_copy")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("triggers").AtSliceIndex(0).AtMapKey("gate_id"), knownvalue.Null()),
			},
		}},
	})
}

// The action acts on a config's one active run by dynamic_config_id (Terraform 1.14+).
func TestAccReleasePipelineTrigger_dynamicConfig(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.SetRunSpeed(0)
	m.PutDynamicConfig(mockconsole.DynamicConfig{ID: "tfacc_copy", ReleasePipelineID: "pl_web"})
	body := "    operation         = \"approve\"\n    dynamic_config_id = \"tfacc_copy\"\n    phase             = \"Canary\""
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   actionsTerraform,
		Steps: []resource.TestStep{
			{
				Config:      fireAction(url, 1, body),
				ExpectError: regexp.MustCompile(`(?s)Dynamic config "tfacc_copy" has no active release pipeline run`),
			},
			{
				PreConfig: func() {
					req, _ := http.NewRequest(http.MethodPatch, url+"/console/v1/dynamic_configs/tfacc_copy",
						strings.NewReader(`{"rules":[{"name":"all","passPercentage":100,"conditions":[],"returnValue":{"a":1}}]}`))
					req.Header.Set("SERVICE-API-KEY", mockconsole.DefaultAPIKey)
					req.Header.Set("Content-Type", "application/json")
					resp, err := http.DefaultClient.Do(req)
					if err != nil || resp.StatusCode/100 != 2 { // 200, or 201 as the live service may answer
						t.Fatalf("rules write: %v %v", resp, err)
					}
					_ = resp.Body.Close()
				},
				Config: fireAction(url, 2, body),
				Check: func(*terraform.State) error {
					runs := m.ConfigRuns("tfacc_copy")
					if len(runs) != 1 {
						return fmt.Errorf("runs %v", runs)
					}
					return checkRun(m, runs[0], "IN_PROGRESS", "Canary", "APPROVED_FOR", 1)(nil)
				},
			},
		},
	})
}

// terraform query of configs and their rules generates a configuration that plans as imports only,
// applies without a write and plans empty after (Terraform 1.14+).
func TestAccOnboarding_dynamicConfigs(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t, featListResources)
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	seedConfigs(m, 6)
	cli.write("main.tf", providerBlock(url))
	cli.write("configs.tfquery.hcl", `
list "featureconsole_dynamic_config" "tagged" {
  provider = featureconsole
  config {
    tags = ["checkout"]
  }
}
`)
	cli.must("init", "-input=false", "-no-color")
	if out := cli.must("query", "-no-color"); strings.Count(out, "list.featureconsole_dynamic_config.tagged") != 3 {
		t.Errorf("the tags filter did not list the 3 tagged configs:\n%s", out)
	}
	cli.write("configs.tfquery.hcl", `
list "featureconsole_dynamic_config" "all" {
  provider         = featureconsole
  include_resource = true
}
list "featureconsole_dynamic_config_rules" "all" {
  provider         = featureconsole
  include_resource = true
}
`)
	m.ResetRequests()
	cli.must("query", "-no-color", "-generate-config-out=generated.tf")
	gen := cli.read("generated.tf")
	for typ, want := range map[string]int{"featureconsole_dynamic_config": 6, "featureconsole_dynamic_config_rules": 6} {
		if got := len(regexp.MustCompile(`(?m)^resource "`+typ+`" `).FindAllString(gen, -1)); got != want {
			t.Errorf("generated.tf holds %d %s resources, want %d", got, typ, want)
		}
	}
	if got := strings.Count(gen, "variants = ["); got != 2 {
		t.Errorf("generated.tf holds %d rules with variants, want 2", got)
	}
	if got := m.CountRequests(http.MethodGet, "/dynamic_configs"); got != 2 {
		t.Errorf("query sent %d GET /dynamic_configs requests, want 2 (one list page per list block)", got)
	}
	cli.importsOnlyThenEmpty(m, gen, 6+6)
}

// A refresh of many configs with their rules reads list pages, as one of gates does, not one read
// per config and resource.
func TestAccDynamicConfig_refreshManyConfigs(t *testing.T) {
	t.Parallel()
	const n = 60
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	var b strings.Builder
	b.WriteString(providerBlock(url))
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `
resource "featureconsole_dynamic_config" "c%[1]d" {
  config_id     = "tfacc_many_%03[1]d"
  default_value = jsonencode({ n = %[1]d })
}
resource "featureconsole_dynamic_config_rules" "c%[1]d" {
  config_id = featureconsole_dynamic_config.c%[1]d.config_id
  rules     = [{ name = "all", pass_percentage = 100, return_value = jsonencode({ n = %[1]d }) }]
}
`, i)
	}
	c := newTFCLI(t)
	c.write("main.tf", b.String())
	c.must("apply", "-input=false", "-no-color", "-auto-approve")
	m.ResetRequests()
	if code, out := c.run([]int{0, 2}, "plan", "-input=false", "-no-color", "-detailed-exitcode"); code != 0 {
		t.Fatalf("the plan after apply is not empty:\n%s", out)
	}
	reads, pages := 0, 0
	for _, r := range m.Requests() {
		switch p := strings.TrimPrefix(r.Path, "/console/v1"); {
		case r.Method != http.MethodGet:
			t.Errorf("the refresh sent %s %s", r.Method, r.Path)
		case p == "/dynamic_configs":
			pages++
		case strings.HasPrefix(p, "/dynamic_configs/"):
			reads++
		}
	}
	t.Logf("refresh of %d configs with their rules: %d reads, %d list pages", n, reads, pages)
	if reads+pages > 20 {
		t.Errorf("the refresh sent %d reads and %d list pages; want at most 20 GETs for %d configs", reads, pages, n)
	}
	c.must("destroy", "-input=false", "-no-color", "-auto-approve")
	if ids := m.DynamicConfigIDs(); len(ids) != 0 {
		t.Errorf("configs left after destroy: %v", ids)
	}
}
