// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestSegments(t *testing.T) {
	s, c := newClient(t, Config{})
	r := c.do("GET", "/segments", nil)
	expect(t, r, 200)
	l := r.list()
	if len(l) < 10 {
		t.Fatalf("segments %d", len(l))
	}
	raw := string(r.Raw)
	if !strings.Contains(raw, `"targetValue":5`) || !strings.Contains(raw, `12.5`) {
		t.Fatalf("seed segments lack scalar/mixed target values: %s", raw)
	}
	types := map[any]int{}
	for _, x := range l {
		m := x.(map[string]any)
		types[m["type"]]++
		if rules, _ := m["rules"].([]any); m["type"] == "id_list" && len(rules) > 0 {
			t.Fatal("id_list with rules")
		}
	}
	if types["id_list"] == 0 || types["rule_based"] == 0 {
		t.Fatalf("types %v", types)
	}
	s.SetSegments(nil)
	r = c.do("GET", "/segments", nil)
	if len(r.list()) != 0 || r.pg()["totalItems"] != json.Number("0") {
		t.Fatalf("empty segments %s", r.Raw)
	}
}

// Segments accept the 14 condition types the service documents for them and refuse every other, in a create's
// rules and in a write of the rules, naming the condition and the types allowed.
func TestSegmentConditionTypes(t *testing.T) {
	_, c := newClient(t, Config{})
	rule := func(typ string) map[string]any {
		return map[string]any{"name": typ, "passPercentage": 100,
			"conditions": []any{map[string]any{"type": typ, "operator": "any", "targetValue": []any{"x"}}}}
	}
	var every []any
	for _, typ := range SegmentConditionTypes {
		every = append(every, rule(typ))
	}
	expect(t, c.do("POST", "/segments", map[string]any{"id": "every_type", "name": "every_type", "type": "rule_based", "rules": every}), 201)
	expect(t, c.do("POST", "/segments/every_type/conditional", every), 200)
	for _, typ := range []string{"locale", "url", "public", "time", "passes_gate", "fails_gate", "target_app", "Email"} {
		for _, r := range []result{
			c.do("POST", "/segments", map[string]any{"id": "with_" + strings.ToLower(typ), "name": "with_" + strings.ToLower(typ), "type": "rule_based", "rules": []any{rule("email"), rule(typ)}}),
			c.do("POST", "/segments/every_type/conditional", []any{rule("email"), rule(typ)}),
		} {
			expect(t, r, 400)
			if msg := string(r.Raw); !strings.Contains(msg, fmt.Sprintf(`rules[1].conditions[0].type \"%s\" is not allowed in segments`, typ)) ||
				!strings.Contains(msg, strings.Join(SegmentConditionTypes, ", ")) {
				t.Errorf("%s: %s", typ, msg)
			}
		}
	}
	r := c.do("GET", "/segments/every_type", nil)
	if got := strings.Count(string(r.Raw), `"operator":"any"`); got != len(SegmentConditionTypes) {
		t.Errorf("the segment holds %d conditions after refused writes, want %d: %s", got, len(SegmentConditionTypes), r.Raw)
	}
}
