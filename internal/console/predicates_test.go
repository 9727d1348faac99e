// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// The provider decides on these predicates alone (DESIGN §1): each holds for its answer, also
// wrapped, and for no other.
func TestErrorPredicates(t *testing.T) {
	api := func(status int, msg string) error {
		return fmt.Errorf("wrapped: %w", &APIError{Op: "update rules of gate", Object: `"g"`, StatusCode: status, Message: msg})
	}
	saysUnauthorized := &APIError{StatusCode: 403, Message: "Unauthorized", BodyStatus: 401}
	limited := &RateLimitError{Op: "update gate", Err: context.DeadlineExceeded}
	held := fmt.Errorf("wrapped: %w", &ReviewPendingError{Op: "update gate", ReviewID: "rev_1"})
	preds := map[string]func(error) bool{
		"NotFound": NotFound, "Refused": Refused, "Unauthorized": Unauthorized, "Forbidden": Forbidden,
		"SaysUnauthorized": SaysUnauthorized, "Conflict": Conflict, "RateLimited": RateLimited,
		"ServerFailed": ServerFailed, "HeldForReview": HeldForReview,
	}
	for _, tc := range []struct {
		name string
		err  error
		hold []string // the predicates that hold; every other must not
	}{
		{"404", api(404, "not found"), []string{"NotFound"}},
		{"400", api(400, "rules[0].name must not be empty"), []string{"Refused"}},
		{"401", api(401, "Unauthorized"), []string{"Unauthorized"}},
		{"403", api(403, "read-only key"), []string{"Forbidden"}},
		{"403 whose body says 401", saysUnauthorized, []string{"Forbidden", "SaysUnauthorized"}},
		{"409", api(409, ""), []string{"Conflict"}},
		{"429", api(429, "slow down"), []string{"RateLimited"}},
		{"429s until the time ran out", limited, []string{"RateLimited"}},
		{"500", api(500, "boom"), []string{"ServerFailed"}},
		{"503", api(503, ""), []string{"ServerFailed"}},
		{"held for review", held, []string{"HeldForReview"}},
		{"not the service's", errors.New("something else"), nil},
		{"nil", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := map[string]bool{}
			for _, n := range tc.hold {
				want[n] = true
			}
			for name, pred := range preds {
				if got := pred(tc.err); got != want[name] {
					t.Errorf("%s = %v, want %v", name, got, want[name])
				}
			}
		})
	}
}

// A refusal is a run's lock when it names one of the target's active runs, whatever its other
// words; a refusal naming none (an invalid rule while a run is active, words of a rollout without
// the run) is not, nor is any answer but a 400.
func TestLockedByRun(t *testing.T) {
	runs := []ReleasePipelineTrigger{{ID: "rpt_1", GateID: "g"}, {ID: "rpt_2", GateID: "g"}}
	refused := func(msg string) error {
		return fmt.Errorf("wrapped: %w", &APIError{StatusCode: 400, Message: msg})
	}
	for _, tc := range []struct {
		name string
		err  error
		runs []ReleasePipelineTrigger
		want string // the run's id, "" for none
	}{
		{"names the run", refused(`Gate "g" is being rolled out by release pipeline trigger "rpt_2" (IN_PROGRESS, phase "Canary")`), runs, "rpt_2"},
		{"names it in other words", refused("locked until rpt_1 ends"), runs, "rpt_1"},
		{"an invalid rule while a run is active", refused("rules[0].passPercentage must be between 0 and 100"), runs, ""},
		{"words of a rollout, no run named", refused("The gate's rules are locked while a rollout is in progress"), runs, ""},
		{"names a run that is not active", refused(`release pipeline trigger "rpt_9" is in progress`), runs, ""},
		{"no active run", refused(`release pipeline trigger "rpt_1" is in progress`), nil, ""},
		{"a run without id", refused("release pipeline trigger is in progress"), []ReleasePipelineTrigger{{}}, ""},
		{"not a refusal", &APIError{StatusCode: 409, Message: "rpt_1"}, runs, ""},
		{"not the service's", errors.New("rpt_1"), runs, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := LockedByRun(tc.err, tc.runs)
			switch {
			case tc.want == "" && got != nil:
				t.Errorf("got run %q, want none", got.ID)
			case tc.want != "" && (got == nil || got.ID != tc.want):
				t.Errorf("got %v, want run %q", got, tc.want)
			case got != nil && got != &tc.runs[0] && got != &tc.runs[len(tc.runs)-1]:
				t.Errorf("got a copy, want the run of the list")
			}
		})
	}
}
