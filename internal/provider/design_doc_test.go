// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The tests cite "DESIGN §4" for the examples they apply: DESIGN.md §4 must hold those examples, so
// that the citation leads to what the tests run.
func TestDesignDocHoldsCitedExamples(t *testing.T) {
	b, err := os.ReadFile("../../DESIGN.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "\n## 4. ")
	end := strings.Index(doc, "\n## 5. ")
	if start < 0 || end < start {
		t.Fatal("DESIGN.md has no section 4 followed by section 5")
	}
	section := hclWords(strings.Join(regexp.MustCompile("(?s)```hcl\n(.*?)```").FindAllString(doc[start:end], -1), "\n"))
	for name, example := range map[string]string{
		"designExampleRules (resource_gate_rules_test.go)":       designExampleRules,
		"pipelineExampleHCL (resource_release_pipeline_test.go)": pipelineExampleHCL,
	} {
		if !strings.Contains(section, hclWords(example)) {
			t.Errorf("DESIGN.md §4 does not hold %s:\n%s", name, example)
		}
	}
}

// hclWords drops comments and folds white space, so that the comparison is of the HCL itself.
func hclWords(s string) string {
	s = regexp.MustCompile(`(?m)\s+#.*$|^\s*#.*$|`+"```(hcl)?").ReplaceAllString(s, "")
	return strings.Join(strings.Fields(s), " ")
}
