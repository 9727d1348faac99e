// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

const msAddr = "featureconsole_metric_source.orders"

// committedWrites are the mutating requests that could change the mock's state.
func committedWrites(m *mockconsole.Server) []string {
	var out []string
	for _, r := range m.Requests() {
		if r.Method != http.MethodGet && !isDryRun(r) {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}

func noCommittedWrites(m *mockconsole.Server) error {
	if w := committedWrites(m); len(w) > 0 {
		return fmt.Errorf("expected no mutating request, got %v", w)
	}
	return nil
}

// apiOwnerValue is the owner a source created through the API reads with after apply: none, or
// the API key's where the service fills it in later (the live service).
func apiOwnerValue(m *mockconsole.Server) knownvalue.Check {
	o := m.APIOwner()
	if o == nil {
		return knownvalue.Null()
	}
	return knownvalue.ObjectPartial(map[string]knownvalue.Check{
		"owner_type": knownvalue.StringExact(o.OwnerType), "owner_name": knownvalue.StringExact(o.OwnerName),
	})
}

// expectMockSource checks that the mock holds exactly want under want.Name.
func expectMockSource(m *mockconsole.Server, want mockconsole.MetricSource) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, ok := m.MetricSource(want.Name)
		if !ok {
			return fmt.Errorf("metric source %q not in the mock; it holds %v", want.Name, m.MetricSourceNames())
		}
		if want.Owner == nil {
			want.Owner = m.APIOwner() // a service that fills in the owner of sources created through the API
		}
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			return fmt.Errorf("mock holds\n%s\nwant\n%s", g, w)
		}
		return nil
	}
}

func expectMockSourceNames(m *mockconsole.Server, names ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got := m.MetricSourceNames()
		if len(names) == 0 && len(got) == 0 {
			return nil
		}
		if !reflect.DeepEqual(got, names) {
			return fmt.Errorf("mock holds metric sources %v, want %v", got, names)
		}
		return nil
	}
}

func mockWithoutSources(t *testing.T) (*mockconsole.Server, string) {
	t.Helper()
	m, url := startMock(t, mockconsole.Config{})
	for _, n := range m.MetricSourceNames() {
		m.DeleteMetricSource(n)
	}
	return m, url
}

const msFullConfig = `
resource "featureconsole_metric_source" "orders" {
  name             = "orders"
  sql              = "SELECT user_id, ts, amount FROM orders"
  timestamp_column = "ts"
  id_type_mapping = [
    { service_unit_id = "userID", column = "user_id" },
    { service_unit_id = "stableID", column = "device_id" },
  ]
  description           = "Orders table"
  tags                  = ["finance", "core"]
  timestamp_as_day      = true
  source_type           = "query"
  table_name            = "orders_tbl"
  date_partition_column = "ds"
  custom_field_mapping  = [{ key = "revenue", formula = "amount * 100" }]
  is_read_only          = true
  is_verified           = true
  team                  = "Payments"
  team_id               = "team_42"
  validate_on_plan      = true
}
`

func strp(s string) *string { return &s }

var msFullWant = mockconsole.MetricSource{
	Name:            "orders",
	SQL:             "SELECT user_id, ts, amount FROM orders",
	TimestampColumn: "ts",
	IDTypeMapping: []mockconsole.IDTypeMapping{
		{ServiceUnitID: "userID", Column: "user_id"},
		{ServiceUnitID: "stableID", Column: "device_id"},
	},
	Description:         "Orders table",
	Tags:                []string{"finance", "core"},
	TimestampAsDay:      true,
	SourceType:          "query",
	TableName:           "orders_tbl",
	DatePartitionColumn: "ds",
	CustomFieldMapping:  []mockconsole.CustomFieldMapping{{Key: "revenue", Formula: "amount * 100"}},
	IsReadOnly:          true,
	IsVerified:          true,
	Team:                strp("Payments"),
	TeamID:              strp("team_42"),
}

// msUpdatedConfig changes fields in place and drops the optional ones back to their defaults.
const msUpdatedConfig = `
resource "featureconsole_metric_source" "orders" {
  name             = "orders"
  sql              = "SELECT user_id, ts, amount, currency FROM orders"
  timestamp_column = "created_at"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
  description      = "Orders, with currency"
  tags             = ["finance"]
}
`

var msUpdatedWant = mockconsole.MetricSource{
	Name:               "orders",
	SQL:                "SELECT user_id, ts, amount, currency FROM orders",
	TimestampColumn:    "created_at",
	IDTypeMapping:      []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}},
	Description:        "Orders, with currency",
	Tags:               []string{"finance"},
	SourceType:         "query",
	CustomFieldMapping: []mockconsole.CustomFieldMapping{},
}

func TestAccMetricSource_lifecycle(t *testing.T) {
	m, url := mockWithoutSources(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectMockSourceNames(m),
		Steps: []resource.TestStep{
			{
				// Create with every optional field; the plan validated it with a dry run only.
				PreConfig: m.ResetRequests,
				Config:    providerBlock(url) + msFullConfig,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(msAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(msAddr, tfjsonpath.New("id"), knownvalue.StringExact("orders")),
					plancheck.ExpectUnknownValue(msAddr, tfjsonpath.New("owner")),
					mockCheck(func() error {
						if dryRuns(m) != 1 {
							return fmt.Errorf("want 1 dry run at plan, got %d", dryRuns(m))
						}
						return noCommittedWrites(m)
					}),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(msAddr, tfjsonpath.New("id"), knownvalue.StringExact("orders")),
					statecheck.ExpectKnownValue(msAddr, tfjsonpath.New("tags"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("finance"), knownvalue.StringExact("core")})),
					statecheck.ExpectKnownValue(msAddr, tfjsonpath.New("custom_field_mapping").AtSliceIndex(0).AtMapKey("formula"), knownvalue.StringExact("amount * 100")),
					statecheck.ExpectKnownValue(msAddr, tfjsonpath.New("team_id"), knownvalue.StringExact("team_42")),
					statecheck.ExpectKnownValue(msAddr, tfjsonpath.New("owner"), apiOwnerValue(m)),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectMockSource(m, msFullWant),
					func(*terraform.State) error {
						if n := m.CountRequests(http.MethodPost, "/metrics/metric_source") - dryRuns(m); n != 1 {
							return fmt.Errorf("want exactly one committed create, got %d", n)
						}
						return nil
					},
				),
			},
			{
				// Re-plan is empty, and a plan with nothing to change sends only GETs (no dry run).
				PreConfig: m.ResetRequests,
				Config:    providerBlock(url) + msFullConfig,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
					mockCheck(func() error {
						for _, r := range m.Requests() {
							if r.Method != http.MethodGet {
								return fmt.Errorf("an empty plan sent %s %s", r.Method, r.Path)
							}
						}
						return nil
					}),
				}},
			},
			{
				// A refresh sends only the read.
				PreConfig:    m.ResetRequests,
				RefreshState: true,
				Check: func(*terraform.State) error {
					for _, r := range m.Requests() {
						if r.Method != http.MethodGet {
							return fmt.Errorf("a refresh sent %s %s", r.Method, r.Path)
						}
					}
					if m.CountRequests(http.MethodGet, "/metrics/metric_source/orders") == 0 {
						return errors.New("a refresh sent no read")
					}
					return nil
				},
			},
			{
				// Update in place, dropping optional fields back to their defaults.
				PreConfig: m.ResetRequests,
				Config:    providerBlock(url) + msUpdatedConfig,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(msAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(msAddr, tfjsonpath.New("team"), knownvalue.Null()),
					plancheck.ExpectKnownValue(msAddr, tfjsonpath.New("custom_field_mapping"), knownvalue.ListSizeExact(0)),
					mockCheck(func() error {
						if dryRuns(m) != 1 {
							return fmt.Errorf("want 1 dry run at plan, got %d", dryRuns(m))
						}
						for _, r := range m.Requests() {
							if isDryRun(r) && r.Path != "/console/v1/metrics/metric_source/orders" {
								return fmt.Errorf("an update must be validated with the update endpoint, got %s", r.Path)
							}
						}
						return noCommittedWrites(m)
					}),
				}},
				Check: expectMockSource(m, msUpdatedWant),
			},
			{
				// Import by name gives back the same state.
				ResourceName:      msAddr,
				ImportState:       true,
				ImportStateId:     "orders",
				ImportStateVerify: true,
			},
			{
				// Renaming replaces: the old source is deleted, the new one created.
				Config: providerBlock(url) + strings.Replace(msUpdatedConfig, `name             = "orders"`, `name             = "orders_v2"`, 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(msAddr, plancheck.ResourceActionReplace),
					plancheck.ExpectKnownValue(msAddr, tfjsonpath.New("id"), knownvalue.StringExact("orders_v2")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(msAddr, tfjsonpath.New("id"), knownvalue.StringExact("orders_v2")),
				},
				Check: expectMockSourceNames(m, "orders_v2"),
			},
		},
	})
}

const msMinimalConfig = `
resource "featureconsole_metric_source" "orders" {
  name             = "orders"
  sql              = "SELECT user_id, ts FROM orders"
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
}
`

func TestAccMetricSource_minimalDefaults(t *testing.T) {
	m, url := mockWithoutSources(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectMockSourceNames(m),
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + msMinimalConfig,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(msAddr, tfjsonpath.New("description"), knownvalue.StringExact("")),
					statecheck.ExpectKnownValue(msAddr, tfjsonpath.New("tags"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue(msAddr, tfjsonpath.New("timestamp_as_day"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(msAddr, tfjsonpath.New("source_type"), knownvalue.StringExact("query")),
					statecheck.ExpectKnownValue(msAddr, tfjsonpath.New("table_name"), knownvalue.StringExact("")),
					statecheck.ExpectKnownValue(msAddr, tfjsonpath.New("is_read_only"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(msAddr, tfjsonpath.New("team"), knownvalue.Null()),
					statecheck.ExpectKnownValue(msAddr, tfjsonpath.New("validate_on_plan"), knownvalue.Bool(true)),
				},
				Check: expectMockSource(m, mockconsole.MetricSource{
					Name: "orders", SQL: "SELECT user_id, ts FROM orders", TimestampColumn: "ts",
					IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}},
					Tags:          []string{}, SourceType: "query", CustomFieldMapping: []mockconsole.CustomFieldMapping{},
				}),
			},
			{
				// Turning the dry run off is provider-side: an in-place change that sends nothing.
				PreConfig: m.ResetRequests,
				Config:    providerBlock(url) + strings.Replace(msMinimalConfig, "\n}", "\n  validate_on_plan = false\n}", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(msAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					if dryRuns(m) != 0 {
						return fmt.Errorf("want no dry run, got %d", dryRuns(m))
					}
					return noCommittedWrites(m)
				},
			},
			{
				// A table source.
				Config: providerBlock(url) + `
resource "featureconsole_metric_source" "orders" {
  name                  = "orders"
  sql                   = "orders"
  timestamp_column      = "ts"
  id_type_mapping       = [{ service_unit_id = "userID", column = "user_id" }]
  source_type           = "table"
  table_name            = "warehouse.orders"
  date_partition_column = "ds"
}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(msAddr, plancheck.ResourceActionUpdate),
				}},
				Check: expectMockSource(m, mockconsole.MetricSource{
					Name: "orders", SQL: "orders", TimestampColumn: "ts",
					IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}},
					Tags:          []string{}, SourceType: "table", TableName: "warehouse.orders", DatePartitionColumn: "ds",
					CustomFieldMapping: []mockconsole.CustomFieldMapping{},
				}),
			},
			{
				ResourceName:      msAddr,
				ImportState:       true,
				ImportStateId:     "orders",
				ImportStateVerify: true,
			},
		},
	})
}

func TestAccMetricSource_localValidation(t *testing.T) {
	m, url := mockWithoutSources(t)
	cases := map[string]struct {
		body string
		want []string
	}{
		"table without table_name": {
			body: `name = "t"
  sql = "t"
  timestamp_column = "ts"
  id_type_mapping = [{ service_unit_id = "userID", column = "user_id" }]
  source_type = "table"`,
			want: []string{"Missing table name", `table_name is required when source_type is "table"`},
		},
		"blank table_name": {
			body: `name = "t"
  sql = "t"
  timestamp_column = "ts"
  id_type_mapping = [{ service_unit_id = "userID", column = "user_id" }]
  source_type = "table"
  table_name = "  "`,
			want: []string{"Missing table name", `table_name is required when source_type is "table"`},
		},
		"unknown source_type": {
			body: `name = "t"
  sql = "SELECT 1"
  timestamp_column = "ts"
  id_type_mapping = [{ service_unit_id = "userID", column = "user_id" }]
  source_type = "view"`,
			want: []string{`source_type value must be one of`},
		},
		"empty sql": {
			body: `name = "t"
  sql = ""
  timestamp_column = "ts"
  id_type_mapping = [{ service_unit_id = "userID", column = "user_id" }]`,
			want: []string{"sql must not be empty"},
		},
		"empty timestamp_column": {
			body: `name = "t"
  sql = "SELECT 1"
  timestamp_column = " "
  id_type_mapping = [{ service_unit_id = "userID", column = "user_id" }]`,
			want: []string{"timestamp_column must not be empty"},
		},
		"no mappings": {
			body: `name = "t"
  sql = "SELECT 1"
  timestamp_column = "ts"
  id_type_mapping = []`,
			want: []string{"id_type_mapping list must contain at least 1"},
		},
		"empty mapping column": {
			body: `name = "t"
  sql = "SELECT 1"
  timestamp_column = "ts"
  id_type_mapping = [{ service_unit_id = "userID", column = "" }]`,
			want: []string{"id_type_mapping[0].column must not be empty"},
		},
		"empty name": {
			body: `name = ""
  sql = "SELECT 1"
  timestamp_column = "ts"
  id_type_mapping = [{ service_unit_id = "userID", column = "user_id" }]`,
			want: []string{"Attribute name must not be empty"},
		},
	}
	var steps []resource.TestStep
	for name, c := range cases {
		steps = append(steps, resource.TestStep{
			PreConfig: func() { t.Log(name) },
			Config: providerBlock(url) + `
resource "featureconsole_metric_source" "orders" {
  ` + c.body + `
}
`,
			PlanOnly:    true,
			ExpectError: wrapped(c.want...),
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
	if r := m.Requests(); len(r) != 0 {
		t.Fatalf("invalid configurations sent %d request(s), first %s %s", len(r), r[0].Method, r[0].Path)
	}
}

func TestAccMetricSource_drift(t *testing.T) {
	m, url := mockWithoutSources(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectMockSourceNames(m),
		Steps: []resource.TestStep{
			{Config: providerBlock(url) + msFullConfig},
			{
				// Deleted outside Terraform: the plan recreates it.
				PreConfig: func() { m.DeleteMetricSource("orders") },
				Config:    providerBlock(url) + msFullConfig,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(msAddr, plancheck.ResourceActionCreate),
				}},
				Check: expectMockSource(m, msFullWant),
			},
			{
				// Changed outside Terraform (and given an owner): the plan reverts the change in place.
				PreConfig: func() {
					src, _ := m.MetricSource("orders")
					src.SQL = "SELECT * FROM orders_copy"
					src.Tags = nil
					src.Team = nil
					src.Owner = &mockconsole.Owner{OwnerID: "u1", OwnerType: "USER", OwnerName: "Ada", OwnerEmail: "ada@example.com"}
					m.PutMetricSource(src)
				},
				Config: providerBlock(url) + msFullConfig,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(msAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(msAddr, tfjsonpath.New("sql"), knownvalue.StringExact("SELECT user_id, ts, amount FROM orders")),
					plancheck.ExpectKnownValue(msAddr, tfjsonpath.New("owner").AtMapKey("owner_name"), knownvalue.StringExact("Ada")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(msAddr, tfjsonpath.New("owner").AtMapKey("owner_email"), knownvalue.StringExact("ada@example.com")),
				},
				Check: func(s *terraform.State) error {
					want := msFullWant
					want.Owner = &mockconsole.Owner{OwnerID: "u1", OwnerType: "USER", OwnerName: "Ada", OwnerEmail: "ada@example.com"}
					return expectMockSource(m, want)(s)
				},
			},
		},
	})
}

func TestAccMetricSource_existingSourceNotTakenOver(t *testing.T) {
	m, url := mockWithoutSources(t)
	other := mockconsole.MetricSource{
		Name: "orders", SQL: "SELECT * FROM someone_elses_orders", TimestampColumn: "ts",
		IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "uid"}},
	}
	m.PutMetricSource(other)
	stored, _ := m.MetricSource("orders")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			// Caught at plan by the dry run (without it, at apply: TestAccMetricSource_shared/existingID).
			Config:      providerBlock(url) + msMinimalConfig,
			ExpectError: wrapped(`Metric source "orders" already exists`, `terraform import featureconsole_metric_source.<resource name> "orders"`),
		}},
	})
	if got, _ := m.MetricSource("orders"); !reflect.DeepEqual(got, stored) {
		t.Fatalf("the existing source was changed: %+v", got)
	}
}

func TestAccMetricSource_destroyDeletes(t *testing.T) {
	m, url := mockWithoutSources(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if m.CountRequests(http.MethodDelete, "/metrics/metric_source/orders") != 1 {
				return errors.New("destroy sent no DELETE")
			}
			return expectMockSourceNames(m)(nil)
		},
		Steps: []resource.TestStep{
			{Config: providerBlock(url) + msMinimalConfig, Check: expectMockSourceNames(m, "orders")},
			{Config: providerBlock(url), Check: expectMockSourceNames(m)},
		},
	})
}

func TestMetricSourceExpandFlattenRoundTrip(t *testing.T) {
	ctx := context.Background()
	team := "Payments"
	src := &console.MetricSource{
		Name: "orders", SQL: "SELECT 1", TimestampColumn: "ts",
		IDTypeMapping:  []console.IDTypeMapping{{ServiceUnitID: "userID", Column: "uid"}},
		Description:    strp("d"),
		Tags:           []string{"a", "b"},
		TimestampAsDay: new(true), SourceType: strp("table"), TableName: strp("t"), DatePartitionColumn: strp("ds"),
		CustomFieldMapping: []console.CustomFieldMapping{{Key: "k", Formula: "f"}},
		IsReadOnly:         new(true), IsVerified: new(false), Team: &team,
		Owner: &console.Owner{OwnerID: "u1", OwnerType: "USER"},
	}
	var m metricSourceModel
	flattenMetricSource(src, &m)
	if !m.ValidateOnPlan.ValueBool() || m.Owner.IsNull() || !m.TeamID.IsNull() {
		t.Fatalf("unexpected model: %+v", m)
	}
	back, d := expandMetricSource(ctx, m)
	if d.HasError() {
		t.Fatal(d)
	}
	if !sameMetricSource(*src, back) {
		t.Fatalf("round trip changed the source:\n%+v\n%+v", *src, back)
	}
}

func TestMetricSourceFlattenAbsentFieldsAsDefaults(t *testing.T) {
	var m metricSourceModel
	flattenMetricSource(&console.MetricSource{Name: "x", SQL: "s", TimestampColumn: "ts", Team: strp("")}, &m)
	if m.Description.ValueString() != "" || m.Description.IsNull() || m.Tags.IsNull() || len(m.Tags.Elements()) != 0 ||
		m.SourceType.ValueString() != "query" || m.TableName.IsNull() || m.CustomFieldMapping.IsNull() ||
		m.IsReadOnly.IsNull() || !m.Team.IsNull() || !m.Owner.IsNull() {
		t.Fatalf("absent fields must read as the schema defaults: %+v", m)
	}
}

func TestMetricSourceSameIgnoresAbsentVersusZero(t *testing.T) {
	a := console.MetricSource{Name: "x", SQL: "s", TimestampColumn: "ts", IDTypeMapping: []console.IDTypeMapping{{ServiceUnitID: "u", Column: "c"}}}
	b := a
	b.Description, b.Tags, b.SourceType, b.TableName, b.IsVerified, b.Team = strp(""), []string{}, strp("query"), strp(""), new(false), strp("")
	b.Owner, b.DryRun = &console.Owner{OwnerID: "o"}, true
	if !sameMetricSource(a, b) {
		t.Fatal("absent and zero fields must compare equal")
	}
	b.Tags = []string{"t"}
	if sameMetricSource(a, b) {
		t.Fatal("different tags must differ")
	}
}

func TestMetricSourceExistsErrorNamesImport(t *testing.T) {
	e := &objectExistsError{creation: metricSourceCreation, id: "orders", cause: errors.New("Unable to create metric source \"orders\": 400 Bad Request: Name is already in use")}
	for _, want := range []string{`terraform import featureconsole_metric_source.<resource name> "orders"`, `id = "orders"`, "Name is already in use"} {
		if !strings.Contains(e.Error(), want) {
			t.Errorf("message lacks %q:\n%s", want, e.Error())
		}
	}
}

// loseFirstCreate answers the first create 502 without forwarding it, after running before:
// what the service looks like when an earlier attempt's answer was lost.
type loseFirstCreate struct {
	next   http.RoundTripper
	before func()
	done   bool
}

func (l *loseFirstCreate) RoundTrip(r *http.Request) (*http.Response, error) {
	if !l.done && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/metrics/metric_source") {
		l.done = true
		l.before()
		return &http.Response{StatusCode: http.StatusBadGateway, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
	}
	return l.next.RoundTrip(r)
}

// recoverMetricSource is what Create does with a failed create of sent.
func recoverMetricSource(r *metricSourceResource, sent console.MetricSource, err error) (*console.MetricSource, error) {
	got, _, err := recoverCreate(context.Background(), metricSourceCreation, sent.Name, err, r.data.client.GetMetricSource,
		func(got *console.MetricSource) bool { return sameMetricSource(sent, *got) })
	return got, err
}

func TestMetricSourceRecoverCreate(t *testing.T) {
	sent := console.MetricSource{
		Name: "orders", SQL: "SELECT 1", TimestampColumn: "ts",
		IDTypeMapping: []console.IDTypeMapping{{ServiceUnitID: "userID", Column: "uid"}},
		Description:   strp("d"), Tags: []string{"x"}, Team: strp("T"),
	}
	stored := mockconsole.MetricSource{
		Name: sent.Name, SQL: sent.SQL, TimestampColumn: sent.TimestampColumn,
		IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "uid"}},
		Description:   "d", Tags: []string{"x"}, Team: strp("T"),
	}
	for name, tc := range map[string]struct {
		stored     func() mockconsole.MetricSource
		wantErr    string
		wantStatus int
	}{
		"committed as sent": {stored: func() mockconsole.MetricSource { return stored }},
		"a different source": {
			stored: func() mockconsole.MetricSource {
				o := stored
				o.SQL = "SELECT 2"
				return o
			},
			wantErr: "differs from this configuration",
		},
	} {
		t.Run(name, func(t *testing.T) {
			m, url := mockWithoutSources(t)
			c, err := console.New(console.Config{
				BaseURL: url, APIKey: mockconsole.DefaultAPIKey, MaxRetries: 2, RetryWaitMin: 1, RetryWaitMax: 1,
				Transport: &loseFirstCreate{next: http.DefaultTransport, before: func() { m.PutMetricSource(tc.stored()) }},
			})
			if err != nil {
				t.Fatal(err)
			}
			r := &metricSourceResource{resourceData{data: &providerData{client: c}}}
			_, cerr := c.CreateMetricSource(context.Background(), sent)
			var ae *console.APIError
			if !errors.As(cerr, &ae) || !ae.MaybeCommitted || ae.StatusCode != http.StatusBadRequest {
				t.Fatalf("want a 400 that may have been committed, got %v", cerr)
			}
			got, err := recoverMetricSource(r, sent, cerr)
			if tc.wantErr == "" {
				if err != nil || got == nil || got.Name != "orders" {
					t.Fatalf("want recovery, got %v, %v", got, err)
				}
				return
			}
			var exists *objectExistsError
			if !errors.As(err, &exists) || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "terraform import") {
				t.Fatalf("want an exists error, got %v", err)
			}
		})
	}
}

func TestMetricSourceRecoverCreateLeavesOtherErrors(t *testing.T) {
	m, url := mockWithoutSources(t)
	c, _ := console.New(console.Config{BaseURL: url, APIKey: mockconsole.DefaultAPIKey})
	r := &metricSourceResource{resourceData{data: &providerData{client: c}}}
	orig := &console.APIError{Op: "create metric source", StatusCode: http.StatusBadRequest, Message: "SQL compilation error"}
	if _, err := recoverMetricSource(r, console.MetricSource{Name: "nope"}, orig); err != orig {
		t.Fatalf("a 400 for a name not in use must come back unchanged, got %v", err)
	}
	forbidden := &console.APIError{Op: "create metric source", StatusCode: http.StatusForbidden}
	if _, err := recoverMetricSource(r, console.MetricSource{Name: "nope"}, forbidden); err != forbidden {
		t.Fatalf("got %v", err)
	}
	if n := m.CountRequests(http.MethodGet, "/"); n != 1 {
		t.Fatalf("want one read-back (for the 400 only), got %d", n)
	}
}
