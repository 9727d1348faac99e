// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// A service that cannot say whether a write is on its way (no idlist_metadata): for a bounded time
// after this provider's write the state's ids are taken as held; after it, the pages are read.
func TestRefreshSegment_metadataUnreadable(t *testing.T) {
	var mu sync.Mutex
	var pages int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/idlist_metadata"):
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"status":404,"message":"Cannot GET"}`))
		case strings.HasSuffix(r.URL.Path, "/id_list"):
			mu.Lock()
			pages++
			mu.Unlock()
			_, _ = w.Write([]byte(`{"message":"ok","data":{"name":"s","count":1,"ids":["old"]},"pagination":{"itemsPerPage":100,"pageNumber":1,"nextPage":null}}`))
		default:
			_, _ = w.Write([]byte(`{"message":"ok","data":{"id":"s","type":"id_list","count":1,"rules":[]}}`))
		}
	}))
	defer srv.Close()
	c, err := console.New(console.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: 0, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	r := &segmentResource{resourceData{data: &providerData{client: c}}}
	held := []string{"a", "b", "c"}

	priv := idListPrivate{WrittenAt: time.Now().Add(-time.Minute).Unix(), Refused: []string{"c"}}
	got, err := refreshSegment(context.Background(), r.data, "s", held, &priv)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.ids, []string{"a", "b"}) || got.Count == nil || *got.Count != 2 || pages != 0 || priv.Refused != nil {
		t.Errorf("a minute after the write: ids %v count %d, %d pages, refused %v; want what was written, taken as held", got.ids, got.Count, pages, priv.Refused)
	}

	priv = idListPrivate{WrittenAt: time.Now().Add(-idListPropagation - time.Minute).Unix()}
	got, err = refreshSegment(context.Background(), r.data, "s", held, &priv)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.ids, []string{"old"}) || pages != 1 || priv.WrittenAt != 0 || priv.Version != "" {
		t.Errorf("long after the write: ids %v, %d pages, private %+v; want the pages read", got.ids, pages, priv)
	}
}

// The version this provider's writes lead to: counted from the list's version before them (or,
// while earlier writes of this provider are on their way, from where those lead), one step per
// write of at most 1,000 ids; a list at that version is taken as what was written (no page read),
// and one past it is read.
func TestSegmentIDListExpectedVersion(t *testing.T) {
	var mu sync.Mutex
	version, updating, pages := "7", false, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/idlist_metadata"):
			_, _ = w.Write([]byte(`{"message":"ok","data":{"currentVersion":` + version + `,"isUpdating":` + map[bool]string{true: "true", false: "false"}[updating] + `}}`))
		case strings.HasSuffix(r.URL.Path, "/id_list"):
			pages++
			_, _ = w.Write([]byte(`{"message":"ok","data":{"name":"s","ids":["a"]},"pagination":{"itemsPerPage":100,"pageNumber":1,"nextPage":null}}`))
		default:
			_, _ = w.Write([]byte(`{"message":"ok","data":{"id":"s","type":"id_list","rules":[]}}`))
		}
	}))
	defer srv.Close()
	c, err := console.New(console.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: 0, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	r := &segmentResource{resourceData{data: &providerData{client: c}}}
	ctx := context.Background()

	if got := idListWrites(2500); got != 3 {
		t.Errorf("2,500 ids take %d writes, want 3", got)
	}
	base, ok := idListBase(ctx, r.data, "s", idListPrivate{})
	if !ok || base != 7 {
		t.Fatalf("base %d, %v; want 7", base, ok)
	}
	// While writes are on their way, the base is where this provider's own lead; someone else's: unknown.
	mu.Lock()
	updating = true
	mu.Unlock()
	if base, ok := idListBase(ctx, r.data, "s", idListPrivate{Expected: "9"}); !ok || base != 9 {
		t.Errorf("on their way, ours: %d, %v; want 9", base, ok)
	}
	if _, ok := idListBase(ctx, r.data, "s", idListPrivate{}); ok {
		t.Error("on their way, not ours: a base was taken")
	}
	priv, onItsWay := afterIDWrite(ctx, r.data, "s", nil, expectedVersion(7, true, 3))
	if !onItsWay || priv.Expected != "10" || priv.WrittenAt == 0 {
		t.Fatalf("after the writes: %+v, on its way %v", priv, onItsWay)
	}

	held := []string{"a", "b"}
	for _, step := range []struct {
		version string
		pages   int
	}{{"10", 0}, {"10", 0}, {"11", 1}} {
		mu.Lock()
		version, updating, pages = step.version, false, 0
		mu.Unlock()
		p := priv
		p.WrittenAt = 1 // long ago: only the version tells
		got, err := refreshSegment(ctx, r.data, "s", held, &p)
		if err != nil {
			t.Fatal(err)
		}
		if pages != step.pages || step.pages == 0 && (!slices.Equal(got.ids, held) || p.Version != "10" || p.Expected != "") {
			t.Errorf("version %s: %d pages, ids %v, private %+v; want %d pages", step.version, pages, got.ids, p, step.pages)
		}
	}
}
