// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// What apply and destroy say about runs is what happened, as users read it in the CLI: a write of
// the rules of an attached gate that the service applies at once, starting no run, is said as live
// now, never as a rollout to follow; a destroy that aborted a run says that, and nothing to follow
// or drive.
func TestAccGateRules_wordsRunless(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t)
	m, url := startMock(t, mockconsole.Config{})
	m.SetRunSpeed(0)
	attachToPipeline(m, false)
	if err := m.ServeRunlessRuleWrites("new_checkout", true); err != nil {
		t.Fatal(err)
	}
	apply := []string{"apply", "-auto-approve", "-input=false", "-no-color"}
	cli.write("main.tf", onActiveRunConfig(url, "10", ""))
	cli.must("init", "-input=false", "-no-color")
	out := cli.must(apply...)
	wantsOutput(t, out, `Warning: Rules of gate "new_checkout" are live now, without a rollout`,
		`attached to release pipeline "pl_web", but the service applied this change of its rules at once and started no run`)
	lacksOutput(t, out, `roll(s)? (the change )?out through`, `Follow it`, `drive it`)
	if runs := m.GateRuns("new_checkout"); len(runs) != 0 {
		t.Fatalf("runs %v, want none", runs)
	}
	cli.must("plan", "-detailed-exitcode", "-input=false", "-no-color")

	// The next write starts a run; destroy, with the writes runless again, aborts it and removes the rules.
	if err := m.ServeRunlessRuleWrites("new_checkout", false); err != nil {
		t.Fatal(err)
	}
	cli.write("main.tf", onActiveRunConfig(url, "20", ""))
	wantsOutput(t, cli.must(apply...), `started run "rpt_1"`)
	if err := m.ServeRunlessRuleWrites("new_checkout", true); err != nil {
		t.Fatal(err)
	}
	out = cli.must("destroy", "-auto-approve", "-input=false", "-no-color")
	wantsOutput(t, out, `Warning: Release pipeline run "rpt_1" of gate "new_checkout" aborted`,
		`Destroy aborted run "rpt_1" of release pipeline "pl_web" \(WAITING_FOR_REVIEW at phase "Canary"\), which was rolling out an earlier change of the rules of gate "new_checkout", and then removed the gate's rules\. The removal is live now\.`)
	lacksOutput(t, out, `Follow it`, `drive it`, `the next plan`, `roll(s)? (the removal )?out through`)
	checkRunStatus(t, m, "rpt_1", mockconsole.RunAborted)
	if got := mockRuleNames(m, "new_checkout"); got != "" {
		t.Errorf("destroy left rules %q", got)
	}
}

// on_active_run = "wait" on a run whose phase waits for review: a longer timeout would not help,
// so when the wait stops it says the phase needs approving and how, with every Terraform version.
func TestAccGateRules_waitStopsAtReview(t *testing.T) {
	t.Parallel()
	cli, m, url := startRollout(t, false, "wait") // pl_web's first phase waits for review
	cli.write("main.tf", onActiveRunConfig(url, "20", "wait", `timeouts = { update = "2s" }`))
	_, out := cli.run([]int{1}, "apply", "-auto-approve", "-input=false", "-no-color")
	wantsOutput(t, out, `Error: Stopped waiting for release pipeline run "rpt_1" of gate "new_checkout"`,
		`Last state seen: WAITING_FOR_REVIEW at phase "Canary"`,
		`phase "Canary" of run "rpt_1" needs approving before the run moves on, and more time will not do that`,
		`Terraform 1\.14 or later through the action featureconsole_release_pipeline_trigger \(gate_id = "new_checkout", operation = "approve", phase = "Canary"\)`,
		`or in the console with any Terraform version`)
	lacksOutput(t, out, `allow more time`, `timeouts = \{ update =`)
	checkMockPercentage(t, m, 10)
}

// A plan of a change of the rules while a run rolls out an earlier one, under on_active_run =
// "fail" (the default), warns that the apply will fail, naming the run, its phase and what to do,
// so that whoever approves the plan knows; a plan with on_active_run = "wait", or of no change,
// says nothing of it. The same for a dynamic config's rules.
func TestAccGateRules_planSaysActiveRun(t *testing.T) {
	t.Parallel()
	cli, m, url := startRollout(t, true, "")
	cli.write("main.tf", onActiveRunConfig(url, "20", ""))
	_, out := cli.run([]int{2}, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	wantsOutput(t, out, `Warning: Rules of gate "new_checkout" are locked by release pipeline run "rpt_1"`,
		`run "rpt_1", IN_PROGRESS at phase "Canary" \(bakes until \S+\)\. With on_active_run = "fail" \(the default\), applying this plan will fail on this change of the rules, writing nothing`,
		`set on_active_run = "wait"`, `on_active_run = "abort"`, `gate_id = "new_checkout", operation = "rollout" or "abort"`,
		`1 to change`)
	cli.write("main.tf", onActiveRunConfig(url, "20", "wait"))
	_, out = cli.run([]int{2}, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	lacksOutput(t, out, `locked by`)
	cli.write("main.tf", onActiveRunConfig(url, "10", ""))
	lacksOutput(t, cli.must("plan", "-detailed-exitcode", "-input=false", "-no-color"), `locked by`)
	checkMockPercentage(t, m, 10)

	// A config's rules, in a working directory of their own, on a run that waits for review.
	cfg := newTFCLI(t)
	attached := `release_pipeline_id = "pl_web"`
	cfg.write("main.tf", providerBlock(url)+configWithRules(ruleDE, attached, ""))
	cfg.must("init", "-input=false", "-no-color")
	cfg.must("apply", "-auto-approve", "-input=false", "-no-color")
	run := m.ConfigRuns("tfacc_copy")
	if len(run) != 1 {
		t.Fatalf("config runs %v, want one", run)
	}
	cfg.write("main.tf", providerBlock(url)+configWithRules(ruleDE+", "+ruleFR, attached, ""))
	_, out = cfg.run([]int{2}, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	wantsOutput(t, out, fmt.Sprintf(`Warning: Rules of dynamic config "tfacc_copy" are locked by release pipeline run %q`, run[0]),
		`WAITING_FOR_REVIEW at phase "Canary"`, `dynamic_config_id = "tfacc_copy"`)
}
