// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// An id list at the service's scale (the live service): its writes propagate late, its
// pages are rate limited, and its version (GET /segments/{id}/idlist_metadata) tells whether it
// changed since it was last read. What the provider last knew of it lives in private state.

// refreshSegment reads a managed segment: GET /segments/{id} and, for an id list, its version,
// and its pages only when the version is not the one the state's ids rest on. held are the
// state's ids (nil: none known). While a write of this provider is on its way (the service says
// isUpdating, or cannot say and the write is recent), the state's ids are taken as held: the
// pages would show the list as it was before the write.
func refreshSegment(ctx context.Context, data *providerData, id string, held []string, priv *idListPrivate) (*segmentRead, error) {
	s, err := data.client.GetSegment(ctx, id)
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
	known, updating, version, err := idListVersion(ctx, data, id)
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
	if out.ids, err = data.client.SegmentIDs(ctx, id); err != nil {
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
func idListVersion(ctx context.Context, data *providerData, id string) (known, updating bool, version string, err error) {
	meta, merr := data.client.SegmentIDListMetadata(ctx, id)
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
func idListBase(ctx context.Context, data *providerData, id string, prior idListPrivate) (int64, bool) {
	known, updating, version, err := idListVersion(ctx, data, id)
	if err != nil || !known {
		return 0, false
	}
	if updating {
		version = prior.Expected
	}
	base, perr := strconv.ParseInt(version, 10, 64)
	return base, perr == nil
}

// afterIDWrite is what the private state holds after this provider wrote ids (refused: ids the
// state holds that the service did not take; expected: the version the writes lead to, "" when
// not known): the version, if the write is in effect already; else the time of the write, so that
// the next refreshes take it as held while it is on its way, and the version that shows it in
// effect. It returns whether the write is still on its way.
func afterIDWrite(ctx context.Context, data *providerData, id string, refused []string, expected string) (idListPrivate, bool) {
	meta, err := data.client.SegmentIDListMetadata(ctx, id)
	if err == nil && !meta.IsUpdating && len(refused) == 0 {
		return idListPrivate{Version: meta.Version()}, false
	}
	return idListPrivate{WrittenAt: time.Now().Unix(), Refused: refused, Expected: expected}, err == nil && meta.IsUpdating
}

// unmanagedSegmentError is a segment of a type the console API cannot write.
type unmanagedSegmentError struct{ id, typ string }

func (e *unmanagedSegmentError) Error() string {
	return fmt.Sprintf("Segment %[1]q is a %[2]s segment, which featureconsole_segment cannot manage: the console API creates and "+
		"changes only rule_based and id_list segments (the ids of a user_store_id_list segment are kept in your own user store, "+
		"and an analysis_list segment is made by the service's analyses). Read it with the featureconsole_segments data source "+
		"(type = %[2]q) instead, and remove it from this configuration (its import block, or `terraform state rm` of the resource).", e.id, e.typ)
}
