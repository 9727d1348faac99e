// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"strings"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// terraform query -generate-config-out of a project holding console-made segments: the segment
// with a `public` condition is generated as it is, the user-store and analysis lists are left out
// with a warning naming them, and the generated configuration plans as imports only.
func TestAccSegment_onboardConsoleMade(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t, featListResources)
	m, url := startMock(t, mockconsole.Config{NoSeed: true})
	seedConsoleSegments(m)
	m.PutSegment(mockconsole.Segment{ID: "seg_vip", Name: "VIP", Type: "id_list", IDType: "userID", IsEnabled: true, IDs: idRange(0, 150)})
	cli.write("main.tf", providerBlock(url))
	cli.write("segments.tfquery.hcl", `
list "featureconsole_segment" "all" {
  provider         = featureconsole
  include_resource = true
}
`)
	cli.must("init", "-input=false", "-no-color")
	out := cli.must("query", "-no-color", "-generate-config-out=generated.tf")
	words := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"Segments left out", `"seg_store" (user_store_id_list)`, `"seg_analysis" (analysis_list)`} {
		if !strings.Contains(words, want) {
			t.Errorf("the query's warning does not say %s:\n%s", want, out)
		}
	}
	gen := cli.read("generated.tf")
	if strings.Contains(gen, "seg_store") || strings.Contains(gen, "seg_analysis") || !strings.Contains(gen, `"public"`) {
		t.Fatalf("generated.tf:\n%s", gen)
	}
	cli.importsOnlyThenEmpty(m, gen, 2)
}
