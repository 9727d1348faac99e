// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The runs of a dynamic config (row 43): a run carries dynamicConfigID instead of gateID.

// activeRunsOfConfig lists the runs of a config that can still change. The service filters; the
// runs are filtered here too, so that a service that ignored the filter never makes anything act
// on another object's run.
func activeRunsOfConfig(ctx context.Context, client *console.Client, configID string) ([]console.ReleasePipelineTrigger, error) {
	runs, err := client.ListReleasePipelineTriggers(ctx, console.TriggerFilter{DynamicConfigID: configID, Statuses: activeStatuses}, console.ListOptions{})
	if err != nil {
		return nil, err
	}
	active := runs[:0]
	for _, r := range runs {
		if r.DynamicConfigID == configID && !r.Final() {
			active = append(active, r)
		}
	}
	return active, nil
}

// abortConfigRuns aborts the active runs of a config that is being destroyed.
func abortConfigRuns(ctx context.Context, op *framework.Operation, client *console.Client, configID string, diags *diag.Diagnostics) bool {
	runs, err := activeRunsOfConfig(ctx, client, configID)
	if err != nil {
		framework.APIFailure{Op: "list", Object: fmt.Sprintf("the release pipeline runs of dynamic config %q", configID)}.Add(ctx, diags, op, err)
		return false
	}
	for i := range runs {
		if !abortRun(ctx, op, client, &runs[i], diags) {
			return false
		}
		diags.AddWarning(fmt.Sprintf("Release pipeline run %q of dynamic config %q aborted", runs[i].ID, configID),
			fmt.Sprintf("The config is being destroyed, so run %q of release pipeline %q, which was rolling out a change of "+
				"its rules, was aborted first.", runs[i].ID, runs[i].ReleasePipelineID))
	}
	return true
}

// configRunToAct is the run the action acts on for dynamic_config_id: the config's one active run;
// with none, for rollout and abort, its newest run (the invocation then says it is done already,
// or names the state it is in); none or several otherwise is an error naming the config.
func configRunToAct(ctx context.Context, client *console.Client, configID string, op console.TriggerOperation, diags *diag.Diagnostics) (string, bool) {
	at := path.Root("dynamic_config_id")
	runs, err := activeRunsOfConfig(ctx, client, configID)
	if err != nil {
		framework.APIFailure{Op: "list", Object: fmt.Sprintf("the release pipeline runs of dynamic config %q", configID)}.Add(ctx, diags, nil, err)
		return "", false
	}
	switch len(runs) {
	case 1:
		return runs[0].ID, true
	case 0:
		if op == console.TriggerRollout || op == console.TriggerAbort {
			all, err := client.ListReleasePipelineTriggers(ctx, console.TriggerFilter{DynamicConfigID: configID}, console.ListOptions{})
			if newest := newestRun(all); err == nil && newest != nil && newest.DynamicConfigID == configID {
				return newest.ID, true
			}
		}
		diags.AddAttributeError(at, "No active release pipeline run",
			fmt.Sprintf("Dynamic config %q has no active release pipeline run (IN_PROGRESS, PAUSED or WAITING_FOR_REVIEW), so "+
				"there is nothing to %s. Runs start when a change of the config's rules is saved.", configID, op))
	default:
		ids := make([]string, len(runs))
		for i, r := range runs {
			ids[i] = r.ID
		}
		diags.AddAttributeError(at, "Several active release pipeline runs",
			fmt.Sprintf("Dynamic config %q has %d active release pipeline runs (%s): set trigger_id to the one to %s.",
				configID, len(runs), quoteList(ids), op))
	}
	return "", false
}
