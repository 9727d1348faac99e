// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"fmt"
	"slices"
)

// defaultEnvironments are a new project's environments, as the document's example lists them.
var defaultEnvironments = []string{"development", "staging", "production"}

// environment is one environment as `GET /environments` answers it.
type environment struct {
	Name                    string `json:"name"`
	ID                      string `json:"id"`
	IsProduction            bool   `json:"isProduction"`
	RequiresReview          bool   `json:"requiresReview"`
	RequiresReleasePipeline bool   `json:"requiresReleasePipeline"`
}

// SetEnvironments replaces the project's environments.
func (s *Server) SetEnvironments(names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.environments = slices.Clone(names)
}

func (s *Server) listEnvironments() response {
	envs := make([]environment, len(s.environments))
	for i, n := range s.environments {
		envs[i] = environment{Name: n, ID: fmt.Sprintf("0.%d", 4067426155658289+i), IsProduction: n == "production", RequiresReleasePipeline: true}
	}
	return okResp("Environments read successfully.", map[string]any{"environments": envs})
}
