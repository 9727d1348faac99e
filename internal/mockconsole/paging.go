// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
)

// Every list endpoint pages the same way: page and limit (positive integers, limit capped by
// Config.PageSizeCap), and a pagination object with links to the pages beside this one.

type listEnvelope struct {
	Message    string     `json:"message"`
	Data       any        `json:"data"`
	Pagination pagination `json:"pagination"`
}

type pagination struct {
	ItemsPerPage int     `json:"itemsPerPage"`
	PageNumber   int     `json:"pageNumber"`
	TotalItems   int     `json:"totalItems"`
	NextPage     *string `json:"nextPage"`
	PreviousPage *string `json:"previousPage"`
	All          string  `json:"all"`
}

type pageReq struct {
	page, limit int
}

func (s *Server) parsePage(r *http.Request) (pageReq, *response) {
	q := r.URL.Query()
	p := pageReq{page: 1, limit: defaultLimit}
	for _, k := range []string{"page", "limit"} {
		if !q.Has(k) {
			continue
		}
		n, err := strconv.Atoi(q.Get(k))
		if err != nil || n < 1 {
			e := errResp(http.StatusBadRequest, "%s must be a positive integer, got %q", k, q.Get(k))
			return p, &e
		}
		if k == "page" {
			p.page = n
		} else {
			p.limit = n
		}
	}
	if s.habits.LimitCeiling && p.limit > maxLimit {
		e := errResp(http.StatusBadRequest, "limit must not be greater than %d", maxLimit)
		return p, &e
	}
	if s.pageCap > 0 && p.limit > s.pageCap {
		p.limit = s.pageCap
	}
	return s.habits.pageAsAnswered(p), nil
}

// window returns [lo,hi) of the page and the pagination object.
func (p pageReq) window(total int, all string) (int, int, pagination) {
	lo := (p.page - 1) * p.limit
	if lo > total || lo < 0 {
		lo = total
	}
	hi := min(lo+p.limit, total)
	pg := pagination{ItemsPerPage: p.limit, PageNumber: p.page, TotalItems: total, All: all}
	link := func(n int) *string {
		s := fmt.Sprintf("%s?page=%d&limit=%d", all, n, p.limit)
		return &s
	}
	if p.page*p.limit < total {
		pg.NextPage = link(p.page + 1)
	}
	if p.page > 1 {
		pg.PreviousPage = link(p.page - 1)
	}
	return lo, hi, pg
}

// listed answers a list endpoint with page p of n items, item(i) being the i-th in listing order
// (a copy: the answer must not alias the store). path is the endpoint under /console/v1, plural
// what the listed objects ("Gates").
func listed[T any](p pageReq, path, plural string, n int, item func(i int) T) response {
	lo, hi, pg := p.window(n, basePath+path)
	data := make([]T, 0, hi-lo)
	for i := lo; i < hi; i++ {
		data = append(data, item(i))
	}
	return jsonResp(http.StatusOK, listEnvelope{Message: plural + " listed successfully", Data: data, Pagination: pg})
}

// listByKey answers a list endpoint of objects kept in a map, ordered by key (id, or name), so that
// pages do not overlap.
func listByKey[V, T any](s *Server, r *http.Request, m map[string]V, path, plural string, clone func(V) T) response {
	p, e := s.parsePage(r)
	if e != nil {
		return *e
	}
	keys := slices.Sorted(maps.Keys(m))
	return listed(p, path, plural, len(keys), func(i int) T { return clone(m[keys[i]]) })
}
