// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

// A gate's life after it is written (the live service): it ages to STALE while nobody
// writes it, and it is archived and unarchived (PUT /gates/{id}/archive, PUT /gates/{id}/unarchive).

import (
	"bytes"
	"fmt"
	"net/http"
	"time"
)

// freshen is what any write of a gate does to its age: a stale gate is TEMPORARY (and fresh) again.
func freshen(g *Gate) {
	if g.Type == gateTypeStale {
		g.Type = gateTypeTemporary
	}
	g.TypeReason = typeReasonNone
}

// staleAfter is how long a TEMPORARY gate left alone takes to read STALE.
const staleAfter = 30 * 24 * time.Hour

// tickStaleness is the service judging, on the run clock, the TEMPORARY gates nobody has written
// for staleAfter: they read STALE, with a reason drawn from their rules, until a write of them.
// Archived gates are left as they are. s.mu is held.
func (s *Server) tickStaleness() {
	now := s.clock.now()
	for _, st := range s.gates {
		g := &st.gate
		if g.Type != gateTypeTemporary || g.Status == gateStatusArchived || st.written.IsZero() || now.Sub(st.written) < staleAfter {
			continue
		}
		g.Type, g.TypeReason = gateTypeStale, staleReason(g.Rules)
	}
}

// staleReason is why the service judges a gate stale from its rules: none at all; every user
// passes (probably launched); nobody passes (probably never launched); or left half-way.
func staleReason(rules []Rule) string {
	if len(rules) == 0 {
		return "STALE_NO_RULES"
	}
	all, none := true, true
	for _, r := range rules {
		all = all && r.PassPercentage == 100
		none = none && r.PassPercentage == 0
	}
	switch {
	case all:
		return "STALE_PROBABLY_LAUNCHED"
	case none:
		return "STALE_PROBABLY_UNLAUNCHED"
	}
	return "STALE_PROBABLY_FORGOTTEN"
}

// MarkGateStale is the service judging a TEMPORARY gate stale (it reads type "STALE" with reason as
// its typeReason, such as STALE_NO_RULES) until a write of it; other gates are never stale.
func (s *Server) MarkGateStale(id, reason string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.gates[id]
	switch {
	case !ok:
		return fmt.Errorf("gate %q not found", id)
	case st.gate.Type != gateTypeTemporary && st.gate.Type != gateTypeStale:
		return fmt.Errorf("gate %q is %s: only TEMPORARY gates go stale", id, st.gate.Type)
	}
	st.gate.Type, st.gate.TypeReason = gateTypeStale, reason
	return nil
}

// ArchiveGateInConsole is someone archiving the gate in the console.
func (s *Server) ArchiveGateInConsole(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.gates[id]
	if !ok {
		return fmt.Errorf("gate %q not found", id)
	}
	st.gate.Status = gateStatusArchived
	return nil
}

// archivedRefused is the service's 400 for a write of an archived gate's fields or rules.
func archivedRefused(st *gateState) *response {
	if st.gate.Status != gateStatusArchived {
		return nil
	}
	return ref(errResp(http.StatusBadRequest, "Gate %q is archived and cannot be changed: unarchive it first", st.gate.ID))
}

// archiveReq is the body of PUT /gates/{id}/archive and /unarchive; an empty body is no reason.
type archiveReq struct {
	ArchiveReason   *string `json:"archiveReason"`
	UnarchiveReason *string `json:"unarchiveReason"`
}

// setGateArchived is PUT /gates/{id}/archive (archive true) and /unarchive: the gate's status, its
// history kept. Archiving an archived gate is refused with the live service's 400 (issue 31);
// unarchiving one that is not changes nothing.
func (s *Server) setGateArchived(id string, archive bool, body []byte) response {
	st, miss := find(s.gates, "Gate", id)
	if miss != nil {
		return *miss
	}
	if len(bytes.TrimSpace(body)) > 0 {
		if _, bad := decoded[archiveReq](body); bad != nil {
			return *bad
		}
	}
	if archive {
		if st.gate.Status == gateStatusArchived {
			return errResp(http.StatusBadRequest, "Gate %s is already archived.", st.gate.ID)
		}
		st.gate.Status = gateStatusArchived
		return okResp("Gate archived successfully", st.clone())
	}
	if st.gate.Status == gateStatusArchived {
		st.gate.Status = defaultGateStatus
	}
	return okResp("Gate unarchived successfully", st.clone())
}
