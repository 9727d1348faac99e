// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"encoding/json"
	"fmt"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// seedGates replaces every gate with n gates that have rules, for the onboarding benchmark
// (terraform query over a project made in the console).
func seedGates(srv *mockconsole.Server, n int) {
	for _, id := range srv.GateIDs() {
		srv.DeleteGate(id)
	}
	for i := 1; i <= n; i++ {
		g := mockconsole.Gate{
			ID: fmt.Sprintf("onboard_%04d", i), IsEnabled: true, Description: fmt.Sprintf("Gate %d", i),
			Status: "In Progress", LastModifierName: "Console User", LastModifierID: "user_1", Tags: []string{"team-a"},
			Rules: []mockconsole.Rule{{
				Name: "employees", PassPercentage: 100,
				Conditions: []mockconsole.Condition{{Type: "email", Operator: "str_contains_any", TargetValue: []any{"@example.com"}}},
			}},
		}
		if i%2 == 1 {
			g.Rules = append(g.Rules, mockconsole.Rule{
				Name: "rollout", PassPercentage: float64(i % 100), Environments: []string{"production"},
				Conditions:  []mockconsole.Condition{{Type: "custom_field", Operator: "gte", Field: "age", TargetValue: []any{json.Number("18")}}},
				ReturnValue: map[string]any{"variant": fmt.Sprintf("v%d", i%3)},
			})
		}
		srv.PutGate(g)
	}
}
