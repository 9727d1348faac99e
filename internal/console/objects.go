// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"net/http"
	"strconv"
)

// collection is one kind of API object: where it is read and listed, and the words errors use for
// it. Each object's file declares one and writes its exported methods on top, so that reading one
// object by id, or listing all of them, is the same code for every object.
type collection[T any] struct {
	// path is where the objects live; one object is path/{id}.
	path string
	// listPath is where they are listed when the service lists them elsewhere ("" is path).
	listPath string
	// one and many name the object in errors: "Unable to read gate ...", "Unable to list gates".
	one, many string
}

// readRequest is GET path/{id}.
func (k collection[T]) readRequest(id string) request {
	return request{method: http.MethodGet, path: k.path + "/" + pathEscape(id), op: "read " + k.one, object: strconv.Quote(id)}
}

// get reads one object by id.
func (k collection[T]) get(ctx context.Context, c *Client, id string) (*T, error) {
	return getObject[T](ctx, c, k.readRequest(id))
}

// listRequest is GET of the whole collection.
func (k collection[T]) listRequest() request {
	p := k.listPath
	if p == "" {
		p = k.path
	}
	return request{method: http.MethodGet, path: p, op: "list " + k.many}
}

// each hands the collection to fn page by page (see eachPage).
func (k collection[T]) each(ctx context.Context, c *Client, opts ListOptions, fn func([]T) error) error {
	return eachPage(ctx, c, k.listRequest(), opts, fn)
}

// all reads every page of the collection unless opts.MaxRecords stops it.
func (k collection[T]) all(ctx context.Context, c *Client, opts ListOptions) ([]T, error) {
	return listAll[T](ctx, c, k.listRequest(), opts)
}

// getObject performs r and decodes its data into a new T.
func getObject[T any](ctx context.Context, c *Client, r request) (*T, error) {
	var out T
	if err := c.do(ctx, r, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// reviewed is an object whose writes the service may hold for review.
type reviewed interface {
	activeReview() *ActiveReview
}

// writeReviewed sends a write answered with the whole object. An answer without a body, or one
// that leaves out what was sent (incomplete), is completed by reading the object back: the object
// as it now stands says whether the write took effect or was held. A held write returns the object
// with a ReviewPendingError.
func writeReviewed[T any, PT interface {
	*T
	reviewed
}](ctx context.Context, c *Client, r request, readBack func() (*T, error), incomplete func(*T) bool) (*T, error) {
	var obj T
	msg, err := c.doMessage(ctx, r, &obj)
	if emptyAnswer(err) || err == nil && incomplete(&obj) {
		got, rerr := readBack()
		if rerr != nil {
			return nil, rerr
		}
		obj, err = *got, nil
	}
	if err != nil {
		return nil, err
	}
	if err := c.heldForReview(r, msg, PT(&obj).activeReview()); err != nil {
		return &obj, err
	}
	return &obj, nil
}

// orEmpty is s, or an empty slice for nil: the service documents arrays, and an update replaces
// the whole object, so a list is sent as [] (which clears it) rather than null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
