// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

func TestGateControlEndpoints(t *testing.T) {
	srv := mockconsole.New(mockconsole.Config{NoSeed: true})
	srv.PutGate(mockconsole.Gate{ID: "old_flag", Type: "TEMPORARY"})
	srv.PutGate(mockconsole.Gate{ID: "kept_flag"})
	ts := httptest.NewServer(withControl(srv))
	defer ts.Close()

	if st, body := call(t, "POST", ts.URL+"/_mock/gates/old_flag/stale?reason=STALE_NO_RULES", ""); st != http.StatusNoContent {
		t.Fatalf("stale: %d %s", st, body)
	}
	if g, _ := srv.Gate("old_flag"); g.Type != "STALE" || g.TypeReason != "STALE_NO_RULES" {
		t.Errorf("stale gate %s/%s", g.Type, g.TypeReason)
	}
	if st, _ := call(t, "POST", ts.URL+"/_mock/gates/kept_flag/stale", ""); st != http.StatusBadRequest {
		t.Errorf("a PERMANENT gate went stale: %d", st)
	}
	if st, body := call(t, "POST", ts.URL+"/_mock/gates/kept_flag/archive", ""); st != http.StatusNoContent {
		t.Fatalf("archive: %d %s", st, body)
	}
	if g, _ := srv.Gate("kept_flag"); g.Status != "Archived" {
		t.Errorf("archived gate has status %q", g.Status)
	}
	if st, _ := call(t, "POST", ts.URL+"/_mock/gates/nope/archive", ""); st != http.StatusBadRequest {
		t.Errorf("unknown gate: %d", st)
	}
}
