// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"net/http"
	"strconv"
)

// PipelineRule is a rule of a release pipeline phase. The service answers null environments
// when none are set.
type PipelineRule struct {
	ID           string      `json:"id,omitempty"`
	Name         string      `json:"name"`
	Conditions   []Condition `json:"conditions"`
	Environments []string    `json:"environments"`
}

// Phase is one step of a release pipeline.
type Phase struct {
	ID             string         `json:"id,omitempty"`
	Name           string         `json:"name"`
	TimeIntervalMs WholeNumber    `json:"timeIntervalMs"`
	RequiredReview bool           `json:"requiredReview"`
	Rules          []PipelineRule `json:"rules"`
}

// ReleasePipeline is a phased rollout.
type ReleasePipeline struct {
	ID             string      `json:"id"`
	Name           string      `json:"name"`
	CreatorID      string      `json:"creatorID"`
	CreatedTime    WholeNumber `json:"createdTime"`
	LastModifierID string      `json:"lastModifierID"`
	Phases         []Phase     `json:"phases"`
	// ActiveReview is set while a change of the pipeline waits for review.
	ActiveReview *ActiveReview `json:"activeReview,omitempty"`
}

// ReleasePipelineUpdate is the body of POST /release_pipelines/{id}.
type ReleasePipelineUpdate struct {
	Name   string  `json:"name"`
	Phases []Phase `json:"phases"`
}

// releasePipelines is GET /release_pipelines and /release_pipelines/{id}; a listing carries every
// pipeline with its phases.
var releasePipelines = collection[ReleasePipeline]{path: "/release_pipelines", one: "release pipeline", many: "release pipelines"}

func (p *ReleasePipeline) activeReview() *ActiveReview { return p.ActiveReview }

// GetReleasePipeline reads GET /release_pipelines/{id}.
func (c *Client) GetReleasePipeline(ctx context.Context, id string) (*ReleasePipeline, error) {
	return releasePipelines.get(ctx, c, id)
}

// UpdateReleasePipeline sends the pipeline's name and complete phase list.
func (c *Client) UpdateReleasePipeline(ctx context.Context, id string, u ReleasePipelineUpdate) (*ReleasePipeline, error) {
	phases := make([]Phase, len(u.Phases))
	for i, ph := range u.Phases {
		rules := make([]PipelineRule, len(ph.Rules))
		for j, r := range ph.Rules {
			r.Conditions = orEmpty(r.Conditions)
			rules[j] = r
		}
		ph.Rules = rules
		phases[i] = ph
	}
	u.Phases = phases
	r := request{method: http.MethodPost, path: "/release_pipelines/" + pathEscape(id), body: u, op: "update release pipeline", object: strconv.Quote(id)}
	// An answer that leaves out the phases it was sent is completed by a read.
	return writeReviewed(ctx, c, r, func() (*ReleasePipeline, error) { return c.GetReleasePipeline(ctx, id) },
		func(p *ReleasePipeline) bool { return p.Phases == nil && len(phases) > 0 })
}

// EachReleasePipelinesPage reads GET /release_pipelines page by page, handing each page to fn in
// order as it arrives; an error of fn stops the listing.
func (c *Client) EachReleasePipelinesPage(ctx context.Context, opts ListOptions, fn func([]ReleasePipeline) error) error {
	return releasePipelines.each(ctx, c, opts, fn)
}
