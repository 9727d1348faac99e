package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

var (
	_ resource.ResourceWithConfigure      = &releasePipelineResource{}
	_ resource.ResourceWithImportState    = &releasePipelineResource{}
	_ resource.ResourceWithModifyPlan     = &releasePipelineResource{}
	_ resource.ResourceWithValidateConfig = &releasePipelineResource{}
)

func NewReleasePipelineResource() resource.Resource { return &releasePipelineResource{} }

type releasePipelineResource struct{ data *providerData }

type releasePipelineModel struct {
	ID             types.String   `tfsdk:"id"`
	PipelineID     types.String   `tfsdk:"pipeline_id"`
	Name           types.String   `tfsdk:"name"`
	Phases         types.List     `tfsdk:"phases"`
	CreatorID      types.String   `tfsdk:"creator_id"`
	CreatedTime    types.Int64    `tfsdk:"created_time"`
	LastModifierID types.String   `tfsdk:"last_modifier_id"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
}

type pipelinePhaseModel struct {
	ID             types.String `tfsdk:"id"`
	Name           types.String `tfsdk:"name"`
	TimeIntervalMs types.Int64  `tfsdk:"time_interval_ms"`
	RequiredReview types.Bool   `tfsdk:"required_review"`
	Rules          types.List   `tfsdk:"rules"`
}

type pipelineRuleModel struct {
	ID           types.String `tfsdk:"id"`
	Name         types.String `tfsdk:"name"`
	Environments types.List   `tfsdk:"environments"`
	Conditions   types.List   `tfsdk:"conditions"`
}

type pipelineConditionModel struct {
	Type        types.String `tfsdk:"type"`
	Operator    types.String `tfsdk:"operator"`
	Field       types.String `tfsdk:"field"`
	CustomID    types.String `tfsdk:"custom_id"`
	TargetValue types.List   `tfsdk:"target_value"`
}

var (
	pipelineConditionType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"type":         types.StringType,
		"operator":     types.StringType,
		"field":        types.StringType,
		"custom_id":    types.StringType,
		"target_value": types.ListType{ElemType: types.StringType},
	}}
	pipelineRuleType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"id":           types.StringType,
		"name":         types.StringType,
		"environments": types.ListType{ElemType: types.StringType},
		"conditions":   types.ListType{ElemType: pipelineConditionType},
	}}
	pipelinePhaseType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"id":               types.StringType,
		"name":             types.StringType,
		"time_interval_ms": types.Int64Type,
		"required_review":  types.BoolType,
		"rules":            types.ListType{ElemType: pipelineRuleType},
	}}
)

func (r *releasePipelineResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_release_pipeline"
}

func (r *releasePipelineResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	emptyMeansNone := "Omitting it, `null` and `[]` all mean none and never show a difference in a plan (state holds `[]`)."
	resp.Schema = schema.Schema{
		MarkdownDescription: "The name and the complete, ordered phase list of an existing release pipeline (a phased rollout).\n\n" +
			"A release pipeline rolls a change out phase after phase. A phase with `required_review = true` waits for a manual " +
			"review before it starts; `time_interval_ms` is how long the rollout waits after the phase before the next phase " +
			"starts. When a phase has both, the timer starts once the review is approved. The rules of a phase say which " +
			"units (matching conditions, in the given environments) the phase releases to.\n\n" +
			"The console API cannot create or delete pipelines: the pipeline must exist before Terraform manages it. " +
			"Creating this resource takes over the pipeline and replaces its name and phases with the configured ones " +
			"(`POST /release_pipelines/{id}`); destroying it only removes it from the Terraform state and leaves the " +
			"pipeline, with its current phases, on the service.\n\n" +
			"Phases and phase rules keep their identity by name: when a phase (or a rule within a phase) keeps its name, " +
			"its existing `id` is sent back, so inserting, removing or reordering phases does not renumber the others.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Identifier of the resource; the same as `pipeline_id`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"pipeline_id": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Identifier of the existing release pipeline, such as `pl_web`. Changing it forces replacement: " +
					"the old pipeline is released from Terraform (left as it is) and the new one is taken over.",
				Validators:    []validator.String{notBlank()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Display name of the pipeline. Updated in place.",
				Validators:          []validator.String{notBlank()},
			},
			"phases": schema.ListNestedAttribute{
				Required: true,
				MarkdownDescription: "The complete, ordered list of phases: the rollout runs them in this order. Phases on the " +
					"service that are not listed are removed. Phase names must be unique within the pipeline. `[]` is allowed. " +
					"Updated in place.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id": schema.StringAttribute{
						Optional: true,
						Computed: true,
						MarkdownDescription: "Identifier of the phase on the service. Leave it unset: a phase that keeps its name keeps " +
							"its id (the provider sends it back), and a new phase gets its id from the service (unknown until apply). " +
							"Set it only to pin a phase to an existing id, for example when renaming a phase.",
					},
					"name": schema.StringAttribute{
						Required:            true,
						MarkdownDescription: "Name of the phase, unique within the pipeline. It is what ties the phase to its `id`.",
						Validators:          []validator.String{notBlank()},
					},
					"time_interval_ms": schema.Int64Attribute{
						Required: true,
						MarkdownDescription: "Time to wait after this phase before the next phase starts, in milliseconds (`3600000` " +
							"is one hour), `0` or more. With `required_review`, the timer starts once the review is approved.",
						Validators: []validator.Int64{int64validator.AtLeast(0)},
					},
					"required_review": schema.BoolAttribute{
						Optional: true,
						Computed: true,
						Default:  booldefault.StaticBool(false),
						MarkdownDescription: "When `true`, the phase waits for a manual review (approval in the console) before it " +
							"starts. Defaults to `false`.",
					},
					"rules": schema.ListNestedAttribute{
						Optional: true,
						Computed: true,
						MarkdownDescription: "Rules of the phase: who the phase releases to. Rule names must be unique within the " +
							"phase. " + emptyMeansNone,
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"id": schema.StringAttribute{
								Optional: true,
								Computed: true,
								MarkdownDescription: "Identifier of the rule on the service. Leave it unset: a rule that keeps its name " +
									"within its phase keeps its id, and a new rule gets its id from the service (unknown until apply).",
							},
							"name": schema.StringAttribute{
								Required:            true,
								MarkdownDescription: "Name of the rule, unique within the phase.",
								Validators:          []validator.String{notBlank()},
							},
							"environments": schema.ListAttribute{
								Optional:    true,
								Computed:    true,
								ElementType: types.StringType,
								MarkdownDescription: "Names of the environments the rule applies to, such as `staging`. When none are " +
									"set the service answers `null`. " + emptyMeansNone,
							},
							"conditions": schema.ListNestedAttribute{
								Optional:            true,
								Computed:            true,
								MarkdownDescription: "Conditions a unit must match for the rule to apply. " + emptyMeansNone,
								NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
									"type": schema.StringAttribute{
										Required:            true,
										MarkdownDescription: "Condition type, such as `user_id`, `app_version` or `public`.",
										Validators:          []validator.String{notBlank()},
									},
									"operator": schema.StringAttribute{
										Optional:            true,
										MarkdownDescription: "Operator, such as `any`. Omit for conditions that take none (`public`).",
										Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
									},
									"field": schema.StringAttribute{
										Optional:            true,
										MarkdownDescription: "Field the condition reads, for conditions on a custom field.",
										Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
									},
									"custom_id": schema.StringAttribute{
										Optional:            true,
										MarkdownDescription: "Custom unit ID type, for conditions on a custom unit ID.",
										Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
									},
									"target_value": schema.ListAttribute{
										Optional:            true,
										Computed:            true,
										ElementType:         types.StringType,
										MarkdownDescription: "Values the operator compares with, as strings (for example `[\"42\"]`). " + emptyMeansNone,
									},
								}},
							},
						}},
					},
				}},
			},
			"creator_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Identifier of the user who created the pipeline.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"created_time": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "When the pipeline was created, in milliseconds since the Unix epoch.",
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"last_modifier_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Identifier of the user (or API key) that last modified the pipeline; changes with every update.",
			},
			// No delete: destroy sends no request.
			"timeouts": timeoutsAttribute(ctx, "the pipeline", timeouts.Opts{Create: true, Read: true, Update: true}, map[string]string{
				"create": "It covers reading the pipeline before taking it over.",
			}),
		},
	}
}

func (r *releasePipelineResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, resp.Diagnostics.AddError)
}

// Create takes over a pipeline that already exists (the API has no create). It reads the pipeline
// first so that phases and rules whose names already exist there keep their ids and history, as an
// update would; their ids are unknown in the plan, so any answer is consistent with it.
func (r *releasePipelineResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan releasePipelineModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	id := plan.PipelineID.ValueString()
	op, cancel, d := startOperation(ctx, plan.Timeouts, "create")
	defer cancel()
	resp.Diagnostics.Append(d...)
	existing, err := r.data.client.GetReleasePipeline(op.ctx, id)
	if err != nil {
		detail := op.explain(fmt.Sprintf("Unable to read release pipeline %q", id), err).Error()
		if console.NotFound(err) {
			detail += "\n\nThe console API cannot create release pipelines: create the pipeline in the console first, " +
				"or correct pipeline_id."
		}
		resp.Diagnostics.AddError(fmt.Sprintf("Unable to read release pipeline %q", id), detail)
		return
	}
	phases, diags := expandPipelinePhases(ctx, plan.Phases, existing.Phases)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.apply(ctx, op, &plan, phases, &resp.State, &resp.Diagnostics)
}

func (r *releasePipelineResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state releasePipelineModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	id := state.PipelineID.ValueString()
	op, cancel, d := startOperation(ctx, state.Timeouts, "read")
	defer cancel()
	resp.Diagnostics.Append(d...)
	p, err := r.data.client.GetReleasePipeline(op.ctx, id)
	if console.NotFound(err) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		summary := fmt.Sprintf("Unable to read release pipeline %q", id)
		resp.Diagnostics.AddError(summary, op.explain(summary, err).Error())
		return
	}
	resp.Diagnostics.Append(setPipelineModel(ctx, &state, p)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *releasePipelineResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state releasePipelineModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	if plan.Name.Equal(state.Name) && plan.Phases.Equal(state.Phases) { // only timeouts changed: nothing to send
		state.Timeouts = plan.Timeouts
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return
	}
	// Known ids in the plan already came from the refreshed state; the others are new.
	phases, diags := expandPipelinePhases(ctx, plan.Phases, nil)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	op, cancel, d := startOperation(ctx, plan.Timeouts, "update")
	defer cancel()
	resp.Diagnostics.Append(d...)
	r.apply(ctx, op, &plan, phases, &resp.State, &resp.Diagnostics)
}

// apply sends the pipeline and stores the service's answer, shaped by the plan (null vs [] choices).
func (r *releasePipelineResource) apply(ctx context.Context, op *operation, plan *releasePipelineModel, phases []console.Phase, state *tfsdk.State, diags *diag.Diagnostics) {
	id := plan.PipelineID.ValueString()
	p, err := r.data.client.UpdateReleasePipeline(op.ctx, id, console.ReleasePipelineUpdate{Name: plan.Name.ValueString(), Phases: phases})
	if err != nil {
		summary := fmt.Sprintf("Unable to update release pipeline %q", id)
		diags.AddError(summary, op.explain(summary, err).Error())
		return
	}
	planned := *plan
	diags.Append(setPipelineModel(ctx, plan, p)...)
	if diags.HasError() {
		return
	}
	diags.Append(checkPinnedIDs(ctx, planned.Phases, plan.Phases, id)...)
	diags.Append(state.Set(ctx, plan)...)
}

func (r *releasePipelineResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state releasePipelineModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.AddWarning("Release pipeline left in place",
		fmt.Sprintf("Release pipeline %q was removed from the Terraform state only. The console API cannot delete release "+
			"pipelines, so the pipeline and its current name and phases remain on the service.", state.PipelineID.ValueString()))
}

func (r *releasePipelineResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID == "" {
		resp.Diagnostics.AddError("Invalid import ID", "Import a release pipeline by its pipeline id, for example pl_web.")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("pipeline_id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}

// expandPipelinePhases builds the request's phases from planned ones. Unknown phase and rule ids are
// sent empty unless existing (the service's current phases, on create) has one with the same name.
func expandPipelinePhases(ctx context.Context, list types.List, existing []console.Phase) ([]console.Phase, diag.Diagnostics) {
	var diags diag.Diagnostics
	var phases []pipelinePhaseModel
	diags.Append(list.ElementsAs(ctx, &phases, false)...)
	if diags.HasError() {
		return nil, diags
	}
	usedPhase := make([]bool, len(existing))
	out := make([]console.Phase, 0, len(phases))
	for _, ph := range phases {
		var match *console.Phase
		if i := matchName(len(existing), func(i int) string { return existing[i].Name }, usedPhase, ph.Name.ValueString()); i >= 0 {
			match = &existing[i]
		}
		cp := console.Phase{
			ID:             knownString(ph.ID),
			Name:           ph.Name.ValueString(),
			TimeIntervalMs: ph.TimeIntervalMs.ValueInt64(),
			RequiredReview: ph.RequiredReview.ValueBool(),
			Rules:          []console.PipelineRule{},
		}
		if cp.ID == "" && match != nil {
			cp.ID = match.ID
		}
		var rules []pipelineRuleModel
		diags.Append(ph.Rules.ElementsAs(ctx, &rules, true)...)
		var existingRules []console.PipelineRule
		if match != nil {
			existingRules = match.Rules
		}
		usedRule := make([]bool, len(existingRules))
		for _, ru := range rules {
			cr := console.PipelineRule{
				ID:           knownString(ru.ID),
				Name:         ru.Name.ValueString(),
				Environments: []string{},
				Conditions:   []console.Condition{},
			}
			if i := matchName(len(existingRules), func(i int) string { return existingRules[i].Name }, usedRule, cr.Name); i >= 0 && cr.ID == "" {
				cr.ID = existingRules[i].ID
			}
			diags.Append(ru.Environments.ElementsAs(ctx, &cr.Environments, true)...)
			if cr.Environments == nil {
				cr.Environments = []string{}
			}
			var conds []pipelineConditionModel
			diags.Append(ru.Conditions.ElementsAs(ctx, &conds, true)...)
			for _, c := range conds {
				cc := console.Condition{
					Type:     c.Type.ValueString(),
					Operator: c.Operator.ValueString(),
					Field:    c.Field.ValueString(),
					CustomID: c.CustomID.ValueString(),
				}
				if !c.TargetValue.IsNull() && !c.TargetValue.IsUnknown() {
					vals := []string{}
					diags.Append(c.TargetValue.ElementsAs(ctx, &vals, false)...)
					raw, err := json.Marshal(vals)
					if err != nil {
						diags.AddError("Unable to encode target_value", err.Error())
						return nil, diags
					}
					cc.TargetValue = raw
				}
				cr.Conditions = append(cr.Conditions, cc)
			}
			cp.Rules = append(cp.Rules, cr)
		}
		out = append(out, cp)
	}
	return out, diags
}

// matchName returns the first unused index whose name equals name (marking it used), or -1.
func matchName(n int, nameAt func(int) string, used []bool, name string) int {
	for i := 0; i < n; i++ {
		if !used[i] && nameAt(i) == name {
			used[i] = true
			return i
		}
	}
	return -1
}

func knownString(s types.String) string {
	if s.IsNull() || s.IsUnknown() {
		return ""
	}
	return s.ValueString()
}

// setPipelineModel stores the service's pipeline in m. Empty lists are always stored as [] (the
// service answers null for some of them): with one canonical form, omitting a list, null and []
// never differ from state, after create, update or import alike.
func setPipelineModel(ctx context.Context, m *releasePipelineModel, p *console.ReleasePipeline) diag.Diagnostics {
	phases, diags := flattenPipelinePhases(ctx, p.Phases)
	if diags.HasError() {
		return diags
	}
	m.ID = m.PipelineID
	m.Name = types.StringValue(p.Name)
	m.Phases = phases
	m.CreatorID = types.StringValue(p.CreatorID)
	m.CreatedTime = types.Int64Value(p.CreatedTime)
	m.LastModifierID = types.StringValue(p.LastModifierID)
	return diags
}

func flattenPipelinePhases(ctx context.Context, phases []console.Phase) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := make([]pipelinePhaseModel, 0, len(phases))
	for _, p := range phases {
		rules, d := flattenPipelineRules(ctx, p.Rules)
		diags.Append(d...)
		out = append(out, pipelinePhaseModel{
			ID:             types.StringValue(p.ID),
			Name:           types.StringValue(p.Name),
			TimeIntervalMs: types.Int64Value(p.TimeIntervalMs),
			RequiredReview: types.BoolValue(p.RequiredReview),
			Rules:          rules,
		})
	}
	list, d := types.ListValueFrom(ctx, pipelinePhaseType, out)
	diags.Append(d...)
	return list, diags
}

func flattenPipelineRules(ctx context.Context, rules []console.PipelineRule) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := make([]pipelineRuleModel, 0, len(rules))
	for _, ru := range rules {
		conds, d := flattenPipelineConditions(ctx, ru.Conditions)
		diags.Append(d...)
		out = append(out, pipelineRuleModel{
			ID:           types.StringValue(ru.ID),
			Name:         types.StringValue(ru.Name),
			Environments: emptyStringList(stringList(ru.Environments)),
			Conditions:   conds,
		})
	}
	list, d := types.ListValueFrom(ctx, pipelineRuleType, out)
	diags.Append(d...)
	return list, diags
}

func flattenPipelineConditions(ctx context.Context, conds []console.Condition) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := make([]pipelineConditionModel, 0, len(conds))
	for _, c := range conds {
		tv, err := targetValueStrings(c.TargetValue)
		if err != nil {
			diags.AddError("Unexpected condition target value",
				fmt.Sprintf("The service answered a targetValue the provider cannot read (%s): %v", truncateForDiag(string(c.TargetValue)), err))
			return types.ListNull(pipelineConditionType), diags
		}
		out = append(out, pipelineConditionModel{
			Type:        types.StringValue(c.Type),
			Operator:    stringOrNull(c.Operator),
			Field:       stringOrNull(c.Field),
			CustomID:    stringOrNull(c.CustomID),
			TargetValue: emptyStringList(tv),
		})
	}
	list, d := types.ListValueFrom(ctx, pipelineConditionType, out)
	diags.Append(d...)
	return list, diags
}

// emptyStringList turns a null list of strings into [].
func emptyStringList(l types.List) types.List {
	if l.IsNull() {
		return types.ListValueMust(types.StringType, []attr.Value{})
	}
	return l
}

// isKnownList is false for the zero value too (no value at all).
func isKnownList(l types.List) bool {
	return !l.IsNull() && !l.IsUnknown()
}

func truncateForDiag(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}
