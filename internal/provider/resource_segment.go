// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

var _ managedResource = &segmentResource{}

type segmentResource struct{ resourceData }

func NewSegmentResource() resource.Resource {
	return &segmentResource{resourceData{typeName: "segment"}}
}

func (r *segmentResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A segment: a `rule_based` one (ordered rules with conditions) or an `id_list` one (a set of " +
			"unit ids). Terraform creates it and destroy deletes it. The service cannot change a segment's name, " +
			"description, tags, type or id type: changing any of them replaces the segment. Rules and ids are changed " +
			"in place, and an update sends only the ids added and removed. Import by segment id.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "Identifier of the segment: its `segment_id`.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"segment_id": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Identifier of the segment, 3 to 100 letters, digits, `_` and `-`. " +
					"Changing it forces replacement.",
				Validators:    []validator.String{framework.SegmentID()},
				PlanModifiers: replace,
			},
			"name": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "Display name, 3 to 100 letters A-Z and a-z, digits, spaces, `_` and `-` (no other letters, " +
					"such as `ö`). When omitted, the segment is created with its `segment_id` as name (the service requires " +
					"one), and this attribute shows the name the service holds. Changing it forces replacement.",
				Validators:    []validator.String{framework.SegmentName()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
			},
			"description": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "Description, at most 1,000 characters. Defaults to `\"\"`. Changing it forces replacement.",
				Default:             stringdefault.StaticString(""),
				Validators:          []validator.String{stringvalidator.LengthAtMost(1000)},
				PlanModifiers:       replace,
			},
			"tags": schema.SetAttribute{
				Optional: true, Computed: true, ElementType: types.StringType,
				MarkdownDescription: "Tags. Defaults to none. Changing them forces replacement.",
				Default:             setdefault.StaticValue(types.SetValueMust(types.StringType, []attr.Value{})),
				Validators:          []validator.Set{setvalidator.ValueStringsAre(framework.NotBlank())},
				PlanModifiers:       []planmodifier.Set{setplanmodifier.RequiresReplace()},
			},
			"type": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "`rule_based` (members are the units its `rules` match) or `id_list` (members are its `ids`). Changing it forces replacement.",
				Validators:          []validator.String{stringvalidator.OneOf(console.SegmentRuleBased, console.SegmentIDList)},
				PlanModifiers:       replace,
			},
			"id_type": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "Unit id type of the members, such as `userID`; the service's default when omitted. Changing it forces replacement.",
				Validators:          []validator.String{framework.NotBlank()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
			},
			"rules": schema.ListNestedAttribute{
				Optional: true,
				MarkdownDescription: "Rules of a `rule_based` segment, in evaluation order (`[]` for none); not allowed with `id_list`. " +
					"A rule that keeps its `name` keeps its `base_id`. Changed in place.",
				NestedObject: schema.NestedAttributeObject{Attributes: segmentRuleAttributes()},
			},
			"ids": schema.ListAttribute{
				Optional: true, ElementType: types.StringType, CustomType: newSegmentIDsType(),
				MarkdownDescription: "Unit ids of an `id_list` segment, each once, in any order: the order is never " +
					"compared (the same ids in another order, also after an import, plan no change); not allowed with `rule_based`. Changed in place: an " +
					"update sends only the ids added and removed, in writes of at most 1,000 ids paced by the service's " +
					"limit for them (12 writes per 10 seconds), so a list of 100,000 ids takes about a minute and a half to create.",
				// A list rather than a set: the framework compares a set read back with the state element by
				// element against every element, which a list of 100,000 ids cannot afford.
				Validators:    []validator.List{framework.UniqueStrings{}, listvalidator.ValueStringsAre(framework.NotBlank())},
				PlanModifiers: []planmodifier.List{sameIDsKeepState{}},
			},
			"entry_count": schema.Int64Attribute{
				Computed: true, MarkdownDescription: "Number of ids (or rules): the service's `count` where it sends one (a name " +
					"Terraform reserves), else the number of ids Terraform read or wrote (or of the rules read). Never 0 for a number not known.",
				// Kept while the ids and rules stay as they are (ModifyPlan).
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"is_enabled": schema.BoolAttribute{
				Computed: true, MarkdownDescription: "Whether the segment is enabled.",
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
			"last_modifier_name": schema.StringAttribute{Computed: true, MarkdownDescription: "Name of whoever last changed the segment."},
			"last_modifier_id":   schema.StringAttribute{Computed: true, MarkdownDescription: "Identifier of whoever last changed the segment."},
			"timeouts": framework.TimeoutsAttribute(ctx, "the segment", timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, map[string]string{
				"create": "Writes of ids wait for the service's limit within it.",
				"update": "Writes of ids wait for the service's limit within it.",
			}),
		},
	}
}

func (r *segmentResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan segmentModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	id := plan.SegmentID.ValueString()
	seg, rules, ids, diags := expandSegment(ctx, plan)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "create", &resp.Diagnostics)
	defer cancel()
	created, err := createResending(ctx,
		func(ctx context.Context) (*console.Segment, error) { return r.data.client.CreateSegment(ctx, seg) },
		func(ctx context.Context, err error) (*console.Segment, bool, error) {
			return r.recoverCreate(ctx, seg, err)
		})
	if err != nil {
		addSegmentCreateError(ctx, &resp.Diagnostics, op, id, err)
		return
	}
	// From here the segment exists: whatever fails leaves it in state, so the next apply finishes it.
	plan.ID = types.StringValue(id)
	var written *console.Segment
	if len(rules) > 0 {
		written = r.writeSegmentRules(ctx, op, id, rules, &resp.Diagnostics)
	}
	var priv idListPrivate
	var onItsWay bool
	held := len(ids)
	if len(ids) > 0 && !resp.Diagnostics.HasError() {
		var refused []string
		base, baseKnown := idListBase(ctx, r.data, id, idListPrivate{})
		switch err := r.data.client.AddSegmentIDs(ctx, id, ids); {
		case console.IsIDListCap(err):
			// Terraform marks a resource whose create fails as tainted, to be deleted and created
			// again: the ids written and every reference to the segment would be lost each time.
			// The create completes with the ids the service took and says so; the state holds the
			// configured ids, and the next refresh reads what the service holds.
			n := console.IDsWritten(err)
			refused, held = ids[n:], n
			resp.Diagnostics.AddWarning(fmt.Sprintf("Segment %q created without all its ids: the service's id-list limit was reached", id),
				idListCapDetail(id, n, len(refused), n, err)+"\n\nThe segment was created and keeps the ids written, so this is a "+
					"warning rather than an error (Terraform would mark a failed create for replacement): the next plan shows the "+
					"ids still to add, and its apply fails in these words until the project has Large ID Lists.")
		case err != nil:
			segmentWriteFailure(ctx, &resp.Diagnostics, op, id, "add ids to", err)
		}
		priv, onItsWay = afterIDWrite(ctx, r.data, id, refused, expectedVersion(base, baseKnown, idListWrites(held)))
	}
	r.finish(ctx, op, &plan, created, written, &resp.Diagnostics)
	if onItsWay || held < len(ids) {
		plan.Count = types.Int64Value(int64(held)) // the service's count shows the ids once they take effect
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	resp.Diagnostics.Append(priv.save(ctx, resp.Private)...)
}

func (r *segmentResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state segmentModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.State, &state) {
		return
	}
	_, id := state.identity()
	priv := loadIDListPrivate(ctx, req.Private)
	var held []string // the ids the state holds; nil when unknown
	if !state.IDs.IsUnknown() {
		held = []string{}
		resp.Diagnostics.Append(state.IDs.ElementsAs(ctx, &held, false)...)
	}
	readObject(ctx, resp, state.Timeouts, "Segment", id.ValueString(), func(ctx context.Context, id string) (*segmentRead, error) {
		return refreshSegment(ctx, r.data, id, held, &priv)
	}, func(s *segmentRead) diag.Diagnostics {
		return flattenSegment(ctx, s.Segment, s.ids, &state)
	}, &state)
	if !resp.Diagnostics.HasError() && !resp.State.Raw.IsNull() {
		resp.Diagnostics.Append(priv.save(ctx, resp.Private)...)
	}
}

func (r *segmentResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state segmentModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	id := plan.SegmentID.ValueString()
	_, rules, ids, diags := expandSegment(ctx, plan)
	_, _, oldIDs, oldDiags := expandSegment(ctx, state)
	if resp.Diagnostics.Append(append(diags, oldDiags...)...); resp.Diagnostics.HasError() {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "update", &resp.Diagnostics)
	defer cancel()
	var written *console.Segment
	if !plan.Rules.Equal(state.Rules) {
		written = r.writeSegmentRules(ctx, op, id, rules, &resp.Diagnostics)
	}
	added, removed := setDifference(oldIDs, ids), setDifference(ids, oldIDs)
	have, wroteIDs, capped := oldIDs, false, false // the ids the service takes as the writes go
	var base int64
	var baseKnown bool
	var writes int64 // the writes the service took, each a step of the list's version
	if (len(added) > 0 || len(removed) > 0) && !resp.Diagnostics.HasError() {
		base, baseKnown = idListBase(ctx, r.data, id, loadIDListPrivate(ctx, req.Private))
	}
	if len(added) > 0 && !resp.Diagnostics.HasError() {
		wroteIDs = true
		err := r.data.client.AddSegmentIDs(ctx, id, added)
		writes += idListWrites(idsTaken(err, len(added)))
		have = unionIDs(have, added[:idsTaken(err, len(added))])
		switch {
		case console.IsIDListCap(err):
			n := console.IDsWritten(err)
			capped = true
			resp.Diagnostics.AddAttributeError(path.Root("ids"), fmt.Sprintf("Segment %q: the service's id-list limit was reached", id),
				idListCapDetail(id, n, len(added)-n, len(have), err))
		case err != nil:
			segmentWriteFailure(ctx, &resp.Diagnostics, op, id, "add ids to", err)
		}
	}
	if len(removed) > 0 && !resp.Diagnostics.HasError() {
		wroteIDs = true
		err := r.data.client.RemoveSegmentIDs(ctx, id, removed)
		writes += idListWrites(idsTaken(err, len(removed)))
		have = withoutIDs(have, removed[:idsTaken(err, len(removed))])
		if err != nil {
			segmentWriteFailure(ctx, &resp.Diagnostics, op, id, "remove ids from", err)
		}
	}
	var priv idListPrivate
	var onItsWay bool
	if wroteIDs {
		priv, onItsWay = afterIDWrite(ctx, r.data, id, nil, expectedVersion(base, baseKnown, writes))
		if resp.Diagnostics.HasError() && !capped {
			// A write whose fate is unknown (an answer lost, a timeout) may have been applied: the
			// next refresh reads the pages rather than trust the ids counted here.
			priv.Version, priv.Expected = "", ""
		}
		resp.Diagnostics.Append(priv.save(ctx, resp.Private)...)
	}
	if resp.Diagnostics.HasError() {
		// The state keeps what it held (the response starts as the plan, with its unknowns) but
		// the ids the service took; the next refresh reads what the service holds.
		if wroteIDs {
			state.IDs = heldIDs(state.IDs, have)
			state.Count = types.Int64Value(int64(len(have)))
		}
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return
	}
	r.finish(ctx, op, &plan, nil, written, &resp.Diagnostics)
	if onItsWay {
		plan.Count = types.Int64Value(int64(len(ids))) // the service's count shows the ids once they take effect
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// idsTaken returns how many of n ids a write that ended with err took.
func idsTaken(err error, n int) int {
	if err == nil {
		return n
	}
	return console.IDsWritten(err)
}

func (r *segmentResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state segmentModel
	if !r.begin(ctx, &resp.Diagnostics, nil, req.State, &state) {
		return
	}
	id := state.SegmentID.ValueString()
	ctx, op, cancel := framework.StartOperation(ctx, state.Timeouts, "delete", &resp.Diagnostics)
	defer cancel()
	if err := r.data.client.DeleteSegment(ctx, id); err != nil && !console.NotFound(err) {
		framework.APIFailure{Op: "delete", Object: fmt.Sprintf("segment %q", id)}.Add(ctx, &resp.Diagnostics, op, err)
	}
}

func (r *segmentResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importState(ctx, req, resp, "featureconsole_segment", segmentIdentityAttr, "beta_testers")
}

func (r *segmentResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchema(segmentIdentityAttr, "Identifier of the segment, such as beta_testers.")
}

// readSegment reads a segment and, for an id_list one, every page of its ids.
func (r *segmentResource) readSegment(ctx context.Context, id string) (*segmentRead, error) {
	s, err := r.data.client.GetSegment(ctx, id)
	if err != nil {
		return nil, err
	}
	out := &segmentRead{Segment: s}
	if s.Type == console.SegmentIDList {
		if out.ids, err = r.data.client.SegmentIDs(ctx, id); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// writeSegmentRules replaces the segment's rules and checks that the answer holds what was sent.
func (r *segmentResource) writeSegmentRules(ctx context.Context, op *framework.Operation, id string, rules []console.SegmentRule, diags *diag.Diagnostics) *console.Segment {
	got, err := r.data.client.SetSegmentRules(console.WithOperation(ctx, op.Name), id, orEmptyRules(rules))
	if err != nil {
		segmentWriteFailure(ctx, diags, op, id, op.Name+" rules of", err)
		return nil
	}
	if !sameRules(got.Rules, rules) {
		addNotAsSent(diags, fmt.Sprintf("Rules of segment %q not updated as sent", id), heldRuleDifferences("the segment", got.Rules, rules), reviewKeptState)
		return nil
	}
	return got
}

func orEmptyRules(r []console.SegmentRule) []console.SegmentRule {
	if r == nil {
		return []console.SegmentRule{}
	}
	return r
}

// finish fills the computed values after the writes: the rules from the rules write's answer, the
// rest (and rules when none were written) from a read of the segment. The ids are the plan's,
// which the writes sent.
func (r *segmentResource) finish(ctx context.Context, op *framework.Operation, m *segmentModel, created, written *console.Segment, diags *diag.Diagnostics) {
	seg, err := r.data.client.GetSegment(ctx, m.SegmentID.ValueString())
	if err != nil {
		if created == nil || diags.HasError() {
			framework.APIFailure{Op: "read", Object: fmt.Sprintf("segment %q", m.SegmentID.ValueString())}.Add(ctx, diags, op, err)
			seg = &console.Segment{ID: m.SegmentID.ValueString()}
		} else {
			seg = created
		}
	}
	if written != nil {
		seg.Rules = written.Rules
	}
	diags.Append(flattenSegment(ctx, seg, nil, m)...)
}

// recoverCreate handles a failed create: a create whose answer was lost, or met "exists", reads
// the segment back. One as was sent after a lost answer is this apply's own; none at all after a
// lost answer means the create never arrived (again: it may be sent once more).
func (r *segmentResource) recoverCreate(ctx context.Context, sent console.NewSegment, err error) (_ *console.Segment, again bool, _ error) {
	ambiguous := console.MaybeApplied(err)
	refused := console.Refused(err)
	if !ambiguous && !refused {
		return nil, false, err
	}
	got, gerr := r.data.client.GetSegment(ctx, sent.ID)
	if gerr != nil {
		return nil, ambiguous && console.NotFound(gerr), err
	}
	if ambiguous && got.Type == sent.Type && got.Description == sent.Description && (sent.Name == "" || got.Name == sent.Name) {
		tflog.Info(ctx, "segment create answer was lost but the segment was stored as sent: carrying on as created", map[string]any{"segment_id": sent.ID})
		return got, false, nil
	}
	return nil, false, &segmentExistsError{id: sent.ID, cause: err}
}
