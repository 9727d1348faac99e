// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// cliMatrixFile lists the acceptance tests that run under every CLI of make test's matrix; the rest
// run once, under the terraform on PATH (CONTRIBUTING.md, "Which CLIs, and what CI runs").
const cliMatrixFile = "testdata/cli-matrix-tests.txt"

// cliMarkers are the names whose use makes a test depend on the CLI: a feature some CLIs lack (the
// feat* variables of cli_features_test.go, which name tfversion, or tfversion itself), import blocks
// and the configuration they generate (ImportStateKind), `terraform query` (a step's Query), or the
// actions mirror (newMirrorCLI). The CLI run by hand (newTFCLI) counts only with a feature passed.
var cliMarkers = map[string]bool{"tfversion": true, "ImportStateKind": true, "Query": true, "newMirrorCLI": true}

// TestCLIMatrixList keeps cliMatrixFile exact: every TestAcc function that reaches a marker, through
// the package's own functions, methods and variables, is listed, and nothing else is. A test that
// uses a CLI feature and is missing from the list would run under one CLI only.
func TestCLIMatrixList(t *testing.T) {
	want := cliDependentTests(t)
	raw, err := os.ReadFile(cliMatrixFile)
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, line := range strings.Split(string(raw), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			have = append(have, line)
		}
	}
	if strings.Join(have, "\n") == strings.Join(want, "\n") {
		return
	}
	if os.Getenv("UPDATE_CLI_MATRIX") != "" {
		head := "# The acceptance tests that run under every CLI of make test's matrix: every TestAcc function that\n" +
			"# uses a feature some CLIs lack (TestCLIMatrixList keeps it so). The rest run once.\n" +
			"# Rewrite it with UPDATE_CLI_MATRIX=1 go test -run TestCLIMatrixList ./internal/provider/\n"
		if err := os.WriteFile(cliMatrixFile, []byte(head+strings.Join(want, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is not the list of acceptance tests that depend on the CLI (UPDATE_CLI_MATRIX=1 rewrites it); it should be:\n%s",
		cliMatrixFile, strings.Join(want, "\n"))
}

// cliDependentTests are the TestAcc functions of this package's test files that reach a marker.
func cliDependentTests(t *testing.T) []string {
	t.Helper()
	g := parseTestSources(t)
	var out []string
	for _, name := range g.accTests() {
		if g.reaches(name, func(ref string) bool { return cliMarkers[ref] }, "newTFCLI", "skipUnlessCLICan") {
			out = append(out, name)
		}
	}
	return out
}

// serialAccTests run before the parallel ones, by themselves, and why.
var serialAccTests = map[string]string{
	// Its two workspaces must write at the same moment to compete for the project's limit: as parallel
	// subtests of a serial test they start together, where among parallel tests either may wait for
	// a free slot until the other is done (seen: no 429 at all, under -parallel 4).
	"TestAccWriteLimit_shared": "two applies at once",
}

// TestSuiteRunsInParallel: every acceptance test runs beside the others (t.Parallel first thing,
// or resource.ParallelTest), which halves the suite's time on two cores, except a test
// that sets environment variables (the process's, which t.Setenv refuses in a parallel test), a
// test that can run against a real project (testAccService: such tests share its gate and
// pipeline), and serialAccTests.
func TestSuiteRunsInParallel(t *testing.T) {
	g := parseTestSources(t)
	for _, name := range g.accTests() {
		if g.parallel[name] || serialAccTests[name] != "" {
			continue
		}
		if g.reaches(name, func(ref string) bool { return ref == "Setenv" || ref == "testAccService" }) {
			continue
		}
		t.Errorf("%s does not run in parallel: call t.Parallel() first, or say in TestSuiteRunsInParallel why it cannot", name)
	}
}

// testSources is what the package's test files define and which names each definition refers to.
type testSources struct {
	uses     map[string]map[string]bool // top-level name -> the names it refers to
	parallel map[string]bool            // TestAcc functions that call t.Parallel or resource.ParallelTest, not in a subtest
}

func parseTestSources(t *testing.T) testSources {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	g := testSources{uses: map[string]map[string]bool{}, parallel: map[string]bool{}}
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			for _, name := range declNames(decl) {
				refs := g.uses[name]
				if refs == nil {
					refs = map[string]bool{}
					g.uses[name] = refs
				}
				ast.Inspect(decl, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						refs[id.Name] = true
					}
					return true
				})
			}
			if fd, ok := decl.(*ast.FuncDecl); ok && strings.HasPrefix(fd.Name.Name, "TestAcc") {
				for _, st := range fd.Body.List {
					if call, ok := st.(*ast.ExprStmt); ok {
						if ce, ok := call.X.(*ast.CallExpr); ok {
							if se, ok := ce.Fun.(*ast.SelectorExpr); ok && (se.Sel.Name == "Parallel" || se.Sel.Name == "ParallelTest") {
								g.parallel[fd.Name.Name] = true
							}
						}
					}
				}
			}
		}
	}
	return g
}

// accTests are the TestAcc functions, sorted.
func (g testSources) accTests() []string {
	var out []string
	for name := range g.uses {
		if strings.HasPrefix(name, "TestAcc") {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// reaches tells whether name refers, itself or through the package's own definitions, to a name
// that is; the definitions in through are not followed.
func (g testSources) reaches(name string, is func(string) bool, through ...string) bool {
	seen := map[string]bool{name: true}
	for _, n := range through {
		seen[n] = true
	}
	queue := []string{name}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for ref := range g.uses[n] {
			if is(ref) {
				return true
			}
			if g.uses[ref] != nil && !seen[ref] {
				seen[ref] = true
				queue = append(queue, ref)
			}
		}
	}
	return false
}

// declNames are the names a top-level declaration defines (a method by its own name).
func declNames(decl ast.Decl) []string {
	switch d := decl.(type) {
	case *ast.FuncDecl:
		return []string{d.Name.Name}
	case *ast.GenDecl:
		var names []string
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			}
		}
		return names
	}
	return nil
}

// makeListRe finds the GNUmakefile's hand-written lists of tests: a variable named ..._RUN or
// ..._SKIP whose value is a regular expression, not one computed by the shell.
var makeListRe = regexp.MustCompile(`(?m)^([A-Z_]+_(?:RUN|SKIP))\s*:?=\s*([^$\n]*(?:\$\$[^$\n]*)*)$`)

// Each alternative of the GNUmakefile's test lists (RACE_RUN, HABITS_RUN, HABITS_SKIP) names at
// least one test: the lists are written by hand, and a renamed test silently leaves its run.
func TestMakefileTestLists(t *testing.T) {
	mk, err := os.ReadFile("../../GNUmakefile")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for name := range parseTestSources(t).uses {
		if strings.HasPrefix(name, "Test") {
			names = append(names, name)
		}
	}
	lists := makeListRe.FindAllStringSubmatch(string(mk), -1)
	if len(lists) < 3 {
		t.Fatalf("found %d test lists in the GNUmakefile, want RACE_RUN, HABITS_RUN and HABITS_SKIP at least", len(lists))
	}
	for _, l := range lists {
		for _, alt := range regexAlternatives(strings.ReplaceAll(l[2], "$$", "$")) {
			re, err := regexp.Compile(alt)
			if err != nil {
				t.Errorf("%s: %q: %v", l[1], alt, err)
				continue
			}
			if !slices.ContainsFunc(names, re.MatchString) {
				t.Errorf("%s: %q matches no test: was a test renamed?", l[1], alt)
			}
		}
	}
}

// regexAlternatives expands a regular expression's alternations into the expressions they allow:
// "^a(b|c)_$|d" is "^ab_$", "^ac_$" and "d".
func regexAlternatives(re string) []string {
	var out []string
	for _, alt := range splitTop(re, '|') {
		open := strings.IndexByte(alt, '(')
		if open < 0 {
			out = append(out, alt)
			continue
		}
		depth, closing := 0, -1
		for i := open; i < len(alt) && closing < 0; i++ {
			switch alt[i] {
			case '(':
				depth++
			case ')':
				if depth--; depth == 0 {
					closing = i
				}
			}
		}
		inner := splitTop(alt[open+1:closing], '|')
		if len(inner) == 1 {
			out = append(out, alt)
			continue
		}
		for _, in := range inner {
			out = append(out, regexAlternatives(alt[:open]+in+alt[closing+1:])...)
		}
	}
	return out
}

// splitTop splits s at each sep outside parentheses and brackets.
func splitTop(s string, sep byte) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case sep:
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

func TestRegexAlternatives(t *testing.T) {
	got := regexAlternatives(`^TestAcc(Faults_|Limit$|Seg(a|b)_)|_(x|y[A-Z])$`)
	want := []string{"^TestAccFaults_", "^TestAccLimit$", "^TestAccSega_", "^TestAccSegb_", "_x$", "_y[A-Z]$"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
