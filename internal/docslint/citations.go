// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package docslint

import (
	"encoding/json"
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// DocumentPath is the service's OpenAPI document, relative to the repository's root: an operation
// a comment cites ("PUT /experiments/{id}/start") must be one of its own.
const DocumentPath = "internal/apidoc/testdata/console-api-2025-10.json"

var (
	// "DESIGN §4", "DESIGN.md §2": the repository's DESIGN.md and one of its numbered sections.
	citationRe = regexp.MustCompile(`\bDESIGN(?:\.md)?\s+§\s?(\d+)`)
	// A citation of something outside the repository: a section or a row of a design contract's
	// tables, or a numbered round of findings (the word "contract" or "row" or "round" then a
	// number, as the tests show). A fresh clone cannot follow them: cite the document's operation,
	// a DESIGN section, or say the fact.
	outsideRe = regexp.MustCompile(`(?i)\bcontract\s+(?:§|rows?\b)|\brows?\s+\d+(?:\s*[-–]\s*\d+)?\b|\brounds?\s+(?:one|two|three|four|five|six|seven|eight|nine|ten)\b`)
	// An operation of the service: a method and a path, its parameters in braces.
	operationRe = regexp.MustCompile(`\b(GET|POST|PUT|PATCH|DELETE)\s+(/[A-Za-z0-9_{}./-]*[A-Za-z0-9_}])`)
	sectionRe   = regexp.MustCompile(`(?m)^(#{1,6})[ \t]+(\d+)\.[ \t]`)
	paramRe     = regexp.MustCompile(`\{[^}]*\}`)
	// DESIGN §7's bullet of the routes the provider calls that the document lacks.
	beyondRe = regexp.MustCompile(`(?s)\n- Routes the provider calls that the document lacks:.*?\n(?:- |\n)`)
	// A file named in a comment: Go, shell, Markdown and YAML files, with or without their folder.
	fileNameRe = regexp.MustCompile("(?:^|[\\s(\"'`])((?:[\\w.-]+/)*[\\w-][\\w.-]*\\.(?:go|sh|md|ya?ml))\\b")
)

// Directories that hold no source: build output, the benchmarks' scratch space, git's own.
var skippedDirs = map[string]bool{".git": true, ".bench": true, ".demo": true, "bin": true, ".terraform": true}

// sections returns the numbers of a Markdown document's numbered sections ("## 4. ..." is 4).
func sections(text string) map[string]bool {
	d := map[string]bool{}
	for _, m := range sectionRe.FindAllStringSubmatch(text, -1) {
		d[m[2]] = true
	}
	return d
}

// operations returns the operations of the service's OpenAPI document, as "VERB /path" with each
// parameter written {}, the servers' common prefix (/console/v1) left out.
func operations(doc []byte) (map[string]bool, error) {
	var d struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	ops := map[string]bool{}
	for p, methods := range d.Paths {
		for m := range methods {
			ops[strings.ToUpper(m)+" "+normalPath(p)] = true
		}
	}
	return ops, nil
}

// normalPath writes a path's parameters as {}, without the /console/v1 prefix or a final slash.
func normalPath(p string) string {
	p = strings.TrimPrefix(p, "/console/v1")
	return strings.TrimSuffix(paramRe.ReplaceAllString(p, "{}"), "/")
}

// checkCitations checks the comments of the Go code and the shell scripts, and the repository's
// Markdown: every section cited exists in the document cited, and every file a comment names
// exists in the repository.
func (c *checker) checkCitations() error {
	design, err := os.ReadFile(filepath.Join(c.root, "DESIGN.md"))
	if err != nil {
		return err
	}
	doc, err := os.ReadFile(filepath.Join(c.root, DocumentPath))
	if err != nil {
		return err
	}
	ops, err := operations(doc)
	if err != nil {
		return fmt.Errorf("%s: %w", DocumentPath, err)
	}
	cites := newCitations(string(design), ops)
	files := map[string]bool{}
	var goFiles, shFiles, mdFiles []string
	err = filepath.WalkDir(c.root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if skippedDirs[e.Name()] || e.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(c.root, p)
		rel = filepath.ToSlash(rel)
		files[rel] = true
		switch {
		case strings.HasSuffix(rel, ".go"):
			goFiles = append(goFiles, rel)
		case strings.HasSuffix(rel, ".sh"):
			shFiles = append(shFiles, rel)
		case strings.HasSuffix(rel, ".md") && !strings.HasPrefix(rel, "docs/"):
			mdFiles = append(mdFiles, rel)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, f := range goFiles {
		src, err := os.ReadFile(filepath.Join(c.root, f))
		if err != nil {
			return err
		}
		text := goComments(src)
		c.checkSections(f, text, cites)
		c.checkFileNames(f, text, files)
	}
	for _, f := range shFiles {
		src, err := os.ReadFile(filepath.Join(c.root, f))
		if err != nil {
			return err
		}
		text := shellComments(string(src))
		c.checkSections(f, text, cites)
		c.checkFileNames(f, text, files)
	}
	for _, f := range mdFiles {
		text, err := os.ReadFile(filepath.Join(c.root, f))
		if err != nil {
			return err
		}
		c.checkSections(f, string(text), cites)
	}
	return nil
}

// citations are what a citation may name: DESIGN.md's sections and the document's operations,
// with the routes the provider calls beyond the document that DESIGN §7 lists.
type citations struct {
	sections, operations map[string]bool
	// roots are the first segments of the document's paths (gates, experiments, ...).
	roots map[string]bool
}

func newCitations(design string, ops map[string]bool) citations {
	c := citations{sections: sections(design), operations: ops, roots: map[string]bool{}}
	for op := range ops {
		c.roots[strings.SplitN(strings.SplitN(op, " ", 2)[1]+"/", "/", 3)[1]] = true
	}
	if m := beyondRe.FindString(design); m != "" {
		for _, o := range operationRe.FindAllStringSubmatch(m, -1) {
			ops[o[1]+" "+normalPath(o[2])] = true
		}
	}
	return c
}

// serviceRoute reports whether a path cited with a method is one of the service's: its first
// segment is a root of the document.
func (c citations) serviceRoute(p string) bool {
	return c.roots[strings.SplitN(normalPath(p)+"/", "/", 3)[1]]
}

// hasOperation reports whether the document (or DESIGN §7's list beyond it) has the operation: a
// parameter of either side ({id}, {verb}) stands for any segment of the other.
func (c citations) hasOperation(method, p string) bool {
	want := strings.Split(normalPath(p), "/")
	for op := range c.operations {
		m, path, _ := strings.Cut(op, " ")
		if m != method {
			continue
		}
		have := strings.Split(path, "/")
		if len(have) != len(want) {
			continue
		}
		same := true
		for i := range have {
			if have[i] != want[i] && have[i] != "{}" && want[i] != "{}" {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// checkSections reports every citation in text that does not resolve inside the repository: a
// DESIGN section that does not exist, an operation the document lacks, or a citation of a
// document outside the repository.
func (c *checker) checkSections(file, text string, cites citations) {
	for _, m := range citationRe.FindAllStringSubmatchIndex(text, -1) {
		if n := text[m[2]:m[3]]; !cites.sections[n] {
			cited := strings.Join(strings.Fields(text[m[0]:m[1]]), " ")
			c.report(file, lineOf(text, m[0]), "%q: DESIGN.md has no section %s", cited, n)
		}
	}
	for _, m := range outsideRe.FindAllStringIndex(text, -1) {
		c.report(file, lineOf(text, m[0]), "%q cites something outside the repository: cite the document's operation "+
			"(GET /gates/{id}), a DESIGN.md section (DESIGN §N), or say the fact", strings.Join(strings.Fields(text[m[0]:m[1]]), " "))
	}
	for _, m := range operationRe.FindAllStringSubmatchIndex(text, -1) {
		if !cites.serviceRoute(text[m[4]:m[5]]) {
			continue // the mock's own control API (/_mock/...), or no route at all ("/path")
		}
		if !cites.hasOperation(text[m[2]:m[3]], text[m[4]:m[5]]) {
			c.report(file, lineOf(text, m[0]), "%q: the service's document (%s) has no such operation",
				text[m[0]:m[1]], DocumentPath)
		}
	}
}

func (c *checker) checkFileNames(file, text string, files map[string]bool) {
	for _, m := range fileNameRe.FindAllStringSubmatchIndex(text, -1) {
		name := text[m[2]:m[3]]
		if !fileExists(files, name) {
			c.report(file, lineOf(text, m[2]), "a comment names %s: no such file in the repository", name)
		}
	}
}

// fileExists: a bare name may be any file of that name; a name with a folder ends a file's path.
func fileExists(files map[string]bool, name string) bool {
	name = strings.TrimPrefix(name, "./")
	if files[name] {
		return true
	}
	for f := range files {
		if strings.HasSuffix(f, "/"+name) || (!strings.Contains(name, "/") && filepath.Base(f) == name) {
			return true
		}
	}
	return false
}

// goComments is the source's comments at their lines, everything else blanked: citations are
// looked for in what a reader reads as prose, never in string literals.
func goComments(src []byte) string {
	lines := make([]string, strings.Count(string(src), "\n")+1)
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile("", fset.Base(), len(src)), src, nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.COMMENT {
			continue
		}
		line := fset.Position(pos).Line - 1
		for i, l := range strings.Split(lit, "\n") {
			if line+i < len(lines) {
				lines[line+i] += strings.TrimPrefix(strings.TrimPrefix(l, "//"), "/*")
			}
		}
	}
	return strings.Join(lines, "\n")
}

// shellComments is a shell script's whole-line comments at their lines, everything else blanked.
func shellComments(src string) string {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#!") {
			lines[i] = strings.TrimPrefix(t, "#")
		} else {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}
