// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"strings"
	"testing"
)

// Keys: created under a new secret, read, updated, rotated (the old secret is gone), deactivated,
// listed by filter and deleted; environments, target apps and types the project lacks refused; each
// exchange held to the service's document.
func TestKeys(t *testing.T) {
	s, c := newClient(t, Config{})
	s.HoldToDocument(t)
	app := s.PutTargetApp(TargetApp{Name: "web"})
	s.ServeBeyondDocument("/type") // the type the document lacks, refused
	expect(t, c.do("POST", "/keys", map[string]any{"type": "SERVR", "description": "x"}), 400)
	expect(t, c.do("POST", "/keys", map[string]any{"type": "SERVER", "description": "x", "environments": []string{"prod"}}), 400)
	expect(t, c.do("POST", "/keys", map[string]any{"type": "SERVER", "description": "x", "targetAppID": "nope"}), 400)
	if len(s.KeySecrets()) != 0 {
		t.Fatal("a refused create stored a key")
	}
	r := c.do("POST", "/keys", map[string]any{"type": "SERVER", "description": "web backend", "environments": []string{"production"}, "targetAppID": app})
	expect(t, r, 200)
	secret, _ := r.data()["key"].(string)
	if !strings.HasPrefix(secret, "secret-") || r.data()["primaryTargetApp"] != app || r.data()["status"] != "active" {
		t.Fatalf("created %s", r.Raw)
	}
	r = c.do("PATCH", "/keys/"+secret, map[string]any{"description": "eu", "environments": []string{"staging"}, "targetAppID": nil})
	expect(t, r, 200)
	if k, _ := s.Key(secret); k.Description != "eu" || k.Environments[0] != "staging" || k.PrimaryTargetApp != nil {
		t.Fatalf("updated %+v", k)
	}
	expect(t, c.do("PATCH", "/keys/"+secret, map[string]any{"type": "CLIENT"}), 400)
	r = c.do("PATCH", "/keys/"+secret+"/rotate", nil)
	expect(t, r, 200)
	rotated, _ := r.data()["key"].(string)
	if rotated == secret || rotated == "" {
		t.Fatalf("rotated to %q", rotated)
	}
	expect(t, c.do("GET", "/keys/"+secret, nil), 404)
	expect(t, c.do("GET", "/keys/"+rotated, nil), 200)
	expect(t, c.do("PATCH", "/keys/"+rotated+"/deactivate", nil), 200)
	if k, _ := s.Key(rotated); k.Status != "deactivated" {
		t.Fatalf("deactivated: %+v", k)
	}
	console := s.RotateKey(rotated)
	if _, ok := s.Key(rotated); ok || console == "" {
		t.Fatal("a rotation in the console kept the old secret")
	}
	s.PutKey(Key{Type: "CLIENT", Environments: []string{"production"}})
	if l := c.do("GET", "/keys?environment=production", nil).list(); len(l) != 1 {
		t.Fatalf("listed %v", l)
	}
	if l := c.do("GET", "/keys", nil).list(); len(l) != 2 {
		t.Fatalf("listed %v", l)
	}
	expect(t, c.do("DELETE", "/keys/"+console, nil), 200)
	expect(t, c.do("DELETE", "/keys/"+console, nil), 404)
	if r := c.do("GET", "/environments", nil); len(r.data()["environments"].([]any)) != 3 {
		t.Fatalf("environments: %s", r.Raw)
	}
}

// Under ExampleForms: keys and tags without description, a key's update answering part of it, a
// target app's create answering the body sent.
func TestKeys_exampleForms(t *testing.T) {
	s, c := newClient(t, Config{})
	s.SetHabits(Habits{ExampleForms: true})
	r := c.do("POST", "/keys", map[string]any{"type": "SERVER", "description": "x"})
	expect(t, r, 200)
	if _, ok := r.data()["description"]; ok {
		t.Fatalf("the key has a description: %s", r.Raw)
	}
	secret, _ := r.data()["key"].(string)
	r = c.do("PATCH", "/keys/"+secret, map[string]any{"environments": []string{"staging"}})
	if _, ok := r.data()["key"]; ok || r.data()["environments"] == nil {
		t.Fatalf("the update answers %s", r.Raw)
	}
	r = c.do("POST", "/target_app", map[string]any{"name": "web", "description": ""})
	if _, ok := r.Body["data"]; ok || r.Body["name"] != "web" {
		t.Fatalf("the create answers %s", r.Raw)
	}
}
