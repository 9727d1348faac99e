// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package docslint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Problem is one disagreement, at a file and line.
type Problem struct {
	File string
	Line int
	Msg  string
}

func (p Problem) String() string { return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg) }

type checker struct {
	root     string
	schema   *Schema
	targets  map[string]bool
	problems []Problem
	pending  map[string]bool
}

func (c *checker) report(file string, line int, format string, args ...any) {
	c.problems = append(c.problems, Problem{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// Result is what Run found: the problems, and the pending types it met but could not check yet.
type Result struct {
	Problems []Problem
	Pending  []string
}

// Which files each check reads, relative to the repository root.
var (
	// Contributors' and users' Markdown on GitHub: its relative links must resolve in the repository.
	repoDocs = []string{"README.md", "CONTRIBUTING.md", "DESIGN.md", "CHANGELOG.md", "BENCHMARKS.md", "internal/mockconsole/HABITS.md"}
	// Files whose `make` commands must be targets of the GNUmakefile.
	makeDocs = []string{"README.md", "CONTRIBUTING.md"}
	// Registry text: published on the registry, where only absolute links work and internal words
	// (the test double and the client's internals) mean nothing to users.
	registryDirs = []string{"docs", "templates"}
	releaseRe    = regexp.MustCompile(`^\d+\.\d+(\.\d+)?$`)
	gateWordRe   = regexp.MustCompile(`(?i)\b(?:the |a )?gate(?:'s|s)?\b( rules)?`)
	internalRe   = regexp.MustCompile(`(?i)\b(habits?|pacer|pacing-?bucket|seed(ed|s)?|mock\w*)\b`)
	// A duration in prose: CI's timings churn, and live in BENCHMARKS.md ("CI"), one table.
	timingRe    = regexp.MustCompile(`\b\d[\d,.]*\s?(?:s|ms|min|minutes?|seconds?|hours?)\b`)
	makeCmdRe   = regexp.MustCompile(`(?:^|[\s;&|(])make\s+([a-z](?:[\w-]|\.\w)*)`)
	proseAttrRe = regexp.MustCompile(`^([a-z][a-z0-9_]*) += `)
	proseTypeRe = regexp.MustCompile(`^(featureconsole_[a-z0-9_]+)(?:\.[a-z0-9_.*\[\]]+)?$`)
)

// Terraform's own names that appear as `name = value` in prose.
var terraformWords = set("count", "for_each", "provider", "depends_on", "source", "version", "to", "id", "identity",
	"from", "destroy", "limit", "include_resource", "prevent_destroy", "create_before_destroy", "ignore_changes",
	"events", "actions", "condition", "alias", "required_version")

// Run checks the repository at root against the provider's schema.
func Run(root string, schema *Schema) (Result, error) {
	c := &checker{root: root, schema: schema, pending: map[string]bool{}}
	mk, err := os.ReadFile(filepath.Join(root, "GNUmakefile"))
	if err != nil {
		return Result{}, err
	}
	c.targets = MakeTargets(string(mk))

	for _, f := range repoDocs {
		text, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return Result{}, err
		}
		d := parseDoc(f, string(text))
		c.checkRepoLinks(d)
		c.checkTables(d)
	}
	for _, f := range makeDocs {
		text, _ := os.ReadFile(filepath.Join(root, f))
		c.checkMakeTargets(parseDoc(f, string(text)))
	}
	readme, _ := os.ReadFile(filepath.Join(root, "README.md"))
	c.checkConfigDoc(parseDoc("README.md", string(readme)))
	contributing, _ := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	c.checkNoTimings("CONTRIBUTING.md", string(contributing))

	for _, dir := range registryDirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !hasSuffix(p, ".md", ".md.tmpl") {
				return err
			}
			text, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			d := parseDoc(filepath.ToSlash(rel), string(text))
			c.checkConfigDoc(d)
			c.checkTables(d)
			c.checkRegistryLinks(d)
			c.checkWords(d.path, string(text))
			c.checkConfigWords(d.path, string(text))
			return nil
		})
		if err != nil {
			return Result{}, err
		}
	}
	err = filepath.WalkDir(filepath.Join(root, "examples"), func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !hasSuffix(p, ".tf", ".tfquery.hcl") {
			return err
		}
		text, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		c.checkHCL(filepath.ToSlash(rel), 1, string(text))
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	if err := c.checkCitations(); err != nil {
		return Result{}, err
	}
	res := Result{Problems: c.problems}
	for p := range c.pending {
		res.Pending = append(res.Pending, p)
	}
	sort.Strings(res.Pending)
	return res, nil
}

// MakeTargets are the targets a GNUmakefile defines.
func MakeTargets(makefile string) map[string]bool {
	out := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([A-Za-z0-9][\w./-]*(?:[ \t]+[A-Za-z0-9][\w./-]*)*)[ \t]*:([^=]|$)`).FindAllStringSubmatch(makefile, -1) {
		for _, t := range strings.Fields(m[1]) {
			out[t] = true
		}
	}
	return out
}

// checkMakeTargets: every `make x` in code spans and shell blocks names a target.
func (c *checker) checkMakeTargets(d doc) {
	check := func(text string, line int) {
		for _, m := range makeCmdRe.FindAllStringSubmatch(text, -1) {
			if !c.targets[m[1]] {
				c.report(d.path, line, "make %s: no such target in GNUmakefile", m[1])
			}
		}
	}
	spans, lines := d.codeSpans()
	for i, s := range spans {
		check(s, lines[i])
	}
	for _, f := range d.fences {
		if f.lang == "sh" || f.lang == "shell" || f.lang == "bash" || f.lang == "console" {
			for i, l := range strings.Split(f.text, "\n") {
				check(l, f.line+i)
			}
		}
	}
}

// checkConfigDoc checks the HCL of fenced terraform and hcl blocks, and `name = value` in prose.
func (c *checker) checkConfigDoc(d doc) {
	for _, f := range d.fences {
		if f.lang == "terraform" || f.lang == "hcl" || f.lang == "tf" {
			c.checkHCL(d.path, f.line, f.text)
		}
	}
	spans, lines := d.codeSpans()
	for i, s := range spans {
		if m := proseAttrRe.FindStringSubmatch(s); m != nil && !c.schema.names[m[1]] && !terraformWords[m[1]] {
			c.report(d.path, lines[i], "`%s`: %q is no attribute of the provider's schema", s, m[1])
		}
		if m := proseTypeRe.FindStringSubmatch(s); m != nil && !c.knownType(m[1]) {
			c.report(d.path, lines[i], "`%s`: no resource, data source, list resource or action is named %s", s, m[1])
		}
	}
}

// knownType reports whether any kind has a type of that name, or one is pending.
func (c *checker) knownType(name string) bool {
	for kind := range c.schema.Types {
		if c.schema.Has(kind, name) {
			return true
		}
	}
	for _, kind := range []string{"resource", "list"} {
		if isPending(kind, name) {
			c.pending[kind+" "+name] = true
			return true
		}
	}
	return false
}

// checkTables: no table lists the same first cell twice, and a row on `-generate-config-out` (the
// version tables of the README and the provider's page) names every resource: which Terraform
// release generates configuration is said for each, none left out.
func (c *checker) checkTables(d doc) {
	for _, t := range d.tables() {
		seen := map[string]int{}
		for _, r := range t {
			c.checkGeneratedConfigRow(d.path, r)
			key := r.cells[0]
			if key == "" {
				continue
			}
			if prev, ok := seen[key]; ok {
				c.report(d.path, r.line, "table row %q repeats the row of line %d", key, prev)
				continue
			}
			seen[key] = r.line
		}
	}
}

// checkGeneratedConfigRow reports the resources a version table's row (its first cell a release,
// such as 1.9.3) on `-generate-config-out` leaves out.
func (c *checker) checkGeneratedConfigRow(file string, r tableRow) {
	text := strings.Join(r.cells, " | ")
	if len(r.cells) == 0 || !releaseRe.MatchString(r.cells[0]) || !strings.Contains(text, "-generate-config-out") {
		return
	}
	var missing []string
	for _, name := range c.schema.typeNames("resource") {
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(text) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		c.report(file, r.line, "the row on -generate-config-out leaves out %s: it says which release generates "+
			"configuration for every resource", strings.Join(missing, ", "))
	}
}

// checkConfigWords: a dynamic config's registry pages speak of the config. "gate" stands there only
// as "gate rules" (the model a config's rules follow) or in a name such as `passes_gate`; a rule
// description carried over from the gate's ("unique within the gate") is reported.
func (c *checker) checkConfigWords(file, text string) {
	if !strings.Contains(filepath.Base(file), "dynamic_config") {
		return
	}
	for i, l := range strings.Split(text, "\n") {
		for _, m := range gateWordRe.FindAllStringSubmatch(l, -1) {
			if m[1] == "" {
				c.report(file, i+1, "%q on a dynamic config's page: it speaks of the config (or of \"gate rules\", the model)", m[0])
			}
		}
	}
}

// checkRepoLinks: relative links resolve to a file of the repository, and their fragments to a
// heading of the target.
func (c *checker) checkRepoLinks(d doc) {
	targets, lines := d.links()
	for i, t := range targets {
		if isAbsolute(t) {
			continue
		}
		file, frag, _ := strings.Cut(t, "#")
		target := d.path
		if file != "" {
			target = filepath.ToSlash(filepath.Join(filepath.Dir(d.path), file))
			if _, err := os.Stat(filepath.Join(c.root, target)); err != nil {
				c.report(d.path, lines[i], "link %q: %s does not exist", t, target)
				continue
			}
		}
		if frag == "" || !strings.HasSuffix(target, ".md") {
			continue
		}
		text, err := os.ReadFile(filepath.Join(c.root, target))
		if err != nil {
			continue
		}
		if !parseDoc(target, string(text)).anchors()[frag] {
			c.report(d.path, lines[i], "link %q: %s has no heading for #%s", t, target, frag)
		}
	}
}

// checkRegistryLinks: registry pages are read on the registry and on GitHub, where a relative
// link resolves differently; only absolute links and fragments of the page itself work on both.
func (c *checker) checkRegistryLinks(d doc) {
	targets, lines := d.links()
	anchors := d.anchors()
	for i, t := range targets {
		switch {
		case isAbsolute(t):
		case strings.HasPrefix(t, "#"):
			// Generated pages link to their schema's anchors, which a template cannot know.
			if !anchors[t[1:]] && !strings.HasSuffix(d.path, ".tmpl") {
				c.report(d.path, lines[i], "link %q: no heading or anchor for it on this page", t)
			}
		default:
			c.report(d.path, lines[i], "link %q is relative: it breaks on GitHub or the registry; use the registry address", t)
		}
	}
}

func hasSuffix(p string, suffixes ...string) bool {
	for _, s := range suffixes {
		if strings.HasSuffix(p, s) {
			return true
		}
	}
	return false
}

func isAbsolute(t string) bool {
	return strings.HasPrefix(t, "https://") || strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "mailto:")
}

// checkWords: registry text says nothing of the provider's internals or its test double.
func (c *checker) checkWords(file, text string) {
	for i, l := range strings.Split(text, "\n") {
		if m := internalRe.FindString(l); m != "" {
			c.report(file, i+1, "internal word %q in registry text: say it in users' words", m)
		}
	}
}

// checkNoTimings reports a duration in a document's prose (code blocks and spans aside, where
// flags such as -fuzztime 60s belong): timings go out of date with each run, and BENCHMARKS.md
// keeps them.
func (c *checker) checkNoTimings(file, text string) {
	fenced := false
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		if m := timingRe.FindString(codeSpanRe.ReplaceAllString(line, "")); m != "" {
			c.report(file, i+1, "a timing figure (%q): timings live in BENCHMARKS.md, \"CI\"", m)
		}
	}
}
