// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// An add refused for the list's size part-way: the error is the cap, and says how many ids were
// taken (the chunks answered before it); an archived segment's refusal is told apart.
func TestAddSegmentIDs_capPartWay(t *testing.T) {
	f := newFake(t, script(ok(`{}`), ok(`{}`), apiErr(400, "ID list size limit exceeded: at most 10000 IDs")))
	ids := make([]string, 2500)
	for i := range ids {
		ids[i] = "u_" + strings.Repeat("x", i%3) + string(rune('a'+i%26))
	}
	err := f.client().AddSegmentIDs(context.Background(), "s", ids)
	if !IsIDListCap(err) || IsArchived(err) || IDsWritten(err) != 2000 {
		t.Fatalf("cap %v, archived %v, written %d: %v", IsIDListCap(err), IsArchived(err), IDsWritten(err), err)
	}
	if !strings.Contains(err.Error(), "ID list size limit exceeded") {
		t.Errorf("the service's words are kept: %v", err)
	}

	f = newFake(t, script(apiErr(400, "Segment s is archived and cannot be modified.")))
	err = f.client().RemoveSegmentIDs(context.Background(), "s", []string{"a"})
	if !IsArchived(err) || IsIDListCap(err) || IDsWritten(err) != 0 {
		t.Fatalf("archived %v, cap %v, written %d: %v", IsArchived(err), IsIDListCap(err), IDsWritten(err), err)
	}
	if IsIDListCap(errors.New("ID list size limit exceeded")) {
		t.Error("only the service's 400 is the cap")
	}
}

// GET /segments/{id}/idlist_metadata: the version in whatever JSON form the service sends it, a whole number written as one.
func TestSegmentIDListMetadata(t *testing.T) {
	for body, want := range map[string]string{
		`{"currentVersion": 7, "isUpdating": true}`:      "7",
		`{"currentVersion": 7.0, "isUpdating": false}`:   "7",
		`{"currentVersion": "7", "isUpdating": false}`:   "7",
		`{"currentVersion": 7.5, "isUpdating": false}`:   "7.5",
		`{"currentVersion": "v12", "isUpdating": false}`: "v12",
		`{"isUpdating": false}`:                          "",
	} {
		f := newFake(t, script(ok(body)))
		m, err := f.client().SegmentIDListMetadata(context.Background(), "a b")
		if err != nil {
			t.Fatal(err)
		}
		if m.Version() != want || m.IsUpdating != strings.Contains(body, "true") {
			t.Errorf("%s: version %q updating %v", body, m.Version(), m.IsUpdating)
		}
		if p := f.requests()[0].Path; p != "/console/v1/segments/a%20b/idlist_metadata" {
			t.Errorf("path %s", p)
		}
	}
}

// A read the service keeps refusing until its time runs out is a read-limit error, in words about
// reads; a write's is the write limit's.
func TestRateLimitError_readsSaidAsReads(t *testing.T) {
	f := newFake(t, script(reply{Status: 429, Body: `{"status":429,"message":"Rate limit exceeded"}`, Header: map[string]string{"Retry-After": "1"}}))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := f.client().SegmentIDs(ctx, "s")
	rle, ok := errors.AsType[*RateLimitError](err)
	if !ok || !rle.Read || !strings.Contains(err.Error(), "read limit") || strings.Contains(err.Error(), "write") {
		t.Fatalf("%T %v", err, err)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel2()
	err = f.client().AddSegmentIDs(ctx2, "s", []string{"a"})
	if rle, ok := errors.AsType[*RateLimitError](err); !ok || rle.Read || !strings.Contains(err.Error(), "write limit") {
		t.Fatalf("%T %v", err, err)
	}
}
