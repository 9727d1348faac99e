// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/apidoc"
)

// BenchmarkHoldToDocument: what checking an exchange against the service's document adds to the
// mock's answer of a page of 100 gates and of one gate's rules write (make bench; BENCHMARKS.md).
func BenchmarkHoldToDocument(b *testing.B) {
	for _, held := range []bool{false, true} {
		s := New(Config{})
		if held {
			s.mu.Lock()
			s.document = &documentCheck{doc: apidoc.MustLoad()}
			s.mu.Unlock()
		}
		name := "as documented"
		if held {
			name = "held to the document"
		}
		b.Run(name+"/GET gates page", func(b *testing.B) {
			for b.Loop() {
				r := httptest.NewRequest(http.MethodGet, "/console/v1/gates?limit=100", nil)
				r.Header.Set(apiKeyHeader, DefaultAPIKey)
				s.ServeHTTP(httptest.NewRecorder(), r)
			}
		})
		b.Run(name+"/PATCH gate rules", func(b *testing.B) {
			for b.Loop() {
				r := httptest.NewRequest(http.MethodPatch, "/console/v1/gates/dark_mode/rules",
					strings.NewReader(`{"rules":[{"name":"a","passPercentage":5,"conditions":[{"type":"country","operator":"any","targetValue":["US"]}]}]}`))
				r.Header.Set(apiKeyHeader, DefaultAPIKey)
				r.Header.Set("Content-Type", "application/json")
				s.ServeHTTP(httptest.NewRecorder(), r)
			}
		})
		if held && len(s.DocumentBreaks()) > 0 {
			b.Fatalf("breaks: %v", s.DocumentBreaks()[0])
		}
	}
}
