// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

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
