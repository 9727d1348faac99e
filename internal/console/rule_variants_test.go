// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestRuleVariantsRead: a config rule's variants read with their opaque ids, percentages in any
// number form and the JSON return value; the JSON5 copy beside it is not read.
func TestRuleVariantsRead(t *testing.T) {
	var d DynamicConfig
	err := json.Unmarshal([]byte(`{"id":"c","rules":[{"name":"split","passPercentage":100,"variants":[`+
		`{"id":"v.1/x","name":"control","passPercentage":50,"returnValue":{"a":1},"returnValueJson5":"{a: 1,}"},`+
		`{"id":"7","name":"urgent","passPercentage":50.0,"returnValue":{"a":2}},`+
		`{"id":"8","name":"rest","passPercentage":0e0,"returnValue":{}}]}]}`), &d)
	if err != nil {
		t.Fatal(err)
	}
	v := d.Rules[0].Variants
	if len(v) != 3 || v[0].ID != "v.1/x" || v[0].PassPercentage != 50 || v[1].PassPercentage != 50 || v[2].PassPercentage != 0 ||
		string(v[0].ReturnValue) != `{"a":1}` || v[1].Name != "urgent" {
		t.Fatalf("variants %+v", v)
	}
}

// TestRuleVariantsWire: a config's rules write carries each rule's variants (ids known sent back,
// none for new ones; a rule without variants sends none, which removes them); a gate's rules write
// never carries variants.
func TestRuleVariantsWire(t *testing.T) {
	f := newFake(t, script(ok(`{"id":"c","rules":[]}`), ok(`{"id":"g","rules":[]}`)))
	c := f.client()
	rules := []Rule{
		{Name: "split", PassPercentage: 100, ReturnValue: json.RawMessage(`{}`), Variants: []RuleVariant{
			{ID: "v1", Name: "control", PassPercentage: 50, ReturnValue: json.RawMessage(`{"a":1}`)},
			{Name: "urgent", PassPercentage: 50, ReturnValue: json.RawMessage(`{"a":2}`)},
		}},
		{Name: "plain", PassPercentage: 10, ReturnValue: json.RawMessage(`{}`)},
	}
	if _, err := c.UpdateDynamicConfigRules(context.Background(), "c", rules); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateGateRules(context.Background(), "g", rules); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	want := `"variants":[{"id":"v1","name":"control","passPercentage":50,"returnValue":{"a":1}},{"name":"urgent","passPercentage":50,"returnValue":{"a":2}}]`
	if !strings.Contains(reqs[0].Body, want) || strings.Count(reqs[0].Body, "variants") != 1 {
		t.Errorf("config rules write %s, want one rule with %s", reqs[0].Body, want)
	}
	if strings.Contains(reqs[1].Body, "variants") {
		t.Errorf("gate rules write carries variants: %s", reqs[1].Body)
	}
	if len(rules[0].Variants) != 2 {
		t.Error("the gate's write changed the caller's rules")
	}
}
