// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

const (
	revenueAddr   = "featureconsole_metric.revenue"
	purchasesAddr = "featureconsole_metric.purchases"
	revenueID     = "revenue::user_warehouse"
	purchasesID   = "purchases::event_count_custom"
)

// ordersSourceHCL is the metric source the warehouse-native metrics are computed from.
const ordersSourceHCL = `
resource "featureconsole_metric_source" "orders" {
  name             = "orders"
  sql              = "SELECT user_id, ts, amount FROM orders"
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
}
`

// revenueHCL is revenue per user on the source orders (by reference unless source says otherwise),
// with further attribute lines.
func revenueHCL(source string, lines ...string) string {
	if source == "" {
		source = "featureconsole_metric_source.orders.name"
	}
	return fmt.Sprintf(`
resource "featureconsole_metric" "revenue" {
  name           = "revenue"
  type           = "user_warehouse"
  description    = "revenue per user"
  directionality = "increase"
  tags           = ["checkout"]
  unit_types     = ["userID"]
  warehouse_native = {
    aggregation        = "sum"
    metric_source_name = %s
    value_column       = "amount"
    criteria           = [{ type = "value", column = "amount", condition = ">", values = ["0"] }]
  }
  %s
}
`, source, strings.Join(lines, "\n  "))
}

// purchasesHCL is an event metric, with further attribute lines.
func purchasesHCL(lines ...string) string {
	return fmt.Sprintf(`
resource "featureconsole_metric" "purchases" {
  name          = "purchases"
  type          = "event_count_custom"
  metric_events = [{ name = "purchase", criteria = [{ type = "metadata", column = "currency", condition = "in", values = ["EUR", "USD"] }] }]
  %s
}
`, strings.Join(lines, "\n  "))
}

// measuringExperimentHCL is an experiment that measures both metrics by reference.
const measuringExperimentHCL = `
resource "featureconsole_experiment" "checkout" {
  experiment_id = "tfacc_measured"
  groups = [
    { name = "Control", size = 50, parameter_values = jsonencode({ color = "grey" }) },
    { name = "Green",   size = 50, parameter_values = jsonencode({ color = "green" }) },
  ]
  primary_metrics   = [{ name = featureconsole_metric.revenue.name, type = featureconsole_metric.revenue.type }]
  secondary_metrics = [{ name = featureconsole_metric.purchases.name, type = featureconsole_metric.purchases.type, direction = "increase" }]
}
`

// wantRevenue is revenueHCL as the mock holds it.
func wantRevenue(description string) mockconsole.Metric {
	return mockconsole.Metric{ID: revenueID, Name: "revenue", Type: "user_warehouse", Description: description,
		Directionality: "increase", Tags: []string{"checkout"}, UnitTypes: []string{"userID"},
		WarehouseNative: &mockconsole.WarehouseNative{Aggregation: "sum", MetricSourceName: "orders", ValueColumn: "amount",
			Criteria: []mockconsole.MetricCriterion{{Type: "value", Column: "amount", Condition: ">", Values: []string{"0"}}}}}
}

// expectMockMetric checks that the mock holds want's definition under want.ID (the fields the
// service fills in itself are not compared).
func expectMockMetric(m *mockconsole.Server, want mockconsole.Metric) resource.TestCheckFunc {
	return expectInMock("metric", want.ID, m.Metric, func(got mockconsole.Metric) error {
		if diff := metricDefinitionDiff(got, want); diff != "" {
			return fmt.Errorf("metric %q: %s", want.ID, diff)
		}
		return nil
	})
}

func metricDefinitionDiff(got, want mockconsole.Metric) string {
	strip := func(x mockconsole.Metric) mockconsole.Metric {
		x.Lineage, x.CreatorName, x.CreatedTime = mockconsole.MetricLineage{}, "", 0
		x.Tags, x.UnitTypes = slices.Sorted(slices.Values(nonNil(x.Tags))), slices.Sorted(slices.Values(nonNil(x.UnitTypes)))
		if x.MetricEvents == nil {
			x.MetricEvents = []mockconsole.MetricEvent{}
		}
		if x.MetricComponentMetrics == nil {
			x.MetricComponentMetrics = []mockconsole.MetricRef{}
		}
		if x.FunnelEventList == nil {
			x.FunnelEventList = []mockconsole.FunnelEvent{}
		}
		b, _ := json.Marshal(x)
		var out mockconsole.Metric
		_ = json.Unmarshal(b, &out)
		return out
	}
	if g, w := strip(got), strip(want); !reflect.DeepEqual(g, w) {
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(w)
		return fmt.Sprintf("the mock holds\n%s\nwant\n%s", gb, wb)
	}
	return ""
}

// metricWrites are the writes of metrics the mock logged (dry runs left out), as "METHOD path".
func metricWrites(m *mockconsole.Server) []string {
	var out []string
	for _, r := range writes(m) {
		if strings.HasPrefix(r.Path, "/console/v1/metrics") && !strings.HasPrefix(r.Path, "/console/v1/metrics/metric_source") {
			out = append(out, r.Method+" "+strings.TrimPrefix(r.Path, "/console/v1"))
		}
	}
	return out
}

func expectMetricWrites(m *mockconsole.Server, want ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := metricWrites(m); !slices.Equal(got, want) {
			return fmt.Errorf("the metrics were written with %q, want %q", got, want)
		}
		return nil
	}
}

// Done when: a warehouse-native metric on a metric source and an event metric are created as
// written, an experiment measures them by reference, and every plan after is empty. One apply
// creates the source, the metrics and the experiment: the experiment only after the metrics it
// names (the mock refuses an experiment measuring a metric it lacks), and the revenue metric's dry
// run waits for apply, since its source is created in the same run. Destroy deletes both metrics.
func TestAccMetric_createdAsWritten(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	m.RefuseUnknownExperimentMetrics()
	cfg := providerBlock(url) + ordersSourceHCL + revenueHCL("") + purchasesHCL() + measuringExperimentHCL
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeTestCheckFunc(
			expectGoneFromMock("metric", revenueID, m.Metric), expectGoneFromMock("metric", purchasesID, m.Metric)),
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(revenueAddr, plancheck.ResourceActionCreate),
				plansOnly(revenueAddr, "id"),
				plansOnly(purchasesAddr, "id", "unit_types"),
				mockCheck(func() error {
					// The event metric was checked by the service at plan; the revenue metric waits for its source.
					var checked []string
					for _, r := range m.Requests() {
						if isDryRun(r) && r.Path == "/console/v1/metrics" {
							var body struct{ Name string }
							_ = json.Unmarshal(r.Body, &body)
							checked = append(checked, body.Name)
						}
					}
					if !slices.Equal(checked, []string{"purchases"}) {
						return fmt.Errorf("the plan's dry runs checked %q, want the purchases alone", checked)
					}
					return nil
				}),
			}},
			Check: resource.ComposeAggregateTestCheckFunc(
				expectMockMetric(m, wantRevenue("revenue per user")),
				expectMockMetric(m, mockconsole.Metric{ID: purchasesID, Name: "purchases", Type: "event_count_custom",
					Directionality: "increase", Tags: []string{}, UnitTypes: []string{"userID"},
					MetricEvents: []mockconsole.MetricEvent{{Name: "purchase", Criteria: []mockconsole.MetricCriterion{
						{Type: "metadata", Column: "currency", Condition: "in", Values: []string{"EUR", "USD"}}}}}}),
				resource.TestCheckResourceAttr(revenueAddr, "id", revenueID),
				resource.TestCheckResourceAttr(revenueAddr, "status", "active"),
				resource.TestCheckResourceAttr(purchasesAddr, "id", purchasesID),
				expectMockExperiment(m, "tfacc_measured", func(e mockconsole.Experiment) error {
					want := [][]mockconsole.ExperimentMetric{{{Name: "revenue", Type: "user_warehouse"}},
						{{Name: "purchases", Type: "event_count_custom", Direction: "increase"}}}
					if got := [][]mockconsole.ExperimentMetric{e.PrimaryMetrics, e.SecondaryMetrics}; !reflect.DeepEqual(got, want) {
						return fmt.Errorf("the experiment measures %+v, want %+v", got, want)
					}
					return nil
				}),
			),
		}},
	})
}

// Done when: a metric source the service lacks, an aggregation it does not know, a user_warehouse
// metric without warehouse_native and a name with "::" each fail at plan, as does every other value
// the document does not list and every shape a type cannot have, with the attribute named; nothing
// is sent but the dry run that finds the source missing.
func TestAccMetric_planChecks(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	metric := func(name, typ, body string) string {
		return fmt.Sprintf(`
resource "featureconsole_metric" "bad" {
  name = %q
  type = %q
  %s
}
`, name, typ, body)
	}
	warehouse := func(aggregation, extra string) string {
		return fmt.Sprintf(`warehouse_native = { aggregation = %q, metric_source_name = "orders" %s }`, aggregation, extra)
	}
	events := `metric_events = [{ name = "purchase" }]`
	w := func(parts ...string) string { return wrapped(parts...).String() }
	planFailsSendingNothing(t, m, url, []struct{ config, want string }{
		{metric("revenue", "user_warehouse", warehouse("summ", "")),
			w("Unknown aggregation", "warehouse_native.aggregation: unknown aggregation \"summ\". Did you mean \"sum\"?")},
		{metric("revenue", "user_warehouse", ""), w("Missing a metric source in the warehouse", "set warehouse_native")},
		{metric("rev::enue", "user_warehouse", warehouse("sum", "")), w("Name holds \"::\"", "a metric's name cannot hold it")},
		{metric("revenue", "user_warehousе", warehouse("sum", "")), w("Unknown metric type", "type: unknown metric type")},
		{metric("revenue", "event_count", events), w("Unknown metric type", `unknown metric type "event_count". The service's document lists these metric types: event_count_custom,`)},
		{metric("revenue", "user_warehouse", warehouse("sum", `, criteria = [{ type = "value", column = "amount", condition = "gt" }]`)),
			w("Unknown criterion condition", "warehouse_native.criteria[0].condition")},
		{metric("revenue", "user_warehouse", warehouse("sum", `, criteria = [{ type = "row", condition = "=" }]`)),
			w("Unknown criterion type", "warehouse_native.criteria[0].type")},
		{metric("revenue", "user_warehouse", warehouse("sum", `, denominator_aggregation = "total"`)),
			w("Unknown aggregation", "warehouse_native.denominator_aggregation")},
		{metric("purchases", "sum", events+"\n  directionality = \"up\""), w("Unknown directionality", "directionality: unknown directionality \"up\"")},
		{metric("purchases", "sum", `metric_events = [{ name = "purchase", type = "counted" }]`), w("Unknown metric event type", "metric_events[0].type")},
		{metric("purchases", "event_count_custom", ""), w("Missing events", "set metric_events")},
		{metric("purchases", "event_user", events+"\n  "+warehouse("sum", "")), w("Not for type event_user", "warehouse_native is only for metrics of type \"user_warehouse\"")},
		{metric("revenue", "user_warehouse", warehouse("sum", "")+"\n  "+events), w("Not for type user_warehouse", "metric_events is only for")},
		{metric("blend", "composite", ""), w("Missing other metrics", "set metric_component_metrics")},
		{metric("steps", "funnel", `funnel_events = [{ name = "view", type = "event_views" }]`), w("Unknown funnel event type", "funnel_events[0].type")},
		{metric("rev", "sum", events), w("Invalid length", "name must be 4 to 100 characters")},
		{metric("    ", "sum", events), w("Blank name", "name must not be blank")},
		{metric("revenue (EUR)", "sum", events), w("Character the service does not accept", "'('")},
		{metric("purchases", "sum", "metric_events = []"), w("metric_events list must contain at least 1")},
	})
	if ids := m.MetricIDs(); len(ids) != 0 {
		t.Fatalf("the mock holds metrics %v", ids)
	}
}

// Done when: a metric source the service lacks fails the plan, by the service's dry run, at the
// attribute that names it, for a new metric and for a change of one; nothing but dry runs is sent,
// and the metric is left as it was.
func TestAccMetric_missingSource(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	m.PutMetricSource(mockconsole.MetricSource{Name: "orders", SQL: "SELECT 1", TimestampColumn: "ts",
		IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}}})
	onlyDryRuns := func() error {
		for _, r := range m.Requests() {
			if r.Method != http.MethodGet && !isDryRun(r) {
				return fmt.Errorf("sent %s %s", r.Method, r.Path)
			}
		}
		if dryRuns(m) == 0 {
			return fmt.Errorf("no dry run was sent")
		}
		return nil
	}
	missing := wrapped(`Metric "revenue::user_warehouse" names a metric source the console does not have`,
		`400 Bad Request: Metric source "nowhere" not found`, `featureconsole_metric_source.<name>.name`)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectGoneFromMock("metric", revenueID, m.Metric),
		Steps: []resource.TestStep{
			{PreConfig: m.ResetRequests, Config: providerBlock(url) + revenueHCL(`"nowhere"`), PlanOnly: true, ExpectError: missing},
			{
				PreConfig: func() {
					if err := onlyDryRuns(); err != nil {
						t.Fatal(err)
					}
				},
				Config: providerBlock(url) + revenueHCL(`"orders"`),
				Check:  expectMockMetric(m, wantRevenue("revenue per user")),
			},
			{PreConfig: m.ResetRequests, Config: providerBlock(url) + revenueHCL(`"nowhere"`), ExpectError: missing},
			{
				PreConfig: func() {
					if err := onlyDryRuns(); err != nil {
						t.Fatal(err)
					}
				},
				Config: providerBlock(url) + revenueHCL(`"orders"`), PlanOnly: true,
				Check: expectMockMetric(m, wantRevenue("revenue per user")),
			},
		},
	})
}

// Done when: a description change is one write (the plan changes the description alone); a change
// made in the console shows in the plan as what it is, and apply puts it back; a change of the name
// or the type replaces the metric; a change of what only the provider holds sends nothing.
func TestAccMetric_updateAndDrift(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	m.PutMetricSource(mockconsole.MetricSource{Name: "orders", SQL: "SELECT 1", TimestampColumn: "ts",
		IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}}})
	cfg := func(description string, lines ...string) string {
		return providerBlock(url) + strings.Replace(revenueHCL(`"orders"`, lines...), "revenue per user", description, 1)
	}
	renamed := func(lines ...string) string {
		return strings.Replace(cfg("revenue per paying user", lines...), `name           = "revenue"`, `name           = "revenue_eur"`, 1)
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg("revenue per user"), Check: expectMockMetric(m, wantRevenue("revenue per user"))},
			{
				PreConfig: m.ResetRequests,
				Config:    cfg("revenue per paying user"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(revenueAddr, plancheck.ResourceActionUpdate),
					plansOnly(revenueAddr, "description"),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectMockMetric(m, wantRevenue("revenue per paying user")),
					expectMetricWrites(m, "POST /metrics/"+revenueID),
				),
			},
			{
				// Changed in the console: the plan shows the aggregation and the tags as they are there.
				PreConfig: func() {
					got, _ := m.Metric(revenueID)
					got.WarehouseNative.Aggregation = "mean"
					got.Tags = []string{"checkout", "console"}
					m.PutMetric(got)
					m.ResetRequests()
				},
				Config: cfg("revenue per paying user"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plansOnly(revenueAddr, "tags", "warehouse_native.aggregation"),
					expectBefore(revenueAddr, "warehouse_native.aggregation", "mean"),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectMockMetric(m, wantRevenue("revenue per paying user")),
					expectMetricWrites(m, "POST /metrics/"+revenueID),
				),
			},
			{
				Config: strings.Replace(renamed(), `name           = "revenue"`, `name           = "revenue_eur"`, 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(revenueAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(revenueAddr, "id", "revenue_eur::user_warehouse"),
					expectGoneFromMock("metric", revenueID, m.Metric),
				),
			},
			{
				// archive_on_destroy and validate_on_plan are the provider's: nothing is sent.
				PreConfig: m.ResetRequests,
				Config:    renamed("archive_on_destroy = true", "validate_on_plan = false"),
				Check:     expectMetricWrites(m),
			},
		},
	})
}

// expectBefore checks the value of an attribute (a dotted path) that the plan changes, as the
// refreshed state holds it: what the plan shows it changes from.
func expectBefore(addr, at string, want any) plancheck.PlanCheck {
	return beforeCheck{addr, at, want}
}

type beforeCheck struct {
	addr, at string
	want     any
}

func (c beforeCheck) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr || rc.Change == nil {
			continue
		}
		v := rc.Change.Before
		for _, step := range strings.Split(c.at, ".") {
			obj, _ := v.(map[string]any)
			v = obj[step]
		}
		if !reflect.DeepEqual(v, c.want) {
			resp.Error = fmt.Errorf("%s: the plan changes %s from %v, want from %v", c.addr, c.at, v, c.want)
		}
		return
	}
	resp.Error = fmt.Errorf("%s: not in the plan", c.addr)
}

// Done when: destroy schedules the archive with archive_on_destroy, and a metric scheduled for
// archive or archived shows as such in the plan; apply cancels the archive, or unarchives the
// metric before any other write of it.
func TestAccMetric_archive(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	cfg := func(lines ...string) string {
		return providerBlock(url) + purchasesHCL(append(lines, "archive_on_destroy = true")...)
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			got, ok := m.Metric(purchasesID)
			if !ok || got.ScheduledArchiveTime == nil || got.IsArchived {
				return fmt.Errorf("destroy did not schedule the archive: %+v (held: %v)", got, ok)
			}
			if w := metricWrites(m); !slices.Equal(w, []string{"PUT /metrics/" + purchasesID + "/schedule_archive"}) {
				return fmt.Errorf("destroy wrote %q", w)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: cfg(), Check: resource.TestCheckResourceAttr(purchasesAddr, "status", "active")},
			{
				// Scheduled in the console: the plan shows it, and apply calls it off.
				PreConfig: func() {
					m.ScheduleMetricArchive(purchasesID)
					m.ResetRequests()
				},
				Config: cfg(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plansOnly(purchasesAddr, "status"),
					expectBefore(purchasesAddr, "status", "archive_scheduled"),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(purchasesAddr, "status", "active"),
					expectMetricWrites(m, "PUT /metrics/"+purchasesID+"/cancel_archive"),
					expectInMock("metric", purchasesID, m.Metric, func(got mockconsole.Metric) error {
						if got.ScheduledArchiveTime != nil {
							return fmt.Errorf("still scheduled")
						}
						return nil
					}),
				),
			},
			{
				// Archived (the day after it was scheduled): the plan shows it with the change of the
				// configuration, and apply unarchives it before writing the change.
				PreConfig: func() {
					m.ArchiveMetricNow(purchasesID)
					m.ResetRequests()
				},
				Config: cfg(`description = "purchases per user"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plansOnly(purchasesAddr, "status", "description"),
					expectBefore(purchasesAddr, "status", "archived"),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(purchasesAddr, "status", "active"),
					expectMetricWrites(m, "PUT /metrics/"+purchasesID+"/unarchive", "POST /metrics/"+purchasesID),
				),
			},
			{PreConfig: m.ResetRequests, Config: cfg(`description = "purchases per user"`), Destroy: true},
		},
	})
}

// The data source reads a metric by id, archived or not; one that does not exist is an error that
// says what a metric's id is.
func TestAccMetric_dataSource(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	seedExampleMetric(m)
	m.ArchiveMetricNow(revenueID)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + `
data "featureconsole_metric" "revenue" {
  id = "revenue::user_warehouse"
}
`,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("data.featureconsole_metric.revenue", "name", "revenue"),
					resource.TestCheckResourceAttr("data.featureconsole_metric.revenue", "status", "archived"),
					resource.TestCheckResourceAttr("data.featureconsole_metric.revenue", "warehouse_native.metric_source_name", "orders"),
					resource.TestCheckResourceAttr("data.featureconsole_metric.revenue", "description", "Revenue per user"),
				),
			},
			{
				Config: providerBlock(url) + `
data "featureconsole_metric" "gone" {
  id = "revenue::sum"
}
`,
				ExpectError: wrapped(`Metric "revenue::sum" not found`, `"<name>::<type>"`),
			},
		},
	})
}

// A metric as the listing's example shows one: an id that is not its name's, an event without a
// type, an empty list of criteria and a criterion's empty column. The id is read, never made from
// the name; what is empty reads as none.
func TestFlattenMetricDocumentedForms(t *testing.T) {
	var obj console.Metric
	if err := json.Unmarshal([]byte(`{"id":"___RENAME_FAILED___::composite_sum","name":"rename_test_success","type":"composite_sum",
		"directionality":"increase","tags":["dashboard_test"],"team":null,"unitTypes":["userID"],
		"metricEvents":[{"name":"add_to_cart","criteria":[{"type":"value","column":"","condition":"in","values":["sports"]}]},{"name":"view","criteria":[]}],
		"metricComponentMetrics":[{"name":"add_to_cart_games","type":"event_count_custom"}]}`), &obj); err != nil {
		t.Fatal(err)
	}
	var m metricFields
	flattenMetric(&obj, &m)
	if m.ID.ValueString() != "___RENAME_FAILED___::composite_sum" || m.Name.ValueString() != "rename_test_success" {
		t.Errorf("id %s, name %s", m.ID, m.Name)
	}
	if m.Description.ValueString() != "" || !m.Team.IsNull() || m.Status.ValueString() != "active" || !m.WarehouseNative.IsNull() {
		t.Errorf("description %s, team %s, status %s, warehouse %s", m.Description, m.Team, m.Status, m.WarehouseNative)
	}
	events, d := listModelsOf[metricEventModel](m.MetricEvents)
	if d.HasError() || len(events) != 2 || !events[0].Type.IsNull() || !events[1].Criteria.IsNull() {
		t.Fatalf("events %v (%v)", m.MetricEvents, d)
	}
	criteria, _ := listModelsOf[metricCriterionModel](events[0].Criteria)
	if len(criteria) != 1 || !criteria[0].Column.IsNull() || criteria[0].Condition.ValueString() != "in" {
		t.Errorf("criteria %v", events[0].Criteria)
	}
	// What the configuration generated from it would write is what the service holds.
	f, diags := expandMetric(context.Background(), m)
	if diags.HasError() || !sameMetricFields(f, metricFieldsOf(context.Background(), &obj)) {
		t.Errorf("round trip: %+v (%v)", f, diags)
	}
}

func listModelsOf[T any](l types.List) ([]T, diag.Diagnostics) {
	return framework.ListModels[T](context.Background(), l)
}

// A read without a description keeps the one in state (the document's metric has none); with one,
// the service's word stands.
func TestFlattenMetricDescription(t *testing.T) {
	m := metricFields{Description: types.StringValue("revenue per user")}
	flattenMetric(&console.Metric{ID: "r::sum", Name: "r", Type: "sum"}, &m)
	if m.Description.ValueString() != "revenue per user" {
		t.Errorf("kept %s", m.Description)
	}
	flattenMetric(&console.Metric{ID: "r::sum", Name: "r", Type: "sum", Description: new("changed")}, &m)
	if m.Description.ValueString() != "changed" {
		t.Errorf("read %s", m.Description)
	}
	var imported metricFields
	flattenMetric(&console.Metric{ID: "r::sum", Name: "r", Type: "sum"}, &imported)
	if imported.Description.ValueString() != "" || imported.ID.ValueString() != "r::sum" {
		t.Errorf("imported %s %s", imported.Description, imported.ID)
	}
}

// Two bodies are the same by meaning: tags and unit types in any order, absent fields as the
// service's defaults; a create answered without a description, or without the unit types the
// configuration left to the service, holds what was sent.
func TestSameMetricFields(t *testing.T) {
	a := console.MetricFields{Name: "r", Type: "sum", Tags: []string{"b", "a"}, UnitTypes: []string{"stableID", "userID"}, Team: new("")}
	b := console.MetricFields{Tags: []string{"a", "b"}, UnitTypes: []string{"userID", "stableID"}, Directionality: "increase",
		Description: new(""), IsVerified: new(false)}
	if !sameMetricFields(a, b) {
		t.Error("the same metric compared different")
	}
	b.Description = new("x")
	if sameMetricFields(a, b) {
		t.Error("a description change compared the same")
	}
	sent := console.MetricFields{Name: "r", Type: "sum", Description: new("d"), Directionality: "increase", Tags: []string{},
		MetricEvents: []console.MetricEvent{{Name: "purchase"}}}
	got := &console.Metric{ID: "r::sum", Name: "r", Type: "sum", Directionality: "increase", UnitTypes: []string{"userID"},
		MetricEvents: []console.MetricEvent{{Name: "purchase"}}}
	if !metricHolds(context.Background(), got, sent) {
		t.Error("a create read back without a description does not hold what was sent")
	}
	got.MetricEvents[0].Name = "refund"
	if metricHolds(context.Background(), got, sent) {
		t.Error("another metric holds what was sent")
	}
}

func TestMetricNameAccepted(t *testing.T) {
	for name, want := range map[string]bool{"revenue": true, "Revenue per user_2-b": true, "rev": false, "    ": false,
		"a::b c": false, "[LOCAL] Time Spent": false, "revenue (EUR)": false} {
		if got := metricNameAccepted(name); got != want {
			t.Errorf("%q accepted %v, want %v", name, got, want)
		}
	}
}
