// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
)

const runJSON = `{"id":"rpt_1","releasePipelineID":"pl_web","gateID":"new_checkout","status":"WAITING_FOR_REVIEW",
"currentPhase":"Canary","currentPhaseID":"ph_1","currentPhaseEndTime":null,"createdTime":1700000000000.0,"actions":[]}`

const approvedJSON = `{"id":"rpt_1","releasePipelineID":"pl_web","status":"IN_PROGRESS","currentPhase":"Canary",
"currentPhaseID":"ph_1","currentPhaseEndTime":"1700003600000","createdTime":1700000000000,
"actions":[{"type":"APPROVED_FOR","timeMs":1700000000500,"phaseID":"ph_1","actorName":"Console API"}]}`

func waitingRun(t *testing.T) *ReleasePipelineTrigger {
	t.Helper()
	var r ReleasePipelineTrigger
	if err := json.Unmarshal([]byte(runJSON), &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func TestTriggerDecodesLooseNumbers(t *testing.T) {
	var r ReleasePipelineTrigger
	if err := json.Unmarshal([]byte(approvedJSON), &r); err != nil {
		t.Fatal(err)
	}
	if r.CurrentPhaseEndTime != (Millis{1700003600000, true}) || r.CreatedTime != (Millis{1700000000000, true}) ||
		r.GateID != "" || r.CountActions("APPROVED_FOR", "ph_1") != 1 || r.CountActions("APPROVED_FOR", "ph_2") != 0 {
		t.Fatalf("%+v", r)
	}
	w := waitingRun(t)
	if w.CurrentPhaseEndTime.Set || w.CreatedTime.Value != 1700000000000 {
		t.Fatalf("%+v", w)
	}
	var m Millis
	for _, bad := range []string{`"soon"`, `{}`, `1e400`} {
		if err := json.Unmarshal([]byte(bad), &m); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}

// Every page is read, statuses go as repeated parameters.
func TestListReleasePipelineTriggers(t *testing.T) {
	f := newFake(t, func(n int, r seen) reply {
		if n == 0 {
			return reply{Status: 200, Body: `{"message":"ok","data":[` + runJSON + `],"pagination":{"itemsPerPage":1,"pageNumber":1,"totalItems":2,"nextPage":"/console/v1/release_pipeline_triggers?page=2&limit=1"}}`}
		}
		return reply{Status: 200, Body: `{"message":"ok","data":[` + approvedJSON + `],"pagination":{"itemsPerPage":1,"pageNumber":2,"totalItems":2,"nextPage":null}}`}
	})
	runs, err := f.client().ListReleasePipelineTriggers(context.Background(), TriggerFilter{
		ReleasePipelineID: "pl_web", GateID: "new_checkout", Statuses: []string{"PAUSED", "IN_PROGRESS"},
	}, ListOptions{})
	if err != nil || len(runs) != 2 {
		t.Fatalf("%v %v", runs, err)
	}
	reqs := f.requests()
	if len(reqs) != 2 || reqs[0].Path != "/console/v1/release_pipeline_triggers" ||
		!strings.Contains(reqs[0].Query, "status=PAUSED&status=IN_PROGRESS") ||
		!strings.Contains(reqs[1].Query, "gateID=new_checkout") || !strings.Contains(reqs[1].Query, "page=2") ||
		!strings.Contains(reqs[1].Query, "releasePipelineID=pl_web") {
		t.Fatalf("%+v", reqs)
	}
}

func TestRunTriggerOperationBodies(t *testing.T) {
	for _, op := range TriggerOperations {
		f := newFake(t, script(ok(approvedJSON)))
		res, err := f.client().RunTriggerOperation(context.Background(), waitingRun(t), op)
		if err != nil || res.Recovered || res.Run.Status != "IN_PROGRESS" {
			t.Fatalf("%s: %+v %v", op, res, err)
		}
		r := f.requests()[0]
		wantBody := ""
		if op.sendsPhase() {
			wantBody = `{"phaseID":"ph_1"}`
		}
		if r.Method != http.MethodPut || r.Path != "/console/v1/release_pipeline_triggers/rpt_1/"+string(op) || r.Body != wantBody ||
			(wantBody != "") != (r.Header.Get("Content-Type") == "application/json") {
			t.Fatalf("%s: %+v", op, r)
		}
	}
}

// A lost answer (502 after the service acted) is never resent: the run's actions say it landed.
func TestRunTriggerOperationLostAnswerRecovered(t *testing.T) {
	f := newFake(t, func(n int, r seen) reply {
		if r.Method == http.MethodPut {
			return reply{Status: 502, Body: "<html>bad gateway</html>", Header: map[string]string{"Content-Type": "text/html"}}
		}
		return ok(approvedJSON)
	})
	res, err := f.client().RunTriggerOperation(context.Background(), waitingRun(t), TriggerApprove)
	if err != nil || !res.Recovered || res.Run.CountActions("APPROVED_FOR", "ph_1") != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	puts := 0
	for _, r := range f.requests() {
		if r.Method == http.MethodPut {
			puts++
		}
	}
	if puts != 1 {
		t.Fatalf("approve sent %d times", puts)
	}
}

// An answer lost before the service acted (the run records nothing and has not changed): sent
// again, at most MaxRetries times; a 429 is retried as any write.
func TestRunTriggerOperationNotLandedIsResent(t *testing.T) {
	f := newFake(t, func(n int, r seen) reply {
		if r.Method == http.MethodGet {
			return ok(runJSON)
		}
		switch n {
		case 0:
			return reply{Status: 429, Header: map[string]string{"Retry-After": "0"}}
		case 1:
			return apiErr(503, "busy")
		}
		return ok(approvedJSON)
	})
	res, err := f.client().RunTriggerOperation(context.Background(), waitingRun(t), TriggerApprove)
	if err != nil || res.Recovered {
		t.Fatalf("%+v %v", res, err)
	}
	var methods []string
	for _, r := range f.requests() {
		methods = append(methods, r.Method)
	}
	if strings.Join(methods, " ") != "PUT PUT GET PUT" {
		t.Fatalf("requests: %v", methods)
	}

	// The service keeps failing: gives up after MaxRetries resends, saying what the run shows.
	g := newFake(t, func(n int, r seen) reply {
		if r.Method == http.MethodGet {
			return ok(runJSON)
		}
		return apiErr(503, "busy")
	})
	_, err = g.client().RunTriggerOperation(context.Background(), waitingRun(t), TriggerApprove)
	if !hasStatus(err, 503) || !strings.Contains(err.Error(), `does not record the operation; it is now WAITING_FOR_REVIEW at phase "Canary"`) {
		t.Fatalf("%v", err)
	}
	if n := len(g.requests()); n != 6 { // 3 PUTs (MaxRetries 2), each followed by a read
		t.Fatalf("%d requests", n)
	}
}

// A run that moved on meanwhile is not sent the operation again.
func TestRunTriggerOperationRunChangedNotResent(t *testing.T) {
	f := newFake(t, func(n int, r seen) reply {
		if r.Method == http.MethodGet {
			return ok(strings.Replace(runJSON, "WAITING_FOR_REVIEW", "ABORTED", 1))
		}
		return apiErr(500, "oops")
	})
	_, err := f.client().RunTriggerOperation(context.Background(), waitingRun(t), TriggerApprove)
	if err == nil || !strings.Contains(err.Error(), "it is now ABORTED") || len(f.requests()) != 2 {
		t.Fatalf("%v, %d requests", err, len(f.requests()))
	}
	noKey(t, "error", err.Error())
}

// A refusal is the service's words, not retried, not read back.
func TestRunTriggerOperationRefused(t *testing.T) {
	f := newFake(t, script(apiErr(400, `phaseID \"ph_0\" is not the current phase`)))
	_, err := f.client().RunTriggerOperation(context.Background(), waitingRun(t), TriggerSkip)
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 400 || len(f.requests()) != 1 ||
		!strings.Contains(err.Error(), `Unable to skip release pipeline run "rpt_1": 400 Bad Request: phaseID "ph_0" is not the current phase`) {
		t.Fatalf("%v", err)
	}
}

// A 200 without the run is answered by reading it.
func TestRunTriggerOperationEmptyAnswerReadBack(t *testing.T) {
	f := newFake(t, func(n int, r seen) reply {
		if r.Method == http.MethodPut {
			return reply{Status: 200}
		}
		return ok(approvedJSON)
	})
	res, err := f.client().RunTriggerOperation(context.Background(), waitingRun(t), TriggerApprove)
	if err != nil || res.Run.Status != "IN_PROGRESS" || len(f.requests()) != 2 {
		t.Fatalf("%+v %v", res, err)
	}
}

func FuzzTriggerResponse(f *testing.F) {
	f.Add(uint16(0), []byte(`{"message":"ok","data":`+approvedJSON+`}`))
	f.Add(uint16(0), []byte(`{"message":"ok","data":{"id":"x","status":"PAUSED","currentPhaseEndTime":"12.5e3","actions":null}}`))
	f.Add(uint16(200), []byte(`{"status":400,"message":"nope"}`))
	f.Fuzz(func(t *testing.T, status uint16, body []byte) {
		c := fuzzClient(t, func(r *http.Request) (*http.Response, error) { return bodyResponse(r, fuzzStatus(status), body), nil })
		run, err := c.GetReleasePipelineTrigger(context.Background(), "rpt_1")
		checkErr(t, err)
		if err == nil && run == nil {
			t.Fatal("no run and no error")
		}
	})
}

// A service that records the action with another phase id still shows that it landed.
func TestRunTriggerOperationLostAnswerOtherPhaseID(t *testing.T) {
	f := newFake(t, func(n int, r seen) reply {
		if r.Method == http.MethodPut {
			return apiErr(504, "gateway timeout")
		}
		return ok(strings.Replace(approvedJSON, `"phaseID":"ph_1"`, `"phaseID":""`, 1))
	})
	res, err := f.client().RunTriggerOperation(context.Background(), waitingRun(t), TriggerApprove)
	if err != nil || !res.Recovered || len(f.requests()) != 2 {
		t.Fatalf("%+v %v, %d requests", res, err, len(f.requests()))
	}
}
