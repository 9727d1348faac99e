// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

// Package provider implements the featureconsole Terraform provider.
package provider

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

const (
	// The service's published limit: about 100 mutations per 10 seconds per project.
	defaultWriteLimit       = 100
	defaultWriteLimitWindow = 10 * time.Second
	// ...and about 900 per 15 minutes.
	defaultWriteLimitLong       = 900
	defaultWriteLimitLongWindow = 15 * time.Minute
	defaultReadConcurrency      = 4
)

var (
	_ provider.ProviderWithActions       = &featureConsoleProvider{}
	_ provider.ProviderWithListResources = &featureConsoleProvider{}
)

// clientTuning lets tests shorten retry waits; zero values keep the client's defaults.
type clientTuning struct {
	retryWaitMin, retryWaitMax time.Duration
	runPollInterval            time.Duration // how often an action reads a run it waits for
	// dryRunCacheDir keeps the metric-source dry runs that passed across the provider processes of
	// one plan and apply ("" keeps them in memory only, as the in-process tests do by default).
	dryRunCacheDir string
}

type featureConsoleProvider struct {
	version string
	tuning  clientTuning
	// configured, when set, receives the data Configure hands to data sources: the server that
	// answers the events data source below the framework (server.go) reads it from there.
	configured *atomic.Pointer[providerData]
}

type providerModel struct {
	BaseURL                   types.String `tfsdk:"base_url"`
	APIKey                    types.String `tfsdk:"api_key"`
	RespectReviewSettings     types.Bool   `tfsdk:"respect_review_settings"`
	MaxRetries                types.Int64  `tfsdk:"max_retries"`
	RequestTimeout            types.String `tfsdk:"request_timeout"`
	WriteLimit                types.Int64  `tfsdk:"write_limit"`
	WriteLimitWindow          types.String `tfsdk:"write_limit_window"`
	WriteLimitLong            types.Int64  `tfsdk:"write_limit_long"`
	WriteLimitLongWindow      types.String `tfsdk:"write_limit_long_window"`
	ReadConcurrency           types.Int64  `tfsdk:"read_concurrency"`
	AllowInsecureHTTP         types.Bool   `tfsdk:"allow_insecure_http"`
	SkipCredentialsValidation types.Bool   `tfsdk:"skip_credentials_validation"`
}

func (p *featureConsoleProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "featureconsole"
	resp.Version = p.version
}

func (p *featureConsoleProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages feature-gate rules, release pipelines and metric sources of a feature-management " +
			"service through its console management API, and reads its users, segments and recorded events.",
		Attributes: map[string]schema.Attribute{
			"base_url": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Address of the console API, for example `https://console.example.com`, with or without " +
					"the `/console/v1` suffix. Falls back to the `" + framework.EnvBaseURL + "` environment variable. " +
					"Plain `http://` is accepted only for loopback addresses unless `allow_insecure_http` is set.",
			},
			"api_key": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "Console API key, sent as the `SERVICE-API-KEY` header. Falls back to the `" + framework.EnvAPIKey +
					"` environment variable. Never logged, never stored in state.",
			},
			"respect_review_settings": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "When `true`, every request carries `x-respect-review-settings: true`, so that changes " +
					"to gates and pipelines follow the project's review settings instead of applying at once. A change held for " +
					"review ends the apply with an error naming the review; applying the same change of a gate again sends nothing " +
					"while the review is pending, and commits it once it is approved. See the guide \"Review settings\". Defaults to `false`.",
			},
			"max_retries": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: fmt.Sprintf("How many times a request answered 5xx (or not answered at all) is retried, "+
					"with exponential backoff and jitter, honouring `Retry-After`. `0` disables retries. A 429 (the project's "+
					"write limit) is not counted here: it is waited out, `Retry-After` plus jitter, for as long as the resource's "+
					"`timeouts` allow. Defaults to `%d`.", console.DefaultMaxRetries),
				Validators: []validator.Int64{int64validator.Between(0, 20)},
			},
			"request_timeout": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Time limit of one HTTP attempt, as a Go duration such as `30s` or `2m`, counted from " +
					"when the attempt is sent: waiting for a turn under `write_limit` is not part of it. Defaults to `30s`.",
				Validators: []validator.String{framework.PositiveDuration()},
			},
			"read_concurrency": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: fmt.Sprintf("How many pages a data source, or a plan that reads many gates, may fetch at "+
					"once once the first page tells how many there are. `1` reads page after page. Defaults to `%d`.", defaultReadConcurrency),
				Validators: []validator.Int64{int64validator.Between(1, 32)},
			},
			"skip_credentials_validation": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "When `true`, a plan that creates objects does not check `base_url` and `api_key` with the " +
					"service. Without it, such a plan sends one small read (none when the plan reads anything else from the " +
					"service anyway), so that a wrong key or address fails `terraform plan` rather than `terraform apply`. Set it " +
					"for plans made without the service, offline. Falls back to the `" + framework.EnvSkipCredentialsValidation +
					"` environment variable (`true` or `1`). Defaults to `false`.",
			},
			"allow_insecure_http": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Allow a plain `http://` `base_url` to a host that is not a loopback address. The API key " +
					"would travel unencrypted. Defaults to `false`.",
			},
		},
	}
	// The service's two write limits, each a count and its window, are paced alike.
	writeLimitAttributes(resp.Schema.Attributes, "write_limit", fmt.Sprintf("Client-side pacing of mutating requests: at most this many writes in any "+
		"`write_limit_window`, shared by every resource of this provider. The service's limit is per project and "+
		"shared with every other client of the project, so the provider also slows down by itself when the service "+
		"answers 429 and speeds up again while writes succeed, never above this. `0` disables this window. "+
		"Defaults to `%d` (the service allows about 100 per 10 seconds).", defaultWriteLimit), "`10s` or `15m`", "10s")
	writeLimitAttributes(resp.Schema.Attributes, "write_limit_long", fmt.Sprintf("The service's second, longer limit, paced the same way: at most this many "+
		"writes in any `write_limit_long_window`. `0` disables it. Defaults to `%d` (the service allows about 900 "+
		"per 15 minutes).", defaultWriteLimitLong), "`15m`", "15m")
}

// writeLimitAttributes adds a write limit (name) and its window (name_window) to attrs.
func writeLimitAttributes(attrs map[string]schema.Attribute, name, desc, windowExamples, windowDefault string) {
	attrs[name] = schema.Int64Attribute{
		Optional:            true,
		MarkdownDescription: desc,
		Validators:          []validator.Int64{int64validator.AtLeast(0)},
	}
	attrs[name+"_window"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: fmt.Sprintf("The window of `%s`, as a Go duration such as %s. Defaults to `%s`.",
			name, windowExamples, windowDefault),
		Validators: []validator.String{framework.PositiveDuration()},
	}
}

func (p *featureConsoleProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cfg.BaseURL.IsUnknown() || cfg.APIKey.IsUnknown() {
		// Known only after apply: resources will report the missing client if they are reached.
		return
	}

	baseURL := cfg.BaseURL.ValueString()
	if baseURL == "" {
		baseURL = os.Getenv(framework.EnvBaseURL)
	}
	apiKey := cfg.APIKey.ValueString()
	if apiKey == "" {
		apiKey = os.Getenv(framework.EnvAPIKey)
	}
	if strings.TrimSpace(baseURL) == "" {
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Missing console API address",
			"The provider needs the address of the console API: set base_url in the provider block or the "+framework.EnvBaseURL+" environment variable.")
	}
	if strings.TrimSpace(apiKey) == "" {
		resp.Diagnostics.AddAttributeError(path.Root("api_key"), "Missing console API key",
			"The provider needs a console API key: set api_key in the provider block or the "+framework.EnvAPIKey+" environment variable.")
	}
	if resp.Diagnostics.HasError() {
		return
	}

	base, err := console.NormalizeBaseURL(baseURL)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Invalid console API address", err.Error())
		return
	}
	if base.Scheme == "http" && !isLoopback(base.Hostname()) && !cfg.AllowInsecureHTTP.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Insecure console API address",
			fmt.Sprintf("base_url %q uses plain http to a host that is not a loopback address, so the API key would travel "+
				"unencrypted. Use https, or set allow_insecure_http = true if this is intended.", base.Redacted()))
		return
	}

	// Unset attributes take the defaults; the durations were validated in the schema.
	maxRetries := framework.IntOr(cfg.MaxRetries, console.DefaultMaxRetries)
	timeout := framework.DurationOr(cfg.RequestTimeout, console.DefaultTimeout)
	writeLimit := framework.IntOr(cfg.WriteLimit, defaultWriteLimit)
	writeWindow := framework.DurationOr(cfg.WriteLimitWindow, defaultWriteLimitWindow)
	writeLimitLong := framework.IntOr(cfg.WriteLimitLong, defaultWriteLimitLong)
	writeLongWindow := framework.DurationOr(cfg.WriteLimitLongWindow, defaultWriteLimitLongWindow)
	readConc := framework.IntOr(cfg.ReadConcurrency, defaultReadConcurrency)

	client, err := console.New(console.Config{
		BaseURL:               baseURL,
		APIKey:                apiKey,
		SharedReads:           true, // one client per Terraform command (ConfigureProvider)
		RespectReviewSettings: cfg.RespectReviewSettings.ValueBool(),
		MaxRetries:            maxRetries,
		RetryWaitMin:          p.tuning.retryWaitMin,
		RetryWaitMax:          p.tuning.retryWaitMax,
		Timeout:               timeout,
		Pacer: console.NewTieredPacer(console.Limit{N: writeLimit, Window: writeWindow},
			console.Limit{N: writeLimitLong, Window: writeLongWindow}),
		UserAgent:      fmt.Sprintf("terraform-provider-featureconsole/%s Terraform/%s", p.version, req.TerraformVersion),
		DryRunCacheDir: p.tuning.dryRunCacheDir,
		// The pages of a refresh that reads many gates are fetched as read_concurrency says.
		ListConcurrency: readConc,
	})
	if err != nil {
		resp.Diagnostics.AddError("Unable to configure the console API client", err.Error())
		return
	}
	data := &providerData{client: client, readConcurrency: readConc, runPollInterval: p.tuning.runPollInterval,
		skipAccessCheck: boolOrEnv(cfg.SkipCredentialsValidation, framework.EnvSkipCredentialsValidation), schemas: &plannedSchemas{}}
	resp.DataSourceData = data
	resp.ResourceData = data
	resp.ActionData = data
	resp.ListResourceData = data
	if p.configured != nil {
		p.configured.Store(data)
	}
}

func (p *featureConsoleProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewGateResource,
		NewGateRulesResource,
		NewDynamicConfigResource,
		NewDynamicConfigRulesResource,
		NewExperimentResource,
		NewMetricSourceResource,
		NewMetricResource,
		NewSegmentResource,
		NewReleasePipelineResource,
		NewKeyResource,
		NewTargetAppResource,
		NewTagResource,
	}
}

// ListResources are the list resources of `terraform query` (list_*.go), one per resource type.
func (p *featureConsoleProvider) ListResources(_ context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		NewGateList,
		NewGateRulesList,
		NewDynamicConfigList,
		NewDynamicConfigRulesList,
		NewMetricSourceList,
		NewMetricList,
		NewReleasePipelineList,
		NewSegmentList,
		NewExperimentList,
		NewKeyList,
		NewTargetAppList,
		NewTagList,
	}
}

func (p *featureConsoleProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewUsersDataSource,
		NewSegmentsDataSource,
		NewEventsDataSource,
		NewReleasePipelineTriggersDataSource,
		NewGateDataSource,
		NewDynamicConfigDataSource,
		NewExperimentDataSource,
		NewExperimentResultsDataSource,
		NewMetricDataSource,
		NewKeyDataSource,
		NewTargetAppDataSource,
		NewTagDataSource,
	}
}

func (p *featureConsoleProvider) Actions(_ context.Context) []func() action.Action {
	return []func() action.Action{
		NewReleasePipelineTriggerAction,
	}
}

// boolOrEnv returns v when it is set, else whether the environment variable env says true.
func boolOrEnv(v types.Bool, env string) bool {
	if !v.IsNull() && !v.IsUnknown() {
		return v.ValueBool()
	}
	b, err := strconv.ParseBool(strings.TrimSpace(os.Getenv(env)))
	return err == nil && b
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// dryRunCacheDir is where metric-source dry runs that passed are remembered between the provider
// processes of one plan and apply ("" when the machine has no cache directory: memory only).
func dryRunCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "terraform-provider-featureconsole", "dry-runs")
}

// NewServer returns the factory of the provider's protocol 6 server: the framework's server, except
// that ReadDataSource of featureconsole_events is answered below the framework (see eventsServer).
func NewServer(version string) func() (tfprotov6.ProviderServer, error) {
	return newServerFactory(func() *featureConsoleProvider {
		return &featureConsoleProvider{version: version, tuning: clientTuning{dryRunCacheDir: dryRunCacheDir()}}
	})
}

// newServerFactory builds a new provider for every server, so that each server reads the data of the
// provider it configured.
func newServerFactory(newProvider func() *featureConsoleProvider) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		p := newProvider()
		p.configured = new(atomic.Pointer[providerData])
		fw, err := providerserver.NewProtocol6WithError(p)()
		if err != nil {
			return nil, err
		}
		full, ok := fw.(frameworkServer)
		if !ok {
			return nil, fmt.Errorf("the framework's server %T lacks list resource, action or state store methods", fw)
		}
		return &eventsServer{frameworkServer: full, configured: p.configured}, nil
	}
}
