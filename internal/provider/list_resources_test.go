// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/list"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// checkQueryWith runs fn after the query, for assertions on what the service was sent.
type checkQueryWith func() error

func (f checkQueryWith) CheckQuery(_ context.Context, _ querycheck.CheckQueryRequest, resp *querycheck.CheckQueryResponse) {
	resp.Error = f()
}

// queryTestCase runs query steps after a step applying provider: a query step runs with the
// configuration (.tf) files of the step before it beside its .tfquery.hcl file.
func queryTestCase(t *testing.T, provider string, steps ...resource.TestStep) resource.TestCase {
	steps = append([]resource.TestStep{{Config: provider}}, steps...)
	return resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   cliCan(featListResources),
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	}
}

func byGate(id string) queryfilter.QueryFilter {
	return queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"gate_id": knownvalue.StringExact(id)})
}

// The list resources on the seeded project: filters, display names, identities, include_resource built
// from the list pages, and paging that stops at the block's limit.
func TestAccListResources(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{PageSizeCap: 50})
	m.PutMetricSource(mockconsole.MetricSource{
		Name: "orders", SQL: "SELECT 1", TimestampColumn: "ts", Description: "Orders", Tags: []string{"finance"},
		IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}},
	})
	seedExampleMetric(m)
	m.PutMetric(mockconsole.Metric{Name: "purchases", Type: "event_count_custom", MetricEvents: []mockconsole.MetricEvent{{Name: "purchase"}}})
	// Metrics the resource cannot manage are left out: a type the service no longer creates, a name
	// it no longer accepts.
	m.PutMetric(mockconsole.Metric{Name: "legacy imports", Type: "import_window"})
	m.PutMetric(mockconsole.Metric{Name: "[LOCAL] Time Spent", Type: "sum", MetricEvents: []mockconsole.MetricEvent{{Name: "time_spent"}}})
	byMetric := func(id string) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"id": knownvalue.StringExact(id)})
	}
	resource.Test(t, queryTestCase(t, providerBlock(url),
		resource.TestStep{
			Query:     true,
			PreConfig: func() { m.ResetRequests() },
			Config: `
list "featureconsole_gate_rules" "with_rules" {
  provider = featureconsole
}

list "featureconsole_gate_rules" "tagged" {
  provider         = featureconsole
  include_resource = true
  config {
    tags          = ["web", "checkout"]
    include_empty = true
  }
}

list "featureconsole_gate_rules" "tagged_ui_without_empty" {
  provider = featureconsole
  config {
    tags = ["ui"]
  }
}

list "featureconsole_gate_rules" "everything" {
  provider = featureconsole
  limit    = 1000
  config {
    include_empty = true
  }
}

list "featureconsole_release_pipeline" "all" {
  provider         = featureconsole
  include_resource = true
}

list "featureconsole_metric_source" "all" {
  provider         = featureconsole
  include_resource = true
}

list "featureconsole_metric" "all" {
  provider         = featureconsole
  include_resource = true
}

list "featureconsole_metric" "events" {
  provider = featureconsole
  config {
    type = "event_count_custom"
  }
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				// new_checkout and search_v2 have rules; dark_mode and the 300 gate_NNN have none.
				querycheck.ExpectLength("featureconsole_gate_rules.with_rules", 2),
				querycheck.ExpectIdentity("featureconsole_gate_rules.with_rules", map[string]knownvalue.Check{"gate_id": knownvalue.StringExact("search_v2")}),
				querycheck.ExpectResourceDisplayName("featureconsole_gate_rules.with_rules", byGate("new_checkout"), knownvalue.StringExact("new_checkout")),
				querycheck.ExpectLength("featureconsole_gate_rules.tagged", 1),
				querycheck.ExpectResourceKnownValues("featureconsole_gate_rules.tagged", byGate("new_checkout"), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("gate_id"), KnownValue: knownvalue.StringExact("new_checkout")},
					{Path: tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("name"), KnownValue: knownvalue.StringExact("employees")},
					{Path: tfjsonpath.New("rules").AtSliceIndex(1).AtMapKey("pass_percentage"), KnownValue: knownvalue.NumberExact(big.NewFloat(12.5))},
					{Path: tfjsonpath.New("rules").AtSliceIndex(1).AtMapKey("conditions").AtSliceIndex(0).AtMapKey("target_numbers"),
						KnownValue: knownvalue.ListExact([]knownvalue.Check{knownvalue.NumberExact(big.NewFloat(18))})},
					{Path: tfjsonpath.New("rules").AtSliceIndex(1).AtMapKey("return_value"), KnownValue: knownvalue.StringExact(`{"color":"blue","size":3}`)},
					{Path: tfjsonpath.New("on_active_run"), KnownValue: knownvalue.StringExact("fail")},
				}),
				querycheck.ExpectLength("featureconsole_gate_rules.tagged_ui_without_empty", 0),
				querycheck.ExpectLength("featureconsole_gate_rules.everything", 303),
				querycheck.ExpectLength("featureconsole_release_pipeline.all", 3),
				querycheck.ExpectResourceDisplayName("featureconsole_release_pipeline.all",
					queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"pipeline_id": knownvalue.StringExact("pl_web")}), knownvalue.StringExact("Web rollout")),
				querycheck.ExpectResourceKnownValues("featureconsole_release_pipeline.all",
					queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"pipeline_id": knownvalue.StringExact("pl_web")}), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact("Web rollout")},
						{Path: tfjsonpath.New("phases").AtSliceIndex(0).AtMapKey("name"), KnownValue: knownvalue.StringExact("Canary")},
						{Path: tfjsonpath.New("phases").AtSliceIndex(0).AtMapKey("time_interval_ms"), KnownValue: knownvalue.Int64Exact(3600000)},
					}),
				querycheck.ExpectLength("featureconsole_metric_source.all", 1),
				querycheck.ExpectResourceKnownValues("featureconsole_metric_source.all",
					queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"name": knownvalue.StringExact("orders")}), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("sql"), KnownValue: knownvalue.StringExact("SELECT 1")},
						{Path: tfjsonpath.New("description"), KnownValue: knownvalue.StringExact("Orders")},
						{Path: tfjsonpath.New("id_type_mapping").AtSliceIndex(0).AtMapKey("column"), KnownValue: knownvalue.StringExact("user_id")},
					}),
				querycheck.ExpectLength("featureconsole_metric.all", 2),
				querycheck.ExpectLength("featureconsole_metric.events", 1),
				querycheck.ExpectResourceDisplayName("featureconsole_metric.events", byMetric("purchases::event_count_custom"), knownvalue.StringExact("purchases")),
				querycheck.ExpectResourceKnownValues("featureconsole_metric.all", byMetric("revenue::user_warehouse"), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact("revenue")},
					{Path: tfjsonpath.New("warehouse_native").AtMapKey("metric_source_name"), KnownValue: knownvalue.StringExact("orders")},
					{Path: tfjsonpath.New("status"), KnownValue: knownvalue.StringExact("active")},
					{Path: tfjsonpath.New("metric_events"), KnownValue: knownvalue.Null()},
				}),
				checkQueryWith(func() error {
					// No read of single objects: include_resource is built from the list pages.
					if n := m.CountRequests(http.MethodGet, "/gates/") + m.CountRequests(http.MethodGet, "/release_pipelines/") +
						m.CountRequests(http.MethodGet, "/metrics/revenue"); n != 0 {
						return fmt.Errorf("the query read %d single objects", n)
					}
					return nil
				}),
			},
		},
	))
}

// TestAccListResources_segments: the type filter, display names, a rule_based segment built from
// the list page, and an id_list segment whose ids (not on the list pages) are read page by page.
func TestAccListResources_segments(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	bySegment := func(id string) queryfilter.QueryFilter {
		return queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"segment_id": knownvalue.StringExact(id)})
	}
	resource.Test(t, queryTestCase(t, providerBlock(url),
		resource.TestStep{
			Query:     true,
			PreConfig: m.ResetRequests,
			Config: `
list "featureconsole_segment" "rules" {
  provider         = featureconsole
  include_resource = true
  config {
    type = "rule_based"
  }
}

list "featureconsole_segment" "lists" {
  provider         = featureconsole
  include_resource = true
  config {
    type = "id_list"
  }
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("featureconsole_segment.rules", 6),
				querycheck.ExpectLength("featureconsole_segment.lists", 6),
				querycheck.ExpectResourceDisplayName("featureconsole_segment.rules", bySegment("segment_04"), knownvalue.StringExact("segment_04")),
				querycheck.ExpectResourceKnownValues("featureconsole_segment.rules", bySegment("segment_04"), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("type"), KnownValue: knownvalue.StringExact("rule_based")},
					{Path: tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("name"), KnownValue: knownvalue.StringExact("segment_04 rule")},
					{Path: tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("pass_percentage"), KnownValue: knownvalue.NumberExact(big.NewFloat(12.5))},
					{Path: tfjsonpath.New("ids"), KnownValue: knownvalue.Null()},
				}),
				querycheck.ExpectResourceKnownValues("featureconsole_segment.lists", bySegment("segment_03"), []querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("type"), KnownValue: knownvalue.StringExact("id_list")},
					{Path: tfjsonpath.New("ids"), KnownValue: knownvalue.ListSizeExact(3 * 137)},
					{Path: tfjsonpath.New("rules"), KnownValue: knownvalue.Null()},
				}),
			},
		},
	))
}

// Terraform's limit stops the paging: 5 results of 303 gates cost one page, not seven.
func TestAccListResources_limitStopsPaging(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{PageSizeCap: 50})
	resource.Test(t, queryTestCase(t, providerBlock(url),
		resource.TestStep{
			Query:     true,
			PreConfig: func() { m.ResetRequests() },
			Config: `
list "featureconsole_gate_rules" "some" {
  provider = featureconsole
  limit    = 5
  config {
    include_empty = true
  }
}

list "featureconsole_release_pipeline" "one" {
  provider = featureconsole
  limit    = 1
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("featureconsole_gate_rules.some", 5),
				querycheck.ExpectLength("featureconsole_release_pipeline.one", 1),
				checkQueryWith(func() error {
					for _, p := range []string{"/gates", "/release_pipelines"} {
						if n := m.CountRequests(http.MethodGet, p); n != 1 {
							return fmt.Errorf("GET %s sent %d times, want 1", p, n)
						}
					}
					return nil
				}),
			},
		},
		// With a filter, pages are read until enough gates pass it, and no further: gate_001 and
		// gate_120 (pages 1 and 3 of 50) have rules, so a limit of 1 costs one page, a limit of 2 three.
		resource.TestStep{
			Query: true,
			PreConfig: func() {
				for _, id := range []string{"gate_001", "gate_120"} {
					g, _ := m.Gate(id)
					g.Rules = []mockconsole.Rule{{Name: "all", PassPercentage: 10}}
					m.PutGate(g)
				}
				m.ResetRequests()
			},
			Config: `
list "featureconsole_gate_rules" "with_rules" {
  provider = featureconsole
  limit    = 1
}

list "featureconsole_gate_rules" "two_with_rules" {
  provider = featureconsole
  limit    = 2
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("featureconsole_gate_rules.with_rules", 1),
				querycheck.ExpectIdentity("featureconsole_gate_rules.with_rules", map[string]knownvalue.Check{"gate_id": knownvalue.StringExact("gate_001")}),
				querycheck.ExpectLength("featureconsole_gate_rules.two_with_rules", 2),
				checkQueryWith(func() error {
					if n := m.CountRequests(http.MethodGet, "/gates"); n != 1+3 {
						return fmt.Errorf("GET /gates sent %d times, want 4 (1 for limit 1, 3 for limit 2)", n)
					}
					return nil
				}),
			},
		},
	))
}

// A failing list endpoint ends the query with the service's words.
func TestAccListResources_error(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	resource.Test(t, queryTestCase(t, providerBlock(url, "max_retries = 0"),
		resource.TestStep{
			Query:     true,
			PreConfig: func() { m.SetFaults(mockconsole.Faults{FailEvery: 1, ReadStatus: http.StatusForbidden}) },
			Config: `
list "featureconsole_metric_source" "all" {
  provider = featureconsole
}
`,
			ExpectError: regexp.MustCompile(`(?s)Unable to list metric sources.*403 Forbidden`),
		},
	))
}

func listTypeName(ctx context.Context, l list.ListResource) string {
	var resp fwresource.MetadataResponse
	l.Metadata(ctx, fwresource.MetadataRequest{ProviderTypeName: "featureconsole"}, &resp)
	return resp.TypeName
}

// Every list resource has a resource of the same name, as Terraform requires.
func TestListResources_namedAsResources(t *testing.T) {
	ctx := context.Background()
	p := newTestProvider()
	var resources []string
	for _, f := range p.Resources(ctx) {
		resources = append(resources, typeName(ctx, f()))
	}
	for _, f := range p.ListResources(ctx) {
		if name := listTypeName(ctx, f()); !slices.Contains(resources, name) {
			t.Errorf("list resource %s has no resource of that name", name)
		}
	}
	if n := len(p.ListResources(ctx)); n != len(resources) {
		t.Errorf("%d list resources for %d resources", n, len(resources))
	}
}

// The list resource examples run as terraform query against the seeded mock and find something.
func TestAccExamples_listResources(t *testing.T) {
	t.Parallel()
	for _, typ := range exampleTypeDirs(t, "list-resources") {
		t.Run(typ, func(t *testing.T) {
			query := readExample(t, filepath.Join("list-resources", typ, "list-resource.tfquery.hcl"))
			m := regexp.MustCompile(`(?m)^list "` + typ + `" "(\w+)"`).FindStringSubmatch(query)
			if m == nil {
				t.Fatalf("the example of %s holds no list block of that type", typ)
			}
			mock, url := startMock(t, mockconsole.Config{})
			mock.PutMetricSource(mockconsole.MetricSource{
				Name: "orders", SQL: "SELECT 1", TimestampColumn: "ts",
				IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}},
			})
			seedExampleExperiment(t, mock)
			seedExampleMetric(mock)
			// The app the key example lists the keys of, its key, a tag.
			app := mock.PutTargetApp(mockconsole.TargetApp{ID: "0a1b2c3d4e5f", Name: "web"})
			mock.PutKey(mockconsole.Key{Type: "SERVER", Description: "web backend", PrimaryTargetApp: &app})
			mock.PutTag(mockconsole.Tag{Name: "checkout_team"})
			resource.Test(t, queryTestCase(t, providerBlock(url), resource.TestStep{
				Query:             true,
				Config:            query,
				QueryResultChecks: []querycheck.QueryResultCheck{querycheck.ExpectLengthAtLeast(typ+"."+m[1], 1)},
			}))
		})
	}
}

// listStream sends the results that pass build, stops asking for pages at limit or when Terraform
// stops reading, and ends a failed listing with one error result.
func TestListStream(t *testing.T) {
	pages := [][]int{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
	run := func(limit int64, fail error, stopAfter int) (sent []string, pagesRead int, errs int) {
		fetch := func(fn func([]int) error) error {
			for _, p := range pages {
				pagesRead++
				if err := fn(p); err != nil {
					return err
				}
			}
			return fail
		}
		build := func(n int) (list.ListResult, bool) {
			return list.ListResult{DisplayName: string(rune('a' + n - 1))}, n%2 == 1 // odd numbers pass
		}
		for r := range listStream(t.Context(), limit, framework.APIFailure{Op: "list", Object: "things"}, fetch, build) {
			if r.Diagnostics.HasError() {
				errs++
				continue
			}
			sent = append(sent, r.DisplayName)
			if stopAfter > 0 && len(sent) == stopAfter {
				break
			}
		}
		return sent, pagesRead, errs
	}

	if sent, n, errs := run(0, nil, 0); len(sent) != 5 || n != 3 || errs != 0 {
		t.Errorf("no limit: sent %v from %d pages, %d errors", sent, n, errs)
	}
	if sent, n, _ := run(2, nil, 0); len(sent) != 2 || n != 1 {
		t.Errorf("limit 2: sent %v from %d pages, want 2 from 1 (a, c)", sent, n)
	}
	if sent, n, _ := run(3, nil, 0); len(sent) != 3 || n != 2 {
		t.Errorf("limit 3: sent %v from %d pages, want 3 from 2", sent, n)
	}
	if sent, n, _ := run(100, nil, 1); len(sent) != 1 || n != 1 {
		t.Errorf("Terraform stops reading: sent %v from %d pages, want 1 from 1", sent, n)
	}
	if sent, _, errs := run(0, errors.New("503"), 0); len(sent) != 5 || errs != 1 {
		t.Errorf("failed listing: sent %v, %d errors, want 5 and 1", sent, errs)
	}
}
