// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"maps"
	"net/http"
	"slices"
)

// Key is a project's key as stored and answered: its secret ("key") is also its id in paths.
type Key struct {
	Key                 string   `json:"key"`
	Type                string   `json:"type"`
	Description         string   `json:"description"`
	Scopes              []string `json:"scopes"`
	Environments        []string `json:"environments"`
	PrimaryTargetApp    *string  `json:"primaryTargetApp"`
	SecondaryTargetApps []string `json:"secondaryTargetApps"`
	Status              string   `json:"status"`
}

// keyTypes are the types `POST /keys` takes; keyScopes its scopes.
var (
	keyTypes  = []string{"SERVER", "CLIENT", "CONSOLE", "SCIM", "ORG"}
	keyScopes = []string{"omni_read_only", "omni_read_write", "client_download_config_specs", "none_hash_enabled",
		"can_access_keys", "client_can_write_user_store", "personal_read_only", "personal_read_write"}
)

// Keys, named by their secret: created, read, listed (filtered by primary target app or
// environment), updated, rotated (a new secret; the old one is gone), deactivated and deleted.

// Key returns a copy of the key whose secret is secret.
func (s *Server) Key(secret string) (Key, bool) {
	return stored(s, s.keys, secret, Key.clone)
}

// KeySecrets returns the secrets of every key, sorted.
func (s *Server) KeySecrets() []string {
	return sortedKeys(s, s.keys)
}

// PutKey stores a key as it is (a key made in the console); an empty secret gets a new one, which
// it returns.
func (s *Server) PutKey(k Key) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k.Key == "" {
		k.Key = s.newSecret(k.Type)
	}
	if k.Status == "" {
		k.Status = "active"
	}
	s.keys[k.Key] = k.clone()
	return k.Key
}

// RotateKey rotates the key as the console does: it returns the new secret; the old one is gone.
func (s *Server) RotateKey(secret string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	k, ok := s.keys[secret]
	if !ok {
		return ""
	}
	return s.rotateLocked(k).Key
}

func (s *Server) rotateLocked(k Key) Key {
	delete(s.keys, k.Key)
	k.Key = s.newSecret(k.Type)
	s.keys[k.Key] = k
	return k
}

// newSecret makes a key's secret, prefixed as the service's are; s.mu is held.
func (s *Server) newSecret(typ string) string {
	prefix := map[string]string{"SERVER": "secret-", "CLIENT": "client-", "CONSOLE": "console-"}[typ]
	if prefix == "" {
		prefix = "key-"
	}
	for {
		b := make([]byte, 32)
		for i := range b {
			b[i] = alnum[s.rng.IntN(len(alnum))]
		}
		if _, used := s.keys[prefix+string(b)]; !used {
			return prefix + string(b)
		}
	}
}

// ---- endpoints ----

func (s *Server) keyRoutes(on func(method, path string, h handler)) {
	id := func(r *http.Request) string { return r.PathValue("id") }
	on(http.MethodGet, "/keys", func(r *http.Request, _ []byte) response { return s.listKeys(r) })
	on(http.MethodPost, "/keys", func(_ *http.Request, body []byte) response { return s.createKey(body) })
	on(http.MethodGet, "/keys/{id}", func(r *http.Request, _ []byte) response { return readOne(s.keys, "Key", id(r), Key.clone) })
	on(http.MethodPatch, "/keys/{id}", func(r *http.Request, body []byte) response { return s.updateKey(id(r), body) })
	on(http.MethodDelete, "/keys/{id}", func(r *http.Request, _ []byte) response { return s.deleteKey(id(r)) })
	on(http.MethodPatch, "/keys/{id}/rotate", func(r *http.Request, _ []byte) response {
		k, miss := find(s.keys, "Key", id(r))
		if miss != nil {
			return *miss
		}
		return okResp("Key rotated successfully,", s.rotateLocked(k).clone())
	})
	on(http.MethodPatch, "/keys/{id}/deactivate", func(r *http.Request, _ []byte) response {
		k, miss := find(s.keys, "Key", id(r))
		if miss != nil {
			return *miss
		}
		k.Status = "deactivated"
		s.keys[k.Key] = k
		return messageResp("Key deactivated successfully.")
	})
}

func (s *Server) listKeys(r *http.Request) response {
	p, e := s.parsePage(r)
	if e != nil {
		return *e
	}
	app, env := r.URL.Query().Get("primaryTargetApp"), r.URL.Query().Get("environment")
	var kept []Key
	for _, secret := range slices.Sorted(maps.Keys(s.keys)) {
		k := s.keys[secret]
		if app != "" && (k.PrimaryTargetApp == nil || *k.PrimaryTargetApp != app) || env != "" && !slices.Contains(k.Environments, env) {
			continue
		}
		kept = append(kept, k)
	}
	return listed(p, "/keys", "Keys", len(kept), func(i int) Key { return kept[i].clone() })
}

// keyReq is the body of `POST /keys` and `PATCH /keys/{id}`. description is taken on update too,
// which the document's update schema leaves open (DESIGN §7).
type keyReq struct {
	Type                  *string   `json:"type"`
	Description           *string   `json:"description"`
	Scopes                *[]string `json:"scopes"`
	Environments          *[]string `json:"environments"`
	TargetAppID           link      `json:"targetAppID"`
	SecondaryTargetAppIDs *[]string `json:"secondaryTargetAppIDs"`
}

// checkKeyLinks refuses environments the project lacks, scopes the service does not know and
// target apps that do not exist; s.mu is held.
func (s *Server) checkKeyLinks(req keyReq) *response {
	if req.Environments != nil {
		for _, e := range *req.Environments {
			if !slices.Contains(s.environments, e) {
				return ref(errResp(http.StatusBadRequest, "environments: %q is not an environment of the project", e))
			}
		}
	}
	if req.Scopes != nil {
		for _, sc := range *req.Scopes {
			if !slices.Contains(keyScopes, sc) {
				return ref(errResp(http.StatusBadRequest, "scopes: %q is not a scope", sc))
			}
		}
	}
	if miss := linkRefused(req.TargetAppID, s.targetApps, "Target app"); miss != nil {
		return miss
	}
	if req.SecondaryTargetAppIDs != nil {
		for _, a := range *req.SecondaryTargetAppIDs {
			if _, ok := s.targetApps[a]; !ok {
				return ref(errResp(http.StatusBadRequest, "Target app %q not found", a))
			}
		}
	}
	return nil
}

func (s *Server) createKey(body []byte) response {
	req, bad := decoded[keyReq](body)
	if bad != nil {
		return *bad
	}
	if req.Type == nil || !slices.Contains(keyTypes, *req.Type) {
		return errResp(http.StatusBadRequest, "type must be one of %v", keyTypes)
	}
	if req.Description == nil {
		return errResp(http.StatusBadRequest, "description is required")
	}
	if miss := s.checkKeyLinks(req); miss != nil {
		return *miss
	}
	k := Key{Type: *req.Type, Description: *req.Description, Status: "active", Scopes: []string{}, Environments: []string{}}
	if *req.Type == "CONSOLE" {
		k.Scopes = []string{"omni_read_write"} // the service's choice when none is sent
	}
	s.applyKeyReq(&k, req)
	k.Key = s.newSecret(k.Type)
	s.keys[k.Key] = k
	return okResp("Key created successfully.", k.clone())
}

// applyKeyReq writes what req carries into k.
func (s *Server) applyKeyReq(k *Key, req keyReq) {
	if req.Description != nil {
		k.Description = *req.Description
	}
	if req.Scopes != nil {
		k.Scopes = slices.Clone(*req.Scopes)
	}
	if req.Environments != nil {
		k.Environments = slices.Clone(*req.Environments)
	}
	if req.TargetAppID.sent {
		k.PrimaryTargetApp = nil
		if !req.TargetAppID.null {
			app := req.TargetAppID.id
			k.PrimaryTargetApp = &app
		}
	}
	if req.SecondaryTargetAppIDs != nil {
		k.SecondaryTargetApps = slices.Clone(*req.SecondaryTargetAppIDs)
	}
}

func (s *Server) updateKey(secret string, body []byte) response {
	k, req, bad := writeTo[keyReq](s.keys, "Key", secret, body)
	if bad != nil {
		return *bad
	}
	if req.Type != nil {
		return errResp(http.StatusBadRequest, "type cannot be changed")
	}
	if miss := s.checkKeyLinks(req); miss != nil {
		return *miss
	}
	s.applyKeyReq(&k, req)
	s.keys[secret] = k
	return okResp("Key updated successfully.", k.clone())
}

func (s *Server) deleteKey(secret string) response {
	if _, miss := find(s.keys, "Key", secret); miss != nil {
		return *miss
	}
	delete(s.keys, secret)
	return messageResp("Key deleted successfully.")
}

func (k Key) clone() Key {
	k.Scopes = nonNilStrings(slices.Clone(k.Scopes))
	k.Environments = nonNilStrings(slices.Clone(k.Environments))
	k.SecondaryTargetApps = slices.Clone(k.SecondaryTargetApps)
	if k.PrimaryTargetApp != nil {
		a := *k.PrimaryTargetApp
		k.PrimaryTargetApp = &a
	}
	return k
}

// DeleteKey removes a key (deleted in the console).
func (s *Server) DeleteKey(secret string) {
	remove(s, s.keys, secret)
}
