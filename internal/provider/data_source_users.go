// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

var _ datasource.DataSourceWithConfigure = &usersDataSource{}

func NewUsersDataSource() datasource.DataSource {
	return &usersDataSource{dataSourceData{typeName: "users"}}
}

type usersDataSource struct{ dataSourceData }

type usersModel struct {
	Role  types.String `tfsdk:"role"`
	Users types.List   `tfsdk:"users"`
}

var userObjectType = dataSourceObjectType(userAttributes())

func (d *usersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the users of the organization (every page of `GET /users`), optionally only those with one role.",
		Attributes: map[string]schema.Attribute{
			"role": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only users with this role, compared exactly. Roles seen: `admin`, `member`. Omit for every user.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"users": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The users, in the order the service lists them.",
				NestedObject:        schema.NestedAttributeObject{Attributes: userAttributes()},
			},
		},
	}
}

// userAttributes is the schema of one user; userObjectType is derived from it.
func userAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"email":      schema.StringAttribute{Computed: true, MarkdownDescription: "E-mail address."},
		"first_name": schema.StringAttribute{Computed: true, MarkdownDescription: "First name."},
		"last_name":  schema.StringAttribute{Computed: true, MarkdownDescription: "Last name; may be empty."},
		"role":       schema.StringAttribute{Computed: true, MarkdownDescription: "Role in the organization, such as `admin` or `member`."},
	}
}

func (d *usersDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m usersModel
	d.read(ctx, req, resp, &m, func(client *console.Client, opts console.ListOptions) (apiFailure, error) {
		users, err := client.ListUsers(ctx, opts)
		m.Users = flattenUsers(users, m.Role.ValueString())
		return apiFailure{"list", "users"}, err
	})
}

func flattenUsers(users []console.User, role string) types.List {
	vals := make([]attr.Value, 0, len(users))
	for _, u := range users {
		if role != "" && u.Role != role {
			continue
		}
		vals = append(vals, types.ObjectValueMust(userObjectType.AttrTypes, map[string]attr.Value{
			"email":      types.StringValue(u.Email),
			"first_name": types.StringValue(u.FirstName),
			"last_name":  types.StringValue(u.LastName),
			"role":       types.StringValue(u.Role),
		}))
	}
	return types.ListValueMust(userObjectType, vals)
}
