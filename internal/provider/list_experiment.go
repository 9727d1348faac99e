// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

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

// listedExperimentStatuses are the statuses the list's filter takes: every status the service
// answers, the ones it sets itself included.
var listedExperimentStatuses = append(append([]string{}, experimentStatuses...), console.ExperimentArchived)

func NewExperimentList() list.ListResource {
	return newPagedList(pagedListSpec[console.Experiment, experimentListModel]{
		typeName: "experiment",
		description: "Lists the experiments of the project, one `featureconsole_experiment` per experiment, identified by " +
			"`experiment_id` and displayed by name. With `include_resource = true` each result carries the whole " +
			"experiment, its groups, metrics and status included, read from the list pages themselves, not one read per " +
			"experiment.",
		config: map[string]listschema.Attribute{
			"status": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only experiments in this status: " + framework.CodeList(listedExperimentStatuses) + ". Omit for every experiment.",
				Validators:          []validator.String{stringvalidator.OneOf(listedExperimentStatuses...)},
			},
			"tags": tagsFilterAttribute("experiment"),
		},
		filter: experimentFilter,
		pages: func(client *console.Client, ctx context.Context, opts console.ListOptions, fn func([]console.Experiment) error) error {
			return client.EachExperimentsPage(ctx, "", opts, fn)
		},
		failure:      framework.APIFailure{Op: "list", Object: "experiments"},
		identityAttr: experimentIdentityAttr,
		identify:     func(e *console.Experiment) (string, string) { return nameOrID(e.ID, e.Name) },
		model: func(ctx context.Context, e *console.Experiment, nullTO timeouts.Value) (any, diag.Diagnostics) {
			m := experimentModel{ID: types.StringValue(e.ID), ArchiveOnDestroy: types.BoolValue(false), Timeouts: nullTO}
			flattenExperiment(ctx, e, &m.experimentFields)
			readArchived(e, types.StringNull(), &m)
			return &m, nil
		},
	})
}

type experimentListModel struct {
	Status types.String `tfsdk:"status"`
	Tags   types.List   `tfsdk:"tags"`
}

// experimentFilter keeps the experiments in the status asked for that carry every tag asked for;
// without either every experiment (nil), so that the service's pages stop at the limit.
func experimentFilter(ctx context.Context, cfg *experimentListModel) (func(*console.Experiment) bool, diag.Diagnostics) {
	tags, diags := wantedTags(ctx, cfg.Tags)
	status, _ := framework.KnownString(cfg.Status)
	if len(tags) == 0 && status == "" {
		return nil, diags
	}
	return func(e *console.Experiment) bool {
		return (status == "" || e.Status == status) && hasEveryTag(e.Tags, tags)
	}, diags
}
