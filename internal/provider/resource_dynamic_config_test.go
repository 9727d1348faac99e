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
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

const configAddr = "featureconsole_dynamic_config.copy"

// checkoutSchemaHCL is the schema of the examples: a title is required, max_items at least 1.
const checkoutSchemaHCL = `jsonencode({
    type = "object", required = ["title"],
    properties = { title = { type = "string" }, max_items = { type = "integer", minimum = 1 } }
  })`

// dynamicConfigHCL is a config named tfacc_copy with the attributes given (HCL lines).
func dynamicConfigHCL(lines ...string) string {
	return fmt.Sprintf(`
resource "featureconsole_dynamic_config" "copy" {
  config_id = "tfacc_copy"
  %s
}
`, strings.Join(lines, "\n  "))
}

var configFullLines = []string{
	`name          = "Checkout copy"`,
	`description   = "Texts of the checkout page"`,
	`tags          = ["checkout"]`,
	`target_apps   = ["web"]`,
	`default_value = jsonencode({ title = "Buy now", max_items = 5 })`,
	`schema        = ` + checkoutSchemaHCL,
}

// expectMockConfig checks the config the mock holds.
func expectMockConfig(m *mockconsole.Server, id string, check func(mockconsole.DynamicConfig) error) resource.TestCheckFunc {
	return expectInMock("dynamic config", id, m.DynamicConfig, check)
}

// expectNoMockConfig is CheckDestroy: destroy left no config of that id behind.
func expectNoMockConfig(m *mockconsole.Server, id string) resource.TestCheckFunc {
	return expectGoneFromMock("dynamic config", id, m.DynamicConfig)
}

// sameJSONText compares two JSON texts by meaning.
func sameJSONText(a, b []byte) bool {
	return framework.SameJSONMeaning(a, b)
}

// Lifecycle: create with a default value and a schema; the service's answer with keys in another
// order, other spacing and 5.0 plans nothing and the state keeps the configuration's text; a console
// change shows and apply restores it; import plans empty; destroy deletes.
func TestAccDynamicConfig_lifecycle(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := providerBlock(url) + dynamicConfigHCL(configFullLines...)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockConfig(m, "tfacc_copy"),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(configAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(configAddr, tfjsonpath.New("id"), knownvalue.StringExact("tfacc_copy")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(configAddr, tfjsonpath.New("default_value"), knownvalue.StringExact(`{"max_items":5,"title":"Buy now"}`)),
					statecheck.ExpectKnownValue(configAddr, tfjsonpath.New("id_type"), knownvalue.StringExact("userID")),
					statecheck.ExpectKnownValue(configAddr, tfjsonpath.New("is_enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(configAddr, tfjsonpath.New("creator_name"), knownvalue.StringExact("Console API")),
				},
				Check: expectMockConfig(m, "tfacc_copy", func(c mockconsole.DynamicConfig) error {
					if c.Name != "Checkout copy" || !sameJSONText(c.DefaultValue, []byte(`{"title":"Buy now","max_items":5}`)) ||
						!strings.Contains(string(c.Schema), `"minimum":1`) || len(c.Tags) != 1 || len(c.TargetApps) != 1 {
						return fmt.Errorf("mock holds %+v", c)
					}
					return nil
				}),
			},
			{
				// The same JSON written differently by the service plans nothing.
				PreConfig: func() {
					if err := m.ServeConfigValuesReordered("tfacc_copy", true); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(configAddr, tfjsonpath.New("default_value"), knownvalue.StringExact(`{"max_items":5,"title":"Buy now"}`)),
				},
			},
			{
				// A console change of the default value shows in the plan; apply puts it back.
				PreConfig: func() {
					_ = m.ServeConfigValuesReordered("tfacc_copy", false)
					c, _ := m.DynamicConfig("tfacc_copy")
					c.DefaultValue = json.RawMessage(`{"title":"Edited in the console","max_items":5}`)
					m.PutDynamicConfig(c)
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(configAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(configAddr, tfjsonpath.New("default_value"), knownvalue.StringExact(`{"max_items":5,"title":"Buy now"}`)),
				}},
				Check: expectMockConfig(m, "tfacc_copy", func(c mockconsole.DynamicConfig) error {
					if !sameJSONText(c.DefaultValue, []byte(`{"title":"Buy now","max_items":5}`)) {
						return fmt.Errorf("default value %s", c.DefaultValue)
					}
					return nil
				}),
			},
			{
				Config: cfg, ResourceName: configAddr,
				ImportState: true, ImportStateId: "tfacc_copy", ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
			{
				// Only the fields that changed are sent; removing default_value sends {}.
				Config: providerBlock(url) + dynamicConfigHCL(append(slicesWithout(configFullLines, 4), `is_enabled = false`)...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(configAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(configAddr, tfjsonpath.New("version")),
				}},
				ExpectError: regexp.MustCompile(`(?s)default value \{\} breaks the schema.*default_value is omitted.*missing property`),
			},
			{
				Config: providerBlock(url) + dynamicConfigHCL(append(configFullLines, `is_enabled = false`)...),
				Check: func(*terraform.State) error {
					var last string
					for _, r := range m.Requests() {
						if r.Method == "PATCH" && r.Path == "/console/v1/dynamic_configs/tfacc_copy" {
							last = string(r.Body)
						}
					}
					if last != `{"isEnabled":false}` {
						return fmt.Errorf("the update sent %s: want only what changed", last)
					}
					return nil
				},
			},
		},
	})
}

func slicesWithout(s []string, i int) []string {
	out := append([]string{}, s[:i]...)
	return append(out, s[i+1:]...)
}

// Removing release_pipeline_id detaches the config in one apply, with null, as a gate's (the
// service takes "" for a pipeline's id and refuses it); the plan after is empty.
func TestAccDynamicConfig_removePipelineClearsWithNull(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockConfig(m, "tfacc_copy"),
		Steps: []resource.TestStep{
			{Config: providerBlock(url) + dynamicConfigHCL(`release_pipeline_id = "pl_web"`)},
			{
				Config: providerBlock(url) + dynamicConfigHCL(),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(configAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(configAddr, tfjsonpath.New("release_pipeline_id"), knownvalue.Null()),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectMockConfig(m, "tfacc_copy", func(c mockconsole.DynamicConfig) error {
						if c.ReleasePipelineID != "" {
							return fmt.Errorf("the config is still attached to %q", c.ReleasePipelineID)
						}
						return nil
					}),
					expectLinkClearedWithNull(m, "/console/v1/dynamic_configs/tfacc_copy", "releasePipelineID"),
				),
			},
		},
	})
}

// Bad input fails the plan with the attribute, the path inside the value and the fix named, and
// nothing is sent.
func TestAccDynamicConfig_badInput(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	cases := []struct {
		lines []string
		want  string
	}{
		{[]string{`config_id_x = 1`}, `Unsupported argument`},
		{[]string{`default_value = jsonencode([1, 2])`}, `(?s)Default value is not a JSON object.*jsonencode\(\{\.\.\.\}\)`},
		{[]string{`schema = jsonencode({ type = "objekt" })`}, `(?s)Invalid JSON Schema.*not a JSON Schema`},
		{[]string{`schema = jsonencode("x")`}, `(?s)Schema is not a JSON object`},
		{[]string{`schema = ` + checkoutSchemaHCL, `default_value = jsonencode({ title = 7, max_items = 0 })`},
			`(?s)default value breaks the schema.*at /max_items: minimum.*at /title: got number, want string`},
	}
	for _, c := range cases {
		resource.Test(t, resource.TestCase{
			PreCheck:                 func() { testAccPreCheck(t) },
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config: providerBlock(url) + dynamicConfigHCL(c.lines...), PlanOnly: true,
				ExpectError: regexp.MustCompile(c.want),
			}},
		})
	}
	bad := map[string]string{"ab": "length", "a b c": "holds ' '", "chéckout": "holds 'é'", strings.Repeat("x", 101): "length"}
	for id, want := range bad {
		resource.Test(t, resource.TestCase{
			PreCheck:                 func() { testAccPreCheck(t) },
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config:      providerBlock(url) + fmt.Sprintf(`resource "featureconsole_dynamic_config" "x" { config_id = %q }`, id),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)config_id.*` + want),
			}},
		})
	}
	if n := m.CountRequests("", "/dynamic_configs"); n != 0 {
		t.Errorf("%d requests sent for bad input", n)
	}
}

// Create never takes over a config of the same id: the error says how to import it.
func TestAccDynamicConfig_existing(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.PutDynamicConfig(mockconsole.DynamicConfig{ID: "tfacc_copy", Name: "Someone elses"})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      providerBlock(url) + dynamicConfigHCL(),
			ExpectError: regexp.MustCompile(`(?s)already exists.*import`),
		}},
	})
	if c, _ := m.DynamicConfig("tfacc_copy"); c.Name != "Someone elses" {
		t.Errorf("the existing config was changed: %+v", c)
	}
}

// A change of a config's own fields held for review is settled as a gate's is: not submitted again
// while pending, committed once approved, and the plan after it is empty.
func TestAccDynamicConfig_reviewCommit(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(desc string) string {
		return providerBlock(url, "respect_review_settings = true") + dynamicConfigHCL(`description = "`+desc+`"`)
	}
	setReviews := func(on bool) {
		h := m.Habits()
		h.Reviews, h.ReviewCommits = on, on
		m.SetHabits(h)
	}
	patches := func() int { return m.CountRequests("PATCH", "/dynamic_configs/tfacc_copy") }
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockConfig(m, "tfacc_copy"),
		Steps: []resource.TestStep{
			{PreConfig: func() { setReviews(false) }, Config: cfg("first")},
			{
				PreConfig:   func() { setReviews(true) },
				Config:      cfg("second"),
				ExpectError: regexp.MustCompile(`Change to dynamic config "tfacc_copy" awaits review`),
			},
			{
				PreConfig:   m.ResetRequests,
				Config:      cfg("second"),
				ExpectError: regexp.MustCompile(`(?s)still awaits review.*nothing was sent again`),
			},
			{
				PreConfig: approveUnsent(t, m, patches),
				Config:    cfg("second"),
				Check: func(*terraform.State) error {
					if n := patches(); n != 0 {
						return fmt.Errorf("the approved change was sent again (%d writes)", n)
					}
					return expectMockConfig(m, "tfacc_copy", func(c mockconsole.DynamicConfig) error {
						if c.Description != "second" {
							return fmt.Errorf("description %q after the commit", c.Description)
						}
						return nil
					})(nil)
				},
			},
			{PreConfig: func() { setReviews(false) }, Config: cfg("second")},
		},
	})
}

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

// configWrites are the writes the mock received for the config, as "METHOD path".
func configWrites(m *mockconsole.Server, id string) []mockconsole.Request {
	var out []mockconsole.Request
	for _, r := range m.Requests() {
		if r.Method != http.MethodGet && strings.Contains(r.Path, "/dynamic_configs") &&
			(strings.HasSuffix(r.Path, "/dynamic_configs") || strings.Contains(r.Path, "/dynamic_configs/"+id)) {
			out = append(out, r)
		}
	}
	return out
}

// A config with a schema and one target app, against a service answering that app as a bare string,
// with JSON5 copies and its schema re-serialised: the create sends the schema as text, the service
// holds it, the next plan is empty, and the rules are written with PATCH /dynamic_configs/{id} only.
func TestAccDynamicConfig_wire(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.SetHabits(m.Habits().With(mockconsole.Habits{BareTargetApps: true, JSON5Copies: true, SchemaReserialised: true}))
	cfg := providerBlock(url) + dynamicConfigHCL(configFullLines...) + `
resource "featureconsole_dynamic_config_rules" "copy" {
  config_id = featureconsole_dynamic_config.copy.config_id
  rules = [` + ruleDE + `]
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockConfig(m, "tfacc_copy"),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(configAddr, "target_apps.#", "1"),
					resource.TestCheckTypeSetElemAttr(configAddr, "target_apps.*", "web"),
					resource.TestCheckResourceAttr(configAddr, "archived", "false"),
					func(*terraform.State) error {
						c, _ := m.DynamicConfig("tfacc_copy")
						if !strings.Contains(string(c.Schema), `"minimum":1`) || len(c.Rules) != 1 {
							return fmt.Errorf("mock holds %+v", c)
						}
						for _, r := range configWrites(m, "tfacc_copy") {
							var body map[string]json.RawMessage
							_ = json.Unmarshal(r.Body, &body)
							if s, ok := body["schema"]; ok && !strings.HasPrefix(string(s), `"`) {
								return fmt.Errorf("%s %s sent schema %s, not as text", r.Method, r.Path, s)
							}
							if r.Method == http.MethodPost && !strings.Contains(string(body["schema"]), `\"minimum\":1`) {
								return fmt.Errorf("create sent %s", r.Body)
							}
							if strings.HasSuffix(r.Path, "/rules") || r.Status >= 300 {
								return fmt.Errorf("%s %s answered %d", r.Method, r.Path, r.Status)
							}
						}
						return nil
					},
				),
			},
			{Config: cfg, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
			{
				Config: cfg, ResourceName: configAddr, ImportState: true, ImportStateId: "tfacc_copy", ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"timeouts", "default_value", "schema"},
			},
		},
	})
}

// A config without a schema sends none (never {}), and removing a schema sends null.
func TestAccDynamicConfig_noSchemaSent(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	with := providerBlock(url) + dynamicConfigHCL(`schema = jsonencode({ type = "object" })`)
	without := providerBlock(url) + dynamicConfigHCL()
	schemaSent := func(want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			for _, r := range configWrites(m, "tfacc_copy") {
				var body map[string]json.RawMessage
				_ = json.Unmarshal(r.Body, &body)
				if got, ok := body["schema"]; (ok || want != "") && string(got) != want {
					return fmt.Errorf("%s %s sent schema %s, want %q", r.Method, r.Path, got, want)
				}
			}
			m.ResetRequests()
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockConfig(m, "tfacc_copy"),
		Steps: []resource.TestStep{
			{PreConfig: m.ResetRequests, Config: without, Check: schemaSent("")},
			{Config: with, Check: schemaSent(`"{\"type\":\"object\"}"`)},
			{Config: without, Check: schemaSent(`null`)},
			{Config: without, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}
