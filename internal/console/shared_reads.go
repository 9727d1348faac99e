// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"golang.org/x/sync/singleflight"
)

// The reads of gates (and, for the pages, of segments and pipelines) are shared by every caller of
// one Client, which lives for one configured provider (one plan, one apply walk):
// featureconsole_gate, featureconsole_gate_rules and the gate data source read the same gate, and
// Terraform asks for them one resource at a time, ten at once.
//   - A gate asked for while a read of it is in flight waits for that read instead of sending its own.
//   - An answer is kept and handed out again until the client's next write: any request but a GET
//     forgets every answer, and an answer of a read that overlapped a write is never kept.
//   - When many gates are asked for before any write (a refresh), they are read from the pages of
//     GET /gates. The first page is read once a fifth gate is asked for; it tells how many gates
//     the project holds. The remaining pages are read (all at once, readConcurrency at a time) only
//     once the gates read one by one since, because the first page did not hold them, are as many
//     as those pages: the pages then cost at most what the single reads already did, so a few gates
//     of a large project never pay for its whole list. A gate no page holds is read on its own:
//     archived gates are left out of the list, a gate created meanwhile may be missing from it, and
//     a read answering 404 is what says a gate is gone.
//   - With respect_review_settings the pages are not used: a gate's pending review (activeReview)
//     is only known to be shown by a read of that gate, and such users rely on it.

const (
	// firstPageAfter is how many distinct gates are asked for before the first page is read: a
	// configuration of a few gates reads each on its own and never pays for a page it cannot use.
	firstPageAfter = 5
	// sharedReadMaxAge bounds how long an answer is handed out again: a caller that waits for the
	// service to change a gate by itself sees the change at the latest this late (uncachedReads sees
	// it at once).
	sharedReadMaxAge = time.Minute
	// listingTimeout bounds the reading of pages, which no single caller owns.
	listingTimeout = 2 * time.Minute
	// defaultListConcurrency is how many pages are read at once when Config.ListConcurrency is 0.
	defaultListConcurrency = 4
)

type uncachedReadsKey struct{}

// uncachedReads makes the reads made with ctx go to the service, neither joining another's read nor
// taking a kept answer: for a caller that must reach the service, as the plan-time access check.
func uncachedReads(ctx context.Context) context.Context {
	return context.WithValue(ctx, uncachedReadsKey{}, true)
}

func readsUncached(ctx context.Context) bool {
	v, _ := ctx.Value(uncachedReadsKey{}).(bool)
	return v
}

// sharedReads keeps the reads of one kind of object; the zero value is not usable (newSharedReads).
type sharedReads struct {
	mu    sync.Mutex
	gen   uint64 // counts writes: an answer is kept only if no write began or ended during its read
	wrote bool   // pages are read only before the client's first write
	kept  map[string]keptRead
	// flight shares one read of an id among the callers asking for it meanwhile; a write replaces
	// it, so that no caller takes the answer of a read that began before the write.
	flight *singleflight.Group
	asked  map[string]struct{} // distinct ids asked for before the first write
	misses int                 // ids read on their own after the first page was in
	list   *listing
}

type keptRead struct {
	raw json.RawMessage // the object's JSON, decoded anew for every caller: nobody can change it
	at  time.Time
}

// listing is the reading of the pages of the collection for one generation.
type listing struct {
	first, rest chan struct{} // closed once page 1, or the remaining pages, are in (or failed)
	firstIn     bool          // page 1 answered
	restIn      bool          // the remaining pages are in (or failed)
	pages       int           // pages after the first; 0 when none, or when the service does not say
	limit       int           // the page size the service used
}

func newSharedReads() *sharedReads {
	return &sharedReads{kept: map[string]keptRead{}, flight: &singleflight.Group{}, asked: map[string]struct{}{}}
}

// written forgets every answer; the client calls it when a write begins and when it ends.
func (s *sharedReads) written() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	s.wrote = true
	s.kept = map[string]keptRead{}
	s.flight = &singleflight.Group{}
	s.list = nil
}

// pagedObjects is what sharedReads needs of a collection: how to read one object and how to list.
type pagedObjects struct {
	read func(ctx context.Context, id string) (json.RawMessage, error)
	op   string // the read's, in errors: "read gate"
	list request
	// paged is false when the pages cannot be trusted to show what a read shows.
	paged bool
	// usable, when set, tells whether an object on a page shows all a read of it would.
	usable func(json.RawMessage) bool
}

// sharedGet reads the object id of k through s and decodes a copy of it for the caller.
func sharedGet[T any](ctx context.Context, c *Client, s *sharedReads, k collection[T], paged bool, usable func(json.RawMessage) bool, id string) (*T, error) {
	objs := pagedObjects{list: k.listRequest(), op: "read " + k.one, paged: paged, usable: usable,
		read: func(ctx context.Context, id string) (json.RawMessage, error) {
			var raw json.RawMessage
			if err := c.do(ctx, k.readRequest(id), &raw); err != nil {
				return nil, err
			}
			return raw, nil
		}}
	raw, err := s.get(ctx, c, objs, id)
	if err != nil {
		return nil, err
	}
	var out T
	if err := json.Unmarshal(raw, &out); err != nil {
		r := k.readRequest(id)
		return nil, c.redactDecodeError(&DecodeError{Op: r.op, Object: r.object, Err: err, Body: raw})
	}
	return &out, nil
}

// get reads the object id: a kept answer, or the answer of the one load of it in flight, which
// callers asking meanwhile share.
func (s *sharedReads) get(ctx context.Context, c *Client, k pagedObjects, id string) (json.RawMessage, error) {
	if readsUncached(ctx) || !c.sharedReads {
		return k.read(ctx, id)
	}
	s.mu.Lock()
	if !s.wrote {
		s.asked[id] = struct{}{}
	}
	if e, ok := s.kept[id]; ok && time.Since(e.at) < sharedReadMaxAge {
		s.mu.Unlock()
		return e.raw, nil
	}
	// DoChan is called with s.mu held, so that no caller joins a load that began before a write.
	// The load is the first caller's, with its context. turn is taken by whichever comes first, that
	// load starting or its caller giving up: a caller whose own load runs waits for it and returns
	// what it met (a rate limit, say), while one that joined another's leaves at once.
	var turn atomic.Bool
	flight := s.flight
	ch := flight.DoChan(id, func() (any, error) {
		if !turn.CompareAndSwap(false, true) {
			return nil, cancelledRead(ctx, k, id)
		}
		return s.load(ctx, c, k, id, flight)
	})
	s.mu.Unlock()

	var res singleflight.Result
	select {
	case res = <-ch:
	case <-ctx.Done():
		if turn.CompareAndSwap(false, true) {
			return nil, cancelledRead(ctx, k, id)
		}
		res = <-ch
	}
	// A load given up by the caller that began it is no answer for the others: they ask again.
	var ce *CancelledError
	if !turn.Load() && errors.As(res.Err, &ce) && ctx.Err() == nil {
		return s.get(ctx, c, k, id)
	}
	raw, _ := res.Val.(json.RawMessage)
	return raw, res.Err
}

// load finds the object id for the callers of get sharing it: kept meanwhile, on a page, or read on
// its own. It leaves flight before returning, with s.mu held, so that a caller coming after finds
// its answer kept or starts a load of its own, as one coming after a failed read must.
func (s *sharedReads) load(ctx context.Context, c *Client, k pagedObjects, id string, flight *singleflight.Group) (json.RawMessage, error) {
	s.mu.Lock()
	for {
		if e, ok := s.kept[id]; ok && time.Since(e.at) < sharedReadMaxAge {
			flight.Forget(id)
			s.mu.Unlock()
			return e.raw, nil
		}
		wait := s.pageFor(ctx, c, k)
		if wait == nil {
			break
		}
		s.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			s.mu.Lock()
			flight.Forget(id)
			s.mu.Unlock()
			return nil, cancelledRead(ctx, k, id)
		}
		s.mu.Lock()
	}
	gen := s.gen
	s.mu.Unlock()

	raw, err := k.read(ctx, id)

	s.mu.Lock()
	defer s.mu.Unlock()
	flight.Forget(id)
	if err == nil && s.gen == gen {
		s.kept[id] = keptRead{raw: raw, at: time.Now()}
	}
	return raw, err
}

func cancelledRead(ctx context.Context, k pagedObjects, id string) error {
	return &CancelledError{Op: k.op, Object: strconv.Quote(id), Err: ctx.Err()}
}

// pageFor, with s.mu held, starts the reading of pages when it pays and returns what to wait for
// before looking for the object again: nil when it is to be read on its own.
func (s *sharedReads) pageFor(ctx context.Context, c *Client, k pagedObjects) <-chan struct{} {
	if s.wrote || !k.paged {
		return nil
	}
	l := s.list
	switch {
	case l == nil:
		if len(s.asked) < firstPageAfter {
			return nil
		}
		l = &listing{first: make(chan struct{})}
		s.list = l
		go s.readFirstPage(ctx, c, k, l, s.gen)
		return l.first
	case !closed(l.first):
		return l.first
	case !l.firstIn:
		return nil // page 1 failed: every object is read on its own
	case l.rest == nil:
		if l.pages == 0 {
			return nil
		}
		s.misses++
		if s.misses < l.pages {
			return nil
		}
		l.rest = make(chan struct{})
		go s.readRestPages(ctx, c, k, l, s.gen)
		return l.rest
	case !l.restIn:
		return l.rest
	}
	return nil
}

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// listingContext outlives the caller that happened to start the listing, which others wait on.
func listingContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), listingTimeout)
}

func (s *sharedReads) readFirstPage(ctx context.Context, c *Client, k pagedObjects, l *listing, gen uint64) {
	ctx, cancel := listingContext(ctx)
	defer cancel()
	recs, pg, _, err := fetchPage[json.RawMessage](ctx, c, k.list, 1, c.pageSize)
	if err != nil {
		tflog.Debug(ctx, "reading objects one by one: the first page of their list failed", map[string]any{"error": err.Error()})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer close(l.first)
	if err != nil {
		return
	}
	if s.keep(gen, recs, k.usable) == 0 && len(recs) > 0 {
		return // page 1 showed no object whole: the others will not either
	}
	l.firstIn = true
	// Without a total the number of pages is unknown: the objects page 1 did not hold are read on
	// their own.
	if pg != nil && pg.NextPage != nil && *pg.NextPage != "" && pg.TotalItems > 0 && pg.ItemsPerPage > 0 {
		l.limit = min(pg.ItemsPerPage, MaxPageSize)
		l.pages = (pg.TotalItems - 1) / l.limit
	}
}

func (s *sharedReads) readRestPages(ctx context.Context, c *Client, k pagedObjects, l *listing, gen uint64) {
	ctx, cancel := listingContext(ctx)
	defer cancel()
	pages, _, _, err := fetchPages[json.RawMessage](ctx, c, k.list, 2, 1+l.pages, l.limit, c.listConcurrency)
	if err != nil {
		tflog.Debug(ctx, "reading objects one by one: a page of their list failed", map[string]any{"error": err.Error()})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer close(l.rest)
	l.restIn = true
	for _, p := range pages {
		s.keep(gen, p, k.usable)
	}
}

// keep, with s.mu held, keeps the usable objects of a page read during generation gen, unless a
// write came since, and returns how many were usable. A page that repeats another (a service
// ignoring page) only keeps the same again.
func (s *sharedReads) keep(gen uint64, recs []json.RawMessage, usable func(json.RawMessage) bool) int {
	now := time.Now()
	n := 0
	for _, raw := range recs {
		var obj struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(raw, &obj) != nil || obj.ID == "" || usable != nil && !usable(raw) {
			continue
		}
		n++
		if _, ok := s.kept[obj.ID]; !ok && gen == s.gen {
			s.kept[obj.ID] = keptRead{raw: raw, at: now}
		}
	}
	return n
}
