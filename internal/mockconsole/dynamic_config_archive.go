// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import "net/http"

// Archived configs: PUT /dynamic_configs/{id}/archive and /unarchive, no body; status
// Archived, or back to Enabled or Disabled; an archived config refuses writes of its fields and
// rules (400 naming it archived) until unarchived; DELETE removes it for good.

const (
	configStatusEnabled  = "Enabled"
	configStatusDisabled = "Disabled"
	configStatusArchived = "Archived"
)

// status is the config's status as answered.
func (st *configState) status() string {
	switch {
	case st.archived:
		return configStatusArchived
	case st.cfg.IsEnabled:
		return configStatusEnabled
	}
	return configStatusDisabled
}

// archivedRefused is the service's 400 for a write of an archived config.
func (st *configState) archivedRefused() *response {
	if !st.archived {
		return nil
	}
	return ref(errResp(http.StatusBadRequest, "Dynamic config %q is archived and cannot be modified: unarchive it first", st.cfg.ID))
}

// setConfigArchived is PUT /dynamic_configs/{id}/archive or /unarchive; s.mu is held.
func (s *Server) setConfigArchived(id string, archive bool) response {
	st, miss := find(s.configs, "Dynamic config", id)
	if miss != nil {
		return *miss
	}
	if archive {
		if st.archived {
			return errResp(http.StatusBadRequest, "Dynamic config %s is already archived.", id)
		}
		st.archived = true
		return okResp("Dynamic config archived successfully", st.answer())
	}
	st.archived = false
	return okResp("Dynamic config unarchived successfully", st.answer())
}

// ArchiveDynamicConfig is someone archiving (or unarchiving) a config in the console.
func (s *Server) ArchiveDynamicConfig(id string, archived bool) error {
	return s.withConfig(id, func(st *configState) { st.archived = archived })
}
