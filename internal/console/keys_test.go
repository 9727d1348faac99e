// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// keySecret is a key's secret as the fake answers it: long and distinctive, so a leak shows.
const keySecret = "secret-KEY-must-not-leak-0c9a7e"

const keyJSON = `{"key":"` + keySecret + `","type":"SERVER","description":"web backend","scopes":[],` +
	`"environments":["production"],"primaryTargetApp":"app_1","secondaryTargetApps":null,"status":"active"}`

// Every key route on the wire: method, escaped path, body; an update is read back.
func TestKeysWire(t *testing.T) {
	desc := "web backend"
	f := newFake(t, func(_ int, r seen) reply {
		switch {
		case r.Method == http.MethodPatch && r.Path == "/console/v1/keys/"+keySecret:
			return ok(`{"environments":["staging"],"targetAppID":"app_1","secondaryTargetAppIDs":null}`)
		case r.Method == http.MethodPatch && strings.HasSuffix(r.Path, "/rotate"):
			return ok(strings.Replace(keyJSON, keySecret, "secret-NEW", 1))
		case r.Method == http.MethodPatch, r.Method == http.MethodDelete:
			return reply{Status: 200, Body: `{"message":"done"}`}
		}
		return ok(keyJSON)
	})
	c, ctx := f.client(), context.Background()
	created, err := c.CreateKey(ctx, KeyWrite{Type: "SERVER", Description: &desc, Environments: []string{"production"}, TargetAppID: LinkTo("app_1")})
	if err != nil || created.Secret != keySecret || *created.Description != desc {
		t.Fatalf("create: %v, %v", created, err)
	}
	if _, err := c.UpdateKey(ctx, keySecret, KeyWrite{Type: "SERVER", Description: &desc}); err != nil {
		t.Fatal(err)
	}
	rotated, err := c.RotateKey(ctx, keySecret)
	if err != nil || rotated.Secret != "secret-NEW" {
		t.Fatalf("rotate: %v, %v", rotated, err)
	}
	if err := c.DeactivateKey(ctx, keySecret); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteKey(ctx, keySecret); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range f.requests() {
		got = append(got, r.Method+" "+r.Path+" "+r.Body)
	}
	want := []string{
		`POST /console/v1/keys {"type":"SERVER","description":"web backend","environments":["production"],"targetAppID":"app_1","secondaryTargetAppIDs":[]}`,
		// The update never sends the type, clears a target app with null, and reads the key back.
		`PATCH /console/v1/keys/` + keySecret + ` {"description":"web backend","environments":[],"targetAppID":null,"secondaryTargetAppIDs":[]}`,
		`GET /console/v1/keys/` + keySecret + ` `,
		`PATCH /console/v1/keys/` + keySecret + `/rotate `,
		`PATCH /console/v1/keys/` + keySecret + `/deactivate `,
		`DELETE /console/v1/keys/` + keySecret + ` `,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// No error of a key's request shows its secret: not the address, not the service's words that
// echo it, not a body that cannot be decoded; the key is named by its fingerprint.
func TestKeySecretNeverInErrors(t *testing.T) {
	cases := map[string]reply{
		"refused, echoing the key": apiErr(400, "key "+keySecret+" is deactivated"),
		"not found":                apiErr(404, "Not Found"),
		"undecodable key answer":   {Status: 200, Body: `{"message":"ok","data":{"key":"` + keySecret + `","type":5}}`},
	}
	for name, rep := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFake(t, script(rep))
			_, err := f.client().GetKey(context.Background(), keySecret)
			if err == nil {
				t.Fatal("no error")
			}
			text := fmt.Sprintf("%v %+v %#v", err, err, err)
			if strings.Contains(text, keySecret) {
				t.Fatalf("the error shows the secret: %s", text)
			}
			if !strings.Contains(err.Error(), Fingerprint(keySecret)) {
				t.Errorf("the error does not name the key by fingerprint: %s", err)
			}
		})
	}
	// A listing's answers hold every key's secret: a listing that cannot be decoded quotes none.
	f := newFake(t, script(reply{Status: 200, Body: `{"message":"ok","data":[{"key":"` + keySecret + `","type":7}],"pagination":null}`}))
	_, err := f.client().ListKeys(context.Background(), KeyFilter{}, ListOptions{})
	if err == nil || strings.Contains(fmt.Sprintf("%+v", err), keySecret) {
		t.Fatalf("listing: %v", err)
	}
}

func TestFingerprint(t *testing.T) {
	fp := Fingerprint("secret-123")
	if !IsFingerprint(fp) || strings.Contains(fp, "secret") || fp != Fingerprint("secret-123") || fp == Fingerprint("secret-124") {
		t.Errorf("Fingerprint: %q", fp)
	}
	for _, s := range []string{"secret-123", "sha256:0123", "SHA256:0123456789abcdef", "sha256:0123456789abcdeg"} {
		if IsFingerprint(s) {
			t.Errorf("IsFingerprint(%q)", s)
		}
	}
	if k := (Key{Secret: keySecret, Type: "SERVER"}); strings.Contains(fmt.Sprintf("%v %+v %#v %s", k, k, k, k), keySecret) {
		t.Error("a key printed shows its secret")
	}
}

// FindKey lists the keys and picks the one of the fingerprint; none is a NotFound.
func TestFindKey(t *testing.T) {
	f := newFake(t, func(int, seen) reply {
		return reply{Status: 200, Body: `{"message":"ok","data":[` + keyJSON + `,{"key":"other","type":"CLIENT","scopes":[],"status":"active"}]}`}
	})
	c := f.client()
	k, err := c.FindKey(context.Background(), Fingerprint("other"))
	if err != nil || k.Secret != "other" {
		t.Fatalf("FindKey: %v, %v", k, err)
	}
	if _, err := c.FindKey(context.Background(), Fingerprint("gone")); !NotFound(err) {
		t.Errorf("FindKey of no key: %v", err)
	}
}
