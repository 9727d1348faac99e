// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// registerRunControls adds the control endpoints of release pipeline runs, which the API cannot
// start (the console does) and whose bake timers a demo or guide does not want to wait out:
//
//	POST /_mock/runs?pipeline=&gate=     starts a run of the pipeline (for the gate, if given); prints its id
//	POST /_mock/run-clock?advance=1h      moves the time runs see forward
//	POST /_mock/run-speed?x=3600          makes run time pass x times faster than real time
func registerRunControls(mux *http.ServeMux, srv *mockconsole.Server) {
	mux.HandleFunc("POST /_mock/runs", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		id, err := srv.StartRun(q.Get("pipeline"), q.Get("gate"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		fmt.Fprintln(w, id)
	})
	setting(mux, "/_mock/run-clock", "advance", "a non-negative Go duration such as 1h", time.ParseDuration, srv.AdvanceRunClock)
	setting(mux, "/_mock/run-speed", "x", "a non-negative number",
		func(v string) (float64, error) { return strconv.ParseFloat(v, 64) }, srv.SetRunSpeed)
}
