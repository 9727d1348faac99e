// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// providerData is what resources and data sources receive in Configure.
type providerData struct {
	client          *console.Client
	readConcurrency int
	runPollInterval time.Duration // 0: the action's default
	// rulesRemoved holds, by gate id, the rules ([]console.Rule) a destroy of
	// featureconsole_gate_rules removed while this configuration of the provider served Terraform
	// (one apply): a gate that destroy then archives writes them back first, so the archived gate
	// keeps them (keep_on_destroy leaves them in place instead).
	rulesRemoved sync.Map
	// skipAccessCheck is skip_credentials_validation: plans that create check nothing (offline plans).
	skipAccessCheck bool
	accessReported  atomic.Bool // the failed check was reported once: the plan fails on it already
	// schemas are the dynamic config schemas this plan writes (plannedSchemas, below).
	schemas *plannedSchemas
	// handOffs serialise, per gate, the destroys that hand rules over through rulesRemoved
	// (handoffs.go).
	handOffs objectLocks
	// sourcesCreated are the names of the metric sources this plan (or apply) creates: a metric
	// that names one is checked at apply, not by a dry run at plan (handoffs.go).
	sourcesCreated sync.Map
	// gatesCreated are the ids of the gates this plan (or apply) creates: an experiment that targets
	// one reads it at apply, not at plan (handoffs.go).
	gatesCreated sync.Map
}

// managedResource is what every resource of the provider implements: plan-time checks and plan
// modification (ValidateConfig, ModifyPlan), import by id and by identity (Terraform 1.12+).
type managedResource interface {
	resource.ResourceWithConfigure
	resource.ResourceWithImportState
	resource.ResourceWithModifyPlan
	resource.ResourceWithValidateConfig
	resource.ResourceWithIdentity
}

// resourceData is embedded by resources and list resources: it names the type (a list resource is
// named as its resource) and its Configure keeps the provider's data.
type resourceData struct {
	typeName string // after the provider's name: gate_rules for featureconsole_gate_rules
	data     *providerData
}

func (r *resourceData) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + r.typeName
}

func (r *resourceData) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, resp.Diagnostics.AddError)
}

// dataSourceData is resourceData for data sources: embedded by both data source shapes
// (data_source.go).
type dataSourceData struct {
	typeName string // after the provider's name: users for featureconsole_users
	data     *providerData
}

func (d *dataSourceData) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.typeName
}

func (d *dataSourceData) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, resp.Diagnostics.AddError)
}

// configuredData extracts the provider's data in a resource's, data source's, list resource's or
// action's Configure.
func configuredData(data any, add func(summary, detail string)) *providerData {
	if data == nil {
		return nil // the provider is not configured yet (validation, or values unknown until apply)
	}
	pd, ok := data.(*providerData)
	if !ok {
		add("Unexpected provider data", fmt.Sprintf("Expected *providerData, got %T. Please report this issue to the provider developers.", data))
		return nil
	}
	return pd
}

// checkAccess, deferred at the start of every resource's ModifyPlan, makes the plan of a new object
// find a wrong API key or base_url, which the plan would otherwise not meet before apply: once the
// resource's own checks passed (invalid input fails before any request), console.CheckAccess sends
// one cheap read unless another request of this plan was answered already. Plans of objects that
// exist read them in their refresh anyway.
func (r *resourceData) checkAccess(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	d := r.data
	if d == nil || d.client == nil || d.skipAccessCheck || resp.Diagnostics.HasError() || !req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	err := d.client.CheckAccess(ctx)
	if err == nil || ctx.Err() != nil || !d.accessReported.CompareAndSwap(false, true) {
		return
	}
	f := framework.APIFailure{Op: "reach the console API with", Object: "the provider's base_url and api_key"}
	resp.Diagnostics.AddError(f.Summary(), f.Detail(ctx, nil, err)+"\n\nThe plan checks the provider's configuration because it creates "+
		"objects that nothing in it reads yet. To plan without reaching the service (offline), set "+
		"skip_credentials_validation = true in the provider block or "+framework.EnvSkipCredentialsValidation+"=true.")
}

// requireClient reports a clear error when a CRUD call arrives before the provider could configure
// a client (for example when base_url depends on a value known only after apply).
func requireClient(d *providerData, diags *diag.Diagnostics) bool {
	if d != nil && d.client != nil {
		return true
	}
	diags.AddError("Provider not configured",
		"The featureconsole provider has no console API client: base_url or api_key was unknown when the provider was configured. "+
			"Use values known at plan time for the provider configuration.")
	return false
}

// modelSource is a plan or a state, from which a CRUD call reads its model.
type modelSource interface {
	Get(ctx context.Context, target any) diag.Diagnostics
}

// begin is how every Create, Read, Update and Delete starts: it reads the model (from the plan or
// the state), sets the identity before anything can fail or remove the resource (the framework
// insists on one; identity is nil for Delete), and reports whether the call can go on with a client.
func (r *resourceData) begin(ctx context.Context, diags *diag.Diagnostics, identity *tfsdk.ResourceIdentity, from modelSource, m identifiedModel) bool {
	diags.Append(from.Get(ctx, m)...)
	attr, id := m.identity()
	diags.Append(setIdentity(ctx, identity, attr, id)...)
	return !diags.HasError() && requireClient(r.data, diags)
}

// readObject is how every Read goes on after begin: the object, read within the read timeout, goes
// into the model through flatten and the model becomes the state; an object that is gone leaves the
// state with the one warning of every resource, and a failed read is the one diagnostic. kind names
// the object as a sentence starts ("Release pipeline").
func readObject[T any](ctx context.Context, resp *resource.ReadResponse, t timeouts.Value, kind, id string,
	get func(context.Context, string) (*T, error), flatten func(*T) diag.Diagnostics, model any) {
	ctx, op, cancel := framework.StartOperation(ctx, t, "read", &resp.Diagnostics)
	defer cancel()
	obj, err := get(ctx, id)
	if console.NotFound(err) {
		framework.RemovedFromState(ctx, resp, kind, id)
		return
	}
	if err != nil {
		framework.APIFailure{Op: "read", Object: fmt.Sprintf("%s %q", strings.ToLower(kind), id)}.Add(ctx, &resp.Diagnostics, op, err)
		return
	}
	resp.Diagnostics.Append(flatten(obj)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, model)...)
}
