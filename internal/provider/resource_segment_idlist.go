// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// An id list at the service's scale (the live service): its writes propagate late, its
// pages are rate limited, and its version (GET /segments/{id}/idlist_metadata) tells whether it
// changed since it was last read. What the provider last knew of it lives in private state.

const idListPrivateKey = "id_list"

// idListPropagation bounds how long a write of this provider is taken as held without the service
// saying it is still on its way (its metadata unreadable): the service's writes take effect
// "seconds to minutes" later.
const idListPropagation = 10 * time.Minute

// idListPrivate is what the state's ids rest on.
type idListPrivate struct {
	// Version is the list's version when the state's ids were last read or written and in effect.
	Version string `json:"version,omitempty"`
	// WrittenAt (Unix seconds) is this provider's last write of ids that may still be on its way.
	WrittenAt int64 `json:"written_at,omitempty"`
	// Refused are ids the state holds that the service refused (a create past the id-list cap):
	// never taken as held.
	Refused []string `json:"refused,omitempty"`
	// Expected is the version the list reaches once this provider's writes on their way have taken
	// effect (each raises it by one): the state's ids are what the list then holds, so a plan after
	// they took effect reads no page, while a version past it (a change in the console) is read.
	Expected string `json:"expected,omitempty"`
}

func loadIDListPrivate(ctx context.Context, p privateState) idListPrivate {
	var out idListPrivate
	if p == nil {
		return out
	}
	if b, d := p.GetKey(ctx, idListPrivateKey); !d.HasError() && len(b) > 0 {
		_ = json.Unmarshal(b, &out) // unreadable: the pages are read again
	}
	return out
}

func (p idListPrivate) save(ctx context.Context, to privateState) diag.Diagnostics {
	if p.Version == "" && p.WrittenAt == 0 && len(p.Refused) == 0 && p.Expected == "" {
		return to.SetKey(ctx, idListPrivateKey, nil)
	}
	b, _ := json.Marshal(p)
	return to.SetKey(ctx, idListPrivateKey, b)
}

// inFlight tells whether a write of this provider may still be on its way.
func (p idListPrivate) inFlight(now time.Time) bool {
	return p.WrittenAt > 0 && now.Sub(time.Unix(p.WrittenAt, 0)) < idListPropagation
}

// refreshSegment reads a managed segment: GET /segments/{id} and, for an id list, its version,
// and its pages only when the version is not the one the state's ids rest on. held are the
// state's ids (nil: none known). While a write of this provider is on its way (the service says
// isUpdating, or cannot say and the write is recent), the state's ids are taken as held: the
// pages would show the list as it was before the write.
func (r *segmentResource) refreshSegment(ctx context.Context, id string, held []string, priv *idListPrivate) (*segmentRead, error) {
	s, err := r.data.client.GetSegment(ctx, id)
	if err != nil {
		return nil, err
	}
	if !console.WritableSegmentType(s.Type) {
		return nil, &unmanagedSegmentError{id: id, typ: s.Type}
	}
	out := &segmentRead{Segment: s}
	if s.Type != console.SegmentIDList {
		*priv = idListPrivate{}
		return out, nil
	}
	known, updating, version, err := r.idListVersion(ctx, id)
	if err != nil {
		return nil, err
	}
	switch {
	case held != nil && priv.inFlight(time.Now()) && (!known || updating):
		out.ids = withoutIDs(held, priv.Refused)
		n := console.WholeNumber(len(out.ids)) // the service counts the list as it was before the write
		out.Count = &n
		priv.Refused = nil
		return out, nil
	case held != nil && known && !updating && version != "" && (version == priv.Version || version == priv.Expected) && len(priv.Refused) == 0:
		out.ids = held
		*priv = idListPrivate{Version: version}
		return out, nil
	}
	if out.ids, err = r.data.client.SegmentIDs(ctx, id); err != nil {
		return nil, err
	}
	*priv = idListPrivate{}
	if known && !updating {
		priv.Version = version
	}
	return out, nil
}

// idListVersion reads an id list's version (GET /segments/{id}/idlist_metadata). A service without it, or an answer that
// cannot be read, is not an error (known is false: the pages are read instead); only the end of the
// operation's time is.
func (r *segmentResource) idListVersion(ctx context.Context, id string) (known, updating bool, version string, err error) {
	meta, merr := r.data.client.SegmentIDListMetadata(ctx, id)
	switch {
	case merr == nil:
		return true, meta.IsUpdating, meta.Version(), nil
	case ctx.Err() != nil:
		return false, false, "", merr
	}
	tflog.Debug(ctx, "id list version not readable: the pages are read", map[string]any{"segment_id": id, "error": merr.Error()})
	return false, false, "", nil
}

// idListBase is the version an id list stands at before this provider writes to it, from which
// its writes count (prior: what the private state held). A list with writes on its way stands
// where those lead: known only when they are this provider's own (prior.Expected); otherwise, or
// when the version cannot be read or is no whole number, nothing is expected of the writes.
func (r *segmentResource) idListBase(ctx context.Context, id string, prior idListPrivate) (int64, bool) {
	known, updating, version, err := r.idListVersion(ctx, id)
	if err != nil || !known {
		return 0, false
	}
	if updating {
		version = prior.Expected
	}
	base, perr := strconv.ParseInt(version, 10, 64)
	return base, perr == nil
}

// idListWrites is how many writes of the service's id endpoints n ids take (one per chunk), each
// of which raises the list's version once it takes effect.
func idListWrites(n int) int64 {
	return int64((n + console.MaxIDsPerWrite - 1) / console.MaxIDsPerWrite)
}

// afterIDWrite is what the private state holds after this provider wrote ids (refused: ids the
// state holds that the service did not take; expected: the version the writes lead to, "" when
// not known): the version, if the write is in effect already; else the time of the write, so that
// the next refreshes take it as held while it is on its way, and the version that shows it in
// effect. It returns whether the write is still on its way.
func (r *segmentResource) afterIDWrite(ctx context.Context, id string, refused []string, expected string) (idListPrivate, bool) {
	meta, err := r.data.client.SegmentIDListMetadata(ctx, id)
	if err == nil && !meta.IsUpdating && len(refused) == 0 {
		return idListPrivate{Version: meta.Version()}, false
	}
	return idListPrivate{WrittenAt: time.Now().Unix(), Refused: refused, Expected: expected}, err == nil && meta.IsUpdating
}

// expectedVersion returns the version base (ok: known) reaches after writes.
func expectedVersion(base int64, ok bool, writes int64) string {
	if !ok {
		return ""
	}
	return strconv.FormatInt(base+writes, 10)
}

// withoutIDs returns ids less those of gone, in ids' order.
func withoutIDs(ids, gone []string) []string {
	if len(gone) == 0 {
		return ids
	}
	return setDifference(gone, ids)
}

// unionIDs returns have followed by the ids of add it lacks.
func unionIDs(have, add []string) []string {
	return append(append(make([]string, 0, len(have)+len(add)), have...), setDifference(have, add)...)
}

// unmanagedSegmentError is a segment of a type the console API cannot write.
type unmanagedSegmentError struct{ id, typ string }

func (e *unmanagedSegmentError) Error() string {
	return fmt.Sprintf("Segment %[1]q is a %[2]s segment, which featureconsole_segment cannot manage: the console API creates and "+
		"changes only rule_based and id_list segments (the ids of a user_store_id_list segment are kept in your own user store, "+
		"and an analysis_list segment is made by the service's analyses). Read it with the featureconsole_segments data source "+
		"(type = %[2]q) instead, and remove it from this configuration (its import block, or `terraform state rm` of the resource).", e.id, e.typ)
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
