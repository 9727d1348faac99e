// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

func NewReleasePipelineList() list.ListResource {
	return newPagedList(pagedListSpec[console.ReleasePipeline, struct{}]{
		typeName: "release_pipeline",
		description: "Lists the release pipelines of the project, identified by `pipeline_id`; the display name " +
			"is the pipeline's name (its id when it has none). Takes no filter. With `include_resource = true` each " +
			"result carries the pipeline's phases, read from the list pages themselves (`GET /release_pipelines`).",
		pages:        (*console.Client).EachReleasePipelinesPage,
		failure:      framework.APIFailure{Op: "list", Object: "release pipelines"},
		identityAttr: pipelineIdentityAttr,
		identify: func(p *console.ReleasePipeline) (string, string) {
			if p.Name == "" {
				return p.ID, p.ID
			}
			return p.ID, p.Name
		},
		model: func(ctx context.Context, p *console.ReleasePipeline, nullTO timeouts.Value) (any, diag.Diagnostics) {
			m := releasePipelineModel{PipelineID: types.StringValue(p.ID), Timeouts: nullTO}
			return &m, setPipelineModel(ctx, &m, p)
		},
	})
}
