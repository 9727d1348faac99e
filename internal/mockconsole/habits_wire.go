// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"fmt"
	"math"
	"net/http"
	"strings"
)

// The habits of issue 21 (Habits.UnpagedLists ... Placeholders): lists, keys, roles, owners and
// placeholders as the live service answers them. Every function here runs with s.mu held.

// ReadOnlyAPIKey is the key Habits.ReadOnlyKey accepts besides the configured one: its reads are
// served, its writes answered 403.
const ReadOnlyAPIKey = "mock-read-only-key"

// maxLimit is the largest page size Habits.LimitCeiling lets a list be asked for.
const maxLimit = 100

// pageAsAnswered is the page a list answers for p: the whole list (UnpagedLists), or the first page
// whatever was asked (PageIgnored).
func (h Habits) pageAsAnswered(p pageReq) pageReq {
	if h.UnpagedLists {
		return pageReq{page: 1, limit: math.MaxInt32}
	}
	if h.PageIgnored {
		p.page = 1
	}
	return p
}

// readOnlyRefusal answers a write made with ReadOnlyAPIKey: 403, the key accepted but not allowed.
func (s *Server) readOnlyRefusal(r *http.Request) (response, bool) {
	if !s.habits.ReadOnlyKey || r.Header.Get(apiKeyHeader) != ReadOnlyAPIKey {
		return response{}, false
	}
	if !isMutating(r.Method) {
		return response{}, false
	}
	return errResp(http.StatusForbidden, "Forbidden: this API key has the Read Only role and cannot make changes"), true
}

// acceptsKey reports whether key may call the API at all.
func (s *Server) acceptsKey(key string) bool {
	return key == s.apiKey || s.habits.ReadOnlyKey && key == ReadOnlyAPIKey
}

// roleDisplayNames are the console's names of the built-in roles.
var roleDisplayNames = map[string]string{"admin": "Admin", "member": "Member", "read_only": "Read Only"}

// userAsListed is u as the users list shows it.
func (h Habits) userAsListed(u User) User {
	if name, ok := roleDisplayNames[u.Role]; ok && h.RoleNames {
		u.Role = name
	}
	return u
}

// APIOwner is the owner the mock gives an object created through the API: none, or with
// OwnerLater the API key's, which reads show although the create answer leaves it out.
func (s *Server) APIOwner() *Owner {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.apiOwnerLocked()
}

func (s *Server) apiOwnerLocked() *Owner {
	if !s.habits.OwnerLater {
		return nil
	}
	return &Owner{OwnerType: "SDK_KEY", OwnerName: "CONSOLE API", OwnerEmail: ""}
}

// modifierID is the lastModifierID a write records: with OwnerLater, a new one on every write.
func (s *Server) modifierID() string {
	if !s.habits.OwnerLater {
		return modifierID
	}
	return fmt.Sprintf("%s_%d", modifierID, s.reqCounter)
}

// sourcePlaceholders writes the placeholders of "not set" into metric sources read (one, or a list).
func sourcePlaceholders(data any) {
	one := func(src map[string]any) {
		if cfm, _ := src["customFieldMapping"].([]any); len(cfm) == 0 {
			src["customFieldMapping"] = []any{map[string]any{"key": "", "formula": ""}}
		}
		if _, ok := src["tableName"]; !ok {
			src["tableName"] = ""
		}
		if st, _ := src["sourceType"].(string); st == "" || strings.EqualFold(st, "query") {
			delete(src, "sourceType")
		}
	}
	switch t := data.(type) {
	case map[string]any:
		one(t)
	case []any:
		for _, x := range t {
			if src, ok := x.(map[string]any); ok {
				one(src)
			}
		}
	}
}

// segmentObjects tells whether an answer's data are segments (a list, one, or the answer of a
// write): not the pages of an id list or its version.
func segmentObjects(r *http.Request) bool {
	p := strings.TrimPrefix(r.URL.Path, basePath)
	return (p == "/segments" || strings.HasPrefix(p, "/segments/")) &&
		!strings.HasSuffix(p, "/id_list") && !strings.HasSuffix(p, "/idlist_metadata")
}

// withoutCount drops count from a segment or a list of them (Habits.SegmentsWithoutCount).
func withoutCount(data any) {
	switch t := data.(type) {
	case map[string]any:
		delete(t, "count")
	case []any:
		for _, x := range t {
			withoutCount(x)
		}
	}
}
