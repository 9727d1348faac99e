// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
)

// User is a member of the organization.
type User struct {
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Role      string `json:"role"`
}

// users is GET /users; the provider only lists them.
var users = collection[User]{path: "/users", one: "user", many: "users"}

// ListUsers reads every page of GET /users.
func (c *Client) ListUsers(ctx context.Context, opts ListOptions) ([]User, error) {
	return users.all(ctx, c, opts)
}
