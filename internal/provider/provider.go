// Package provider implements the featureconsole Terraform provider.
package provider

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

const (
	envBaseURL = "FEATURECONSOLE_BASE_URL"
	envAPIKey  = "FEATURECONSOLE_API_KEY"

	// The service's published limit: about 100 mutations per 10 seconds per project.
	defaultWriteLimit       = 100
	defaultWriteLimitWindow = 10 * time.Second
	defaultReadConcurrency  = 4
)

var _ provider.Provider = &featureConsoleProvider{}

// New returns the provider factory for providerserver.Serve.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &featureConsoleProvider{version: version}
	}
}

// clientTuning lets tests shorten retry waits; zero values keep the client's defaults.
type clientTuning struct {
	retryWaitMin, retryWaitMax time.Duration
}

type featureConsoleProvider struct {
	version string
	tuning  clientTuning
	// configured, when set, receives the data Configure hands to data sources: the server that
	// answers the events data source below the framework (server.go) reads it from there.
	configured *atomic.Pointer[providerData]
}

type providerModel struct {
	BaseURL               types.String `tfsdk:"base_url"`
	APIKey                types.String `tfsdk:"api_key"`
	RespectReviewSettings types.Bool   `tfsdk:"respect_review_settings"`
	MaxRetries            types.Int64  `tfsdk:"max_retries"`
	RequestTimeout        types.String `tfsdk:"request_timeout"`
	WriteLimit            types.Int64  `tfsdk:"write_limit"`
	WriteLimitWindow      types.String `tfsdk:"write_limit_window"`
	ReadConcurrency       types.Int64  `tfsdk:"read_concurrency"`
	AllowInsecureHTTP     types.Bool   `tfsdk:"allow_insecure_http"`
}

// providerData is what resources and data sources receive in Configure.
type providerData struct {
	client          *console.Client
	readConcurrency int
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
					"the `/console/v1` suffix. Falls back to the `" + envBaseURL + "` environment variable. " +
					"Plain `http://` is accepted only for loopback addresses unless `allow_insecure_http` is set.",
			},
			"api_key": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "Console API key, sent as the `SERVICE-API-KEY` header. Falls back to the `" + envAPIKey +
					"` environment variable. Never logged, never stored in state.",
			},
			"respect_review_settings": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "When `true`, every request carries `x-respect-review-settings: true`, so that changes " +
					"to gates and pipelines follow the project's review settings instead of applying at once. Defaults to `false`.",
			},
			"max_retries": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: fmt.Sprintf("How many times a request answered 429 or 5xx (or not answered) is retried, "+
					"with exponential backoff and jitter, honouring `Retry-After`. `0` disables retries. Defaults to `%d`.", console.DefaultMaxRetries),
				Validators: []validator.Int64{int64validator.Between(0, 20)},
			},
			"request_timeout": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Time limit of one HTTP attempt, as a Go duration such as `30s` or `2m`. " +
					"Defaults to `30s`.",
				Validators: []validator.String{durationValidator{}},
			},
			"write_limit": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: fmt.Sprintf("Client-side pacing of mutating requests: at most this many writes in any "+
					"`write_limit_window`, shared by every resource of this provider, so a large apply stays under the "+
					"service's limit instead of collecting 429 answers. `0` disables pacing. Defaults to `%d` (the service "+
					"allows about 100 per 10 seconds and 900 per 15 minutes per project: for long applies of more than 900 "+
					"writes set `900` and `\"15m\"`).", defaultWriteLimit),
				Validators: []validator.Int64{int64validator.AtLeast(0)},
			},
			"write_limit_window": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "The window of `write_limit`, as a Go duration such as `10s` or `15m`. Defaults to `10s`.",
				Validators:          []validator.String{durationValidator{}},
			},
			"read_concurrency": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: fmt.Sprintf("How many pages a data source may fetch at once once the first page tells "+
					"how many there are. `1` reads page after page. Defaults to `%d`.", defaultReadConcurrency),
				Validators: []validator.Int64{int64validator.Between(1, 32)},
			},
			"allow_insecure_http": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Allow a plain `http://` `base_url` to a host that is not a loopback address. The API key " +
					"would travel unencrypted. Defaults to `false`.",
			},
		},
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
		baseURL = os.Getenv(envBaseURL)
	}
	apiKey := cfg.APIKey.ValueString()
	if apiKey == "" {
		apiKey = os.Getenv(envAPIKey)
	}
	if strings.TrimSpace(baseURL) == "" {
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Missing console API address",
			"The provider needs the address of the console API: set base_url in the provider block or the "+envBaseURL+" environment variable.")
	}
	if strings.TrimSpace(apiKey) == "" {
		resp.Diagnostics.AddAttributeError(path.Root("api_key"), "Missing console API key",
			"The provider needs a console API key: set api_key in the provider block or the "+envAPIKey+" environment variable.")
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

	maxRetries := console.DefaultMaxRetries
	if !cfg.MaxRetries.IsNull() {
		maxRetries = int(cfg.MaxRetries.ValueInt64())
	}
	timeout := console.DefaultTimeout
	if s := cfg.RequestTimeout.ValueString(); s != "" {
		timeout, _ = time.ParseDuration(s) // validated in the schema
	}
	writeLimit := defaultWriteLimit
	if !cfg.WriteLimit.IsNull() {
		writeLimit = int(cfg.WriteLimit.ValueInt64())
	}
	writeWindow := defaultWriteLimitWindow
	if s := cfg.WriteLimitWindow.ValueString(); s != "" {
		writeWindow, _ = time.ParseDuration(s) // validated in the schema
	}
	readConc := defaultReadConcurrency
	if !cfg.ReadConcurrency.IsNull() {
		readConc = int(cfg.ReadConcurrency.ValueInt64())
	}

	client, err := console.New(console.Config{
		BaseURL:               baseURL,
		APIKey:                apiKey,
		RespectReviewSettings: cfg.RespectReviewSettings.ValueBool(),
		MaxRetries:            maxRetries,
		RetryWaitMin:          p.tuning.retryWaitMin,
		RetryWaitMax:          p.tuning.retryWaitMax,
		Timeout:               timeout,
		Pacer:                 console.NewPacer(writeLimit, writeWindow),
		UserAgent:             fmt.Sprintf("terraform-provider-featureconsole/%s Terraform/%s", p.version, req.TerraformVersion),
	})
	if err != nil {
		resp.Diagnostics.AddError("Unable to configure the console API client", err.Error())
		return
	}
	data := &providerData{client: client, readConcurrency: readConc}
	resp.DataSourceData = data
	resp.ResourceData = data
	if p.configured != nil {
		p.configured.Store(data)
	}
}

func (p *featureConsoleProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewGateRulesResource,
		NewMetricSourceResource,
		NewReleasePipelineResource,
	}
}

func (p *featureConsoleProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewUsersDataSource,
		NewSegmentsDataSource,
		NewEventsDataSource,
	}
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// configuredData extracts the provider's data in a resource's or data source's Configure.
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

type durationValidator struct{}

func (durationValidator) Description(context.Context) string {
	return "value must be a positive Go duration such as 30s or 2m"
}

func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (durationValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	d, err := time.ParseDuration(req.ConfigValue.ValueString())
	if err != nil || d <= 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid duration",
			fmt.Sprintf("%q is not a positive duration such as 30s or 2m.", req.ConfigValue.ValueString()))
	}
}
