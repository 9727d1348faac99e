// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// createScript answers a create: the listing before it (GET), then the create (POST) with post,
// then listings after it with after.
func createScript(before string, post reply, after string) func(int, seen) reply {
	posted := false
	return func(_ int, r seen) reply {
		switch {
		case r.Method == "POST":
			posted = true
			return post
		case posted:
			return ok(after)
		}
		return ok(before)
	}
}

func countMethod(f *fakeAPI, method string) int {
	n := 0
	for _, r := range f.requests() {
		if r.Method == method {
			n++
		}
	}
	return n
}

func TestCreateReleasePipeline(t *testing.T) {
	ctx := context.Background()
	other := `{"id":"pl_old","name":"Web","phases":[]}`
	made := `{"id":"pl_7","name":"Web","phases":[{"id":"ph_1","name":"a","timeIntervalMs":0,"requiredReview":false,"rules":[]}]}`
	u := ReleasePipelineUpdate{Name: "Web", Phases: []Phase{{Name: "a", Rules: []PipelineRule{{Name: "r"}}}}}
	for _, c := range []struct {
		name         string
		post         reply
		after        string
		wantID, want string
		posts        int
	}{
		{name: "answered", post: ok(made), wantID: "pl_7", posts: 1},
		{name: "empty answer: found among new ones of the name", post: reply{Status: 200}, after: "[" + other + "," + made + "]", wantID: "pl_7", posts: 1},
		{name: "lost answer: found, not sent again", post: reply{Status: 502, Body: "<html>bad gateway</html>"}, after: "[" + other + "," + made + "]", wantID: "pl_7", posts: 1},
		{name: "lost answer, two new ones: no guess", post: reply{Status: 502}, after: "[" + other + "," + made + `,{"id":"pl_8","name":"Web","phases":[]}]`, want: "pl_7, pl_8", posts: 1},
		{name: "lost answer, nothing landed: sent again up to max_retries", post: reply{Status: 502}, after: "[" + other + "]", want: "502", posts: 3},
		{name: "refused", post: apiErr(400, "name must not be empty"), want: "name must not be empty", posts: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, createScript("["+other+"]", c.post, c.after))
			p, err := f.client(func(cfg *Config) { cfg.MaxRetries = 2 }).CreateReleasePipeline(ctx, u)
			if n := countMethod(f, "POST"); n != c.posts {
				t.Errorf("sent the create %d times, want %d", n, c.posts)
			}
			if c.wantID != "" {
				if err != nil || p.ID != c.wantID {
					t.Fatalf("got %+v, %v; want %s", p, err, c.wantID)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want it to say %q", err, c.want)
			}
		})
	}
	// The body: conditions of a rule as [], never null; no ids invented.
	f := newFake(t, createScript("[]", ok(made), ""))
	if _, err := f.client().CreateReleasePipeline(ctx, u); err != nil {
		t.Fatal(err)
	}
	for _, r := range f.requests() {
		if r.Method == "POST" && (r.Path != "/console/v1/release_pipelines" || !strings.Contains(r.Body, `"conditions":[]`) || strings.Contains(r.Body, `"id"`)) {
			t.Fatalf("create sent %s %s", r.Path, r.Body)
		}
	}
}

func TestDeleteReleasePipeline(t *testing.T) {
	ctx := context.Background()
	f := newFake(t, script(apiErr(404, "Release pipeline \"pl_x\" not found")))
	if err := f.client().DeleteReleasePipeline(ctx, "pl_x"); !NotFound(err) {
		t.Fatalf("a pipeline already gone is NotFound, as for every delete: %v", err)
	}
	f = newFake(t, script(apiErr(400, "gate attached")))
	err := f.client().DeleteReleasePipeline(ctx, "pl_x")
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 400 || !strings.Contains(err.Error(), `Unable to delete release pipeline "pl_x"`) {
		t.Fatalf("got %v", err)
	}
	f = newFake(t, script(reply{Status: 200}))
	if err := f.client().DeleteReleasePipeline(ctx, "pl_x"); err != nil {
		t.Fatalf("empty answer: %v", err)
	}
}
