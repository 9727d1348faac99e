// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// What every resource that creates shares (DESIGN.md §5), proven once per resource: each such
// resource registers its sharedSpec in sharedSpecs and runs the suite as TestAcc<Resource>_shared
// and TestAcc<Resource>_sharedImport (listed in sharedSuites), one subtest per case of sharedCases
// and sharedImportCases, so that -run 'TestAccGate_' runs every gate test. A new resource that
// creates gets the whole suite by adding both entries.

// sharedSpec is what the shared suite needs to know of a resource that creates its object.
type sharedSpec struct {
	// variant names the spec's subtest under each case when a resource has more than one spec
	// (a segment of each type); empty otherwise.
	variant  string
	typeName string // featureconsole_gate; the configuration's resource is <typeName>.test
	kind     string // "Gate", as its "already exists" error starts
	idAttr   string // the attribute that names the object (and its identity)
	// config is the resource's configuration; extra is HCL lines inside its block.
	config func(extra string) string
	// quietPlan is HCL (for config) that keeps the plan from writing, for the tests that count
	// writes or meet the create's own answer: a metric source's dry run.
	quietPlan string
	// find is the id of the object the configuration declares, as the mock holds it.
	find func(m *mockconsole.Server) (id string, ok bool)
	// path is the object's path under /console/v1; createPath is the path its create is posted to.
	path       func(id string) string
	createPath string
	// seed puts an object of the configuration's id in the mock, made in the console; nil when the
	// service chooses the id (no create can meet an existing one).
	seed func(m *mockconsole.Server)
	// snapshot is the object as the mock holds it, to tell that nothing changed it.
	snapshot func(m *mockconsole.Server, id string) any
	// drop deletes the object in the mock, as the console would.
	drop func(m *mockconsole.Server, id string)
	// change is a one-attribute update of config: its text change[0] becomes change[1].
	change [2]string
	// exampleFormsLeaveOut are the configured attributes the document's examples do not answer
	// (habit ExampleForms): an import then cannot hold them.
	exampleFormsLeaveOut []string
}

// importLacks is what an import of the spec's object cannot hold in this run.
func (s sharedSpec) importLacks(t *testing.T) []string {
	if envHabits(t).ExampleForms {
		return s.exampleFormsLeaveOut
	}
	return nil
}

// sharedKeySecrets are the secrets of the keys the shared suite found, by fingerprint.
var sharedKeySecrets sync.Map

func keySecretOf(fp string) string {
	secret, _ := sharedKeySecrets.Load(fp)
	s, _ := secret.(string)
	return s
}

// changed is the configuration with the spec's one-attribute update made.
func (s sharedSpec) changed(extra string) string {
	return strings.Replace(s.config(extra), s.change[0], s.change[1], 1)
}

func (s sharedSpec) addr() string { return s.typeName + ".test" }

// fixedID is find for an object whose id the configuration sets.
func fixedID(id string, exists func(*mockconsole.Server, string) bool) func(*mockconsole.Server) (string, bool) {
	return func(m *mockconsole.Server) (string, bool) { return id, exists(m, id) }
}

var sharedSpecs = []sharedSpec{
	{
		typeName: "featureconsole_gate", kind: "Gate", idAttr: "gate_id",
		config: func(extra string) string {
			return fmt.Sprintf(`
resource "featureconsole_gate" "test" {
  gate_id     = "tfacc_shared"
  description = "Shared behaviour"
  %s
}
`, extra)
		},
		find: fixedID("tfacc_shared", func(m *mockconsole.Server, id string) bool { _, ok := m.Gate(id); return ok }),
		path: func(id string) string { return "/gates/" + id }, createPath: "/gates",
		seed: func(m *mockconsole.Server) {
			m.PutGate(mockconsole.Gate{ID: "tfacc_shared", IsEnabled: true, Description: "Made in the console",
				LastModifierName: "Console User", LastModifierID: "user_1", Tags: []string{"console"}})
		},
		snapshot: func(m *mockconsole.Server, id string) any { g, _ := m.Gate(id); return g },
		drop:     func(m *mockconsole.Server, id string) { m.DeleteGate(id) },
		change:   [2]string{`"Shared behaviour"`, `"Changed behaviour"`},
	},
	{
		typeName: "featureconsole_dynamic_config", kind: "Dynamic config", idAttr: "config_id",
		config: func(extra string) string {
			return fmt.Sprintf(`
resource "featureconsole_dynamic_config" "test" {
  config_id     = "tfacc_shared"
  description   = "Shared behaviour"
  default_value = jsonencode({ title = "Buy now" })
  %s
}
`, extra)
		},
		find: fixedID("tfacc_shared", func(m *mockconsole.Server, id string) bool { _, ok := m.DynamicConfig(id); return ok }),
		path: func(id string) string { return "/dynamic_configs/" + id }, createPath: "/dynamic_configs",
		seed: func(m *mockconsole.Server) {
			m.PutDynamicConfig(mockconsole.DynamicConfig{ID: "tfacc_shared", IsEnabled: true, Description: "Made in the console",
				DefaultValue: []byte(`{"title":"Someone else's"}`), LastModifierName: "Console User", LastModifierID: "user_1"})
		},
		snapshot: func(m *mockconsole.Server, id string) any { c, _ := m.DynamicConfig(id); return c },
		drop:     func(m *mockconsole.Server, id string) { m.DeleteDynamicConfig(id) },
		change:   [2]string{`"Shared behaviour"`, `"Changed behaviour"`},
	},
	{
		typeName: "featureconsole_experiment", kind: "Experiment", idAttr: "experiment_id",
		config: func(extra string) string {
			return fmt.Sprintf(`
resource "featureconsole_experiment" "test" {
  experiment_id = "tfacc_shared"
  description   = "Shared behaviour"
  groups = [
    { name = "Control", size = 50, parameter_values = jsonencode({ color = "grey" }) },
    { name = "Green",   size = 50, parameter_values = jsonencode({ color = "green" }) },
  ]
  %s
}
`, extra)
		},
		find: fixedID("tfacc_shared", func(m *mockconsole.Server, id string) bool { _, ok := m.Experiment(id); return ok }),
		path: func(id string) string { return "/experiments/" + id }, createPath: "/experiments",
		seed: func(m *mockconsole.Server) {
			m.PutExperiment(mockconsole.Experiment{ID: "tfacc_shared", Description: "Made in the console", Groups: []mockconsole.ExperimentGroup{
				{Name: "A", Size: 50}, {Name: "B", Size: 50}}, LastModifierName: "Console User", LastModifierID: "user_1"})
		},
		snapshot: func(m *mockconsole.Server, id string) any { e, _ := m.Experiment(id); return e },
		drop:     func(m *mockconsole.Server, id string) { m.DeleteExperiment(id) },
		change:   [2]string{`"Shared behaviour"`, `"Changed behaviour"`},
	},
	segmentSpec("rule_based", "rules = ["+ruleEmail+"]", [2]string{"pass_percentage = 100", "pass_percentage = 50"}, mockconsole.Segment{Rules: []mockconsole.SegmentRule{{Name: "console",
		PassPercentage: 100, Conditions: []mockconsole.Condition{{Type: "country", Operator: "any", TargetValue: []any{"US"}}}}}}),
	segmentSpec("id_list", `ids = ["u_1", "u_2", "u_3"]`, [2]string{`"u_3"`, `"u_4"`}, mockconsole.Segment{IDs: []string{"someone_else"}}),
	{
		typeName: "featureconsole_metric_source", kind: "Metric source", idAttr: "name",
		quietPlan: "validate_on_plan = false",
		config: func(extra string) string {
			return fmt.Sprintf(`
resource "featureconsole_metric_source" "test" {
  name             = "tfacc_shared"
  sql              = "SELECT user_id, ts FROM orders"
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
  %s
}
`, extra)
		},
		find: fixedID("tfacc_shared", func(m *mockconsole.Server, id string) bool { _, ok := m.MetricSource(id); return ok }),
		path: func(id string) string { return "/metrics/metric_source/" + id }, createPath: "/metrics/metric_source",
		seed: func(m *mockconsole.Server) {
			m.PutMetricSource(mockconsole.MetricSource{Name: "tfacc_shared", SQL: "SELECT * FROM someone_elses_orders", TimestampColumn: "ts",
				IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "uid"}}})
		},
		snapshot: func(m *mockconsole.Server, id string) any { src, _ := m.MetricSource(id); return src },
		drop:     func(m *mockconsole.Server, id string) { m.DeleteMetricSource(id) },
		change:   [2]string{"FROM orders", "FROM orders_v2"},
	},
	{
		typeName: "featureconsole_metric", kind: "Metric", idAttr: "id",
		quietPlan: "validate_on_plan = false",
		config: func(extra string) string {
			return fmt.Sprintf(`
resource "featureconsole_metric" "test" {
  name          = "tfacc_shared"
  type          = "event_count_custom"
  description   = "Shared behaviour"
  metric_events = [{ name = "purchase" }]
  %s
}
`, extra)
		},
		find: fixedID("tfacc_shared::event_count_custom", func(m *mockconsole.Server, id string) bool { _, ok := m.Metric(id); return ok }),
		path: func(id string) string { return "/metrics/" + id }, createPath: "/metrics",
		seed: func(m *mockconsole.Server) {
			m.PutMetric(mockconsole.Metric{Name: "tfacc_shared", Type: "event_count_custom", Description: "Made in the console",
				MetricEvents: []mockconsole.MetricEvent{{Name: "someone_elses_event"}}})
		},
		snapshot: func(m *mockconsole.Server, id string) any { got, _ := m.Metric(id); return got },
		drop:     func(m *mockconsole.Server, id string) { m.DeleteMetric(id) },
		change:   [2]string{`"Shared behaviour"`, `"Changed behaviour"`},
	},
	{
		// Without pipeline_id: Terraform creates the pipeline and the service chooses its id.
		typeName: "featureconsole_release_pipeline", kind: "Release pipeline", idAttr: "pipeline_id",
		config: func(extra string) string {
			return fmt.Sprintf(`
resource "featureconsole_release_pipeline" "test" {
  name   = "tfacc shared pipeline"
  phases = [{ name = "Canary", time_interval_ms = 0 }]
  %s
}
`, extra)
		},
		find: func(m *mockconsole.Server) (string, bool) {
			if ids := pipelinesNamed(m, "tfacc shared pipeline"); len(ids) == 1 {
				return ids[0], true
			}
			return "", false
		},
		path: func(id string) string { return "/release_pipelines/" + id }, createPath: "/release_pipelines",
		snapshot: func(m *mockconsole.Server, id string) any { p, _ := m.Pipeline(id); return p },
		drop:     func(m *mockconsole.Server, id string) { m.DeletePipeline(id) },
		change:   [2]string{"time_interval_ms = 0", "time_interval_ms = 60000"},
	},
	{
		typeName: "featureconsole_target_app", kind: "Target app", idAttr: "id",
		config: func(extra string) string {
			return fmt.Sprintf(`
resource "featureconsole_target_app" "test" {
  name = "tfacc_shared_app"
  %s
}
`, extra)
		},
		find: func(m *mockconsole.Server) (string, bool) {
			for _, id := range m.TargetAppIDs() {
				if a, _ := m.TargetApp(id); strings.HasPrefix(a.Name, "tfacc_shared_app") {
					return id, true
				}
			}
			return "", false
		},
		path: func(id string) string { return "/target_app/" + id }, createPath: "/target_app",
		snapshot: func(m *mockconsole.Server, id string) any { a, _ := m.TargetApp(id); return a },
		drop:     func(m *mockconsole.Server, id string) { m.DeleteTargetApp(id) },
		// Without a description: the service's reads do not give it, so an import could not hold it.
		change: [2]string{`"tfacc_shared_app"`, `"tfacc_shared_app_renamed"`},
	},
	{
		// The service names a key by its secret alone: find is the one key of the description.
		typeName: "featureconsole_key", kind: "Key", idAttr: "id",
		config: func(extra string) string {
			return fmt.Sprintf(`
resource "featureconsole_key" "test" {
  type         = "SERVER"
  description  = "tfacc shared key"
  environments = ["production"]
  %s
}
`, extra)
		},
		// Its id is the fingerprint of its secret; the secret, the key's path, is found from it.
		find: func(m *mockconsole.Server) (string, bool) {
			for _, secret := range m.KeySecrets() {
				if k, _ := m.Key(secret); k.Description == "tfacc shared key" {
					fp := console.Fingerprint(secret)
					sharedKeySecrets.Store(fp, secret)
					return fp, true
				}
			}
			return "", false
		},
		path: func(fp string) string { return "/keys/" + keySecretOf(fp) }, createPath: "/keys",
		snapshot: func(m *mockconsole.Server, fp string) any { k, _ := m.Key(keySecretOf(fp)); return k },
		drop:     func(m *mockconsole.Server, fp string) { m.DeleteKey(keySecretOf(fp)) },
		change:   [2]string{`["production"]`, `["staging"]`},
		// Required, and left out of the examples' keys.
		exampleFormsLeaveOut: []string{"description"},
	},
	{
		typeName: "featureconsole_tag", kind: "Tag", idAttr: "id",
		config: func(extra string) string {
			return fmt.Sprintf(`
resource "featureconsole_tag" "test" {
  name    = "tfacc_shared_tag"
  is_core = false
  %s
}
`, extra)
		},
		find: func(m *mockconsole.Server) (string, bool) {
			for _, id := range m.TagIDs() {
				if t, _ := m.Tag(id); t.Name == "tfacc_shared_tag" {
					return id, true
				}
			}
			return "", false
		},
		path: func(id string) string { return "/tags/" + id }, createPath: "/tags",
		snapshot: func(m *mockconsole.Server, id string) any { t, _ := m.Tag(id); return t },
		drop:     func(m *mockconsole.Server, id string) { m.DeleteTag(id) },
		change:   [2]string{"is_core = false", "is_core = true"},
	},
}

// segmentSpec is a segment of type typ, holding what body declares; seeded is what a segment of
// that type made in the console holds; change is an update of body in place (a segment's own
// fields cannot change without replacing it).
func segmentSpec(typ, body string, change [2]string, seeded mockconsole.Segment) sharedSpec {
	id := "tfacc_shared_" + typ
	seeded.ID, seeded.Name, seeded.IsEnabled, seeded.Type, seeded.IDType = id, "Made in the console", true, typ, "userID"
	return sharedSpec{
		variant: typ, typeName: "featureconsole_segment", kind: "Segment", idAttr: "segment_id",
		config: func(extra string) string {
			return fmt.Sprintf(`
resource "featureconsole_segment" "test" {
  segment_id  = %q
  description = "Shared behaviour"
  type        = %q
  %s
  %s
}
`, id, typ, body, extra)
		},
		find: fixedID(id, func(m *mockconsole.Server, id string) bool { _, ok := m.Segment(id); return ok }),
		path: func(id string) string { return "/segments/" + id }, createPath: "/segments",
		seed:     func(m *mockconsole.Server) { m.PutSegment(seeded) },
		snapshot: func(m *mockconsole.Server, id string) any { sg, _ := m.Segment(id); return sg },
		drop:     func(m *mockconsole.Server, id string) { m.DeleteSegment(id) },
		change:   change,
	}
}

// sharedSuites is each resource's run of the suite, by the type sharedSpecs names it with: the
// cases of sharedCases, and those of sharedImportCases, which depend on the CLI (import blocks,
// identity) and so run under every CLI of make test's matrix (testdata/cli-matrix-tests.txt).
var sharedSuites = map[string][2]func(*testing.T){
	"featureconsole_gate":             {TestAccGate_shared, TestAccGate_sharedImport},
	"featureconsole_dynamic_config":   {TestAccDynamicConfig_shared, TestAccDynamicConfig_sharedImport},
	"featureconsole_experiment":       {TestAccExperiment_shared, TestAccExperiment_sharedImport},
	"featureconsole_segment":          {TestAccSegment_shared, TestAccSegment_sharedImport},
	"featureconsole_metric_source":    {TestAccMetricSource_shared, TestAccMetricSource_sharedImport},
	"featureconsole_metric":           {TestAccMetric_shared, TestAccMetric_sharedImport},
	"featureconsole_release_pipeline": {TestAccReleasePipeline_shared, TestAccReleasePipeline_sharedImport},
	"featureconsole_target_app":       {TestAccTargetApp_shared, TestAccTargetApp_sharedImport},
	"featureconsole_tag":              {TestAccTag_shared, TestAccTag_sharedImport},
	"featureconsole_key":              {TestAccKey_shared, TestAccKey_sharedImport},
}

func TestAccKey_shared(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_key", sharedCases)
}

func TestAccKey_sharedImport(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_key", sharedImportCases)
}

func TestAccTargetApp_shared(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_target_app", sharedCases)
}

func TestAccTargetApp_sharedImport(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_target_app", sharedImportCases)
}

func TestAccTag_shared(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_tag", sharedCases)
}

func TestAccTag_sharedImport(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_tag", sharedImportCases)
}

func TestAccGate_shared(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_gate", sharedCases)
}

func TestAccGate_sharedImport(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_gate", sharedImportCases)
}

func TestAccDynamicConfig_shared(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_dynamic_config", sharedCases)
}

func TestAccDynamicConfig_sharedImport(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_dynamic_config", sharedImportCases)
}

func TestAccExperiment_shared(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_experiment", sharedCases)
}

func TestAccExperiment_sharedImport(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_experiment", sharedImportCases)
}

func TestAccSegment_shared(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_segment", sharedCases)
}

func TestAccSegment_sharedImport(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_segment", sharedImportCases)
}

func TestAccMetricSource_shared(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_metric_source", sharedCases)
}

func TestAccMetricSource_sharedImport(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_metric_source", sharedImportCases)
}

func TestAccMetric_shared(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_metric", sharedCases)
}

func TestAccMetric_sharedImport(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_metric", sharedImportCases)
}

func TestAccReleasePipeline_shared(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_release_pipeline", sharedCases)
}

func TestAccReleasePipeline_sharedImport(t *testing.T) {
	t.Parallel()
	testAccShared(t, "featureconsole_release_pipeline", sharedImportCases)
}

// sharedCase is one behaviour of the suite, proven for one spec against a mock of its own.
type sharedCase struct {
	name string
	run  func(t *testing.T, s sharedSpec, m *mockconsole.Server, url string)
	// only names the one resource the case runs for, when what it varies is the client's alone.
	only string
}

var sharedCases = []sharedCase{
	{name: "existingID", run: sharedExistingID},
	// Each resource reads back a create whose answer was lost; how the answer was lost (a proxy's
	// 502, a closed connection, a cut body, no answer in time) only the client tells apart, the
	// same for every resource: the gate proves each form.
	{name: "lostCreate", run: sharedLostCreateAs(mockconsole.LostAs502)},
	{name: "lostCreateEOF", run: sharedLostCreateAs(mockconsole.LostAsEOF), only: "featureconsole_gate"},
	{name: "lostCreateGarbled", run: sharedLostCreateAs(mockconsole.LostAsGarbled), only: "featureconsole_gate"},
	{name: "lostCreateTimeout", run: sharedLostCreateAs(mockconsole.LostAsTimeout, `request_timeout = "1s"`), only: "featureconsole_gate"},
	{name: "gone", run: sharedGone},
	{name: "createTimeout", run: sharedCreateTimeout},
	{name: "updateAndDeleteTimeout", run: sharedUpdateAndDeleteTimeout},
}

var sharedImportCases = []sharedCase{
	{name: "import", run: sharedImport},
}

// testAccShared runs the cases for the specs of typeName, a subtest per case (and per variant
// under it, where the resource has several specs).
func testAccShared(t *testing.T, typeName string, cases []sharedCase) {
	var specs []sharedSpec
	for _, s := range sharedSpecs {
		if s.typeName == typeName {
			specs = append(specs, s)
		}
	}
	if len(specs) == 0 {
		t.Fatalf("no sharedSpec for %s", typeName)
	}
	for _, c := range cases {
		if c.only != "" && c.only != typeName {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			for _, s := range specs {
				if s.variant == "" {
					runSharedCase(t, c, s)
					continue
				}
				t.Run(s.variant, func(t *testing.T) { runSharedCase(t, c, s) })
			}
		})
	}
}

func runSharedCase(t *testing.T, c sharedCase, s sharedSpec) {
	m, url := startMock(t, mockconsole.Config{})
	c.run(t, s, m, url)
}

// Every spec is run by its resource's TestAcc<Resource>_shared: a spec added without one would
// never run.
func TestSharedSpecsHaveSuites(t *testing.T) {
	for _, s := range sharedSpecs {
		if suites := sharedSuites[s.typeName]; suites[0] == nil || suites[1] == nil {
			t.Errorf("%s has a sharedSpec but no TestAcc<Resource>_shared and _sharedImport in sharedSuites", s.typeName)
		}
	}
}

// expectNone is CheckDestroy: nothing the configuration declares is left in the mock.
func (s sharedSpec) expectNone(m *mockconsole.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if id, ok := s.find(m); ok {
			return fmt.Errorf("%s %q is still in the mock", s.kind, id)
		}
		return nil
	}
}

// expectStored checks that the mock holds the object and that it is the one in state; its id goes to *id.
func (s sharedSpec) expectStored(m *mockconsole.Server, id *string) resource.TestCheckFunc {
	return func(st *terraform.State) error {
		found, ok := s.find(m)
		if !ok {
			return fmt.Errorf("%s not in the mock", s.kind)
		}
		rs := st.RootModule().Resources[s.addr()]
		if rs == nil || rs.Primary.Attributes[s.idAttr] != found {
			return fmt.Errorf("state does not hold %s %q: %v", s.kind, found, rs)
		}
		*id = found
		return nil
	}
}

// writes is every mutating request the mock logged, with its answer.
func writes(m *mockconsole.Server) []mockconsole.Request {
	var out []mockconsole.Request
	for _, r := range m.Requests() {
		if r.Method != http.MethodGet && !isDryRun(r) {
			out = append(out, r)
		}
	}
	return out
}

// A create that meets an object of the same id made in the console is refused with the advice to
// import it; the object is left exactly as it was, and nothing but the refused create was sent.
func sharedExistingID(t *testing.T, s sharedSpec, m *mockconsole.Server, url string) {
	if s.seed == nil {
		t.Skipf("the service chooses the id of a %s: no create can meet an existing one", s.kind)
	}
	s.seed(m)
	id, _ := s.find(m)
	before := s.snapshot(m, id)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			PreConfig: m.ResetRequests,
			Config:    providerBlock(url) + s.config(s.quietPlan),
			ExpectError: wrapped(fmt.Sprintf("%s %q already exists", s.kind, id),
				fmt.Sprintf("terraform import %s.<resource name> %q", s.typeName, id), "import {"),
		}},
	})
	if after := s.snapshot(m, id); !reflect.DeepEqual(after, before) {
		t.Errorf("the existing %s changed:\n%+v\n%+v", s.kind, before, after)
	}
	for _, r := range writes(m) {
		if r.Method != http.MethodPost || r.Path != "/console/v1"+s.createPath || r.Status != http.StatusBadRequest {
			t.Errorf("wrote %s %s (answered %d): want only the refused create", r.Method, r.Path, r.Status)
		}
	}
}

// A create whose answer is lost on the way back (committed, then answered as how says: a proxy's
// 502, a connection closed without an answer, a 2xx whose body is cut short, no answer before the
// provider's request_timeout, which providerLines set) is read back and
// carried on as created in the same apply: the apply succeeds, the state holds the object, and the
// create was committed once (a second attempt, if any, was refused as existing), never twice.
func sharedLostCreateAs(how mockconsole.Loss, providerLines ...string) func(t *testing.T, s sharedSpec, m *mockconsole.Server, url string) {
	return func(t *testing.T, s sharedSpec, m *mockconsole.Server, url string) {
		var id string
		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { testAccPreCheck(t) },
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			CheckDestroy:             s.expectNone(m),
			Steps: []resource.TestStep{{
				PreConfig: func() { m.LoseNextWriteAs(http.MethodPost, s.createPath, how) },
				Config:    providerBlock(url, providerLines...) + s.config(s.quietPlan),
				Check: resource.ComposeAggregateTestCheckFunc(
					s.expectStored(m, &id),
					func(*terraform.State) error {
						var committed, statuses []int
						for _, r := range writes(m) {
							if r.Method != http.MethodPost || r.Path != "/console/v1"+s.createPath {
								continue
							}
							statuses = append(statuses, r.Status)
							if r.Status < 300 || r.Status == http.StatusBadGateway {
								committed = append(committed, r.Status)
							} else if r.Status != http.StatusBadRequest {
								return fmt.Errorf("a create answered %d", r.Status)
							}
						}
						if len(committed) != 1 {
							return fmt.Errorf("want one committed create, its answer lost; the creates were answered %v", statuses)
						}
						return nil
					},
				),
			}},
		})
	}
}

// An object deleted in the console leaves the state on refresh and the next plan creates it again;
// a destroy whose object is gone by then (no refresh before it) succeeds on the service's 404.
func sharedGone(t *testing.T, s sharedSpec, m *mockconsole.Server, url string) {
	cfg := providerBlock(url) + s.config("")
	var id string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(st *terraform.State) error {
			gone := 0
			for _, r := range writes(m) {
				if r.Method == http.MethodDelete && r.Path == "/console/v1"+s.path(id) && r.Status == http.StatusNotFound {
					gone++
				}
			}
			if gone != 1 {
				return fmt.Errorf("want the destroy's DELETE of %s %q answered 404 once, got %d", s.kind, id, gone)
			}
			return s.expectNone(m)(st)
		},
		Steps: []resource.TestStep{
			{Config: cfg, Check: s.expectStored(m, &id)},
			{
				PreConfig: func() { s.drop(m, id) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(s.addr(), plancheck.ResourceActionCreate),
				}},
				Check: s.expectStored(m, &id),
			},
			{
				// Gone again: only a plan, so the state still holds it for the destroy.
				PreConfig: func() { s.drop(m, id) }, Config: cfg, PlanOnly: true, ExpectNonEmptyPlan: true,
			},
		},
	})
}

// Import by id, with the import command (verified against the state) and with an import block, and
// by identity (Terraform 1.12+, OpenTofu 1.12): into the configuration that made the object, each
// plans no change.
func sharedImport(t *testing.T, s sharedSpec, m *mockconsole.Server, url string) {
	cfg := providerBlock(url) + s.config("")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             s.expectNone(m),
		Steps: []resource.TestStep{
			{Config: cfg},
			{Config: cfg, ResourceName: s.addr(), ImportState: true, ImportStateKind: resource.ImportCommandWithID,
				ImportStateVerify: true, ImportStateVerifyIdentifierAttribute: s.idAttr,
				ImportStateVerifyIgnore: append([]string{"timeouts", "validate_on_plan"}, s.importLacks(t)...)},
			// An import block plans no change but where the import lacks what the configuration holds.
			{Config: cfg, ResourceName: s.addr(), ImportState: true, ImportStateKind: resource.ImportBlockWithID,
				SkipFunc: func() (bool, error) { return len(s.importLacks(t)) > 0, nil }},
			{Config: cfg, ResourceName: s.addr(), ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
				SkipFunc: func() (bool, error) {
					if len(s.importLacks(t)) > 0 {
						return true, nil
					}
					return skipWithout(featIdentity)()
				}},
		},
	})
}
