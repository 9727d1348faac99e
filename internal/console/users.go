package console

import (
	"context"
	"net/http"
)

// User is a member of the organization.
type User struct {
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Role      string `json:"role"`
}

// ListUsers reads every page of GET /users.
func (c *Client) ListUsers(ctx context.Context, opts ListOptions) ([]User, error) {
	return listAll[User](ctx, c, request{method: http.MethodGet, path: "/users", op: "list users"}, opts)
}
