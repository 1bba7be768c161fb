package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
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

	decoders sync.Pool // of *decoder
	buffers  sync.Pool // of *[]byte
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
		sleep:        sleepContext,
		now:          time.Now,
	}
	for _, opt := range opts {
		opt(c)
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

// defaultHTTPClient returns a client over rt with an overall timeout, so a
// stuck records service cannot hold a call forever even without a context
// deadline, and redirects held to the original scheme and host.
func defaultHTTPClient(rt http.RoundTripper) *http.Client {
	return &http.Client{Transport: rt, Timeout: 60 * time.Second, CheckRedirect: checkRedirect}
}

// DefaultTransport returns a new instance of the transport a Client uses
// unless given another: keep-alive connection pooling sized for a busy bot
// (256 idle connections per host), a 5s dial and TLS handshake timeout, a
// 15s wait for response headers, HTTP/2 when offered and the environment's
// proxy settings. It is exported so that callers can wrap it (for metrics)
// and pass it to [WithTransport].
func DefaultTransport() *http.Transport {
	dialer := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Transport{
		// Like http.DefaultTransport, so deployments behind an egress proxy
		// work.
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   256,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: 15 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// errCrossOriginRedirect stops a redirect to another scheme or host, which
// could carry the API key to a third party or over plain HTTP.
var errCrossOriginRedirect = errors.New("refusing redirect to another scheme or host")

func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if !sameOrigin(req.URL, via[0].URL) {
		return errCrossOriginRedirect
	}
	return nil
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

// endpoint names an API operation in errors.
type endpoint struct {
	method string
	path   string // template, such as "/actions/{id}"
	scope  string
}

// ListActions lists actions, following pagination to the end (see the
// package documentation for the forms accepted). With opts.Status set, only
// actions with that status are returned: the filter is sent as ?status= and
// applied again to the answer, so a server that ignores it cannot make the
// bot show closed actions as open. A nil opts lists every action.
//
// When a safety cap on pages or items is reached, or the server's next link
// leads back to a page already read, the actions read so far are returned
// with Truncated set. Errors: ErrInvalidStatus for an undocumented
// opts.Status (nothing is sent), ErrUnauthorized, ErrForbidden (scope
// actions:read), ErrRateLimited, ErrUnavailable, ErrInvalidResponse (also
// for a next link to another scheme or host), ErrBadRequest.
func (c *Client) ListActions(ctx context.Context, opts *ListActionsOptions) (*ActionList, error) {
	ep := endpoint{http.MethodGet, "/actions", scopeActionsRead}
	var status Status
	if opts != nil {
		status = opts.Status
	}
	ref := "actions"
	if status != "" {
		if !status.Valid() {
			return nil, c.newError(ep, 0, ErrInvalidStatus, fmt.Sprintf("%q is not a documented status", status), nil)
		}
		ref += "?status=" + url.QueryEscape(string(status))
	}
	list := &ActionList{}
	seen := make(map[string]struct{})
	for page := 0; ; page++ {
		if page == c.maxPages {
			list.Truncated = true
			break
		}
		req, err := c.newRequest(ctx, http.MethodGet, ref, nil)
		if err != nil {
			return nil, c.newError(ep, 0, ErrInvalidResponse, "", err)
		}
		seen[req.URL.String()] = struct{}{}
		var next *url.URL
		err = c.do(req, ep, func(resp *http.Response, body []byte) error {
			d := c.getDecoder()
			defer c.putDecoder(d, len(body))
			before := len(list.Actions)
			acts, n, pf, err := decodeList(d, body, "actions", list.Actions, c.maxItems-before, decodeAction)
			if err != nil {
				return err
			}
			if next, err = c.nextPage(resp, pf); err != nil {
				return err
			}
			list.Actions = acts
			// Records dropped at the item cap, or a next page that will not
			// be read because of it, mean the list is incomplete.
			if len(acts)-before < n || (len(acts) >= c.maxItems && next != nil) {
				list.Truncated = true
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if next == nil || list.Truncated {
			break
		}
		if _, loop := seen[next.String()]; loop {
			list.Truncated = true
			break
		}
		ref = next.String()
	}
	if status != "" {
		list.Actions = slices.DeleteFunc(list.Actions, func(a Action) bool { return a.Status != status })
	}
	return list, nil
}

// UpdateActionStatus sets action id's status and returns the updated action
// as the server sent it back. When the answer is empty (such as 204 No
// Content) or lacks the id or status, the requested ones fill the gaps.
//
// Errors: ErrInvalidStatus when status is not Valid (nothing is sent),
// ErrNotFound (also for an empty id, "." or ".."), ErrUnauthorized,
// ErrForbidden (scope actions:write), ErrBadRequest (such as a status the
// server refuses), ErrRateLimited, ErrUnavailable, ErrInvalidResponse.
func (c *Client) UpdateActionStatus(ctx context.Context, id string, status Status) (*Action, error) {
	ep := endpoint{http.MethodPut, "/actions/{id}", scopeActionsWrite}
	if !status.Valid() {
		return nil, c.newError(ep, 0, ErrInvalidStatus, fmt.Sprintf("%q is not a documented status", status), nil)
	}
	if err := c.checkID(ep, id); err != nil {
		return nil, err
	}
	req, err := c.newRequest(ctx, http.MethodPut, "actions/"+url.PathEscape(id), struct {
		Status Status `json:"status"`
	}{status})
	if err != nil {
		return nil, c.newError(ep, 0, ErrInvalidResponse, "", err)
	}
	a := &Action{}
	err = c.do(req, ep, func(_ *http.Response, body []byte) error {
		*a = Action{}
		if len(bytes.TrimSpace(body)) == 0 {
			return nil
		}
		d := c.getDecoder()
		defer c.putDecoder(d, len(body))
		return d.decodeActionBody(body, a)
	})
	if err != nil {
		return nil, err
	}
	if a.ID == "" {
		a.ID = id
	}
	if a.Status == "" {
		a.Status = status
	}
	return a, nil
}

// ListMeetings returns one page of meetings, newest first as the server
// orders them. A nil opts, or an empty opts.Next, starts at the first page;
// pass the previous page's Next to continue. Next is empty on the last page
// (also when the server's next link points back at the same page).
//
// Errors: ErrBadRequest for an opts.Next this client did not produce
// (nothing is sent), ErrUnauthorized, ErrForbidden (scope meetings:read),
// ErrRateLimited, ErrUnavailable, ErrInvalidResponse (also for a next link
// to another scheme or host).
func (c *Client) ListMeetings(ctx context.Context, opts *ListMeetingsOptions) (*MeetingPage, error) {
	ep := endpoint{http.MethodGet, "/meetings", scopeMeetingsRead}
	ref := "meetings"
	if opts != nil && opts.Next != "" {
		u, err := c.tokenURL(opts.Next)
		if err != nil {
			return nil, c.newError(ep, 0, ErrBadRequest, "invalid next page token", err)
		}
		ref = u.String()
	}
	req, err := c.newRequest(ctx, http.MethodGet, ref, nil)
	if err != nil {
		return nil, c.newError(ep, 0, ErrInvalidResponse, "", err)
	}
	page := &MeetingPage{}
	err = c.do(req, ep, func(resp *http.Response, body []byte) error {
		d := c.getDecoder()
		defer c.putDecoder(d, len(body))
		ms, _, pf, err := decodeList(d, body, "meetings", page.Meetings[:0], -1, decodeMeeting)
		if err != nil {
			return err
		}
		page.Meetings = ms
		next, err := c.nextPage(resp, pf)
		if err != nil {
			return err
		}
		if next != nil && next.String() != resp.Request.URL.String() {
			page.Next = next.RequestURI()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return page, nil
}

// GetMeeting returns one meeting with its agenda. When the meeting is
// wrapped ({"meeting": {...}}) and its agenda sits beside it in the
// envelope, that agenda is used; a missing id is filled with the one asked
// for.
//
// Errors: ErrNotFound (also for an empty id, "." or ".."), ErrUnauthorized,
// ErrForbidden (scope meetings:read), ErrRateLimited, ErrUnavailable,
// ErrInvalidResponse, ErrBadRequest.
func (c *Client) GetMeeting(ctx context.Context, id string) (*Meeting, error) {
	ep := endpoint{http.MethodGet, "/meetings/{id}", scopeMeetingsRead}
	if err := c.checkID(ep, id); err != nil {
		return nil, err
	}
	req, err := c.newRequest(ctx, http.MethodGet, "meetings/"+url.PathEscape(id), nil)
	if err != nil {
		return nil, c.newError(ep, 0, ErrInvalidResponse, "", err)
	}
	m := &Meeting{}
	err = c.do(req, ep, func(_ *http.Response, body []byte) error {
		*m = Meeting{}
		d := c.getDecoder()
		defer c.putDecoder(d, len(body))
		return d.decodeMeetingBody(body, m)
	})
	if err != nil {
		return nil, err
	}
	if m.ID == "" {
		m.ID = id
	}
	return m, nil
}

// GetMinutes returns a meeting's minutes. Only minutes whose status is
// approved or published_draft are returned; any other status, or none, is
// ErrNotFound even when the server sent the minutes, so unpublished minutes
// can never reach a channel. MeetingID is the record's own meeting id, else
// meetingID.
//
// Errors: ErrNotFound (also for an empty id, "." or ".."),
// ErrUnauthorized, ErrForbidden (scope meetings:read), ErrRateLimited,
// ErrUnavailable, ErrInvalidResponse, ErrBadRequest.
func (c *Client) GetMinutes(ctx context.Context, meetingID string) (*Minutes, error) {
	ep := endpoint{http.MethodGet, "/meetings/{id}/minutes", scopeMeetingsRead}
	if err := c.checkID(ep, meetingID); err != nil {
		return nil, err
	}
	req, err := c.newRequest(ctx, http.MethodGet, "meetings/"+url.PathEscape(meetingID)+"/minutes", nil)
	if err != nil {
		return nil, c.newError(ep, 0, ErrInvalidResponse, "", err)
	}
	m := &Minutes{}
	err = c.do(req, ep, func(resp *http.Response, body []byte) error {
		*m = Minutes{}
		d := c.getDecoder()
		defer c.putDecoder(d, len(body))
		if err := d.decodeMinutesBody(body, m); err != nil {
			if errors.Is(err, errHiddenMinutes) {
				return c.newError(ep, resp.StatusCode, ErrNotFound, "minutes are not published", err)
			}
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if m.MeetingID == "" {
		m.MeetingID = meetingID
	}
	return m, nil
}

// checkID refuses identifiers that cannot name a record: an empty one
// would address the list instead, and "." or ".." are dot segments that
// servers and proxies resolve to another path.
func (c *Client) checkID(ep endpoint, id string) error {
	if id == "" || id == "." || id == ".." {
		return c.newError(ep, 0, ErrNotFound, fmt.Sprintf("invalid id %q", id), nil)
	}
	return nil
}

// newRequest builds a request for ref, either a path relative to the base
// URL, already escaped ("actions/a%2Fb?status=open"), or an absolute URL,
// which must be on the base URL's scheme and host. A non-nil body is sent as
// JSON. Every request carries the API key, Accept and User-Agent.
func (c *Client) newRequest(ctx context.Context, method, ref string, body any) (*http.Request, error) {
	var u *url.URL
	var err error
	if strings.HasPrefix(ref, "http://") || strings.HasPrefix(ref, "https://") {
		u, err = url.Parse(ref)
	} else {
		// Concatenation, not ResolveReference: the base has no trailing
		// slash and ids must not be subject to dot-segment removal. Parse
		// keeps an escaped "/" (%2F) in RawPath, so it stays escaped on the
		// wire.
		u, err = url.Parse(c.base.String() + "/" + ref)
	}
	if err != nil {
		return nil, fmt.Errorf("build request url: %w", err)
	}
	if !sameOrigin(u, c.base) {
		return nil, fmt.Errorf("refusing request to %s://%s: not the records api host", u.Scheme, u.Host)
	}
	var rd *bytes.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("encode request body: %w", err)
		}
		rd = bytes.NewReader(b)
	}
	var req *http.Request
	if rd != nil {
		req, err = http.NewRequestWithContext(ctx, method, u.String(), rd)
	} else {
		req, err = http.NewRequestWithContext(ctx, method, u.String(), nil)
	}
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// sameOrigin reports whether u has the scheme and host (with the default
// port made explicit) of base, and no user info.
func sameOrigin(u, base *url.URL) bool {
	return u.User == nil && u.Opaque == "" &&
		strings.EqualFold(u.Scheme, base.Scheme) &&
		hostPort(u) == hostPort(base)
}

func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return strings.ToLower(u.Hostname()) + ":" + port
}

// tokenURL turns a MeetingPage.Next token (a request URI on the base host)
// back into a URL, refusing anything that would leave that host.
func (c *Client) tokenURL(token string) (*url.URL, error) {
	if !strings.HasPrefix(token, "/") || strings.HasPrefix(token, "//") || strings.ContainsAny(token, "\\#") {
		return nil, errors.New("not a path on the records api host")
	}
	ref, err := url.Parse(token)
	if err != nil {
		return nil, fmt.Errorf("parse next token: %w", err)
	}
	u := *c.base
	u.Path, u.RawPath, u.RawQuery = ref.Path, ref.RawPath, ref.RawQuery
	return &u, nil
}

// nextPage works out the URL of the page after resp from the Link header
// and the body's pagination fields pf (see the package documentation). It
// returns nil on the last page, and an error for a next URL that is not on
// the base URL's scheme and host.
func (c *Client) nextPage(resp *http.Response, pf pageFields) (*url.URL, error) {
	cur := resp.Request.URL
	if pf.hasMore < 0 {
		return nil, nil
	}
	ref, ok := nextLink(resp.Header.Values("Link"))
	if !ok {
		ref = pf.next
	}
	if ref != "" {
		u, err := cur.Parse(ref)
		if err != nil {
			return nil, fmt.Errorf("next page link: %w", err)
		}
		u.Fragment, u.RawFragment = "", ""
		if !sameOrigin(u, c.base) {
			return nil, fmt.Errorf("next page link leads to %s://%s, not the records api host", u.Scheme, u.Host)
		}
		return u, nil
	}
	q := cur.Query()
	cursor := pf.cursor
	if cursor == "" && pf.echoCursor != q.Get("cursor") {
		cursor = pf.echoCursor
	}
	currentPage := func() int {
		if n, err := strconv.Atoi(pf.page); err == nil {
			return n
		}
		if n, err := strconv.Atoi(q.Get("page")); err == nil {
			return n
		}
		return 1
	}
	switch {
	case cursor != "":
		q.Set("cursor", cursor)
	case pf.nextPage != "":
		q.Set("page", pf.nextPage)
	case pf.totalPages != "":
		total, err := strconv.Atoi(pf.totalPages)
		if err != nil {
			return nil, fmt.Errorf("total_pages %q is not a number", pf.totalPages)
		}
		p := currentPage()
		if p >= total {
			return nil, nil
		}
		q.Set("page", strconv.Itoa(p+1))
	case pf.hasMore > 0:
		q.Set("page", strconv.Itoa(currentPage()+1))
	default:
		return nil, nil
	}
	u := *cur
	u.RawQuery = q.Encode()
	return &u, nil
}

func (c *Client) getDecoder() *decoder {
	if d, ok := c.decoders.Get().(*decoder); ok {
		return d
	}
	return new(decoder)
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
