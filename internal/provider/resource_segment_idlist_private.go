// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// What the provider last knew of an id list lives in the resource's private state, under
// idListPrivateKey: the version its ids rest on and this provider's writes on their way. The
// segment's id-list methods (resource_segment_idlist.go) read and write it.

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

// idListWrites is how many writes of the service's id endpoints n ids take (one per chunk), each
// of which raises the list's version once it takes effect.
func idListWrites(n int) int64 {
	return int64((n + console.MaxIDsPerWrite - 1) / console.MaxIDsPerWrite)
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
