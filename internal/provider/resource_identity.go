// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Resource identity (Terraform 1.12+): one string attribute per resource, the same value as the
// resource's id, which never changes for the life of the resource. The framework insists on an
// identity after every Create, Read and Update, also under Terraform versions that never send one,
// so each sets it before anything can fail or remove the resource; a state written without one (an
// earlier provider version, Terraform 1.11) gains it on the next refresh.

func identitySchema(attr, desc string) identityschema.Schema {
	return identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		attr: identityschema.StringAttribute{RequiredForImport: true, Description: desc},
	}}
}

// setIdentity stores the resource's identity; nil (a resource without identity support in the
// caller, as in unit tests) is left alone. An unknown or empty value is not an identity.
func setIdentity(ctx context.Context, id *tfsdk.ResourceIdentity, attr string, v types.String) diag.Diagnostics {
	if id == nil || v.IsUnknown() || v.IsNull() || v.ValueString() == "" {
		return nil
	}
	return id.SetAttribute(ctx, path.Root(attr), v)
}

// importState is every resource's ImportState: the object an import names is the import id
// (`terraform import`, an import block's `id`), else the identity's attribute (an import block's
// `identity`, which generated configuration uses). It goes into the state as the identifying
// attribute and as `id`, and into the identity, so that both are known before the first Read.
func importState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse, typeName, attr, example string) bool {
	id, ok := importID(ctx, req, resp, typeName, attr, example)
	if !ok {
		return false
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(attr), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	return !resp.Diagnostics.HasError()
}

// importID returns the object an import names, and sets it into the identity.
func importID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse, typeName, attr, example string) (string, bool) {
	id := req.ID
	if id == "" && req.Identity != nil {
		var v types.String
		resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root(attr), &v)...)
		if resp.Diagnostics.HasError() {
			return "", false
		}
		id = v.ValueString()
	}
	if strings.TrimSpace(id) == "" {
		resp.Diagnostics.AddError("Invalid import id",
			fmt.Sprintf("Import %s by its %s, as an import block's `id = %q` or `identity = { %s = %q }`, or with "+
				"`terraform import %s.example %s`.", typeName, strings.ReplaceAll(attr, "_", " "), example, attr, example, typeName, example))
		return "", false
	}
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, attr, types.StringValue(id))...)
	return id, !resp.Diagnostics.HasError()
}

// identifiedModel is a resource's model, which knows the resource's identity.
type identifiedModel interface {
	identity() (attr string, value types.String)
}
