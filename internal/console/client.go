// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

// Package console is the client of the feature service's console management API.
package console

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

const (
	apiPrefix           = "/console/v1"
	DefaultMaxRetries   = 4
	DefaultPageSize     = 100
	DefaultTimeout      = 30 * time.Second
	DefaultRetryWaitMin = 500 * time.Millisecond
	DefaultRetryWaitMax = 30 * time.Second
	// maxResponseBytes bounds what one response may make the client hold.
	maxResponseBytes = 256 << 20
	// maxIdleConnsPerHost covers the largest read_concurrency.
	maxIdleConnsPerHost = 32
	// idleConnTimeout is below the 60 seconds after which many load balancers drop an idle connection.
	idleConnTimeout = 45 * time.Second
)

// Config configures a Client. Zero values take the defaults above, except MaxRetries, where 0 means none.
type Config struct {
	BaseURL               string
	APIKey                string
	RespectReviewSettings bool
	// MaxRetries is the number of retries after the first attempt; 0 or less means a single attempt.
	MaxRetries   int
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	// Timeout bounds one HTTP attempt.
	Timeout   time.Duration
	UserAgent string
	PageSize  int
	// Pacer, when set, is waited on before every mutating request attempt.
	Pacer *Pacer
	// IDListPacer paces the writes of segment ids (their endpoints' own limit) before Pacer;
	// nil takes IDListLimit and IDListLongLimit.
	IDListPacer *Pacer
	// Transport overrides the HTTP transport (tests).
	Transport http.RoundTripper
	// DryRunCacheDir, when set, keeps the dry runs that passed across provider processes.
	DryRunCacheDir string
	// ListConcurrency is how many list pages shared reads fetch at once (shared_reads.go); 0 takes 4.
	ListConcurrency int
	// SharedReads shares the reads of gates, segments and pipelines among callers until the
	// client's next write, and reads list pages when many are read (shared_reads.go). For a client
	// that lives as long as one Terraform command (the provider's); a longer-lived client that
	// never writes (a test's or a sweeper's checks) would be handed answers up to a minute old.
	SharedReads bool
}

// Client talks to one console API. It is safe for concurrent use.
type Client struct {
	base       *url.URL
	apiKey     string
	review     bool
	userAgent  string
	pageSize   int
	maxRetries int
	pacer      *Pacer
	idPacer    *Pacer
	http       *retryablehttp.Client
	dryRuns    dryRunCache
	// The reads of gates, segments and pipelines, shared among callers until the next write
	// (shared_reads.go).
	gateReads, segmentReads, pipelineReads *sharedReads
	// The reads of dynamic configs, shared as gates' are (dynamic_configs.go).
	configReads     *sharedReads
	sharedReads     bool // Config.SharedReads
	listConcurrency int
	access          *access // what the answers proved of the key and address (access.go)
}

// NormalizeBaseURL accepts the service address with or without the /console/v1 suffix.
func NormalizeBaseURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("invalid base URL %q: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("invalid base URL %q: scheme must be http or https", raw)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("invalid base URL %q: no host", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("invalid base URL %q: must not carry a query or fragment", raw)
	}
	p := strings.TrimRight(u.Path, "/")
	p = strings.TrimSuffix(p, apiPrefix)
	u.Path = strings.TrimRight(p, "/") + apiPrefix
	u.RawPath = ""
	return u, nil
}

// New builds a Client; it sends no request.
func New(cfg Config) (*Client, error) {
	// A key read from a file often ends in a newline; the service would never match it.
	cfg.APIKey = strings.TrimSpace(cfg.APIKey)
	if cfg.APIKey == "" {
		return nil, errors.New("an API key is required")
	}
	// Caught here, a bad key is one clear error rather than a transport failure retried MaxRetries times.
	if strings.IndexFunc(cfg.APIKey, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0 {
		return nil, errors.New("the API key contains a control character, which an HTTP header cannot carry")
	}
	base, err := NormalizeBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	c := &Client{
		base:       base,
		apiKey:     cfg.APIKey,
		review:     cfg.RespectReviewSettings,
		userAgent:  cfg.UserAgent,
		pageSize:   cfg.PageSize,
		maxRetries: max(cfg.MaxRetries, 0),
		pacer:      cfg.Pacer,
		idPacer:    cfg.IDListPacer,
		dryRuns:    dryRunCache{dir: cfg.DryRunCacheDir},
		gateReads:  newSharedReads(),
		// Segments and pipelines are each read by one resource: their reads are shared for the
		// list pages.
		segmentReads:  newSharedReads(),
		pipelineReads: newSharedReads(),
		access:        newAccess(),
		configReads:   newSharedReads(),
	}
	c.listConcurrency = cfg.ListConcurrency
	c.sharedReads = cfg.SharedReads
	if c.listConcurrency <= 0 {
		c.listConcurrency = defaultListConcurrency
	}
	if c.idPacer == nil {
		c.idPacer = NewTieredPacer(IDListLimit, IDListLongLimit)
	}
	if c.userAgent == "" {
		c.userAgent = "terraform-provider-featureconsole/dev"
	}
	if c.pageSize <= 0 {
		c.pageSize = DefaultPageSize
	}
	c.pageSize = min(c.pageSize, MaxPageSize)
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	transport := cfg.Transport
	if transport == nil {
		transport = http.DefaultTransport
		if dt, ok := http.DefaultTransport.(*http.Transport); ok {
			t := dt.Clone() // its own connection pool, not shared with the process
			// The pager keeps up to read_concurrency requests in flight: with the default of 2 idle
			// connections per host, most of them would be closed after every page and dialled again.
			t.MaxIdleConnsPerHost = maxIdleConnsPerHost
			// Load balancers close idle connections, often after 60 seconds and often without a
			// word to the client: dropped sooner here, a pooled connection is one they still hold
			// (roundTripFresh covers the rest).
			t.IdleConnTimeout = idleConnTimeout
			transport = t
		}
	}

	rc := retryablehttp.NewClient()
	rc.HTTPClient = &http.Client{
		// No Client.Timeout: it would start before the pacer's wait. The transport bounds each
		// attempt from the moment it is sent.
		Transport: &pacedTransport{next: transport, own: ownConnection(transport), pacer: c.pacer, timeout: timeout},
		// Following a redirect would turn a PATCH or POST into a GET that "succeeds", and would
		// carry SERVICE-API-KEY to whatever host the Location names: a 3xx is an error instead.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	rc.Logger = nil
	// 429s are retried for as long as the request's context allows; checkRetry counts the other
	// failures against maxRetries itself.
	rc.RetryMax = math.MaxInt32
	rc.RetryWaitMin = cfg.RetryWaitMin
	if rc.RetryWaitMin <= 0 {
		rc.RetryWaitMin = DefaultRetryWaitMin
	}
	rc.RetryWaitMax = cfg.RetryWaitMax
	if rc.RetryWaitMax <= 0 {
		rc.RetryWaitMax = DefaultRetryWaitMax
	}
	rc.CheckRetry = c.checkRetry
	rc.Backoff = backoff
	rc.ErrorHandler = retryablehttp.PassthroughErrorHandler
	rc.RequestLogHook = func(_ retryablehttp.Logger, r *http.Request, attempt int) {
		if st, ok := r.Context().Value(attemptKey{}).(*attemptState); ok {
			st.mu.Lock()
			st.attempts = attempt + 1
			st.mu.Unlock()
		}
	}
	c.http = rc
	return c, nil
}

// forgetReads drops every shared read: a write may have changed what they hold.
func (c *Client) forgetReads() {
	for _, s := range []*sharedReads{c.gateReads, c.segmentReads, c.pipelineReads, c.configReads} {
		s.written()
	}
}

// BaseURL is the normalised API root, ending in /console/v1.
func (c *Client) BaseURL() string { return c.base.String() }

// request describes one API call; path is relative to /console/v1 and already escaped.
type request struct {
	method string
	path   string
	query  url.Values
	body   any
	// op and object name the call in errors: `Unable to <op> <object>`.
	op, object string
	// dataOptional accepts a success without data (a dry run only validates).
	dataOptional bool
	// noResend: a write that must not be sent twice is not retried once an attempt may have
	// reached the service (a 5xx, no answer); 429s are still retried, they were not acted on.
	noResend bool
	// secret is a key's secret, which the service takes as the key's id in the path
	// (`/keys/{id}`): no log line, error or diagnostic shows it (redactSecrets).
	secret string
	// keyAnswers: the answers carry keys' secrets in "key" fields, which no error quotes.
	keyAnswers bool
}

// do performs a call and decodes the envelope's data into out (when non-nil).
func (c *Client) do(ctx context.Context, r request, out any) error {
	_, err := c.doMessage(ctx, r, out)
	return err
}

// errNoBody is a success answered without any body where data was expected.
var errNoBody = errors.New("empty response body")

// doMessage is do that also returns the envelope's message. A success without any body is a
// DecodeError wrapping errNoBody, which a write recovers from by reading the object back.
func (c *Client) doMessage(ctx context.Context, r request, out any) (string, error) {
	raw, err := c.send(ctx, r)
	if err != nil {
		return "", err
	}
	if out == nil {
		// A call that wants no data (a delete) may be answered 204 or 200 with no body at all.
		if len(bytes.TrimSpace(raw)) == 0 {
			return "", nil
		}
		env := envelope[json.RawMessage]{}
		err := decodeEnvelope(r, raw, &env)
		return env.Message, c.redactFor(r, c.withCall(r, err))
	}
	env := envelope[dataSink]{Data: dataSink{out: out}}
	if err := decodeEnvelope(r, raw, &env); err != nil {
		return "", c.redactFor(r, c.withCall(r, err))
	}
	// Without data, out would be a zero object: a gate with no id and no rules, say, that the
	// provider would take for the service's state.
	if !env.Data.seen && !r.dataOptional {
		return env.Message, c.redactFor(r, &DecodeError{Op: r.op, Object: r.object, Call: c.call(r), Err: errors.New("the response carries no data"), Body: raw})
	}
	return env.Message, nil
}

// emptyAnswer reports whether err is a success that came without any body.
func emptyAnswer(err error) bool {
	var de *DecodeError
	return errors.As(err, &de) && errors.Is(de.Err, errNoBody)
}

// dataSink decodes the envelope's data in place and notes whether it was there at all.
type dataSink struct {
	out  any
	seen bool
}

func (d *dataSink) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	d.seen = true
	return json.Unmarshal(b, d.out)
}

// envelope is the service's success body; Data is decoded in place, never held twice.
type envelope[T any] struct {
	Message    string      `json:"message"`
	Data       T           `json:"data"`
	Pagination *Pagination `json:"pagination"`
}

func decodeEnvelope[T any](r request, raw []byte, env *envelope[T]) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return &DecodeError{Op: r.op, Object: r.object, Err: errNoBody}
	}
	if err := json.Unmarshal(raw, env); err != nil {
		return &DecodeError{Op: r.op, Object: r.object, Err: err, Body: raw}
	}
	return nil
}

func (c *Client) send(ctx context.Context, r request) ([]byte, error) {
	if r.method != http.MethodGet {
		// Nothing read before a write is handed out after it; a read that overlapped it is not kept.
		c.forgetReads()
		defer c.forgetReads()
	}
	ctx = tflog.MaskMessageStrings(ctx, c.apiKey)
	ctx = tflog.MaskAllFieldValuesStrings(ctx, c.apiKey)
	if r.secret != "" {
		// The write attempt's trace (pacer.go) logs the path it was sent to.
		ctx = tflog.MaskMessageStrings(ctx, r.secret, pathEscape(r.secret))
		ctx = tflog.MaskAllFieldValuesStrings(ctx, r.secret, pathEscape(r.secret))
	}
	st := &attemptState{noResend: r.noResend}
	ctx = context.WithValue(ctx, attemptKey{}, st)
	r.op = operationVerb(ctx, r.op)

	// An empty id leaves an empty segment: the call would address the collection (the path
	// /metrics/metric_source/ with the method of the object's) or another route, never the object.
	if strings.HasSuffix(r.path, "/") || strings.Contains(r.path, "//") {
		return nil, &RequestError{Op: r.op, Object: r.object, Err: errors.New("the identifier is empty")}
	}
	call := c.call(r)
	target := c.target(r)

	var body []byte
	if r.body != nil {
		var err error
		if body, err = json.Marshal(r.body); err != nil {
			return nil, &RequestError{Op: r.op, Object: r.object, Err: fmt.Errorf("encoding request: %w", err)}
		}
	}
	var reqBody any
	if body != nil {
		reqBody = body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, target, reqBody)
	if err != nil {
		return nil, &RequestError{Op: r.op, Object: r.object, Err: err}
	}
	req.Header.Set("SERVICE-API-KEY", c.apiKey)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.review {
		req.Header.Set("x-respect-review-settings", "true")
	}

	start := time.Now()
	c.access.begin()
	resp, err := c.http.Do(req)
	c.access.end(err == nil && resp.StatusCode >= 200 && resp.StatusCode <= 299)
	at := st.snapshot()
	fields := map[string]any{
		"method":      r.method,
		"path":        apiPrefix + r.redactedPath(),
		"attempts":    at.attempts,
		"duration_ms": time.Since(start).Milliseconds(),
	}
	if at.refusals > 0 {
		fields["rate_limited"] = at.refusals
	}
	if err != nil {
		fields["error"] = err.Error()
		tflog.Debug(ctx, "console API request failed", fields)
		if ctx.Err() != nil {
			maybe := at.ambiguous && r.method != http.MethodGet
			if at.lastStatus == http.StatusTooManyRequests && errors.Is(ctx.Err(), context.DeadlineExceeded) {
				limited := time.Since(at.firstRefused)
				return nil, &RateLimitError{Op: r.op, Object: r.object, Call: call, Limited: limited,
					Refusals: at.refusals, RetryAfter: at.retryAfter, LongWindow: longWindowFull(at.retryAfter, limited),
					Read: r.method == http.MethodGet, MaybeCommitted: maybe, Err: ctx.Err()}
			}
			return nil, &CancelledError{Op: r.op, Object: r.object, Call: call, MaybeCommitted: maybe, Err: ctx.Err()}
		}
		never := !at.ambiguous && neverSent(err) // before the chain may be flattened below
		if strings.Contains(err.Error(), c.apiKey) {
			// Flattened only when needed: the chain tells callers a timeout from a refused connection.
			err = errors.New(strings.ReplaceAll(err.Error(), c.apiKey, redacted))
		}
		return nil, &TransportError{Op: r.op, Object: r.object, Call: call, Attempts: at.attempts, NeverSent: never, Err: err}
	}
	defer resp.Body.Close()
	fields["status"] = resp.StatusCode
	raw, readErr := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	tflog.Debug(ctx, "console API request", fields)
	if readErr != nil {
		return nil, &TransportError{Op: r.op, Object: r.object, Call: call, Attempts: at.attempts, Err: fmt.Errorf("reading response: %w", readErr)}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, c.redactFor(r, newAPIError(r, call, resp, raw, c.apiKey, at.attempts, at.ambiguous))
	}
	return raw, nil
}

type operationKey struct{}

// WithOperation names the Terraform operation (create, update, delete) a request serves, so that a
// write the API calls an update ("update rules of gate") is described as what the user ran: a
// create of gate rules is a PATCH of the gate's rules, and its errors say "create rules of gate".
func WithOperation(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, operationKey{}, name)
}

func operationVerb(ctx context.Context, op string) string {
	name, _ := ctx.Value(operationKey{}).(string)
	if (name == "create" || name == "delete") && strings.HasPrefix(op, "update ") {
		return name + strings.TrimPrefix(op, "update")
	}
	return op
}

// withCall names the request a DecodeError of r answered.
func (c *Client) withCall(r request, err error) error {
	var de *DecodeError
	if errors.As(err, &de) && de.URL == "" {
		de.Call = c.call(r)
	}
	return err
}

// redactFor is redactDecodeError that also keeps r's secrets (a key's, in its path or its answers)
// out of the body and words an APIError or DecodeError quotes.
func (c *Client) redactFor(r request, err error) error {
	err = c.redactDecodeError(err)
	if r.secret == "" && !r.keyAnswers {
		return err
	}
	if de, ok := errors.AsType[*DecodeError](err); ok {
		de.Body = r.redactSecrets(de.Body)
	}
	if ae, ok := errors.AsType[*APIError](err); ok {
		ae.Body = r.redactSecrets(ae.Body)
		ae.Message = string(r.redactSecrets([]byte(ae.Message)))
	}
	return err
}

// redactDecodeError keeps the key out of the body a DecodeError quotes, should the service echo it.
func (c *Client) redactDecodeError(err error) error {
	var de *DecodeError
	if errors.As(err, &de) {
		de.Body = redactKey(de.Body, c.apiKey)
	}
	return err
}

// pathEscape escapes one path segment. "." and ".." are escaped too: left bare, a proxy or router
// would resolve them and the call would reach the collection or its parent instead of the object.
func pathEscape(s string) string {
	switch s {
	case ".":
		return "%2E"
	case "..":
		return "%2E%2E"
	}
	return url.PathEscape(s)
}
