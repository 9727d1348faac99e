// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

const benchEventRecords = 100_000

// benchEventPages are the response bodies of the 100,000-record listing of checkout_completed, as
// the mock serves them at the client's default page size.
func benchEventPages(b *testing.B) [][]byte {
	b.Helper()
	_, ts := mockconsole.NewTestServer(b, mockconsole.Config{EventRecords: benchEventRecords})
	var pages [][]byte
	for page := 1; ; page++ {
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/console/v1/events/checkout_completed?page=%d&limit=%d", ts.URL, page, DefaultPageSize), nil)
		req.Header.Set("SERVICE-API-KEY", mockconsole.DefaultAPIKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		var raw json.RawMessage
		err = json.NewDecoder(resp.Body).Decode(&raw)
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		var env struct{ Pagination Pagination }
		if err := json.Unmarshal(raw, &env); err != nil {
			b.Fatal(err)
		}
		pages = append(pages, raw)
		if env.Pagination.NextPage == nil {
			return pages
		}
	}
}

func reportRecords(b *testing.B, perOp int) {
	b.ReportMetric(float64(perOp)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkDecodeEvents100k decodes the 1,000 pages of a 100,000-record listing, without HTTP.
func BenchmarkDecodeEvents100k(b *testing.B) {
	pages := benchEventPages(b)
	size := 0
	for _, p := range pages {
		size += len(p)
	}
	r := request{op: "list events", object: `"checkout_completed"`}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		out := make([]Event, 0, benchEventRecords)
		for _, p := range pages {
			var env envelope[[]Event]
			if err := decodeEnvelope(r, p, &env); err != nil {
				b.Fatal(err)
			}
			out = append(out, env.Data...)
		}
		if len(out) != benchEventRecords {
			b.Fatalf("decoded %d records", len(out))
		}
	}
	reportRecords(b, benchEventRecords)
	b.ReportMetric(float64(size)/1e6, "json-MB")
}

// BenchmarkListEvents100k is the pager end to end: ListEvents of 100,000 records over loopback HTTP
// from the mock, page after page and with 8 pages in flight, with no latency and with 10 ms per
// request (where fetching pages concurrently is meant to pay off).
func BenchmarkListEvents100k(b *testing.B) {
	for _, lat := range []time.Duration{0, 10 * time.Millisecond} {
		for _, conc := range []int{1, 8} {
			name := fmt.Sprintf("latency=%s/concurrency=%d", lat, conc)
			b.Run(name, func(b *testing.B) {
				_, ts := mockconsole.NewTestServer(b, mockconsole.Config{EventRecords: benchEventRecords, Latency: lat})
				c, err := New(Config{BaseURL: ts.URL, APIKey: mockconsole.DefaultAPIKey})
				if err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				for b.Loop() {
					evs, err := c.ListEvents(ctx, "checkout_completed", ListOptions{Concurrency: conc})
					if err != nil {
						b.Fatal(err)
					}
					if len(evs) != benchEventRecords {
						b.Fatalf("listed %d records", len(evs))
					}
				}
				reportRecords(b, benchEventRecords)
			})
		}
	}
}
