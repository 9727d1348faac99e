// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"cmp"
	"net/http"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// registerGateControls adds what the service and the console do to a gate that the API cannot:
//
//	POST /_mock/gates/{id}/stale?reason=STALE_NO_RULES  the service judges the TEMPORARY gate stale
//	POST /_mock/gates/{id}/archive                      someone archives the gate in the console
//	POST /_mock/gates/{id}/runless?on=false             its rule writes start no run (on=false: they do again)
func registerGateControls(mux *http.ServeMux, srv *mockconsole.Server) {
	answer := func(w http.ResponseWriter, err error) {
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
	mux.HandleFunc("POST /_mock/gates/{id}/stale", func(w http.ResponseWriter, r *http.Request) {
		answer(w, srv.MarkGateStale(r.PathValue("id"), cmp.Or(r.URL.Query().Get("reason"), "STALE_PROBABLY_FORGOTTEN")))
	})
	mux.HandleFunc("POST /_mock/gates/{id}/archive", func(w http.ResponseWriter, r *http.Request) {
		answer(w, srv.ArchiveGateInConsole(r.PathValue("id")))
	})
	mux.HandleFunc("POST /_mock/gates/{id}/runless", func(w http.ResponseWriter, r *http.Request) {
		answer(w, srv.ServeRunlessRuleWrites(r.PathValue("id"), r.URL.Query().Get("on") != "false"))
	})
}
