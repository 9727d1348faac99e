// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"testing"
)

// Target apps answer id and name only; a name is unique.
func TestTargetApps(t *testing.T) {
	s, c := newClient(t, Config{})
	s.HoldToDocument(t)
	r := c.do("POST", "/target_app", map[string]any{"name": "web", "description": "the web app"})
	expect(t, r, 200)
	appID, _ := r.data()["id"].(string)
	if len(r.data()) != 2 {
		t.Fatalf("the create answers more than id and name: %s", r.Raw)
	}
	expect(t, c.do("POST", "/target_app", map[string]any{"name": "web", "description": ""}), 400)
	expect(t, c.do("PATCH", "/target_app/"+appID, map[string]any{"name": "web-eu", "description": "eu"}), 200)
	if a, _ := s.TargetApp(appID); a.Name != "web-eu" || a.Description != "eu" {
		t.Fatalf("updated %+v", a)
	}
	expect(t, c.do("DELETE", "/target_app/"+appID, nil), 200)
}
