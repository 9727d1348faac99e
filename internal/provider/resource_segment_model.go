// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The model of featureconsole_segment and its conversion to and from the service's segment. A
// segment rule is a gate rule without return_value: its rules go through the gate rules' expand,
// flatten and id-keeping code, converted at the edges (asGateRules, asSegmentRules).

type segmentModel struct {
	ID               types.String   `tfsdk:"id"`
	SegmentID        types.String   `tfsdk:"segment_id"`
	Name             types.String   `tfsdk:"name"`
	Description      types.String   `tfsdk:"description"`
	Tags             types.Set      `tfsdk:"tags"`
	Type             types.String   `tfsdk:"type"`
	IDType           types.String   `tfsdk:"id_type"`
	Rules            types.List     `tfsdk:"rules"`
	IDs              segmentIDs     `tfsdk:"ids"`
	Count            types.Int64    `tfsdk:"entry_count"`
	IsEnabled        types.Bool     `tfsdk:"is_enabled"`
	LastModifierName types.String   `tfsdk:"last_modifier_name"`
	LastModifierID   types.String   `tfsdk:"last_modifier_id"`
	Timeouts         timeouts.Value `tfsdk:"timeouts"`
}

const segmentIdentityAttr = "segment_id"

var segmentRuleObjectType = framework.ResourceObjectType(segmentRuleAttributes())

func (m *segmentModel) identity() (string, types.String) { return segmentIdentityAttr, m.SegmentID }

// gateOnlyRuleAttributes are the attributes of a gate rule that a segment rule does not have.
var gateOnlyRuleAttributes = []string{"return_value", "scheduled_rollouts"}

// asGateRules is a list of segment rules as gate rules (return_value and scheduled_rollouts null);
// null and unknown stay so.
func asGateRules(l types.List) types.List {
	return convertRules(l, ruleObjectType, func(attrs map[string]attr.Value) {
		attrs["return_value"] = framework.NewJSONNull()
		attrs["scheduled_rollouts"] = types.ListNull(scheduledRolloutType)
	})
}

// asSegmentRules converts a list of rules (the rule family's model) into segment rules.
func asSegmentRules(l types.List) types.List {
	return convertRules(l, segmentRuleObjectType, func(attrs map[string]attr.Value) {
		for _, gateOnly := range gateOnlyRuleAttributes {
			delete(attrs, gateOnly)
		}
	})
}

// expandSegment returns the create request, the rules to write and the ids to add.
func expandSegment(ctx context.Context, m segmentModel) (console.NewSegment, []console.SegmentRule, []string, diag.Diagnostics) {
	var diags diag.Diagnostics
	seg := console.NewSegment{
		ID:          m.SegmentID.ValueString(),
		Name:        m.Name.ValueString(),
		Description: m.Description.ValueString(),
		Type:        m.Type.ValueString(),
		IDType:      m.IDType.ValueString(),
	}
	if seg.Name == "" {
		// POST /segments requires a name; the console shows the id where none was chosen.
		seg.Name = seg.ID
	}
	diags.Append(m.Tags.ElementsAs(ctx, &seg.Tags, false)...)
	slices.Sort(seg.Tags)
	var rules []console.SegmentRule
	if framework.IsKnownList(m.Rules) {
		models, d := ruleModels(ctx, asGateRules(m.Rules))
		diags.Append(d...)
		rules, d = expandRules(ctx, models)
		diags.Append(d...)
		for i := range rules {
			rules[i].ReturnValue = nil
		}
	}
	var ids []string
	if !m.IDs.IsNull() && !m.IDs.IsUnknown() {
		diags.Append(m.IDs.ElementsAs(ctx, &ids, false)...)
	}
	return seg, rules, ids, diags
}

// flattenSegment stores the service's segment in m. ids are the ids of an id_list segment (nil:
// keep m's, which a write has just sent). The prior rules are the hints that keep the
// configuration's forms; none held and none configured stays null.
func flattenSegment(ctx context.Context, s *console.Segment, ids []string, m *segmentModel) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(m.SegmentID.ValueString())
	if s.Name != "" || m.Name.IsUnknown() {
		m.Name = framework.StringOrNull(s.Name)
	}
	m.Description = types.StringValue(s.Description)
	m.Tags = framework.StringSet(s.Tags)
	if s.Type != "" {
		m.Type = types.StringValue(s.Type)
	}
	if s.IDType != "" || m.IDType.IsUnknown() {
		m.IDType = framework.StringOrNull(s.IDType)
	}
	m.Count = entryCount(s, ids, m.IDs)
	m.IsEnabled = types.BoolValue(s.IsEnabled)
	m.LastModifierName = types.StringValue(s.LastModifierName)
	m.LastModifierID = types.StringValue(s.LastModifierID)

	if len(s.Rules) == 0 && !framework.IsKnownList(m.Rules) || len(s.Rules) == 0 && m.Rules.IsNull() {
		m.Rules = types.ListNull(segmentRuleObjectType)
	} else {
		hints, d := ruleModels(ctx, asGateRules(m.Rules))
		diags.Append(d...)
		rules, d := flattenRules(ctx, s.Rules, hints)
		diags.Append(d...)
		m.Rules = asSegmentRules(rules)
	}
	if ids != nil {
		m.IDs = heldIDs(m.IDs, ids)
	}
	return diags
}

// entryCount is the number of ids or rules: the service's count where it sends one, else the ids
// read (ids) or written (held: the ids a write has just sent), or the rules read; null, never 0,
// where none of these is known (POST /segments requires a name).
func entryCount(s *console.Segment, ids []string, held segmentIDs) types.Int64 {
	if n, ok := s.KnownCount(); ok {
		return types.Int64Value(n)
	}
	switch {
	case s.Type != console.SegmentIDList:
	case ids != nil:
		return types.Int64Value(int64(len(ids)))
	case held.IsNull():
		return types.Int64Value(0) // none written to a list just created
	case !held.IsUnknown():
		return types.Int64Value(int64(len(held.Elements())))
	}
	return types.Int64Null()
}

// heldIDs is the service's ids as a value; none held where the state holds none stays null. A
// read in another order keeps the state's order (segmentIDs.ListSemanticEquals).
func heldIDs(held segmentIDs, ids []string) segmentIDs {
	if len(ids) == 0 && (held.IsNull() || held.IsUnknown()) {
		return segmentIDsNull()
	}
	return segmentIDsOf(ids)
}

// setDifference returns what want holds that have does not, in want's order.
func setDifference(have, want []string) []string {
	held := make(map[string]struct{}, len(have))
	for _, v := range have {
		held[v] = struct{}{}
	}
	var out []string
	for _, v := range want {
		if _, ok := held[v]; !ok {
			out = append(out, v)
		}
	}
	return out
}

// segmentRuleAttributes is a gate rule's schema without return_value and scheduled_rollouts: the
// service's segment rule (segments have no scheduled rollouts), described in a segment's words,
// whose conditions are of the types segments accept.
func segmentRuleAttributes() map[string]schema.Attribute {
	attrs := ruleAttributes()
	for _, gateOnly := range gateOnlyRuleAttributes {
		delete(attrs, gateOnly)
	}
	if a, ok := attrs["id"].(schema.StringAttribute); ok {
		a.MarkdownDescription = "Identifier of this version of the rule, assigned by the service (opaque). The service " +
			"may give every rule of the segment a new one on any change of its rules, so it is unknown in the plan of " +
			"a change; use `base_id` for a rule's lasting identity."
		attrs["id"] = a
	}
	if a, ok := attrs["name"].(schema.StringAttribute); ok {
		a.MarkdownDescription = "Name of the rule; unique within the segment and not empty. Rules are matched to the " +
			"segment's existing rules by name: renaming a rule replaces it with a new one (new `base_id`)."
		attrs["name"] = a
	}
	if a, ok := attrs["pass_percentage"].(schema.NumberAttribute); ok {
		a.MarkdownDescription = "Percentage of the units matching the conditions that are members of the segment, " +
			"from `0` to `100` with at most two decimals (for example `12.5` or `33.33`)."
		attrs["pass_percentage"] = a
	}
	if a, ok := attrs["conditions"].(schema.ListNestedAttribute); ok {
		a.NestedObject = schema.NestedAttributeObject{Attributes: segmentRuleConditions.resourceAttributes()}
		attrs["conditions"] = a
	}
	return attrs
}

// segmentRead is a segment with the ids of an id_list one.
type segmentRead struct {
	*console.Segment
	ids []string
}

// segmentConditionTypes are the condition types segments accept, and no other.
var segmentConditionTypes = []string{
	"app_version", "browser_name", "browser_version", "country", "custom_field", "email", "environment_tier",
	"fails_segment", "ip_address", "os_name", "os_version", "passes_segment", "unit_id", "user_id",
}

// segmentRuleConditions are the conditions of featureconsole_segment's rules: a gate rule's, of
// the types segments accept.
var segmentRuleConditions = conditionKind{
	typeDesc: "What the condition tests: one of " + framework.CodeList(segmentConditionTypes) + ", the condition " +
		"types segments accept. Any other (such as `locale` or `public`, which gates accept) is refused at plan " +
		"time, and a value that differs from one of them only by case or a typo (such as `emial`) is refused " +
		"with a suggestion.",
	operatorDesc: operatorDesc,
	fieldDesc:    ruleConditions.fieldDesc,
	customIDDesc: ruleConditions.customIDDesc,
	targetDesc:   ruleConditions.targetDesc,
	types:        segmentConditionTypes,
	typesOnlyIn:  "segments",
	operators:    conditionOperators,
	warnUnknown:  true,
	numbers:      true,
}

type segmentExistsError struct {
	id    string
	cause error
}

func (e *segmentExistsError) Error() string {
	return fmt.Sprintf("A segment with id %[1]q already exists in the console but is not managed by this Terraform state. "+
		"Terraform does not take over existing segments.\n\nTo manage it with Terraform, import it with:\n\n"+
		"  terraform import featureconsole_segment.<resource name> %[1]q\n\nor an import block:\n\n"+
		"  import {\n    to = featureconsole_segment.<resource name>\n    id = %[1]q\n  }\n\n"+
		"then adjust the configuration until the plan shows no changes. Or choose another segment_id.", e.id)
}

func (e *segmentExistsError) Unwrap() error { return e.cause }

func addSegmentCreateError(ctx context.Context, diags *diag.Diagnostics, op *framework.Operation, id string, err error) {
	create := framework.APIFailure{Op: "create", Object: fmt.Sprintf("segment %q", id)}
	var exists *segmentExistsError
	if errors.As(err, &exists) {
		detail := exists.Error()
		if op.TimedOut(ctx) {
			detail = create.Detail(ctx, op, err)
		}
		diags.AddAttributeError(path.Root("segment_id"), fmt.Sprintf("Segment %q already exists", id), detail)
		return
	}
	create.Add(ctx, diags, op, err)
}

// segmentWriteFailure adds the diagnostic of a failed write of a segment's rules or ids: an
// archived segment, the id-list cap, or the service's account.
func segmentWriteFailure(ctx context.Context, diags *diag.Diagnostics, op *framework.Operation, id, what string, err error) {
	switch {
	case console.IsArchived(err):
		diags.AddError(fmt.Sprintf("Segment %q is archived", id),
			fmt.Sprintf("Unable to %s segment %q: the segment is archived, and the service refuses every change to an archived "+
				"segment. The service has no way to unarchive a segment. To change its members, give the segment a new "+
				"segment_id in the configuration: Terraform then creates a new segment and deletes the archived one (update "+
				"the gates and segments that refer to it by id). The service said: %s", what, id, framework.FailureAccount(err)))
	default:
		framework.APIFailure{Op: what, Object: fmt.Sprintf("segment %q", id)}.Add(ctx, diags, op, err)
	}
}

// idListCapDetail says what the service's id-list cap means for a write of ids, of which written
// were taken and todo are still to add; the segment now holds holds ids.
func idListCapDetail(id string, written, todo, holds int, err error) string {
	return fmt.Sprintf("The service refused to add more ids to segment %q: its id-list limit was reached. An id list holds at "+
		"most 10,000 ids unless the project has Large ID Lists (a beta of the service, not on every plan). %d id(s) were "+
		"written before the limit was reached and the segment now holds %d; %d id(s) are still to add. Large ID Lists must "+
		"be enabled for the project (ask the service's support or your account team), then run apply again: the next plan "+
		"shows only the ids still to add. The segment is never deleted or created again for this. The service said: %s",
		id, written, holds, todo, framework.FailureAccount(err))
}
