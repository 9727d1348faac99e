// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The examples are what the registry documentation shows (tfplugindocs renders them into docs/):
// these tests apply every one of them against the mock with the real terraform CLI, so an
// example that does not match the schema, or does not work, fails the build.

const examplesDir = "../../examples"

func readExample(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(examplesDir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func exampleTypeDirs(t *testing.T, kind string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(examplesDir, kind))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	if len(out) == 0 {
		t.Fatalf("no examples under examples/%s", kind)
	}
	return out
}

var (
	importCommandRe = regexp.MustCompile(`(?m)^terraform import (\S+) (\S+)\s*$`)
	importToRe      = regexp.MustCompile(`(?m)^\s*to\s*=\s*(\S+)\s*$`)
	importIDRe      = regexp.MustCompile(`(?m)^\s*id\s*=\s*"([^"]*)"\s*$`)
)

// parseImportCommand reads the address and id of the one `terraform import` line of an import.sh.
func parseImportCommand(t *testing.T, sh string) (addr, id string) {
	t.Helper()
	m := importCommandRe.FindAllStringSubmatch(sh, -1)
	if len(m) != 1 {
		t.Fatalf("import.sh must hold exactly one `terraform import <address> <id>` line, found %d:\n%s", len(m), sh)
	}
	return m[0][1], m[0][2]
}

// parseImportBlock reads the address and id of the one import block of an import-by-string-id.tf.
func parseImportBlock(t *testing.T, tf string) (addr, id string) {
	t.Helper()
	to, ids := importToRe.FindAllStringSubmatch(tf, -1), importIDRe.FindAllStringSubmatch(tf, -1)
	if strings.Count(tf, "import {") != 1 || len(to) != 1 || len(ids) != 1 {
		t.Fatalf("import-by-string-id.tf must hold exactly one import block with `to` and a string `id`:\n%s", tf)
	}
	return to[0][1], ids[0][1]
}

// Every resource example applies against the mock and plans clean afterwards; its import.sh
// imports the object it created into the same state (ImportStateVerify), and its
// import-by-string-id.tf and (Terraform 1.12+, OpenTofu 1.12) import-by-identity.tf, each added to
// resource.tf, plan as a no-op import.
func TestAccExamples_resources(t *testing.T) {
	t.Parallel()
	for _, typ := range exampleTypeDirs(t, "resources") {
		t.Run(typ, func(t *testing.T) {
			dir := filepath.Join("resources", typ)
			example := readExample(t, filepath.Join(dir, "resource.tf"))
			cmdAddr, cmdID := parseImportCommand(t, readExample(t, filepath.Join(dir, "import.sh")))
			importBlock := readExample(t, filepath.Join(dir, "import-by-string-id.tf"))
			blockAddr, blockID := parseImportBlock(t, importBlock)
			identityBlock := readExample(t, filepath.Join(dir, "import-by-identity.tf"))
			identityAddr := importToRe.FindStringSubmatch(identityBlock)
			if identityAddr == nil || !strings.Contains(identityBlock, "identity = {") {
				t.Fatalf("import-by-identity.tf of %s must hold one import block of a %s with an identity:\n%s", typ, typ, identityBlock)
			}
			for _, addr := range []string{cmdAddr, blockAddr, identityAddr[1]} {
				if !strings.HasPrefix(addr, typ+".") {
					t.Fatalf("the import examples of %s import %s", typ, addr)
				}
			}

			_, url := startMock(t, mockconsole.Config{})
			cfg := providerBlock(url) + example
			// The service makes the ids of keys, target apps and tags: the examples' ids stand for one,
			// and the imports take the one the apply made (the import blocks, which hold the examples'
			// ids, are only parsed).
			_, madeByService := serviceMadeIDs[typ]
			var idFunc resource.ImportStateIdFunc
			if madeByService {
				idFunc = func(s *terraform.State) (string, error) { return s.RootModule().Resources[cmdAddr].Primary.ID, nil }
			}
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{
						Config: cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
					},
					{
						Config:            cfg,
						ResourceName:      cmdAddr,
						ImportState:       true,
						ImportStateId:     cmdID,
						ImportStateIdFunc: idFunc,
						ImportStateVerify: true,
						// A gate's last modifier is whoever wrote it last: in the example, the rules' write
						// after the gate's (a new id on every write where the service does that).
						ImportStateVerifyIgnore: append(numbersLostOnImport(t, "rules.0.conditions.1.target_"),
							append([]string{"last_modifier_id", "last_modifier_name"}, serviceMadeIDs[typ]...)...),
					},
					{
						SkipFunc:               func() (bool, error) { return envHabits(t).StringTargets || madeByService, nil }, // see numbersLostOnImport
						Config:                 cfg + "\n" + importBlock,
						ResourceName:           blockAddr,
						ImportState:            true,
						ImportStateKind:        resource.ImportBlockWithID,
						ImportStateId:          blockID,
						ImportStateConfigExact: true,
					},
					{
						SkipFunc: func() (bool, error) {
							if envHabits(t).StringTargets || madeByService {
								return true, nil
							}
							return skipWithout(featIdentity)()
						},
						Config:                 cfg + "\n" + identityBlock,
						ResourceName:           identityAddr[1],
						ImportState:            true,
						ImportStateKind:        resource.ImportBlockWithResourceIdentity,
						ImportStateConfigExact: true,
					},
					// A started experiment is protected from deletion: the harness's destroy needs
					// deletion_protection = false, applied first, as a user's would.
					{Config: unprotected(cfg), SkipFunc: func() (bool, error) { return unprotected(cfg) == cfg, nil }},
				},
			})
		})
	}
}

// serviceMadeIDs are the resources whose ids the service makes, with what an import does not
// read back: a key's rotation_triggers (Terraform's alone), the description the document's
// examples leave out.
var serviceMadeIDs = map[string][]string{
	"featureconsole_key":        {"rotation_triggers", "description"},
	"featureconsole_target_app": {"description"},
	"featureconsole_tag":        {"description"},
}

// exampleFingerprint is the key fingerprint the examples show.
const exampleFingerprint = "sha256:0123456789abcdef"

// Every data source example reads from the mock, and every output it declares has a value: an
// example that reads an attribute or a metadata key the service does not have shows up as null.
func TestAccExamples_dataSources(t *testing.T) {
	t.Parallel()
	for _, typ := range exampleTypeDirs(t, "data-sources") {
		t.Run(typ, func(t *testing.T) {
			example := readExample(t, filepath.Join("data-sources", typ, "data-source.tf"))
			if !strings.Contains(example, `data "`+typ+`"`) {
				t.Fatalf("examples/data-sources/%s/data-source.tf does not read %s", typ, typ)
			}
			m, url := startMock(t, mockconsole.Config{})
			seedExampleExperiment(t, m)
			seedExampleMetric(m)
			switch typ {
			case "featureconsole_target_app":
				m.PutTargetApp(mockconsole.TargetApp{Name: "web"})
			case "featureconsole_tag":
				m.PutTag(mockconsole.Tag{Name: "checkout_team", IsCore: true})
			case "featureconsole_key":
				// No secret has the example's fingerprint: the example reads a key made in the console.
				secret := m.PutKey(mockconsole.Key{Type: "CLIENT", Description: "mobile apps"})
				example = strings.ReplaceAll(example, exampleFingerprint, console.Fingerprint(secret))
			}
			if typ == "featureconsole_release_pipeline_triggers" {
				// Runs are started in the console, never through the API: the example reads one.
				if _, err := m.StartRun("pl_web", "new_checkout"); err != nil {
					t.Fatal(err)
				}
			}
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config: providerBlock(url) + example,
					Check:  checkOutputsHaveValues(),
				}},
			})
			if typ == eventsTypeName && fastEventsReadCount(url) == 0 {
				t.Error("the example was not read through the fast path")
			}
		})
	}
}

// The provider example has its own provider block and a variable for the key. As written, it
// points at a service this test does not reach: planning a gate_rules create with it, with the
// offline setting the example shows in a comment switched on, validates the block against the
// provider schema and configures the provider, which sends no request (without that setting, the
// plan of a create checks the key and address, TestAccProvider_wrongAddress). With its base_url
// pointed at a mock, it reads data with every setting it shows in effect.
func TestAccExamples_provider(t *testing.T) {
	t.Parallel()
	example := readExample(t, filepath.Join("provider", "provider.tf"))
	const exampleURL = `base_url = "https://console.example.com"`
	if strings.Count(example, `provider "featureconsole"`) != 1 || !strings.Contains(example, exampleURL) {
		t.Fatalf("examples/provider/provider.tf must hold one provider block with %s", exampleURL)
	}
	const offlineComment = "# skip_credentials_validation = true"
	if !strings.Contains(example, offlineComment) {
		t.Fatalf("examples/provider/provider.tf must show %q", offlineComment)
	}
	offline := strings.Replace(example, offlineComment, strings.TrimPrefix(offlineComment, "# "), 1)
	const noRequest = `
resource "featureconsole_gate_rules" "planned" {
  gate_id = "new_checkout"
  rules   = []
}
`
	vars := config.Variables{"console_api_key": config.StringVariable(mockconsole.DefaultAPIKey)}
	m, url := startMock(t, mockconsole.Config{})
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:             offline + noRequest,
				ConfigVariables:    vars,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				// The same file with one setting misspelled fails: the step above did check the schema.
				Config:          strings.Replace(example, "max_retries", "max_retry", 1) + noRequest,
				ConfigVariables: vars,
				PlanOnly:        true,
				ExpectError:     regexp.MustCompile(`An argument named "max_retry" is not expected here`),
			},
			{
				Config:          strings.Replace(example, exampleURL, fmt.Sprintf("base_url = %q", url), 1) + `data "featureconsole_users" "all" {}`,
				ConfigVariables: vars,
				Check: func(*terraform.State) error {
					reqs := m.Requests()
					if len(reqs) == 0 {
						return fmt.Errorf("no request reached the mock")
					}
					for _, r := range reqs {
						if r.Header.Get("x-respect-review-settings") != "true" || r.Header.Get("SERVICE-API-KEY") != mockconsole.DefaultAPIKey {
							return fmt.Errorf("%s %s without the example's key and review settings header", r.Method, r.Path)
						}
					}
					return nil
				},
			},
		},
	})
}

// The demo configuration (make demo) declares required_providers with the provider's registry
// source, as a real configuration does, and configures the provider from the environment: the
// harness serves the provider under that namespace, and the environment points at a mock.
func TestAccExamples_demo(t *testing.T) {
	example := readExample(t, filepath.Join("demo", "main.tf"))
	m, url := startMock(t, mockconsole.Config{})
	t.Setenv(resource.EnvTfAccProviderNamespace, "featureconsole")
	t.Setenv(framework.EnvBaseURL, url)
	t.Setenv(framework.EnvAPIKey, mockconsole.DefaultAPIKey)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if names := m.MetricSourceNames(); len(names) != 0 {
				return fmt.Errorf("metric sources left after destroy: %v", names)
			}
			if _, ok := m.Gate("demo_checkout"); ok {
				return fmt.Errorf("gate demo_checkout left after destroy")
			}
			if _, ok := m.DynamicConfig("demo_checkout_copy"); ok {
				return fmt.Errorf("dynamic config demo_checkout_copy left after destroy")
			}
			if _, ok := m.Experiment("demo_checkout_cta"); ok {
				return fmt.Errorf("experiment demo_checkout_cta left after destroy")
			}
			for _, id := range []string{"demo_beta", "demo_vip"} {
				if _, ok := m.Segment(id); ok {
					return fmt.Errorf("segment %s left after destroy", id)
				}
			}
			for _, id := range m.PipelineIDs() {
				if p, _ := m.Pipeline(id); p.Name == "Demo web rollout" {
					return fmt.Errorf("pipeline %s left after destroy", id)
				}
			}
			return nil
		},
		Steps: []resource.TestStep{{
			Config: example,
			Check:  checkOutputsHaveValues(),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		}},
	})
}

// checkOutputsHaveValues fails on an output that is null, empty, or a collection of nulls only.
func checkOutputsHaveValues() resource.TestCheckFunc {
	return func(s *terraform.State) error {
		outputs := s.RootModule().Outputs
		if len(outputs) == 0 {
			return fmt.Errorf("the example declares no output")
		}
		for name, o := range outputs {
			if !hasValue(o.Value) {
				return fmt.Errorf("output %q has no value: %#v", name, o.Value)
			}
		}
		return nil
	}
}

func hasValue(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case string:
		return v != ""
	case []any:
		return slices.ContainsFunc(v, hasValue)
	case map[string]any:
		for _, e := range v {
			if hasValue(e) {
				return true
			}
		}
		return false
	}
	return true
}

// demoWords are the words the demo's descriptions give each type the demo declares.
var demoWords = map[string]string{
	"featureconsole_release_pipeline":     "a release pipeline",
	"featureconsole_gate":                 "a gate",
	"featureconsole_gate_rules":           "the gate's rules",
	"featureconsole_segment":              "id_list segment",
	"featureconsole_metric_source":        "a metric source",
	"featureconsole_dynamic_config":       "a dynamic config",
	"featureconsole_dynamic_config_rules": "config and its rules",
	"featureconsole_experiment":           "an experiment it starts",
	"featureconsole_users":                "admins",
	"featureconsole_segments":             "rule_based segments",
	"featureconsole_events":               "checkout_completed events",
	"featureconsole_experiment_results":   "the experiment's results",
}

var demoBlockRe = regexp.MustCompile(`(?m)^(?:resource|data) "(featureconsole_\w+)"`)

// The demo's descriptions (the getting started guide's paragraph on make demo, and the comment
// atop examples/demo/main.tf) say what it creates and reads: each type the demo declares, in words.
func TestExamples_demoDescribed(t *testing.T) {
	demo := readExample(t, filepath.Join("demo", "main.tf"))
	guide, err := os.ReadFile(filepath.Join(guidesDir, "getting-started.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	_, para, _ := strings.Cut(string(guide), "`make demo` builds the provider")
	para, _, _ = strings.Cut(para, "\n\n")
	header, _, _ := strings.Cut(demo, "terraform {")
	flat := func(s string) string {
		return strings.Join(strings.Fields(strings.NewReplacer("#", " ", "`", "").Replace(s)), " ")
	}
	for name, text := range map[string]string{"getting-started.md.tmpl": flat(para), "examples/demo/main.tf": flat(header)} {
		seen := map[string]bool{}
		for _, m := range demoBlockRe.FindAllStringSubmatch(demo, -1) {
			typ := m[1]
			if seen[typ] {
				continue
			}
			seen[typ] = true
			words, ok := demoWords[typ]
			if !ok {
				t.Errorf("the demo declares %s: add the words its description gives it to demoWords", typ)
				continue
			}
			if !strings.Contains(text, words) {
				t.Errorf("%s: the demo's description does not say %q (%s): %q", name, words, typ, text)
			}
		}
	}
}

// The importing guide covers every resource: each is named, with what to check after an import of
// a dynamic config or an experiment (values as JSON, deletion protection, archived objects).
func TestGuides_importingCoversEveryResource(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(guidesDir, "importing.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	guide := string(b)
	ctx := context.Background()
	for _, f := range newTestProvider().Resources(ctx) {
		if name := typeName(ctx, f()); !regexp.MustCompile(`\b` + name + `\b`).MatchString(guide) {
			t.Errorf("the importing guide does not name %s", name)
		}
	}
	for _, want := range []string{"identity = { experiment_id =", "identity = { config_id =", "`parameter_values`",
		"`deletion_protection`", "Archived experiments", "-generate-config-out"} {
		if !strings.Contains(guide, want) {
			t.Errorf("the importing guide does not say %q", want)
		}
	}
}

// Every resource and data source of the provider has its examples, and examples/ holds nothing
// these tests do not exercise.
func TestExamples_everyTypeAndFileCovered(t *testing.T) {
	ctx := context.Background()
	p := newTestProvider()
	var want []string
	for _, f := range p.Resources(ctx) {
		name := typeName(ctx, f())
		for _, file := range []string{"resource.tf", "import.sh", "import-by-string-id.tf", "import-by-identity.tf"} {
			want = append(want, filepath.Join("resources", name, file))
		}
		want = append(want, moreResourceExamples(t, name)...) // TestAccExamples_moreResourceFiles
	}
	for _, f := range p.ListResources(ctx) {
		want = append(want, filepath.Join("list-resources", listTypeName(ctx, f()), "list-resource.tfquery.hcl"))
	}
	for _, f := range p.DataSources(ctx) {
		want = append(want, filepath.Join("data-sources", dataSourceTypeName(ctx, f()), "data-source.tf"))
	}
	for _, f := range p.Actions(ctx) {
		var md action.MetadataResponse
		f().Metadata(ctx, action.MetadataRequest{ProviderTypeName: "featureconsole"}, &md)
		want = append(want, filepath.Join("actions", md.TypeName, "action.tf"))
	}
	// Applied and destroyed by TestAccReleasePipelineTrigger_abortBeforeDestroy (Terraform 1.16).
	want = append(want, filepath.Join("actions", "featureconsole_release_pipeline_trigger", destroyExample))
	want = append(want, filepath.Join("provider", "provider.tf"), filepath.Join("demo", "main.tf"))
	sort.Strings(want)

	var got []string
	err := filepath.WalkDir(examplesDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(examplesDir, path)
		got = append(got, rel)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("examples/%s is missing", w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("examples/%s is not exercised by any test (and no resource or data source of that name exists)", g)
		}
	}
}

var (
	guideHCLRe       = regexp.MustCompile("(?s)```terraform\n(.*?)```")
	guideProviderRe  = regexp.MustCompile(`provider "featureconsole" \{`)
	guideImportRe    = regexp.MustCompile(`(?m)^import \{`)
	guidesDir        = "../../templates/guides"
	guidesWithImport = map[string]string{
		"importing.md.tmpl": "its import blocks are exercised by TestAccGenerateConfig and TestAccExamples_resources",
		// Actions need Terraform 1.14: the guide's commands are run as written by TestAccGuides_approveRolloutFromCI.
		"approve-rollout-from-ci.md.tmpl": "exercised by TestAccGuides_approveRolloutFromCI",
		"onboarding.md.tmpl":              "its .tfquery.hcl and commands are exercised by TestAccOnboarding_wholeProject",
	}
)

// The HCL the guides show, taken together per guide, applies against the mock and plans clean.
// A guide's provider blocks get the mock's address and key added; the getting started guide's
// required_providers block stays, served under its namespace as in TestAccExamples_demo.
func TestAccGuides_hcl(t *testing.T) {
	entries, err := os.ReadDir(guidesDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(resource.EnvTfAccProviderNamespace, "featureconsole")
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(guidesDir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			hcl := terraformBlocks(string(b))
			if reason, ok := guidesWithImport[e.Name()]; ok {
				t.Skip(reason)
			}
			if hcl == "" || guideImportRe.MatchString(hcl) {
				t.Fatalf("%s: no terraform blocks, or import blocks not covered elsewhere", e.Name())
			}
			m, url := startMock(t, mockconsole.Config{})
			// A guide's apply shows what applying does; changes held for review are TestAccHabits_reviews'.
			h := m.Habits()
			h.Reviews = false
			m.SetHabits(h)
			mockSettings := fmt.Sprintf("provider \"featureconsole\" {\n  base_url    = %q\n  api_key     = %q\n  write_limit = 0\n", url, mockconsole.DefaultAPIKey)
			if guideProviderRe.MatchString(hcl) {
				hcl = guideProviderRe.ReplaceAllLiteralString(hcl, mockSettings)
			} else {
				hcl = providerBlock(url) + hcl
			}
			if !strings.Contains(hcl, `resource "`) && !strings.Contains(hcl, `data "`) {
				// Terraform validates and configures a provider only when something uses it.
				hcl += "\ndata \"featureconsole_users\" \"guide_check\" {}\n"
			}
			step := resource.TestStep{
				Config: hcl,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			}
			steps := []resource.TestStep{step}
			if unprotected(hcl) != hcl {
				// A started experiment is protected from deletion: the harness's destroy needs
				// deletion_protection = false, applied first, as a user's would.
				steps = append(steps, resource.TestStep{Config: unprotected(hcl)})
			}
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps:                    steps,
			})
		})
	}
}

// unprotected is the configuration with deletion_protection = false in each experiment it declares.
func unprotected(cfg string) string {
	return experimentBlockRe.ReplaceAllString(cfg, "$0\n  deletion_protection = false")
}

var experimentBlockRe = regexp.MustCompile(`resource "featureconsole_experiment" "[^"]+" \{`)

// The registry page of a resource shows every resource*.tf of its examples; TestAccExamples_resources
// applies resource.tf, this test each of the others: applied, planned clean, destroyed, and the
// service holds no more objects afterwards than before (what the example created, destroy deleted).
func TestAccExamples_moreResourceFiles(t *testing.T) {
	t.Parallel()
	for _, typ := range exampleTypeDirs(t, "resources") {
		for _, f := range moreResourceExamples(t, typ) {
			f := filepath.Join(examplesDir, f)
			t.Run(typ+"/"+strings.TrimSuffix(filepath.Base(f), ".tf"), func(t *testing.T) {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				m, url := startMock(t, mockconsole.Config{})
				before := m.PipelineIDs()
				cfg := providerBlock(url) + string(b)
				resource.Test(t, resource.TestCase{
					PreCheck:                 func() { testAccPreCheck(t) },
					ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
					CheckDestroy: func(*terraform.State) error {
						if after := m.PipelineIDs(); strings.Join(after, ",") != strings.Join(before, ",") {
							t.Errorf("after destroy the service holds pipelines %v, before the example %v", after, before)
						}
						return nil
					},
					Steps: []resource.TestStep{{
						Config: cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
					}},
				})
			})
		}
	}
}

// moreResourceExamples is the resource*.tf files of a resource's examples besides resource.tf,
// relative to examples/.
func moreResourceExamples(t *testing.T, typ string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(examplesDir, "resources", typ, "resource?*.tf"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		rel, err := filepath.Rel(examplesDir, f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rel)
	}
	return out
}
