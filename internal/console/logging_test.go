// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// The client logs through tflog (the provider's logger), so the provider root test logger sees it.
func TestLoggingEveryRequest(t *testing.T) {
	f := newFake(t, func(n int, r seen) reply {
		switch {
		case r.Method == "GET" && strings.HasPrefix(r.Path, "/console/v1/gates/"):
			return ok(`{"id":"g"}`)
		case r.Method == "PATCH":
			return apiErr(400, "key "+testKey+" is not allowed to change rules")
		case r.Method == "DELETE":
			return reply{Status: 500, Body: `{"message":"internal error for ` + testKey + `"}`}
		}
		return lastPage(`[{"email":"a@example.com"}]`)
	})
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	c := f.client(func(cfg *Config) { cfg.MaxRetries = 1 })

	if _, err := c.GetGate(ctx, "g"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateGateRules(ctx, "a b", nil); err == nil {
		t.Fatal("want an error")
	}
	if err := c.DeleteMetricSource(ctx, "m"); err == nil {
		t.Fatal("want an error")
	}
	if _, err := c.ListUsers(ctx, ListOptions{}); err != nil {
		t.Fatal(err)
	}

	noKey(t, "log output", buf.String())
	entries, err := tflogtest.MultilineJSONDecode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		method, path string
		status       float64
		attempts     float64
	}
	wants := []want{
		{"GET", "/console/v1/gates/g", 200, 1},
		{"PATCH", "/console/v1/gates/a%20b/rules", 400, 1},
		{"DELETE", "/console/v1/metrics/metric_source/m", 500, 2},
		{"GET", "/console/v1/users", 200, 1},
	}
	var got []map[string]any
	for _, e := range entries {
		if e["@message"] == "console API request" {
			got = append(got, e)
		}
	}
	if len(got) != len(wants) {
		t.Fatalf("%d request log entries, want %d: %v", len(got), len(wants), entries)
	}
	for i, w := range wants {
		e := got[i]
		if e["method"] != w.method || e["path"] != w.path || e["status"] != w.status || e["attempts"] != w.attempts {
			t.Errorf("entry %d = %v, want %+v", i, e, w)
		}
		if _, ok := e["duration_ms"].(float64); !ok {
			t.Errorf("entry %d has no duration: %v", i, e)
		}
		if e["@level"] != "debug" {
			t.Errorf("entry %d level %v", i, e["@level"])
		}
	}
}

func TestLoggingFailedRequest(t *testing.T) {
	f := newFake(t, script(ok(`{}`)))
	url := f.srv.URL
	f.srv.Close()
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	c := f.client(func(cfg *Config) { cfg.BaseURL = url; cfg.MaxRetries = 0 })
	if _, err := c.GetGate(ctx, testKey); err == nil {
		t.Fatal("want an error")
	}
	entries, err := tflogtest.MultilineJSONDecode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0]["@message"] != "console API request failed" || entries[0]["method"] != "GET" ||
		entries[0]["error"] == nil || entries[0]["duration_ms"] == nil {
		t.Errorf("entries %v", entries)
	}
	// Even an id that happens to equal the key is masked in the log.
	noKey(t, "log output", buf.String())
}
