// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
)

// Dynamic configs on the wire as the service's 2025 documents put them: schema travels as a string holding the schema's text, or null; rules are written
// with PATCH /dynamic_configs/{id} and {"rules": [...]}; PATCH /dynamic_configs/{id}/rules is gone
// (a 404 of the route) but for a config served as an older service version serves it.

// MarshalJSON writes the config as the service answers it: schema a string holding its text, or
// null for none; each rule's and variant's returnValueJson5 the text of its value (the document
// types it a string).
func (c DynamicConfig) MarshalJSON() ([]byte, error) {
	type plain DynamicConfig
	out := struct {
		plain
		Schema *string `json:"schema"`
	}{plain: plain(c)}
	out.Rules = slices.Clone(c.Rules)
	for i := range out.Rules {
		r := &out.Rules[i]
		r.ReturnValueJSON5 = jsonText(r.ReturnValueJSON5)
		r.Variants = slices.Clone(r.Variants)
		for j := range r.Variants {
			r.Variants[j].ReturnValueJSON5 = jsonText(r.Variants[j].ReturnValueJSON5)
		}
	}
	if len(c.Schema) > 0 && string(c.Schema) != "null" {
		text := string(c.Schema)
		out.Schema = &text
	}
	return json.Marshal(out)
}

// jsonText is a JSON value as its text, nil for none; text stays as it is.
func jsonText(v any) any {
	if v == nil {
		return nil
	}
	if s, ok := v.(string); ok {
		return s
	}
	return string(compactJSON(marshal(v)))
}

// olderConfigAnswer is the config as an older service version answers it: the schema as an object.
type olderConfigAnswer struct {
	DynamicConfig
	Schema json.RawMessage `json:"schema"`
}

func (o olderConfigAnswer) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(o.DynamicConfig)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	m["schema"] = json.RawMessage("null")
	if len(o.Schema) > 0 {
		m["schema"] = o.Schema
	}
	return json.Marshal(m)
}

// answer is the config as the service answers it: st.clone(), in an older version's form when
// ServeOlderConfigService asks for it.
func (st *configState) answer() any {
	c := st.clone()
	if st.older {
		return olderConfigAnswer{DynamicConfig: c, Schema: c.Schema}
	}
	return c
}

// schemaRefusal is the service's answer to a schema that is not a string.
const schemaRefusal = "schema: expected a string holding a JSON Schema"

// schemaSent is the schema's JSON text a write carries (nil for null), or the service's 400 for a
// schema that is not a string holding JSON.
func schemaSent(raw json.RawMessage) ([]byte, *response) {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 || string(b) == "null" {
		return nil, nil
	}
	var text string
	if b[0] != '"' || json.Unmarshal(b, &text) != nil {
		return nil, ref(errResp(http.StatusBadRequest, "%s", schemaRefusal))
	}
	if len(bytes.TrimSpace([]byte(text))) == 0 {
		return nil, nil
	}
	if !isJSONObject([]byte(text)) {
		return nil, ref(errResp(http.StatusBadRequest, "schema is not a valid JSON Schema: a JSON object is expected"))
	}
	return []byte(text), nil
}

// canonicalSchema is a schema as the mock stores it: canonical JSON, nil for none.
func canonicalSchema(text []byte) json.RawMessage {
	t := bytes.TrimSpace(text)
	if len(t) == 0 || string(t) == "null" || string(t) == "{}" {
		return nil
	}
	return bytes.TrimSpace(canonical(t))
}

// configWriteKind is the kind of a PATCH /dynamic_configs/{id}: a write of the rules when its body
// carries them (PATCH /dynamic_configs/{id}), of the config's own fields otherwise.
func configWriteKind(body []byte) string {
	var keys map[string]json.RawMessage
	if json.Unmarshal(body, &keys) == nil {
		if _, ok := keys["rules"]; ok {
			return reviewKindConfig
		}
	}
	return reviewKindConfigFields
}

// patchConfig is PATCH /dynamic_configs/{id}: the config's own fields, its rules, or both (fields
// first); s.mu is held.
func (s *Server) patchConfig(id string, body []byte) response {
	if configWriteKind(body) == reviewKindConfigFields {
		return s.updateConfig(id, body)
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(body, &keys)
	rules := keys["rules"]
	delete(keys, "rules")
	if len(keys) > 0 {
		if resp := s.updateConfig(id, marshal(keys)); resp.status >= 300 {
			return resp
		}
	}
	return s.updateConfigRules(id, marshal(map[string]json.RawMessage{"rules": rules}))
}

// oldRulesRoute is PATCH /dynamic_configs/{id}/rules: gone from the 2025-10 document, answered as
// the service's framework answers a route it does not have, but for a config served as an older
// version.
func (s *Server) oldRulesRoute(r *http.Request, body []byte) response {
	if st, ok := s.configs[r.PathValue("id")]; ok && st.older {
		return s.unlessHeld(r, reviewKindConfig, body, s.updateConfigRules)
	}
	return errResp(http.StatusNotFound, "Cannot PATCH %s", r.URL.Path)
}

// ServeOlderConfigService makes the config answered as an older service version answers it: the
// schema as a JSON object, and PATCH /dynamic_configs/{id}/rules served.
func (s *Server) ServeOlderConfigService(configID string, on bool) error {
	return s.withConfig(configID, func(st *configState) { st.older = on })
}

// withConfig runs change on the config under the lock, as the console's switches of one config do.
func (s *Server) withConfig(configID string, change func(*configState)) error {
	var err error
	s.locked(func() {
		st, ok := s.configs[configID]
		if !ok {
			err = fmt.Errorf("dynamic config %q not found", configID)
			return
		}
		change(st)
	})
	return err
}
