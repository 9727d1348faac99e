// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// whenPolled calls do once a featureconsole_gate_rules waiting for run id (on_active_run =
// "wait") has read it since the request log was last reset: what the test does then happens
// during the wait, whatever the machine's speed.
func whenPolled(t *testing.T, m *mockconsole.Server, id string, do func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(done); <-stopped }) // never outlives the test
	go func() {
		defer close(stopped)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			for _, r := range m.Requests() {
				if r.Method == http.MethodGet && strings.HasSuffix(r.Path, "/release_pipeline_triggers/"+id) {
					do()
					return
				}
			}
		}
	}()
}

// abortWhenPolled aborts run id, as someone in the console would, during a wait for it: the abort
// puts back the rules the gate had before the run's write.
func abortWhenPolled(t *testing.T, m *mockconsole.Server, id string) {
	m.ResetRequests()
	whenPolled(t, m, id, func() {
		if err := m.SetRun(id, mockconsole.RunAborted, "", nil); err != nil {
			t.Errorf("abort %s: %v", id, err)
		}
	})
}

// on_active_run = "abort" and "wait" supersede a run as the service does it: an abort puts back
// the rules the gate had before the run's write, so rules that write added come back with new
// base_ids. While a run is active, the plan of a change promises no base_id (never "Provider
// produced inconsistent result"), and the apply's result is the re-plan's: empty. With no run
// active, the plan promises the base_ids it knows.
func TestAccGateRules_supersedePlan(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	m.SetRunSpeed(0) // runs stay where the test puts them
	attachToPipeline(m, true)
	baseID := func(i int) tfjsonpath.Path { return tfjsonpath.New("rules").AtSliceIndex(i).AtMapKey("base_id") }
	staff := ruleHCL("staff", "100")
	// "everyone" was on the gate before rpt_3's write: it comes back with its base_id, which the
	// write after the abort keeps.
	everyoneKept := statecheck.CompareValue(compare.ValuesSame())
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: onActiveRunConfig(url, "10", "abort")}, // rpt_1 rolls "everyone" out, a rule new to the gate
			{
				// rpt_1 is active: its abort brings back the seeded rules, and "everyone" a new base_id.
				Config: onActiveRunConfig(url, "20", "abort"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(gateRulesAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(gateRulesAddr, baseID(0)),
				}},
				Check: func(*terraform.State) error {
					if r, _ := m.Run("rpt_1"); r.Status != mockconsole.RunAborted {
						return fmt.Errorf("rpt_1 is %s, want ABORTED", r.Status)
					}
					return nil
				},
			},
			{
				// No run is active: nothing can bring older rules back, so the base_id is promised.
				PreConfig: func() {
					if err := m.SetRun("rpt_2", mockconsole.RunCompleted, "", nil); err != nil {
						t.Fatal(err)
					}
				},
				Config: strings.Replace(onActiveRunConfig(url, "30", "abort"), "rules   = [", "rules   = ["+staff, 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(gateRulesAddr, baseID(1), knownvalue.NotNull()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{everyoneKept.AddStateValue(gateRulesAddr, baseID(1))},
			},
			{
				// rpt_3 (which added "staff") is active, and someone aborts it while the apply waits.
				PreConfig: func() { abortWhenPolled(t, m, "rpt_3") },
				Config:    strings.Replace(onActiveRunConfig(url, "40", "wait"), "rules   = [", "rules   = ["+staff, 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(gateRulesAddr, baseID(0)),
					plancheck.ExpectUnknownValue(gateRulesAddr, baseID(1)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{everyoneKept.AddStateValue(gateRulesAddr, baseID(1))},
				Check: func(*terraform.State) error {
					if r, _ := m.Run("rpt_3"); r.Status != mockconsole.RunAborted {
						return fmt.Errorf("rpt_3 is %s, want ABORTED", r.Status)
					}
					if got := mockRuleNames(m, "new_checkout"); got != "staff,everyone" {
						return fmt.Errorf("the gate holds %q, want staff,everyone", got)
					}
					return nil
				},
			},
		},
	})
}

// supersedePlan promises no base_id exactly when the write may meet an active run that brings
// older rules back: abort or wait (or a policy not known yet) while a run is active, or when
// whether one is cannot be known; never with fail, which lists nothing.
func TestSupersedePlanMayRestore(t *testing.T) {
	ctx := context.Background()
	active := []console.ReleasePipelineTrigger{{ID: "rpt_1", Status: console.TriggerInProgress}}
	list := func(runs []console.ReleasePipelineTrigger, err error, calls *int) func(context.Context) ([]console.ReleasePipelineTrigger, error) {
		return func(context.Context) ([]console.ReleasePipelineTrigger, error) { *calls++; return runs, err }
	}
	for _, tc := range []struct {
		name   string
		policy types.String
		runs   []console.ReleasePipelineTrigger
		err    error
		noList bool
		want   bool
		calls  int
	}{
		{"fail with a run", types.StringValue(onActiveRunFail), active, nil, false, false, 0},
		{"no policy (segments)", types.StringNull(), active, nil, false, false, 0},
		{"abort with a run", types.StringValue(onActiveRunAbort), active, nil, false, true, 1},
		{"wait with a run", types.StringValue(onActiveRunWait), active, nil, false, true, 1},
		{"abort without a run", types.StringValue(onActiveRunAbort), nil, nil, false, false, 1},
		{"abort, runs not listed", types.StringValue(onActiveRunAbort), nil, errors.New("503"), false, true, 1},
		{"abort, no client", types.StringValue(onActiveRunAbort), nil, nil, true, true, 0},
		{"policy unknown, no run", types.StringUnknown(), nil, nil, false, false, 1},
		{"policy unknown, a run", types.StringUnknown(), active, nil, false, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			sp := supersedePlan{policy: tc.policy, activeRuns: list(tc.runs, tc.err, &calls)}
			if tc.noList {
				sp.activeRuns = nil
			}
			if got := sp.mayRestore(ctx); got != tc.want || calls != tc.calls {
				t.Errorf("mayRestore = %v after %d list(s), want %v after %d", got, calls, tc.want, tc.calls)
			}
		})
	}
}
