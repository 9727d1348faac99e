// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"net/http"
	"strconv"
)

// Tag is a tag as the service answers it. Description is a pointer: the document's examples leave
// it out (its schemas require it).
type Tag struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Description *string `json:"description,omitempty"`
	IsCore      bool    `json:"isCore"`
}

// TagWrite is the body of `POST /tags` and `PATCH /tags/{id}`.
type TagWrite struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	IsCore      bool   `json:"isCore"`
}

// tags is /tags/{id}, listed at /tags.
var tags = collection[Tag]{path: "/tags", one: "tag", many: "tags"}

// CreateTag sends `POST /tags`.
func (c *Client) CreateTag(ctx context.Context, t TagWrite) (*Tag, error) {
	var out Tag
	r := request{method: http.MethodPost, path: tags.path, body: t, op: "create tag", object: strconv.Quote(t.Name)}
	if err := c.do(ctx, r, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetTag reads `GET /tags/{id}`.
func (c *Client) GetTag(ctx context.Context, id string) (*Tag, error) {
	return tags.get(ctx, c, id)
}

// UpdateTag sends `PATCH /tags/{id}`, answered with the tag.
func (c *Client) UpdateTag(ctx context.Context, id string, t TagWrite) (*Tag, error) {
	var out Tag
	r := request{method: http.MethodPatch, path: tags.path + "/" + pathEscape(id), body: t, op: "update tag", object: strconv.Quote(id)}
	err := c.do(ctx, r, &out)
	if emptyAnswer(err) {
		return c.GetTag(ctx, id)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteTag sends `DELETE /tags/{id}`; the service refuses a tag that objects still carry.
func (c *Client) DeleteTag(ctx context.Context, id string) error {
	return c.do(ctx, request{method: http.MethodDelete, path: tags.path + "/" + pathEscape(id), op: "delete tag", object: strconv.Quote(id)}, nil)
}

// EachTagsPage reads `GET /tags` page by page, handing each page to fn in order.
func (c *Client) EachTagsPage(ctx context.Context, opts ListOptions, fn func([]Tag) error) error {
	return tags.each(ctx, c, opts, fn)
}

// ListTags reads every tag of the project.
func (c *Client) ListTags(ctx context.Context, opts ListOptions) ([]Tag, error) {
	return tags.all(ctx, c, opts)
}
