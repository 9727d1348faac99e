// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// Terraform cancels the context of a running CRUD call when the user presses Ctrl-C (the plugin
// server's StopProvider). That the client then stops at once, waiting out a Retry-After or held
// back by the write pacer, is proven in internal/console (cancel_test.go); here, that the
// resources pass Terraform's context down to it.

// throttledClient is a client configured as the provider configures it by default (retries with
// the real backoff, a pacer), against a mock that answers every write 429 with Retry-After: 30.
func throttledClient(t *testing.T) (*console.Client, *mockconsole.Server) {
	t.Helper()
	m, url := startMock(t, mockconsole.Config{})
	m.SetFaults(mockconsole.Faults{FailEvery: 1, WriteStatus: http.StatusTooManyRequests, ReadStatus: http.StatusTooManyRequests, RetryAfter: "30"})
	c, err := console.New(console.Config{
		BaseURL: url, APIKey: mockconsole.DefaultAPIKey,
		MaxRetries: console.DefaultMaxRetries,
		Pacer:      console.NewPacer(defaultWriteLimit, defaultWriteLimitWindow),
	})
	if err != nil {
		t.Fatal(err)
	}
	return c, m
}

// cancelAfter runs call with a context cancelled after d, and fails unless call returns within
// a second of the cancellation with an error that says it was cancelled.
func cancelAfter(t *testing.T, d time.Duration, call func(ctx context.Context) string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan string, 1)
	go func() { done <- call(ctx) }()
	time.Sleep(d)
	select {
	case msg := <-done:
		t.Fatalf("returned before the cancellation: %q", msg)
	default:
	}
	cancelled := time.Now()
	cancel()
	select {
	case msg := <-done:
		if e := time.Since(cancelled); e > time.Second {
			t.Errorf("returned %s after the cancellation, want under 1s", e)
		}
		if !strings.Contains(msg, "cancelled") {
			t.Errorf("error does not mention the cancellation: %q", msg)
		}
		t.Logf("error: %s", strings.TrimSpace(msg))
		if strings.Contains(msg, "timed out") {
			t.Errorf("a cancellation reported as a timeout: %q", msg)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still running 10s after the cancellation")
	}
}

// The resources pass Terraform's context down: their writes stop at once.
func TestCancelStopsResourceWrites(t *testing.T) {
	c, _ := throttledClient(t)
	data := &providerData{client: c}

	t.Run("gate rules update", func(t *testing.T) {
		r := gateRulesWith(data)
		plan := testPlan(t, r, map[string]attr.Value{
			"gate_id": types.StringValue("dark_mode"), "rules": types.ListValueMust(ruleObjectType, nil),
		})
		state := tfsdk.State(testPlan(t, r, map[string]attr.Value{"gate_id": types.StringValue("dark_mode")}))
		cancelAfter(t, 300*time.Millisecond, func(ctx context.Context) string {
			resp := fwresource.UpdateResponse{State: state}
			r.Update(ctx, fwresource.UpdateRequest{Plan: plan, State: state}, &resp)
			return diagText(resp.Diagnostics)
		})
	})
	t.Run("release pipeline update", func(t *testing.T) {
		r := &releasePipelineResource{resourceData{data: data}}
		plan := testPlan(t, r, map[string]attr.Value{
			"pipeline_id": types.StringValue("pl_web"), "name": types.StringValue("Web"),
			"phases": types.ListValueMust(pipelinePhaseType, nil),
		})
		state := tfsdk.State(testPlan(t, r, map[string]attr.Value{"pipeline_id": types.StringValue("pl_web")}))
		cancelAfter(t, 300*time.Millisecond, func(ctx context.Context) string {
			resp := fwresource.UpdateResponse{State: state}
			r.Update(ctx, fwresource.UpdateRequest{Plan: plan, State: state}, &resp)
			return diagText(resp.Diagnostics)
		})
	})
	t.Run("metric source create", func(t *testing.T) {
		r := &metricSourceResource{resourceData{data: data}}
		plan := testPlan(t, r, map[string]attr.Value{
			"name": types.StringValue("orders"), "sql": types.StringValue("SELECT 1"), "timestamp_column": types.StringValue("ts"),
			"id_type_mapping": types.ListValueMust(idTypeMappingType, []attr.Value{
				types.ObjectValueMust(idTypeMappingType.AttrTypes, map[string]attr.Value{"service_unit_id": types.StringValue("userID"), "column": types.StringValue("u")}),
			}),
		})
		cancelAfter(t, 300*time.Millisecond, func(ctx context.Context) string {
			resp := fwresource.CreateResponse{State: tfsdk.State{Schema: plan.Schema, Raw: tftypes.NewValue(plan.Raw.Type(), nil)}}
			r.Create(ctx, fwresource.CreateRequest{Plan: plan}, &resp)
			return diagText(resp.Diagnostics)
		})
	})
}

// testPlan is a plan of r's schema with the given top-level attributes set and every other null.
func testPlan(t *testing.T, r fwresource.Resource, attrs map[string]attr.Value) tfsdk.Plan {
	t.Helper()
	ctx := context.Background()
	var sr fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &sr)
	p := tfsdk.Plan{Schema: sr.Schema, Raw: tftypes.NewValue(sr.Schema.Type().TerraformType(ctx), nil)}
	var diags diag.Diagnostics
	for name, v := range attrs {
		diags.Append(p.SetAttribute(ctx, path.Root(name), v)...)
	}
	if diags.HasError() {
		t.Fatal(diags)
	}
	return p
}
