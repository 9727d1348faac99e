// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package framework

import (
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The object types of nested attributes, derived from their schema so that a model and its schema
// never disagree.

// ResourceObjectType returns the object type of a resource's nested object with attributes attrs.
func ResourceObjectType(attrs map[string]schema.Attribute) types.ObjectType {
	t, _ := schema.NestedAttributeObject{Attributes: attrs}.Type().(types.ObjectType)
	return t
}

// DataSourceObjectType returns the object type of a data source's nested object with attributes attrs.
func DataSourceObjectType(attrs map[string]dschema.Attribute) types.ObjectType {
	t, _ := dschema.NestedAttributeObject{Attributes: attrs}.Type().(types.ObjectType)
	return t
}

// NestedObjectType returns the object type of t's nested attribute name: a single object's, or that
// of the elements of a list of objects; the empty type when name is neither.
func NestedObjectType(t types.ObjectType, name string) types.ObjectType {
	switch a := t.AttrTypes[name].(type) {
	case types.ObjectType:
		return a
	case types.ListType:
		o, _ := a.ElemType.(types.ObjectType)
		return o
	}
	return types.ObjectType{}
}
