// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

var _ list.ListResourceWithConfigure = &releasePipelineList{}

func NewReleasePipelineList() list.ListResource {
	return &releasePipelineList{resourceData{typeName: "release_pipeline"}}
}

type releasePipelineList struct{ resourceData }

func (l *releasePipelineList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the release pipelines of the project, identified by `pipeline_id`; the display name " +
			"is the pipeline's name (its id when it has none). Takes no filter. With `include_resource = true` each " +
			"result carries the pipeline's phases, read from the list pages themselves (`GET /release_pipelines`).",
	}
}

func (l *releasePipelineList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	client, nullTO, ok := listSetup(ctx, req, stream, l.data)
	if !ok {
		return
	}
	opts := console.ListOptions{MaxRecords: int(max(req.Limit, 0))}
	stream.Results = listStream(req.Limit, apiFailure{"list", "release pipelines"},
		func(fn func([]console.ReleasePipeline) error) error {
			return client.EachReleasePipelinesPage(ctx, opts, fn)
		},
		func(p console.ReleasePipeline) (list.ListResult, bool) {
			name := p.Name
			if name == "" {
				name = p.ID
			}
			return listedResult(ctx, req, pipelineIdentityAttr, p.ID, name, func() (any, diag.Diagnostics) {
				m := releasePipelineModel{PipelineID: types.StringValue(p.ID), Timeouts: nullTO}
				return &m, setPipelineModel(ctx, &m, &p)
			})
		})
}
