// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/float64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/numberplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

var _ managedResource = &experimentResource{}

type experimentResource struct{ resourceData }

func NewExperimentResource() resource.Resource {
	return &experimentResource{resourceData{typeName: "experiment"}}
}

// experimentIDPattern is the service's pattern for an experiment id (POST /experiments).
var experimentIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]*$`)

// experimentNamePattern is the document's pattern for an experiment's name: letters, digits,
// spaces, '_' and '-' (ExperimentCreateDto, ExperimentPartialUpdateDto).
var experimentNamePattern = regexp.MustCompile(`^[A-Za-z0-9_ -]*$`)

var experimentCreation = creation{typeName: "featureconsole_experiment", kind: "Experiment", noun: "An experiment with id",
	plural: "experiments", idWord: "experiment id"}

func (r *experimentResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "An experiment: the users it allocates are split between groups, each served its own " +
			"parameter values, and metrics are measured between them until a decision ships one group. `status` says " +
			"where the experiment should stand and is moved the service's way: `active` starts it, `decision_made` ships " +
			"`launched_group`, `abandoned` abandons it; a move the service cannot make fails the plan. While the " +
			"experiment runs, its groups' names, sizes and values, `id_type` and `analytics_type` cannot change, and its " +
			"`allocation` cannot decrease: changing who sees what mid-run means resetting it (`status = \"setup\"`, its results " +
			"starting over) or running another experiment (a new `featureconsole_experiment` block); groups are matched by name, so their order and descriptions may change. " +
			"After a decision the groups stay as they were decided on. Once started, an experiment " +
			"is protected from destroy and replacement by `deletion_protection`; destroy deletes the experiment, or " +
			"archives it with `archive_on_destroy`. With the provider's `respect_review_settings`, a change of the " +
			"experiment's fields that the project's review settings hold for review is not applied: the apply fails " +
			"naming the review and the state keeps what it held; applying the same change again sends nothing while the " +
			"review is pending, and once it is approved commits it. Import by experiment id.",
		Attributes: experimentAttributes(ctx),
	}
}

func experimentAttributes(ctx context.Context) map[string]schema.Attribute {
	time := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc + ", in milliseconds since the Unix epoch; null until then."}
	}
	metrics := func(desc string) schema.ListNestedAttribute {
		return schema.ListNestedAttribute{
			Optional: true, Computed: true, MarkdownDescription: desc,
			PlanModifiers: []planmodifier.List{listplanmodifier.UseStateForUnknown()},
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"name": schema.StringAttribute{Required: true, MarkdownDescription: "Name of the metric, such as `purchase`.",
					Validators: []validator.String{framework.NotBlankInElement()}},
				"type": schema.StringAttribute{Required: true, MarkdownDescription: "Type of the metric, such as `event_count`.",
					Validators: []validator.String{framework.NotBlank()}},
				"direction": schema.StringAttribute{Optional: true,
					MarkdownDescription: "Direction that counts as better: `increase` or `decrease`.",
					Validators:          []validator.String{stringvalidator.OneOf("increase", "decrease")}},
				"hypothesized_value": schema.Float64Attribute{Optional: true, Computed: true,
					MarkdownDescription: "The change the experiment expects of the metric (the service's `hypothesizedValue`); " +
						"when omitted, the one the service holds is kept, also when the metrics are written again.",
					PlanModifiers: []planmodifier.Float64{float64planmodifier.UseStateForUnknown()}},
			}},
		}
	}
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed: true, MarkdownDescription: "Identifier of the experiment: its `experiment_id`.",
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"experiment_id": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "Identifier of the experiment, such as `checkout_cta`: 3 to 100 letters, digits, `_` and `-`. " +
				"Changing it forces replacement (a new experiment).",
			Validators: []validator.String{
				stringvalidator.LengthBetween(3, 100),
				stringvalidator.RegexMatches(experimentIDPattern, "must contain only letters A-Z and a-z, digits, '_' and '-'"),
			},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"name": chosenString("Display name: 3 to 100 letters, digits, spaces, `_` and `-` (such as `Checkout CTA v2`); the "+
			"`experiment_id` when omitted. Updated in place.",
			stringvalidator.LengthBetween(3, 100), framework.NotBlank(),
			stringvalidator.RegexMatches(experimentNamePattern, "must contain only letters A-Z and a-z, digits, spaces, '_' and '-'")),
		"description": chosenString("Description, at most 1,000 characters. Empty when omitted at creation. Updated in place.",
			stringvalidator.UTF8LengthAtMost(maxDescription)),
		"hypothesis": chosenString("What the experiment expects to find. Empty when omitted at creation. Updated in place."),
		"id_type": chosenString("Unit ID type users are split by, such as `userID` or `stableID`; the service chooses `userID` "+
			"when it is omitted. Updated in place while in `setup`; cannot change once the experiment has started.", framework.NotBlank()),
		"tags": schema.SetAttribute{
			Optional: true, Computed: true, ElementType: types.StringType,
			MarkdownDescription: "Tags of the experiment. None when omitted at creation. Updated in place.",
			Validators:          []validator.Set{setvalidator.ValueStringsAre(framework.NotBlank())},
			PlanModifiers:       []planmodifier.Set{setplanmodifier.UseStateForUnknown()},
		},
		"allocation": schema.NumberAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Percentage of users in the experiment, from `0` to `100` with at most two decimals; the " +
				"service chooses `100` when it is omitted. Updated in place. While the experiment is `active` it may rise but " +
				"not decrease (the service lowers it only with a reset): a lower value fails the plan, with nothing sent.",
			Validators:    []validator.Number{framework.PercentageValidator{Noun: "Allocation"}},
			PlanModifiers: []planmodifier.Number{numberplanmodifier.UseStateForUnknown()},
		},
		"targeting_gate_id": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Gate whose passing users alone take part (for example `featureconsole_gate.checkout.gate_id`). " +
				"Omit for every user; removing it removes the targeting. Updated in place. A gate set or changed here is read " +
				"at plan time: one the console does not have fails the plan, with nothing sent (a gate this configuration " +
				"creates, referenced as above, is checked at apply).",
			Validators: []validator.String{framework.NotBlank()},
		},
		"duration": schema.Int64Attribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Planned length of the experiment in days, more than 1; the service chooses when it is " +
				"omitted. May change while the experiment runs: updated in place.",
			Validators:    []validator.Int64{int64validator.AtLeast(2)},
			PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
		},
		"analytics_type": chosenString("How results are computed: `frequentist`, `bayesian` or `sprt`; the service chooses "+
			"`frequentist` when it is omitted. Updated in place while in `setup`; cannot change once the experiment has started.",
			stringvalidator.OneOf("frequentist", "bayesian", "sprt")),
		"layer_id": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Layer the experiment runs in, whose users it shares with the layer's other experiments " +
				"(the service's `layerID`); the service's when omitted. The service takes it at creation only: while the " +
				"experiment is in `setup` a change forces replacement (destroy and create, which deletes nothing it has measured); " +
				"once it has started a change fails the plan, with nothing sent.",
			Validators: []validator.String{framework.NotBlank()},
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(),
				stringplanmodifier.RequiresReplaceIf(layerChangeReplaces, "In setup, a change of layer_id replaces the experiment.",
					"In `setup`, a change of `layer_id` replaces the experiment.")},
		},
		"sequential_testing": analysisFlagAttribute("Whether results use sequential testing, whose confidence intervals " +
			"hold at any time the results are read (the service's `sequentialTesting`)."),
		"default_confidence_interval": schema.Int64Attribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Confidence level of the results, in percent: `80`, `90`, `95`, `98` or `99` (the " +
				"service's `defaultConfidenceInterval`); the service's when omitted. Updated in place.",
			Validators:    []validator.Int64{int64validator.OneOf(80, 90, 95, 98, 99)},
			PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
		},
		"bonferroni_correction": analysisFlagAttribute("Whether the Bonferroni correction is applied across the test " +
			"groups (the service's `bonferroniCorrection`)."),
		"bonferroni_correction_per_metric": analysisFlagAttribute("Whether the Bonferroni correction is applied across " +
			"the metrics too (the service's `bonferroniCorrectionPerMetric`)."),
		"benjamini_hochberg_per_variant": analysisFlagAttribute("Whether the Benjamini-Hochberg procedure is applied across " +
			"the test groups (the service's `benjaminiHochbergPerVariant`)."),
		"benjamini_hochberg_per_metric": analysisFlagAttribute("Whether the Benjamini-Hochberg procedure is applied across " +
			"the metrics (the service's `benjaminiHochbergPerMetric`)."),
		"benjamini_primary_metrics_only": analysisFlagAttribute("Whether the Benjamini-Hochberg procedure counts the " +
			"primary metrics alone (the service's `benjaminiPrimaryMetricsOnly`)."),
		"groups": schema.ListNestedAttribute{
			Required: true,
			MarkdownDescription: "The groups users are split between: at least two, names unique, sizes summing to 100. " +
				"Groups are matched by name, so a group that keeps its name keeps its `id`. Updated in place in `setup`. " +
				"While the experiment is `active`, and after a decision, their names, sizes and values cannot change, nor can " +
				"groups be added or removed: the plan fails, with nothing sent (mid-run that means restarting the experiment). " +
				"Their order and descriptions may change at any time: updated in place.",
			Validators: []validator.List{listvalidator.SizeAtLeast(2)},
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"id": schema.StringAttribute{Computed: true,
					MarkdownDescription: "Identifier the service gave the group; kept as long as the group keeps its name."},
				"name": schema.StringAttribute{Required: true, MarkdownDescription: "Name of the group, unique in the experiment.",
					Validators: []validator.String{framework.NotBlankInElement()}},
				"size": schema.NumberAttribute{Required: true,
					MarkdownDescription: "Percentage of the experiment's users in this group, from `0` to `100` with at most two decimals.",
					Validators:          []validator.Number{framework.PercentageValidator{Noun: "Group size"}}},
				"parameter_values": schema.StringAttribute{Required: true, CustomType: framework.JSONValueType{},
					MarkdownDescription: "Values the group's users are served, as a JSON object written with `jsonencode({...})`. " +
						"Compared as JSON: key order, spacing and `1` against `1.0` plan nothing.",
					PlanModifiers: []planmodifier.String{framework.PlanPriorJSON()}},
				"description": schema.StringAttribute{Optional: true, MarkdownDescription: "Description of the group.",
					Validators: []validator.String{framework.NotBlankInElement()}},
				"disabled": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
					MarkdownDescription: "Whether the group is disabled: its users are served the control group's values. " +
						"`false` (the default) enables it. Updated in place: in `setup` with the groups, once the experiment " +
						"has started by disabling or enabling the group alone, its size and values untouched."},
			}},
		},
		"control_group": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Name of the group the others are measured against; the first group when omitted. Updated in place.",
			Validators:          []validator.String{framework.NotBlank()},
		},
		"primary_metrics":   metrics("Metrics the decision rests on. The service's when omitted. May change while the experiment runs: updated in place."),
		"secondary_metrics": metrics("Further metrics measured. The service's when omitted. May change while the experiment runs: updated in place."),
		"status": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Where the experiment should stand: " + framework.CodeList(experimentStatuses) + "; `setup` " +
				"at creation when omitted, after which an omitted status follows the service's. Moved the service's way " +
				"within one apply: `setup` to `active` starts it, `active` to `decision_made` ships `launched_group`, " +
				"`setup` or `active` to `abandoned` abandons it; from `experiment_stopped` and `assignment_stopped` (the service " +
				"stopped it, its decision deferred) a decision may follow, and from `experiment_stopped` an abandon. " +
				"Back to `setup` from `active`, `abandoned`, `experiment_stopped` or `assignment_stopped` resets the " +
				"experiment (the service's reset: it stands unstarted, its run's times and reason cleared, its results start " +
				"over when it starts again), and `active` from `abandoned`, `experiment_stopped` or `assignment_stopped` " +
				"resets it and starts it again. `experiment_stopped` and `assignment_stopped` are set by the service: a " +
				"configuration may say them where the experiment stands (as generated configuration does), never move to " +
				"them. Any other move (`active` or `setup` after a decision, a decision from `setup`) fails the plan: to run " +
				"another experiment, declare a new `featureconsole_experiment` block beside this one. An archived experiment " +
				"keeps here the status it stands in beneath the archive (see `archived`). A status moved in the console shows " +
				"in the plan as what it is. Moved in place, never by replacement.",
			Validators: []validator.String{stringvalidator.OneOf(experimentStatuses...)},
		},
		"archived": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "Whether the experiment is archived: kept with its results in the console, out of its " +
				"default lists, and taking no change until it is unarchived. `true` archives it, after the apply's other " +
				"changes and moves; the service archives an experiment once it stands in `setup` (never started, or reset), " +
				"`decision_made` or `abandoned`, so with any other `status` the plan fails, with nothing sent. `false` (the " +
				"default) unarchives it: an experiment archived in the console shows as `archived = true -> false`, and " +
				"apply unarchives it before any other change, the service putting it back in the status it had. While it " +
				"stays archived, any other change fails the plan, with nothing sent. The service reports an archived " +
				"experiment's status as `archived`: `status` keeps the one it had (after an import, the one its decision, " +
				"abandon or start times show). Updated in place.",
		},
		"launched_group": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "With `status = \"decision_made\"`: the name of the group to ship. Its values are served to " +
				"the users the experiment targeted (see `remove_targeting`). Read from the service once a decision is made. " +
				"Set in place, with the move to `decision_made`.",
			Validators: []validator.String{framework.NotBlank()},
		},
		"decision_reason": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Why the decision was made, or the experiment abandoned: required with `decision_made` " +
				"and `abandoned`. Sent with the move it explains; after it, the reason the service recorded (an omitted " +
				"`decision_reason` follows it). Never changed in place: the service keeps the reason given with the move, " +
				"so a different one after the move, or one without a move, fails the plan, with nothing sent.",
			Validators: []validator.String{framework.NotBlank()},
		},
		"remove_targeting": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "Whom a decision ships `launched_group` to, sent with the move to `decision_made` (the " +
				"service's `removeTargeting`). With a `targeting_gate_id`, `false` (the default) ships it only to the users " +
				"who pass the gate; `true` removes the targeting and ships it to everyone (`targeting_gate_id` then stays " +
				"as configured in the state, the gate the experiment targeted until its decision). Without a targeting " +
				"gate both ship to everyone. Changing it before the decision sends no request; after it, the decision " +
				"has shipped and a change fails the plan, with nothing sent.",
		},
		"deletion_protection": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(true),
			MarkdownDescription: "Whether a destroy or a replacement of the experiment once it has started (any `status` " +
				"but `setup`) fails at plan, with nothing sent: deleting a started experiment deletes its results. `true` " +
				"(the default) protects it; `archive_on_destroy = true` keeps it archived instead, which needs no " +
				"protection. Set `false`, and apply, before a destroy that is meant to delete it. Changing it sends no request.",
		},
		"archive_on_destroy": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "What destroy does with the experiment: `false` (the default) deletes it; `true` archives it " +
				"instead, keeping it and its results in the console (one already archived is left as it is). The service " +
				"archives an experiment after a decision, an abandon or a reset: a running one is abandoned first with " +
				"`abandon_reason_on_destroy`, and without that reason its destroy fails at plan. Changing it sends no request.",
		},
		"abandon_reason_on_destroy": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "With `archive_on_destroy = true`: the reason destroy abandons a running experiment " +
				"(`active` or `experiment_stopped`) with before it archives it, since the service archives an experiment " +
				"only after a decision, an abandon or a reset. Without it, destroying a running experiment that " +
				"`archive_on_destroy` keeps fails at plan, with nothing sent; so does destroying one in " +
				"`assignment_stopped`, which cannot be abandoned (make a decision first). Changing it sends no request.",
			Validators: []validator.String{framework.NotBlank()},
		},
		"launched_group_id": keptString("Identifier of the group shipped by the decision; null until one is made."),
		"start_time":        time("When the experiment started"),
		"end_time":          time("When the experiment ended (decided or abandoned after it started)"),
		"decision_time":     time("When the decision was made"),
		"creator_name":      keptString("Name of whoever created the experiment."),
		"created_time": schema.Int64Attribute{
			Computed: true, MarkdownDescription: "When the experiment was created, in milliseconds since the Unix epoch.",
			PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
		},
		"last_modifier_id":   schema.StringAttribute{Computed: true, MarkdownDescription: "Identifier of whoever last changed the experiment."},
		"last_modifier_name": schema.StringAttribute{Computed: true, MarkdownDescription: "Name of whoever last changed the experiment."},
		"timeouts":           framework.TimeoutsAttribute(ctx, "the experiment", timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, nil),
	}
}

// analysisFlagAttribute is a boolean analysis setting: the service's when omitted, updated in place.
func analysisFlagAttribute(desc string) schema.BoolAttribute {
	return schema.BoolAttribute{Optional: true, Computed: true,
		MarkdownDescription: desc + " The service's when omitted. Updated in place.",
		PlanModifiers:       []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}}
}

// layerChangeReplaces replaces an experiment whose layer_id changes while it is in setup: the
// service takes the layer at creation only. Once started, ModifyPlan refuses the change instead.
func layerChangeReplaces(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	var status types.String
	var archived types.Bool
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, statusPath, &status)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, archivedPath, &archived)...)
	resp.RequiresReplace = status.ValueString() == console.ExperimentSetup && !archived.ValueBool()
}

func (r *experimentResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan experimentModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	fields, diags := experimentFieldsFrom(ctx, plan)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "create", &resp.Diagnostics)
	defer cancel()
	object := fmt.Sprintf("experiment %q", fields.ID)
	e, err := createRecovering(ctx, experimentCreation, fields.ID,
		func(ctx context.Context) (*console.Experiment, error) {
			return r.data.client.CreateExperiment(ctx, fields)
		},
		r.data.client.GetExperiment, func(got *console.Experiment) bool { return experimentHolds(got, fields) })
	if err != nil {
		addCreateFailure(ctx, &resp.Diagnostics, path.Root("experiment_id"), framework.APIFailure{Op: "create", Object: object}, op, err)
		return
	}
	// The experiment exists from here: whatever fails next, the state holds it as the service does.
	e = settleExperiment(ctx, r.data, op, e, plan, types.StringNull(), &resp.Diagnostics)
	if plan.Archived.ValueBool() && !resp.Diagnostics.HasError() {
		e = setExperimentArchived(ctx, r.data, op, e, true, &resp.Diagnostics)
	}
	plan.ID = types.StringValue(e.ID)
	planned := plan.Status
	flattenExperiment(ctx, e, &plan.experimentFields)
	readArchived(e, planned, &plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *experimentResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state experimentModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.State, &state) {
		return
	}
	if state.ArchiveOnDestroy.IsNull() { // imported
		state.ArchiveOnDestroy = types.BoolValue(false)
	}
	if state.DeletionProtection.IsNull() { // imported
		state.DeletionProtection = types.BoolValue(true)
	}
	if state.RemoveTargeting.IsNull() { // imported
		state.RemoveTargeting = types.BoolValue(false)
	}
	if state.Archived.IsNull() { // imported
		state.Archived = types.BoolValue(false)
	}
	readObject(ctx, resp, state.Timeouts, "Experiment", state.ExperimentID.ValueString(), r.data.client.GetExperiment,
		func(e *console.Experiment) diag.Diagnostics {
			var diags diag.Diagnostics
			warnPendingReview(&diags, fmt.Sprintf("Experiment %q", e.ID), e.ActiveReview)
			refreshExperiment(ctx, e, &state)
			return diags
		}, &state)
}

// refreshExperiment puts e, the experiment as the service holds it, into the state m holds.
func refreshExperiment(ctx context.Context, e *console.Experiment, m *experimentModel) {
	m.ID = types.StringValue(e.ID)
	prior := m.experimentFields
	flattenExperiment(ctx, e, &m.experimentFields)
	readArchived(e, prior.Status, m)
	keepDecisionReason(prior, &m.experimentFields)
	keepRemovedTargeting(prior, m.RemoveTargeting, &m.experimentFields)
}

func (r *experimentResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state experimentModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	id := plan.ExperimentID.ValueString()
	changes, diags := experimentChanges(ctx, plan, state)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "update", &resp.Diagnostics)
	defer cancel()
	// held is the experiment as the service last answered: what the state holds when a later step fails.
	var e, held *console.Experiment
	var err error
	failed := func(what string) {
		framework.APIFailure{Op: what, Object: fmt.Sprintf("experiment %q", id)}.Add(ctx, &resp.Diagnostics, op, err)
		if held != nil { // unarchived or reset: the state holds it so
			refreshExperiment(ctx, held, &state)
			resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		}
	}
	// The service takes no change of an archived experiment: unarchive first, archive last. A reset
	// comes before the write too, which it may free (groups, a lower allocation).
	if state.Archived.ValueBool() && !plan.Archived.ValueBool() {
		if held, err = r.data.client.UnarchiveExperiment(ctx, id); err != nil {
			failed("unarchive")
			return
		}
	}
	if to, ok := framework.KnownString(plan.Status); ok && resets(state.Status.ValueString(), to) {
		if e, err = r.data.client.ResetExperiment(ctx, id); err != nil {
			failed("reset")
			return
		}
		held = e
	}
	switch {
	case !emptyExperimentFields(changes):
		// A change held for review by an earlier apply is settled, as for gates: not sent again
		// while pending, committed once approved.
		what := fmt.Sprintf("Change to experiment %q", id)
		review := newReview(ctx, req.Private, id, what, experimentReviews)
		e, err = review.write(ctx, r.data.client, console.ExperimentFieldsChange(changes), nil, &resp.Diagnostics,
			func() (*console.Experiment, error) { return r.data.client.UpdateExperiment(ctx, id, changes) })
		resp.Diagnostics.Append(review.keep(ctx, resp.Private)...)
		if reviewHeld(&resp.Diagnostics, err, what, reviewKeptState) {
			if held != nil { // unarchived or reset before the held write: the state holds it so
				refreshExperiment(ctx, held, &state)
			}
			resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
			return
		}
	case held == nil:
		e, err = r.data.client.GetExperiment(ctx, id)
	default:
		e = held
	}
	if err != nil {
		failed("update")
		return
	}
	held = e
	if changes.Groups == nil && state.Status.ValueString() != console.ExperimentSetup {
		disable, enable := groupsToggled(ctx, plan.Groups, state.Groups)
		for _, t := range []struct {
			names   []string
			disable bool
		}{{disable, true}, {enable, false}} {
			if len(t.names) == 0 {
				continue
			}
			if e, err = r.data.client.SetExperimentGroupsDisabled(ctx, id, t.names, t.disable); err != nil {
				failed("disable or enable groups of")
				return
			}
			e = keepGroupIDs(e, held)
			held = e
		}
	}
	e = settleExperiment(ctx, r.data, op, e, plan, state.ControlGroup, &resp.Diagnostics)
	if plan.Archived.ValueBool() && !state.Archived.ValueBool() && !resp.Diagnostics.HasError() {
		e = setExperimentArchived(ctx, r.data, op, e, true, &resp.Diagnostics)
	}
	plan.ID = types.StringValue(e.ID)
	planned := plan.experimentFields
	flattenExperiment(ctx, e, &plan.experimentFields)
	readArchived(e, planned.Status, &plan)
	keepDecisionReason(planned, &plan.experimentFields)
	keepRemovedTargeting(planned, plan.RemoveTargeting, &plan.experimentFields)
	if !planned.LastModifierID.IsUnknown() { // the plan kept them: nothing was written (ModifyPlan)
		plan.LastModifierID, plan.LastModifierName = planned.LastModifierID, planned.LastModifierName
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *experimentResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state experimentModel
	if !r.begin(ctx, &resp.Diagnostics, nil, req.State, &state) {
		return
	}
	id := state.ExperimentID.ValueString()
	ctx, op, cancel := framework.StartOperation(ctx, state.Timeouts, "delete", &resp.Diagnostics)
	defer cancel()
	if state.ArchiveOnDestroy.ValueBool() {
		if !state.Archived.ValueBool() {
			archiveExperiment(ctx, op, r.data.client, id, state.AbandonReasonOnDestroy.ValueString(), &resp.Diagnostics)
		}
		return
	}
	if err := r.data.client.DeleteExperiment(ctx, id); err != nil && !console.NotFound(err) {
		framework.APIFailure{Op: "delete", Object: fmt.Sprintf("experiment %q", id)}.Add(ctx, &resp.Diagnostics, op, err)
	}
}

func (r *experimentResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importState(ctx, req, resp, "featureconsole_experiment", experimentIdentityAttr, "checkout_cta")
}

func (r *experimentResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchema(experimentIdentityAttr, "Identifier of the experiment, such as checkout_cta.")
}
