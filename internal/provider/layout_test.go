// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The layout of DESIGN §1, checked: shared files name no concept, each source file has at most one
// test file, and references between the package's files run one way.

// sharedFiles are the files every family uses (DESIGN §1: the rule family and the shared homes).
// Their top-level names say what they hold, never which concept first used them.
var sharedFiles = []string{
	"conditions.go", "condition_targets.go", "rule_model.go", "rule_variants.go", "rules.go", "written.go",
	"reviews.go", "rules_resource.go", "rules_target.go", "rules_words.go", "handoffs.go", "runs.go",
	"provider_data.go", "data_source.go", "list_resources.go", "resource_identity.go", "created.go",
	"dry_run.go", "own_fields.go", "archived_writes.go",
}

// conceptWordRe matches a word of an identifier that names one concept: a resource's object
// (gate, segment, release pipeline, its trigger, experiment, metric) or the dynamic config, whose
// identifiers start with "config" (configRuns) where Terraform's own start with "configured".
var conceptWordRe = regexp.MustCompile(`^(gates?|segments?|pipelines?|triggers?|experiments?|metrics?|dynamic)$`)

// camelWords splits an identifier into its lower-cased words: "abortGateRuns" is abort, gate, runs.
func camelWords(name string) []string {
	var words []string
	start := 0
	for i := 1; i < len(name); i++ {
		if isUpper(name[i]) && !isUpper(name[i-1]) {
			words = append(words, strings.ToLower(name[start:i]))
			start = i
		}
	}
	return append(words, strings.ToLower(name[start:]))
}

func isUpper(b byte) bool { return b >= 'A' && b <= 'Z' }

// namesConcept reports whether an identifier is named after one concept.
func namesConcept(name string) bool {
	words := camelWords(name)
	if words[0] == "config" && len(words) > 1 {
		return true
	}
	for _, w := range words {
		if conceptWordRe.MatchString(w) {
			return true
		}
	}
	return false
}

func TestLayout_namesConcept(t *testing.T) {
	for name, want := range map[string]bool{
		"abortGateRuns": true, "gateRuleModel": true, "configRunToAct": true, "variantRuleModels": false,
		"configuredData": false, "ListResourceConfigSchema": false, "referenceConfig": false,
		"heldChange": false, "newReleasePipelineTrigger": true, "ruleModel": false,
	} {
		if got := namesConcept(name); got != want {
			t.Errorf("namesConcept(%q) = %v, want %v", name, got, want)
		}
	}
}

// A shared file names no concept: a maintainer changing a segment's rule never opens "gate" code.
// Each file the list names is in DESIGN §1, where a newcomer looks for it.
func TestLayout_sharedFilesNameNoConcept(t *testing.T) {
	design, err := os.ReadFile("../../DESIGN.md")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range sharedFiles {
		if !strings.Contains(string(design), "`"+f+"`") {
			t.Errorf("DESIGN.md §1 does not name the shared file %s", f)
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			for _, name := range declNames(decl) {
				if name != "_" && namesConcept(name) {
					t.Errorf("%s: %s is named after one concept; name it for what it holds, or move it to its family", f, name)
				}
			}
		}
	}
}

// Every source file has at most one test file named after it, exactly <file>_test.go, holding its
// unit and acceptance tests: a test file is matched to the source file with the longest name that
// is its stem, or a prefix of its stem followed by "_" (rules_words_test.go is rules_words.go's, not
// rules.go's), and a test file that matches none is a theme file (shared_limit_test.go).
// No test file says only "more", "unit" or "words".
func TestLayout_oneTestFilePerSource(t *testing.T) {
	tests, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]bool{}
	for f := range packageFiles(t) {
		sources[strings.TrimSuffix(f, ".go")] = true
	}
	for _, problem := range testFileProblems(sources, tests) {
		t.Error(problem)
	}
}

// testFileSource returns the source file (without ".go") a test file is named after: the longest
// source name that is the test file's stem or a prefix of it followed by "_"; "" for a theme file.
func testFileSource(sources map[string]bool, test string) string {
	stem := strings.TrimSuffix(test, "_test.go")
	for name := stem; ; {
		if sources[name] {
			return name
		}
		i := strings.LastIndex(name, "_")
		if i < 0 {
			return ""
		}
		name = name[:i]
	}
}

// testFileProblems returns, in words, each test file named after a source file that is not exactly
// <source>_test.go, each source file with more than one test file so named, and each vague theme.
func testFileProblems(sources map[string]bool, tests []string) []string {
	var problems []string
	bySource := map[string][]string{}
	for _, f := range tests {
		stem := strings.TrimSuffix(f, "_test.go")
		src := testFileSource(sources, f)
		if src == "" {
			for _, vague := range []string{"_unit", "_more", "_words"} {
				if strings.HasSuffix(stem, vague) {
					problems = append(problems, fmt.Sprintf("%s: a test file named %s says nothing; its tests belong in %s_test.go or a theme file",
						f, vague, strings.TrimSuffix(stem, vague)))
				}
			}
			continue
		}
		bySource[src] = append(bySource[src], f)
		if src != stem {
			problems = append(problems, fmt.Sprintf("%s is named after %s.go but is not %s_test.go: move its tests to the test file "+
				"of the source file they exercise, or to a theme file whose name starts with no source file's name", f, src, src))
		}
	}
	srcs := make([]string, 0, len(bySource))
	for src := range bySource {
		srcs = append(srcs, src)
	}
	sort.Strings(srcs)
	for _, src := range srcs {
		if fs := bySource[src]; len(fs) > 1 {
			sort.Strings(fs)
			problems = append(problems, fmt.Sprintf("%s.go has %d test files named after it (%s); it may have one, %s_test.go",
				src, len(fs), strings.Join(fs, ", "), src))
		}
	}
	sort.Strings(problems)
	return problems
}

// The check itself sees a source file's second test file, a sub-theme without its own source file,
// and a vague name; a theme file, and the one test file of each source file, pass.
func TestLayout_oneTestFilePerSourceSeesExtraFiles(t *testing.T) {
	sources := map[string]bool{"rules": true, "rules_words": true, "resource_gate": true, "resource_gate_rules": true, "data_source": true}
	for _, tc := range []struct {
		tests []string
		want  []string
	}{
		{tests: []string{"rules_words_test.go", "resource_gate_test.go", "resource_gate_rules_test.go", "data_sources_test.go", "shared_suite_test.go"}},
		{
			tests: []string{"resource_gate_rules_test.go", "resource_gate_rules_runs_test.go"},
			want: []string{
				"resource_gate_rules.go has 2 test files named after it (resource_gate_rules_runs_test.go, resource_gate_rules_test.go); it may have one, resource_gate_rules_test.go",
				"resource_gate_rules_runs_test.go is named after resource_gate_rules.go but is not resource_gate_rules_test.go: " +
					"move its tests to the test file of the source file they exercise, or to a theme file whose name starts with no source file's name",
			},
		},
		{
			tests: []string{"rules_shared_test.go"},
			want: []string{"rules_shared_test.go is named after rules.go but is not rules_test.go: move its tests to the test file " +
				"of the source file they exercise, or to a theme file whose name starts with no source file's name"},
		},
		{
			tests: []string{"gate_more_test.go"},
			want:  []string{"gate_more_test.go: a test file named _more says nothing; its tests belong in gate_test.go or a theme file"},
		},
	} {
		got := testFileProblems(sources, tc.tests)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("testFileProblems(%v):\n got %q\nwant %q", tc.tests, got, tc.want)
		}
	}
	if got := testFileSource(sources, "rules_words_test.go"); got != "rules_words" {
		t.Errorf("rules_words_test.go is matched to %q, want rules_words (the longest name)", got)
	}
}

// packageFiles parses the package's non-test files.
func packageFiles(t *testing.T) map[string]*ast.File {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, f := range names {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[f] = file
	}
	return files
}

// fileUses returns, for each non-test file, the files whose top-level names it uses, with the names.
// A method's receiver is a use of its type: resource_gate_plan.go, whose methods take gateResource,
// uses resource_gate.go, where gateResource sits beside its constructor.
func fileUses(files map[string]*ast.File) map[string]map[string][]string {
	home := map[string]string{}
	for f, file := range files {
		for _, decl := range file.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv != nil {
				continue // a method is reached through its value, never by name
			}
			for _, name := range declNames(decl) {
				if name != "_" {
					home[name] = f
				}
			}
		}
	}
	uses := map[string]map[string][]string{}
	for f, file := range files {
		uses[f] = map[string][]string{}
		seen := map[string]bool{}
		add := func(id *ast.Ident) {
			// Resolved idents are declared in this file (locals, or this file's own top level).
			if h, ok := home[id.Name]; ok && id.Obj == nil && h != f && !seen[id.Name] {
				seen[id.Name] = true
				uses[f][h] = append(uses[f][h], id.Name)
			}
		}
		addAll := func(n ast.Node) {
			ast.Inspect(n, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok {
					add(id)
				}
				return true
			})
		}
		for _, decl := range file.Decls {
			ast.Inspect(decl, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					addAll(n.X)
					return false // n.Sel is a field, a method or another package's name
				case *ast.KeyValueExpr:
					if _, ok := n.Key.(*ast.Ident); ok {
						addAll(n.Value)
						return false // a struct literal's key names a field
					}
				case *ast.Field:
					if n.Type != nil {
						addAll(n.Type) // a receiver's type too
					}
					return false // a field's names are its own
				case *ast.Ident:
					add(n)
				}
				return true
			})
		}
	}
	return uses
}

// usesLeftForTheLead are the files of the experiment's family, which another branch edits while this
// check learns receivers: their uses of each other are not checked until the lead, after merging that
// branch, moves what resource_experiment.go takes from its method files down, and empties this list.
// Their uses of any other file are checked.
var usesLeftForTheLead = map[string]bool{}

// withoutUsesLeftForTheLead drops the uses between two files of left.
func withoutUsesLeftForTheLead(uses map[string]map[string][]string, left map[string]bool) map[string]map[string][]string {
	out := map[string]map[string][]string{}
	for f, to := range uses {
		out[f] = map[string][]string{}
		for g, names := range to {
			if !left[f] || !left[g] {
				out[f][g] = names
			}
		}
	}
	return out
}

// References between the package's files run one way: no file uses a file that uses it, directly
// or through others. A circle means a declaration sits away from its home.
func TestLayout_referencesRunOneWay(t *testing.T) {
	for _, c := range circles(withoutUsesLeftForTheLead(fileUses(packageFiles(t)), usesLeftForTheLead)) {
		t.Errorf("a circle of references: %s", c)
	}
}

// circles returns the circles of uses a depth-first search meets, each in words: which file uses
// which, by which names.
func circles(uses map[string]map[string][]string) []string {
	const (
		unseen = iota
		onPath
		done
	)
	state := map[string]int{}
	var path, found []string
	var visit func(f string)
	visit = func(f string) {
		state[f] = onPath
		path = append(path, f)
		targets := make([]string, 0, len(uses[f]))
		for g := range uses[f] {
			targets = append(targets, g)
		}
		sort.Strings(targets)
		for _, g := range targets {
			switch state[g] {
			case onPath:
				i := len(path) - 1
				for path[i] != g {
					i--
				}
				circle := append(append([]string{}, path[i:]...), g)
				var steps []string
				for j := 0; j+1 < len(circle); j++ {
					names := uses[circle[j]][circle[j+1]]
					sort.Strings(names)
					steps = append(steps, fmt.Sprintf("%s uses %s (%s)", circle[j], circle[j+1], strings.Join(names, ", ")))
				}
				found = append(found, strings.Join(steps, "; "))
			case unseen:
				visit(g)
			}
		}
		path = path[:len(path)-1]
		state[f] = done
	}
	files := make([]string, 0, len(uses))
	for f := range uses {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		if state[f] == unseen {
			visit(f)
		}
	}
	return found
}

// The check itself sees a circle: two files that use each other, and one through a third.
func TestLayout_referencesRunOneWaySeesCircles(t *testing.T) {
	parse := func(src string) *ast.File {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+src, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	files := map[string]*ast.File{
		"a.go": parse("type a struct{}\nfunc (a) m() { b() }\nfunc useA() { _ = x{k: 1} }"),
		"b.go": parse("func b() { c() }\nvar k = 1"),
		"c.go": parse("func c() { useA() }\ntype x struct{ k int }"),
	}
	uses := fileUses(files)
	if got := uses["a.go"]["b.go"]; len(got) != 1 || got[0] != "b" {
		t.Errorf("a.go's uses of b.go: %v (a struct literal's key k is a field, not b.go's k)", got)
	}
	if got := uses["c.go"]["a.go"]; len(got) != 1 || got[0] != "useA" {
		t.Errorf("c.go's uses of a.go: %v", got)
	}
	want := "a.go uses b.go (b); b.go uses c.go (c); c.go uses a.go (useA)"
	if got := circles(uses); len(got) != 1 || got[0] != want {
		t.Errorf("circles: %q, want [%q]", got, want)
	}
	delete(uses["c.go"], "a.go")
	if got := circles(uses); len(got) != 0 {
		t.Errorf("circles once c.go no longer uses a.go: %q", got)
	}
}

// The check sees a circle made by a receiver: a file whose method takes a type of another file that
// uses a helper of it. Left for the lead, the pair's uses of each other are not checked; their uses
// of a file not left still are.
func TestLayout_referencesRunOneWaySeesReceivers(t *testing.T) {
	parse := func(src string) *ast.File {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+src, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	files := map[string]*ast.File{
		"r.go":      parse("type res struct{}\nfunc newRes() *res { return &res{} }\nfunc (r *res) create() { helper() }"),
		"r_plan.go": parse("func (r *res) plan() {}\nfunc helper() {}"),
		"s.go":      parse("func s() { helper() }"),
	}
	uses := fileUses(files)
	if got := uses["r_plan.go"]["r.go"]; len(got) != 1 || got[0] != "res" {
		t.Errorf("r_plan.go's uses of r.go: %v, want [res] (its method's receiver)", got)
	}
	want := "r.go uses r_plan.go (helper); r_plan.go uses r.go (res)"
	if got := circles(uses); len(got) != 1 || got[0] != want {
		t.Errorf("circles: %q, want [%q]", got, want)
	}
	left := map[string]bool{"r.go": true, "r_plan.go": true}
	if got := circles(withoutUsesLeftForTheLead(uses, left)); len(got) != 0 {
		t.Errorf("circles of files left for the lead: %q", got)
	}
	uses["r_plan.go"]["s.go"] = []string{"s"}
	want = "r_plan.go uses s.go (s); s.go uses r_plan.go (helper)"
	if got := circles(withoutUsesLeftForTheLead(uses, left)); len(got) != 1 || got[0] != want {
		t.Errorf("a circle with a file not left: %q, want [%q]", got, want)
	}
}
