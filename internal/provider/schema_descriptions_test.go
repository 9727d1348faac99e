// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

func typeName(ctx context.Context, r resource.Resource) string {
	var resp resource.MetadataResponse
	r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "featureconsole"}, &resp)
	return resp.TypeName
}

func dataSourceTypeName(ctx context.Context, d datasource.DataSource) string {
	var resp datasource.MetadataResponse
	d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "featureconsole"}, &resp)
	return resp.TypeName
}

// The registry documentation is generated from the schema: every attribute, nested ones
// included, needs a Markdown description, and every attribute a user sets on a resource says
// what changing it does.
func TestSchema_markdownDescriptionEverywhere(t *testing.T) {
	server, err := providerserver.NewProtocol6WithError(newTestProvider())()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Fatalf("schema diagnostic: %s: %s", d.Summary, d.Detail)
	}
	if len(resp.ResourceSchemas) == 0 || len(resp.DataSourceSchemas) == 0 {
		t.Fatal("the provider declares no resources or no data sources")
	}

	checkDescribed(t, "provider", resp.Provider)
	for name, s := range resp.DataSourceSchemas {
		checkDescribed(t, "data source "+name, s)
	}
	for name, s := range resp.ActionSchemas {
		checkDescribed(t, "action "+name, s.Schema)
	}
	if len(resp.ListResourceSchemas) != len(resp.ResourceSchemas) {
		t.Errorf("%d list resources for %d resources", len(resp.ListResourceSchemas), len(resp.ResourceSchemas))
	}
	for name, s := range resp.ListResourceSchemas {
		checkDescribed(t, "list resource "+name, s)
	}
	// What changing an attribute does: replaced, changed in place, or nothing sent at all.
	effect := regexp.MustCompile(`(?i)replacement|in place|sends no request`)
	for name, s := range resp.ResourceSchemas {
		checkDescribed(t, "resource "+name, s)
		for _, a := range s.Block.Attributes {
			if (a.Required || a.Optional) && !effect.MatchString(a.Description) {
				t.Errorf("resource %s: attribute %q does not say whether changing it is made in place or forces replacement: %q",
					name, a.Name, a.Description)
			}
		}
	}
}

func checkDescribed(t *testing.T, what string, s *tfprotov6.Schema) {
	t.Helper()
	if s == nil || s.Block == nil {
		t.Errorf("%s: no schema", what)
		return
	}
	if strings.TrimSpace(s.Block.Description) == "" || s.Block.DescriptionKind != tfprotov6.StringKindMarkdown {
		t.Errorf("%s: no MarkdownDescription", what)
	}
	checkBlockDescribed(t, what, s.Block)
}

func checkBlockDescribed(t *testing.T, what string, b *tfprotov6.SchemaBlock) {
	t.Helper()
	for _, a := range b.Attributes {
		checkAttributeDescribed(t, what, a.Name, a)
	}
	for _, nb := range b.BlockTypes {
		if strings.TrimSpace(nb.Block.Description) == "" || nb.Block.DescriptionKind != tfprotov6.StringKindMarkdown {
			t.Errorf("%s: block %q has no MarkdownDescription", what, nb.TypeName)
		}
		checkBlockDescribed(t, what+" "+nb.TypeName, nb.Block)
	}
}

func checkAttributeDescribed(t *testing.T, what, path string, a *tfprotov6.SchemaAttribute) {
	t.Helper()
	if strings.TrimSpace(a.Description) == "" || a.DescriptionKind != tfprotov6.StringKindMarkdown {
		t.Errorf("%s: attribute %q has no MarkdownDescription", what, path)
	}
	if a.NestedType != nil {
		for _, n := range a.NestedType.Attributes {
			checkAttributeDescribed(t, what, path+"."+n.Name, n)
		}
	}
}
