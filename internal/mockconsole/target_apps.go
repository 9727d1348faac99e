// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"net/http"
	"slices"
	"strings"
)

// TargetApp is a target app as stored. Answers carry its id and name alone, as the document's
// schemas say; the description and the objects named at create are kept, never answered.
type TargetApp struct {
	ID             string
	Name           string
	Description    string
	Gates          []string
	DynamicConfigs []string
	Experiments    []string
}

// targetAppAnswer is a target app as `GET /target_app/{id}` answers it.
type targetAppAnswer struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// TargetApp returns a copy of the target app with the id.
func (s *Server) TargetApp(id string) (TargetApp, bool) {
	return stored(s, s.targetApps, id, TargetApp.clone)
}

// TargetAppIDs returns the ids of every target app, sorted.
func (s *Server) TargetAppIDs() []string {
	return sortedKeys(s, s.targetApps)
}

// PutTargetApp stores a target app (made in the console); an empty id gets a new one, returned.
func (s *Server) PutTargetApp(a TargetApp) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a.ID == "" {
		a.ID = s.newBaseID()
	}
	s.targetApps[a.ID] = a.clone()
	return a.ID
}

func (s *Server) targetAppRoutes(on func(method, path string, h handler)) {
	id := func(r *http.Request) string { return r.PathValue("id") }
	on(http.MethodGet, "/target_app", func(r *http.Request, _ []byte) response {
		return listByKey(s, r, s.targetApps, "/target_app", "Target apps", TargetApp.answer)
	})
	on(http.MethodPost, "/target_app", func(_ *http.Request, body []byte) response { return s.createTargetApp(body) })
	on(http.MethodGet, "/target_app/{id}", func(r *http.Request, _ []byte) response {
		return readOne(s.targetApps, "Target app", id(r), TargetApp.answer)
	})
	on(http.MethodPatch, "/target_app/{id}", func(r *http.Request, body []byte) response { return s.updateTargetApp(id(r), body) })
	on(http.MethodDelete, "/target_app/{id}", func(r *http.Request, _ []byte) response {
		if _, miss := find(s.targetApps, "Target app", id(r)); miss != nil {
			return *miss
		}
		delete(s.targetApps, id(r))
		return messageResp("Target app deleted successfully")
	})
}

// targetAppReq is the body of `POST /target_app`; an update takes name and description.
type targetAppReq struct {
	Name           *string  `json:"name"`
	Description    *string  `json:"description"`
	Gates          []string `json:"gates"`
	DynamicConfigs []string `json:"dynamicConfigs"`
	Experiments    []string `json:"experiments"`
}

// nameTaken is the 400 of a target app name another app holds; s.mu is held.
func (s *Server) nameTaken(name, except string) *response {
	if strings.TrimSpace(name) == "" {
		return ref(errResp(http.StatusBadRequest, "name must not be empty"))
	}
	for id, a := range s.targetApps {
		if id != except && a.Name == name {
			return ref(errResp(http.StatusBadRequest, "A target app named %q already exists", name))
		}
	}
	return nil
}

func (s *Server) createTargetApp(body []byte) response {
	req, bad := decoded[targetAppReq](body)
	if bad != nil {
		return *bad
	}
	if req.Name == nil || req.Description == nil {
		return errResp(http.StatusBadRequest, "name and description are required")
	}
	if taken := s.nameTaken(*req.Name, ""); taken != nil {
		return *taken
	}
	a := TargetApp{ID: s.newBaseID(), Name: *req.Name, Description: *req.Description,
		Gates: req.Gates, DynamicConfigs: req.DynamicConfigs, Experiments: req.Experiments}
	s.targetApps[a.ID] = a.clone()
	return okResp("Target app created successfully.", a.answer())
}

func (s *Server) updateTargetApp(id string, body []byte) response {
	a, req, bad := writeTo[targetAppReq](s.targetApps, "Target app", id, body)
	if bad != nil {
		return *bad
	}
	if req.Gates != nil || req.DynamicConfigs != nil || req.Experiments != nil {
		return errResp(http.StatusBadRequest, "an app's objects are updated through PATCH /target_app")
	}
	if req.Name != nil {
		if taken := s.nameTaken(*req.Name, id); taken != nil {
			return *taken
		}
		a.Name = *req.Name
	}
	if req.Description != nil {
		a.Description = *req.Description
	}
	s.targetApps[id] = a
	return messageResp("Target apps updated successfully.")
}

func (a TargetApp) answer() targetAppAnswer { return targetAppAnswer{ID: a.ID, Name: a.Name} }

func (a TargetApp) clone() TargetApp {
	a.Gates = slices.Clone(a.Gates)
	a.DynamicConfigs = slices.Clone(a.DynamicConfigs)
	a.Experiments = slices.Clone(a.Experiments)
	return a
}

// DeleteTargetApp removes a target app (deleted in the console).
func (s *Server) DeleteTargetApp(id string) {
	remove(s, s.targetApps, id)
}
