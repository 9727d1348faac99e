// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package framework

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestObjectTypes_fromSchema(t *testing.T) {
	inner := map[string]schema.Attribute{"name": schema.StringAttribute{Optional: true}}
	rt := ResourceObjectType(map[string]schema.Attribute{
		"id":    schema.StringAttribute{Computed: true},
		"one":   schema.SingleNestedAttribute{Optional: true, Attributes: inner},
		"items": schema.ListNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{Attributes: inner}},
	})
	want := types.ObjectType{AttrTypes: map[string]attr.Type{"name": types.StringType}}
	if !rt.AttrTypes["id"].Equal(types.StringType) {
		t.Errorf("id: %v", rt.AttrTypes["id"])
	}
	if got := NestedObjectType(rt, "one"); !got.Equal(want) {
		t.Errorf("one: %v", got)
	}
	if got := NestedObjectType(rt, "items"); !got.Equal(want) {
		t.Errorf("items: %v", got)
	}
	if got := NestedObjectType(rt, "id"); len(got.AttrTypes) != 0 {
		t.Errorf("a string is no object: %v", got)
	}
	dt := DataSourceObjectType(map[string]dschema.Attribute{"name": dschema.StringAttribute{Computed: true}})
	if !dt.Equal(want) {
		t.Errorf("data source: %v", dt)
	}
}
