// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// Dynamic configs on the service's 2025 wire (the service's 2025 documents).

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

// A console config with JSON5 copies, holding {"text":"Hi","n":5}, imported with a configuration
// that writes the same JSON otherwise: the plan after import is empty, and so is the plan after an
// apply of that configuration.
func TestAccDynamicConfig_equalJSONImport(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.SetHabits(m.Habits().With(mockconsole.Habits{JSON5Copies: true, SchemaReserialised: true}))
	m.PutDynamicConfig(mockconsole.DynamicConfig{
		ID: "tfacc_copy", Name: "tfacc_copy", IsEnabled: true, DefaultValue: json.RawMessage(`{"text":"Hi","n":5}`),
		Schema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}}}`),
	})
	cfg := providerBlock(url) + dynamicConfigHCL(
		`default_value = "{ \"n\": 5.0,  \"text\": \"Hi\" }"`,
		`schema        = "{\"properties\": {\"n\": {\"type\": \"number\"}}, \"type\": \"object\"}"`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockConfig(m, "tfacc_copy"),
		Steps: []resource.TestStep{
			{Config: cfg, ResourceName: configAddr, ImportState: true, ImportStateId: "tfacc_copy", ImportStatePersist: true},
			{
				PreConfig: m.ResetRequests,
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: func(*terraform.State) error {
					if w := configWrites(m, "tfacc_copy"); len(w) != 0 {
						return fmt.Errorf("an equal value sent %+v", w)
					}
					return nil
				},
			},
		},
	})
}

// The same for a configuration applied from the start: other spacing and 5.0 plan nothing after.
func TestAccDynamicConfig_equalJSONApply(t *testing.T) {
	_, url := startMock(t, mockconsole.Config{})
	cfg := providerBlock(url) + dynamicConfigHCL(`default_value = "{ \"n\": 5.0,  \"text\": \"Hi\" }"`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg},
			{Config: providerBlock(url) + dynamicConfigHCL(`default_value = jsonencode({ text = "Hi", n = 5 })`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}

// A value that is not JSON says to write it with jsonencode, on the attribute, with nothing sent.
func TestAccDynamicConfig_notJSONHint(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	rules := func(rv string) string {
		return `
resource "featureconsole_dynamic_config_rules" "copy" {
  config_id = "homepage_banner"
  rules = [{ name = "a", pass_percentage = 5, return_value = ` + rv + ` }]
}
`
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig:   m.ResetRequests,
				Config:      providerBlock(url) + dynamicConfigHCL(`default_value = "grey"`),
				ExpectError: errRe(`default_value must be a JSON object, written with jsonencode({...}), such as default_value = jsonencode({`),
			},
			{
				Config:      providerBlock(url) + dynamicConfigHCL(`schema = "{type: object}"`),
				ExpectError: errRe(`schema must be a JSON object, written with jsonencode({...}), such as schema = jsonencode({`),
			},
			{
				Config:      providerBlock(url) + rules(`"grey"`),
				ExpectError: errRe(`rules[0].return_value must be a JSON object, written with jsonencode({...})`),
			},
		},
	})
	if w := configWrites(m, ""); len(w) != 0 { // "": every config's writes
		t.Errorf("sent %+v", w)
	}
}

// A config archived in the console plans archived = true -> false, and one apply unarchives it
// before it writes the config's fields and rules.
func TestAccDynamicConfig_consoleArchive(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	rulesHCL := func(rule string) string {
		return `
resource "featureconsole_dynamic_config_rules" "copy" {
  config_id = featureconsole_dynamic_config.copy.config_id
  rules = [` + rule + `]
}
`
	}
	base := providerBlock(url) + dynamicConfigHCL(configFullLines...)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockConfig(m, "tfacc_copy"),
		Steps: []resource.TestStep{
			{Config: base + rulesHCL(ruleDE)},
			{
				PreConfig: func() {
					if err := m.ArchiveDynamicConfig("tfacc_copy", true); err != nil {
						t.Fatal(err)
					}
					m.ResetRequests()
				},
				Config: providerBlock(url) + dynamicConfigHCL(append(configFullLines[1:], `name = "Checkout texts"`)...) + rulesHCL(ruleFR),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(configAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(configAddr, tfjsonpath.New("archived"), knownvalue.Bool(false)),
				}},
				Check: func(*terraform.State) error {
					c, _ := m.DynamicConfig("tfacc_copy")
					if c.Status == "Archived" || c.Name != "Checkout texts" || len(c.Rules) != 1 || c.Rules[0].Name != "france" {
						return fmt.Errorf("mock holds %+v", c)
					}
					w := configWrites(m, "tfacc_copy")
					if len(w) < 3 || !strings.HasSuffix(w[0].Path, "/unarchive") {
						return fmt.Errorf("writes %+v: the unarchive is not first", w)
					}
					for _, r := range w {
						if r.Status >= 300 {
							return fmt.Errorf("%s %s answered %d", r.Method, r.Path, r.Status)
						}
					}
					return nil
				},
			},
			{Config: providerBlock(url) + dynamicConfigHCL(append(configFullLines[1:], `name = "Checkout texts"`)...) + rulesHCL(ruleFR),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}

// A rules write refused because the config is archived (archived = true in the configuration)
// names the archive and what to do.
func TestAccDynamicConfig_archivedRefusal(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.PutDynamicConfig(mockconsole.DynamicConfig{ID: "tfacc_copy"})
	if err := m.ArchiveDynamicConfig("tfacc_copy", true); err != nil {
		t.Fatal(err)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
resource "featureconsole_dynamic_config_rules" "copy" {
  config_id = "tfacc_copy"
  rules = [` + ruleDE + `]
}
`,
			ExpectError: phrasesRe(`Dynamic config "tfacc_copy" is archived`, "Set `archived = false`", "is archived and cannot be modified"),
		}},
	})
}

// archive_on_destroy with keep_on_destroy: destroy archives the config and keeps it with its rules.
func TestAccDynamicConfig_archiveOnDestroy(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	cfg := providerBlock(url) + dynamicConfigHCL(append(configFullLines, `archive_on_destroy = true`)...) + `
resource "featureconsole_dynamic_config_rules" "copy" {
  config_id       = featureconsole_dynamic_config.copy.config_id
  keep_on_destroy = featureconsole_dynamic_config.copy.archive_on_destroy
  rules           = [` + ruleDE + `]
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			c, ok := m.DynamicConfig("tfacc_copy")
			if !ok || c.Status != "Archived" || len(c.Rules) != 1 || c.Rules[0].Name != "germany" {
				return fmt.Errorf("destroy left %v %+v, want the config archived with its rule", ok, c)
			}
			return nil
		},
		Steps: []resource.TestStep{{Config: cfg}},
	})
}
