// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// tfCLI runs the terraform binary of TF_ACC_TERRAFORM_PATH in a directory against the provider served
// in-process (reattached, as terraform-plugin-testing does), for the commands the test harness has no
// step for: `terraform query -generate-config-out` followed by plan and apply of what it wrote.
type tfCLI struct {
	t        *testing.T
	bin, dir string
	env      []string
}

// newTFCLI starts the provider and returns a runner, or skips the test when TF_ACC is not set or the
// CLI lacks one of the features.
func newTFCLI(t *testing.T, features ...cliFeature) *tfCLI {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	bin := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("terraform"); err != nil {
			t.Skip("no terraform binary: set TF_ACC_TERRAFORM_PATH")
		}
	}
	have, err := cliVersion(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range features {
		skipUnlessCLICan(t, bin, have, f)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cfgCh := make(chan *goplugin.ReattachConfig, 1)
	closeCh := make(chan struct{})
	factory := newServerFactory(newTestProvider)
	go func() {
		err := tf6server.Serve("registry.terraform.io/featureconsole/featureconsole",
			func() tfprotov6.ProviderServer {
				s, err := factory()
				if err != nil {
					panic(err)
				}
				return s
			},
			tf6server.WithDebug(ctx, cfgCh, closeCh),
			tf6server.WithGoPluginLogger(hclog.NewNullLogger()),
			tf6server.WithoutLogStderrOverride(),
			tf6server.WithLoggingSink(t),
		)
		if err != nil {
			t.Errorf("serving the provider: %v", err)
		}
	}()
	var rc *goplugin.ReattachConfig
	select {
	case rc = <-cfgCh:
	case <-closeCh:
		t.Fatal("the provider server stopped before it started")
	}
	t.Cleanup(func() {
		cancel()
		<-closeCh
	})
	entry := map[string]any{
		"Protocol": string(rc.Protocol), "ProtocolVersion": rc.ProtocolVersion, "Pid": rc.Pid, "Test": rc.Test,
		"Addr": map[string]string{"Network": rc.Addr.Network(), "String": rc.Addr.String()},
	}
	// Configurations without required_providers name the provider hashicorp/featureconsole, on
	// OpenTofu's registry under OpenTofu.
	reattach, _ := json.Marshal(map[string]any{
		"registry.terraform.io/featureconsole/featureconsole": entry,
		"registry.terraform.io/hashicorp/featureconsole":      entry,
		"registry.opentofu.org/featureconsole/featureconsole": entry,
		"registry.opentofu.org/hashicorp/featureconsole":      entry,
	})
	return &tfCLI{
		t: t, bin: bin, dir: t.TempDir(),
		env: append(os.Environ(), "TF_REATTACH_PROVIDERS="+string(reattach), "TF_IN_AUTOMATION=1",
			"CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null", "TF_LOG=", "TF_CLI_ARGS="),
	}
}

// write puts a file into the working directory.
func (c *tfCLI) write(name, content string) {
	c.t.Helper()
	if err := os.WriteFile(filepath.Join(c.dir, name), []byte(content), 0o600); err != nil {
		c.t.Fatal(err)
	}
}

func (c *tfCLI) read(name string) string {
	c.t.Helper()
	b, err := os.ReadFile(filepath.Join(c.dir, name))
	if err != nil {
		c.t.Fatal(err)
	}
	return string(b)
}

// run runs terraform with args and returns its exit code and output; okCodes are the codes that are
// not a failure.
func (c *tfCLI) run(okCodes []int, args ...string) (int, string) {
	c.t.Helper()
	cmd := exec.Command(c.bin, append([]string{"-chdir=" + c.dir}, args...)...)
	cmd.Env = c.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		c.t.Fatalf("terraform %s: %v", strings.Join(args, " "), err)
	}
	for _, ok := range okCodes {
		if code == ok {
			return code, out.String()
		}
	}
	c.t.Fatalf("terraform %s: exit code %d:\n%s", strings.Join(args, " "), code, out.String())
	return code, ""
}

// must runs terraform and fails the test unless it succeeds.
func (c *tfCLI) must(args ...string) string {
	c.t.Helper()
	_, out := c.run([]int{0}, args...)
	return out
}

// planActions saves a plan and returns, per resource address, its actions and whether it imports.
func (c *tfCLI) planActions() map[string]plannedChange {
	c.t.Helper()
	c.must("plan", "-input=false", "-no-color", "-out=tfplan")
	var plan struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				Actions   []string        `json:"actions"`
				Importing json.RawMessage `json:"importing"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(c.must("show", "-json", "tfplan")), &plan); err != nil {
		c.t.Fatalf("terraform show -json: %v", err)
	}
	out := map[string]plannedChange{}
	for _, rc := range plan.ResourceChanges {
		out[rc.Address] = plannedChange{actions: strings.Join(rc.Change.Actions, ","), importing: len(rc.Change.Importing) > 0 && string(rc.Change.Importing) != "null"}
	}
	return out
}

type plannedChange struct {
	actions   string
	importing bool
}

func (p plannedChange) String() string {
	return fmt.Sprintf("%s (importing: %t)", p.actions, p.importing)
}

// requestLog is what importsOnlyThenEmpty reads of a service: the mock, or a recorder.
type requestLog interface {
	ResetRequests()
	Requests() []mockconsole.Request
}

// importsOnlyThenEmpty finishes an onboarding after `terraform query -generate-config-out` wrote
// gen: the plan of the generated configuration holds want resources, each an import and nothing
// else; applying it sends the service no write; the plan after it is empty.

func (c *tfCLI) importsOnlyThenEmpty(m requestLog, gen string, want int) {
	c.t.Helper()
	changes := c.planActions()
	if len(changes) != want {
		c.t.Errorf("the plan of the generated configuration holds %d resources, want %d", len(changes), want)
	}
	for addr, ch := range changes {
		if ch.actions != "no-op" || !ch.importing {
			c.t.Errorf("%s: planned %s, want an import and nothing else", addr, ch)
		}
	}
	if c.t.Failed() {
		c.t.Fatalf("generated configuration:\n%s", gen)
	}
	m.ResetRequests()
	c.must("apply", "-input=false", "-no-color", "tfplan")
	for _, r := range m.Requests() {
		if r.Method != http.MethodGet {
			c.t.Errorf("applying the imports sent %s %s", r.Method, r.Path)
		}
	}
	if code, out := c.run([]int{0, 2}, "plan", "-input=false", "-no-color", "-detailed-exitcode"); code != 0 {
		c.t.Errorf("the plan after apply is not empty:\n%s", out)
	}
}
