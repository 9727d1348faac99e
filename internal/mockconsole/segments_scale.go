// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"fmt"
	"net/http"
	"slices"
	"time"
)

// The live service's habits of segments at scale, each a mode a test
// switches on: none is in AllHabits, since each changes what succeeds or what a read shows at
// once (the cap refuses the large lists other tests write, the lag hides writes from an import
// right after them, the read limit makes a 100,000-id read take many minutes).

// Segment types the API cannot write: seeded with PutSegment.
const (
	SegmentUserStoreIDList = "user_store_id_list"
	SegmentAnalysisList    = "analysis_list"
)

// DefaultIDListCap is the service's cap on an id list without Large ID Lists.
const DefaultIDListCap = 10000

// lagFrom is the size of a list above which its writes propagate late.
const lagFrom = 1000

// SetIDListCap caps every id list at n ids (0: no cap) unless the project has Large ID Lists.
func (s *Server) SetIDListCap(n int) { s.locked(func() { s.idCap = n }) }

// SetLargeIDLists switches the project's Large ID Lists beta on or off: on, the cap is lifted.
func (s *Server) SetLargeIDLists(on bool) { s.locked(func() { s.largeIDLists = on }) }

// SetIDListLag makes writes of id lists holding more than 1,000 ids take effect d after they are
// answered (0: at once): until then GET .../id_list, the segment's count and GET /segments show the
// list as it was, and idlist_metadata says isUpdating. Writes take effect in order.
func (s *Server) SetIDListLag(d time.Duration) { s.locked(func() { s.idLag = d }) }

// SettleIDLists makes every write on its way take effect now, as the service does in the end.
func (s *Server) SettleIDLists() {
	s.locked(func() {
		for _, st := range s.segments {
			st.settle(time.Time{}, true)
		}
	})
}

// IDListUpdating tells whether writes of a segment's ids are still on their way.
func (s *Server) IDListUpdating(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.segments[id]
	return ok && st.lag != nil
}

// SetIDListReadLimit limits GET /segments/{id}/id_list (the service allows about 100 a minute per
// project); no limit lifts it.
func (s *Server) SetIDListReadLimit(limits ...IDLimit) {
	s.locked(func() {
		s.idReadTiers = nil
		for _, l := range limits {
			if l.N > 0 && l.Window > 0 {
				s.idReadTiers = append(s.idReadTiers, &writeTier{limit: l.N, window: l.Window})
			}
		}
	})
}

// ArchiveSegment archives a segment as the console does (PUT /segments/{id}/archive).
func (s *Server) ArchiveSegment(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.segments[id]
	if ok {
		st.archived = true
	}
	return ok
}

// idLag is an id list whose writes are on their way: what reads show, and the writes still to
// take effect, oldest first.
type idLag struct {
	shown []string
	set   map[string]struct{}
	ops   []idOp
}

type idOp struct {
	due time.Time
	add bool
	ids []string
}

// recordIDWrite notes a write that changed the list (ids are those it added or removed): at
// once, or on its way when the lag mode is on and the list holds more than lagFrom ids before or
// after it (or earlier writes are still on their way: they take effect in order). s.mu is held.
func (s *Server) recordIDWrite(st *segmentState, before []string, add bool, ids []string) {
	if len(ids) == 0 {
		return
	}
	if s.idLag <= 0 || st.lag == nil && max(len(before), len(st.seg.IDs)) <= lagFrom {
		st.version++
		return
	}
	if st.lag == nil {
		st.lag = &idLag{shown: before, set: make(map[string]struct{}, len(before))}
		for _, v := range before {
			st.lag.set[v] = struct{}{}
		}
	}
	st.lag.ops = append(st.lag.ops, idOp{due: s.now().Add(s.idLag), add: add, ids: ids})
}

// settle applies the writes due by now (every one with all); each raises the version.
func (st *segmentState) settle(now time.Time, all bool) {
	l := st.lag
	if l == nil {
		return
	}
	for len(l.ops) > 0 && (all || !now.Before(l.ops[0].due)) {
		op := l.ops[0]
		l.ops = l.ops[1:]
		if op.add {
			for _, v := range op.ids {
				if _, has := l.set[v]; !has {
					l.set[v] = struct{}{}
					l.shown = append(l.shown, v)
				}
			}
		} else {
			gone := map[string]bool{}
			for _, v := range op.ids {
				if _, has := l.set[v]; has {
					delete(l.set, v)
					gone[v] = true
				}
			}
			l.shown = slices.DeleteFunc(l.shown, func(v string) bool { return gone[v] })
		}
		st.version++
	}
	if len(l.ops) == 0 {
		st.lag = nil
	}
}

// settleSegments applies the writes due; s.mu is held.
func (s *Server) settleSegments() {
	now := s.now()
	for _, st := range s.segments {
		st.settle(now, false)
	}
}

// shownIDs is the id list as reads show it.
func (st *segmentState) shownIDs() []string {
	if st.lag != nil {
		return st.lag.shown
	}
	return st.seg.IDs
}

// idListMetadata answers GET /segments/{id}/idlist_metadata: {currentVersion, isUpdating} of an id list.
func (s *Server) idListMetadata(id string) response {
	st, bad := s.idListOf(id)
	if bad != nil {
		return *bad
	}
	return okResp("ID list metadata retrieved successfully", map[string]any{"currentVersion": st.version, "isUpdating": st.lag != nil})
}

// archiveSegment answers PUT /segments/{id}/archive: the segment, as it stands; there is no unarchive.
func (s *Server) archiveSegment(id string) response {
	st, miss := find(s.segments, "Segment", id)
	if miss != nil {
		return *miss
	}
	st.archived = true
	return okResp("Segment archived successfully", st.wire(true))
}

// refusedArchived is the service's 400 for a write of an archived segment.
func refusedArchived(st *segmentState) *response {
	if !st.archived {
		return nil
	}
	return ref(errResp(http.StatusBadRequest, "Segment %s is archived and cannot be modified.", st.seg.ID))
}

// refusedCap is the 400 for an add that would take the list past the cap: nothing of it is added.
func (s *Server) refusedCap(st *segmentState, ids []string) *response {
	if s.idCap <= 0 || s.largeIDLists {
		return nil
	}
	n := len(st.idSet)
	fresh := map[string]struct{}{}
	for _, v := range ids {
		if _, has := st.idSet[v]; !has {
			fresh[v] = struct{}{}
		}
	}
	n += len(fresh)
	if n <= s.idCap {
		return nil
	}
	return ref(errResp(http.StatusBadRequest, "ID list size limit exceeded: an ID list can hold at most %d IDs (this request would make it %d). "+
		"Enable Large ID Lists for the project to hold more.", s.idCap, n))
}

// admitIDRead counts a read of ids against the read limit, or refuses it with 429; s.mu is held.
func (s *Server) admitIDRead(now time.Time) *response {
	return admitTiers(s.idReadTiers, now, func(t *writeTier) string {
		return fmt.Sprintf("Rate limit exceeded: at most %d id list reads per %s", t.limit, t.window)
	})
}
