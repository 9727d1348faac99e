// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

// Package docslint checks that the README, CONTRIBUTING, the registry docs, their templates and the
// examples agree with the provider and with the repository: the attributes they name exist in the
// provider's schema, the make targets they name exist, their relative links resolve, no table lists
// a row twice, and registry text stays in users' words.
package docslint

import (
	"context"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Block is what a configuration block (or a nested attribute's object) may hold.
type Block struct {
	Attributes map[string]*Block // nil for an attribute whose value is not a nested object
	Blocks     map[string]*Block
}

func newBlock() *Block { return &Block{Attributes: map[string]*Block{}, Blocks: map[string]*Block{}} }

// Schema is the provider's schema as the checks need it: block kind ("resource", "data", "list",
// "action", "identity") to type name to what its configuration may hold.
type Schema struct {
	Provider *Block
	Types    map[string]map[string]*Block
	// names holds every attribute name at any depth, for attributes named in prose.
	names map[string]bool
}

// Has reports whether a type of that kind exists.
func (s *Schema) Has(kind, name string) bool { _, ok := s.Types[kind][name]; return ok }

// SchemaFromServer asks a provider server for its schemas, as Terraform does.
func SchemaFromServer(ctx context.Context, srv tfprotov6.ProviderServer) (*Schema, error) {
	resp, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return nil, err
	}
	if err := diagError(resp.Diagnostics); err != nil {
		return nil, err
	}
	ids, err := srv.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		return nil, err
	}
	if err := diagError(ids.Diagnostics); err != nil {
		return nil, err
	}
	s := &Schema{Provider: fromSchema(resp.Provider), Types: map[string]map[string]*Block{}}
	add := func(kind string, m map[string]*tfprotov6.Schema) {
		s.Types[kind] = map[string]*Block{}
		for n, sc := range m {
			s.Types[kind][n] = fromSchema(sc)
		}
	}
	add("resource", resp.ResourceSchemas)
	add("data", resp.DataSourceSchemas)
	add("list", resp.ListResourceSchemas)
	actions := map[string]*tfprotov6.Schema{}
	for n, a := range resp.ActionSchemas {
		actions[n] = a.Schema
	}
	add("action", actions)
	s.Types["identity"] = map[string]*Block{}
	for n, id := range ids.IdentitySchemas {
		b := newBlock()
		for _, a := range id.IdentityAttributes {
			b.Attributes[a.Name] = nil
		}
		s.Types["identity"][n] = b
	}
	s.index()
	return s, nil
}

func diagError(diags []*tfprotov6.Diagnostic) error {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return fmt.Errorf("provider schema: %s: %s", d.Summary, d.Detail)
		}
	}
	return nil
}

func fromSchema(s *tfprotov6.Schema) *Block {
	if s == nil || s.Block == nil {
		return newBlock()
	}
	return fromBlock(s.Block)
}

func fromBlock(pb *tfprotov6.SchemaBlock) *Block {
	b := newBlock()
	for _, a := range pb.Attributes {
		b.Attributes[a.Name] = fromObject(a.NestedType)
	}
	for _, nb := range pb.BlockTypes {
		b.Blocks[nb.TypeName] = fromBlock(nb.Block)
	}
	return b
}

func fromObject(o *tfprotov6.SchemaObject) *Block {
	if o == nil {
		return nil
	}
	b := newBlock()
	for _, a := range o.Attributes {
		b.Attributes[a.Name] = fromObject(a.NestedType)
	}
	return b
}

func (s *Schema) index() {
	s.names = map[string]bool{}
	var walk func(b *Block)
	walk = func(b *Block) {
		if b == nil {
			return
		}
		for n, nb := range b.Attributes {
			s.names[n] = true
			walk(nb)
		}
		for n, nb := range b.Blocks {
			s.names[n] = true
			walk(nb)
		}
	}
	walk(s.Provider)
	for _, types := range s.Types {
		for _, b := range types {
			walk(b)
		}
	}
}

// typeNames lists every type of every kind, for messages.
func (s *Schema) typeNames(kind string) []string {
	var out []string
	for n := range s.Types[kind] {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
