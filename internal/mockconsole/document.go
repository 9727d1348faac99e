// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/apidoc"
)

// The service's published OpenAPI document held to every exchange (DESIGN §7, "The document"):
// with HoldToDocument on, each request the mock receives is checked against the document, and so
// is each answer it gives as documented (no habit on: a habit is by definition a form the
// document does not show). A break fails the test that caused it, naming route, field and rule.

// undocumentedRoutes are the routes the live service serves that the 2025-10 document does not
// list (DESIGN §7 names each and why the provider calls it): requests to them are not breaks.
var undocumentedRoutes = []*regexp.Regexp{
	// Reviews of a gate's, a config's or an experiment's change (GET /gates/{id}/reviews/{reviewID}, PUT
	// /gates/{id}/reviews/{reviewID}/commit, the same under /dynamic_configs/{id} and /experiments/{id}).
	regexp.MustCompile(`^(GET|PUT) /console/v1/(gates|dynamic_configs|experiments)/[^/]+/reviews/[^/]+(/commit)?$`),
	// A config's rules on an older service version (PATCH /dynamic_configs/{id}/rules): the client falls back to it
	// only where that service answers PATCH /dynamic_configs/{id} without the rules.
	regexp.MustCompile(`^PATCH /console/v1/dynamic_configs/[^/]+/rules$`),
}

// documentCheck is the state of HoldToDocument; guarded by Server.mu.
type documentCheck struct {
	doc    *apidoc.Document
	breaks []string
	// beyond are the fields whose breaks a test accepts (ServeBeyondDocument).
	beyond []string
}

// HoldToDocument checks, from now on, every request and every answer given as documented against
// the service's document; at the end of t each break fails it, by route, field and rule.
func (s *Server) HoldToDocument(t testing.TB) {
	t.Helper()
	s.mu.Lock()
	s.document = &documentCheck{doc: apidoc.MustLoad()}
	s.mu.Unlock()
	t.Cleanup(func() {
		for _, b := range s.DocumentBreaks() {
			t.Errorf("the mock's exchange breaks the service's document: %s", b)
		}
	})
}

// ServeBeyondDocument accepts, from now on, the breaks of the document in a field whose pointer
// contains one of fields ("/targetValue/", "/conditions/0/type"): a form the live service gives or
// a value a newer service takes, which the test proves the provider survives (DESIGN §7).
func (s *Server) ServeBeyondDocument(fields ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.document != nil {
		s.document.beyond = append(s.document.beyond, fields...)
	}
}

// DocumentBreaks returns the breaks of the document seen since HoldToDocument, in order.
func (s *Server) DocumentBreaks() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.document == nil {
		return nil
	}
	return append([]string(nil), s.document.breaks...)
}

// checkRequest holds a request to the document; s.mu is held.
func (s *Server) checkRequest(r *http.Request, body []byte) {
	if s.document == nil || undocumented(r) {
		return
	}
	s.document.note(s.document.doc.CheckRequest(r, body))
}

// checkAnswer holds an answer, as the mock gives it before any habit reshapes it, to the
// document; s.mu is held.
func (s *Server) checkAnswer(r *http.Request, resp response) {
	if s.document == nil || s.habits != (Habits{}) || undocumented(r) || resp.hangUp {
		return
	}
	if err := s.document.doc.CheckResponse(r, resp.body, resp.status, resp.contentType); !errors.Is(err, apidoc.ErrNotDocumented) {
		s.document.note(err)
	}
}

// note records a break, less the fields the test accepts.
func (d *documentCheck) note(err error) {
	if err == nil {
		return
	}
	var b *apidoc.Break
	if !errors.As(err, &b) {
		d.breaks = append(d.breaks, err.Error())
		return
	}
	kept := *b
	kept.Items = slices.DeleteFunc(slices.Clone(b.Items), func(item string) bool {
		return slices.ContainsFunc(d.beyond, func(f string) bool { return strings.Contains(item, f) })
	})
	if len(kept.Items) > 0 {
		d.breaks = append(d.breaks, kept.Error())
	}
}

func undocumented(r *http.Request) bool {
	call := r.Method + " " + r.URL.EscapedPath()
	for _, re := range undocumentedRoutes {
		if re.MatchString(call) {
			return true
		}
	}
	return !strings.HasPrefix(r.URL.Path, basePath+"/")
}
