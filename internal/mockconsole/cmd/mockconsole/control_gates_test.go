// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
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
	// Runless: a rule write to the gate, attached to a pipeline, starts no run; on=false, it does again.
	srv.PutPipeline(mockconsole.Pipeline{ID: "pl_x", Name: "X", Phases: []mockconsole.Phase{{ID: "ph_1", Name: "One", TimeIntervalMs: 3600000}}})
	srv.PutGate(mockconsole.Gate{ID: "attached", ReleasePipelineID: "pl_x"})
	write := func(pct string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPatch, ts.URL+"/console/v1/gates/attached/rules", strings.NewReader(`{"rules":[{"name":"all","passPercentage":`+pct+`}]}`))
		req.Header.Set("SERVICE-API-KEY", mockconsole.DefaultAPIKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("write: %d", resp.StatusCode)
		}
	}
	if st, body := call(t, "POST", ts.URL+"/_mock/gates/attached/runless", ""); st != http.StatusNoContent {
		t.Fatalf("runless: %d %s", st, body)
	}
	write("5")
	if runs := srv.GateRuns("attached"); len(runs) != 0 {
		t.Errorf("a runless write started %v", runs)
	}
	if st, body := call(t, "POST", ts.URL+"/_mock/gates/attached/runless?on=false", ""); st != http.StatusNoContent {
		t.Fatalf("runless off: %d %s", st, body)
	}
	write("10")
	if runs := srv.GateRuns("attached"); len(runs) != 1 {
		t.Errorf("runs %v, want one", runs)
	}
}
