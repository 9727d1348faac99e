// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// A key's secret is also its id on the wire (`GET /keys/{id}`), so every request that names a
// key carries it in its path: such requests set request.secret, and neither the log (client.go),
// an error's address (address.go) nor the words of an answer an error quotes show it. The key
// is named in errors by its Fingerprint.

// Key types the service creates keys of (`POST /keys`): the document also lists SCIM and ORG,
// which are the organisation's keys, not a project's.
const (
	KeyTypeServer  = "SERVER"
	KeyTypeClient  = "CLIENT"
	KeyTypeConsole = "CONSOLE"
)

// KeyScopes are the scopes `POST /keys` takes.
var KeyScopes = []string{
	"omni_read_only", "omni_read_write", "client_download_config_specs", "none_hash_enabled",
	"can_access_keys", "client_can_write_user_store", "personal_read_only", "personal_read_write",
}

// Key is a project's key as the service answers it. Description is a pointer: the document's
// examples leave it out (its schemas require it).
type Key struct {
	// Secret is the key itself ("key"), and its id in paths.
	Secret              string   `json:"key"`
	Type                string   `json:"type"`
	Description         *string  `json:"description,omitempty"`
	Scopes              []string `json:"scopes"`
	Environments        []string `json:"environments"`
	PrimaryTargetApp    *string  `json:"primaryTargetApp"`
	SecondaryTargetApps []string `json:"secondaryTargetApps"`
	Status              string   `json:"status"`
}

// String names the key by type and fingerprint: a key printed with %v never shows its secret.
func (k Key) String() string { return k.Type + " key " + Fingerprint(k.Secret) }

// GoString is String, for %#v.
func (k Key) GoString() string { return k.String() }

// KeyStatusDeactivated is the status of a key `PATCH /keys/{id}/deactivate` deactivated.
const KeyStatusDeactivated = "deactivated"

// KeyWrite is the body of `POST /keys` (every field) and `PATCH /keys/{id}` (Type left empty: it
// never changes). TargetAppID is null to clear it on update and left out on create when none.
type KeyWrite struct {
	Type                  string   `json:"type,omitempty"`
	Description           *string  `json:"description,omitempty"`
	Scopes                []string `json:"scopes,omitempty"`
	Environments          []string `json:"environments"`
	TargetAppID           Link     `json:"targetAppID,omitzero"`
	SecondaryTargetAppIDs []string `json:"secondaryTargetAppIDs"`
}

// Fingerprint names a key without its secret: "sha256:" and the first 16 hex digits of the
// secret's SHA-256. A key's secret carries enough entropy that this says nothing of it.
func Fingerprint(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return "sha256:" + hex.EncodeToString(sum[:8])
}

// IsFingerprint reports whether s has the form Fingerprint returns.
func IsFingerprint(s string) bool { return fingerprintRe.MatchString(s) }

var fingerprintRe = regexp.MustCompile(`^sha256:[0-9a-f]{16}$`)

// keys is /keys/{id}; the object in errors is the key's fingerprint, never its id.
var keys = collection[Key]{path: "/keys", one: "key", many: "keys"}

// keyRequest is a request to /keys/{secret}{suffix}, named in errors by fingerprint.
func keyRequest(method, secret, suffix, op string, body any) request {
	return request{method: method, path: keys.path + "/" + pathEscape(secret) + suffix, body: body, op: op,
		object: Fingerprint(secret), secret: secret, keyAnswers: true}
}

// CreateKey sends `POST /keys`; the answer holds the new key's secret.
func (c *Client) CreateKey(ctx context.Context, k KeyWrite) (*Key, error) {
	k.Environments = orEmpty(k.Environments)
	k.SecondaryTargetAppIDs = orEmpty(k.SecondaryTargetAppIDs)
	var out Key
	r := request{method: http.MethodPost, path: keys.path, body: k, op: "create key", object: "of type " + k.Type, keyAnswers: true, noResend: true}
	if err := c.do(ctx, r, &out); err != nil {
		return nil, err
	}
	if out.Secret == "" {
		return nil, &DecodeError{Op: r.op, Object: r.object, Call: c.call(r), Err: fmt.Errorf("the answer names no key")}
	}
	return &out, nil
}

// GetKey reads `GET /keys/{id}`, the id being the key's secret.
func (c *Client) GetKey(ctx context.Context, secret string) (*Key, error) {
	return getObject[Key](ctx, c, keyRequest(http.MethodGet, secret, "", "read key", nil))
}

// UpdateKey sends `PATCH /keys/{id}` and reads the key back: the update answers only the fields
// it holds (environments and target apps, in the document's example).
func (c *Client) UpdateKey(ctx context.Context, secret string, k KeyWrite) (*Key, error) {
	k.Type = ""
	k.Environments = orEmpty(k.Environments)
	k.SecondaryTargetAppIDs = orEmpty(k.SecondaryTargetAppIDs)
	if !k.TargetAppID.sent {
		k.TargetAppID = Unlinked()
	}
	if err := c.do(ctx, keyRequest(http.MethodPatch, secret, "", "update key", k), nil); err != nil {
		return nil, err
	}
	return c.GetKey(ctx, secret)
}

// RotateKey sends `PATCH /keys/{id}/rotate`: the key gets a new secret, answered, and the old one
// stops working.
func (c *Client) RotateKey(ctx context.Context, secret string) (*Key, error) {
	r := keyRequest(http.MethodPatch, secret, "/rotate", "rotate key", nil)
	r.noResend = true // a second rotation would lose the secret the first answered
	var out Key
	if err := c.do(ctx, r, &out); err != nil {
		return nil, err
	}
	if out.Secret == "" || out.Secret == secret {
		return nil, &DecodeError{Op: r.op, Object: r.object, Call: c.call(r), Err: fmt.Errorf("the answer holds no new key")}
	}
	return &out, nil
}

// DeactivateKey sends `PATCH /keys/{id}/deactivate`, answered with a message alone; the document
// offers no way back.
func (c *Client) DeactivateKey(ctx context.Context, secret string) error {
	return c.do(ctx, keyRequest(http.MethodPatch, secret, "/deactivate", "deactivate key", nil), nil)
}

// DeleteKey sends `DELETE /keys/{id}`.
func (c *Client) DeleteKey(ctx context.Context, secret string) error {
	return c.do(ctx, keyRequest(http.MethodDelete, secret, "", "delete key", nil), nil)
}

// KeyFilter narrows `GET /keys` to one primary target app or one environment ("" for any).
type KeyFilter struct {
	PrimaryTargetApp, Environment string
}

// EachKeysPage reads `GET /keys` page by page, handing each page to fn in order.
func (c *Client) EachKeysPage(ctx context.Context, f KeyFilter, opts ListOptions, fn func([]Key) error) error {
	return eachPage(ctx, c, keysListRequest(f), opts, fn)
}

// ListKeys reads every key of the project that f lets through.
func (c *Client) ListKeys(ctx context.Context, f KeyFilter, opts ListOptions) ([]Key, error) {
	return listAll[Key](ctx, c, keysListRequest(f), opts)
}

func keysListRequest(f KeyFilter) request {
	r := keys.listRequest()
	r.keyAnswers = true
	r.query = map[string][]string{}
	if f.PrimaryTargetApp != "" {
		r.query.Set("primaryTargetApp", f.PrimaryTargetApp)
	}
	if f.Environment != "" {
		r.query.Set("environment", f.Environment)
	}
	return r
}

// FindKey returns the key whose secret has the fingerprint fp, listing the project's keys; a
// NotFound error when none has.
func (c *Client) FindKey(ctx context.Context, fp string) (*Key, error) {
	var found *Key
	err := c.EachKeysPage(ctx, KeyFilter{}, ListOptions{}, func(page []Key) error {
		for i := range page {
			if found == nil && Fingerprint(page[i].Secret) == fp {
				found = &page[i]
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if found == nil {
		return nil, &APIError{Op: "find key", Object: fp, StatusCode: http.StatusNotFound,
			Message: "no key of the project has this fingerprint"}
	}
	return found, nil
}

// redactedPath is r's path with its secret replaced, as logs and errors show it.
func (r request) redactedPath() string {
	if r.secret == "" {
		return r.path
	}
	return strings.ReplaceAll(r.path, pathEscape(r.secret), redacted)
}

// keyFieldRe is a "key" field of an answer: a key's secret.
var keyFieldRe = regexp.MustCompile(`"key"\s*:\s*"(?:[^"\\]|\\.)*"`)

// redactSecrets replaces r's secret, and with keyAnswers every "key" field, in b.
func (r request) redactSecrets(b []byte) []byte {
	if r.secret != "" {
		b = redactKey(b, r.secret)
		b = redactKey(b, pathEscape(r.secret))
	}
	if r.keyAnswers && bytes.Contains(b, []byte(`"key"`)) {
		b = keyFieldRe.ReplaceAll(b, []byte(`"key":"`+redacted+`"`))
	}
	return b
}
