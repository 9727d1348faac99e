// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sync"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// The acceptance tests run under Terraform and OpenTofu. OpenTofu reports versions of its own
// (1.12.x) that say nothing about which of Terraform's features it has, so a test that needs a
// feature of the CLI names the feature, and the feature says which Terraform version brought it
// and whether OpenTofu has it (as found by running the suite under OpenTofu 1.12.6).
type cliFeature struct {
	name      string
	terraform *version.Version // the first Terraform version with it (its prereleases count)
	openTofu  bool
}

var (
	// Terraform below 1.9.3 fails on nested computed attributes when it generates configuration.
	featGenerateConfig = cliFeature{"configuration generation for nested attributes", version.Must(version.NewVersion("1.9.3")), true}
	featIdentity       = cliFeature{"resource identity", tfversion.Version1_12_0, true}
	featListResources  = cliFeature{"list resources and terraform query", tfversion.Version1_14_0, false}
	featActions        = cliFeature{"actions", tfversion.Version1_14_0, false}
	featDestroyActions = cliFeature{"destroy-time action triggers and on_failure", version.Must(version.NewVersion("1.16.0")), false}
)

// CheckTerraformVersion makes a feature a TerraformVersionCheck: it skips the test under a CLI
// without the feature.
func (f cliFeature) CheckTerraformVersion(ctx context.Context, req tfversion.CheckTerraformVersionRequest, resp *tfversion.CheckTerraformVersionResponse) {
	if cliIsOpenTofu(os.Getenv("TF_ACC_TERRAFORM_PATH")) {
		if !f.openTofu {
			resp.Skip = "OpenTofu has no " + f.name + ": skipping test"
		}
		return
	}
	tfversion.SkipBelow(f.terraform).CheckTerraformVersion(ctx, req, resp)
}

// cliCan is the TerraformVersionChecks of a test that needs the features.
func cliCan(features ...cliFeature) []tfversion.TerraformVersionCheck {
	out := make([]tfversion.TerraformVersionCheck, len(features))
	for i, f := range features {
		out[i] = f
	}
	return out
}

// missing says why the CLI bin, of version have (read only for Terraform), lacks f, or is empty.
func (f cliFeature) missing(bin string, have func() (*version.Version, error)) (string, error) {
	if cliIsOpenTofu(bin) {
		if !f.openTofu {
			return "OpenTofu has no " + f.name, nil
		}
		return "", nil
	}
	v, err := have()
	if err != nil {
		return "", err
	}
	if v.Core().LessThan(f.terraform) {
		return fmt.Sprintf("Terraform %s has no %s (Terraform %s or later)", v, f.name, f.terraform), nil
	}
	return "", nil
}

// skipUnlessCLICan skips a test that runs the CLI itself (tfCLI, mirrorCLI) under a CLI without f.
func skipUnlessCLICan(t *testing.T, bin string, have *version.Version, f cliFeature) {
	t.Helper()
	if why, _ := f.missing(bin, func() (*version.Version, error) { return have, nil }); why != "" {
		t.Skip(why)
	}
}

// skipWithout is the SkipFunc of a step that needs f, in a test that runs under every CLI: the step
// is skipped under a CLI without f, the rest of the test runs.
func skipWithout(f cliFeature) func() (bool, error) {
	return func() (bool, error) {
		bin := os.Getenv("TF_ACC_TERRAFORM_PATH")
		why, err := f.missing(bin, func() (*version.Version, error) { return cliVersion(bin) })
		return why != "", err
	}
}

// cliVersion is the version the binary (terraform from PATH when empty) reports.
func cliVersion(bin string) (*version.Version, error) {
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("terraform"); err != nil {
			return nil, err
		}
	}
	out, err := exec.Command(bin, "version", "-json").Output()
	if err != nil {
		return nil, fmt.Errorf("%s version: %w", bin, err)
	}
	var v struct {
		TerraformVersion string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, fmt.Errorf("%s version -json: %w", bin, err)
	}
	return version.NewVersion(v.TerraformVersion)
}

var (
	openTofuCLIs    sync.Map // binary path -> bool
	openTofuVersion = regexp.MustCompile(`(?m)^OpenTofu v`)
)

// cliIsOpenTofu tells whether the binary (terraform from PATH when empty) is OpenTofu: `version`
// names the product (after warnings about the CLI configuration, which OpenTofu prints first).
func cliIsOpenTofu(bin string) bool {
	if bin == "" {
		bin, _ = exec.LookPath("terraform")
	}
	if v, ok := openTofuCLIs.Load(bin); ok {
		return v.(bool)
	}
	out, _ := exec.Command(bin, "version").Output()
	tofu := openTofuVersion.Match(out)
	openTofuCLIs.Store(bin, tofu)
	return tofu
}

// openTofuDefaults lets `go test` run the acceptance tests under OpenTofu as they run under
// Terraform, unless the variables are set already:
//   - OpenTofu refuses terraform-plugin-testing's default provider address
//     (registry.terraform.io/-/featureconsole): configurations without required_providers mean
//     registry.opentofu.org/hashicorp/featureconsole to it;
//   - terraform-plugin-testing reads the CLI's version from what `version` prints first, and
//     OpenTofu prints a warning first when TF_CLI_CONFIG_FILE names a file that does not exist
//     (Terraform says nothing), so such a setting is replaced by an empty configuration.
func openTofuDefaults() {
	if os.Getenv("TF_ACC") == "" || !cliIsOpenTofu(os.Getenv("TF_ACC_TERRAFORM_PATH")) {
		return
	}
	for k, v := range map[string]string{
		resource.EnvTfAccProviderHost:      "registry.opentofu.org",
		resource.EnvTfAccProviderNamespace: "hashicorp",
	} {
		if os.Getenv(k) == "" {
			_ = os.Setenv(k, v)
		}
	}
	if rc := os.Getenv("TF_CLI_CONFIG_FILE"); rc == "" || !fileExists(rc) {
		_ = os.Setenv("TF_CLI_CONFIG_FILE", os.DevNull)
	}
}

// cliLean runs every CLI the tests start (terraform-plugin-testing's and newTFCLI's, which pass this
// process's environment on) on one thread and without Go's garbage collector until its heap
// reaches 1 GiB: each command lives a fraction of a second among a dozen others on two cores, and
// the collector and the idle threads cost 16 % of the CLI's CPU (CONTRIBUTING.md, "Which CLIs, and
// what CI runs"). This process read its own settings when it started and keeps them; settings the
// caller made are kept.
func cliLean() {
	if os.Getenv("TF_ACC") == "" {
		return
	}
	for k, v := range map[string]string{"GOGC": "off", "GOMEMLIMIT": "1GiB", "GOMAXPROCS": "1"} {
		if os.Getenv(k) == "" {
			_ = os.Setenv(k, v)
		}
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
