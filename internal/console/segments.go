// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Segment is an id-list or rule-based segment.
type Segment struct {
	ID               string `json:"id"`
	Name             string `json:"name,omitempty"`
	IsEnabled        bool   `json:"isEnabled"`
	Description      string `json:"description"`
	LastModifierName string `json:"lastModifierName"`
	LastModifierID   string `json:"lastModifierID"`
	Type             string `json:"type"`
	IDType           string `json:"idType,omitempty"`
	// Count is the service's number of ids (or rules); nil where it sends none: the 2025-12 document
	// dropped it from segments, and a count not sent is no count of 0 (KnownCount).
	Count *WholeNumber `json:"count"`
	Tags  []string     `json:"tags"`
	// Rules are every rule of a rule-based segment, in order; nil for an id-list segment.
	Rules []SegmentRule `json:"rules"`
	// rulesListed tells that rules came as an array, which holds every rule (the seed's object form
	// shows one).
	rulesListed bool
}

// KnownCount is the number of ids or rules the segment's own read tells: its count where the
// service sends one, else for a rule-based segment the number of its rules when they came as an
// array. known is false where the read cannot tell (an id list without count: only its pages can).
func (s *Segment) KnownCount() (n int64, known bool) {
	switch {
	case s.Count != nil:
		return int64(*s.Count), true
	case s.Type == SegmentRuleBased && s.rulesListed:
		return int64(len(s.Rules)), true
	}
	return 0, false
}

// SegmentRule has the gate rule's shape (the service documents it as such, without returnValue,
// which the seed's form may still carry): one type keeps one comparison of what was sent.
type SegmentRule = Rule

// Segment types. The API writes only rule_based and id_list segments; the other two exist in
// projects (made in the console or by the service) and are read as what they are.
const (
	SegmentRuleBased       = "rule_based"
	SegmentIDList          = "id_list"
	SegmentUserStoreIDList = "user_store_id_list"
	SegmentAnalysisList    = "analysis_list"
)

// SegmentTypes are every segment type the service names, the writable ones first.
var SegmentTypes = []string{SegmentRuleBased, SegmentIDList, SegmentUserStoreIDList, SegmentAnalysisList}

// WritableSegmentType tells whether the console API can create and change segments of type t.
func WritableSegmentType(t string) bool { return t == SegmentRuleBased || t == SegmentIDList }

// MaxIDsPerWrite is the most ids one PATCH or DELETE of a segment's id list carries.
const MaxIDsPerWrite = 1000

// maxIDPageSize is the most ids asked for per page: the live service refuses a larger limit.
const maxIDPageSize = 100

// The id endpoints' own limit, on top of the project's write limit.
var (
	IDListLimit     = Limit{N: 12, Window: 10 * time.Second}
	IDListLongLimit = Limit{N: 900, Window: 15 * time.Minute}
)

// segments is GET /segments and /segments/{id}.
var segments = collection[Segment]{path: "/segments", one: "segment", many: "segments"}

// ListSegments reads every page of GET /segments.
func (c *Client) ListSegments(ctx context.Context, opts ListOptions) ([]Segment, error) {
	return segments.all(ctx, c, opts)
}

// EachSegmentsPage reads GET /segments page by page, handing each page to fn in order.
func (c *Client) EachSegmentsPage(ctx context.Context, opts ListOptions, fn func([]Segment) error) error {
	return segments.each(ctx, c, opts, fn)
}

// GetSegment reads GET /segments/{id} (without the ids of an id-list segment: SegmentIDs), or takes
// the segment from a list page of a refresh that reads many (shared_reads.go).
func (c *Client) GetSegment(ctx context.Context, id string) (*Segment, error) {
	return sharedGet(ctx, c, c.segmentReads, segments, true, wholeSegment, id)
}

// wholeSegment tells whether a segment on a list page shows all that a read of it does: a
// rule-based segment whose rules come as an array of count rules (a page may show fewer). An
// id-list segment, or rules in the seed's form (one rule shown), is read on its own.
func wholeSegment(raw json.RawMessage) bool {
	var s struct {
		Type  string          `json:"type"`
		Count WholeNumber     `json:"count"`
		Rules json.RawMessage `json:"rules"`
	}
	if json.Unmarshal(raw, &s) != nil || s.Type != SegmentRuleBased {
		return false
	}
	var rules []json.RawMessage
	return json.Unmarshal(s.Rules, &rules) == nil && rules != nil && len(rules) == int(s.Count)
}

// NewSegment is what POST /segments takes; Rules only for a rule-based segment.
type NewSegment struct {
	ID          string        `json:"id"`
	Name        string        `json:"name,omitempty"`
	Description string        `json:"description,omitempty"`
	Type        string        `json:"type"`
	IDType      string        `json:"idType,omitempty"`
	Tags        []string      `json:"tags"`
	Rules       []SegmentRule `json:"rules,omitempty"`
}

// CreateSegment sends POST /segments once: a create whose answer was lost is never sent again (the
// caller reads the segment back), since a second attempt would meet its own segment as "exists".
func (c *Client) CreateSegment(ctx context.Context, s NewSegment) (*Segment, error) {
	s.Tags = orEmpty(s.Tags)
	r := request{method: http.MethodPost, path: segments.path, body: s, op: "create segment", object: strconv.Quote(s.ID), noResend: true}
	var out Segment
	err := c.do(ctx, r, &out)
	if emptyAnswer(err) {
		return c.GetSegment(ctx, s.ID)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteSegment sends DELETE /segments/{id}.
func (c *Client) DeleteSegment(ctx context.Context, id string) error {
	return c.do(ctx, request{method: http.MethodDelete, path: segments.path + "/" + pathEscape(id), op: "delete segment", object: strconv.Quote(id)}, nil)
}

// SetSegmentRules replaces the rules of a rule-based segment (POST /segments/{id}/conditional, the
// body the array of rules) and returns the segment as the service then holds it.
func (c *Client) SetSegmentRules(ctx context.Context, id string, rules []SegmentRule) (*Segment, error) {
	body := make([]SegmentRule, len(rules))
	for i, r := range rules {
		r.Conditions = orEmpty(r.Conditions)
		r.ReturnValue = nil // not part of a segment rule
		body[i] = r
	}
	// The document answers a message alone ({"message": "Rules successfully updated"}): the rules
	// were taken, and the segment is read back.
	r := request{method: http.MethodPost, path: segments.path + "/" + pathEscape(id) + "/conditional", body: body, op: "update rules of segment", object: strconv.Quote(id),
		dataOptional: true}
	var out Segment
	err := c.do(ctx, r, &out)
	// An answer without the segment (or without its rules) is completed by a read.
	if emptyAnswer(err) || err == nil && (out.ID == "" || out.Rules == nil && len(body) > 0) {
		return c.GetSegment(ctx, id)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// segmentIDPage is the data of GET /segments/{id}/id_list.
type segmentIDPage struct {
	Name string `json:"name"`
	// Count is the number of ids in the whole list, not on the page; nil where the service sends none.
	Count *WholeNumber `json:"count"`
	IDs   []string     `json:"ids"`
}

// IDList is an id-list segment's ids as GET /segments/{id}/id_list answers them.
type IDList struct {
	// Name is the segment's name as the id list's read gives it.
	Name string
	// Count is the service's number of ids in the list, as its first page tells it: nil where it
	// tells none (a count not sent is no count of 0). It may lag the ids by seconds to minutes after
	// a write (the live service), so it never stands in for them.
	Count *WholeNumber
	// IDs are every id of every page, in order, without repeats; [] for none.
	IDs []string
}

// SegmentIDs reads every page of GET /segments/{id}/id_list, at most 100 ids a page (SegmentIDList).
func (c *Client) SegmentIDs(ctx context.Context, id string) ([]string, error) {
	l, err := c.SegmentIDList(ctx, id)
	if err != nil {
		return nil, err
	}
	return l.IDs, nil
}

// SegmentIDList reads every page of GET /segments/{id}/id_list, at most 100 ids a page, with the
// list's name and count. A page that brings nothing new (a service that ignores page) ends the
// listing.
func (c *Client) SegmentIDList(ctx context.Context, id string) (*IDList, error) {
	r := request{method: http.MethodGet, path: segments.path + "/" + pathEscape(id) + "/id_list", op: "read ids of segment", object: strconv.Quote(id)}
	limit := min(c.pageSize, maxIDPageSize)
	out := &IDList{}
	seen := map[string]struct{}{}
	for page := 1; page <= maxPages; {
		r.query = url.Values{"page": {strconv.Itoa(page)}, "limit": {strconv.Itoa(limit)}}
		raw, err := c.send(ctx, r)
		if err != nil {
			return nil, err
		}
		var env envelope[segmentIDPage]
		if err := decodeEnvelope(r, raw, &env); err != nil {
			return nil, c.redactDecodeError(err)
		}
		if page == 1 {
			out.Name, out.Count = env.Data.Name, env.Data.Count
		}
		fresh := 0
		for _, v := range env.Data.IDs {
			if _, dup := seen[v]; !dup {
				seen[v] = struct{}{}
				out.IDs = append(out.IDs, v)
				fresh++
			}
		}
		pg := env.Pagination
		if fresh == 0 || pg == nil || pg.NextPage == nil || *pg.NextPage == "" {
			break
		}
		next, l, err := nextPageParams(pg, page)
		if err != nil {
			return nil, &RequestError{Op: r.op, Object: r.object, Err: err}
		}
		page, limit = next, min(l, maxIDPageSize)
	}
	if out.IDs == nil {
		out.IDs = []string{}
	}
	return out, nil
}

// AddSegmentIDs adds ids to an id-list segment (PATCH /segments/{id}/id_list), in chunks of at
// most MaxIDsPerWrite, within the id endpoints' own limit. On failure the error is an
// *IDWriteError: ids[:Written] were taken (the chunks answered before the one that failed).
func (c *Client) AddSegmentIDs(ctx context.Context, id string, ids []string) error {
	return c.writeSegmentIDs(ctx, http.MethodPatch, "add ids to segment", id, ids)
}

// RemoveSegmentIDs removes ids from an id-list segment (DELETE /segments/{id}/id_list with a body);
// errors as AddSegmentIDs's.
func (c *Client) RemoveSegmentIDs(ctx context.Context, id string, ids []string) error {
	return c.writeSegmentIDs(ctx, http.MethodDelete, "remove ids from segment", id, ids)
}

// IDWriteError is a write of a segment's ids that failed part-way: the first Written ids were
// taken by the service, the rest were not sent or refused (the request that failed changes
// nothing: the service applies a write of ids whole or not at all).
type IDWriteError struct {
	Written int
	Err     error
}

func (e *IDWriteError) Error() string { return e.Err.Error() }
func (e *IDWriteError) Unwrap() error { return e.Err }

// IDsWritten is how many ids of a failed AddSegmentIDs or RemoveSegmentIDs the service took.
func IDsWritten(err error) int {
	if e, ok := errors.AsType[*IDWriteError](err); ok {
		return e.Written
	}
	return 0
}

// IsIDListCap reports the service refusing ids because the list would outgrow its size limit
// (10,000 ids without the project's Large ID Lists beta): a 400 "ID list size limit exceeded".
func IsIDListCap(err error) bool {
	return refusedSaying(err, http.StatusBadRequest, "id list size limit")
}

// IsArchived reports a write refused because its object (a segment) is archived: a 400
// "Segment ... is archived and cannot be modified."
func IsArchived(err error) bool {
	return refusedSaying(err, http.StatusBadRequest, "is archived")
}

// refusedSaying reports an API error of status whose message holds words (any case).
func refusedSaying(err error, status int, words string) bool {
	ae, ok := errors.AsType[*APIError](err)
	return ok && ae.StatusCode == status && strings.Contains(strings.ToLower(ae.Message), words)
}

// IDListMetadata is GET /segments/{id}/idlist_metadata: the version of an id list rises
// with every write that has taken effect; IsUpdating is true while writes are on their way.
type IDListMetadata struct {
	CurrentVersion json.RawMessage `json:"currentVersion"`
	IsUpdating     bool            `json:"isUpdating"`
}

// Version is the list's version as text ("" when the service gave none). A whole number is written
// as one in any JSON form it came in (`3`, `3.0`, `"3"`), so that versions compare by value and a
// provider can count the steps its own writes add.
func (m *IDListMetadata) Version() string {
	v := strings.TrimSpace(string(m.CurrentVersion))
	if v == "null" {
		return ""
	}
	if u, err := strconv.Unquote(v); err == nil {
		v = u
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.FormatInt(int64(f), 10)
	}
	return v
}

// SegmentIDListMetadata reads GET /segments/{id}/idlist_metadata.
func (c *Client) SegmentIDListMetadata(ctx context.Context, id string) (*IDListMetadata, error) {
	r := request{method: http.MethodGet, path: segments.path + "/" + pathEscape(id) + "/idlist_metadata", op: "read id list version of segment", object: strconv.Quote(id)}
	var out IDListMetadata
	if err := c.do(ctx, r, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// writeSegmentIDs sends ids in chunks. Adding or removing an id twice changes nothing, so a chunk
// whose answer was lost may be sent again. The chunks wait for the id endpoints' pacer before the
// project's: while they wait for their own limit, the project's other writes go ahead.
func (c *Client) writeSegmentIDs(ctx context.Context, method, op, id string, ids []string) error {
	ctx = withOwnPacer(ctx, c.idPacer)
	for start := 0; start < len(ids); start += MaxIDsPerWrite {
		chunk := ids[start:min(start+MaxIDsPerWrite, len(ids))]
		body := struct {
			IDs []string `json:"ids"`
		}{chunk}
		r := request{method: method, path: segments.path + "/" + pathEscape(id) + "/id_list", body: body, op: op, object: strconv.Quote(id)}
		if err := c.do(ctx, r, nil); err != nil {
			return &IDWriteError{Written: start, Err: err}
		}
	}
	return nil
}

// UnmarshalJSON accepts rules as an object (the seed's form: one rule) or as an array of rules (the
// live schema); an empty array, like null, is a segment without rules (an id-list segment).
func (s *Segment) UnmarshalJSON(b []byte) error {
	type plain Segment
	var aux struct {
		plain
		Rules json.RawMessage `json:"rules"`
	}
	switch t := bytes.TrimSpace(b); {
	case string(t) == "null":
		return nil
	case len(t) == 0 || t[0] != '{':
		return fmt.Errorf("a segment must be a JSON object, got %s", truncate(string(t), 40))
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("segment field %q: the service sent a JSON %s where the provider expects another type", te.Field, te.Value)
		}
		return err
	}
	*s = Segment(aux.plain)
	s.Rules = nil
	raw := bytes.TrimSpace(aux.Rules)
	switch {
	case len(raw) == 0 || string(raw) == "null":
	case raw[0] == '[':
		if err := json.Unmarshal(raw, &s.Rules); err != nil {
			return fmt.Errorf("segment %q: rules: %w", s.ID, err)
		}
		s.rulesListed = true
		if len(s.Rules) == 0 {
			s.Rules = []SegmentRule{}
		}
	case raw[0] == '{':
		var one SegmentRule
		if err := json.Unmarshal(raw, &one); err != nil {
			return fmt.Errorf("segment %q: rules: %w", s.ID, err)
		}
		s.Rules = []SegmentRule{one}
	default:
		return fmt.Errorf("segment %q: rules must be an object or an array of rules, got %s", s.ID, truncate(string(raw), 40))
	}
	return nil
}
