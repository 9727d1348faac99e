// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

func TestSeedGates(t *testing.T) {
	srv := mockconsole.New(mockconsole.Config{EventRecords: 1})
	ts := httptest.NewServer(withControl(srv))
	defer ts.Close()
	if st, _ := call(t, "POST", ts.URL+"/_mock/seed-gates?n=x", ""); st != http.StatusBadRequest {
		t.Fatalf("n=x: %d", st)
	}
	if st, _ := call(t, "POST", ts.URL+"/_mock/seed-gates?n=25", ""); st != http.StatusNoContent {
		t.Fatalf("seed-gates: %d", st)
	}
	ids := srv.GateIDs()
	if len(ids) != 25 || ids[0] != "onboard_0001" {
		t.Fatalf("gates after seed-gates: %d, first %q", len(ids), ids[0])
	}
	for _, id := range ids {
		if g, _ := srv.Gate(id); len(g.Rules) == 0 {
			t.Fatalf("%s has no rules", id)
		}
	}
}
