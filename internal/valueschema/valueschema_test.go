// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package valueschema

import (
	"strings"
	"testing"
)

const checkout = `{"type":"object","required":["title"],"properties":{"title":{"type":"string"},"max_items":{"type":"integer","minimum":1}}}`

func TestCheck(t *testing.T) {
	s, err := Compile([]byte(checkout))
	if err != nil {
		t.Fatal(err)
	}
	if v := s.Check([]byte(`{"title":"Buy","max_items":5.0}`)); v != nil {
		t.Errorf("5.0 is an integer in JSON Schema, got %v", v)
	}
	v := s.Check([]byte(`{"max_items":0,"extra":{"a":1}}`))
	if len(v) != 2 || v[0].Path != "" || !strings.Contains(v[0].Want, "title") || v[1].Path != "/max_items" || !strings.Contains(v[1].Want, "minimum") {
		t.Fatalf("violations %#v", v)
	}
	if d := Describe(v); !strings.Contains(d, "at (the whole value): ") || !strings.Contains(d, "at /max_items: ") {
		t.Errorf("describe %q", d)
	}
}

func TestCompileRefusesNonSchemas(t *testing.T) {
	for doc, want := range map[string]string{
		`{"type":"objekt"}`: "not a valid JSON Schema",
		`[1]`:               "JSON object",
		`{"type":"object"`:  "not valid JSON",
		`{"$ref":"https://example.com/other.json"}`: "not supported",
		`{"minimum":"one"}`:                         "/minimum",
	} {
		if _, err := Compile([]byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", doc, err, want)
		}
	}
	if _, err := Compile([]byte(`{"$defs":{"n":{"type":"integer"}},"properties":{"n":{"$ref":"#/$defs/n"}}}`)); err != nil {
		t.Errorf("local $ref: %v", err)
	}
}
