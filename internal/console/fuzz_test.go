// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

// roundTripFunc serves fuzz bodies without a socket, so the fuzzers run the client's whole
// send/decode path quickly.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func bodyResponse(r *http.Request, status int, body []byte) *http.Response {
	return &http.Response{
		StatusCode: status, Status: strconv.Itoa(status) + " " + http.StatusText(status),
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)), Request: r, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
	}
}

func fuzzClient(t *testing.T, rt roundTripFunc) *Client {
	c, err := New(Config{BaseURL: "http://console.invalid", APIKey: testKey, MaxRetries: 0, Transport: rt})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func fuzzStatus(s uint16) int { return 200 + int(s)%400 }

// checkErr insists an error names the call and is free of the key; typed, it must be one of
// the client's error types.
func checkErr(t *testing.T, err error) {
	t.Helper()
	checkErrText(t, err)
	var ae *APIError
	var de *DecodeError
	var re *RateLimitError // a 429 until the fuzz case's deadline
	if err != nil && !errors.As(err, &ae) && !errors.As(err, &de) && !errors.As(err, &re) {
		t.Fatalf("untyped error %T: %v", err, err)
	}
}

func checkErrText(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "Unable to ") {
		t.Fatalf("error does not name the call: %q", msg)
	}
	noKey(t, "error", msg)
}

var envelopeSeeds = []string{
	``, ` `, `null`, `{}`, `[]`, `"x"`, `0`, `{"message":"ok"}`, `{"data":null}`,
	`{"message":"ok","data":` + gateJSON + `}`,
	`{"message":"Gate created","data":` + createdGateJSON + `}`,
	`{"message":"ok","data":` + pipelineJSON + `}`,
	`{"message":"ok","data":` + metricSourceJSON + `}`,
	`{"message":"ok","data":{"id":"g","rules":[{"id":1}]}}`,
	`{"message":"ok","data":{"id":"g","targetApps":"web"}}`,
	`{"message":"ok","data":{"id":"c","targetApps":"web","schema":"{\"type\":\"object\"}","schemaJson5":"{type: 'object',}","status":"Archived"}}`,
	`{"message":"ok","data":[{"id":"c","targetApps":["a","b"],"schema":{"type":"object"},"defaultValueJson5":"{a: 1, // x\n}"}]}`,
	`{"message":"ok","data":{"id":"c","targetApps":7,"schema":"not json"}}`,
	`{"message":"ok","data":{"id":"g","rules":[{"passPercentage":"50"}]}}`,
	`{"message":"ok","data":{"id":"g","rules":[{"conditions":[{"targetValue":[1e400]}]}]}}`,
	`{"message":"ok","data":[{"timestamp":1,"value":true,"metadata":{"a":[1]}}],"pagination":{"itemsPerPage":1,"nextPage":null}}`,
	`{"message":"ok","data":{"id":"g"`,
	`<html>502</html>`,
	`{"message":"ok","data":{"name":"m","owner":null,"team":null,"tags":null}}`,
	"{\"message\":\"\xff\xfe\",\"data\":{}}",
	`{"data":{"phases":[{"timeIntervalMs":1.5}]}}`,
	`{"data":{"createdTime":"1700000000000"}}`,
	// Pulse results in the document's example form and its schema's.
	`{"message":"ok","data":{"primaryMetrics":[{"metricID":"Purchase::user_warehouse","value":-0.56,"percent_change":-0.91,` +
		`"percent_confidence_interval_delta":2.1,"test_units":1669,"control_units":"1589","p_value":0.7}],"secondaryMetrics":null}}`,
	`{"message":"ok","data":{"ds":"2026-11-26","primaryMetrics":[{"metricID":"a::b","metricName":"a","percentChange":1,"pValue":"0.01"},null]}}`,
}

// FuzzDecodeEnvelope runs decodeEnvelope for every response type the client decodes.
func FuzzDecodeEnvelope(f *testing.F) {
	for _, s := range envelopeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		r := request{op: "read gate", object: `"g"`}
		try := func(err error) {
			if err == nil {
				return
			}
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("decodeEnvelope returned %T %v", err, err)
			}
			if de.Error() == "" {
				t.Fatal("empty error text")
			}
		}
		try(decodeEnvelope(r, raw, &envelope[json.RawMessage]{}))
		try(decodeEnvelope(r, raw, &envelope[Gate]{}))
		try(decodeEnvelope(r, raw, &envelope[ReleasePipeline]{}))
		try(decodeEnvelope(r, raw, &envelope[MetricSource]{}))
		try(decodeEnvelope(r, raw, &envelope[[]Event]{}))
		try(decodeEnvelope(r, raw, &envelope[[]Segment]{}))
		try(decodeEnvelope(r, raw, &envelope[[]User]{}))
		try(decodeEnvelope(r, raw, &envelope[DynamicConfig]{}))
		try(decodeEnvelope(r, raw, &envelope[[]DynamicConfig]{}))
		try(decodeEnvelope(r, raw, &envelope[PulseResults]{}))
	})
}

func fuzzObject(f *testing.F, call func(context.Context, *Client) (any, error)) {
	for _, s := range envelopeSeeds {
		f.Add(uint16(0), []byte(s))
	}
	f.Add(uint16(200), []byte(`{"status":400,"message":"bad"}`))
	f.Add(uint16(201), []byte(`{"status":401,"message":"`+testKey+`"}`))
	f.Add(uint16(204), []byte(`<html>`+testKey+`</html>`))
	f.Add(uint16(304), []byte(`{"message":`))
	f.Add(uint16(229), []byte(``))
	f.Fuzz(func(t *testing.T, st uint16, raw []byte) {
		status := fuzzStatus(st)
		c := fuzzClient(t, func(r *http.Request) (*http.Response, error) { return bodyResponse(r, status, raw), nil })
		// A 429 is retried for as long as the context lives: bound it.
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err := call(ctx, c)
		if err == nil && (status < 200 || status > 299) {
			t.Fatalf("status %d reported as success", status)
		}
		checkErr(t, err)
	})
}

func FuzzGateResponse(f *testing.F) {
	var n atomic.Int32
	fuzzObject(f, func(ctx context.Context, c *Client) (any, error) {
		switch n.Add(1) % 5 {
		case 0:
			return c.GetGate(ctx, "g")
		case 1:
			return c.CreateGate(ctx, GateFields{ID: "g"})
		case 2:
			return c.UpdateGate(ctx, "g", GateFields{Description: new("d")})
		case 3:
			return nil, c.DeleteGate(ctx, "g")
		}
		return c.UpdateGateRules(ctx, "g", []Rule{{Name: "r", PassPercentage: 50}})
	})
}

func FuzzGateReviewResponse(f *testing.F) {
	var n atomic.Int32
	fuzzObject(f, func(ctx context.Context, c *Client) (any, error) {
		if n.Add(1)%2 == 0 {
			rv, err := c.GetGateReview(ctx, "g", "rev_1")
			if err == nil {
				_ = rv.Proposes(RulesChange(nil))
			}
			return rv, err
		}
		return c.CommitGateReview(ctx, "g", "rev_1")
	})
}

func FuzzPipelineResponse(f *testing.F) {
	var n atomic.Int32
	fuzzObject(f, func(ctx context.Context, c *Client) (any, error) {
		if n.Add(1)%2 == 0 {
			return c.GetReleasePipeline(ctx, "p")
		}
		return c.UpdateReleasePipeline(ctx, "p", ReleasePipelineUpdate{Name: "n"})
	})
}

func FuzzMetricSourceResponse(f *testing.F) {
	var n atomic.Int32
	fuzzObject(f, func(ctx context.Context, c *Client) (any, error) {
		switch n.Add(1) % 4 {
		case 0:
			return c.GetMetricSource(ctx, "m")
		case 1:
			return c.CreateMetricSource(ctx, MetricSource{Name: "m", DryRun: true})
		case 2:
			return c.UpdateMetricSource(ctx, "m", MetricSource{})
		}
		return nil, c.DeleteMetricSource(ctx, "m")
	})
}

func FuzzMetricResponse(f *testing.F) {
	var n atomic.Int32
	fuzzObject(f, func(ctx context.Context, c *Client) (any, error) {
		switch n.Add(1) % 4 {
		case 0:
			return c.GetMetric(ctx, "m::sum")
		case 1:
			return c.CreateMetric(ctx, MetricFields{Name: "m", Type: "sum", DryRun: true})
		case 2:
			return c.UpdateMetric(ctx, "m::sum", MetricFields{})
		}
		return nil, c.ScheduleMetricArchive(ctx, "m::sum")
	})
}

// FuzzPagination serves page1 for the first page and page2 for every other page, to every
// listing, sequentially and concurrently.
func FuzzPagination(f *testing.F) {
	pg := func(next string, ipp, total int) string {
		return `{"message":"ok","data":[{"email":"a","timestamp":"1","id":"s"},{"email":"b","value":2}],"pagination":{"itemsPerPage":` +
			strconv.Itoa(ipp) + `,"totalItems":` + strconv.Itoa(total) + `,"nextPage":` + next + `}}`
	}
	f.Add([]byte(pg(`"/console/v1/users?page=2&limit=2"`, 2, 4)), []byte(pg(`null`, 2, 4)), uint8(0), uint8(0))
	f.Add([]byte(pg(`"/console/v1/users?page=2&limit=2"`, 2, 40)), []byte(pg(`"/console/v1/users?page=30&limit=2"`, 2, 40)), uint8(0), uint8(4))
	f.Add([]byte(pg(`"/console/v1/users?page=2"`, 2, 9000000000000000000)), []byte(pg(`"?page=3"`, 2, 1)), uint8(3), uint8(4))
	f.Add([]byte(pg(`"?page=2&limit=-1"`, 0, -5)), []byte(pg(`"?page=1"`, 1, 1)), uint8(1), uint8(2))
	f.Add([]byte(pg(`"?page=9223372036854775807&limit=2"`, 2, 9223372036854775807)), []byte(pg(`"?page=2"`, 2, 1)), uint8(0), uint8(3))
	f.Add([]byte(`{"data":[],"pagination":null}`), []byte(``), uint8(0), uint8(0))
	f.Add([]byte(`{"data":{},"pagination":{}}`), []byte(`<html>`), uint8(0), uint8(2))
	f.Add([]byte(`{"data":[{"metadata":[]}],"pagination":{"nextPage":"%"}}`), []byte(`{}`), uint8(9), uint8(9))
	f.Fuzz(func(t *testing.T, page1, page2 []byte, maxRecords, concurrency uint8) {
		var requests atomic.Int32
		c := fuzzClient(t, func(r *http.Request) (*http.Response, error) {
			if requests.Add(1) > 5000 {
				return bodyResponse(r, 400, []byte(`{"message":"too many requests in one listing"}`)), nil
			}
			if r.URL.Query().Get("page") == "1" {
				return bodyResponse(r, 200, page1), nil
			}
			return bodyResponse(r, 200, page2), nil
		})
		opts := ListOptions{MaxRecords: int(maxRecords) % 20, Concurrency: int(concurrency) % 6}
		ctx := context.Background()
		check := func(n int, err error) {
			checkErrText(t, err)
			if err == nil && opts.MaxRecords > 0 && n > opts.MaxRecords {
				t.Fatalf("%d records with MaxRecords %d", n, opts.MaxRecords)
			}
			if requests.Load() > 5000 {
				t.Fatalf("%d requests for one listing", requests.Load())
			}
			requests.Store(0)
		}
		us, err := c.ListUsers(ctx, opts)
		check(len(us), err)
		ss, err := c.ListSegments(ctx, opts)
		check(len(ss), err)
		es, err := c.ListEvents(ctx, "e v/1", opts)
		check(len(es), err)
	})
}

func FuzzEventsResponse(f *testing.F) {
	for _, s := range envelopeSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"message":"ok","data":[{"timestamp":"1700000000000","name":"e","source":"s","value":"","userID":"u","metadata":{}},` +
		`{"timestamp":1.7e12,"value":-0.0,"metadata":{"n":null,"o":{"a":[1,"b"]}}},{"timestamp":null,"value":false}],"pagination":{"nextPage":null}}`))
	f.Add([]byte(`{"message":"ok","data":[{"timestamp":{},"value":[]}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		c := fuzzClient(t, func(r *http.Request) (*http.Response, error) { return bodyResponse(r, 200, raw), nil })
		evs, err := c.ListEvents(context.Background(), "e", ListOptions{MaxRecords: 5})
		checkErr(t, err)
		if err == nil && len(evs) > 5 {
			t.Fatalf("%d events", len(evs))
		}
	})
}

func FuzzErrorMessage(f *testing.F) {
	for _, s := range []struct{ ct, body string }{
		{"application/json", `{"status":400,"message":"bad"}`},
		{"application/json", `{"status":"400","error":"forbidden"}`},
		{"application/json", `{"message":""}`},
		{"application/json", `{"message":null,"error":5}`},
		{"text/html; charset=utf-8", `<html><body>502</body></html>`},
		{"", ` <!doctype html>`},
		{"text/plain", strings.Repeat("é", 300)},
		{"", "\xff\xfe\x00"},
		{"", ``},
		{"", `{"message":"\ud800"}`},
	} {
		f.Add(s.ct, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, ct string, body []byte) {
		msg := errorMessage(ct, body)
		if strings.TrimSpace(string(body)) == "" && msg != "" {
			t.Fatalf("message %q for an empty body", msg)
		}
		if utf8.Valid(body) && !utf8.ValidString(msg) {
			t.Fatalf("invalid UTF-8 message %q from a valid body", msg)
		}
		if strings.HasPrefix(msg, "unexpected response body: ") && len(msg) > len("unexpected response body: ")+200+len("…") {
			t.Fatalf("summary of %d bytes", len(msg))
		}
	})
}

func FuzzFlexString(f *testing.F) {
	for _, s := range []string{`"x"`, `""`, `1`, `-1.5e10`, `true`, `false`, `null`, `{}`, `[]`, `"\u00e9"`, ` 1 `, `01`, `"`, `1e999`, `[1]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var fs FlexString
		err := json.Unmarshal(raw, &fs)
		if err != nil {
			return
		}
		var v any
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if d.Decode(&v) != nil || !json.Valid(raw) {
			t.Fatalf("FlexString accepted invalid JSON %q", raw)
		}
		switch v := v.(type) {
		case string:
			if string(fs) != v {
				t.Fatalf("string %q decoded as %q", v, fs)
			}
		case nil:
			if fs != "" {
				t.Fatalf("null decoded as %q", fs)
			}
		case json.Number, bool:
			if string(fs) != strings.TrimSpace(string(raw)) {
				t.Fatalf("%q decoded as %q", raw, fs)
			}
		default:
			t.Fatalf("FlexString accepted %T %q", v, raw)
		}
		// And inside an event, through the client's decode path.
		body := []byte(`{"data":[{"timestamp":` + string(raw) + `,"value":` + string(raw) + `}]}`)
		var env envelope[[]Event]
		if err := decodeEnvelope(request{op: "list events"}, body, &env); err != nil {
			t.Fatalf("event with %q: %v", raw, err)
		}
		if len(env.Data) != 1 || env.Data[0].Timestamp != fs || env.Data[0].Value != fs {
			t.Fatalf("event with %q decoded as %+v", raw, env.Data)
		}
	})
}

func FuzzNextPageParams(f *testing.F) {
	f.Add("/console/v1/users?page=2&limit=7", 7, 1)
	f.Add("?page=3", 0, 2)
	f.Add("%zz", 5, 1)
	f.Add("http://x/?page=99999999999999999999", 1, 1)
	f.Add("?page=2&limit=0&page=1", -3, 1)
	f.Fuzz(func(t *testing.T, link string, ipp, current int) {
		page, limit, err := nextPageParams(&Pagination{NextPage: &link, ItemsPerPage: ipp}, current)
		if err != nil {
			if !strings.Contains(err.Error(), "nextPage") && !strings.Contains(err.Error(), "itemsPerPage") {
				t.Fatalf("unclear error %v", err)
			}
			return
		}
		if page <= current || limit <= 0 {
			t.Fatalf("link %q current %d: page %d limit %d", link, current, page, limit)
		}
		u, _ := url.Parse(link)
		if u.Query().Get("page") != strconv.Itoa(page) && u.Query().Get("page") != "+"+strconv.Itoa(page) && !strings.HasPrefix(u.Query().Get("page"), "0") {
			t.Fatalf("page %d not from link %q", page, link)
		}
	})
}

func FuzzWholeNumber(f *testing.F) {
	for _, s := range []string{`1`, `3600000.0`, `3.6e6`, `"12"`, `null`, `-0.5`, `1e400`, `"x"`, `9223372036854775807.4`, `-9223372036854775808`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var n WholeNumber
		if err := n.UnmarshalJSON(b); err != nil {
			return
		}
		text := strings.TrimSpace(string(b))
		if i, err := strconv.ParseInt(text, 10, 64); err == nil && int64(n) != i {
			t.Fatalf("%s decoded as %d", text, n)
		}
		// Any other number is rounded to the nearest whole one.
		if fl, err := strconv.ParseFloat(strings.Trim(text, `"`), 64); err == nil && math.Abs(fl) < 1<<52 && math.Abs(float64(n)-fl) > 0.5 {
			t.Fatalf("%s decoded as %d", text, n)
		}
	})
}

func FuzzSegment(f *testing.F) {
	for _, s := range []string{`{"id":"s","rules":{}}`, `{"id":"s","rules":[]}`, `{"rules":[{"name":"a"},{}]}`, `{"rules":"x"}`, `{"rules":null,"count":1.0}`, `[]`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Segment
		if err := json.Unmarshal(b, &s); err != nil {
			if strings.Contains(err.Error(), "console.") {
				t.Fatalf("Go type names in %q", err)
			}
		}
	})
}

func FuzzSegmentIDPage(f *testing.F) {
	for _, s := range []string{`{"data":{"name":"s","count":2,"ids":["a","b"]},"pagination":{"nextPage":null}}`,
		`{"data":{"ids":null}}`, `{"data":{"count":"3","ids":[1]}}`, `{"data":[]}`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var env envelope[segmentIDPage]
		err := decodeEnvelope(request{op: "read ids of segment", object: `"s"`}, b, &env)
		if err != nil && !strings.Contains(err.Error(), `read ids of segment "s"`) {
			t.Fatalf("the error does not name the operation: %v", err)
		}
	})
}

func FuzzPulseResultsResponse(f *testing.F) {
	fuzzObject(f, func(ctx context.Context, c *Client) (any, error) {
		return c.GetPulseResults(ctx, "e", "g1", "g2", PulseQuery{Confidence: 95})
	})
}

// FuzzMetricResult: whatever form a metric's result comes in, what is read is read again the same
// from the client's own (the schema's) form, and a result without a name is named by its metricID.
func FuzzMetricResult(f *testing.F) {
	for _, s := range []string{
		`{"metricID":"Purchase::user_warehouse","value":-0.56,"percent_change":-0.91,"test_units":1669,"p_value":0.7}`,
		`{"metricID":"a::b","metricName":"a","directionality":"increase","percentChange":"1.5","pValue":1e-3,"testUnits":10.0}`,
		`{"pValue":1,"p_value":2,"PVALUE":3,"p_Value":4}`, `{"metricID":"::","metricName":" "}`, `{"test_units":1e400}`,
		`{"control_mean":null}`, `null`, `[]`, `{"metricID":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var m MetricResult
		if err := json.Unmarshal(b, &m); err != nil {
			return
		}
		if strings.TrimSpace(m.MetricName) == "" && m.MetricName != MetricNameOf(m.MetricID) {
			t.Fatalf("metric %q named %q, not by its id", m.MetricID, m.MetricName)
		}
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("%+v does not encode: %v", m, err)
		}
		var again MetricResult
		if err := json.Unmarshal(out, &again); err != nil || again != m {
			t.Fatalf("%s read as %+v, and its own form %s as %+v (%v)", b, m, out, again, err)
		}
	})
}

// FuzzKeyResponse: whatever a key route answers, the client decodes it or fails in words, and no
// error shows the secret the request named, nor one a "key" field of the answer held.
func FuzzKeyResponse(f *testing.F) {
	const secret = "secret-FUZZ-never-shown-41d2"
	f.Add(uint16(0), []byte(`{"message":"ok","data":{"key":"`+secret+`","type":7}}`))
	f.Add(uint16(200), []byte(`{"status":400,"message":"key `+secret+` is deactivated"}`))
	f.Add(uint16(0), []byte(`{"message":"ok","data":[{"key":"`+secret+`x","type":"SERVER"}],"pagination":3}`))
	f.Add(uint16(0), []byte(`{"message":"ok","data":{"key":"`+secret+`","type":"SERVER","status":"active"}}`))
	f.Fuzz(func(t *testing.T, st uint16, raw []byte) {
		status := fuzzStatus(st)
		c := fuzzClient(t, func(r *http.Request) (*http.Response, error) { return bodyResponse(r, status, raw), nil })
		// A 429 is retried for as long as the context lives: each call's own bound.
		bounded := func() context.Context {
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			t.Cleanup(cancel)
			return ctx
		}
		// The secrets the answer holds in "key" fields (long enough to be told from other words).
		held := []string{secret}
		for _, m := range keyFieldRe.FindAll(raw, -1) {
			var field map[string]string
			if json.Unmarshal(append(append([]byte("{"), m...), '}'), &field) == nil && len(field["key"]) >= 8 {
				held = append(held, field["key"])
			}
		}
		_, getErr := c.GetKey(bounded(), secret)
		_, rotateErr := c.RotateKey(bounded(), secret)
		_, listErr := c.ListKeys(bounded(), KeyFilter{}, ListOptions{MaxRecords: 5})
		for i, err := range []error{getErr, rotateErr, listErr} {
			checkErr(t, err)
			if err == nil {
				continue
			}
			text := fmt.Sprintf("%v %+v", err, err)
			shown := held[1:]
			if i < 2 {
				shown = held // the secret the request named, too
			}
			for _, s := range shown {
				if strings.Contains(text, s) {
					t.Fatalf("an error shows a key's secret %q: %v", s, err)
				}
			}
		}
	})
}
