// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"net/http"
)

// Environment is one of the project's environments (`GET /environments`).
type Environment struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	IsProduction bool   `json:"isProduction"`
}

// ListEnvironments reads `GET /environments`: the project's environments, in one answer.
func (c *Client) ListEnvironments(ctx context.Context) ([]Environment, error) {
	var out struct {
		Environments []Environment `json:"environments"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: "/environments", op: "list", object: "environments"}, &out); err != nil {
		return nil, err
	}
	return out.Environments, nil
}
