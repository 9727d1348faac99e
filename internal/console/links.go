// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Links: fields of a write that name another object, a gate's or a config's releasePipelineID and
// an experiment's targetingGateID. The service's document types them as nullable strings, and the
// service takes a string as an id: "" names no object ("release pipeline  not found"), so a link is
// cleared with null, never with "". Reads carry "", null or nothing for no link; the types of
// answers keep a plain string, "" for all three, and an empty id is no link, never an object.

// Link is a link as a write sends it: left out (the zero Link, with its field tagged omitzero), a
// cleared link (null) or an object's id.
type Link struct {
	id   string
	sent bool
}

// LinkTo is a link to the object id; an empty id names no object, so it clears the link.
func LinkTo(id string) Link { return Link{id: id, sent: true} }

// Unlinked clears the link: it is sent as null.
func Unlinked() Link { return Link{sent: true} }

// IsZero reports a link left out of the write (what omitzero asks).
func (l Link) IsZero() bool { return !l.sent }

// ID is the id the link names, "" for a cleared link or one left out.
func (l Link) ID() string { return l.id }

// HeldBy reports whether an object whose link reads read holds what l sends: anything for a link
// left out, no link for a cleared one, else the same id.
func (l Link) HeldBy(read string) bool { return !l.sent || l.id == read }

func (l Link) MarshalJSON() ([]byte, error) {
	if l.id == "" {
		return []byte("null"), nil
	}
	return json.Marshal(l.id)
}

// UnmarshalJSON reads a link as a write carries it (tests read the bodies sent): null or "" is a
// cleared link.
func (l *Link) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		*l = Unlinked()
		return nil
	}
	var id string
	if err := json.Unmarshal(b, &id); err != nil {
		return fmt.Errorf("a link is an id or null: %w", err)
	}
	*l = LinkTo(id)
	return nil
}
