// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// writeVariantRules writes a config's rules as the provider does (one place for the route).
func writeVariantRules(t *testing.T, url, id, rules string) (int, map[string]any) {
	t.Helper()
	return do(t, url, http.MethodPatch, "/dynamic_configs/"+id, `{"rules":[`+rules+`]}`)
}

func variantRule(variants string) string {
	return `{"name":"split","passPercentage":100,"conditions":[],"returnValue":{"title":"Buy"},"variants":[` + variants + `]}`
}

// Variants of config rules: stored with new ids, answered with a JSON5 copy; an id sent back is
// kept, an id the config does not hold is replaced; a write leaving them out removes them; bad
// sums, names, values and values breaking the schema are refused naming the rule and variant;
// gate rules refuse variants.
func TestConfigRuleVariants(t *testing.T) {
	s, ts := NewTestServer(t, Config{NoSeed: true})
	s.PutDynamicConfig(DynamicConfig{ID: "copy", Schema: json.RawMessage(checkoutSchema)})
	two := `{"name":"control","passPercentage":50,"returnValue":{"title":"Buy"}},{"name":"urgent","passPercentage":50.0,"returnValue":{"title":"Buy today"}}`
	if st, b := writeVariantRules(t, ts.URL, "copy", variantRule(two)); st != 200 {
		t.Fatalf("write: %d %v", st, b)
	}
	c, _ := s.DynamicConfig("copy")
	v := c.Rules[0].Variants
	if len(v) != 2 || v[0].ID == "" || v[1].ID == "" || v[0].ID == v[1].ID || v[1].Name != "urgent" || v[1].PassPercentage != 50 {
		t.Fatalf("stored variants %+v", v)
	}
	_, b := do(t, ts.URL, http.MethodGet, "/dynamic_configs/copy", "")
	rv := b["data"].(map[string]any)["rules"].([]any)[0].(map[string]any)["variants"].([]any)[0].(map[string]any)
	if rv["id"] != v[0].ID || rv["returnValueJson5"] == nil {
		t.Errorf("read variant %v", rv)
	}

	// control sent back with its id keeps it; urgent with an id the config does not hold gets a new one.
	again := `{"id":"` + v[0].ID + `","name":"control","passPercentage":40,"returnValue":{"title":"Buy"}},` +
		`{"id":"not_held","name":"urgent","passPercentage":60,"returnValue":{"title":"Buy today"}}`
	if st, b := writeVariantRules(t, ts.URL, "copy", variantRule(again)); st != 200 {
		t.Fatalf("write again: %d %v", st, b)
	}
	c, _ = s.DynamicConfig("copy")
	if w := c.Rules[0].Variants; w[0].ID != v[0].ID || w[1].ID == "not_held" || w[1].ID == v[1].ID || w[0].PassPercentage != 40 {
		t.Errorf("ids after a write sending them back: %+v (held %+v)", w, v)
	}

	for _, tc := range []struct{ rules, want string }{
		{variantRule(`{"name":"a","passPercentage":50,"returnValue":{"title":"A"}},{"name":"b","passPercentage":40,"returnValue":{"title":"B"}}`),
			`rules[0].variants (rule "split"): passPercentage of the variants must sum to 100, got 90`},
		{variantRule(`{"name":"a","passPercentage":50,"returnValue":{"title":"A"}},{"name":"a","passPercentage":50,"returnValue":{"title":"B"}}`),
			`rules[0].variants[1].name "a" duplicates rules[0].variants[0].name`},
		{variantRule(`{"name":"a","passPercentage":100,"returnValue":[1]}`), `rules[0].variants[0].returnValue must be a JSON object`},
		{variantRule(`{"name":"a","passPercentage":100,"returnValue":{"title":7}}`),
			`rules[0].variants[0].returnValue (rule "split", variant "a") does not match the schema`},
		{variantRule(`{"name":"a","passPercentage":100,"returnValue":{"title":"A"},"colour":1}`), `colour`},
	} {
		st, b := writeVariantRules(t, ts.URL, "copy", tc.rules)
		if msg, _ := b["message"].(string); st != 400 || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: %d %q, want 400 with %q", tc.rules, st, msg, tc.want)
		}
	}
	// A schema change that a held variant value breaks is refused.
	if st, b := do(t, ts.URL, http.MethodPatch, "/dynamic_configs/copy", `{"schema":"{\"type\":\"object\",\"properties\":{\"title\":{\"maxLength\":3}}}"}`); st != 400 ||
		!strings.Contains(b["message"].(string), `variant "urgent"`) {
		t.Errorf("schema change breaking a variant value: %d %v", st, b)
	}

	if st, b := writeVariantRules(t, ts.URL, "copy", `{"name":"split","passPercentage":100,"conditions":[],"returnValue":{"title":"Buy"}}`); st != 200 {
		t.Fatalf("write without variants: %d %v", st, b)
	}
	if c, _ := s.DynamicConfig("copy"); c.Rules[0].Variants != nil {
		t.Errorf("a write leaving variants out kept %+v", c.Rules[0].Variants)
	}
	_, b = do(t, ts.URL, http.MethodGet, "/dynamic_configs/copy", "")
	if _, has := b["data"].(map[string]any)["rules"].([]any)[0].(map[string]any)["variants"]; has {
		t.Error("a rule without variants is answered with the field")
	}

	s.PutGate(Gate{ID: "gate_v"})
	st, b := do(t, ts.URL, http.MethodPatch, "/gates/gate_v/rules", `{"rules":[`+variantRule(`{"name":"a","passPercentage":100,"returnValue":{}}`)+`]}`)
	if msg, _ := b["message"].(string); st != 400 || !strings.Contains(msg, "gate rules have no variants") {
		t.Errorf("gate rules with variants: %d %v", st, b)
	}
}
