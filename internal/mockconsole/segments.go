// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import "net/http"

// Segments (id lists and rule-based): listed only.

// SetSegments replaces the segment list.
func (s *Server) SetSegments(sg []Segment) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.segments = make([]Segment, len(sg))
	for i, x := range sg {
		x = x.clone()
		if x.Rules != nil {
			x.Rules.Conditions = withTargets(x.Rules.Conditions, normJSON)
			x.Rules.ReturnValue = normJSON(x.Rules.ReturnValue)
		}
		s.segments[i] = x
	}
}

func (s *Server) listSegments(r *http.Request) response {
	p, e := s.parsePage(r)
	if e != nil {
		return *e
	}
	return listed(p, "/segments", "Segments", len(s.segments), func(i int) Segment { return s.segments[i].clone() })
}
