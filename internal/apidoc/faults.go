// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package apidoc

import (
	"sort"

	"github.com/getkin/kin-openapi/openapi3"
)

// Faults of the document itself: schemas that no answer could satisfy, read as the service's own
// examples show they were meant. Each is corrected once, at load, and listed here and in DESIGN
// §7 ("The document"); nothing else of the document is changed.
var Faults = []string{
	// targetValue is oneOf [list of strings, list of numbers, string, number]: an empty list is
	// both lists, which oneOf refuses. Every oneOf of the document is read as anyOf.
	"oneOf alternatives overlap (an empty list is a list of strings and a list of numbers): read as anyOf",
	// GET /segments/{id}/id_list combines the paged envelope (data: a list) with data: IDListDto
	// (an object), as its example answers: the object wins.
	"GET /console/v1/segments/{id}: example holds two answers by name (id_list, rule_based): read as two named examples",
	"GET /console/v1/segments/{id}/id_list: allOf of a paged envelope (data a list) and data an IDListDto object: the object wins, as the example answers",
}

// correct applies Faults to the loaded document.
func correct(t *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	var anyOf func(s *openapi3.SchemaRef)
	anyOf = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		if len(s.OneOf) > 0 {
			s.AnyOf = append(s.AnyOf, s.OneOf...)
			s.OneOf = nil
		}
		for _, group := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf} {
			for _, x := range group {
				anyOf(x)
			}
		}
		for _, x := range s.Properties {
			anyOf(x)
		}
		anyOf(s.Items)
		anyOf(s.Not)
		anyOf(s.AdditionalProperties.Schema)
	}
	for _, name := range sortedKeys(t.Components.Schemas) {
		anyOf(t.Components.Schemas[name])
	}
	for _, path := range t.Paths.InMatchingOrder() {
		for _, op := range t.Paths.Value(path).Operations() {
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for _, mt := range op.RequestBody.Value.Content {
					anyOf(mt.Schema)
				}
			}
			for _, resp := range op.Responses.Map() {
				if resp.Value == nil {
					continue
				}
				for _, mt := range resp.Value.Content {
					anyOf(mt.Schema)
					objectData(mt.Schema)
				}
			}
		}
	}
}

// objectData replaces, in an allOf that redefines data as an object, the paged envelope's
// data (a list) with no constraint, so that the object's schema alone holds.
func objectData(ref *openapi3.SchemaRef) {
	if ref == nil || ref.Value == nil || len(ref.Value.AllOf) < 2 {
		return
	}
	redefined := false
	for _, part := range ref.Value.AllOf {
		if d := part.Value.Properties["data"]; d != nil && d.Value != nil && !d.Value.Type.Is(openapi3.TypeArray) && part.Ref == "" {
			redefined = true
		}
	}
	if !redefined {
		return
	}
	for i, part := range ref.Value.AllOf {
		d := part.Value.Properties["data"]
		if d == nil || d.Value == nil || !d.Value.Type.Is(openapi3.TypeArray) {
			continue
		}
		envelope := *part.Value
		envelope.Properties = openapi3.Schemas{}
		for k, v := range part.Value.Properties {
			if k != "data" {
				envelope.Properties[k] = v
			}
		}
		envelope.Required = nil
		for _, k := range part.Value.Required {
			if k != "pagination" { // the example answers without it, as an unpaged list does
				envelope.Required = append(envelope.Required, k)
			}
		}
		ref.Value.AllOf[i] = openapi3.NewSchemaRef("", &envelope)
	}
}

func sortedKeys(m openapi3.Schemas) []string { // in order, so that every load corrects alike
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
