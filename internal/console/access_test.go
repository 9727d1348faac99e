// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"sync"
	"testing"
)

// CheckAccess sends one cheap read when nothing else was answered, and its outcome is every later
// caller's: ten resources planned at once cost one request.
func TestCheckAccessSendsOneRead(t *testing.T) {
	f := newFake(t, script(apiErr(401, "Invalid API key")))
	c := f.client()
	var wg sync.WaitGroup
	errs := make([]error, 10)
	for i := range errs {
		wg.Go(func() { errs[i] = c.CheckAccess(context.Background()) })
	}
	wg.Wait()
	for _, err := range errs {
		if !hasStatus(err, 401) {
			t.Fatalf("got %v, want the 401", err)
		}
	}
	if err := c.CheckAccess(context.Background()); !hasStatus(err, 401) {
		t.Fatalf("a later call got %v", err)
	}
	reqs := f.requests()
	if len(reqs) != 1 || reqs[0].Method != "GET" || reqs[0].Path != "/console/v1/gates" || reqs[0].Query != "limit=1&page=1" {
		t.Fatalf("requests: %+v", reqs)
	}
	noKey(t, "error", errs[0].Error())
}

// A request the client made anyway and that was answered 2xx proves the key and the address:
// the check sends nothing.
func TestCheckAccessSharesAnsweredReads(t *testing.T) {
	f := newFake(t, script(ok(`{"id":"g","rules":[]}`)))
	c := f.client()
	if _, err := c.GetGate(context.Background(), "g"); err != nil {
		t.Fatal(err)
	}
	if err := c.CheckAccess(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := f.count(); n != 1 {
		t.Fatalf("%d requests, want the read alone", n)
	}
}

// A base_url whose path is wrong: the check's 404 is the API's root missing.
func TestCheckAccessWrongPath(t *testing.T) {
	f := newFake(t, script(reply{Status: 404, Body: "Cannot GET /wrong/console/v1/gates", Header: map[string]string{"Content-Type": "text/plain"}}))
	err := f.client().CheckAccess(context.Background())
	var ae *APIError
	if !errors.As(err, &ae) || !ae.RootNotFound {
		t.Fatalf("got %#v", err)
	}
}

// A 2xx whose body is not understood still proves the key and the address: the check passes.
func TestCheckAccessUndecodableSuccess(t *testing.T) {
	f := newFake(t, script(reply{Status: 200, Body: "<html>ok</html>", Header: map[string]string{"Content-Type": "text/html"}}))
	if err := f.client().CheckAccess(context.Background()); err != nil {
		t.Fatal(err)
	}
}
