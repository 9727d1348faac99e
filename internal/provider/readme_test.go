// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// terraformBlocks is the HCL of every terraform code block of a Markdown text, joined.
func terraformBlocks(markdown string) string {
	var blocks []string
	for _, m := range guideHCLRe.FindAllStringSubmatch(markdown, -1) {
		blocks = append(blocks, m[1])
	}
	return strings.Join(blocks, "\n")
}

var readmeGateIDRe = regexp.MustCompile(`gate_id\s*=\s*"([^"]+)"`)

// The README's "Try it locally" as written: the HCL the README shows, taken from README.md,
// applies against the mock configured as make mock serves it (the service's write limits), with
// the provider configured from the two environment variables the README sets; the plan after
// apply is empty, and destroy leaves none of its gates behind.
func TestAccReadme_tryItLocally(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	hcl := terraformBlocks(string(b))
	var gates []string
	for _, m := range readmeGateIDRe.FindAllStringSubmatch(hcl, -1) {
		gates = append(gates, m[1])
	}
	if len(gates) == 0 {
		t.Fatalf("README.md shows no gate to apply:\n%s", hcl)
	}
	m, url := startMock(t, mockconsole.Config{}.WithServiceLimits())
	t.Setenv(resource.EnvTfAccProviderNamespace, "featureconsole")
	t.Setenv(framework.EnvBaseURL, url)
	t.Setenv(framework.EnvAPIKey, mockconsole.DefaultAPIKey)
	gatesInMock := func(want bool) resource.TestCheckFunc {
		return func(*terraform.State) error {
			for _, id := range gates {
				if _, ok := m.Gate(id); ok != want {
					return fmt.Errorf("gate %q in the mock: %t, want %t", id, ok, want)
				}
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             gatesInMock(false),
		Steps: []resource.TestStep{{
			Config: hcl,
			Check:  gatesInMock(true),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		}},
	})
}

// The README's intro and its "Three things to know" speak of experiments: what the provider
// manages, that a started experiment is protected from deletion, and how it imports.
func TestReadme_experiments(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	intro, _, _ := strings.Cut(readme, "\n## ")
	_, three, _ := strings.Cut(readme, "## Three things to know")
	three, _, _ = strings.Cut(three, "\n## ")
	for _, want := range []string{"experiments", "dynamic configs", "an experiment's results"} {
		if !strings.Contains(strings.Join(strings.Fields(intro), " "), want) {
			t.Errorf("the README's intro does not say %q", want)
		}
	}
	for _, want := range []string{"`featureconsole_experiment`", "`deletion_protection = false`", "`archive_on_destroy = true`",
		"an experiment's id"} {
		if !strings.Contains(strings.Join(strings.Fields(three), " "), want) {
			t.Errorf("the README's \"Three things to know\" does not say %q", want)
		}
	}
}
