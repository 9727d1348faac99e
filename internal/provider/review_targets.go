// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// reviewTarget is where gateReview reads and commits the reviews of an object's changes: a gate's
// (GET /gates/{id}/reviews/{reviewID}, row 33) or a dynamic config's, the same endpoints under
// /dynamic_configs. A config is seen as the gate rules' code sees a rule holder: its id, rules and
// review.
type reviewTarget struct {
	noun   string // in messages: "gate", "dynamic config"
	get    func(c *console.Client, ctx context.Context, objID, reviewID string) (*console.Review, error)
	commit func(c *console.Client, ctx context.Context, objID, reviewID string) (*console.Gate, error)
	read   func(c *console.Client, ctx context.Context, objID string) (*console.Gate, error)
}

var (
	gateReviews = reviewTarget{noun: "gate", get: (*console.Client).GetGateReview,
		commit: (*console.Client).CommitGateReview, read: (*console.Client).GetGate}
	configReviews = reviewTarget{noun: "dynamic config", get: (*console.Client).GetDynamicConfigReview,
		commit: func(c *console.Client, ctx context.Context, id, reviewID string) (*console.Gate, error) {
			return configAsGate(c.CommitDynamicConfigReview(ctx, id, reviewID))
		},
		read: func(c *console.Client, ctx context.Context, id string) (*console.Gate, error) {
			return configAsGate(c.GetDynamicConfig(ctx, id))
		},
	}
)

// configAsGate is a config as a gate of its id, rules, pipeline and review.
func configAsGate(d *console.DynamicConfig, err error) (*console.Gate, error) {
	if d == nil {
		return nil, err
	}
	return &console.Gate{ID: d.ID, Rules: d.Rules, ReleasePipelineID: d.ReleasePipelineID, ActiveReview: d.ActiveReview}, err
}

// newConfigRulesReview is newGateReview for the rules of a dynamic config.
func newConfigRulesReview(ctx context.Context, p privateState, configID, what string) *gateReview {
	rv := newGateReview(ctx, p, configID, what)
	rv.target = configReviews
	return rv
}
