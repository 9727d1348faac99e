// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// seedProject fills an empty mock with a project as the console makes it: gates (every sixth
// without rules), pipelines and metric sources with a spread of optional fields set and unset.
func seedProject(m *mockconsole.Server, gates, pipelines, sources int) {
	ptr := func(s string) *string { return &s }
	for i := 1; i <= gates; i++ {
		g := mockconsole.Gate{
			ID: fmt.Sprintf("gate_%03d", i), IsEnabled: i%2 == 0, Description: fmt.Sprintf("Gate %d", i),
			Status: "In Progress", LastModifierName: "Console User", LastModifierID: "user_1", Tags: []string{},
		}
		if i%3 == 0 {
			g.Tags = []string{"team-a"}
		}
		if i%6 != 0 {
			g.Rules = []mockconsole.Rule{{
				Name: "employees", PassPercentage: 100,
				Conditions: []mockconsole.Condition{{Type: "email", Operator: "str_contains_any", TargetValue: []any{"@example.com"}}},
			}}
			if i%2 == 1 {
				g.Rules = append(g.Rules, mockconsole.Rule{
					Name: "rollout", PassPercentage: []float64{12.5, 33.33, 0, 50}[i%4], Environments: []string{"production"},
					Conditions: []mockconsole.Condition{
						{Type: "custom_field", Operator: "gte", Field: "age", TargetValue: []any{json.Number("18")}},
						{Type: "unit_id", Operator: "any", CustomID: "stableID", TargetValue: []any{"a", "b"}},
					},
					ReturnValue: map[string]any{"variant": fmt.Sprintf("v%d", i%3)},
				})
			}
		}
		if i%10 == 7 {
			// As rules written in the console come: no operator, a scalar target, no return value.
			g.Rules = append(g.Rules, mockconsole.Rule{
				Name: "console made", PassPercentage: 33.330000000000005, // 33.33 with binary float noise, as the live service answers
				Conditions: []mockconsole.Condition{{Type: "public"}, {Type: "country", Operator: "any", TargetValue: "US"}},
			})
		}
		m.PutGate(g)
	}
	for i := 1; i <= pipelines; i++ {
		p := mockconsole.Pipeline{
			ID: fmt.Sprintf("pl_%02d", i), Name: fmt.Sprintf("Rollout %d", i), CreatorID: "user_1",
			CreatedTime: 1700000000000 + int64(i), LastModifierID: "user_1",
		}
		for k := 0; k < i%3+1; k++ {
			p.Phases = append(p.Phases, mockconsole.Phase{
				Name: fmt.Sprintf("Phase %d", k+1), TimeIntervalMs: int64(k+1) * 3600000, RequiredReview: k == 0,
				Rules: []mockconsole.PipelineRule{{
					Name:         "internal",
					Conditions:   []mockconsole.Condition{{Type: "user_id", Operator: "any", TargetValue: []any{"42"}}},
					Environments: []string{"staging"},
				}},
			})
		}
		if i%4 == 2 {
			// As pipeline rules written in the console come: no operator, scalar targets (a number
			// among them), a condition type gate rules do not document.
			p.Phases[0].Rules = append(p.Phases[0].Rules, consolePipelineRule)
			m.ServeBeyondDocument("/type: value is not one of the allowed values") // the document's list lacks them
		}
		m.PutPipeline(p)
	}
	for i := 1; i <= sources; i++ {
		src := mockconsole.MetricSource{
			Name: fmt.Sprintf("source_%02d", i), SQL: fmt.Sprintf("SELECT * FROM t%d", i), TimestampColumn: "ts",
			IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "user_id"}},
		}
		if i%2 == 0 {
			src.Description, src.Tags, src.TimestampAsDay = "Orders", []string{"finance"}, true
			src.SourceType, src.TableName, src.DatePartitionColumn = "table", "warehouse.orders", "ds"
			src.CustomFieldMapping = []mockconsole.CustomFieldMapping{{Key: "cents", Formula: "amount * 100"}}
			src.IsReadOnly, src.Team, src.TeamID = true, ptr("Payments"), ptr("team_7")
			src.Owner = &mockconsole.Owner{OwnerID: "user_1", OwnerType: "USER", OwnerName: "Ada", OwnerEmail: "ada@example.com"}
		}
		m.PutMetricSource(src)
	}
}

// seedSegments adds segments of both types as the console makes them: a rule-based one with one
// rule and one with two (a list page shows one rule of a segment in the seed's form), two id lists.
func seedSegments(m *mockconsole.Server) {
	staff := mockconsole.SegmentRule{Name: "staff", PassPercentage: 100,
		Conditions: []mockconsole.Condition{{Type: "email", Operator: "str_contains_any", TargetValue: []any{"@example.com"}}}}
	adults := mockconsole.SegmentRule{Name: "adults", PassPercentage: 50,
		Conditions: []mockconsole.Condition{{Type: "custom_field", Operator: "gte", Field: "age", TargetValue: []any{"18"}}}}
	m.PutSegment(mockconsole.Segment{ID: "seg_staff", Name: "Staff", Type: "rule_based", IDType: "userID", IsEnabled: true, Rules: []mockconsole.SegmentRule{staff}})
	m.PutSegment(mockconsole.Segment{ID: "seg_beta", Name: "Beta testers", Description: "Opted in", Type: "rule_based", IDType: "userID",
		IsEnabled: true, Tags: []string{"beta"}, Rules: []mockconsole.SegmentRule{staff, adults}})
	var ids []string
	for i := 1; i <= 250; i++ {
		ids = append(ids, fmt.Sprintf("user_%03d", i))
	}
	m.PutSegment(mockconsole.Segment{ID: "seg_vip", Name: "VIP", Type: "id_list", IDType: "userID", IsEnabled: true, IDs: ids})
	m.PutSegment(mockconsole.Segment{ID: "seg_empty", Name: "Nobody yet", Type: "id_list", IDType: "userID", IsEnabled: true})
}

// guideQuery is the .tfquery.hcl the onboarding guide shows: its first terraform block.
func guideQuery(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(guidesDir, "onboarding.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	m := guideHCLRe.FindSubmatch(b)
	if m == nil || !strings.Contains(string(m[1]), `list "featureconsole_gate_rules"`) {
		t.Fatal("onboarding.md.tmpl: the first terraform block is not the guide's .tfquery.hcl")
	}
	return string(m[1])
}

// The guide "Bring an existing project under Terraform", step by step, on Terraform 1.14+: a
// .tfquery.hcl file, terraform query -generate-config-out, a plan that only imports, apply, and an
// empty plan. The listing costs list pages, not one read per object.
func TestAccOnboarding_wholeProject(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t, featListResources)
	m, url := startMock(t, mockconsole.Config{NoSeed: true, PageSizeCap: 50})
	seedProject(m, 240, 5, 5)
	seedSegments(m)

	cli.write("main.tf", providerBlock(url))
	cli.write("project.tfquery.hcl", guideQuery(t))
	cli.must("init", "-input=false", "-no-color")

	m.ResetRequests()
	cli.must("query", "-no-color", "-generate-config-out=generated.tf")
	gen := cli.read("generated.tf")
	for typ, want := range map[string]int{"featureconsole_gate": 240, "featureconsole_gate_rules": 240, "featureconsole_release_pipeline": 5,
		"featureconsole_segment": 4, "featureconsole_metric_source": 5} {
		if got := len(regexp.MustCompile(`(?m)^resource "`+typ+`" `).FindAllString(gen, -1)); got != want {
			t.Errorf("generated.tf holds %d %s resources, want %d", got, typ, want)
		}
	}
	const objects = 2*240 + 5 + 4 + 5 // every gate twice: the gate and its rules
	if n := strings.Count(gen, "identity = {"); n != objects {
		t.Errorf("generated.tf holds %d identity import blocks, want %d", n, objects)
	}
	// 240 gates in pages of 50 for each of the two gate lists, the pipelines, segments and sources
	// in one page each: no per-object read but for what list pages do not carry (an id list's ids,
	// the second rule of a rule-based segment in the seed's form).
	if got := m.CountRequests(http.MethodGet, "/gates"); got != 10 {
		t.Errorf("query sent %d GET /gates requests, want 10 (240 gates in pages of 50, twice)", got)
	}
	listPaths := map[string]bool{"/gates": true, "/release_pipelines": true, "/metrics/metric_source/list": true, "/segments": true,
		"/segments/seg_vip/id_list": true, "/segments/seg_empty/id_list": true, "/segments/seg_beta": true}
	for _, r := range m.Requests() {
		if p := strings.TrimPrefix(r.Path, "/console/v1"); r.Method != http.MethodGet || !listPaths[p] {
			t.Errorf("query sent %s %s: only list requests were expected", r.Method, r.Path)
		}
	}
	if !strings.Contains(gen, `"user_250"`) {
		t.Errorf("generated.tf lacks the last id of the id list segment")
	}

	cli.importsOnlyThenEmpty(m, gen, objects)
}

// terraform query of configs and their rules generates a configuration that plans as imports only,
// applies without a write and plans empty after (Terraform 1.14+).
func TestAccOnboarding_dynamicConfigs(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t, featListResources)
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	seedConfigs(m, 6)
	cli.write("main.tf", providerBlock(url))
	cli.write("configs.tfquery.hcl", `
list "featureconsole_dynamic_config" "tagged" {
  provider = featureconsole
  config {
    tags = ["checkout"]
  }
}
`)
	cli.must("init", "-input=false", "-no-color")
	if out := cli.must("query", "-no-color"); strings.Count(out, "list.featureconsole_dynamic_config.tagged") != 3 {
		t.Errorf("the tags filter did not list the 3 tagged configs:\n%s", out)
	}
	cli.write("configs.tfquery.hcl", `
list "featureconsole_dynamic_config" "all" {
  provider         = featureconsole
  include_resource = true
}
list "featureconsole_dynamic_config_rules" "all" {
  provider         = featureconsole
  include_resource = true
}
`)
	m.ResetRequests()
	cli.must("query", "-no-color", "-generate-config-out=generated.tf")
	gen := cli.read("generated.tf")
	for typ, want := range map[string]int{"featureconsole_dynamic_config": 6, "featureconsole_dynamic_config_rules": 6} {
		if got := len(regexp.MustCompile(`(?m)^resource "`+typ+`" `).FindAllString(gen, -1)); got != want {
			t.Errorf("generated.tf holds %d %s resources, want %d", got, typ, want)
		}
	}
	if got := strings.Count(gen, "variants = ["); got != 2 {
		t.Errorf("generated.tf holds %d rules with variants, want 2", got)
	}
	if got := m.CountRequests(http.MethodGet, "/dynamic_configs"); got != 2 {
		t.Errorf("query sent %d GET /dynamic_configs requests, want 2 (one list page per list block)", got)
	}
	cli.importsOnlyThenEmpty(m, gen, 6+6)
}
