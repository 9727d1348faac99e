// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"net/http"
	"reflect"
	"testing"
)

const createdGateJSON = `{"id":"new.checkout","name":"New checkout","isEnabled":false,"description":"d",` +
	`"status":"In Progress","tags":["web"],"type":"TEMPORARY","idType":"stableID","releasePipelineID":"pl1",` +
	`"creatorName":"CONSOLE API","createdTime":1700000000000.0,"lastModifierName":"CONSOLE API","lastModifierID":"k","rules":[]}`

var wantCreatedGate = &Gate{ID: "new.checkout", Name: "New checkout", Description: "d", Status: "In Progress",
	Tags: []string{"web"}, Type: "TEMPORARY", IDType: "stableID", ReleasePipelineID: "pl1", CreatorName: "CONSOLE API",
	CreatedTime: 1700000000000, LastModifierName: "CONSOLE API", LastModifierID: "k", Rules: []Rule{}}

// TestGateWritesWire checks POST /gates, PATCH /gates/{id} and DELETE /gates/{id} on the wire: method, escaped path, the exact body (fields
// left nil are left out, never rules) and the decoded answer.
func TestGateWritesWire(t *testing.T) {
	full := GateFields{ID: "new.checkout", Name: ptr("New checkout"), Description: ptr("d"), IsEnabled: ptr(false),
		Tags: &[]string{"web"}, Type: ptr("TEMPORARY"), IDType: ptr("stableID"), ReleasePipelineID: LinkTo("pl1")}
	cases := []struct {
		name         string
		call         func(context.Context, *Client) (any, error)
		replies      []reply
		method, path string
		body         string
		want         any
		requests     int
	}{
		{
			name: "19 create gate with every field", method: http.MethodPost, path: "/console/v1/gates",
			call: func(ctx context.Context, c *Client) (any, error) { return c.CreateGate(ctx, full) },
			body: `{"id":"new.checkout","name":"New checkout","description":"d","isEnabled":false,"tags":["web"],` +
				`"type":"TEMPORARY","idType":"stableID","releasePipelineID":"pl1"}`,
			replies: []reply{{Status: 201, Body: `{"message":"Gate created","data":` + createdGateJSON + `}`}},
			want:    wantCreatedGate, requests: 1,
		},
		{
			name: "19 create gate with the id alone takes the defaults", method: http.MethodPost, path: "/console/v1/gates",
			call:    func(ctx context.Context, c *Client) (any, error) { return c.CreateGate(ctx, GateFields{ID: "g_1"}) },
			body:    `{"id":"g_1"}`,
			replies: []reply{ok(`{"id":"g_1","name":"g_1","isEnabled":true,"type":"PERMANENT","idType":"userID","rules":[]}`)},
			want:    &Gate{ID: "g_1", Name: "g_1", IsEnabled: true, Type: "PERMANENT", IDType: "userID", Rules: []Rule{}}, requests: 1,
		},
		{
			name: "19 create gate answered without a body reads it back", method: http.MethodPost, path: "/console/v1/gates",
			call:    func(ctx context.Context, c *Client) (any, error) { return c.CreateGate(ctx, full) },
			replies: []reply{{Status: 200}, ok(createdGateJSON)},
			want:    wantCreatedGate, requests: 2,
			body: `{"id":"new.checkout","name":"New checkout","description":"d","isEnabled":false,"tags":["web"],` +
				`"type":"TEMPORARY","idType":"stableID","releasePipelineID":"pl1"}`,
		},
		{
			name: "20 update gate sends its own fields, never id or rules; a detach is null", method: http.MethodPatch, path: "/console/v1/gates/a%20b%2Fc",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateGate(ctx, "a b/c", GateFields{ID: "ignored", Description: ptr(""), Tags: &[]string{}, ReleasePipelineID: Unlinked()})
			},
			body:    `{"description":"","tags":[],"releasePipelineID":null}`,
			replies: []reply{ok(gateJSON)},
			want:    wantGate, requests: 1,
		},
		{
			name: "21 delete gate", method: http.MethodDelete, path: "/console/v1/gates/g.1",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.DeleteGate(ctx, "g.1")
			},
			replies: []reply{ok(`null`)}, requests: 1,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, script(tc.replies...))
			got, err := tc.call(context.Background(), f.client())
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if tc.want != nil && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v\nwant %#v", got, tc.want)
			}
			reqs := f.requests()
			if len(reqs) != tc.requests {
				t.Fatalf("%d requests, want %d", len(reqs), tc.requests)
			}
			r := reqs[0]
			if r.Method != tc.method || r.Path != tc.path || r.Body != tc.body {
				t.Errorf("sent %s %s %s, want %s %s %s", r.Method, r.Path, r.Body, tc.method, tc.path, tc.body)
			}
			if tc.body != "" && r.Header.Get("Content-Type") != "application/json" {
				t.Errorf("Content-Type %q", r.Header.Get("Content-Type"))
			}
			if len(reqs) > 1 && (reqs[1].Method != http.MethodGet || reqs[1].Path != tc.path+"/"+"new.checkout") {
				t.Errorf("read back with %s %s", reqs[1].Method, reqs[1].Path)
			}
		})
	}
}

// TestGateWriteErrors: a 400 of an existing id and a 404 of a deleted gate keep the service's words.
func TestGateWriteErrors(t *testing.T) {
	f := newFake(t, script(apiErr(400, `Gate with id \"g_1\" already exists`), apiErr(404, "Gate not found")))
	c := f.client()
	_, err := c.CreateGate(context.Background(), GateFields{ID: "g_1"})
	if !hasStatus(err, 400) || err.Error() != `Unable to create gate "g_1": 400 Bad Request: Gate with id "g_1" already exists` {
		t.Errorf("create: %v", err)
	}
	err = c.DeleteGate(context.Background(), "g_1")
	if !NotFound(err) || err.Error() != `Unable to delete gate "g_1": 404 Not Found: Gate not found` {
		t.Errorf("delete: %v", err)
	}
	if f.count() != 2 {
		t.Errorf("%d requests, want 2 (a 4xx is not retried)", f.count())
	}
}
