// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Whether destroy deletes a pipeline is decided once, when the pipeline first enters the state, and
// kept in the resource's private state: Delete sees no configuration, and a plan with no change
// (an import whose configuration matches, adding pipeline_id with the pipeline's own id) never
// reaches the provider's apply, so nothing later could record another choice reliably.
//   - created (pipeline_id left out at create): destroy deletes it;
//   - imported (terraform import, import blocks, generated configuration): destroy deletes it, as
//     destroying any imported object does;
//   - taken over (pipeline_id set at create), or a state written before this provider could create
//     pipelines (every one of them was taken over): destroy leaves it in place, with a warning.
const pipelineOwnershipKey = "pipeline_ownership"

type pipelineOwnership string

const (
	pipelineCreated   pipelineOwnership = "created"
	pipelineImported  pipelineOwnership = "imported"
	pipelineTakenOver pipelineOwnership = "taken_over"
)

func setOwnership(ctx context.Context, p privateState, o pipelineOwnership) diag.Diagnostics {
	b, _ := json.Marshal(string(o))
	return p.SetKey(ctx, pipelineOwnershipKey, b)
}

// ownership reads what setOwnership stored; a state without it was taken over.
func ownership(ctx context.Context, p privateState) pipelineOwnership {
	b, d := p.GetKey(ctx, pipelineOwnershipKey)
	var s string
	if d.HasError() || json.Unmarshal(b, &s) != nil {
		return pipelineTakenOver
	}
	return pipelineOwnership(s)
}

// replacedByAnotherPipelineID forces replacement when pipeline_id changes from one value to another;
// left out of the configuration, it keeps the value in state.
var replacedByAnotherPipelineID = stringplanmodifier.RequiresReplaceIf(
	func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = anotherPipelineID(req.StateValue, req.ConfigValue)
	},
	"Changing pipeline_id from one value to another forces replacement; removing it from the configuration does not.",
	"Changing `pipeline_id` from one value to another forces replacement; removing it from the configuration does not.",
)

// anotherPipelineID reports a configured pipeline_id that names another pipeline than the state's.
func anotherPipelineID(state, config types.String) bool {
	return !state.IsNull() && !config.IsNull() && !config.IsUnknown() && !config.Equal(state)
}
