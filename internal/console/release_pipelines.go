// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"fmt"
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

// GetReleasePipeline reads GET /release_pipelines/{id}, or takes the pipeline from a list page of a
// refresh that reads many (shared_reads.go). With review settings respected every pipeline is read
// on its own: a page may not show its pending review.
func (c *Client) GetReleasePipeline(ctx context.Context, id string) (*ReleasePipeline, error) {
	return sharedGet(ctx, c, c.pipelineReads, releasePipelines, !c.review, nil, id)
}

// UpdateReleasePipeline sends the pipeline's name and complete phase list.
func (c *Client) UpdateReleasePipeline(ctx context.Context, id string, u ReleasePipelineUpdate) (*ReleasePipeline, error) {
	phases := phasesForWrite(u.Phases)
	u.Phases = phases
	r := request{method: http.MethodPost, path: "/release_pipelines/" + pathEscape(id), body: u, op: "update release pipeline", object: strconv.Quote(id)}
	// An answer that leaves out the phases it was sent is completed by a read.
	return writeReviewed(ctx, c, r, func() (*ReleasePipeline, error) { return c.GetReleasePipeline(ctx, id) },
		func(p *ReleasePipeline) bool { return p.Phases == nil && len(phases) > 0 })
}

// phasesForWrite is phases with every rule's conditions sent as [] rather than null.
func phasesForWrite(in []Phase) []Phase {
	phases := make([]Phase, len(in))
	for i, ph := range in {
		rules := make([]PipelineRule, len(ph.Rules))
		for j, r := range ph.Rules {
			r.Conditions = orEmpty(r.Conditions)
			rules[j] = r
		}
		ph.Rules = rules
		phases[i] = ph
	}
	return orEmpty(phases)
}

// EachReleasePipelinesPage reads GET /release_pipelines page by page, handing each page to fn in
// order as it arrives; an error of fn stops the listing.
func (c *Client) EachReleasePipelinesPage(ctx context.Context, opts ListOptions, fn func([]ReleasePipeline) error) error {
	return releasePipelines.each(ctx, c, opts, fn)
}

// ListReleasePipelines reads every pipeline unless opts.MaxRecords stops it.
func (c *Client) ListReleasePipelines(ctx context.Context, opts ListOptions) ([]ReleasePipeline, error) {
	return releasePipelines.all(ctx, c, opts)
}

// CreateReleasePipeline sends POST /release_pipelines; the service chooses the pipeline's id and
// those of its phases and rules. A create is never sent twice over a pipeline it may have made:
// an attempt whose answer is lost (a 5xx, a broken connection, an empty 2xx) is looked for among
// the pipelines of that name that were not there before, and only when none turned up is the
// create sent again. Two or more new ones of that name (someone else creating at the same time)
// are an error rather than a guess.
func (c *Client) CreateReleasePipeline(ctx context.Context, u ReleasePipelineUpdate) (*ReleasePipeline, error) {
	u.Phases = phasesForWrite(u.Phases)
	object := strconv.Quote(u.Name)
	before, err := c.pipelineIDsNamed(ctx, u.Name)
	if err != nil {
		return nil, err
	}
	r := request{method: http.MethodPost, path: releasePipelines.path, body: u, op: "create release pipeline", object: object, noResend: true}
	for attempt := 0; ; attempt++ {
		var p ReleasePipeline
		err := c.do(ctx, r, &p)
		if err == nil && p.ID != "" {
			return &p, nil
		}
		if err != nil && !emptyAnswer(err) && !MaybeApplied(err) {
			return nil, err
		}
		found, lerr := c.newPipelinesNamed(ctx, u.Name, before)
		if lerr != nil {
			return nil, fmt.Errorf("%w\n\nThe create may have reached the service; listing the pipelines to find out failed too: %v", cmpErr(err), lerr)
		}
		switch {
		case len(found) == 1:
			return &found[0], nil
		case len(found) > 1:
			return nil, &AmbiguousCreateError{Op: r.op, Object: object, IDs: pipelineIDs(found)}
		case err == nil || attempt >= c.maxRetries || ctx.Err() != nil:
			return nil, cmpErr(err)
		}
	}
}

// cmpErr is err, or for a 2xx that named no pipeline (and none turned up) an error saying so.
func cmpErr(err error) error {
	if err != nil {
		return err
	}
	return errors.New("the service answered without the new pipeline, and no new pipeline of that name was found")
}

// pipelineIDsNamed is the set of ids of the pipelines called name.
func (c *Client) pipelineIDsNamed(ctx context.Context, name string) (map[string]bool, error) {
	all, err := c.ListReleasePipelines(ctx, ListOptions{})
	if err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	for _, p := range all {
		if p.Name == name {
			ids[p.ID] = true
		}
	}
	return ids, nil
}

// newPipelinesNamed is the pipelines called name whose ids are not in before.
func (c *Client) newPipelinesNamed(ctx context.Context, name string, before map[string]bool) ([]ReleasePipeline, error) {
	all, err := c.ListReleasePipelines(ctx, ListOptions{})
	if err != nil {
		return nil, err
	}
	var found []ReleasePipeline
	for _, p := range all {
		if p.Name == name && !before[p.ID] {
			found = append(found, p)
		}
	}
	return found, nil
}

func pipelineIDs(ps []ReleasePipeline) []string {
	ids := make([]string, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
	}
	return ids
}

// DeleteReleasePipeline sends DELETE /release_pipelines/{id}. A pipeline already gone is a
// NotFound error, as for every other delete: the caller says what that means.
func (c *Client) DeleteReleasePipeline(ctx context.Context, id string) error {
	return c.do(ctx, request{method: http.MethodDelete, path: releasePipelines.path + "/" + pathEscape(id), op: "delete release pipeline", object: strconv.Quote(id)}, nil)
}

// ActiveReleasePipelineTriggers lists the runs of a pipeline that have not ended: the ones that
// lock it against changes and deletion.
func (c *Client) ActiveReleasePipelineTriggers(ctx context.Context, pipelineID string) ([]ReleasePipelineTrigger, error) {
	return c.ListReleasePipelineTriggers(ctx, TriggerFilter{ReleasePipelineID: pipelineID,
		Statuses: []string{TriggerInProgress, TriggerPaused, TriggerWaitingForReview}}, ListOptions{})
}
