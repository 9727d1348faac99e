// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
)

// TargetApp is a target app as `GET /target_app/{id}` answers it: its id (made by the service)
// and name; the document's answers carry no description, nor the objects that belong to it.
type TargetApp struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// TargetAppWrite is the body of `POST /target_app` and `PATCH /target_app/{id}`. Which gates,
// configs and experiments belong to the app is said on those objects (`targetApps`), never here.
type TargetAppWrite struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// targetApps is /target_app/{id}, listed at /target_app.
var targetApps = collection[TargetApp]{path: "/target_app", one: "target app", many: "target apps"}

// CreateTargetApp sends `POST /target_app`. Its schema answers the app, its example the body sent
// without the service's envelope or id: an answer without an id is completed from the listing,
// where the app of that name is the one created. An app returned without an id is one the
// service made but named by no id (the listing's example gives none).
func (c *Client) CreateTargetApp(ctx context.Context, a TargetAppWrite) (*TargetApp, error) {
	r := request{method: http.MethodPost, path: targetApps.path, body: a, op: "create target app", object: strconv.Quote(a.Name), dataOptional: true, noResend: true}
	var out TargetApp
	if err := c.do(ctx, r, &out); err != nil && !emptyAnswer(err) {
		return nil, err
	}
	if out.ID != "" {
		return &out, nil
	}
	found, err := c.FindTargetApp(ctx, a.Name)
	if NotFound(err) {
		return &TargetApp{Name: a.Name}, nil
	}
	return found, err
}

// FindTargetApp returns the one target app named name, from the listing (its ID "" where the
// listing gives none); a NotFound error when none has the name.
func (c *Client) FindTargetApp(ctx context.Context, name string) (*TargetApp, error) {
	apps, err := c.ListTargetApps(ctx, ListOptions{})
	if err != nil {
		return nil, err
	}
	var found []TargetApp
	for _, a := range apps {
		if a.Name == name {
			found = append(found, a)
		}
	}
	switch len(found) {
	case 0:
		return nil, &APIError{Op: "find target app", Object: strconv.Quote(name), StatusCode: http.StatusNotFound, Message: "no target app has this name"}
	case 1:
		return &found[0], nil
	}
	return nil, fmt.Errorf("unable to find target app %q: %d target apps have this name", name, len(found))
}

// GetTargetApp reads `GET /target_app/{id}`.
func (c *Client) GetTargetApp(ctx context.Context, id string) (*TargetApp, error) {
	return targetApps.get(ctx, c, id)
}

// UpdateTargetApp sends `PATCH /target_app/{id}`, answered with a message alone, and reads the app
// back.
func (c *Client) UpdateTargetApp(ctx context.Context, id string, a TargetAppWrite) (*TargetApp, error) {
	r := request{method: http.MethodPatch, path: targetApps.path + "/" + pathEscape(id), body: a, op: "update target app", object: strconv.Quote(id)}
	if err := c.do(ctx, r, nil); err != nil {
		return nil, err
	}
	return c.GetTargetApp(ctx, id)
}

// DeleteTargetApp sends `DELETE /target_app/{id}`.
func (c *Client) DeleteTargetApp(ctx context.Context, id string) error {
	return c.do(ctx, request{method: http.MethodDelete, path: targetApps.path + "/" + pathEscape(id), op: "delete target app", object: strconv.Quote(id)}, nil)
}

// EachTargetAppsPage reads `GET /target_app` page by page, handing each page to fn in order.
func (c *Client) EachTargetAppsPage(ctx context.Context, opts ListOptions, fn func([]TargetApp) error) error {
	return targetApps.each(ctx, c, opts, fn)
}

// ListTargetApps reads every target app of the project.
func (c *Client) ListTargetApps(ctx context.Context, opts ListOptions) ([]TargetApp, error) {
	return targetApps.all(ctx, c, opts)
}
