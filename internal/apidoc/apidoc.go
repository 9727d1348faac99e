// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

// Package apidoc is the service's published OpenAPI document (testdata/console-api-2025-10.json)
// executed: it checks a request or an answer against the document (kin-openapi's openapi3filter),
// and hands out the document's own example answers. The mock holds every exchange of the
// acceptance tests to it, and the client's tests decode every documented answer with it, so that
// neither the mock nor the client can agree on a guess the document does not make.
package apidoc

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// The document as the service published it (2025-10); testdata/README.md says how to refresh it.
//
//go:embed testdata/console-api-2025-10.json
var document []byte

// Document is the loaded document and a router over its paths. It is read-only once loaded and
// safe for concurrent use.
type Document struct {
	T      *openapi3.T
	router routers.Router
}

var (
	loadOnce sync.Once
	loaded   *Document
	loadErr  error
)

// Load parses the embedded document once per process.
func Load() (*Document, error) {
	loadOnce.Do(func() {
		loader := openapi3.NewLoader()
		t, err := loader.LoadFromData(document)
		if err != nil {
			loadErr = fmt.Errorf("apidoc: the service's document does not load: %w", err)
			return
		}
		// The document's server is the service's host; requests here go to loopback, so its paths
		// are matched from the root whatever the host.
		t.Servers = openapi3.Servers{{URL: "/"}}
		correct(t)
		r, err := gorillamux.NewRouter(t)
		if err != nil {
			loadErr = fmt.Errorf("apidoc: no router over the service's document: %w", err)
			return
		}
		loaded = &Document{T: t, router: r}
	})
	return loaded, loadErr
}

// MustLoad is Load for tests and the mock, where a document that does not load is a broken build.
func MustLoad() *Document {
	d, err := Load()
	if err != nil {
		panic(err)
	}
	return d
}

// Route names the document's operation that serves method and path ("PUT
// /console/v1/experiments/{id}/start"), or "" when the document has none.
func (d *Document) Route(method, path string) string {
	route, _, err := d.find(method, path)
	if err != nil {
		return ""
	}
	return route.Method + " " + route.Path
}

func (d *Document) find(method, path string) (*routers.Route, map[string]string, error) {
	req, err := http.NewRequest(method, path, nil)
	if err != nil {
		return nil, nil, err
	}
	return d.router.FindRoute(req)
}

// ErrNotDocumented is a request to a method and path the document does not list.
var ErrNotDocumented = errors.New("the document has no such operation")

// CheckRequest holds a request, with its body already read, to the document. The error names
// the route and, for each break, the field and the rule.
func (d *Document) CheckRequest(r *http.Request, body []byte) error {
	route, params, err := d.find(r.Method, r.URL.RequestURI())
	if err != nil {
		return fmt.Errorf("%s %s: %w", r.Method, r.URL.Path, ErrNotDocumented)
	}
	req := r.Clone(r.Context())
	req.Body = io.NopCloser(bytes.NewReader(body))
	if len(body) == 0 {
		req.Body = http.NoBody
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: options()}
	if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
		return &Break{What: "request", Route: route.Method + " " + route.Path, Path: r.URL.Path, Items: breaks(err)}
	}
	return nil
}

// CheckResponse holds an answer to a request to the document: a status the operation does not
// list is allowed (the document lists few errors); a listed one must have the body it describes.
func (d *Document) CheckResponse(r *http.Request, body []byte, status int, contentType string) error {
	route, params, err := d.find(r.Method, r.URL.RequestURI())
	if err != nil {
		return fmt.Errorf("%s %s: %w", r.Method, r.URL.Path, ErrNotDocumented)
	}
	// The mock answers the same pages again and again (the seed changes little): an answer already
	// found to hold is not checked twice (BenchmarkHoldToDocument, BENCHMARKS.md "CI").
	key := sha256.Sum256(fmt.Appendf(nil, "%s %s %d %s\n%s", route.Method, route.Path, status, contentType, body))
	if _, held := held.Load(key); held {
		return nil
	}
	req := r.Clone(r.Context())
	req.Body = http.NoBody
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: options()},
		Status:                 status,
		Header:                 http.Header{"Content-Type": {contentType}},
		Options:                options(),
	}
	in.SetBodyBytes(body)
	var items []string
	if err := openapi3filter.ValidateResponse(r.Context(), in); err != nil {
		items = breaks(err)
	}
	items = append(items, undeclared(route, status, body)...)
	if len(items) > 0 {
		return &Break{What: fmt.Sprintf("answer %d to", status), Route: route.Method + " " + route.Path, Path: r.URL.Path, Items: items}
	}
	held.Store(key, struct{}{})
	return nil
}

// held are the answers (by route, status, type and body) found to hold to the document.
var held sync.Map

// Break is a request or an answer the document does not allow: the route, the path it was sent
// to, and each field with the rule it breaks ("/data/groups/0/id: property "id" is missing").
type Break struct {
	What  string // "request", "answer 200 to"
	Route string // "PUT /console/v1/experiments/{id}/start"
	Path  string
	Items []string
}

func (b *Break) Error() string {
	return fmt.Sprintf("%s %s (%s): %s", b.What, b.Route, b.Path, strings.Join(b.Items, "; "))
}

// undeclared names the top-level fields of an answer that its schema does not declare. The
// document's schemas leave additionalProperties open, so a validator alone would let a `data`
// through where the document answers a message alone (the experiment moves): the envelope is
// where such a guess hides.
func undeclared(route *routers.Route, status int, body []byte) []string {
	resp := route.Operation.Responses.Status(status)
	if resp == nil || resp.Value == nil {
		return nil
	}
	mt := resp.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil {
		return nil
	}
	declared := map[string]bool{}
	if !topLevelProperties(mt.Schema.Value, declared) || len(declared) == 0 {
		return nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(body, &obj) != nil {
		return nil
	}
	var out []string
	for k := range obj {
		if !declared[k] {
			out = append(out, "/"+k+": the document's answer has no such field")
		}
	}
	sort.Strings(out)
	return out
}

// topLevelProperties gathers the properties a schema declares at its top level, through allOf,
// oneOf and anyOf; false when the schema allows any other field explicitly.
func topLevelProperties(s *openapi3.Schema, into map[string]bool) bool {
	if s == nil {
		return true
	}
	if s.AdditionalProperties.Has != nil && *s.AdditionalProperties.Has || s.AdditionalProperties.Schema != nil {
		return false
	}
	for k := range s.Properties {
		into[k] = true
	}
	for _, group := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
		for _, ref := range group {
			if ref != nil && !topLevelProperties(ref.Value, into) {
				return false
			}
		}
	}
	return true
}

func options() *openapi3filter.Options {
	return &openapi3filter.Options{
		// Authentication is the mock's own business (a wrong key is answered 401 before routing).
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
		MultiError:         true,
	}
}

// breaks lists each break of the document in err as "field: rule": where the document's schemas
// combine (allOf, anyOf), the innermost reason.
func breaks(err error) []string {
	var out []string
	var walk func(error)
	walk = func(e error) {
		var me openapi3.MultiError
		var se *openapi3.SchemaError
		var re *openapi3filter.RequestError
		var rse *openapi3filter.ResponseError
		switch {
		case errors.As(e, &me):
			for _, x := range me {
				walk(x)
			}
		case errors.As(e, &se):
			if se.Origin != nil { // allOf, oneOf, anyOf: the innermost reason says more
				walk(se.Origin)
				return
			}
			out = append(out, "/"+strings.Join(se.JSONPointer(), "/")+": "+se.Reason)
		case errors.As(e, &re):
			where := "body"
			if re.Parameter != nil {
				where = re.Parameter.In + " parameter " + re.Parameter.Name
			}
			if re.Err != nil {
				for _, inner := range breaks(re.Err) {
					out = append(out, where+" "+inner)
				}
				return
			}
			out = append(out, where+": "+re.Reason)
		case errors.As(e, &rse):
			if rse.Err != nil {
				out = append(out, breaks(rse.Err)...)
				return
			}
			out = append(out, rse.Reason)
		default:
			out = append(out, e.Error())
		}
	}
	walk(err)
	return slices.Compact(out)
}

// Example is one example answer of the document.
type Example struct {
	Route  string // "GET /console/v1/gates/{id}"
	Status int
	Name   string // the example's name where the document names it, else "example"
	Value  any    // the decoded JSON
}

// Examples lists every 2xx example answer of the document, by route, status and name.
func (d *Document) Examples() []Example {
	var out []Example
	for _, path := range d.T.Paths.InMatchingOrder() {
		for method, op := range d.T.Paths.Value(path).Operations() {
			for code, resp := range op.Responses.Map() {
				var status int
				if _, err := fmt.Sscanf(code, "%d", &status); err != nil || status < 200 || status > 299 || resp.Value == nil {
					continue
				}
				mt := resp.Value.Content.Get("application/json")
				if mt == nil {
					continue
				}
				route := method + " " + path
				add := func(name string, v any) {
					if v != nil {
						out = append(out, Example{Route: route, Status: status, Name: name, Value: v})
					}
				}
				if named, ok := nestedExamples(mt.Example); ok {
					for _, n := range slices.Sorted(maps.Keys(named)) {
						add(n, named[n])
					}
				} else {
					add("example", mt.Example)
				}
				names := make([]string, 0, len(mt.Examples))
				for n := range mt.Examples {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					if ex := mt.Examples[n]; ex != nil && ex.Value != nil {
						add(n, ex.Value.Value)
					}
				}
				if mt.Example == nil && len(mt.Examples) == 0 && mt.Schema != nil && mt.Schema.Value != nil {
					add("schema example", mt.Schema.Value.Example)
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Route < out[j].Route })
	return out
}

// nestedExamples splits an example that holds named examples rather than an answer: GET
// /segments/{id} writes {"id_list": {"message": ..., "data": ...}, "rule_based": {...}} under
// `example` where `examples` was meant. An answer of the service is an envelope (message, data)
// itself, so an example whose every value is one, and which is none, is taken as its values.
func nestedExamples(v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 || isEnvelope(m) {
		return nil, false
	}
	for _, x := range m {
		inner, ok := x.(map[string]any)
		if !ok || !isEnvelope(inner) {
			return nil, false
		}
	}
	return m, true
}

func isEnvelope(m map[string]any) bool {
	_, msg := m["message"]
	_, data := m["data"]
	return msg || data
}
