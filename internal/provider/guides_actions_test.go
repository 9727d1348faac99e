// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// terraform-plugin-testing cannot run `terraform apply -invoke`, which is how actions are used from
// CI and runbooks. These tests run the commands of the guide and the example as written, with the
// terraform of TF_ACC_TERRAFORM_PATH (1.14 or later; older ones skip) and the provider built from
// this repository, installed by `terraform init` from a local filesystem mirror.

// providerMirror builds the provider into a filesystem mirror (the build cache makes this quick
// after the first time).
func providerMirror(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "registry.terraform.io", "featureconsole", "featureconsole", "0.1.0",
		runtime.GOOS+"_"+runtime.GOARCH, "terraform-provider-featureconsole_v0.1.0")
	if out, err := exec.Command("go", "build", "-o", bin, "../..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// mirrorCLI is a working directory in which terraform commands run as a user types them: the provider
// is installed from a local filesystem mirror, not reattached (tfCLI), so init and -invoke run unaltered.
type mirrorCLI struct {
	t   *testing.T
	tf  string
	dir string
	env []string
}

func newMirrorCLI(t *testing.T, url string) *mirrorCLI {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if tf == "" {
		var err error
		if tf, err = exec.LookPath("terraform"); err != nil {
			t.Skip("no terraform")
		}
	}
	out, err := exec.Command(tf, "version", "-json").Output()
	if err != nil {
		t.Fatalf("terraform version: %v", err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("terraform version: %v: %s", err, out)
	}
	have, err := version.NewVersion(v.Version)
	if err != nil {
		t.Fatal(err)
	}
	skipUnlessCLICan(t, tf, have, featActions)
	mirror := providerMirror(t)
	dir := t.TempDir()
	rc := filepath.Join(dir, ".terraformrc")
	if err := os.WriteFile(rc, []byte(fmt.Sprintf(`provider_installation {
  filesystem_mirror {
    path    = %q
    include = ["registry.terraform.io/featureconsole/*"]
  }
  direct {
    exclude = ["registry.terraform.io/featureconsole/*"]
  }
}
`, mirror)), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		"TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_CLI_ARGS=-no-color",
		framework.EnvBaseURL+"="+url, framework.EnvAPIKey+"="+mockconsole.DefaultAPIKey)
	return &mirrorCLI{t: t, tf: tf, dir: dir, env: env}
}

func (c *mirrorCLI) write(name, content string) {
	c.t.Helper()
	if err := os.WriteFile(filepath.Join(c.dir, name), []byte(content), 0o600); err != nil {
		c.t.Fatal(err)
	}
}

// run runs one command line as written ("terraform ..."), failing the test when it fails.
func (c *mirrorCLI) run(line string) string {
	c.t.Helper()
	args := strings.Fields(line)
	if len(args) == 0 || args[0] != "terraform" {
		c.t.Fatalf("not a terraform command: %q", line)
	}
	cmd := exec.Command(c.tf, args[1:]...)
	cmd.Dir, cmd.Env = c.dir, c.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		c.t.Fatalf("%s: %v\n%s", line, err, out)
	}
	return string(out)
}

// webRunAtProduction gives pl_web a Canary phase (1h) and a Production phase that requires
// review, and starts run rpt_1 of gate new_checkout, moved on to wait for the review of Production.
func webRunAtProduction(t *testing.T, m *mockconsole.Server) string {
	t.Helper()
	p, _ := m.Pipeline("pl_web")
	p.Phases = []mockconsole.Phase{
		{Name: "Canary", TimeIntervalMs: 3600000},
		{Name: "Production", TimeIntervalMs: 86400000, RequiredReview: true},
	}
	m.PutPipeline(p)
	m.SetRunSpeed(0)
	id, err := m.StartRun("pl_web", "new_checkout")
	if err != nil {
		t.Fatal(err)
	}
	m.AdvanceRunClock(2 * time.Hour)
	if r := mustRun(t, m, id); r.Status != mockconsole.RunWaitingForReview || r.CurrentPhase != "Production" {
		t.Fatalf("setup: %+v", r)
	}
	return id
}

var (
	guideBlockRe   = regexp.MustCompile("(?s)```(terraform|yaml|sh)\n(.*?)```")
	guideCommandRe = regexp.MustCompile(`(?m)^\s*(?:- )?(?:run: )?(terraform .+?)\s*$`)
)

// The guide "Approve a rollout from CI": its configuration, the CI job's commands and the
// runbook's commands, run as written; each run twice never acts twice.
func TestAccGuides_approveRolloutFromCI(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(guidesDir, "approve-rollout-from-ci.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	var hcl []string
	var jobs [][]string // the commands of each yaml or sh block
	for _, blk := range guideBlockRe.FindAllStringSubmatch(string(b), -1) {
		if blk[1] == "terraform" {
			hcl = append(hcl, blk[2])
			continue
		}
		var cmds []string
		for _, c := range guideCommandRe.FindAllStringSubmatch(blk[2], -1) {
			cmds = append(cmds, c[1])
		}
		jobs = append(jobs, cmds)
	}
	if len(hcl) != 1 || len(jobs) != 2 || len(jobs[0]) != 2 || len(jobs[1]) != 2 {
		t.Fatalf("the guide should hold one configuration, a CI job with init and apply, and a runbook of two commands: %q", jobs)
	}

	m, url := startMock(t, mockconsole.Config{})
	id := webRunAtProduction(t, m)
	cli := newMirrorCLI(t, url)
	cli.write("main.tf", hcl[0])

	// The CI job, then a re-run of it.
	for round := 1; round <= 2; round++ {
		var out string
		for _, cmd := range jobs[0] {
			out = cli.run(cmd)
		}
		r := mustRun(t, m, id)
		if r.Status != mockconsole.RunInProgress || r.CurrentPhase != "Production" || countActions(r, "APPROVED_FOR") != 1 {
			t.Fatalf("after CI job run %d: %+v", round, r)
		}
		if round == 2 && !regexp.MustCompile(`approve\s+already\s+done`).MatchString(out) {
			t.Fatalf("the re-run did not say the approval was already done:\n%s", out)
		}
	}
	if n := operationsSent(m, id, "approve"); n != 1 {
		t.Fatalf("approve sent %d times", n)
	}

	// The runbook: pause, pause again, abort, abort again.
	cli.run(jobs[1][0])
	if out := cli.run(jobs[1][0]); !regexp.MustCompile(`pause\s+already\s+done`).MatchString(out) {
		t.Fatalf("a second pause did not say it was already done:\n%s", out)
	}
	cli.run(jobs[1][1])
	if out := cli.run(jobs[1][1]); !regexp.MustCompile(`abort\s+already\s+done`).MatchString(out) {
		t.Fatalf("a second abort did not say it was already done:\n%s", out)
	}
	r := mustRun(t, m, id)
	if r.Status != mockconsole.RunAborted || countActions(r, "PAUSED") != 1 || countActions(r, "ABORTED") != 1 {
		t.Fatalf("after the runbook: %+v", r)
	}
	if m.CountRequests(http.MethodPut, "/release_pipeline_triggers/") != 3 {
		t.Fatalf("operations sent: %d, want approve, pause, abort", m.CountRequests(http.MethodPut, "/release_pipeline_triggers/"))
	}
}

// The action example: each of its actions invoked with -invoke, in the order of the file.
func TestAccExamples_actions(t *testing.T) {
	t.Parallel()
	example := readExample(t, filepath.Join("actions", "featureconsole_release_pipeline_trigger", "action.tf"))
	names := regexp.MustCompile(`(?m)^action "featureconsole_release_pipeline_trigger" "(\w+)"`).FindAllStringSubmatch(example, -1)
	if len(names) != 3 {
		t.Fatalf("want 3 actions in the example, found %d", len(names))
	}
	m, url := startMock(t, mockconsole.Config{})
	id := webRunAtProduction(t, m)
	cli := newMirrorCLI(t, url)
	cli.write("main.tf", `terraform {
  required_providers {
    featureconsole = { source = "featureconsole/featureconsole" }
  }
}
`+example)
	cli.run("terraform init -input=false")
	want := []string{mockconsole.RunInProgress, mockconsole.RunPaused, mockconsole.RunAborted}
	for i, n := range names {
		cli.run("terraform apply -input=false -auto-approve -invoke=action.featureconsole_release_pipeline_trigger." + n[1])
		if r := mustRun(t, m, id); r.Status != want[i] {
			t.Fatalf("after %s: %+v", n[1], r)
		}
	}
}

// The guide's action_trigger example, as written, on a gate attached to a pipeline whose first
// phase needs review: creating the rules starts a run and approves nothing; once that run has ended,
// an apply that changes the rules starts another run and approves its canary phase once; a plan
// without changes runs nothing again.
func TestAccGuides_actionTrigger(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(guidesDir, "approve-rollout-from-ci.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	var example string
	for _, blk := range regexp.MustCompile("(?s)```hcl\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		if strings.Contains(blk[1], "action_trigger") {
			example = blk[1]
		}
	}
	const percentage = "pass_percentage = 20"
	if example == "" || !strings.Contains(example, percentage) {
		t.Fatalf("the guide should hold an hcl block with action_trigger and %q", percentage)
	}
	m, url := startMock(t, mockconsole.Config{})
	g, _ := m.Gate("new_checkout")
	g.ReleasePipelineID = "pl_web"
	m.PutGate(g)
	latest := func() string {
		if runs := m.GateRuns("new_checkout"); len(runs) > 0 {
			return runs[0]
		}
		return ""
	}
	var first string
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   actionsTerraform,
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + example,
				Check: func(s *terraform.State) error {
					if first = latest(); first == "" {
						return fmt.Errorf("writing the rules of the attached gate started no run")
					}
					return resource.ComposeAggregateTestCheckFunc(
						checkRun(m, first, mockconsole.RunWaitingForReview, "Canary", "APPROVED_FOR", 0),
						checkSent(m, first, "approve", 0),
					)(s)
				},
			},
			{
				// The first rollout ends (someone rolls it out in the console): the gate's rules may change again.
				PreConfig: func() {
					if err := m.SetRun(first, mockconsole.RunCompleted, "", nil); err != nil {
						t.Fatal(err)
					}
				},
				Config: providerBlock(url) + strings.Replace(example, percentage, "pass_percentage = 30", 1),
				Check: func(s *terraform.State) error {
					second := latest()
					if second == first {
						return fmt.Errorf("changing the rules started no second run")
					}
					return resource.ComposeAggregateTestCheckFunc(
						checkRun(m, second, mockconsole.RunInProgress, "Canary", "APPROVED_FOR", 1),
						checkSent(m, second, "approve", 1),
						checkSent(m, first, "approve", 0),
					)(s)
				},
			},
			{
				// The second rollout ends too, so that the destroy may empty the rules.
				PreConfig: func() {
					if err := m.SetRun(latest(), mockconsole.RunCompleted, "", nil); err != nil {
						t.Fatal(err)
					}
				},
				Config:   providerBlock(url) + strings.Replace(example, percentage, "pass_percentage = 30", 1),
				PlanOnly: true,
			},
		},
	})
}
