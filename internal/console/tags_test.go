// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// TagCarriers names, from every listing, the objects whose tags hold the tag.
func TestTagCarriers(t *testing.T) {
	f := newFake(t, func(_ int, r seen) reply {
		list := func(items string) reply { return reply{Status: 200, Body: `{"message":"ok","data":[` + items + `]}`} }
		switch {
		case strings.HasPrefix(r.Path, "/console/v1/gates"):
			return list(`{"id":"g1","tags":["team"]},{"id":"g2","tags":["other"]}`)
		case strings.HasPrefix(r.Path, "/console/v1/dynamic_configs"):
			return list(`{"id":"c1","tags":["team"]}`)
		case strings.HasPrefix(r.Path, "/console/v1/metrics/metric_source"):
			return list(`{"name":"orders","tags":["team"]}`)
		}
		return list(``)
	})
	got, err := f.client().TagCarriers(context.Background(), "team")
	if want := []string{`gate "g1"`, `dynamic config "c1"`, `metric source "orders"`}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("TagCarriers: %v, %v; want %v", got, err, want)
	}
}

// A tag read as the document's example: no description.
func TestGetTagWithoutDescription(t *testing.T) {
	f := newFake(t, script(ok(`{"id":"t1","name":"a tag","isCore":false}`)))
	tag, err := f.client().GetTag(context.Background(), "t1")
	if err != nil || tag.Description != nil || tag.Name != "a tag" {
		t.Fatalf("GetTag: %+v, %v", tag, err)
	}
}
