package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/internal/retry"
)

// Defaults of a Client; see the options that change them.
const (
	defaultMaxRetries   = 3
	defaultRetryBase    = 100 * time.Millisecond
	defaultRetryMax     = 2 * time.Second
	defaultMaxBodyBytes = 32 << 20
	defaultMaxPages     = 200
	defaultMaxItems     = 100_000

	// maxRetryAfter is the longest Retry-After the client waits out; a
	// server asking for more gets its error returned at once, since a
	// caller would rather report "try later" than hang.
	maxRetryAfter = time.Minute
	// maxErrorBodyBytes bounds how much of an error response is read: the
	// message is cut to maxMessageLen anyway.
	maxErrorBodyBytes = 64 << 10
	// maxPooledBytes bounds the buffers and parsers kept for reuse, so one
	// huge response does not pin its memory for the life of the process.
	maxPooledBytes = 8 << 20
)

// The scopes of Records API v1, reported in Error.Scope on ErrForbidden.
const (
	scopeActionsRead  = "actions:read"
	scopeActionsWrite = "actions:write"
	scopeMeetingsRead = "meetings:read"
)

// Client is a Records API v1 client. Its methods are safe for concurrent use.
type Client struct {
	base       *url.URL // absolute, path ends in "/api/v1" without a slash
	apiKey     string
	httpClient *http.Client
	transport  http.RoundTripper // for the default httpClient
	userAgent  string

	maxRetries          int
	retryBase, retryMax time.Duration
	maxBodyBytes        int64
	maxPages, maxItems  int

	// sleep and now are replaced in tests so that retries take no time.
	sleep func(ctx context.Context, d time.Duration) error
	now   func() time.Time

	// schema holds the alias tables, with the field map applied.
	schema   *schema
	fieldMap FieldMap

	decoders sync.Pool // of *decoder
	buffers  sync.Pool // of *[]byte

	// keepRaw fills Action.Raw in ListActions (WithRawRecords).
	keepRaw bool
	// memo remembers pages of actions for conditional requests.
	memo listMemo
	// sharedLists: see WithSharedLists.
	sharedLists bool
	// held is the pause the last 429 asked of every caller.
	held hold
}

// NewClient returns a client for the API at baseURL, which must be an
// absolute http(s) URL whose path ends in /api/v1 (a trailing slash is
// ignored) with no user info, query or fragment, authenticating with
// apiKey, which must be non-empty and free of spaces and control characters.
// It returns an error describing the first problem otherwise.
func NewClient(baseURL, apiKey string, opts ...Option) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("records api base url: %w", err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("records api base url %q: scheme must be http or https", baseURL)
	case u.Host == "":
		return nil, fmt.Errorf("records api base url %q: no host", baseURL)
	case u.User != nil:
		return nil, errors.New("records api base url: must not contain user info")
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return nil, fmt.Errorf("records api base url %q: must not have a query or fragment", baseURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = strings.TrimSuffix(u.RawPath, "/")
	if !strings.HasSuffix(u.Path, "/api/v1") {
		return nil, fmt.Errorf("records api base url %q: path must end in /api/v1", baseURL)
	}
	if apiKey == "" {
		return nil, errors.New("records api key is empty")
	}
	if strings.IndexFunc(apiKey, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return nil, errors.New("records api key contains spaces or control characters")
	}
	c := &Client{
		base:         u,
		apiKey:       apiKey,
		userAgent:    defaultUserAgent(),
		maxRetries:   defaultMaxRetries,
		retryBase:    defaultRetryBase,
		retryMax:     defaultRetryMax,
		maxBodyBytes: defaultMaxBodyBytes,
		maxPages:     defaultMaxPages,
		maxItems:     defaultMaxItems,
		sleep:        retry.Sleep,
		now:          time.Now,
	}
	c.memo.max = defaultMemoActions
	for _, opt := range opts {
		opt(c)
	}
	c.schema = defaultSchema
	if len(c.fieldMap) > 0 {
		// Checked again here because a FieldMap may be built by hand.
		m, err := ParseFieldMap(c.fieldMap.String())
		if err != nil {
			return nil, fmt.Errorf("records field map: %w", err)
		}
		c.fieldMap, c.schema = m, newSchema(m)
	}
	if c.httpClient == nil {
		rt := c.transport
		if rt == nil {
			rt = DefaultTransport()
		}
		c.httpClient = defaultHTTPClient(rt)
	}
	return c, nil
}

// defaultUserAgent names recordsbot and the version of the main module as
// recorded in the build ("dev" when it has none, as in tests and go run).
func defaultUserAgent() string {
	version := "dev"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		version = bi.Main.Version
	}
	return "recordsbot/" + version
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sets the HTTP client (default: one over [DefaultTransport]
// with a 60s overall timeout and redirects limited to the base URL's scheme
// and host). It takes precedence over [WithTransport].
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.httpClient = hc } }

// WithTransport keeps the default HTTP client (its timeout and redirect
// policy) but sends requests through rt, typically [DefaultTransport]
// wrapped for metrics. A nil rt means [DefaultTransport].
func WithTransport(rt http.RoundTripper) Option { return func(c *Client) { c.transport = rt } }

// WithUserAgent sets the User-Agent header (default "recordsbot/" and the
// build's module version, "recordsbot/dev" in development builds).
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// WithRetry sets how transient failures are retried: at most maxRetries
// retries (default 3; 0 disables retrying), waiting a jittered exponential
// backoff that starts at base (default 100ms) and is capped at maxDelay
// (default 2s), unless the server sends Retry-After. Negative values are
// taken as zero.
func WithRetry(maxRetries int, base, maxDelay time.Duration) Option {
	return func(c *Client) {
		c.maxRetries, c.retryBase, c.retryMax = max(maxRetries, 0), max(base, 0), max(maxDelay, 0)
	}
}

// WithMaxResponseBytes caps the size of a response body (default 32 MiB);
// a larger body fails with ErrInvalidResponse. n <= 0 keeps the default.
func WithMaxResponseBytes(n int64) Option {
	return func(c *Client) {
		if n > 0 {
			c.maxBodyBytes = n
		}
	}
}

// WithListLimits sets the safety caps of ListActions: at most maxPages
// pages (default 200) and maxItems actions (default 100,000). Reaching a
// cap is reported through ActionList.Truncated. Values <= 0 keep the
// defaults.
func WithListLimits(maxPages, maxItems int) Option {
	return func(c *Client) {
		if maxPages > 0 {
			c.maxPages = maxPages
		}
		if maxItems > 0 {
			c.maxItems = maxItems
		}
	}
}

// WithFieldMap makes the client read each field in m from the member or
// path m names before trying the built-in aliases (see [ParseFieldMap]).
// NewClient fails when m names a field the client does not know.
func WithFieldMap(m FieldMap) Option { return func(c *Client) { c.fieldMap = m } }

// endpoint names an API operation in errors.
type endpoint struct {
	method string
	path   string // template, such as "/actions/{id}"
	scope  string
}

// checkID refuses identifiers that cannot name a record: an empty one
// would address the list instead, and "." or ".." are dot segments that
// servers and proxies resolve to another path.
func (c *Client) checkID(ep endpoint, id string) error {
	// An id may hold a "/" (FIN-2026-09/2), sent escaped; but a "." or ".."
	// segment would take the API key elsewhere on a server or proxy that
	// unescapes before it resolves, and no record is named so.
	if id == "" || hasDotSegment(id) {
		return c.newError(ep, 0, ErrNotFound, fmt.Sprintf("invalid id %q", id), nil)
	}
	return nil
}

func (c *Client) getDecoder() *decoder {
	if d, ok := c.decoders.Get().(*decoder); ok {
		return d
	}
	return &decoder{schema: c.schema}
}

// putDecoder returns d to the pool unless it last parsed a body so large
// that keeping its buffers would pin too much memory.
func (c *Client) putDecoder(d *decoder, bodyLen int) {
	d.release()
	if bodyLen <= maxPooledBytes {
		c.decoders.Put(d)
	}
}

func (c *Client) getBuffer() *[]byte {
	if b, ok := c.buffers.Get().(*[]byte); ok {
		return b
	}
	return new([]byte)
}

func (c *Client) putBuffer(b *[]byte) {
	if cap(*b) <= maxPooledBytes {
		*b = (*b)[:0]
		c.buffers.Put(b)
	}
}
