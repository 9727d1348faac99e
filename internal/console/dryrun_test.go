// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"testing"
)

// A dry run of a body that already passed is not sent again, in this process or (through the
// cache directory) in the next one; a changed body or a rejection is.
func TestDryRunNotRepeated(t *testing.T) {
	f := newFake(t, func(n int, r seen) reply {
		if n == 2 {
			return apiErr(400, "bad sql")
		}
		return ok(`null`)
	})
	dir := t.TempDir()
	c := f.client(func(cfg *Config) { cfg.DryRunCacheDir = dir })
	src := MetricSource{Name: "m", SQL: "select 1", DryRun: true}
	for range 3 {
		if _, err := c.CreateMetricSource(context.Background(), src); err != nil {
			t.Fatal(err)
		}
	}
	if f.count() != 1 {
		t.Fatalf("%d dry runs of one body, want 1", f.count())
	}
	// A new provider process (new client) with the same cache directory.
	c2 := f.client(func(cfg *Config) { cfg.DryRunCacheDir = dir })
	if _, err := c2.CreateMetricSource(context.Background(), src); err != nil || f.count() != 1 {
		t.Fatalf("next process: %v, %d requests", err, f.count())
	}
	// Another body is checked; the update path of the same body is another request.
	src.SQL = "select 2"
	if _, err := c2.CreateMetricSource(context.Background(), src); err != nil || f.count() != 2 {
		t.Fatalf("changed body: %v, %d requests", err, f.count())
	}
	if _, err := c2.UpdateMetricSource(context.Background(), "m", src); err == nil || f.count() != 3 {
		t.Fatalf("update dry run: %v, %d requests", err, f.count())
	}
	// A rejection is not remembered.
	if _, err := c2.UpdateMetricSource(context.Background(), "m", src); err != nil || f.count() != 4 {
		t.Fatalf("after a rejection: %v, %d requests", err, f.count())
	}
	// A real write is never skipped.
	src.DryRun = false
	for range 2 {
		if _, err := c2.CreateMetricSource(context.Background(), src); err == nil {
			t.Log("create answered null data")
		}
	}
	if f.count() != 6 {
		t.Errorf("%d requests after two creates, want 6", f.count())
	}
}

// A dry run answered 2xx without any body is a pass (issue 12: the service may have nothing to
// return) and, like any pass, is not sent again.
func TestDryRunEmptyAnswerPasses(t *testing.T) {
	f := newFake(t, script(reply{Status: 200}))
	c := f.client()
	src := MetricSource{Name: "m", SQL: "select 1", DryRun: true}
	for range 2 {
		if _, err := c.CreateMetricSource(context.Background(), src); err != nil {
			t.Fatalf("dry run answered without a body: %v", err)
		}
	}
	if f.count() != 1 {
		t.Errorf("%d dry runs of one body, want 1", f.count())
	}
}
