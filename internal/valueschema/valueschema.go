// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

// Package valueschema checks the values of a dynamic config against the config's JSON Schema
// (Draft 2020-12 unless the schema names another draft with $schema), with
// github.com/santhosh-tekuri/jsonschema: the provider checks at plan time what the service checks
// when the write arrives, and the mock plays the service with the same code.
package valueschema

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Schema is a compiled JSON Schema.
type Schema struct{ s *jsonschema.Schema }

// Violation is one place where a value breaks the schema.
type Violation struct {
	// Path is the JSON pointer of the offending part of the value ("" is the value itself).
	Path string
	// Want is what the schema asks there, in the library's words ("missing property 'title'").
	Want string
}

// Where is Path for people: "(the whole value)" or "/title".
func (v Violation) Where() string {
	if v.Path == "" {
		return "(the whole value)"
	}
	return v.Path
}

var printer = message.NewPrinter(language.English)

// noLoader refuses every $ref to a document outside the schema: a plan must not fetch from the
// network, and the service resolves none either.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("references to other documents (%s) are not supported: keep every definition in the schema itself ($defs)", url)
}

const location = "schema.json"

// Compile checks that doc (a JSON text) is a JSON Schema and compiles it. The error says what is
// wrong in words, for a diagnostic.
func Compile(doc []byte) (*Schema, error) {
	parsed, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	if _, ok := parsed.(map[string]any); !ok {
		if _, isBool := parsed.(bool); !isBool {
			return nil, errors.New("a JSON Schema is a JSON object (or true/false)")
		}
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if err := c.AddResource(location, parsed); err != nil {
		return nil, err
	}
	s, err := c.Compile(location)
	if err != nil {
		return nil, errors.New(schemaError(err))
	}
	return &Schema{s}, nil
}

// schemaError is the compiler's error without the file name the schema was given here.
func schemaError(err error) string {
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			var parts []string
			for _, v := range leaves(ve) {
				parts = append(parts, fmt.Sprintf("at %s: %s", v.Where(), v.Want))
			}
			return "it is not a valid JSON Schema: " + strings.Join(parts, "; ")
		}
	}
	msg := strings.ReplaceAll(err.Error(), "file:///"+location, "the schema")
	return strings.ReplaceAll(msg, location, "the schema")
}

// Check validates value (a JSON text) and returns every violation, ordered by path; none when the
// value matches. A value that is not JSON is one violation at the root.
func (s *Schema) Check(value []byte) []Violation {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(value))
	if err != nil {
		return []Violation{{Want: "valid JSON: " + err.Error()}}
	}
	err = s.s.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Violation{{Want: err.Error()}}
	}
	return leaves(ve)
}

// leaves are the innermost causes of a validation error: the places that actually break the schema.
func leaves(ve *jsonschema.ValidationError) []Violation {
	var out []Violation
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, Violation{Path: pointer(e.InstanceLocation), Want: e.ErrorKind.LocalizedString(printer)})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	slices.SortStableFunc(out, func(a, b Violation) int { return strings.Compare(a.Path, b.Path) })
	return slices.Compact(out)
}

func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		b.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return b.String()
}

// Describe joins violations for one message: "at /title: missing ...; at /max_items: ...".
func Describe(vs []Violation) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprintf("at %s: %s", v.Where(), v.Want)
	}
	return strings.Join(parts, "; ")
}
