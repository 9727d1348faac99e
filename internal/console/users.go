// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"net/url"
)

// User is a member of the organization.
type User struct {
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Role      string `json:"role"`
}

// UserFilter narrows a listing of users. The zero value lists them as the console's settings page
// does: current members only.
type UserFilter struct {
	// IncludeStaleMembers lists stale members too (people who no longer use the project).
	IncludeStaleMembers bool
}

// users is GET /users; the provider only lists them.
var users = collection[User]{path: "/users", one: "user", many: "users"}

// ListUsers reads every page of GET /users: the current members.
func (c *Client) ListUsers(ctx context.Context, opts ListOptions) ([]User, error) {
	return c.ListUsersFiltered(ctx, UserFilter{}, opts)
}

// ListUsersFiltered is ListUsers narrowed or widened by f.
func (c *Client) ListUsersFiltered(ctx context.Context, f UserFilter, opts ListOptions) ([]User, error) {
	r := users.listRequest()
	if f.IncludeStaleMembers {
		// snake_case on the wire, unlike the service's other query parameters.
		r.query = url.Values{"include_stale_members": {"true"}}
	}
	return listAll[User](ctx, c, r, opts)
}
