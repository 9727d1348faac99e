// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

func NewUsersDataSource() datasource.DataSource {
	return newListDataSource(listDataSourceSpec[usersModel]{
		typeName: "users",
		description: "Lists the users of the organization (every page of `GET /users`), optionally only those with one role. " +
			"Like the console's settings page, it lists current members only unless `include_stale_members` is `true`.",
		filters: map[string]schema.Attribute{
			"role": stringFilter("Only users with this role, compared case-insensitively: `admin` finds `Admin`, `read only` finds "+
				"`Read Only`. The console names roles `Admin`, `Member`, `Read Only` or a custom role's name. Omit for every user.",
				stringvalidator.LengthAtLeast(1), framework.NotBlank()),
			"include_stale_members": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether to list stale members too: people who no longer use the project. Defaults to " +
					"`false`: current members only, as the console's settings page lists them.",
			},
		},
		listAttr:        "users",
		listDescription: "The users, in the order the service lists them.",
		item:            userAttributes(),
		fill: func(ctx context.Context, client *console.Client, opts console.ListOptions, m *usersModel, _ *diag.Diagnostics) (framework.APIFailure, error) {
			users, err := client.ListUsersFiltered(ctx, console.UserFilter{IncludeStaleMembers: m.IncludeStaleMembers.ValueBool()}, opts)
			m.Users = flattenUsers(users, m.Role.ValueString())
			return framework.APIFailure{Op: "list", Object: "users"}, err
		},
	})
}

type usersModel struct {
	Role                types.String `tfsdk:"role"`
	IncludeStaleMembers types.Bool   `tfsdk:"include_stale_members"`
	Users               types.List   `tfsdk:"users"`
}

var userObjectType = framework.DataSourceObjectType(userAttributes())

// userAttributes returns the schema of one user; userObjectType is derived from it.
func userAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"email":      framework.ComputedText("E-mail address."),
		"first_name": framework.ComputedText("First name."),
		"last_name":  framework.ComputedText("Last name; may be empty."),
		"role":       framework.ComputedText("Role in the organization as the service names it, such as `Admin`, `Member` or `Read Only`."),
	}
}

func flattenUsers(users []console.User, role string) types.List {
	vals := make([]attr.Value, 0, len(users))
	for _, u := range users {
		// The service names roles for display (`Read Only`), and users write them as they please.
		if role != "" && !strings.EqualFold(strings.TrimSpace(u.Role), strings.TrimSpace(role)) {
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
