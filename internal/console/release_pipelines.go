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
	TimeIntervalMs int64          `json:"timeIntervalMs"`
	RequiredReview bool           `json:"requiredReview"`
	Rules          []PipelineRule `json:"rules"`
}

// ReleasePipeline is a phased rollout.
type ReleasePipeline struct {
	ID             string  `json:"id"`
	Name           string  `json:"name"`
	CreatorID      string  `json:"creatorID"`
	CreatedTime    int64   `json:"createdTime"`
	LastModifierID string  `json:"lastModifierID"`
	Phases         []Phase `json:"phases"`
}

// ReleasePipelineUpdate is the body of POST /release_pipelines/{id}.
type ReleasePipelineUpdate struct {
	Name   string  `json:"name"`
	Phases []Phase `json:"phases"`
}

// GetReleasePipeline reads GET /release_pipelines/{id}.
func (c *Client) GetReleasePipeline(ctx context.Context, id string) (*ReleasePipeline, error) {
	var p ReleasePipeline
	err := c.do(ctx, request{method: http.MethodGet, path: "/release_pipelines/" + pathEscape(id), op: "read release pipeline", object: strconv.Quote(id)}, &p)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// UpdateReleasePipeline sends the pipeline's name and complete phase list.
func (c *Client) UpdateReleasePipeline(ctx context.Context, id string, u ReleasePipelineUpdate) (*ReleasePipeline, error) {
	// Lists are sent as [], never null: the service documents arrays.
	phases := make([]Phase, len(u.Phases))
	for i, ph := range u.Phases {
		rules := make([]PipelineRule, len(ph.Rules))
		for j, r := range ph.Rules {
			if r.Conditions == nil {
				r.Conditions = []Condition{}
			}
			rules[j] = r
		}
		ph.Rules = rules
		phases[i] = ph
	}
	u.Phases = phases
	var p ReleasePipeline
	err := c.do(ctx, request{method: http.MethodPost, path: "/release_pipelines/" + pathEscape(id), body: u, op: "update release pipeline", object: strconv.Quote(id)}, &p)
	if err != nil {
		return nil, err
	}
	return &p, nil
}
