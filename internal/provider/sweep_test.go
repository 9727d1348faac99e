// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// Sweepers clean up what an interrupted acceptance run against a real service leaves behind
// (make sweep, which runs `go test ./internal/provider -sweep=default`). They touch only the
// objects the FEATURECONSOLE_ACC_* variables name: the metrics, metric sources, gates and release pipelines
// whose name starts with the test prefix (never the test gate itself; pipelines in
// sweep_release_pipelines_test.go), and the rules of the test gate. The pipeline
// FEATURECONSOLE_ACC_PIPELINE names is taken over, never deleted.
func init() {
	resource.AddTestSweepers("featureconsole_metric", &resource.Sweeper{
		Name: "featureconsole_metric",
		F:    sweepMetrics,
	})
	resource.AddTestSweepers("featureconsole_metric_source", &resource.Sweeper{
		Name: "featureconsole_metric_source",
		F:    sweepMetricSources,
		// A metric names its source: the metrics go first.
		Dependencies: []string{"featureconsole_metric"},
	})
	resource.AddTestSweepers("featureconsole_gate_rules", &resource.Sweeper{
		Name: "featureconsole_gate_rules",
		F:    sweepGateRules,
	})
	resource.AddTestSweepers("featureconsole_gate", &resource.Sweeper{
		Name: "featureconsole_gate",
		F:    sweepGates,
	})
	resource.AddTestSweepers("featureconsole_key", &resource.Sweeper{
		Name: "featureconsole_key",
		F:    sweepKeys,
	})
	resource.AddTestSweepers("featureconsole_target_app", &resource.Sweeper{
		Name: "featureconsole_target_app",
		F:    sweepTargetApps,
		// A key names its app: the keys go first.
		Dependencies: []string{"featureconsole_key"},
	})
	resource.AddTestSweepers("featureconsole_tag", &resource.Sweeper{
		Name: "featureconsole_tag",
		F:    sweepTags,
		// A tag in use cannot be deleted: what carries it goes first.
		Dependencies: []string{"featureconsole_gate", "featureconsole_metric", "featureconsole_metric_source"},
	})
}

// sweepKeys deletes the keys the tests create: a description with the test prefix.
func sweepKeys(_ string) error {
	return sweepListed(func(ctx context.Context, c *console.Client) ([]console.Key, error) {
		return c.ListKeys(ctx, console.KeyFilter{}, console.ListOptions{})
	}, func(k console.Key, e accEnv) string {
		return keepIf(strings.HasPrefix(framework.Deref(k.Description, ""), e.prefix), k.Secret)
	}, (*console.Client).DeleteKey)
}

// sweepTargetApps deletes the target apps the tests create: a name with the test prefix.
func sweepTargetApps(_ string) error {
	return sweepListed(func(ctx context.Context, c *console.Client) ([]console.TargetApp, error) {
		return c.ListTargetApps(ctx, console.ListOptions{})
	}, func(a console.TargetApp, e accEnv) string {
		return keepIf(strings.HasPrefix(a.Name, e.prefix), a.ID)
	}, (*console.Client).DeleteTargetApp)
}

// sweepTags deletes the tags the tests create: a name with the test prefix.
func sweepTags(_ string) error {
	return sweepListed(func(ctx context.Context, c *console.Client) ([]console.Tag, error) {
		return c.ListTags(ctx, console.ListOptions{})
	}, func(t console.Tag, e accEnv) string {
		return keepIf(strings.HasPrefix(t.Name, e.prefix), t.ID)
	}, (*console.Client).DeleteTag)
}

// sweepGates deletes the gates the tests create: an id with the test prefix, other than the gate
// FEATURECONSOLE_ACC_GATE names, which the tests only borrow.
func sweepGates(_ string) error {
	return sweepListed(func(ctx context.Context, c *console.Client) ([]console.Gate, error) {
		return allPages(func(fn func([]console.Gate) error) error { return c.EachGatesPage(ctx, console.ListOptions{}, fn) })
	}, func(g console.Gate, e accEnv) string {
		return keepIf(strings.HasPrefix(g.ID, e.prefix) && g.ID != e.gate, g.ID)
	}, (*console.Client).DeleteGate)
}

// sweepListed deletes, on the service the environment names, each object list gives whose id
// doomed returns ("" keeps it); one already gone is no error.
func sweepListed[T any](list func(context.Context, *console.Client) ([]T, error), doomed func(T, accEnv) string,
	del func(*console.Client, context.Context, string) error) error {
	c, e, err := sweepClient()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	objects, err := list(ctx, c)
	if err != nil {
		return err
	}
	for _, o := range objects {
		if id := doomed(o, e); id != "" {
			if err := del(c, ctx, id); err != nil && !console.NotFound(err) {
				return err
			}
		}
	}
	return nil
}

// keepIf is id where the object is the tests' own, else "".
func keepIf(ours bool, id string) string {
	if !ours {
		return ""
	}
	return id
}

// allPages collects every page each calls back with.
func allPages[T any](each func(func([]T) error) error) ([]T, error) {
	var all []T
	err := each(func(page []T) error {
		all = append(all, page...)
		return nil
	})
	return all, err
}

// sweepClient is a client for the service the environment names; sweepers never run against the
// in-process mock, which lives only as long as one test.
func sweepClient() (*console.Client, accEnv, error) {
	e := readAccEnv()
	if !e.set() {
		return nil, e, fmt.Errorf("sweepers need %s and %s: the service to clean up", framework.EnvBaseURL, framework.EnvAPIKey)
	}
	c, err := newAccClient(e.url, e.key)
	return c, e, err
}

// accMetricSourceNames are the sources the acceptance tests create; they are deleted even when the
// service cannot list its sources.
var accMetricSourceNames = []string{"orders"}

func sweepMetricSources(_ string) error {
	c, e, err := sweepClient()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	names := map[string]bool{}
	for _, n := range accMetricSourceNames {
		names[e.prefix+n] = true
	}
	listed, err := c.ListMetricSources(ctx, console.ListOptions{})
	if err != nil {
		// Not fatal: the names the tests use are still swept.
		fmt.Printf("[WARN] listing metric sources: %v; sweeping the test names only\n", err)
	}
	for _, src := range listed {
		if strings.HasPrefix(src.Name, e.prefix) {
			names[src.Name] = true
		}
	}
	for n := range names {
		if err := c.DeleteMetricSource(ctx, n); err != nil && !console.NotFound(err) {
			return err
		}
	}
	return nil
}

// sweepMetrics deletes the metrics the tests create: a name with the test prefix.
func sweepMetrics(_ string) error {
	return sweepListed(func(ctx context.Context, c *console.Client) ([]console.Metric, error) {
		return allPages(func(fn func([]console.Metric) error) error { return c.EachMetricsPage(ctx, console.ListOptions{}, fn) })
	}, func(m console.Metric, e accEnv) string {
		return keepIf(strings.HasPrefix(m.Name, e.prefix), m.ID)
	}, (*console.Client).DeleteMetric)
}

func sweepGateRules(_ string) error {
	c, e, err := sweepClient()
	if err != nil {
		return err
	}
	if e.gate == "" {
		fmt.Printf("[INFO] %s is not set: no gate to sweep\n", envAccGate)
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	_, err = c.UpdateGateRules(ctx, e.gate, []console.Rule{})
	return err
}
