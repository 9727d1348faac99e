// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package docslint

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

var (
	fenceRe    = regexp.MustCompile("(?ms)^[ \t]*```([\\w-]*)[^\n]*\n(.*?)^[ \t]*```[ \t]*$")
	codeSpanRe = regexp.MustCompile("`([^`\n]+)`")
	linkRe     = regexp.MustCompile(`\[[^\]\n]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	headingRe  = regexp.MustCompile(`(?m)^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$`)
	anchorRe   = regexp.MustCompile(`<a (?:id|name)="([^"]+)"`)
	tableSepRe = regexp.MustCompile(`^\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$`)
)

// fence is a fenced code block: its language and its text, and the line its text starts on.
type fence struct {
	lang, text string
	line       int
}

// doc is a Markdown file split into its fenced code blocks and its prose (the same text with the
// fenced blocks blanked, so that line numbers stay right).
type doc struct {
	path   string
	fences []fence
	prose  string
}

func parseDoc(path, text string) doc {
	d := doc{path: path}
	prose := []byte(text)
	for _, m := range fenceRe.FindAllStringSubmatchIndex(text, -1) {
		d.fences = append(d.fences, fence{
			lang: text[m[2]:m[3]],
			text: text[m[4]:m[5]],
			line: lineOf(text, m[4]),
		})
		for i := m[0]; i < m[1]; i++ {
			if prose[i] != '\n' {
				prose[i] = ' '
			}
		}
	}
	d.prose = string(prose)
	return d
}

func lineOf(text string, offset int) int { return strings.Count(text[:offset], "\n") + 1 }

// codeSpans are the inline code spans of the prose, with their lines.
func (d doc) codeSpans() (spans []string, lines []int) {
	for _, m := range codeSpanRe.FindAllStringSubmatchIndex(d.prose, -1) {
		spans = append(spans, d.prose[m[2]:m[3]])
		lines = append(lines, lineOf(d.prose, m[0]))
	}
	return spans, lines
}

// links are the targets of the prose's inline links (code spans excluded), with their lines.
func (d doc) links() (targets []string, lines []int) {
	prose := codeSpanRe.ReplaceAllStringFunc(d.prose, func(s string) string { return strings.Repeat(" ", len(s)) })
	for _, m := range linkRe.FindAllStringSubmatchIndex(prose, -1) {
		targets = append(targets, prose[m[2]:m[3]])
		lines = append(lines, lineOf(prose, m[0]))
	}
	return targets, lines
}

// anchors are the fragment ids the file offers: its headings as GitHub and the registry slug them,
// and explicit <a id> anchors.
func (d doc) anchors() map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, m := range headingRe.FindAllStringSubmatch(d.prose, -1) {
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out[s+"-"+strconv.Itoa(n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	for _, m := range anchorRe.FindAllStringSubmatch(d.prose, -1) {
		out[m[1]] = true
	}
	return out
}

// slug is GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// tableRow is a row of a Markdown table: its cells and line.
type tableRow struct {
	cells []string
	line  int
}

// tables are the prose's tables, header and separator left out.
func (d doc) tables() [][]tableRow {
	var out [][]tableRow
	var cur []tableRow
	inTable := false
	lines := strings.Split(d.prose, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "|") {
			if inTable {
				out = append(out, cur)
			}
			cur, inTable = nil, false
			continue
		}
		if !inTable {
			// A table starts with a header followed by its separator row.
			if i+1 < len(lines) && tableSepRe.MatchString(strings.TrimSpace(lines[i+1])) {
				inTable = true
			}
			continue
		}
		if tableSepRe.MatchString(t) {
			continue
		}
		cur = append(cur, tableRow{cells: splitRow(t), line: i + 1})
	}
	if inTable {
		out = append(out, cur)
	}
	return out
}

// splitRow splits a table row into trimmed cells; pipes inside code spans or escaped do not split.
func splitRow(row string) []string {
	row = strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|")
	var cells []string
	var b strings.Builder
	inCode := false
	for i := 0; i < len(row); i++ {
		c := row[i]
		switch {
		case c == '\\' && i+1 < len(row) && row[i+1] == '|':
			b.WriteByte('|')
			i++
		case c == '`':
			inCode = !inCode
			b.WriteByte(c)
		case c == '|' && !inCode:
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}
