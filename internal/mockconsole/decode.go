// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Request bodies are decoded strictly, as the service's validation does: one JSON value, no
// unknown fields, numbers kept as written; errors are worded as the service words them.

// decoded reads a request body strictly; one the service cannot read is its 400.
func decoded[R any](body []byte) (R, *response) {
	var req R
	if err := decodeStrict(body, &req); err != nil {
		e := errResp(http.StatusBadRequest, "%s", err)
		return req, &e
	}
	return req, nil
}

// writeTo looks up the object a write names and decodes the write's body: a missing object is a
// 404 before a body the service cannot read is a 400.
func writeTo[R, V any](m map[string]V, kind, id string, body []byte) (V, R, *response) {
	v, miss := find(m, kind, id)
	if miss != nil {
		var req R
		return v, req, miss
	}
	req, bad := decoded[R](body)
	return v, req, bad
}

func decodeStrict(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return fmt.Errorf("invalid JSON body: request body is empty")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return describeDecodeErr(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("invalid JSON body: unexpected data after the top-level value")
	}
	return nil
}

func describeDecodeErr(err error) error {
	switch e := err.(type) {
	case *json.UnmarshalTypeError:
		field := e.Field
		if field == "" {
			field = "body"
		}
		return fmt.Errorf("invalid value for field %q: expected %s, got JSON %s", field, goTypeToJSON(e.Type.String()), e.Value)
	case *json.SyntaxError:
		return fmt.Errorf("invalid JSON body at offset %d: %s", e.Offset, e.Error())
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "json: unknown field ") {
		return fmt.Errorf("unknown field %s in request body", strings.TrimPrefix(msg, "json: unknown field "))
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return fmt.Errorf("invalid JSON body: unexpected end of input")
	}
	return fmt.Errorf("invalid JSON body: %s", strings.TrimPrefix(msg, "json: "))
}

func goTypeToJSON(t string) string {
	switch {
	case t == "string":
		return "string"
	case t == "bool":
		return "boolean"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "integer"
	case strings.HasPrefix(t, "float"):
		return "number"
	case strings.HasPrefix(t, "[]"):
		return "array"
	case strings.HasPrefix(t, "map"), strings.HasPrefix(t, "mockconsole."), strings.HasPrefix(t, "struct"):
		return "object"
	}
	return t
}

// link is a request field that names another object (a gate's or a config's releasePipelineID, an
// experiment's targetingGateID): the document types it as a nullable string. Left out, it leaves
// the link as it is; null clears it; any string is taken for an id, "" included, which names no
// object and is refused as such (linkRefused), as the service does.
type link struct {
	sent bool // false: left out
	id   string
	null bool
}

func (l *link) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		*l = link{sent: true, null: true}
		return nil
	}
	*l = link{sent: true}
	return json.Unmarshal(b, &l.id)
}

// setInto writes what the link sends into the object's field ("" for none).
func (l link) setInto(dst *string) {
	if l.sent {
		*dst = l.id
	}
}

// linkRefused is the service's 400 for a link to an object m does not hold (kind names it, as
// "Release pipeline"); "" names none: the service answers "release pipeline  not found". s.mu is
// held.
func linkRefused[V any](l link, m map[string]V, kind string) *response {
	if _, ok := m[l.id]; !l.sent || l.null || ok {
		return nil
	}
	return ref(errResp(http.StatusBadRequest, "%s %q not found", kind, l.id))
}
