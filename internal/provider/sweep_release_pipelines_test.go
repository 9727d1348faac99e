// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The pipelines the tests create are named with the test prefix; the sweeper deletes those, and
// never the pipeline FEATURECONSOLE_ACC_PIPELINE names, which the tests take over and leave.
func init() {
	resource.AddTestSweepers("featureconsole_release_pipeline", &resource.Sweeper{
		Name: "featureconsole_release_pipeline",
		F:    sweepReleasePipelines,
	})
}

func sweepReleasePipelines(_ string) error {
	c, e, err := sweepClient()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	listed, err := c.ListReleasePipelines(ctx, console.ListOptions{})
	if err != nil {
		return err
	}
	for _, p := range listed {
		if !strings.HasPrefix(p.Name, e.prefix) || p.ID == e.pipeline {
			continue
		}
		if err := c.DeleteReleasePipeline(ctx, p.ID); err != nil && !console.NotFound(err) {
			// A pipeline still attached or running is reported and left; the others are swept.
			fmt.Printf("[WARN] release pipeline %q (%s) not swept: %v\n", p.Name, p.ID, err)
		}
	}
	return nil
}

// The sweeper, run against the mock: pipelines named with the test prefix go, the others and the
// taken-over test pipeline stay.
func TestSweepReleasePipelines(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	t.Setenv(framework.EnvBaseURL, url)
	t.Setenv(framework.EnvAPIKey, mockconsole.DefaultAPIKey)
	t.Setenv(envAccPipeline, "pl_kept")
	t.Setenv(envAccMetricPrefix, "")
	m.PutPipeline(mockconsole.Pipeline{ID: "pl_swept", Name: defaultAccMetricPrefix + "web_created"})
	m.PutPipeline(mockconsole.Pipeline{ID: "pl_kept", Name: defaultAccMetricPrefix + "taken_over"})
	before := len(m.PipelineIDs())
	if err := sweepReleasePipelines(""); err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Pipeline("pl_swept"); ok {
		t.Error("a pipeline with the test prefix was not swept")
	}
	if _, ok := m.Pipeline("pl_kept"); !ok {
		t.Error("the test pipeline FEATURECONSOLE_ACC_PIPELINE names was swept")
	}
	if after := len(m.PipelineIDs()); after != before-1 {
		t.Errorf("%d pipelines left of %d: only one should have gone", after, before)
	}
}
