// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package docslint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testSchema is a small schema: a resource with a nested list attribute and an identity, a list
// resource and an action with config attributes, and a provider setting.
func testSchema() *Schema {
	rules := newBlock()
	rules.Attributes["name"] = nil
	rules.Attributes["pass_percentage"] = nil
	res := newBlock()
	res.Attributes["gate_id"] = nil
	res.Attributes["rules"] = rules
	id := newBlock()
	id.Attributes["gate_id"] = nil
	list := newBlock()
	list.Attributes["tags"] = nil
	act := newBlock()
	act.Attributes["operation"] = nil
	prov := newBlock()
	prov.Attributes["max_retries"] = nil
	s := &Schema{Provider: prov, Types: map[string]map[string]*Block{
		"resource": {"featureconsole_gate_rules": res},
		"data":     {},
		"list":     {"featureconsole_gate_rules": list},
		"action":   {"featureconsole_release_pipeline_trigger": act},
		"identity": {"featureconsole_gate_rules": id},
	}}
	s.index()
	return s
}

const goodMakefile = "build:\n\tgo build\n\ntest docs: build\n\tgo test\nX := 1\n"

// A repository that passes, which each case below breaks in one file.
var goodRepo = map[string]string{
	"GNUmakefile":     goodMakefile,
	"README.md":       "# P\n\n`make test`, then `make docs`. See [guide](CONTRIBUTING.md#adding-a-rule).\n\n```terraform\nresource \"featureconsole_gate_rules\" \"a\" {\n  gate_id = \"g\"\n  rules   = [{ name = \"r\", pass_percentage = 5 }]\n}\n```\n",
	"CONTRIBUTING.md": "# C\n\n## Adding a rule\n\n| target | what |\n|---|---|\n| `make build` | builds |\n| `make test` | tests |\n",
	"DESIGN.md":       "# D\n\n## 1. Layout\n\nSee §1.\n",
	"internal/x/x.go": "// Package x: DESIGN §1 says why; x.go and scripts/run.sh,\n// PUT /experiments/{experimentID}/start and GET\n// /gates/{id}.\npackage x\n\nconst s = \"DESIGN §9 gone.go, contract §2 row 3, GET /none\" // a literal is no citation\n",
	"scripts/run.sh":  "#!/bin/sh\n",
	"internal/apidoc/testdata/console-api-2025-10.json": `{"paths": {"/console/v1/gates/{id}": {"get": {}, "patch": {}}, "/console/v1/experiments/{id}/start": {"put": {}}}}`,
	"CHANGELOG.md":                   "# Changes\n",
	"BENCHMARKS.md":                  "# Benchmarks\n",
	"internal/mockconsole/HABITS.md": "# Habits\n\nSee [DESIGN](../../DESIGN.md#1-layout).\n",
	"templates/index.md.tmpl": "# Provider\n\nSet `max_retries = 2`. See the [guide](https://registry.terraform.io/x) and [below](#settings).\n\n" +
		"```terraform\nlist \"featureconsole_gate_rules\" \"all\" {\n  provider = featureconsole\n  config {\n    tags = [\"a\"]\n  }\n}\n" +
		"action \"featureconsole_release_pipeline_trigger\" \"go\" {\n  config {\n    operation = \"approve\"\n  }\n}\n" +
		"import {\n  to       = featureconsole_gate_rules.a\n  identity = { gate_id = \"g\" }\n}\n" +
		"resource \"featureconsole_gate\" \"new\" {\n  anything = 1\n}\n```\n",
	"docs/index.md": "# Provider\n\n## Settings\n\n[here](#settings), `featureconsole_gate_rules.a.rules[0]`, `featureconsole_segment`\n\n" +
		"| Terraform | adds |\n|---|---|\n| 1.9.3 | `-generate-config-out` for `featureconsole_gate_rules` |\n\n" +
		"| measured | figure |\n|---|---|\n| query -generate-config-out of 1000 gates | 6 s |\n",
	"docs/resources/dynamic_config_rules.md": "# Rules\n\nThe model is the gate rules' (`featureconsole_gate_rules`); conditions `passes_gate`.\n",
	"examples/provider/provider.tf":          "provider \"featureconsole\" {\n  max_retries = 4\n}\n",
}

func writeRepo(t *testing.T, change map[string]string) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{}
	for k, v := range goodRepo {
		files[k] = v
	}
	for k, v := range change {
		files[k] = v
	}
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func run(t *testing.T, change map[string]string) Result {
	t.Helper()
	res, err := Run(writeRepo(t, change), testSchema())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestRun_goodRepositoryPasses(t *testing.T) {
	res := run(t, nil)
	if len(res.Problems) != 0 {
		t.Fatalf("problems in a good repository: %v", res.Problems)
	}
	if len(res.Pending) != 2 || res.Pending[0] != "resource featureconsole_gate" || res.Pending[1] != "resource featureconsole_segment" {
		t.Fatalf("pending: %v", res.Pending)
	}
}

func TestRun_eachBadInputFails(t *testing.T) {
	for name, tc := range map[string]struct {
		change map[string]string
		want   string // in the one problem reported
	}{
		"make target missing": {
			map[string]string{"README.md": "Run `make testall`.\n"}, "make testall: no such target"},
		"make target in a shell block": {
			map[string]string{"CONTRIBUTING.md": "## Adding a rule\n\n```sh\ncd x && make lint\n```\n"}, "make lint: no such target"},
		"duplicate table row": {
			map[string]string{"CONTRIBUTING.md": "## Adding a rule\n\n| t | w |\n|---|---|\n| `make test` | a |\n| `make build` | b |\n| `make test` | c |\n"},
			"repeats the row of line 5"},
		"broken relative link": {
			map[string]string{"README.md": "[x](docs/guides/none.md)\n"}, "docs/guides/none.md does not exist"},
		"broken fragment": {
			map[string]string{"README.md": "[x](CONTRIBUTING.md#testing)\n"}, "has no heading for #testing"},
		"broken link beside the mock": {
			map[string]string{"internal/mockconsole/HABITS.md": "[x](../DESIGN.md)\n"}, "internal/DESIGN.md does not exist"},
		"relative link in registry text": {
			map[string]string{"docs/index.md": "[guide](guides/importing.md)\n"}, "is relative"},
		"missing anchor in a generated page": {
			map[string]string{"docs/index.md": "[x](#nope)\n"}, "no heading or anchor"},
		"unknown resource attribute": {
			map[string]string{"examples/r.tf": "resource \"featureconsole_gate_rules\" \"a\" {\n  gate = \"g\"\n}\n"},
			`resource featureconsole_gate_rules has no attribute "gate"`},
		"unknown nested attribute": {
			map[string]string{"examples/r.tf": "resource \"featureconsole_gate_rules\" \"a\" {\n  gate_id = \"g\"\n  rules = [{ name = \"a\" }, { percentage = 1 }]\n}\n"},
			`rules has no attribute "percentage"`},
		"unknown block": {
			map[string]string{"examples/r.tf": "resource \"featureconsole_gate_rules\" \"a\" {\n  timeouts {\n  }\n}\n"},
			`has no block "timeouts"`},
		"unknown resource type": {
			map[string]string{"examples/r.tf": "data \"featureconsole_gates\" \"a\" {}\n"}, `data type "featureconsole_gates" is not in`},
		"unknown provider setting in a template": {
			map[string]string{"templates/index.md.tmpl": "```terraform\nprovider \"featureconsole\" {\n  retries = 1\n}\n```\n"},
			`provider has no attribute "retries"`},
		"unknown list config attribute": {
			map[string]string{"templates/index.md.tmpl": "```hcl\nlist \"featureconsole_gate_rules\" \"a\" {\n  config {\n    tag = 1\n  }\n}\n```\n"},
			`config has no attribute "tag"`},
		"unknown identity attribute": {
			map[string]string{"templates/index.md.tmpl": "```terraform\nimport {\n  to = featureconsole_gate_rules.a\n  identity = { id = \"g\" }\n}\n```\n"},
			`identity of featureconsole_gate_rules has no attribute "id"`},
		"unknown attribute in README HCL": {
			map[string]string{"README.md": "```terraform\nresource \"featureconsole_gate_rules\" \"a\" {\n  gateid = \"g\"\n}\n```\n"},
			`no attribute "gateid"`},
		"unknown attribute in prose": {
			map[string]string{"docs/index.md": "Set `write_limit_long = 900`.\n"}, `"write_limit_long" is no attribute`},
		"unknown type in prose": {
			map[string]string{"docs/index.md": "Use `featureconsole_gates` to read gates.\n"}, "no resource, data source, list resource or action is named featureconsole_gates"},
		"unknown type in README prose": {
			map[string]string{"README.md": "Read `featureconsole_gate_rule.checkout.rules`.\n"}, "named featureconsole_gate_rule"},
		"HCL that does not parse": {
			map[string]string{"examples/r.tf": "resource \"featureconsole_gate_rules\" {\n"}, "HCL does not parse"},
		"internal word": {
			map[string]string{"templates/guides/g.md.tmpl": "# G\n\nThe pacer waits.\n"}, `internal word "pacer"`},
		"made-up section cited in code": {
			map[string]string{"internal/x/y.go": "// As DESIGN §7 says.\npackage x\n"}, `"DESIGN §7": DESIGN.md has no section 7`},
		"made-up section cited in Markdown": {
			map[string]string{"CONTRIBUTING.md": "## Adding a rule\n\nSee DESIGN.md §3.\n"}, `"DESIGN.md §3": DESIGN.md has no section 3`},
		"a timing figure in CONTRIBUTING": {
			map[string]string{"CONTRIBUTING.md": "## Adding a rule\n\nThe matrix takes 514 s on 2 cores; `-fuzztime 60s` is a flag.\n\n```sh\nsleep 5s\n```\n"},
			`a timing figure ("514 s")`},
		"a citation of the contract": {
			map[string]string{"internal/x/y.go": "// As contract §2 says.\npackage x\n"}, `"contract §" cites something outside the repository`},
		"a row of a table outside": {
			map[string]string{"internal/x/y.go": "// The reviews (rows 33-34).\npackage x\n"}, `"rows 33-34" cites something outside`},
		"a row with an en dash, in Markdown": {
			map[string]string{"CONTRIBUTING.md": "## Adding a rule\n\nBad input (catalogue rows 70–72).\n"}, `"rows 70–72" cites something outside`},
		"a round of findings": {
			map[string]string{"scripts/run.sh": "#!/bin/sh\n# Late writes (round four).\n"}, `"round four" cites something outside`},
		"an operation the document lacks": {
			map[string]string{"internal/x/y.go": "// Sent with PATCH /gates/{id}/rules.\npackage x\n"}, `"PATCH /gates/{id}/rules": the service's document`},
		"an operation of a path with another method": {
			map[string]string{"DESIGN.md": "# D\n\n## 1. Layout\n\n`DELETE /gates/{gateID}` deletes it.\n"}, `"DELETE /gates/{gateID}": the service's document`},
		"made-up file named in a comment": {
			map[string]string{"internal/x/y.go": "package x\n\n// The values live in json_values.go.\nvar v int\n"}, "names json_values.go: no such file"},
		"made-up file with its folder": {
			map[string]string{"internal/x/y.go": "package x // run by (scripts/bench_gone.sh)\n"}, "names scripts/bench_gone.sh: no such file"},
		"made-up section cited in a script": {
			map[string]string{"scripts/run.sh": "#!/bin/sh\n# As DESIGN §2 says.\necho 'DESIGN §3 in a string is no citation'\n"}, `"DESIGN §2": DESIGN.md has no section 2`},
		"made-up file named in a script": {
			map[string]string{"scripts/run.sh": "#!/bin/sh\n  # then scripts/gone.sh runs\n"}, "names scripts/gone.sh: no such file"},
		"generated-configuration row leaving a resource out": {
			map[string]string{"docs/index.md": "# P\n\n| Terraform | adds |\n|---|---|\n| 1.9.3 | `-generate-config-out` for gate rules |\n"},
			"the row on -generate-config-out leaves out featureconsole_gate_rules"},
		"generated-configuration row in the README": {
			map[string]string{"README.md": "| Terraform | adds |\n|---|---|\n| 1.9.3 | `-generate-config-out` for `featureconsole_gate` |\n"},
			"leaves out featureconsole_gate_rules"},
		"the gate on a config's page": {
			map[string]string{"docs/resources/dynamic_config_rules.md": "# R\n\nAs for gate rules, `passes_gate`, `featureconsole_gate_rules`.\n" +
				"- `name` (String) Name of the rule; unique within the gate.\n"},
			`"the gate" on a dynamic config's page`},
		"internal word in a generated page": {
			map[string]string{"docs/guides/g.md": "# G\n\nRun it against the mock.\n"}, `internal word "mock"`},
	} {
		t.Run(name, func(t *testing.T) {
			res := run(t, tc.change)
			if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Msg, tc.want) {
				t.Fatalf("want one problem containing %q, got %v", tc.want, res.Problems)
			}
		})
	}
}

func TestRun_citationLines(t *testing.T) {
	res := run(t, map[string]string{"internal/x/y.go": "package x\n\n// one\n// two, DESIGN\n// §5.\n"})
	if len(res.Problems) != 1 || res.Problems[0].Line != 4 || res.Problems[0].File != "internal/x/y.go" {
		t.Fatalf("want one problem at internal/x/y.go:4, got %v", res.Problems)
	}
}

func TestMakeTargets(t *testing.T) {
	got := MakeTargets(goodMakefile + ".PHONY: build\n$(BIN)/x:\n\tgo\n")
	for _, want := range []string{"build", "test", "docs"} {
		if !got[want] {
			t.Errorf("target %q not found in %v", want, got)
		}
	}
	if got["X"] {
		t.Errorf("a variable assignment taken for a target: %v", got)
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Bad-input catalogue":                               "bad-input-catalogue",
		"Many applies, one project: the shared write limit": "many-applies-one-project-the-shared-write-limit",
		"Import (Terraform 1.5 and later)":                  "import-terraform-15-and-later",
		"`featureconsole_gate_rules`":                       "featureconsole_gate_rules",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}
