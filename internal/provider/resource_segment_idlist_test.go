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
	got, err := r.refreshSegment(context.Background(), "s", held, &priv)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.ids, []string{"a", "b"}) || got.Count == nil || *got.Count != 2 || pages != 0 || priv.Refused != nil {
		t.Errorf("a minute after the write: ids %v count %d, %d pages, refused %v; want what was written, taken as held", got.ids, got.Count, pages, priv.Refused)
	}

	priv = idListPrivate{WrittenAt: time.Now().Add(-idListPropagation - time.Minute).Unix()}
	got, err = r.refreshSegment(context.Background(), "s", held, &priv)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.ids, []string{"old"}) || pages != 1 || priv.WrittenAt != 0 || priv.Version != "" {
		t.Errorf("long after the write: ids %v, %d pages, private %+v; want the pages read", got.ids, pages, priv)
	}
}
