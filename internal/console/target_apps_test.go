// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"net/http"
	"testing"
)

// A create answered as the document's example (the body sent, no envelope, no id) is completed
// from the listing; one answered as its schema is not.
func TestCreateTargetApp(t *testing.T) {
	for name, answer := range map[string]reply{
		"schema":  ok(`{"id":"app_1","name":"web"}`),
		"example": {Status: 200, Body: `{"name":"web","gates":[],"dynamicConfigs":[],"experiments":[]}`},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFake(t, func(_ int, r seen) reply {
				if r.Method == http.MethodPost {
					return answer
				}
				return reply{Status: 200, Body: `{"message":"ok","data":[{"id":"app_0","name":"mobile"},{"id":"app_1","name":"web"}]}`}
			})
			app, err := f.client().CreateTargetApp(context.Background(), TargetAppWrite{Name: "web", Description: "the web app"})
			if err != nil || app.ID != "app_1" {
				t.Fatalf("create: %v, %v", app, err)
			}
			if r := f.requests()[0]; r.Body != `{"name":"web","description":"the web app"}` {
				t.Errorf("create sent %s", r.Body)
			}
			if want := map[string]int{"schema": 1, "example": 2}[name]; f.count() != want {
				t.Errorf("%d requests, want %d", f.count(), want)
			}
		})
	}
}

// An update is answered with a message alone: the app is read back.
func TestUpdateTargetApp(t *testing.T) {
	f := newFake(t, script(reply{Status: 200, Body: `{"message":"Target apps updated successfully."}`}, ok(`{"id":"app_1","name":"web-eu"}`)))
	app, err := f.client().UpdateTargetApp(context.Background(), "app_1", TargetAppWrite{Name: "web-eu"})
	if err != nil || app.Name != "web-eu" || f.requests()[1].Method != http.MethodGet {
		t.Fatalf("update: %v, %v", app, err)
	}
}
