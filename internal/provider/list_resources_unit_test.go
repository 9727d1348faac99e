// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"errors"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// listStream sends the results that pass build, stops asking for pages at limit or when Terraform
// stops reading, and ends a failed listing with one error result.
func TestListStream(t *testing.T) {
	pages := [][]int{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
	run := func(limit int64, fail error, stopAfter int) (sent []string, pagesRead int, errs int) {
		fetch := func(fn func([]int) error) error {
			for _, p := range pages {
				pagesRead++
				if err := fn(p); err != nil {
					return err
				}
			}
			return fail
		}
		build := func(n int) (list.ListResult, bool) {
			return list.ListResult{DisplayName: string(rune('a' + n - 1))}, n%2 == 1 // odd numbers pass
		}
		for r := range listStream(t.Context(), limit, framework.APIFailure{Op: "list", Object: "things"}, fetch, build) {
			if r.Diagnostics.HasError() {
				errs++
				continue
			}
			sent = append(sent, r.DisplayName)
			if stopAfter > 0 && len(sent) == stopAfter {
				break
			}
		}
		return sent, pagesRead, errs
	}

	if sent, n, errs := run(0, nil, 0); len(sent) != 5 || n != 3 || errs != 0 {
		t.Errorf("no limit: sent %v from %d pages, %d errors", sent, n, errs)
	}
	if sent, n, _ := run(2, nil, 0); len(sent) != 2 || n != 1 {
		t.Errorf("limit 2: sent %v from %d pages, want 2 from 1 (a, c)", sent, n)
	}
	if sent, n, _ := run(3, nil, 0); len(sent) != 3 || n != 2 {
		t.Errorf("limit 3: sent %v from %d pages, want 3 from 2", sent, n)
	}
	if sent, n, _ := run(100, nil, 1); len(sent) != 1 || n != 1 {
		t.Errorf("Terraform stops reading: sent %v from %d pages, want 1 from 1", sent, n)
	}
	if sent, _, errs := run(0, errors.New("503"), 0); len(sent) != 5 || errs != 1 {
		t.Errorf("failed listing: sent %v, %d errors, want 5 and 1", sent, errs)
	}
}

// The wrapper around the framework's server hides none of the RPCs of list resources (tf6server serves
// them only to a server that has them) and identity.
var (
	_ tfprotov6.ProviderServer     = (*eventsServer)(nil)
	_ tfprotov6.ListResourceServer = (*eventsServer)(nil)
)
