// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"net/http"
	"net/url"
	"strings"
)

// handler answers one endpoint; body is the request body, already read.
type handler func(r *http.Request, body []byte) response

// routes is the API's endpoints, by method and path under /console/v1. A path the API serves, but
// not with the request's method, is answered 405 with Allow; any other path 404 (unrouted).
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	on := func(method, path string, h handler) {
		mux.Handle(method+" "+basePath+path, endpoint{s: s, method: method, serve: h})
	}
	id := func(r *http.Request) string { return r.PathValue("id") }
	name := func(r *http.Request) string { return r.PathValue("name") }

	on(http.MethodGet, "/gates", func(r *http.Request, _ []byte) response { return s.listGates(r) })
	on(http.MethodPost, "/gates", func(_ *http.Request, body []byte) response { return s.createGate(body) })
	on(http.MethodGet, "/gates/{id}", func(r *http.Request, _ []byte) response { return s.getGate(id(r)) })
	on(http.MethodPatch, "/gates/{id}", func(r *http.Request, body []byte) response {
		return s.unlessHeld(r, reviewKindGateFields, body, s.updateGate)
	})
	on(http.MethodDelete, "/gates/{id}", func(r *http.Request, _ []byte) response { return s.deleteGate(id(r)) })
	on(http.MethodPatch, "/gates/{id}/rules", func(r *http.Request, body []byte) response {
		return s.unlessHeld(r, reviewKindGate, body, s.updateGateRules)
	})
	on(http.MethodPut, "/gates/{id}/archive", func(r *http.Request, body []byte) response { return s.setGateArchived(id(r), true, body) })
	on(http.MethodPut, "/gates/{id}/unarchive", func(r *http.Request, body []byte) response { return s.setGateArchived(id(r), false, body) })

	on(http.MethodGet, "/release_pipelines", func(r *http.Request, _ []byte) response { return s.listPipelines(r) })
	on(http.MethodGet, "/release_pipelines/{id}", func(r *http.Request, _ []byte) response { return s.getPipeline(id(r)) })
	on(http.MethodPost, "/release_pipelines/{id}", func(r *http.Request, body []byte) response {
		return s.unlessHeld(r, reviewKindPipe, body, s.updatePipeline)
	})
	on(http.MethodPost, "/release_pipelines", func(_ *http.Request, body []byte) response { return s.createPipeline(body) })
	on(http.MethodDelete, "/release_pipelines/{id}", func(r *http.Request, _ []byte) response { return s.deletePipeline(id(r)) })

	on(http.MethodGet, "/release_pipeline_triggers", func(r *http.Request, _ []byte) response { return s.listRuns(r) })
	on(http.MethodGet, "/release_pipeline_triggers/{id}", func(r *http.Request, _ []byte) response { return s.getRun(id(r)) })
	on(http.MethodPut, "/release_pipeline_triggers/{id}/{op}", func(r *http.Request, body []byte) response {
		return s.operateRun(id(r), r.PathValue("op"), body)
	})

	// "list" is no metric source's name for GET; POST and DELETE still take it as one.
	on(http.MethodGet, "/metrics/metric_source/list", func(r *http.Request, _ []byte) response { return s.listMetricSources(r) })
	on(http.MethodPost, "/metrics/metric_source", func(_ *http.Request, body []byte) response { return s.createMetricSource(body) })
	on(http.MethodGet, "/metrics/metric_source/{name}", func(r *http.Request, _ []byte) response { return s.getMetricSource(name(r)) })
	on(http.MethodPost, "/metrics/metric_source/{name}", func(r *http.Request, body []byte) response {
		return s.updateMetricSource(name(r), body)
	})
	on(http.MethodDelete, "/metrics/metric_source/{name}", func(r *http.Request, _ []byte) response { return s.deleteMetricSource(name(r)) })

	on(http.MethodGet, "/users", func(r *http.Request, _ []byte) response { return s.listUsers(r) })
	on(http.MethodGet, "/segments", func(r *http.Request, _ []byte) response { return s.listSegments(r) })
	on(http.MethodPost, "/segments", func(_ *http.Request, body []byte) response { return s.createSegment(body) })
	on(http.MethodGet, "/segments/{id}", func(r *http.Request, _ []byte) response { return s.getSegment(id(r)) })
	on(http.MethodDelete, "/segments/{id}", func(r *http.Request, _ []byte) response { return s.deleteSegment(id(r)) })
	on(http.MethodPost, "/segments/{id}/conditional", func(r *http.Request, body []byte) response {
		return s.setSegmentRules(id(r), body)
	})
	on(http.MethodGet, "/segments/{id}/idlist_metadata", func(r *http.Request, _ []byte) response { return s.idListMetadata(id(r)) })
	on(http.MethodPut, "/segments/{id}/archive", func(r *http.Request, _ []byte) response { return s.archiveSegment(id(r)) })
	on(http.MethodGet, "/segments/{id}/id_list", func(r *http.Request, _ []byte) response { return s.getSegmentIDs(r, id(r)) })
	on(http.MethodPatch, "/segments/{id}/id_list", func(r *http.Request, body []byte) response {
		return s.writeSegmentIDs(id(r), body, true)
	})
	on(http.MethodDelete, "/segments/{id}/id_list", func(r *http.Request, body []byte) response {
		return s.writeSegmentIDs(id(r), body, false)
	})
	on(http.MethodGet, "/events/{name}", func(r *http.Request, _ []byte) response { return s.listEvents(r, name(r)) })
	on(http.MethodGet, "/gates/{id}/reviews/{review}", func(r *http.Request, _ []byte) response {
		return s.getReview(gateReviews, id(r), r.PathValue("review"))
	})
	on(http.MethodPut, "/gates/{id}/reviews/{review}/commit", func(r *http.Request, _ []byte) response {
		return s.commitReview(gateReviews, id(r), r.PathValue("review"))
	})

	s.dynamicConfigRoutes(on)
	s.experimentRoutes(on)
	s.metricRoutes(on)
	s.keyRoutes(on)
	s.targetAppRoutes(on)
	s.tagRoutes(on)
	on(http.MethodGet, "/environments", func(*http.Request, []byte) response { return s.listEnvironments() })

	mux.Handle("/", endpoint{s: s, serve: func(r *http.Request, _ []byte) response { return s.unrouted(r) }})
	return mux
}

// serve answers an API request; s.mu is held.
func (s *Server) serve(r *http.Request, body []byte) response {
	rr, ok := routable(r)
	if !ok {
		return notFound(r)
	}
	if resp, conflict := s.conflict(r); conflict {
		return resp
	}
	x := &exchange{body: body}
	s.mux.ServeHTTP(x, rr)
	return x.resp
}

// routable checks the path as the service does (under /console/v1, every segment non-empty and
// validly escaped) and gives the request to route. ServeMux would redirect a path with a "." or
// ".." segment to its cleaned form, where the service takes the segment as an id: such segments
// reach the mux escaped, which it does not clean, and r.PathValue still unescapes.
func routable(r *http.Request) (*http.Request, bool) {
	raw := r.URL.EscapedPath()
	if !strings.HasPrefix(raw, basePath+"/") {
		return nil, false
	}
	segs := strings.Split(strings.TrimPrefix(raw, basePath+"/"), "/")
	dots := false
	for i, seg := range segs {
		if u, err := url.PathUnescape(seg); err != nil || u == "" {
			return nil, false
		}
		if seg == "." || seg == ".." {
			segs[i] = strings.Repeat("%2E", len(seg))
			dots = true
		}
	}
	if !dots {
		return r, true
	}
	u := *r.URL
	u.RawPath = basePath + "/" + strings.Join(segs, "/")
	rr := r.WithContext(r.Context())
	rr.URL = &u
	return rr, true
}

func notFound(r *http.Request) response {
	return errResp(http.StatusNotFound, "Not found: %s", r.URL.Path)
}

// unrouted answers a request no endpoint took: 405 where the path is served with other methods.
func (s *Server) unrouted(r *http.Request) response {
	if allow := s.allowed(r); len(allow) > 0 {
		return methodNotAllowed(r, allow)
	}
	return notFound(r)
}

func methodNotAllowed(r *http.Request, allowed []string) response {
	resp := errResp(http.StatusMethodNotAllowed, "Method %s not allowed on %s", r.Method, r.URL.Path)
	resp.header = http.Header{"Allow": {strings.Join(allowed, ", ")}}
	return resp
}

// allowed lists the methods the API serves at r's path, in the order the service lists them.
func (s *Server) allowed(r *http.Request) []string {
	var out []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete} {
		probe := &http.Request{Method: m, URL: r.URL, Host: r.Host}
		if _, pattern := s.mux.Handler(probe); strings.HasPrefix(pattern, m+" ") {
			out = append(out, m)
		}
	}
	return out
}

// endpoint puts a handler on the mux.
type endpoint struct {
	s      *Server
	method string // "" for the catch-all
	serve  handler
}

func (e endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	x, ok := w.(*exchange)
	if !ok { // only serve routes to the mux, always with an exchange
		http.Error(w, "mockconsole: endpoint reached outside Server.serve", http.StatusInternalServerError)
		return
	}
	if e.method != "" && r.Method != e.method {
		// ServeMux lets a GET pattern take HEAD; the service answers HEAD 405.
		x.resp = e.s.unrouted(r)
		return
	}
	x.resp = e.serve(r, x.body)
}

// exchange carries the request body to an endpoint and its answer back, so that faults and habits
// can still reshape the answer before it is written. Endpoints set resp; Header, Write and
// WriteHeader keep whatever else would write (ServeMux itself does not, as every path reaches an
// endpoint and is clean).
type exchange struct {
	body []byte
	resp response
}

func (x *exchange) Header() http.Header {
	if x.resp.header == nil {
		x.resp.header = http.Header{}
	}
	return x.resp.header
}

func (x *exchange) WriteHeader(status int) { x.resp.status = status }

func (x *exchange) Write(b []byte) (int, error) {
	if x.resp.status == 0 {
		x.resp.status = http.StatusOK
	}
	x.resp.body = append(x.resp.body, b...)
	return len(b), nil
}
