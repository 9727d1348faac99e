// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

func TestRunControlEndpoints(t *testing.T) {
	srv := mockconsole.New(mockconsole.Config{})
	ts := httptest.NewServer(withControl(srv))
	defer ts.Close()

	st, id := call(t, "POST", ts.URL+"/_mock/runs?pipeline=pl_mobile&gate=dark_mode", "")
	if st != 200 || id == "" {
		t.Fatalf("start: %d %q", st, id)
	}
	if st, _ := call(t, "POST", ts.URL+"/_mock/runs?pipeline=nope", ""); st != http.StatusBadRequest {
		t.Fatalf("unknown pipeline: %d", st)
	}
	if st, body := call(t, "GET", ts.URL+"/console/v1/release_pipeline_triggers/"+id, mockconsole.DefaultAPIKey); st != 200 {
		t.Fatalf("read: %d %s", st, body)
	}
	if st, _ := call(t, "POST", ts.URL+"/_mock/run-speed?x=0", ""); st != http.StatusNoContent {
		t.Fatalf("speed: %d", st)
	}
	if st, _ := call(t, "POST", ts.URL+"/_mock/run-clock?advance=3h", ""); st != http.StatusNoContent {
		t.Fatalf("clock: %d", st)
	}
	if r, _ := srv.Run(id); r.Status != mockconsole.RunCompleted {
		t.Fatalf("a 2h phase 3h later: %+v", r)
	}
	for _, u := range []string{"/_mock/run-clock?advance=soon", "/_mock/run-speed?x=-1"} {
		if st, _ := call(t, "POST", ts.URL+u, ""); st != http.StatusBadRequest {
			t.Errorf("%s: %d", u, st)
		}
	}
}
