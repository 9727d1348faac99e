// Package console is the client of the feature service's console management API.
package console

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
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
	// Transport overrides the HTTP transport (tests).
	Transport http.RoundTripper
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
	http       *retryablehttp.Client
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
	}
	if c.userAgent == "" {
		c.userAgent = "terraform-provider-featureconsole/dev"
	}
	if c.pageSize <= 0 {
		c.pageSize = DefaultPageSize
	}
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
			transport = t
		}
	}

	rc := retryablehttp.NewClient()
	rc.HTTPClient = &http.Client{
		Transport: &pacedTransport{next: transport, pacer: c.pacer},
		Timeout:   timeout,
		// Following a redirect would turn a PATCH or POST into a GET that "succeeds", and would
		// carry SERVICE-API-KEY to whatever host the Location names: a 3xx is an error instead.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	rc.Logger = nil
	rc.RetryMax = c.maxRetries
	rc.RetryWaitMin = cfg.RetryWaitMin
	if rc.RetryWaitMin <= 0 {
		rc.RetryWaitMin = DefaultRetryWaitMin
	}
	rc.RetryWaitMax = cfg.RetryWaitMax
	if rc.RetryWaitMax <= 0 {
		rc.RetryWaitMax = DefaultRetryWaitMax
	}
	rc.CheckRetry = checkRetry
	rc.Backoff = backoff
	rc.ErrorHandler = retryablehttp.PassthroughErrorHandler
	rc.RequestLogHook = func(_ retryablehttp.Logger, r *http.Request, attempt int) {
		if st, ok := r.Context().Value(attemptKey{}).(*attemptState); ok {
			st.attempts.Store(int32(attempt + 1))
		}
	}
	c.http = rc
	return c, nil
}

// SetUserAgent replaces the User-Agent (the provider learns the Terraform version after New).
func (c *Client) SetUserAgent(ua string) { c.userAgent = ua }

// BaseURL is the normalised API root, ending in /console/v1.
func (c *Client) BaseURL() string { return c.base.String() }

type attemptKey struct{}

type attemptState struct {
	attempts atomic.Int32
	// ambiguous is set once an attempt of a write may have reached the service without its answer reaching us.
	ambiguous atomic.Bool
}

func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) && (strings.Contains(ue.Error(), "unsupported protocol scheme") || strings.Contains(ue.Error(), "certificate")) {
			return false, err
		}
		markAmbiguous(ctx)
		return true, nil
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		return true, nil
	}
	if resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented {
		markAmbiguous(ctx)
		return true, nil
	}
	return false, nil
}

func markAmbiguous(ctx context.Context) {
	if st, ok := ctx.Value(attemptKey{}).(*attemptState); ok {
		st.ambiguous.Store(true)
	}
}

// maxRetryAfter caps how long a single Retry-After may hold a request.
const maxRetryAfter = 2 * time.Minute

// backoff is exponential with full jitter, but honours Retry-After on 429 and 503.
func backoff(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After")); ok {
			return min(d, maxRetryAfter)
		}
	}
	ceiling := minWait << min(attempt, 30)
	if ceiling <= 0 || ceiling > maxWait {
		ceiling = maxWait
	}
	// Half fixed, half random: spreads concurrent writers without ever retrying at once.
	half := ceiling / 2
	return half + rand.N(half+1)
}

func parseRetryAfter(v string) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}

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
}

// do performs a call and decodes the envelope's data into out (when non-nil).
func (c *Client) do(ctx context.Context, r request, out any) error {
	raw, err := c.send(ctx, r)
	if err != nil {
		return err
	}
	if out == nil {
		// A call that wants no data (a delete) may be answered 204 or 200 with no body at all.
		if len(bytes.TrimSpace(raw)) == 0 {
			return nil
		}
		return c.redactDecodeError(decodeEnvelope(r, raw, &envelope[json.RawMessage]{}))
	}
	env := envelope[dataSink]{Data: dataSink{out: out}}
	if err := decodeEnvelope(r, raw, &env); err != nil {
		return c.redactDecodeError(err)
	}
	// Without data, out would be a zero object: a gate with no id and no rules, say, that the
	// provider would take for the service's state.
	if !env.Data.seen && !r.dataOptional {
		return c.redactDecodeError(&DecodeError{Op: r.op, Object: r.object, Err: errors.New("the response carries no data"), Body: raw})
	}
	return nil
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
		return &DecodeError{Op: r.op, Object: r.object, Err: errors.New("empty response body")}
	}
	if err := json.Unmarshal(raw, env); err != nil {
		return &DecodeError{Op: r.op, Object: r.object, Err: err, Body: raw}
	}
	return nil
}

func (c *Client) send(ctx context.Context, r request) ([]byte, error) {
	ctx = tflog.MaskMessageStrings(ctx, c.apiKey)
	ctx = tflog.MaskAllFieldValuesStrings(ctx, c.apiKey)
	st := &attemptState{}
	ctx = context.WithValue(ctx, attemptKey{}, st)

	// An empty id leaves an empty segment: the call would address the collection (DELETE
	// /metrics/metric_source/) or another route, never the object.
	if strings.HasSuffix(r.path, "/") || strings.Contains(r.path, "//") {
		return nil, fmt.Errorf("%s: the identifier is empty", r.describe())
	}
	target := c.base.String() + r.path
	if len(r.query) > 0 {
		target += "?" + r.query.Encode()
	}

	var body []byte
	if r.body != nil {
		var err error
		if body, err = json.Marshal(r.body); err != nil {
			return nil, fmt.Errorf("%s: encoding request: %w", r.describe(), err)
		}
	}
	var reqBody any
	if body != nil {
		reqBody = body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, target, reqBody)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.describe(), err)
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
	resp, err := c.http.Do(req)
	fields := map[string]any{
		"method":      r.method,
		"path":        apiPrefix + r.path,
		"attempts":    st.attempts.Load(),
		"duration_ms": time.Since(start).Milliseconds(),
	}
	if err != nil {
		fields["error"] = err.Error()
		tflog.Debug(ctx, "console API request failed", fields)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s: cancelled: %w", r.describe(), ctx.Err())
		}
		if strings.Contains(err.Error(), c.apiKey) {
			// Flattened only when needed: the chain tells callers a timeout from a refused connection.
			err = errors.New(strings.ReplaceAll(err.Error(), c.apiKey, redacted))
		}
		return nil, &TransportError{Op: r.op, Object: r.object, Attempts: int(st.attempts.Load()), Err: err}
	}
	defer resp.Body.Close()
	fields["status"] = resp.StatusCode
	raw, readErr := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	tflog.Debug(ctx, "console API request", fields)
	if readErr != nil {
		return nil, &TransportError{Op: r.op, Object: r.object, Attempts: int(st.attempts.Load()), Err: fmt.Errorf("reading response: %w", readErr)}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, newAPIError(r, resp, raw, c.apiKey, int(st.attempts.Load()), st.ambiguous.Load())
	}
	return raw, nil
}

func (r request) describe() string {
	if r.object == "" {
		return "Unable to " + r.op
	}
	return "Unable to " + r.op + " " + r.object
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
