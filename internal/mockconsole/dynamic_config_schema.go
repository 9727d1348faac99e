// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// What the service refuses of a dynamic config's values: a schema it cannot compile, and a default
// value or return value that breaks the config's schema.

func isJSONObject(raw []byte) bool {
	_, ok := normJSON(json.RawMessage(raw)).(map[string]any)
	return ok
}

// configFieldsRefused is the service's 400 for the fields of a config, the schema and every value
// it then holds checked (rules are those the config holds); s.mu is held.
func (s *Server) configFieldsRefused(req configFieldsReq, c DynamicConfig) *response {
	bad := func(format string, args ...any) *response {
		return ref(errResp(http.StatusBadRequest, format, args...))
	}
	if req.Name != nil && !gateNamePattern.MatchString(*req.Name) {
		return bad("name must be 3 to 100 letters, digits, spaces, '_', '-' or '.'")
	}
	if req.Description != nil && utf8.RuneCountInString(*req.Description) > maxDescription {
		return bad("description must be at most %d characters", maxDescription)
	}
	if req.IDType != nil && strings.TrimSpace(*req.IDType) == "" {
		return bad("idType must not be empty")
	}
	if req.DefaultValue != nil && !isJSONObject(*req.DefaultValue) {
		return bad("defaultValue must be a JSON object")
	}
	text, refused := schemaSent(req.Schema)
	if refused != nil {
		return refused
	}
	if bad := linkRefused(req.ReleasePipelineID, s.pipelines, "Release pipeline"); bad != nil {
		return bad
	}
	schema, dv := c.Schema, c.DefaultValue
	if req.Schema != nil {
		schema = text
	}
	if req.DefaultValue != nil {
		dv = *req.DefaultValue
	}
	return valuesRefused(schema, dv, c.Rules)
}

// valuesRefused is the service's check of a config's values against its schema: 400 naming the
// first value that breaks it.
// The mock validates with the library itself, not with the provider's internal/valueschema: the
// mock is an independent implementation of the service (DESIGN.md §1).
func valuesRefused(schema, defaultValue []byte, rules []Rule) *response {
	if len(schema) == 0 {
		return nil
	}
	sch, err := compileSchema(schema)
	if err != nil {
		return ref(errResp(http.StatusBadRequest, "schema is not a valid JSON Schema: %v", err))
	}
	if len(defaultValue) > 0 {
		if err := validateValue(sch, defaultValue); err != nil {
			return ref(errResp(http.StatusBadRequest, "defaultValue does not match the schema: %v", err))
		}
	}
	for i, r := range rules {
		if r.ReturnValue == nil {
			continue
		}
		if err := validateValue(sch, marshal(r.ReturnValue)); err != nil {
			return ref(errResp(http.StatusBadRequest, "rules[%d].returnValue (rule %q) does not match the schema: %v", i, r.Name, err))
		}
		if bad := variantValuesRefused(sch, i, r); bad != nil {
			return bad
		}
	}
	return nil
}

// compileSchema compiles a config's schema as Draft 2020-12; references to other documents are
// refused, as the service resolves none.
func compileSchema(doc []byte) (*jsonschema.Schema, error) {
	parsed, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noRemoteSchemas{})
	if err := c.AddResource("config-schema.json", parsed); err != nil {
		return nil, err
	}
	return c.Compile("config-schema.json")
}

type noRemoteSchemas struct{}

func (noRemoteSchemas) Load(url string) (any, error) {
	return nil, fmt.Errorf("remote schema %s is not supported", url)
}

func validateValue(sch *jsonschema.Schema, value []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(value))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}
