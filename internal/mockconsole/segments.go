// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// SegmentRule is one rule of a rule_based segment: a gate rule's shape.
type SegmentRule = Rule

// SegmentRules is the seed's name of a segment's rule.
type SegmentRules = SegmentRule

// Segment is an id_list or rule_based segment as the mock holds it. Rules are every rule of a
// rule_based segment; IDs the ids of an id_list one, in the order they were added.
type Segment struct {
	ID               string
	Name             string
	IsEnabled        bool
	Description      string
	LastModifierName string
	LastModifierID   string
	Type             string
	IDType           string
	Tags             []string
	Rules            []SegmentRule
	IDs              []string
	// Count is the number the service reports for a seeded segment without ids or rules; otherwise
	// the number of ids (or rules).
	Count int
}

type segmentState struct {
	seg      Segment
	idSet    map[string]struct{} // the ids the list holds once every write has taken effect
	counter  int                 // the highest counter of any rule id the segment has had
	version  int                 // the id list's currentVersion: writes that have taken effect
	created  int64               // when the segment was created (ms), 0 for a seeded one
	lag      *idLag              // writes on their way (segments_scale.go); nil: reads show seg.IDs
	archived bool                // every write is refused (PUT /segments/{id}/archive)
}

// segmentWire is a segment as the service answers it: rules in the seed's form (one rule, an
// object) or the live form (an array of every rule).
type segmentWire struct {
	ID               string   `json:"id"`
	Name             string   `json:"name"`
	IsEnabled        bool     `json:"isEnabled"`
	Description      string   `json:"description"`
	LastModifierName string   `json:"lastModifierName"`
	LastModifierID   string   `json:"lastModifierID"`
	Type             string   `json:"type"`
	IDType           string   `json:"idType"`
	Count            int      `json:"count"`
	Tags             []string `json:"tags"`
	Rules            any      `json:"rules,omitempty"`
	CreatorID        string   `json:"creatorID"`
	CreatorName      string   `json:"creatorName"`
	CreatorEmail     *string  `json:"creatorEmail"`
	CreatedTime      int64    `json:"createdTime"`
	Audited
}

var (
	segmentIDPattern   = regexp.MustCompile(`^[A-Za-z0-9_-]{3,100}$`)
	segmentNamePattern = regexp.MustCompile(`^[A-Za-z0-9 _-]{3,100}$`)
	// SegmentConditionTypes are the only condition types the service accepts in segments (gates
	// accept more: locale, url, public, time, passes_gate, ...).
	SegmentConditionTypes = []string{
		"app_version", "browser_name", "browser_version", "country", "custom_field", "email", "environment_tier",
		"fails_segment", "ip_address", "os_name", "os_version", "passes_segment", "unit_id", "user_id",
	}
)

const (
	segmentRuleBased = "rule_based"
	segmentIDList    = "id_list"
	// maxIDsPerWrite is the most ids one write of a segment's id list takes.
	maxIDsPerWrite = 1000
	// maxIDPage is the largest page of ids the service answers; a larger limit is refused.
	maxIDPage = 100
)

// IDListLimit is the id endpoints' own limit (PATCH and DELETE /segments/{id}/id_list), on top of the project's.
var (
	DefaultIDListLimit = IDLimit{N: 12, Window: 10 * time.Second}
	DefaultIDListLong  = IDLimit{N: 900, Window: 15 * time.Minute}
)

// IDLimit is one tier of the id endpoints' limit.
type IDLimit struct {
	N      int
	Window time.Duration
}

// SetIDListLimits replaces the id endpoints' own limit (tests lower it); no tier disables it.
func (s *Server) SetIDListLimits(limits ...IDLimit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.idTiers = nil
	for _, l := range limits {
		if l.N > 0 && l.Window > 0 {
			s.idTiers = append(s.idTiers, &writeTier{limit: l.N, window: l.Window})
		}
	}
}

func (st *segmentState) wire(live bool) segmentWire {
	sg := st.seg
	w := segmentWire{ID: sg.ID, Name: sg.Name, IsEnabled: sg.IsEnabled, Description: sg.Description,
		LastModifierName: sg.LastModifierName, LastModifierID: sg.LastModifierID, Type: sg.Type, IDType: sg.IDType,
		Count: sg.count(), Tags: nonNilStrings(slices.Clone(sg.Tags)),
		CreatorID: modifierID, CreatorName: modifierName, CreatedTime: st.created}
	w.LastModifiedTime = st.created
	if st.lag != nil {
		w.Count = len(st.lag.shown)
	}
	rules := cloneRules(sg.Rules)
	for i := range rules {
		if rules[i].ReturnValue == nil { // the document: an object, never null
			rules[i].ReturnValue = map[string]any{}
		}
	}
	switch {
	case live:
		w.Rules = rules
	case len(rules) > 0:
		w.Rules = rules[0]
	}
	return w
}

func (sg Segment) count() int {
	switch {
	case len(sg.IDs) > 0:
		return len(sg.IDs)
	case len(sg.Rules) > 0:
		return len(sg.Rules)
	}
	return sg.Count
}

func cloneRules(rules []SegmentRule) []SegmentRule {
	out := make([]SegmentRule, len(rules))
	for i, r := range rules {
		r.Conditions = withTargets(r.Conditions, copyJSON)
		r.ReturnValue = copyJSON(r.ReturnValue)
		r.ReturnValueJSON5 = copyJSON(r.ReturnValueJSON5)
		r.Environments = copyStrings(r.Environments)
		out[i] = r
	}
	return out
}

func (sg Segment) clone() Segment {
	sg.Tags = nonNilStrings(slices.Clone(sg.Tags))
	sg.Rules = cloneRules(sg.Rules)
	sg.IDs = slices.Clone(sg.IDs)
	sg.Count = sg.count()
	return sg
}

// SetSegments replaces every segment.
func (s *Server) SetSegments(sg []Segment) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.segments = map[string]*segmentState{}
	for _, x := range sg {
		s.putSegment(x)
	}
}

// PutSegment stores a segment as it is (drift in tests).
func (s *Server) PutSegment(sg Segment) { s.locked(func() { s.putSegment(sg) }) }

func (s *Server) putSegment(sg Segment) {
	sg = sg.clone()
	for i := range sg.Rules {
		r := &sg.Rules[i]
		r.Conditions = withTargets(r.Conditions, normJSON)
		r.ReturnValue = normJSON(r.ReturnValue)
	}
	st := &segmentState{seg: sg, idSet: map[string]struct{}{}}
	for _, id := range sg.IDs {
		st.idSet[id] = struct{}{}
	}
	if old, ok := s.segments[sg.ID]; ok {
		// A change in the console is a write that has taken effect at once.
		st.version, st.archived = old.version+1, old.archived
	}
	s.segments[sg.ID] = st
}

// Segment returns a copy of one segment.
func (s *Server) Segment(id string) (Segment, bool) {
	return stored(s, s.segments, id, func(st *segmentState) Segment { return st.seg.clone() })
}

// DeleteSegment removes a segment (drift in tests).
func (s *Server) DeleteSegment(id string) { remove(s, s.segments, id) }

// SegmentIDs lists the ids of every segment.
func (s *Server) SegmentIDs() []string { return sortedKeys(s, s.segments) }

func (s *Server) listSegments(r *http.Request) response {
	s.settleSegments()
	live := !s.habits.SegmentRuleObject
	return listByKey(s, r, s.segments, "/segments", "Segments", func(st *segmentState) segmentWire { return st.wire(live) })
}

// getSegment answers GET /segments/{id}, a live endpoint: rules in the live form.
func (s *Server) getSegment(id string) response {
	s.settleSegments()
	return readOne(s.segments, "Segment", id, func(st *segmentState) segmentWire { return st.wire(true) })
}

type createSegmentReq struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Type        string         `json:"type"`
	IDType      string         `json:"idType"`
	Tags        []string       `json:"tags"`
	Rules       *[]SegmentRule `json:"rules"`
}

func (s *Server) createSegment(body []byte) response {
	req, bad := decoded[createSegmentReq](body)
	if bad != nil {
		return *bad
	}
	switch {
	case !segmentIDPattern.MatchString(req.ID):
		return errResp(http.StatusBadRequest, "id must be 3 to 100 characters of letters, digits, _ and -")
	case utf8.RuneCountInString(req.Name) < 3:
		// The 2025 documents require a name: one left out is as short as "".
		return errResp(http.StatusBadRequest, "name must be longer than or equal to 3 characters")
	case !segmentNamePattern.MatchString(req.Name):
		return errResp(http.StatusBadRequest, "name must be 3 to 100 characters of letters, digits, space, _ and -")
	case len(req.Description) > 1000:
		return errResp(http.StatusBadRequest, "description must be at most 1000 characters")
	case req.Type != segmentRuleBased && req.Type != segmentIDList:
		return errResp(http.StatusBadRequest, "type must be one of rule_based, id_list")
	case req.Rules != nil && len(*req.Rules) > 0 && req.Type != segmentRuleBased:
		return errResp(http.StatusBadRequest, "rules are allowed only in rule_based segments")
	}
	if _, exists := s.segments[req.ID]; exists {
		return errResp(http.StatusBadRequest, "Segment %q already exists", req.ID)
	}
	st := &segmentState{seg: Segment{ID: req.ID, Name: req.Name, IsEnabled: true, Description: req.Description,
		LastModifierName: modifierName, LastModifierID: modifierID, Type: req.Type, IDType: req.IDType,
		Tags: nonNilStrings(req.Tags)}, idSet: map[string]struct{}{}, created: s.now().UnixMilli()}
	if st.seg.IDType == "" {
		st.seg.IDType = "userID"
	}
	if req.Rules != nil {
		if bad := segmentRulesRefused(*req.Rules); bad != nil {
			return *bad
		}
		st.seg.Rules = s.withRuleIDs(*req.Rules, nil, &st.counter)
	}
	s.segments[req.ID] = st
	return response{status: http.StatusCreated, body: marshal(map[string]any{"message": "Segment created successfully", "data": st.wire(true)}), contentType: "application/json"}
}

func segmentRulesRefused(rules []SegmentRule) *response {
	if bad := rulesRefused(rules); bad != nil {
		return bad
	}
	for i, r := range rules {
		for k, c := range r.Conditions {
			if !slices.Contains(SegmentConditionTypes, c.Type) {
				return ref(errResp(http.StatusBadRequest, "rules[%d].conditions[%d].type %q is not allowed in segments; allowed types: %s",
					i, k, c.Type, strings.Join(SegmentConditionTypes, ", ")))
			}
		}
	}
	return nil
}

func (s *Server) deleteSegment(id string) response {
	if _, miss := find(s.segments, "Segment", id); miss != nil {
		return *miss
	}
	delete(s.segments, id)
	return messageResp("Segment deleted successfully.")
}

// setSegmentRules answers POST /segments/{id}/conditional: the body is the array of rules, which replaces the segment's.
func (s *Server) setSegmentRules(id string, body []byte) response {
	st, rules, bad := writeTo[[]SegmentRule](s.segments, "Segment", id, body)
	if bad != nil {
		return *bad
	}
	if bad := refusedArchived(st); bad != nil {
		return *bad
	}
	if st.seg.Type != segmentRuleBased {
		return errResp(http.StatusBadRequest, "Segment %q is of type %s: only rule_based segments have rules", id, st.seg.Type)
	}
	if rules == nil {
		return errResp(http.StatusBadRequest, "the body must be an array of rules")
	}
	if bad := segmentRulesRefused(rules); bad != nil {
		return *bad
	}
	st.seg.Rules = s.withRuleIDs(rules, st.seg.Rules, &st.counter)
	st.seg.LastModifierName, st.seg.LastModifierID = modifierName, modifierID
	return okResp("Segment rules updated successfully", st.wire(true))
}

// idListOf finds an id_list segment, its writes due applied; any other type is the service's 400.
func (s *Server) idListOf(id string) (*segmentState, *response) {
	st, miss := find(s.segments, "Segment", id)
	if miss != nil {
		return nil, miss
	}
	st.settle(s.now(), false)
	if st.seg.Type != segmentIDList {
		return nil, ref(errResp(http.StatusBadRequest, "Segment %q is of type %s: only id_list segments have ids", id, st.seg.Type))
	}
	return st, nil
}

// getSegmentIDs answers GET /segments/{id}/id_list: one page of the ids, data {name, count, ids}.
func (s *Server) getSegmentIDs(r *http.Request, id string) response {
	st, bad := s.idListOf(id)
	if bad != nil {
		return *bad
	}
	// The limit asked for, before a habit reshapes the page (UnpagedLists answers everything).
	if l, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && l > maxIDPage {
		return errResp(http.StatusBadRequest, "limit must not be greater than %d", maxIDPage)
	}
	p, e := s.parsePage(r)
	if e != nil {
		return *e
	}
	if refusal := s.admitIDRead(s.now()); refusal != nil {
		return *refusal
	}
	shown := st.shownIDs()
	lo, hi, pg := p.window(len(shown), basePath+"/segments/"+id+"/id_list")
	return jsonResp(http.StatusOK, map[string]any{
		"message":    "Segment ids listed successfully",
		"data":       map[string]any{"name": st.seg.Name, "count": len(shown), "ids": nonNilStrings(slices.Clone(shown[lo:hi]))},
		"pagination": pg,
	})
}

type segmentIDsReq struct {
	IDs []string `json:"ids"`
}

// writeSegmentIDs answers PATCH /segments/{id}/id_list (add) and DELETE /segments/{id}/id_list (remove), within the id endpoints' own limit.
func (s *Server) writeSegmentIDs(id string, body []byte, add bool) response {
	st, bad := s.idListOf(id)
	if bad != nil {
		return *bad
	}
	req, bad := decoded[segmentIDsReq](body)
	if bad != nil {
		return *bad
	}
	switch {
	case len(req.IDs) == 0:
		return errResp(http.StatusBadRequest, "ids must not be empty")
	case len(req.IDs) > maxIDsPerWrite:
		return errResp(http.StatusBadRequest, "ids must hold at most %d ids", maxIDsPerWrite)
	}
	for i, v := range req.IDs {
		if strings.TrimSpace(v) == "" {
			return errResp(http.StatusBadRequest, "ids[%d] must not be empty", i)
		}
	}
	if bad := refusedArchived(st); bad != nil {
		return *bad
	}
	if add {
		if bad := s.refusedCap(st, req.IDs); bad != nil {
			return *bad
		}
	}
	if refusal := s.admitIDWrite(s.now()); refusal != nil {
		return *refusal
	}
	before := st.seg.IDs
	if st.lag == nil && s.idLag > 0 {
		before = slices.Clone(before) // the list reads show while this write is on its way
	}
	var changed []string
	if add {
		for _, v := range req.IDs {
			if _, has := st.idSet[v]; !has {
				st.idSet[v] = struct{}{}
				st.seg.IDs = append(st.seg.IDs, v)
				changed = append(changed, v)
			}
		}
	} else {
		gone := map[string]bool{}
		for _, v := range req.IDs {
			if _, has := st.idSet[v]; has {
				delete(st.idSet, v)
				gone[v] = true
				changed = append(changed, v)
			}
		}
		if len(gone) > 0 {
			st.seg.IDs = slices.DeleteFunc(st.seg.IDs, func(v string) bool { return gone[v] })
		}
	}
	s.recordIDWrite(st, before, add, changed)
	st.seg.LastModifierName, st.seg.LastModifierID = modifierName, modifierID
	if add { // the document's words, and no data
		return messageResp("IDs successfully added to Segment ID List")
	}
	return messageResp("IDs successfully removed from Segment ID List")
}

// admitIDWrite counts a write of ids against the id endpoints' own tiers, or refuses it with 429
// and the Retry-After of the full tier. s.mu is held.
func (s *Server) admitIDWrite(now time.Time) *response {
	return admitTiers(s.idTiers, now, func(t *writeTier) string {
		return fmt.Sprintf("Rate limit exceeded: at most %d id list writes per %s", t.limit, t.window)
	})
}

// admitTiers counts a request against tiers, or refuses it with 429, the words of the full tier
// and its Retry-After.
func admitTiers(tiers []*writeTier, now time.Time, words func(*writeTier) string) *response {
	var wait time.Duration
	var full *writeTier
	for _, t := range tiers {
		t.prune(now)
		if len(t.times) >= t.limit {
			if w := t.reset(now); full == nil || w > wait {
				wait, full = w, t
			}
		}
	}
	if full != nil {
		secs := max(int((wait+time.Second-1)/time.Second), 1)
		r := errResp(http.StatusTooManyRequests, "%s", words(full))
		r.header = http.Header{"Retry-After": {fmt.Sprint(secs)}}
		return &r
	}
	for _, t := range tiers {
		t.times = append(t.times, now)
	}
	return nil
}
