// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// nullTimeouts is an unset `timeouts` of r's schema, for models built by hand in unit tests (the
// zero timeouts.Value has no attribute types and cannot be stored).
func nullTimeouts(ctx context.Context, r fwresource.Resource) timeouts.Value {
	var sr fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &sr)
	tt := sr.Schema.Attributes["timeouts"].GetType().(timeouts.Type)
	return timeouts.Value{Object: types.ObjectNull(tt.AttributeTypes())}
}

func TestAccTimeouts_gateRulesCreate(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{Latency: 2 * time.Second})
	var sw stopwatch
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		Steps: []resource.TestStep{{
			PreConfig: sw.reset,
			Config: providerBlock(url) + `
resource "featureconsole_gate_rules" "checkout" {
  gate_id  = "dark_mode"
  rules    = [{ name = "everyone", pass_percentage = 5 }]
  timeouts = { create = "500ms" }
}
`,
			ExpectError: diagRe(`Unable to read gate "dark_mode"`, `Timed out after 500ms waiting for the service (raise timeouts.create)`),
		}, {
			// An empty configuration: checks that the failed step was quick and stored nothing.
			Config: providerBlock(url),
			Check: resource.ComposeTestCheckFunc(sw.withinBound(), func(*terraform.State) error {
				if g, _ := m.Gate("dark_mode"); len(g.Rules) != 0 {
					return fmt.Errorf("dark_mode has %d rules, want 0", len(g.Rules))
				}
				return noStoredWrite(m)
			}),
		}},
	})
}

func TestAccTimeouts_releasePipelineCreate(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{Latency: 2 * time.Second})
	before, _ := m.Pipeline("pl_web")
	var sw stopwatch
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		Steps: []resource.TestStep{{
			PreConfig: sw.reset,
			Config: providerBlock(url) + `
resource "featureconsole_release_pipeline" "web" {
  pipeline_id = "pl_web"
  name        = "Web"
  phases      = []
  timeouts    = { create = "500ms" }
}
`,
			// Taking a pipeline over starts by reading it; the create budget covers both calls.
			ExpectError: diagRe(`Unable to read release pipeline "pl_web"`, `Timed out after 500ms waiting for the service (raise timeouts.create)`),
		}, {
			Config: providerBlock(url),
			Check: resource.ComposeTestCheckFunc(sw.withinBound(), func(*terraform.State) error {
				if after, _ := m.Pipeline("pl_web"); after.Name != before.Name || len(after.Phases) != len(before.Phases) {
					return fmt.Errorf("pl_web changed: %+v", after)
				}
				return noStoredWrite(m)
			}),
		}},
	})
}

const timeoutsAllConfig = `
resource "featureconsole_gate_rules" "checkout" {
  gate_id  = "dark_mode"
  rules    = [{ name = "everyone", pass_percentage = 5 }]
  timeouts = { create = "%[1]s", read = "%[2]s", update = "%[1]s", delete = "%[1]s" }
}

resource "featureconsole_release_pipeline" "web" {
  pipeline_id = "pl_mobile"
  name        = "Mobile"
  phases      = [{ name = "All", time_interval_ms = 0 }]
  timeouts    = { create = "%[1]s", read = "%[2]s", update = "%[1]s" }
}

resource "featureconsole_metric_source" "orders" {
  name             = "orders"
  sql              = "SELECT user_id, ts FROM orders"
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
  timeouts         = { create = "%[1]s", read = "%[2]s", update = "%[1]s", delete = "%[1]s" }
}
`

// timeouts is Terraform-side: it survives refresh, re-plans empty, is ignored by import, and
// changing it alone updates state without a request. A slow read fails on timeouts.read.
func TestAccTimeouts_lifecycle(t *testing.T) {
	m, url := mockWithoutSources(t)
	cfg := func(write, read string) string {
		return providerBlock(url) + fmt.Sprintf(timeoutsAllConfig, write, read)
	}
	addrs := []string{"featureconsole_gate_rules.checkout", "featureconsole_release_pipeline.web", "featureconsole_metric_source.orders"}
	importStep := func(addr string) resource.TestStep {
		return resource.TestStep{
			Config: cfg("10m", "2m"), ResourceName: addr, ImportState: true, ImportStateVerify: true,
			ImportStateVerifyIgnore: []string{"timeouts"},
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		Steps: []resource.TestStep{
			{
				Config: cfg("10m", "2m"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(addrs[0], "timeouts.create", "10m"),
					resource.TestCheckResourceAttr(addrs[1], "timeouts.read", "2m"),
					resource.TestCheckResourceAttr(addrs[2], "timeouts.delete", "10m"),
				),
			},
			importStep(addrs[0]), importStep(addrs[1]), importStep(addrs[2]),
			{
				PreConfig: m.ResetRequests,
				Config:    cfg("30m", "3m"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addrs[0], plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(addrs[1], plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(addrs[2], plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(addrs[0], "timeouts.update", "30m"),
					resource.TestCheckResourceAttr(addrs[1], "timeouts.read", "3m"),
					func(*terraform.State) error {
						for _, r := range m.Requests() {
							if r.Method != http.MethodGet {
								return fmt.Errorf("changing only timeouts sent %s %s", r.Method, r.Path)
							}
						}
						return nil
					},
				),
			},
			{
				PreConfig:   func() { m.SetLatency(2 * time.Second) },
				Config:      cfg("30m", "300ms"),
				ExpectError: errRe(`Timed out after 300ms waiting for the service (raise timeouts.read)`),
			},
			{
				PreConfig: func() { m.SetLatency(0) },
				Config:    cfg("30m", "3m"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

func TestAccTimeouts_invalid(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	gate := func(timeouts string) string {
		return providerBlock(url) + `
resource "featureconsole_gate_rules" "checkout" {
  gate_id  = "dark_mode"
  rules    = []
  timeouts = ` + timeouts + `
}
`
	}
	noRequest := func() error {
		if r := m.Requests(); len(r) > 0 {
			return fmt.Errorf("invalid timeouts sent %d requests", len(r))
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		Steps: []resource.TestStep{
			{Config: gate(`{ create = "-1s" }`), ExpectError: errRe(`Timeout must be positive`)},
			{Config: gate(`{ update = "0s" }`), ExpectError: errRe(`Timeout must be positive`)},
			{Config: gate(`{ read = "soon" }`), ExpectError: errRe(`Invalid Attribute Value Time Duration`)},
			{
				PreConfig: func() {
					if err := noRequest(); err != nil {
						t.Fatal(err)
					}
				},
				Config: providerBlock(url),
			},
		},
	})
}

func TestTimeoutsExplain(t *testing.T) {
	ctx := context.Background()
	f := framework.APIFailure{Op: "update rules of", Object: `gate "x"`}
	opCtx, op, cancel, _ := framework.NewOperation(ctx, "update", time.Millisecond, nil)
	defer cancel()
	<-opCtx.Done()
	cause := fmt.Errorf("Unable to update rules of gate \"x\": cancelled: %w", opCtx.Err())
	got := f.Detail(opCtx, op, cause)
	want := `Timed out after 1ms waiting for the service (raise timeouts.update)`
	if !strings.HasPrefix(got, want) {
		t.Fatalf("got %q, want it to start with %q", got, want)
	}
	if !strings.Contains(got, `update = "2ms"`) || !strings.Contains(got, "may still have received the change") {
		t.Fatalf("missing the example or the write note: %q", got)
	}
	// The cause is still what the write note is decided from: a write that never left the pacer
	// was not applied.
	unsent := &console.CancelledError{Op: "update rules of gate", Object: `"x"`, Err: opCtx.Err()}
	if got := f.Detail(opCtx, op, unsent); !strings.HasPrefix(got, want) || strings.Contains(got, "may still have received the change") {
		t.Fatalf("an unsent write: %q", got)
	}

	// Terraform cancelling (Ctrl-C) is not a timeout: the detail is the client's account.
	parent, stop := context.WithCancel(ctx)
	opCtx, op, cancel2, _ := framework.NewOperation(parent, "read", time.Hour, nil)
	defer cancel2()
	stop()
	cause = errors.New("Unable to read gate \"x\": cancelled: context canceled")
	if got := f.Detail(opCtx, op, cause); got != cause.Error() {
		t.Fatalf("a cancellation became %q", got)
	}
	// An error before the deadline is left alone.
	opCtx, op, cancel3, _ := framework.NewOperation(ctx, "read", time.Hour, nil)
	defer cancel3()
	if got := f.Detail(opCtx, op, cause); got != cause.Error() {
		t.Fatalf("got %q", got)
	}
}

func TestTimeoutsDefaultsAndFormat(t *testing.T) {
	for d, want := range map[time.Duration]string{
		20 * time.Minute: "20m", 5 * time.Minute: "5m", time.Hour: "1h", 90 * time.Minute: "1h30m",
		500 * time.Millisecond: "500ms", 90 * time.Second: "1m30s",
	} {
		if got := framework.FormatTimeout(d); got != want {
			t.Errorf("formatTimeout(%s) = %q, want %q", d, got, want)
		}
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		want time.Duration
	}{{"create", framework.DefaultWriteTimeout}, {"read", framework.DefaultReadTimeout}, {"update", framework.DefaultWriteTimeout}, {"delete", framework.DefaultWriteTimeout}} {
		var d diag.Diagnostics
		_, op, cancel := framework.StartOperation(ctx, timeouts.Value{}, tc.name, &d)
		cancel()
		if d.HasError() || op.Timeout != tc.want {
			t.Errorf("%s: timeout %s (%v), want %s", tc.name, op.Timeout, d, tc.want)
		}
	}
}

// Every resource documents timeouts and each of its operations.
func TestTimeoutsSchemaDescriptions(t *testing.T) {
	ctx := context.Background()
	for _, r := range []fwresource.Resource{NewGateRulesResource(), NewReleasePipelineResource(), NewMetricSourceResource()} {
		var sr fwresource.SchemaResponse
		r.Schema(ctx, fwresource.SchemaRequest{}, &sr)
		a := sr.Schema.Attributes["timeouts"]
		if a == nil || a.GetMarkdownDescription() == "" || !a.IsOptional() || a.IsComputed() {
			t.Fatalf("%T: timeouts missing, undocumented or not optional-only", r)
		}
		for name, nested := range a.(rschema.SingleNestedAttribute).Attributes {
			if nested.GetMarkdownDescription() == "" {
				t.Errorf("%T: timeouts.%s has no MarkdownDescription", r, name)
			}
		}
	}
}
