// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRouteEdges pins the answers of the router where ServeMux on its own would answer otherwise:
// HEAD on a GET endpoint, the Allow list and its order, "list" beside a metric source's name and a metric's id,
// "." and ".." taken as ids (ServeMux would redirect), escaped segments, empty segments, and the
// 409 of a concurrent edit, which comes before routing. The request targets go to the handler as
// written, not cleaned by a client.
func TestRouteEdges(t *testing.T) {
	s := New(Config{})
	cases := []struct {
		method, target, body string
		status               int
		allow, message       string
	}{
		{"GET", "/console/v1/gates", "", 200, "", "Gates listed successfully"},
		{"GET", "/console/v1/%67ates", "", 200, "", "Gates listed successfully"},
		{"HEAD", "/console/v1/gates", "", 405, "GET, POST", ""},
		{"PUT", "/console/v1/gates", "{}", 405, "GET, POST", "Method PUT not allowed on /console/v1/gates"},
		{"PUT", "/console/v1/gates/x", "{}", 405, "GET, PATCH, DELETE", "Method PUT not allowed on /console/v1/gates/x"},
		{"PUT", "/console/v1/release_pipelines/x", "", 405, "GET, POST, DELETE", "Method PUT not allowed on /console/v1/release_pipelines/x"},
		{"PUT", "/console/v1/metrics/metric_source/list", "", 405, "GET, POST, DELETE", "Method PUT not allowed on /console/v1/metrics/metric_source/list"},
		{"HEAD", "/console/v1/metrics/metric_source/list", "", 405, "GET, POST, DELETE", ""},
		{"DELETE", "/console/v1/metrics/metric_source/list", "", 404, "", `Metric source "list" not found`},
		// A GET of the collection of metric sources is a read of a metric of that id, as the document routes it.
		{"GET", "/console/v1/metrics/metric_source", "", 404, "", `Metric "metric_source" not found`},
		{"GET", "/console/v1/metrics", "", 405, "POST", "Method GET not allowed on /console/v1/metrics"},
		{"GET", "/console/v1/metrics/list", "", 200, "", "Metrics listed successfully"},
		{"DELETE", "/console/v1/metrics/list", "", 404, "", `Metric "list" not found`},
		{"GET", "/console/v1/metrics/a::sum/schedule_archive", "", 405, "PUT", "Method GET not allowed on /console/v1/metrics/a::sum/schedule_archive"},
		{"GET", "/console/v1/gates/..", "", 404, "", `Gate ".." not found`},
		{"GET", "/console/v1/gates/%2E%2E", "", 404, "", `Gate ".." not found`},
		{"PATCH", "/console/v1/gates/./rules", `{"rules":[]}`, 404, "", `Gate "." not found`},
		{"GET", "/console/v1/gates/a%2Fb", "", 404, "", `Gate "a/b" not found`},
		{"GET", "/console/v1/gates//rules", "", 404, "", "Not found: /console/v1/gates//rules"},
		{"GET", "/console/v1/gates/", "", 404, "", "Not found: /console/v1/gates/"},
		{"GET", "/console/v1", "", 404, "", "Not found: /console/v1"},
		{"GET", "/elsewhere", "", 404, "", "Not found: /elsewhere"},
		{"GET", "/console/v1/release_pipeline_triggers/x/approve", "", 405, "PUT", "Method GET not allowed on /console/v1/release_pipeline_triggers/x/approve"},
		{"PUT", "/console/v1/release_pipeline_triggers/x/bogus", "", 404, "", `Release pipeline trigger "x" not found`},
		{"GET", "/console/v1/release_pipeline_triggers/a/b/c", "", 404, "", "Not found: /console/v1/release_pipeline_triggers/a/b/c"},
		{"GET", "/console/v1/events/a%2Fb", "", 200, "", "Events listed successfully"},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.target, func(t *testing.T) {
			req := httptest.NewRequest(c.method, c.target, strings.NewReader(c.body))
			req.Header.Set(apiKeyHeader, DefaultAPIKey)
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			if rec.Code != c.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, c.status, rec.Body)
			}
			if got := rec.Header().Get("Allow"); got != c.allow {
				t.Errorf("Allow %q, want %q", got, c.allow)
			}
			if c.message == "" {
				return
			}
			var body struct {
				Message string `json:"message"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Message != c.message {
				t.Errorf("message %q (%v), want %q", body.Message, err, c.message)
			}
		})
	}
}

// TestConflictBeforeRouting: a concurrent edit is answered 409 whatever the path, before the
// router says 404 or 405.
func TestConflictBeforeRouting(t *testing.T) {
	s := New(Config{})
	s.ConflictOnNextWrites(1)
	for _, c := range []struct {
		target string
		want   int
	}{{"/console/v1/nowhere", http.StatusConflict}, {"/console/v1/nowhere", http.StatusNotFound}} {
		req := httptest.NewRequest(http.MethodDelete, c.target, nil)
		req.Header.Set(apiKeyHeader, DefaultAPIKey)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != c.want {
			t.Fatalf("DELETE %s: %d, want %d", c.target, rec.Code, c.want)
		}
	}
}
