// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/action/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/actionvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

var (
	_ action.ActionWithConfigure        = &releasePipelineTriggerAction{}
	_ action.ActionWithConfigValidators = &releasePipelineTriggerAction{}
	_ action.ActionWithValidateConfig   = &releasePipelineTriggerAction{}
)

func NewReleasePipelineTriggerAction() action.Action { return &releasePipelineTriggerAction{} }

type releasePipelineTriggerAction struct{ data *providerData }

type releasePipelineTriggerModel struct {
	Operation types.String   `tfsdk:"operation"`
	GateID    types.String   `tfsdk:"gate_id"`
	ConfigID  types.String   `tfsdk:"dynamic_config_id"`
	TriggerID types.String   `tfsdk:"trigger_id"`
	Phase     types.String   `tfsdk:"phase"`
	Wait      types.String   `tfsdk:"wait"`
	Timeouts  timeouts.Value `tfsdk:"timeouts"`
}

func (a *releasePipelineTriggerAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_release_pipeline_trigger"
}

func (a *releasePipelineTriggerAction) Schema(ctx context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	ops := make([]string, len(console.TriggerOperations))
	for i, op := range console.TriggerOperations {
		ops[i] = string(op)
	}
	to, _ := timeouts.AttributesWithOpts(ctx, timeouts.Opts{
		InvokeDescription: fmt.Sprintf("How long the invocation may take, finding the run, retries, write pacing and waiting "+
			"included, as a Go duration such as `30s`, `20m` or `1h30m`; must be positive. Defaults to `%s`. When it runs "+
			"out, the error says the last state of the run seen.", framework.FormatTimeout(defaultInvokeTimeout)),
	}).(schema.SingleNestedAttribute)
	if inv, ok := to.Attributes["invoke"].(schema.StringAttribute); ok {
		inv.MarkdownDescription = inv.Description
		inv.Validators = append(inv.Validators, framework.PositiveTimeout())
		to.Attributes["invoke"] = inv
	}
	to.MarkdownDescription = "How long the invocation may take, for example `timeouts = { invoke = \"1h\" }`."
	resp.Schema = schema.Schema{
		MarkdownDescription: "Acts on a release pipeline run (a \"trigger\": one rollout of a pipeline for one saved change of a gate): " +
			"approve the phase waiting for review, pause or unpause its bake timer, skip the current phase, roll out to everyone at " +
			"once, or abort (reverting the gate). Requires Terraform 1.14 or later (1.16 for destroy-time triggers such as " +
			"`before_destroy`, and for `on_failure`); OpenTofu 1.12 has no actions. Invoke it with " +
			"`terraform apply -invoke=action.featureconsole_release_pipeline_trigger.<name>` or from a resource's " +
			"`lifecycle { action_trigger { ... } }`.\n\n" +
			"Before acting it reads the run: an operation that is already done (approve once the current phase's approval is " +
			"recorded and the run no longer waits, pause when `PAUSED`, unpause when `IN_PROGRESS`, rollout when `COMPLETED`, abort " +
			"when `ABORTED`) is a warning and success, so invoking twice never acts twice; a state the operation does not allow, " +
			"or a `phase` that is not the run's current one, is an error before any request. A write whose answer is lost is " +
			"recovered by reading the run's recorded actions, never by sending the operation twice.",
		Attributes: map[string]schema.Attribute{
			"operation": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "`approve` (start the phase waiting for review), `pause` or `unpause` (the bake timer), `skip` " +
					"(the current phase; requires `phase`), `rollout` (straight to full rollout) or `abort` (revert the gate; final).",
				Validators: []validator.String{stringvalidator.OneOf(ops...)},
			},
			"gate_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Act on the one active run (`IN_PROGRESS`, `PAUSED` or `WAITING_FOR_REVIEW`) rolling out this " +
					"gate; none or several is an error naming the gate. Exactly one of `gate_id`, `dynamic_config_id` and `trigger_id`.",
				Validators: []validator.String{framework.NotBlank()},
			},
			"dynamic_config_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Act on the one active run rolling out a change of this dynamic config's rules; none or " +
					"several is an error naming the config. Exactly one of `gate_id`, `dynamic_config_id` and `trigger_id`.",
				Validators: []validator.String{framework.NotBlank()},
			},
			"trigger_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Act on this run (see the `featureconsole_release_pipeline_triggers` data source). " +
					"Exactly one of `gate_id`, `dynamic_config_id` and `trigger_id`.",
				Validators: []validator.String{framework.NotBlank()},
			},
			"phase": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Act only if the run is at this phase (by name); otherwise nothing is sent and the error names " +
					"both phases. Required for `skip`, which moves on each time it is sent.",
				Validators: []validator.String{framework.NotBlank()},
			},
			"wait": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "`none`: return once the service accepted the operation. `state` (default): until the " +
					"operation took effect. `completion`: until the run is `COMPLETED` (or `ABORTED` for `abort`); it stops with " +
					"an error naming the phase once the run waits for a review. Progress is reported on every change of status or phase.",
				Validators: []validator.String{stringvalidator.OneOf(waitNone, waitState, waitCompletion)},
			},
			"timeouts": to,
		},
	}
}

func (a *releasePipelineTriggerAction) ConfigValidators(context.Context) []action.ConfigValidator {
	return []action.ConfigValidator{
		actionvalidator.ExactlyOneOf(path.MatchRoot("gate_id"), path.MatchRoot("dynamic_config_id"), path.MatchRoot("trigger_id")),
	}
}

func (a *releasePipelineTriggerAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var m releasePipelineTriggerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.Operation.ValueString() == string(console.TriggerSkip) && m.Phase.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("phase"), "Missing phase for skip",
			"operation = \"skip\" requires phase: skip moves the run on each time it is sent, so the action sends it only "+
				"while the run is at the phase named.")
	}
}

func (a *releasePipelineTriggerAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = configuredData(req.ProviderData, resp.Diagnostics.AddError)
}

func (a *releasePipelineTriggerAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m releasePipelineTriggerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !requireClient(a.data, &resp.Diagnostics) {
		return
	}
	timeout, diags := m.Timeouts.Invoke(ctx, defaultInvokeTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if timeout <= 0 {
		timeout = defaultInvokeTimeout
	}
	wait := m.Wait.ValueString()
	if wait == "" {
		wait = waitState
	}
	inv := &triggerInvocation{
		client:    a.data.client,
		op:        console.TriggerOperation(m.Operation.ValueString()),
		gateID:    m.GateID.ValueString(),
		triggerID: m.TriggerID.ValueString(),
		phase:     m.Phase.ValueString(),
		wait:      wait,
		timeout:   timeout,
		poll:      a.data.runPollInterval,
		progress: func(msg string) {
			if resp.SendProgress != nil {
				resp.SendProgress(action.InvokeProgressEvent{Message: msg})
			}
		},
	}
	if inv.poll <= 0 {
		inv.poll = defaultRunPollInterval
	}
	tctx, cancel := framework.WithOwnDeadline(ctx, timeout)
	defer cancel()
	if id := m.ConfigID.ValueString(); id != "" {
		run, ok := configRunToAct(tctx, a.data.client, id, inv.op, &resp.Diagnostics)
		if !ok {
			return
		}
		inv.triggerID = run
	}
	inv.invoke(tctx, &resp.Diagnostics)
}
