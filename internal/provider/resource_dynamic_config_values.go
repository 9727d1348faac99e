// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/valueschema"
)

// The JSON values of dynamic configs (default_value, return_value, schema): JSON objects compared
// as JSON (jsontypes.Normalized: key order, spacing and 1 against 1.0 plan nothing, and the state
// keeps the configuration's text when it means the same), every value checked against the
// config's JSON Schema at plan time, with the words of internal/valueschema.

// configValue is the one attribute check of a config's JSON values: a JSON object, else an error
// that shows how to write one. what names the value in the summary ("Default value").
func configValue(what string) validator.String {
	return framework.NewStringCheck("value must be a JSON object, written with jsonencode({...})", func(req validator.StringRequest, resp *validator.StringResponse) {
		raw := []byte(req.ConfigValue.ValueString())
		if json.Valid(raw) && framework.JSONKind(raw) != '{' {
			resp.Diagnostics.AddAttributeError(req.Path, what+" is not a JSON object",
				fmt.Sprintf("%s must be a JSON object: write it with jsonencode({...}), such as jsonencode({ title = \"Buy now\", max_items = 5 }); got %s.",
					req.Path, framework.Truncate(string(raw), 80)))
		}
	})
}

// jsonSchemaValue checks that a schema attribute holds a JSON Schema the service can enforce.
func jsonSchemaValue() validator.String {
	return framework.NewStringCheck("value must be a JSON Schema (Draft 2020-12)", func(req validator.StringRequest, resp *validator.StringResponse) {
		raw := []byte(req.ConfigValue.ValueString())
		if !json.Valid(raw) {
			return // reported by the JSON type itself
		}
		if framework.JSONKind(raw) != '{' {
			resp.Diagnostics.AddAttributeError(req.Path, "Schema is not a JSON object",
				fmt.Sprintf("%s must be a JSON Schema object: write it with jsonencode({...}), such as "+
					"jsonencode({ type = \"object\", required = [\"title\"], properties = { title = { type = \"string\" } } }); got %s.",
					req.Path, framework.Truncate(string(raw), 80)))
			return
		}
		if _, err := valueschema.Compile(raw); err != nil {
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid JSON Schema",
				fmt.Sprintf("%s is not a JSON Schema the service can enforce (Draft 2020-12): %s. Nothing was sent.", req.Path, err))
		}
	})
}

// compiledSchema compiles a schema that jsonSchemaValue has checked; nil for none, an empty one, or
// one that does not compile (that error is the validator's).
func compiledSchema(raw []byte) *valueschema.Schema {
	if len(raw) == 0 || framework.IsEmptyJSONObject(raw) {
		return nil
	}
	s, err := valueschema.Compile(raw)
	if err != nil {
		return nil
	}
	return s
}

// checkValue adds one error for a value that breaks the schema, on the attribute at: what names the
// value and where says where it is (Terraform shows the resource, not the attribute, of an error
// the plan finds), each
// JSON path inside the value and what the schema wants there, and what to do. value nil is {} (the
// value when the configuration omits it).
func checkValue(s *valueschema.Schema, value []byte, at path.Path, what, where, against string, diags *diag.Diagnostics) bool {
	if s == nil {
		return true
	}
	if value == nil {
		value = []byte("{}")
	}
	vs := s.Check(value)
	if len(vs) == 0 {
		return true
	}
	detail := fmt.Sprintf("%s (%s) does not match %s, which the service enforces on every write:\n", what, where, against)
	for _, v := range vs {
		detail += fmt.Sprintf("  - at %s: %s\n", v.Where(), v.Want)
	}
	detail += "\nChange the value (or the schema) so that it matches. Nothing was sent."
	diags.AddAttributeError(at, what+" breaks the schema", detail)
	return false
}
