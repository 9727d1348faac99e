// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package apidoc

import (
	"encoding/json"
	"net/http"
	"slices"
)

// ExampleHandler is a service that answers exactly as the document's examples do: each request
// with the 2xx example of its route, whatever the id or the body; where a route has several named
// examples, the first whose name prefer lists (the GET segment's "id_list" or "rule_based"), else
// the first. A route without an example is answered 404. It holds no state: a write changes
// nothing a read then shows, as a client reading the examples alone would see.
func (d *Document) ExampleHandler(prefer ...string) http.Handler {
	byRoute := map[string][]Example{}
	for _, ex := range d.Examples() {
		byRoute[ex.Route] = append(byRoute[ex.Route], ex)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		examples := byRoute[d.Route(r.Method, r.URL.RequestURI())]
		if len(examples) == 0 {
			w.WriteHeader(http.StatusNotFound)
			_ = json.NewEncoder(w).Encode(map[string]any{"status": 404, "message": "Not Found: the document has no example of " + r.Method + " " + r.URL.Path})
			return
		}
		pick := examples[0]
		for _, ex := range examples {
			if slices.Contains(prefer, ex.Name) {
				pick = ex
				break
			}
		}
		w.WriteHeader(pick.Status)
		_ = json.NewEncoder(w).Encode(pick.Value)
	})
}
