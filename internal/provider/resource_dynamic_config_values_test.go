// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/valueschema"
)

// A config's value read without a configuration takes jsonencode's form; {} is null where the
// state holds null; the prior form is kept where it is {}.
func TestFlattenJSONValue(t *testing.T) {
	if v := flattenJSONValue(console.JSONObject(`{"b":1.0,"a":2}`), framework.NewJSONNull()); v.ValueString() != `{"a":2,"b":1}` {
		t.Errorf("got %s", v.ValueString())
	}
	if v := flattenJSONValue(console.JSONObject(`{}`), framework.NewJSONNull()); !v.IsNull() {
		t.Errorf("{} with a null prior: %s", v)
	}
	if v := flattenJSONValue(nil, framework.NewJSONValue(`{ }`)); v.ValueString() != `{ }` {
		t.Errorf("{} with a {} prior: %s", v)
	}
}

// checkValue adds one error per value, on the value's path, listing each JSON path and what the
// schema wants there.
func TestCheckValue(t *testing.T) {
	s, err := valueschema.Compile([]byte(`{"type":"object","required":["title"],"properties":{"n":{"type":"integer"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var diags diag.Diagnostics
	at := path.Root("rules").AtListIndex(2).AtName("return_value")
	if checkValue(s, []byte(`{"n":1.5}`), at, `Return value of rule "x"`, "rules[2].return_value", "the schema", &diags) {
		t.Fatal("a breaking value passed")
	}
	if !checkValue(s, []byte(`{"title":"t","n":2.0}`), at, "ok", "rules[2].return_value", "the schema", &diags) {
		t.Fatal("a matching value failed")
	}
	if len(diags) != 1 {
		t.Fatalf("%d diagnostics", len(diags))
	}
	d := diags[0].Detail()
	for _, want := range []string{"rules[2].return_value", "at (the whole value): missing property 'title'", "at /n: got number, want integer", "Nothing was sent"} {
		if !strings.Contains(d, want) {
			t.Errorf("detail lacks %q:\n%s", want, d)
		}
	}
	if checkValue(nil, []byte(`[]`), at, "x", "w", "y", &diags) != true {
		t.Error("no schema checks nothing")
	}
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
