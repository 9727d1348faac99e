// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package docslint

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// ContractPath is where the design contract lies, relative to the repository's root: outside the
// repository, so a clone without it skips the contract's citations (Result.Unchecked says so).
const ContractPath = "../shared/DESIGN.md"

var (
	// "DESIGN §4", "DESIGN.md §2", "contract §2 row 44", "contract §2, rounds three and five",
	// "contract §2 rows 37-40, 46, round five". DESIGN is the repository's DESIGN.md, contract the
	// shared design contract.
	citationRe = regexp.MustCompile(`\b(DESIGN(?:\.md)?|contract)\s+§\s?(\d+)((?:,?\s+(?:rows?\s+\d+(?:-\d+)?(?:,\s*\d+(?:-\d+)?)*|rounds?\s+[a-z]+(?:\s+and\s+[a-z]+)?))*)`)
	rowsRe     = regexp.MustCompile(`rows?\s+(\d+(?:-\d+)?(?:,\s*\d+(?:-\d+)?)*)`)
	roundsRe   = regexp.MustCompile(`rounds?\s+([a-z]+)(?:\s+and\s+([a-z]+))?`)
	sectionRe  = regexp.MustCompile(`(?m)^(#{1,6})[ \t]+(\d+)\.[ \t]`)
	// A file named in a comment: Go, shell, Markdown and YAML files, with or without their folder.
	fileNameRe = regexp.MustCompile("(?:^|[\\s(\"'`])((?:[\\w.-]+/)*[\\w-][\\w.-]*\\.(?:go|sh|md|ya?ml))\\b")
)

// Directories that hold no source: build output, the benchmarks' scratch space, git's own.
var skippedDirs = map[string]bool{".git": true, ".bench": true, ".demo": true, "bin": true, ".terraform": true}

// designDoc is a Markdown document split into its numbered sections ("## 4. ..." is section 4).
type designDoc map[string]string

func parseDesignDoc(text string) designDoc {
	d := designDoc{}
	ms := sectionRe.FindAllStringSubmatchIndex(text, -1)
	for i, m := range ms {
		level := m[3] - m[2]
		end := len(text)
		for _, n := range ms[i+1:] {
			if n[3]-n[2] <= level {
				end = n[0]
				break
			}
		}
		d[text[m[4]:m[5]]] = text[m[0]:end]
	}
	return d
}

// problem says what of a citation the document lacks, or "" when it has all of it.
func (d designDoc) problem(section, qualifiers string) string {
	body, ok := d[section]
	if !ok {
		return "has no section " + section
	}
	for _, m := range roundsRe.FindAllStringSubmatch(qualifiers, -1) {
		for _, round := range m[1:] {
			if round != "" && !regexp.MustCompile(`(?mi)^\W*round\s+`+regexp.QuoteMeta(round)+`\b`).MatchString(body) {
				return "§" + section + " has no round " + round
			}
		}
	}
	for _, m := range rowsRe.FindAllStringSubmatch(qualifiers, -1) {
		for _, r := range strings.Split(m[1], ",") {
			for _, n := range strings.Split(strings.TrimSpace(r), "-") {
				if !regexp.MustCompile(`(?m)^\|\s*` + n + `\s*\|`).MatchString(body) {
					return "§" + section + " has no row " + n
				}
			}
		}
	}
	return ""
}

// checkCitations checks the comments of the Go code and the shell scripts, and the repository's
// Markdown: every section cited exists in the document cited, and every file a comment names
// exists in the repository.
func (c *checker) checkCitations() error {
	design, err := os.ReadFile(filepath.Join(c.root, "DESIGN.md"))
	if err != nil {
		return err
	}
	docs := map[string]designDoc{"DESIGN": parseDesignDoc(string(design))}
	if contract, err := os.ReadFile(filepath.Join(c.root, ContractPath)); err == nil {
		docs["contract"] = parseDesignDoc(string(contract))
	}
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
		c.checkSections(f, text, docs)
		c.checkFileNames(f, text, files)
	}
	for _, f := range shFiles {
		src, err := os.ReadFile(filepath.Join(c.root, f))
		if err != nil {
			return err
		}
		text := shellComments(string(src))
		c.checkSections(f, text, docs)
		c.checkFileNames(f, text, files)
	}
	for _, f := range mdFiles {
		text, err := os.ReadFile(filepath.Join(c.root, f))
		if err != nil {
			return err
		}
		c.checkSections(f, string(text), docs)
	}
	return nil
}

func (c *checker) checkSections(file, text string, docs map[string]designDoc) {
	for _, m := range citationRe.FindAllStringSubmatchIndex(text, -1) {
		name := strings.TrimSuffix(text[m[2]:m[3]], ".md")
		cited := strings.Join(strings.Fields(text[m[0]:m[1]]), " ")
		d, ok := docs[name]
		if !ok {
			c.unchecked[cited] = true
			continue
		}
		if msg := d.problem(text[m[4]:m[5]], text[m[6]:m[7]]); msg != "" {
			where := "DESIGN.md"
			if name == "contract" {
				where = "the contract (" + ContractPath + ")"
			}
			c.report(file, lineOf(text, m[0]), "%q: %s %s", cited, where, msg)
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
