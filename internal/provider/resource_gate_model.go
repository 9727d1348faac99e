// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// The model of featureconsole_gate and its conversion to and from the service's gate: the gate's
// own fields only; its rules belong to featureconsole_gate_rules.

type gateModel struct {
	ID types.String `tfsdk:"id"`
	gateFields
	ArchiveOnDestroy types.Bool     `tfsdk:"archive_on_destroy"`
	Timeouts         timeouts.Value `tfsdk:"timeouts"`
}

// gateFields are the gate's own fields as the service holds them (flattenGateFields): the attributes
// featureconsole_gate and the featureconsole_gate data source share.
type gateFields struct {
	GateID            types.String `tfsdk:"gate_id"`
	Name              types.String `tfsdk:"name"`
	Description       types.String `tfsdk:"description"`
	IsEnabled         types.Bool   `tfsdk:"is_enabled"`
	Tags              types.Set    `tfsdk:"tags"`
	TargetApps        types.Set    `tfsdk:"target_apps"`
	Type              types.String `tfsdk:"type"`
	TypeReason        types.String `tfsdk:"type_reason"`
	IDType            types.String `tfsdk:"id_type"`
	ReleasePipelineID types.String `tfsdk:"release_pipeline_id"`
	Status            types.String `tfsdk:"status"`
	CreatorName       types.String `tfsdk:"creator_name"`
	CreatedTime       types.Int64  `tfsdk:"created_time"`
	LastModifierID    types.String `tfsdk:"last_modifier_id"`
	LastModifierName  types.String `tfsdk:"last_modifier_name"`
	Archived          types.Bool   `tfsdk:"archived"`
}

func (m *gateModel) identity() (string, types.String) { return gateIdentityAttr, m.GateID }

// gateFieldsFrom is the body of a create: the id and every field the plan knows. A field the
// configuration omits is unknown in the plan of a create and left out, so the service chooses it.
func gateFieldsFrom(ctx context.Context, m gateModel) (console.GateFields, diag.Diagnostics) {
	f := console.GateFields{
		ID:                m.GateID.ValueString(),
		Name:              knownPointer(m.Name),
		Description:       knownPointer(m.Description),
		Type:              knownPointer(m.Type),
		IDType:            knownPointer(m.IDType),
		ReleasePipelineID: knownLink(m.ReleasePipelineID),
	}
	if !m.IsEnabled.IsNull() && !m.IsEnabled.IsUnknown() {
		f.IsEnabled = m.IsEnabled.ValueBoolPointer()
	}
	tags, diags := knownTags(ctx, m.Tags)
	f.Tags = tags
	apps, d := knownTags(ctx, m.TargetApps)
	diags.Append(d...)
	f.TargetApps = apps
	return f, diags
}

// gateChanges is the body of an update: the fields whose planned value differs from the state.
// A pipeline the plan no longer names is detached (null).
func gateChanges(ctx context.Context, plan, state gateModel) (console.GateFields, diag.Diagnostics) {
	all, diags := gateFieldsFrom(ctx, plan)
	var f console.GateFields
	ifChanged(plan.Name, state.Name, func() { f.Name = all.Name })
	ifChanged(plan.Description, state.Description, func() { f.Description = all.Description })
	ifChanged(plan.IsEnabled, state.IsEnabled, func() { f.IsEnabled = all.IsEnabled })
	ifChanged(plan.Tags, state.Tags, func() { f.Tags = all.Tags })
	ifChanged(plan.TargetApps, state.TargetApps, func() { f.TargetApps = all.TargetApps })
	ifChanged(plan.Type, state.Type, func() { f.Type = all.Type })
	ifChanged(plan.IDType, state.IDType, func() { f.IDType = all.IDType })
	ifChanged(plan.ReleasePipelineID, state.ReleasePipelineID, func() { f.ReleasePipelineID = plannedLink(plan.ReleasePipelineID) })
	return f, diags
}

// emptyGateFields reports whether an update carries nothing to send.
func emptyGateFields(f console.GateFields) bool {
	return f == (console.GateFields{})
}

// flattenGateFields puts what the service holds into the model; fields the service leaves out or
// sends as null read as the service's "none" ("" or no tags or apps), a pipeline "" as no pipeline. A stale
// gate's type is what was declared (TEMPORARY): STALE is the service's verdict, never drift.
// archive_on_destroy is Terraform's alone: kept, false where nothing set it (import, a listing).
func flattenGateFields(g *console.Gate, m *gateModel) {
	m.ID = types.StringValue(g.ID)
	m.GateID = types.StringValue(g.ID)
	m.Name = types.StringValue(g.Name)
	m.Description = types.StringValue(g.Description)
	m.IsEnabled = types.BoolValue(g.IsEnabled)
	tags := make([]attr.Value, len(g.Tags))
	for i, t := range g.Tags {
		tags[i] = types.StringValue(t)
	}
	m.Tags = types.SetValueMust(types.StringType, tags)
	m.TargetApps = framework.StringSet(g.TargetApps)
	m.Type = types.StringValue(g.DeclaredType())
	m.TypeReason = types.StringValue(g.StaleReason())
	m.Archived = types.BoolValue(g.Archived())
	if m.ArchiveOnDestroy.IsNull() || m.ArchiveOnDestroy.IsUnknown() {
		m.ArchiveOnDestroy = types.BoolValue(false)
	}
	m.IDType = types.StringValue(g.IDType)
	m.ReleasePipelineID = framework.StringOrNull(g.ReleasePipelineID)
	m.Status = types.StringValue(g.Status)
	m.CreatorName = types.StringValue(g.CreatorName)
	m.CreatedTime = types.Int64Value(int64(g.CreatedTime))
	m.LastModifierID = types.StringValue(g.LastModifierID)
	m.LastModifierName = types.StringValue(g.LastModifierName)
}

// gateReviews is where the reviews of a gate's changes are read and committed.
var gateReviews = reviewTarget[console.Gate]{noun: "gate", get: (*console.Client).GetGateReview,
	commit: (*console.Client).CommitGateReview, read: (*console.Client).GetGate}

// newGateReview starts the review of a change of a gate's fields (newReview over gateReviews).
func newGateReview(ctx context.Context, p privateState, gateID, what string) *changeReview[console.Gate] {
	return newReview(ctx, p, gateID, what, gateReviews)
}

// gateHoldsChange returns the check that a gate holds the fields of change: what a committed review of it is
// checked with.
func gateHoldsChange(gateID string, change console.GateFields) func(*console.Gate) bool {
	change.ID = gateID
	return func(g *console.Gate) bool { return gateHolds(g, change) }
}

// gateHolds reports whether the gate holds every field that was sent: how a create whose answer was
// lost is recognised as this apply's own.
func gateHolds(g *console.Gate, f console.GateFields) bool {
	same := func(p *string, v string) bool { return p == nil || *p == v }
	return g.ID == f.ID && same(f.Name, g.Name) && same(f.Description, g.Description) &&
		same(f.Type, g.Type) && same(f.IDType, g.IDType) && f.ReleasePipelineID.HeldBy(g.ReleasePipelineID) &&
		(f.IsEnabled == nil || *f.IsEnabled == g.IsEnabled) &&
		(f.Tags == nil || sameStringSet(*f.Tags, g.Tags)) && (f.TargetApps == nil || sameStringSet(*f.TargetApps, g.TargetApps))
}

const gateIdentityAttr = "gate_id"

// archiveFailure names a failed archive or unarchive in its diagnostic.
func archiveFailure(gateID string, archive bool) framework.APIFailure {
	verb := "unarchive"
	if archive {
		verb = "archive"
	}
	return framework.APIFailure{Op: verb, Object: fmt.Sprintf("gate %q", gateID)}
}

// existsArchived makes the "already exists" error of a create that met an archived gate say so, and
// how to bring the gate back once imported.
func existsArchived(err error) {
	var exists *objectExistsError
	if errors.As(err, &exists) {
		exists.state = "archived"
		exists.advice = "The imported gate plans `archived = true -> false` unless the configuration sets " +
			"`archived = true`: apply then unarchives it, with its history."
	}
}

// addArchivedGateWriteError reports a write of a gate's rules that the service refused (400) because
// the gate is archived, and reports whether it did (archivedWrite).
func addArchivedGateWriteError(ctx context.Context, client *console.Client, diags *diag.Diagnostics, gateID string, write framework.APIFailure, op *framework.Operation, err error) bool {
	return gateArchivedWrite.add(ctx, diags, gateID, write, op, err, func() bool {
		g, gerr := client.GetGate(ctx, gateID)
		return gerr == nil && g.Archived()
	})
}

var gateArchivedWrite = archivedWrite{
	kind: "Gate", noun: "gate", ownType: "featureconsole_gate", rulesType: "featureconsole_gate_rules", idAttr: "gate_id",
	refused: "The service refuses changes of an archived gate's rules (an archived gate fails every check).",
	leftInPlace: "The gate is archived, and the service refuses changes of an archived gate's rules. An archived gate fails " +
		"every check, so its rules have no effect; they are deleted with the gate, or kept with its history while " +
		"it stays archived. Terraform no longer manages them.",
}
