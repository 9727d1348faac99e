// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// The list endpoints (GET /gates, GET /release_pipelines, GET /metrics/metric_source/list): path, paging by the service's pagination object, objects decoded
// as their read endpoints decode them, and a metric source list without pagination taken whole.
func TestListEndpoints(t *testing.T) {
	page := func(data string, page int, next string) reply {
		nx := "null"
		if next != "" {
			nx = `"` + next + `"`
		}
		return reply{Status: 200, Body: fmt.Sprintf(`{"message":"ok","data":%s,"pagination":{"itemsPerPage":1,"pageNumber":%d,"totalItems":2,"nextPage":%s,"previousPage":null,"all":""}}`, data, page, nx)}
	}
	t.Run("gates", func(t *testing.T) {
		f := newFake(t, script(
			page(`[`+gateJSON+`]`, 1, "host.example/console/v1/gates?page=2&limit=1"),
			page(`[{"id":"g2","rules":[]}]`, 2, ""),
		))
		got, err := gates.all(context.Background(), f.client(), ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := []Gate{*wantGate, {ID: "g2", Rules: []Rule{}}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %+v\nwant %+v", got, want)
		}
		reqs := f.requests()
		if len(reqs) != 2 || reqs[0].Path != "/console/v1/gates" || reqs[0].Query != "limit=100&page=1" || reqs[1].Query != "limit=1&page=2" {
			t.Fatalf("requests: %+v", reqs)
		}
	})
	t.Run("release pipelines", func(t *testing.T) {
		f := newFake(t, script(page(`[`+pipelineJSON+`]`, 1, "")))
		got, err := releasePipelines.all(context.Background(), f.client(), ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, []ReleasePipeline{*wantPipeline}) {
			t.Fatalf("got %+v", got)
		}
		if r := f.requests()[0]; r.Method != http.MethodGet || r.Path != "/console/v1/release_pipelines" {
			t.Fatalf("request %s %s", r.Method, r.Path)
		}
	})
	t.Run("metric sources without pagination", func(t *testing.T) {
		f := newFake(t, script(ok(`[`+metricSourceJSON+`]`)))
		got, err := f.client().ListMetricSources(context.Background(), ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, []MetricSource{*wantMetricSource}) {
			t.Fatalf("got %+v", got)
		}
		if r := f.requests(); len(r) != 1 || r[0].Path != "/console/v1/metrics/metric_source/list" {
			t.Fatalf("requests %+v", r)
		}
	})
	t.Run("max records asks for no more", func(t *testing.T) {
		f := newFake(t, script(page(`[{"id":"a"}]`, 1, "/console/v1/release_pipelines?page=2&limit=1")))
		got, err := releasePipelines.all(context.Background(), f.client(), ListOptions{MaxRecords: 1})
		if err != nil || len(got) != 1 {
			t.Fatalf("got %v, %v", got, err)
		}
		if r := f.requests(); len(r) != 1 || r[0].Query != "limit=1&page=1" {
			t.Fatalf("requests %+v", r)
		}
	})
}

// Each page goes to the callback as it arrives; an error of the callback stops the paging at once.
func TestEachGatesPage_stops(t *testing.T) {
	f := newFake(t, func(n int, _ seen) reply {
		n++ // 0-based
		return reply{Status: 200, Body: fmt.Sprintf(`{"message":"ok","data":[{"id":"g%d"}],"pagination":{"itemsPerPage":1,"pageNumber":%d,"nextPage":"/gates?page=%d&limit=1"}}`, n, n, n+1)}
	})
	stop := errors.New("enough")
	var seenIDs []string
	err := f.client().EachGatesPage(context.Background(), ListOptions{}, func(gs []Gate) error {
		for _, g := range gs {
			seenIDs = append(seenIDs, g.ID)
		}
		if len(seenIDs) == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("err = %v, want the callback's", err)
	}
	if f.count() != 3 || strings.Join(seenIDs, ",") != "g1,g2,g3" {
		t.Fatalf("%d requests, ids %v", f.count(), seenIDs)
	}
}

// A failed page names the listing, the status and the service's words.
func TestListEndpoints_error(t *testing.T) {
	f := newFake(t, script(apiErr(403, "not allowed to list gates")))
	_, err := gates.all(context.Background(), f.client(), ListOptions{})
	if err == nil || !strings.Contains(err.Error(), "list gates") || !strings.Contains(err.Error(), "403") || !strings.Contains(err.Error(), "not allowed to list gates") {
		t.Fatalf("err = %v", err)
	}
	noKey(t, "error", err.Error())
}
