// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// listedSegment is a segment of a list page, with the reads its resource may need: the list pages
// carry no ids, and in the seed's form only the first of several rules.
type listedSegment struct {
	console.Segment
	read func(ctx context.Context) (*segmentRead, error) // the segment and, for an id list, its ids
	ids  func(ctx context.Context) ([]string, error)     // an id list's ids alone
}

func NewSegmentList() list.ListResource {
	return newPagedList(pagedListSpec[listedSegment, segmentListModel]{
		typeName: "segment",
		description: "Lists the segments of the project, one `featureconsole_segment` each, identified by `segment_id`; " +
			"the display name is the segment's name. With `include_resource = true` a `rule_based` segment is built " +
			"from the list pages (`GET /segments`) unless the page shows fewer rules than the segment has; an `id_list` " +
			"segment's ids are not on the list pages, so they are read for each such segment (`GET /segments/{id}/id_list`, " +
			"100 ids a request). Segments of the types the console API cannot write (`user_store_id_list`, `analysis_list`) " +
			"are left out, with a warning naming them.",
		config: map[string]listschema.Attribute{
			"type": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only segments of this type: `rule_based` or `id_list`. Omit for every segment.",
				Validators:          []validator.String{stringvalidator.OneOf(console.SegmentRuleBased, console.SegmentIDList)},
			},
		},
		filter: func(_ context.Context, cfg *segmentListModel) (func(*listedSegment) bool, diag.Diagnostics) {
			typ, ok := framework.KnownString(cfg.Type)
			if !ok || typ == "" {
				return nil, nil
			}
			return func(s *listedSegment) bool { return s.Type == typ }, nil
		},
		pages: func(client *console.Client, ctx context.Context, opts console.ListOptions, fn func([]listedSegment) error) error {
			r := &segmentResource{resourceData{data: &providerData{client: client}}}
			return client.EachSegmentsPage(ctx, opts, func(page []console.Segment) error {
				out := make([]listedSegment, len(page))
				for i, s := range page {
					id := s.ID
					out[i] = listedSegment{Segment: s,
						read: func(ctx context.Context) (*segmentRead, error) { return r.readSegment(ctx, id) },
						ids:  func(ctx context.Context) ([]string, error) { return client.SegmentIDs(ctx, id) }}
				}
				return fn(out)
			})
		},
		leftOut: func(s *listedSegment) string {
			if console.WritableSegmentType(s.Type) {
				return ""
			}
			return fmt.Sprintf("%q (%s)", s.ID, s.Type)
		},
		leftOutWarning: func(names []string) (string, string) {
			return "Segments left out: featureconsole_segment cannot manage their type",
				fmt.Sprintf("These segments are of types the console API cannot create or change, so no featureconsole_segment "+
					"is listed or generated for them: %s. A user_store_id_list segment's ids are kept in your own user store, and an "+
					"analysis_list segment is made by the service's analyses. Read them with the featureconsole_segments data source.",
					strings.Join(names, ", "))
		},
		failure:      framework.APIFailure{Op: "list", Object: "segments"},
		identityAttr: segmentIdentityAttr,
		identify: func(s *listedSegment) (string, string) {
			if s.Name != "" {
				return s.ID, s.Name
			}
			return s.ID, s.ID
		},
		model: func(ctx context.Context, s *listedSegment, nullTO timeouts.Value) (any, diag.Diagnostics) {
			m := segmentModel{SegmentID: types.StringValue(s.ID), Timeouts: nullTO,
				Rules: types.ListNull(segmentRuleObjectType), IDs: segmentIDsNull()}
			full := &segmentRead{Segment: &s.Segment}
			var err error
			switch {
			case s.Type == console.SegmentIDList:
				// The list page has every field but the ids: read those alone.
				full.ids, err = s.ids(ctx)
			case s.Type == console.SegmentRuleBased && !wholeRules(&s.Segment):
				full, err = s.read(ctx)
			}
			if err != nil {
				var diags diag.Diagnostics
				framework.APIFailure{Op: "read", Object: fmt.Sprintf("segment %q", s.ID)}.Add(ctx, &diags, nil, err)
				return nil, diags
			}
			if full.Type == console.SegmentIDList && full.ids == nil {
				full.ids = []string{}
			}
			return &m, flattenSegment(ctx, full.Segment, full.ids, &m)
		},
	})
}

type segmentListModel struct {
	Type types.String `tfsdk:"type"`
}

// wholeRules tells whether a rule-based segment on a list page shows every rule it has: its count
// says so, or its rules came as an array (the seed's form shows one rule).
func wholeRules(s *console.Segment) bool {
	n, ok := s.KnownCount()
	return ok && int(n) <= len(s.Rules)
}
