// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

func idsBody(from, to int) map[string]any {
	ids := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		ids = append(ids, fmt.Sprintf("u_%d", i))
	}
	return map[string]any{"ids": ids}
}

// The cap refuses a whole add that would outgrow it, keeps earlier adds, and the project's
// Large ID Lists lifts it.
func TestSegmentIDListCap(t *testing.T) {
	s, c := newClient(t, Config{NoSeed: true, NoIDListLimits: true})
	s.SetIDListCap(1500)
	expect(t, c.do("POST", "/segments", map[string]any{"id": "big", "name": "big", "type": "id_list"}), 201)
	expect(t, c.do("PATCH", "/segments/big/id_list", idsBody(0, 1000)), 200)
	r := c.do("PATCH", "/segments/big/id_list", idsBody(1000, 2000))
	expect(t, r, 400)
	if !strings.Contains(r.Body["message"].(string), "ID list size limit exceeded") {
		t.Fatalf("%s", r.Raw)
	}
	if sg, _ := s.Segment("big"); len(sg.IDs) != 1000 {
		t.Fatalf("the refused add changed the list: %d ids", len(sg.IDs))
	}
	s.SetLargeIDLists(true)
	expect(t, c.do("PATCH", "/segments/big/id_list", idsBody(1000, 2000)), 200)
	if sg, _ := s.Segment("big"); len(sg.IDs) != 2000 {
		t.Fatalf("%d ids", len(sg.IDs))
	}
}

// Writes of lists over 1,000 ids take effect late, in order; the version rises as each takes
// effect, isUpdating says some are on their way; a console change raises the version too.
func TestSegmentIDListLag(t *testing.T) {
	s, c := newClient(t, Config{NoSeed: true, NoIDListLimits: true})
	now := time.Unix(1_700_000_000, 0)
	s.locked(func() { s.now = func() time.Time { return now } })
	s.SetIDListLag(time.Minute)
	meta := func() (string, bool) {
		d := c.do("GET", "/segments/big/idlist_metadata", nil).data()
		return fmt.Sprint(d["currentVersion"]), d["isUpdating"] == true
	}
	count := func() json.Number { return c.do("GET", "/segments/big", nil).data()["count"].(json.Number) }
	expect(t, c.do("POST", "/segments", map[string]any{"id": "big", "name": "big", "type": "id_list"}), 201)
	expect(t, c.do("PATCH", "/segments/big/id_list", idsBody(0, 1000)), 200) // 1,000: at once
	if v, up := meta(); v != "1" || up || count() != "1000" {
		t.Fatalf("after 1,000 ids: version %s updating %v count %s", v, up, count())
	}
	expect(t, c.do("PATCH", "/segments/big/id_list", idsBody(1000, 1500)), 200)
	expect(t, c.do("DELETE", "/segments/big/id_list", idsBody(0, 300)), 200)
	if v, up := meta(); v != "1" || !up || count() != "1000" {
		t.Fatalf("on their way: version %s updating %v count %s", v, up, count())
	}
	if sg, _ := s.Segment("big"); len(sg.IDs) != 1200 {
		t.Fatalf("the mock holds %d ids in the end, want 1200", len(sg.IDs))
	}
	s.locked(func() { s.now = func() time.Time { return now.Add(2 * time.Minute) } })
	if v, up := meta(); v != "3" || up || count() != "1200" {
		t.Fatalf("taken effect: version %s updating %v count %s", v, up, count())
	}
	sg, _ := s.Segment("big")
	s.PutSegment(sg)
	if v, _ := meta(); v != "4" {
		t.Fatalf("a console change: version %s", v)
	}
}

// Reads of ids are limited; archived segments refuse every write; the other types are read,
// never written.
func TestSegmentReadLimitArchiveTypes(t *testing.T) {
	s, c := newClient(t, Config{NoSeed: true, NoIDListLimits: true})
	s.PutSegment(Segment{ID: "list", Type: "id_list", IDs: []string{"a"}})
	s.PutSegment(Segment{ID: "store", Type: SegmentUserStoreIDList, Count: 7})
	s.SetIDListReadLimit(IDLimit{N: 2, Window: time.Minute})
	expect(t, c.do("GET", "/segments/list/id_list", nil), 200)
	expect(t, c.do("GET", "/segments/list/id_list", nil), 200)
	if r := c.do("GET", "/segments/list/id_list", nil); r.Status != 429 || r.Header.Get("Retry-After") == "" {
		t.Fatalf("third read: %d %s", r.Status, r.Raw)
	}
	expect(t, c.do("PUT", "/segments/list/archive", nil), 200)
	r := c.do("PATCH", "/segments/list/id_list", map[string]any{"ids": []string{"b"}})
	expect(t, r, 400)
	if r.Body["message"] != "Segment list is archived and cannot be modified." {
		t.Fatalf("%s", r.Raw)
	}
	if d := c.do("GET", "/segments/store", nil).data(); d["type"] != SegmentUserStoreIDList || d["count"] != json.Number("7") {
		t.Fatalf("%v", d)
	}
	expect(t, c.do("PATCH", "/segments/store/id_list", map[string]any{"ids": []string{"b"}}), 400)
	expect(t, c.do("GET", "/segments/store/idlist_metadata", nil), 400)
}
