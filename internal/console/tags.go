// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"net/http"
	"slices"
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

// TagCarriers names the objects that carry the tag named name ("gate \"checkout_v2\""): the gates,
// dynamic configs, experiments, segments, metric sources and metrics whose tags hold it, read from
// their listings. It says why the service refuses to delete a tag.
func (c *Client) TagCarriers(ctx context.Context, name string) ([]string, error) {
	var out []string
	add := func(kind, id string, tags []string) {
		if slices.Contains(tags, name) {
			out = append(out, kind+" "+strconv.Quote(id))
		}
	}
	err := errors.Join(
		c.EachGatesPage(ctx, ListOptions{IncludeArchived: true}, carriersIn(add, "gate", func(g Gate) (string, []string) { return g.ID, g.Tags })),
		c.EachDynamicConfigsPage(ctx, ListOptions{}, carriersIn(add, "dynamic config", func(d DynamicConfig) (string, []string) { return d.ID, d.Tags })),
		c.EachExperimentsPage(ctx, "", ListOptions{}, carriersIn(add, "experiment", func(e Experiment) (string, []string) { return e.ID, e.Tags })),
		c.EachSegmentsPage(ctx, ListOptions{}, carriersIn(add, "segment", func(s Segment) (string, []string) { return s.ID, s.Tags })),
		c.EachMetricSourcesPage(ctx, ListOptions{}, carriersIn(add, "metric source", func(s MetricSource) (string, []string) { return s.Name, s.Tags })),
		c.EachMetricsPage(ctx, ListOptions{}, carriersIn(add, "metric", func(m Metric) (string, []string) { return m.ID, m.Tags })),
	)
	return out, err
}

// carriersIn returns a page handler of TagCarriers that hands add each object of the page, of
// kind, as of says it: its id (or name) and its tags.
func carriersIn[T any](add func(kind, id string, tags []string), kind string, of func(T) (string, []string)) func([]T) error {
	return func(page []T) error {
		for _, o := range page {
			id, tags := of(o)
			add(kind, id, tags)
		}
		return nil
	}
}

// FindTag returns the tag named name, from the listing; a NotFound error when none has the name.
func (c *Client) FindTag(ctx context.Context, name string) (*Tag, error) {
	all, err := c.ListTags(ctx, ListOptions{})
	if err != nil {
		return nil, err
	}
	for i := range all {
		if all[i].Name == name {
			return &all[i], nil
		}
	}
	return nil, &APIError{Op: "find tag", Object: strconv.Quote(name), StatusCode: http.StatusNotFound, Message: "no tag has this name"}
}
