// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package docslint

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

const prefix = "featureconsole_"

// Pending are types the design contract names that other branches are adding. While the schema
// lacks one, configuration that uses it is not checked (and the run says so); once the type exists
// it is checked like every other, so nothing here needs removing for the check to be strict.
var Pending = map[string][]string{
	"resource": {"featureconsole_gate", "featureconsole_segment"},
	"list":     {"featureconsole_gate", "featureconsole_segment"},
}

func isPending(kind, name string) bool {
	for _, n := range Pending[kind] {
		if n == name {
			return true
		}
	}
	return false
}

// Terraform's own arguments and blocks, which no provider schema lists.
var (
	resourceMeta = set("count", "for_each", "provider", "depends_on", "lifecycle", "provisioner", "connection")
	listMeta     = set("count", "for_each", "provider", "include_resource", "limit", "config")
	actionMeta   = set("count", "for_each", "provider", "config")
	providerMeta = set("alias", "version")
)

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// checkHCL checks every featureconsole block of an HCL text against the schema. line is where the
// text starts in its file.
func (c *checker) checkHCL(file string, line int, src string) {
	f, diags := hclsyntax.ParseConfig([]byte(src), file, hcl.Pos{Line: line, Column: 1, Byte: 0})
	if diags.HasErrors() {
		c.report(file, line, "HCL does not parse: %s", diags.Error())
		return
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return
	}
	for _, b := range body.Blocks {
		at := b.DefRange().Start.Line
		switch b.Type {
		case "resource", "data":
			if len(b.Labels) > 0 {
				c.checkTyped(file, at, b.Type, b.Labels[0], b.Body, resourceMeta)
			}
		case "list":
			if len(b.Labels) > 0 {
				c.checkTyped(file, at, "list", b.Labels[0], b.Body, listMeta)
			}
		case "action":
			if len(b.Labels) > 0 {
				c.checkTyped(file, at, "action", b.Labels[0], b.Body, actionMeta)
			}
		case "provider":
			if len(b.Labels) > 0 && b.Labels[0] == "featureconsole" {
				c.checkBody(file, "provider", b.Body, c.schema.Provider, providerMeta)
			}
		case "import":
			c.checkImport(file, at, b.Body)
		}
	}
}

// checkTyped checks a resource, data, list or action block. A list's or action's own arguments
// are in its config block; the block's top level holds Terraform's.
func (c *checker) checkTyped(file string, line int, kind, typ string, body *hclsyntax.Body, meta map[string]bool) {
	if !strings.HasPrefix(typ, prefix) {
		return
	}
	sch, ok := c.schema.Types[kind][typ]
	if !ok {
		if isPending(kind, typ) {
			c.pending[kind+" "+typ] = true
			return
		}
		c.report(file, line, "%s type %q is not in the provider's schema (it has %s)", kind, typ,
			strings.Join(c.schema.typeNames(kind), ", "))
		return
	}
	where := kind + " " + typ
	if kind == "list" || kind == "action" {
		c.checkBody(file, where, body, newBlock(), meta)
		for _, b := range body.Blocks {
			if b.Type == "config" {
				c.checkBody(file, where+" config", b.Body, sch, nil)
			}
		}
		return
	}
	c.checkBody(file, where, body, sch, meta)
}

func (c *checker) checkBody(file, where string, body *hclsyntax.Body, sch *Block, meta map[string]bool) {
	for name, a := range body.Attributes {
		if meta[name] {
			continue
		}
		nested, ok := sch.Attributes[name]
		if !ok {
			c.report(file, a.SrcRange.Start.Line, "%s has no attribute %q", where, name)
			continue
		}
		if nested != nil {
			c.checkExpr(file, where+"."+name, a.Expr, nested)
		}
	}
	for _, b := range body.Blocks {
		if meta[b.Type] {
			continue
		}
		nb, ok := sch.Blocks[b.Type]
		if !ok {
			c.report(file, b.DefRange().Start.Line, "%s has no block %q", where, b.Type)
			continue
		}
		c.checkBody(file, where+"."+b.Type, b.Body, nb, nil)
	}
}

// checkExpr checks the keys of the objects written literally for a nested attribute; values
// computed by functions or references are Terraform's to check.
func (c *checker) checkExpr(file, where string, e hclsyntax.Expression, sch *Block) {
	switch e := e.(type) {
	case *hclsyntax.TupleConsExpr:
		for _, el := range e.Exprs {
			c.checkExpr(file, where, el, sch)
		}
	case *hclsyntax.ObjectConsExpr:
		for _, it := range e.Items {
			key := objectKey(it.KeyExpr)
			if key == "" {
				continue
			}
			nested, ok := sch.Attributes[key]
			if !ok {
				c.report(file, it.KeyExpr.Range().Start.Line, "%s has no attribute %q", where, key)
				continue
			}
			if nested != nil {
				c.checkExpr(file, where+"."+key, it.ValueExpr, nested)
			}
		}
	}
}

func objectKey(e hclsyntax.Expression) string {
	if k := hcl.ExprAsKeyword(e); k != "" {
		return k
	}
	v, diags := e.Value(nil)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}

// checkImport checks the identity an import block gives against the resource's identity schema.
func (c *checker) checkImport(file string, line int, body *hclsyntax.Body) {
	to, ok := body.Attributes["to"]
	if !ok {
		return
	}
	trav, diags := hcl.AbsTraversalForExpr(to.Expr)
	if diags.HasErrors() || len(trav) < 1 {
		return
	}
	typ := trav.RootName()
	if !strings.HasPrefix(typ, prefix) {
		return
	}
	if !c.schema.Has("resource", typ) {
		if !isPending("resource", typ) {
			c.report(file, line, "import to %q: no such resource type", typ)
		}
		return
	}
	if id, ok := body.Attributes["identity"]; ok {
		sch, ok := c.schema.Types["identity"][typ]
		if !ok {
			c.report(file, line, "import by identity to %q, which has no identity", typ)
			return
		}
		c.checkExpr(file, fmt.Sprintf("identity of %s", typ), id.Expr, sch)
	}
}
