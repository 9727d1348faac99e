// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"
)

// Tag is a tag as stored and answered. Objects carry tags by name.
type Tag struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	IsCore      bool   `json:"isCore"`
}

// Tag returns the tag with the id.
func (s *Server) Tag(id string) (Tag, bool) {
	return stored(s, s.tags, id, func(t Tag) Tag { return t })
}

// TagIDs returns the ids of every tag, sorted.
func (s *Server) TagIDs() []string {
	return sortedKeys(s, s.tags)
}

// PutTag stores a tag (made in the console); an empty id gets a new one, returned.
func (s *Server) PutTag(t Tag) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.ID == "" {
		t.ID = s.newBaseID()
	}
	s.tags[t.ID] = t
	return t.ID
}

func (s *Server) tagRoutes(on func(method, path string, h handler)) {
	id := func(r *http.Request) string { return r.PathValue("id") }
	same := func(t Tag) Tag { return t }
	on(http.MethodGet, "/tags", func(r *http.Request, _ []byte) response { return listByKey(s, r, s.tags, "/tags", "Tags", same) })
	on(http.MethodPost, "/tags", func(_ *http.Request, body []byte) response { return s.writeTag("", body) })
	on(http.MethodGet, "/tags/{id}", func(r *http.Request, _ []byte) response { return readOne(s.tags, "Tag", id(r), same) })
	on(http.MethodPatch, "/tags/{id}", func(r *http.Request, body []byte) response { return s.writeTag(id(r), body) })
	on(http.MethodDelete, "/tags/{id}", func(r *http.Request, _ []byte) response { return s.deleteTag(id(r)) })
}

// tagReq is the body of `POST /tags` and `PATCH /tags/{id}`.
type tagReq struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
	IsCore      *bool   `json:"isCore"`
}

// writeTag creates a tag (id "") or updates the tag with the id.
func (s *Server) writeTag(id string, body []byte) response {
	var t Tag
	var req tagReq
	if id == "" {
		var bad *response
		if req, bad = decoded[tagReq](body); bad != nil {
			return *bad
		}
		if req.Name == nil || req.Description == nil {
			return errResp(http.StatusBadRequest, "name and description are required")
		}
		t.ID = s.newBaseID()
	} else {
		var bad *response
		if t, req, bad = writeTo[tagReq](s.tags, "Tag", id, body); bad != nil {
			return *bad
		}
	}
	if req.Name != nil {
		if n := utf8.RuneCountInString(*req.Name); n < 1 || n > 100 {
			return errResp(http.StatusBadRequest, "name must be 1 to 100 characters")
		}
		for other, o := range s.tags {
			if other != t.ID && o.Name == *req.Name {
				return errResp(http.StatusBadRequest, "A tag named %q already exists", *req.Name)
			}
		}
		t.Name = *req.Name
	}
	if req.Description != nil {
		t.Description = *req.Description
	}
	if req.IsCore != nil {
		t.IsCore = *req.IsCore
	}
	s.tags[t.ID] = t
	if id == "" {
		return okResp("Tag created successfully", t)
	}
	return okResp("Tag updated successfully", t)
}

// deleteTag refuses a tag that objects carry, naming them, as the service refuses a tag in use.
func (s *Server) deleteTag(id string) response {
	t, miss := find(s.tags, "Tag", id)
	if miss != nil {
		return *miss
	}
	if users := s.tagUsers(t.Name); len(users) > 0 {
		return errResp(http.StatusBadRequest, "Tag %q is in use and cannot be deleted: %s", t.Name, strings.Join(users, ", "))
	}
	delete(s.tags, id)
	return messageResp("Tag deleted successfully")
}

// tagUsers names the objects that carry the tag named name; s.mu is held.
func (s *Server) tagUsers(name string) []string {
	var out []string
	add := func(kind string, ids []string, tagsOf func(string) []string) {
		slices.Sort(ids)
		for _, id := range ids {
			if slices.Contains(tagsOf(id), name) {
				out = append(out, fmt.Sprintf("%s %q", kind, id))
			}
		}
	}
	add("gate", slices.Collect(maps.Keys(s.gates)), func(id string) []string { return s.gates[id].gate.Tags })
	add("dynamic config", slices.Collect(maps.Keys(s.configs)), func(id string) []string { return s.configs[id].cfg.Tags })
	add("experiment", slices.Collect(maps.Keys(s.experiments)), func(id string) []string { return s.experiments[id].exp.Tags })
	add("segment", slices.Collect(maps.Keys(s.segments)), func(id string) []string { return s.segments[id].seg.Tags })
	add("metric source", slices.Collect(maps.Keys(s.sources)), func(id string) []string { return s.sources[id].Tags })
	add("metric", slices.Collect(maps.Keys(s.metrics)), func(id string) []string { return s.metrics[id].Tags })
	return out
}

// DeleteTag removes a tag (deleted in the console).
func (s *Server) DeleteTag(id string) {
	remove(s, s.tags, id)
}
