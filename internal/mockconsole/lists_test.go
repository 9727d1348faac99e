// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"fmt"
	"net/http"
	"testing"
)

// The three list endpoints page like users and segments: the cap on the page size, itemsPerPage as
// used, nextPage until the last page, objects in the form their read endpoint answers.
func TestListEndpoints(t *testing.T) {
	s, c := newClient(t, Config{PageSizeCap: 50})
	s.PutMetricSource(MetricSource{Name: "b_source", SQL: "SELECT 1", TimestampColumn: "ts",
		IDTypeMapping: []IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}}})
	s.PutMetricSource(MetricSource{Name: "a_source", SQL: "SELECT 1", TimestampColumn: "ts",
		IDTypeMapping: []IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}}})
	cases := []struct {
		path, key string
		total     int
		first     string
	}{
		{"/gates", "id", 303, "dark_mode"},
		{"/release_pipelines", "id", 3, "pl_api"},
		{"/metrics/metric_source/list", "name", 2, "a_source"},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			seen := map[string]bool{}
			for page := 1; ; page++ {
				r := c.do(http.MethodGet, fmt.Sprintf("%s?page=%d&limit=500", tc.path, page), nil)
				if r.Status != http.StatusOK {
					t.Fatalf("page %d: %d %s", page, r.Status, r.Raw)
				}
				items, _ := r.Body["data"].([]any)
				pg, _ := r.Body["pagination"].(map[string]any)
				if fmt.Sprint(pg["itemsPerPage"]) != "50" || len(items) > 50 {
					t.Fatalf("page %d: itemsPerPage %v, %d items: the cap of 50 is not applied", page, pg["itemsPerPage"], len(items))
				}
				for i, it := range items {
					id := fmt.Sprint(it.(map[string]any)[tc.key])
					if page == 1 && i == 0 && id != tc.first {
						t.Fatalf("first object %q, want %q (sorted)", id, tc.first)
					}
					if seen[id] {
						t.Fatalf("%q listed twice", id)
					}
					seen[id] = true
				}
				if pg["nextPage"] == nil {
					break
				}
				if page > 10 {
					t.Fatal("nextPage never ends")
				}
			}
			if len(seen) != tc.total {
				t.Fatalf("%d objects listed, want %d", len(seen), tc.total)
			}
		})
	}

	// Gates come with their rules, as GET /gates/{id} answers them.
	r := c.do(http.MethodGet, "/gates?page=1&limit=50", nil)
	one := c.do(http.MethodGet, "/gates/new_checkout", nil)
	var listed map[string]any
	for _, it := range r.Body["data"].([]any) {
		if g := it.(map[string]any); g["id"] == "new_checkout" {
			listed = g
		}
	}
	if listed == nil && r.Body["pagination"].(map[string]any)["nextPage"] != nil {
		r = c.do(http.MethodGet, "/gates?page=7&limit=50", nil)
		for _, it := range r.Body["data"].([]any) {
			if g := it.(map[string]any); g["id"] == "new_checkout" {
				listed = g
			}
		}
	}
	if fmt.Sprint(listed) != fmt.Sprint(one.data()) {
		t.Fatalf("listed gate %v\nread gate %v", listed, one.data())
	}

	if r := c.do(http.MethodPut, "/gates", "{}"); r.Status != http.StatusMethodNotAllowed {
		t.Fatalf("PUT /gates: %d", r.Status)
	}
	if r := c.do(http.MethodGet, "/gates?page=0", nil); r.Status != http.StatusBadRequest {
		t.Fatalf("page=0: %d", r.Status)
	}
}
