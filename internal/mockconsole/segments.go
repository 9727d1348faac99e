// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import "net/http"

// SegmentRules is the rule object of a rule_based segment.
type SegmentRules struct {
	Name           string      `json:"name"`
	PassPercentage float64     `json:"passPercentage"`
	Conditions     []Condition `json:"conditions"`
	ReturnValue    any         `json:"returnValue"`
}

// Segment is an id_list or rule_based segment. Rules is nil (absent on the
// wire) for id_list segments.
type Segment struct {
	ID               string        `json:"id"`
	IsEnabled        bool          `json:"isEnabled"`
	Description      string        `json:"description"`
	LastModifierName string        `json:"lastModifierName"`
	LastModifierID   string        `json:"lastModifierID"`
	Type             string        `json:"type"`
	Count            int           `json:"count"`
	Tags             []string      `json:"tags"`
	Rules            *SegmentRules `json:"rules,omitempty"`
}

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

func (sg Segment) clone() Segment {
	sg.Tags = nonNilStrings(sg.Tags)
	if sg.Rules != nil {
		r := *sg.Rules
		r.Conditions = withTargets(r.Conditions, copyJSON)
		r.ReturnValue = copyJSON(r.ReturnValue)
		sg.Rules = &r
	}
	return sg
}
