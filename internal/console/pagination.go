// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"net/http"
	"net/url"
	"strconv"

	"golang.org/x/sync/errgroup"
)

// Pagination is the paging object of list responses.
type Pagination struct {
	ItemsPerPage int     `json:"itemsPerPage"`
	PageNumber   int     `json:"pageNumber"`
	TotalItems   int     `json:"totalItems"`
	NextPage     *string `json:"nextPage"`
	PreviousPage *string `json:"previousPage"`
	All          string  `json:"all"`
}

// ListOptions bound a listing.
type ListOptions struct {
	// MaxRecords stops the listing once this many records are read; 0 reads every page.
	MaxRecords int
	// Concurrency is how many pages may be fetched at once once the first page tells the total;
	// 0 or 1 reads page after page.
	Concurrency int
	// IncludeArchived lists archived gates too (gates only: GET /gates?includeArchived=true).
	IncludeArchived bool
}

// maxPages stops a service whose nextPage never ends.
const maxPages = 1_000_000

// maxWindowPages bounds how many pages one concurrent window fetches.
const maxWindowPages = 32

// pageSeed keys the digests by which a repeated page is recognised.
var pageSeed = maphash.MakeSeed()

// MaxPageSize is the largest page ever asked for: some lists refuse a limit above it with a 400.
const MaxPageSize = 100

// listAll reads a collection page by page, following the pagination object the service sends.
// The page size is the one the service reports in itemsPerPage, never the one asked for.
func listAll[T any](ctx context.Context, c *Client, r request, opts ListOptions) ([]T, error) {
	var out []T
	first := true
	err := eachPage(ctx, c, r, opts, func(recs []T) error {
		if first {
			out, first = recs, false
			return nil
		}
		out = append(out, recs...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eachPage reads a collection like listAll but hands each page to fn, in order, as soon as the
// pages before it have been handed over, and keeps none: a caller that encodes and drops them holds
// a few pages at a time. The last page handed over is cut at opts.MaxRecords. An error of fn stops
// the listing and is returned as it is.
func eachPage[T any](ctx context.Context, c *Client, r request, opts ListOptions, fn func([]T) error) error {
	n := 0
	// Some lists ignore page and answer the first page every time: a page seen before, or an empty
	// one, ends the listing rather than repeating records or paging forever.
	seen := map[uint64]bool{}
	// emit hands recs to fn and reports whether the listing is done.
	emit := func(recs []T, pg *Pagination, sum uint64) (bool, error) {
		if len(seen) > 0 && (len(recs) == 0 || seen[sum]) {
			return true, nil
		}
		seen[sum] = true
		if opts.MaxRecords > 0 && n+len(recs) > opts.MaxRecords {
			recs = recs[:opts.MaxRecords-n]
		}
		n += len(recs)
		if err := fn(recs); err != nil {
			return true, err
		}
		return pg == nil || pg.NextPage == nil || *pg.NextPage == "" || (opts.MaxRecords > 0 && n >= opts.MaxRecords), nil
	}

	limit := c.pageSize
	if opts.MaxRecords > 0 && opts.MaxRecords < limit {
		limit = opts.MaxRecords
	}
	first, pg, sum, err := fetchPage[T](ctx, c, r, 1, limit)
	if err != nil {
		return err
	}
	if fin, err := emit(first, pg, sum); fin || err != nil {
		return err
	}
	page, limit, err := nextPageParams(pg, 1)
	if err != nil {
		return &RequestError{Op: r.op, Object: r.object, Err: err}
	}

	// With the total known, the remaining pages can be fetched at once; what the service adds
	// meanwhile is picked up by following nextPage from the last of them. The pages are fetched in
	// windows, so a service announcing an absurd total costs neither memory nor requests up front.
	if opts.Concurrency > 1 && pg.TotalItems > 0 && pg.ItemsPerPage > 0 && limit == pg.ItemsPerPage {
		want := pg.TotalItems
		if opts.MaxRecords > 0 {
			want = min(want, opts.MaxRecords)
		}
		lastPage := (want-1)/pg.ItemsPerPage + 1
		ipp := pg.ItemsPerPage
		for lastPage >= page && limit == ipp {
			to := min(lastPage, page+maxWindowPages-1)
			pages, pgs, sums, err := fetchPages[T](ctx, c, r, page, to, limit, opts.Concurrency)
			if err != nil {
				return err
			}
			// A page that says it is the last ends the listing, whatever the total promised.
			for i, p := range pages {
				if fin, err := emit(p, pgs[i], sums[i]); fin || err != nil {
					return err
				}
				pages[i] = nil
			}
			if page, limit, err = nextPageParams(pgs[len(pgs)-1], to); err != nil {
				return &RequestError{Op: r.op, Object: r.object, Err: err}
			}
		}
	}

	for range maxPages {
		recs, pg, sum, err := fetchPage[T](ctx, c, r, page, limit)
		if err != nil {
			return err
		}
		if fin, err := emit(recs, pg, sum); fin || err != nil {
			return err
		}
		if page, limit, err = nextPageParams(pg, page); err != nil {
			return &RequestError{Op: r.op, Object: r.object, Err: err}
		}
	}
	return &RequestError{Op: r.op, Object: r.object, Err: fmt.Errorf("the service kept announcing a next page after %d pages", maxPages)}
}

// nextPageParams takes page and limit from the nextPage link; the path of the link is ignored so a
// service cannot redirect the client elsewhere.
func nextPageParams(pg *Pagination, current int) (page, limit int, err error) {
	u, err := url.Parse(*pg.NextPage)
	if err != nil {
		return 0, 0, fmt.Errorf("invalid nextPage link %q: %w", *pg.NextPage, err)
	}
	q := u.Query()
	page, err = strconv.Atoi(q.Get("page"))
	if err != nil || page <= current {
		return 0, 0, fmt.Errorf("invalid nextPage link %q: page must be a number after %d", *pg.NextPage, current)
	}
	limit = pg.ItemsPerPage
	if l, err := strconv.Atoi(q.Get("limit")); err == nil && l > 0 {
		limit = l
	}
	if limit <= 0 {
		return 0, 0, fmt.Errorf("invalid pagination: itemsPerPage %d", pg.ItemsPerPage)
	}
	return page, min(limit, MaxPageSize), nil
}

// fetchPage reads one page: its records, its pagination object (nil when the service sent none:
// the whole list is in data) and a digest of its data, by which a repeated page is recognised.
func fetchPage[T any](ctx context.Context, c *Client, r request, page, limit int) ([]T, *Pagination, uint64, error) {
	pr := r
	pr.method = http.MethodGet
	pr.query = url.Values{}
	for k, v := range r.query {
		pr.query[k] = v
	}
	pr.query.Set("page", strconv.Itoa(page))
	pr.query.Set("limit", strconv.Itoa(limit))
	raw, err := c.send(ctx, pr)
	if err != nil {
		return nil, nil, 0, err
	}
	var env envelope[listData[T]]
	if err := decodeEnvelope(pr, raw, &env); err != nil {
		return nil, nil, 0, c.redactFor(pr, err)
	}
	if !env.Data.present {
		return nil, nil, 0, &DecodeError{Op: pr.op, Object: pr.object, Err: errors.New(`the response has no "data" list`)}
	}
	return env.Data.items, env.Pagination, env.Data.sum, nil
}

// fetchPages fetches pages from..to with at most workers requests in flight and returns them in order,
// each with its pagination object. The first failure cancels the pages still being read and is the
// error returned.
func fetchPages[T any](ctx context.Context, c *Client, r request, from, to, limit, workers int) ([][]T, []*Pagination, []uint64, error) {
	n := to - from + 1
	pages := make([][]T, n)
	pgs := make([]*Pagination, n)
	sums := make([]uint64, n)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(workers, 1))
	for i := range n {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			var err error
			pages[i], pgs[i], sums[i], err = fetchPage[T](gctx, c, r, from+i, limit)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, nil, nil, err
	}
	if ctx.Err() != nil {
		return nil, nil, nil, &RequestError{Op: r.op, Object: r.object, Err: ctx.Err()}
	}
	return pages, pgs, sums, nil
}

// listData is a page's data array; a missing key (another API behind a wrong base_url) is an
// error, while null is taken as an empty page.
type listData[T any] struct {
	items   []T
	present bool
	sum     uint64
}

func (l *listData[T]) UnmarshalJSON(b []byte) error {
	l.present = true
	l.sum = maphash.Bytes(pageSeed, b)
	if string(b) == "null" {
		return nil
	}
	return json.Unmarshal(b, &l.items)
}
