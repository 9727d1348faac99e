// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestPagingWithCap(t *testing.T) {
	s, c := newClient(t, Config{PageSizeCap: 40})
	seen := 0
	path := "/users?limit=100"
	pages := 0
	for path != "" {
		r := c.do("GET", path, nil)
		expect(t, r, 200)
		pg := r.pg()
		pages++
		if pg["itemsPerPage"] != json.Number("40") || pg["totalItems"] != json.Number("250") || pg["all"] != "/console/v1/users" {
			t.Fatalf("pagination %v", pg)
		}
		seen += len(r.list())
		if next, ok := pg["nextPage"].(string); ok {
			path = strings.TrimPrefix(next, "/console/v1")
		} else {
			if pg["nextPage"] != nil {
				t.Fatalf("nextPage %v", pg["nextPage"])
			}
			path = ""
		}
		if pages == 1 && pg["previousPage"] != nil {
			t.Fatal("previousPage on first page")
		}
		if pages == 2 && pg["previousPage"] != "/console/v1/users?page=1&limit=40" {
			t.Fatalf("previousPage %v", pg["previousPage"])
		}
	}
	if seen != 250 || pages != 7 {
		t.Fatalf("seen %d users in %d pages", seen, pages)
	}
	// default limit 100, no cap
	_, c2 := newClient(t, Config{})
	r := c2.do("GET", "/users", nil)
	if len(r.list()) != 100 || r.pg()["nextPage"] != "/console/v1/users?page=2&limit=100" {
		t.Fatalf("default page %v", r.pg())
	}
	r = c2.do("GET", "/users?page=3", nil)
	if len(r.list()) != 50 || r.pg()["nextPage"] != nil {
		t.Fatalf("last page %v", r.pg())
	}
	u := r.list()[0].(map[string]any)
	for _, k := range []string{"email", "firstName", "lastName", "role"} {
		if _, ok := u[k]; !ok {
			t.Fatalf("user lacks %s", k)
		}
	}
	// past the end
	r = c2.do("GET", "/users?page=9", nil)
	expect(t, r, 200)
	if len(r.list()) != 0 || r.Body["data"] == nil {
		t.Fatalf("past end %s", r.Raw)
	}
	s.SetUsers([]User{{Email: "a@b.c", Role: "admin"}})
	r = c.do("GET", "/users", nil)
	if len(r.list()) != 1 {
		t.Fatal("SetUsers")
	}
}

// Stale members are listed only when asked for (include_stale_members, snake_case on the wire), in their place
// among the others.
func TestUsersStaleMembers(t *testing.T) {
	_, c := newClient(t, Config{})
	emails := func(path string) []string {
		var out []string
		for page := 1; ; page++ {
			r := c.do("GET", fmt.Sprintf("%s&page=%d", path, page), nil)
			expect(t, r, 200)
			for _, u := range r.list() {
				out = append(out, u.(map[string]any)["email"].(string))
				if _, ok := u.(map[string]any)["stale"]; ok {
					t.Fatalf("a user carries the mock's stale mark: %v", u)
				}
			}
			if r.pg()["nextPage"] == nil {
				return out
			}
		}
	}
	current := emails("/users?limit=100")
	every := emails("/users?limit=100&include_stale_members=true")
	if len(current) != 250 || len(every) != 260 {
		t.Fatalf("%d current users and %d with stale members, want 250 and 260", len(current), len(every))
	}
	if !strings.HasPrefix(every[25], "former001@") || every[24] != current[24] {
		t.Errorf("stale members out of place: %v", every[20:30])
	}
	for _, e := range current {
		if strings.HasPrefix(e, "former") {
			t.Errorf("stale member %s listed without include_stale_members", e)
		}
	}
	if n := len(emails("/users?limit=100&includeStaleMembers=true")); n != 250 {
		t.Errorf("the camelCase parameter listed %d users: the service's is snake_case", n)
	}
}
