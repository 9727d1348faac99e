// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"strings"
	"testing"
)

// A tag that objects carry is refused on delete, naming them.
func TestTags(t *testing.T) {
	s, c := newClient(t, Config{})
	s.HoldToDocument(t)
	r := c.do("POST", "/tags", map[string]any{"name": "checkout", "description": "team", "isCore": true})
	expect(t, r, 200)
	id, _ := r.data()["id"].(string)
	expect(t, c.do("POST", "/tags", map[string]any{"name": "checkout", "description": ""}), 400)
	r = c.do("DELETE", "/tags/"+id, nil) // the seeded gate new_checkout carries "checkout"
	expect(t, r, 400)
	if msg, _ := r.Body["message"].(string); !strings.Contains(msg, `gate "new_checkout"`) {
		t.Fatalf("refusal: %s", r.Raw)
	}
	expect(t, c.do("PATCH", "/tags/"+id, map[string]any{"name": "checkout_team", "isCore": false}), 200)
	expect(t, c.do("DELETE", "/tags/"+id, nil), 200)

}
