// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// mockRuleNames is the names of the gate's rules in the mock, in order.
func mockRuleNames(m *mockconsole.Server, gateID string) string {
	g, _ := m.Gate(gateID)
	names := make([]string, len(g.Rules))
	for i, r := range g.Rules {
		names[i] = r.Name
	}
	return strings.Join(names, ",")
}

// A gate attached to a release pipeline, as users meet it with the terraform CLI (warnings are
// only seen there): an apply that changes its rules starts a run and says so, naming the run and
// how to follow and drive it; a change while the run is active is an error naming the run and
// what to do, and changes nothing; an abort puts the old rules back, which the next plan shows as
// a change to make again, never as an inconsistent result; a destroy rolls out too.
func TestAccGateRules_pipelineRun(t *testing.T) {
	cli := newTFCLI(t)
	m, url := startMock(t, mockconsole.Config{})
	m.SetRunSpeed(0) // the runs stay where the test puts them
	g, _ := m.Gate("new_checkout")
	seedRules := mockRuleNames(m, "new_checkout")
	g.ReleasePipelineID = "pl_web"
	m.PutGate(g)
	apply := []string{"apply", "-auto-approve", "-input=false", "-no-color"}
	plan := []string{"plan", "-detailed-exitcode", "-input=false", "-no-color"}
	wants := func(out string, res ...string) {
		t.Helper()
		flat := strings.Join(strings.Fields(out), " ")
		for _, re := range res {
			if !regexp.MustCompile(re).MatchString(flat) {
				t.Errorf("output lacks %s:\n%s", re, out)
			}
		}
		if strings.Contains(out, "inconsistent result") {
			t.Errorf("inconsistent result:\n%s", out)
		}
	}

	cli.write("main.tf", gateRulesConfig(url, "new_checkout", ruleHCL("everyone", "10")))
	cli.must("init", "-input=false", "-no-color")
	out := cli.must(apply...)
	wants(out, `Warning: Rules of gate "new_checkout" roll out through release pipeline run "rpt_1"`,
		`started run "rpt_1" \(WAITING_FOR_REVIEW, phase "Canary"\)`,
		`data source featureconsole_release_pipeline_triggers \(gate_id = "new_checkout"\)`,
		`action featureconsole_release_pipeline_trigger \(gate_id = "new_checkout", operation = "approve"`, `"abort"`)
	if got := mockRuleNames(m, "new_checkout"); got != "everyone" {
		t.Fatalf("the write left %q", got)
	}
	cli.must(plan...) // empty: exit code 0

	// A change while the run is active: refused by the service, said with the run and what to do.
	cli.write("main.tf", gateRulesConfig(url, "new_checkout", ruleHCL("everyone", "20")))
	_, out = cli.run([]int{1}, apply...)
	wants(out, `Error: Rules of gate "new_checkout" are locked by release pipeline run "rpt_1"`,
		`wait for the run to complete, or end it with the action featureconsole_release_pipeline_trigger: operation = "rollout"`,
		`"abort" to put back the rules the gate had before it`, `400 Bad Request`)
	if g, _ := m.Gate("new_checkout"); g.Rules[0].PassPercentage != 10 {
		t.Errorf("the refused write changed the gate: %+v", g.Rules)
	}
	if code, _ := cli.run([]int{2}, plan...); code != 2 {
		t.Errorf("the change is still to make: plan exit code %d", code)
	}

	// Aborted in the console: the old rules are back, and the plan shows the change again.
	if st, body := putRun(t, url, "rpt_1", "abort"); st/100 != 2 {
		t.Fatalf("abort: %d %s", st, body)
	}
	if got := mockRuleNames(m, "new_checkout"); got != seedRules {
		t.Fatalf("the abort left %q, want %q", got, seedRules)
	}
	_, out = cli.run([]int{2}, plan...)
	wants(out, `featureconsole_gate_rules.checkout will be updated in-place`, `- name += null|name *= "beta"|"beta"`)

	// Applied again: a new run; completed, the next change goes through.
	out = cli.must(apply...)
	wants(out, `roll out through release pipeline run "rpt_2"`)
	if err := m.SetRun("rpt_2", mockconsole.RunCompleted, "", nil); err != nil {
		t.Fatal(err)
	}
	cli.must(plan...)

	// Destroy removes the rules, which rolls out too.
	out = cli.must("destroy", "-auto-approve", "-input=false", "-no-color")
	wants(out, `roll out through release pipeline run "rpt_3"`)
	if err := checkGateHasNoRules(m, "new_checkout")(nil); err != nil {
		t.Error(err)
	}
}

// putRun sends a run operation to the mock as the console does.
func putRun(t *testing.T, url, runID, op string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, url+"/console/v1/release_pipeline_triggers/"+runID+"/"+op, nil)
	req.Header.Set("SERVICE-API-KEY", mockconsole.DefaultAPIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
