// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The shared suite's timeout cases (sharedCases, resource_shared_test.go): an operation that
// outlasts its resource's timeouts fails on them and changes nothing.

// A create that outlasts timeouts.create fails on it, quickly, and stores nothing.
func sharedCreateTimeout(t *testing.T, s sharedSpec, m *mockconsole.Server, url string) {
	var sw stopwatch
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					m.SetLatency(2 * time.Second)
					sw.reset()
				},
				Config:      providerBlock(url) + s.config(`timeouts = { create = "500ms" }`),
				ExpectError: wrapped("Unable to create", "Timed out after 500ms waiting for the service (raise timeouts.create)"),
			},
			{
				// An empty configuration: the failed step was quick and stored nothing.
				Config: providerBlock(url),
				Check: resource.ComposeTestCheckFunc(sw.withinBound(), s.expectNone(m), func(*terraform.State) error {
					return noStoredWrite(m)
				}),
			},
		},
	})
}

// An update and a destroy that outlast timeouts.update and timeouts.delete fail on them, quickly,
// and change nothing: the object keeps what it held, the state keeps the object, and the same
// apply and destroy go through once the service answers in time.
func sharedUpdateAndDeleteTimeout(t *testing.T, s sharedSpec, m *mockconsole.Server, url string) {
	const budget = `timeouts = { update = "500ms", delete = "500ms" }`
	var (
		sw     stopwatch
		id     string
		before any
	)
	unchanged := func(*terraform.State) error {
		if now := s.snapshot(m, id); !reflect.DeepEqual(now, before) {
			return fmt.Errorf("%s %q changed:\n%+v\nwas\n%+v", s.kind, id, now, before)
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             s.expectNone(m),
		Steps: []resource.TestStep{
			{Config: providerBlock(url) + s.config(s.quietPlan+"\n"+budget), Check: s.expectStored(m, &id)},
			{
				PreConfig: func() {
					before = s.snapshot(m, id)
					m.SetLatency(2 * time.Second)
					sw.reset()
				},
				Config:      providerBlock(url) + s.changed(s.quietPlan+"\n"+budget),
				ExpectError: wrapped("Unable to", "Timed out after 500ms waiting for the service (raise timeouts.update)"),
			},
			{
				// Destroy, with the object still in state: the delete outlasts its budget too.
				Config:      providerBlock(url),
				ExpectError: wrapped("Unable to", "Timed out after 500ms waiting for the service (raise timeouts.delete)"),
			},
			{
				// Both failed quickly and the object is as it was; in time, the destroy goes through.
				PreConfig: func() {
					if err := unchanged(nil); err != nil {
						t.Error(err)
					}
					if e := time.Since(sw.start); e > 60*time.Second {
						t.Errorf("the failed update and destroy took %s", e)
					}
					m.SetLatency(0)
				},
				Config: providerBlock(url),
			},
		},
	})
}
