// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"net/http"
	"reflect"
	"testing"
)

const metricJSON = `{"id":"revenue::user_warehouse","name":"revenue","type":"user_warehouse","description":"per user",` +
	`"directionality":"increase","tags":["checkout"],"unitTypes":["userID"],"isVerified":true,"isReadOnly":false,` +
	`"isPermanent":false,"team":null,"metricEvents":[],"metricComponentMetrics":[],"lineage":{"events":[],"metrics":[]},` +
	`"warehouseNative":{"aggregation":"sum","metricSourceName":"orders","valueColumn":"amount",` +
	`"criteria":[{"type":"value","column":"amount","condition":">","values":["0"]}]},"scheduledArchiveTime":1.7e12}`

var wantMetric = &Metric{
	ID: "revenue::user_warehouse", Name: "revenue", Type: "user_warehouse", Description: ptr("per user"),
	Directionality: "increase", Tags: []string{"checkout"}, UnitTypes: []string{"userID"}, IsVerified: true,
	MetricEvents: []MetricEvent{}, MetricComponentMetrics: []MetricRef{},
	WarehouseNative: &WarehouseNative{Aggregation: "sum", MetricSourceName: "orders", ValueColumn: ptr("amount"),
		Criteria: []MetricCriterion{{Type: "value", Column: ptr("amount"), Condition: ">", Values: []string{"0"}}}},
	ScheduledArchiveTime: ptr(WholeNumber(1700000000000)),
}

// Every metric route on the wire: method, escaped path, exact body, and what is read. An update
// sends neither name nor type (they never change); the archive moves send no body and read a
// message alone.
func TestMetricsWire(t *testing.T) {
	fields := MetricFields{Name: "revenue", Type: "user_warehouse", Description: ptr("per user"), Directionality: "increase",
		Tags: []string{"checkout"}, UnitTypes: []string{"userID"}, IsVerified: ptr(true),
		WarehouseNative: &WarehouseNative{Aggregation: "sum", MetricSourceName: "orders", ValueColumn: ptr("amount")}}
	const body = `{"description":"per user","directionality":"increase","tags":["checkout"],"unitTypes":["userID"],` +
		`"isVerified":true,"team":null,"metricEvents":[],"metricComponentMetrics":[],"funnelEventList":[],` +
		`"warehouseNative":{"aggregation":"sum","metricSourceName":"orders","valueColumn":"amount"}`
	const path = "/console/v1/metrics/revenue::user_warehouse"
	cases := []struct {
		name         string
		call         func(context.Context, *Client) (any, error)
		reply        reply
		method, path string
		body         string
		want         any
	}{
		{
			name: "create", method: http.MethodPost, path: "/console/v1/metrics",
			call:  func(ctx context.Context, c *Client) (any, error) { return c.CreateMetric(ctx, fields) },
			body:  `{"name":"revenue","type":"user_warehouse",` + body[1:] + `}`,
			reply: reply{Status: 201, Body: `{"message":"Metric created successfully.","data":` + metricJSON + `}`}, want: wantMetric,
		},
		{
			name: "dry run of a create", method: http.MethodPost, path: "/console/v1/metrics",
			call: func(ctx context.Context, c *Client) (any, error) {
				f := fields
				f.DryRun = true
				return c.CreateMetric(ctx, f)
			},
			body:  `{"name":"revenue","type":"user_warehouse",` + body[1:] + `,"dryRun":true}`,
			reply: reply{Status: 200, Body: `{"message":"Metric validated"}`}, want: &Metric{},
		},
		{
			name: "read", method: http.MethodGet, path: "/console/v1/metrics/Log%20Events::sum",
			call:  func(ctx context.Context, c *Client) (any, error) { return c.GetMetric(ctx, "Log Events::sum") },
			reply: ok(metricJSON), want: wantMetric,
		},
		{
			name: "update", method: http.MethodPost, path: path,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateMetric(ctx, "revenue::user_warehouse", fields)
			},
			body:  body + `}`,
			reply: ok(metricJSON), want: wantMetric,
		},
		{
			name: "delete", method: http.MethodDelete, path: path,
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.DeleteMetric(ctx, "revenue::user_warehouse")
			},
			reply: reply{Status: 200, Body: `{"message":"Metric deleted successfully."}`},
		},
		{
			name: "schedule the archive", method: http.MethodPut, path: path + "/schedule_archive",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.ScheduleMetricArchive(ctx, "revenue::user_warehouse")
			},
			reply: reply{Status: 200, Body: `{"message":"Metric archive scheduled successfully for next day."}`},
		},
		{
			name: "cancel the archive", method: http.MethodPut, path: path + "/cancel_archive",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.CancelMetricArchive(ctx, "revenue::user_warehouse")
			},
			reply: reply{Status: 200, Body: `{"message":"Metric archival cancelled successfully."}`},
		},
		{
			name: "unarchive", method: http.MethodPut, path: path + "/unarchive",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.UnarchiveMetric(ctx, "revenue::user_warehouse")
			},
			reply: reply{Status: 200, Body: `{"message":"Metric unarchived successfully."}`},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, script(tc.reply))
			got, err := tc.call(context.Background(), f.client())
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != nil && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("read\n got %#v\nwant %#v", got, tc.want)
			}
			reqs := f.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			if r := reqs[0]; r.Method != tc.method || r.Path != tc.path || r.Body != tc.body {
				t.Errorf("sent %s %s %s\nwant %s %s %s", r.Method, r.Path, r.Body, tc.method, tc.path, tc.body)
			}
			checkHeaders(t, reqs[0], tc.body != "", false)
		})
	}
}

// A write answered without a body (a habit of the live service) is read back; a metric's archive
// reads from what the service sends, and a read without it is an active metric.
func TestMetricEmptyWriteAndArchive(t *testing.T) {
	f := newFake(t, script(reply{Status: 200}, ok(`{"id":"a b::sum","name":"a b","type":"sum","isArchived":true}`)))
	m, err := f.client().UpdateMetric(context.Background(), "a b::sum", MetricFields{})
	if err != nil {
		t.Fatal(err)
	}
	if reqs := f.requests(); len(reqs) != 2 || reqs[1].Method != http.MethodGet || reqs[1].Path != "/console/v1/metrics/a%20b::sum" {
		t.Fatalf("requests %+v", reqs)
	}
	if m.Archive() != MetricArchived || m.Description != nil {
		t.Fatalf("read %+v", m)
	}
	for js, want := range map[string]MetricArchive{`{}`: MetricActive, `{"scheduledArchiveTime":null}`: MetricActive,
		`{"scheduledArchiveTime":0}`: MetricActive, `{"scheduledArchiveTime":"1700000000000"}`: MetricArchiveScheduled} {
		f := newFake(t, script(ok(js)))
		m, err := f.client().GetMetric(context.Background(), "x::sum")
		if err != nil {
			t.Fatal(js, err)
		}
		if m.Archive() != want {
			t.Errorf("%s reads %s, want %s", js, m.Archive(), want)
		}
	}
}

// A dry run refused for a metric source the project lacks is told apart.
func TestMetricSourceMissing(t *testing.T) {
	f := newFake(t, script(reply{Status: 400, Body: `{"status":400,"message":"Metric source \"nowhere\" not found"}`}))
	_, err := f.client().CreateMetric(context.Background(), MetricFields{Name: "revenue", Type: "user_warehouse", DryRun: true})
	if !MetricSourceMissing(err) {
		t.Fatalf("not a missing source: %v", err)
	}
	if MetricSourceMissing(&APIError{StatusCode: 400, Message: "name must be 4 to 200 characters"}) {
		t.Fatal("another refusal taken for a missing source")
	}
}
