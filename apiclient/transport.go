package apiclient

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/valyala/fastjson"

	"github.com/recordsbot/recordsbot/internal/retry"
)

// maxMessageLen bounds Error.Message, in bytes: enough for a sentence,
// short enough for a log line.
const maxMessageLen = 200

// decodeFunc decodes a 2xx response body. The body is only valid during the
// call. An *Error it returns is passed on as is; any other error becomes
// ErrInvalidResponse.
type decodeFunc func(resp *http.Response, body []byte) error

// do sends req and hands a 2xx body to decode, retrying transient failures
// (429, 502, 503, 504 and connection errors) with jittered exponential
// backoff or the server's Retry-After. Every request this client sends is a
// GET or a PUT, both idempotent, so a retry cannot apply a change twice.
//
// A 500 is not retried: unlike 502/503/504 it says the server failed on
// this very request, and asking again usually fails again while eating the
// caller's time budget.
//
// A wait that would end after the context's deadline is not started: the
// last error is returned at once, so the caller can tell its user the
// records service is down while it still has time to answer.
//
// A 429's Retry-After holds the whole client (see hold): every call made
// meanwhile waits it out before its first request, or fails at once.
func (c *Client) do(req *http.Request, ep endpoint, decode decodeFunc) error {
	if e := c.awaitHold(req.Context(), ep); e != nil {
		return e
	}
	var last *Error
	policy := retry.Policy{
		Attempts: c.maxRetries + 1, Base: c.retryBase, Max: c.retryMax, MaxWait: maxRetryAfter,
		Now: c.now, Sleep: c.sleep,
	}
	err := retry.Do(req.Context(), policy, func(context.Context, int) retry.Result {
		e, again := c.send(req, ep, decode)
		if e == nil {
			return retry.Result{}
		}
		last = e
		return retry.Result{Err: e, Retry: again, After: e.RetryAfter}
	})
	if err == nil || last == nil {
		return err
	}
	if err != error(last) {
		// The context ended a wait: say so on the error callers inspect.
		last.Err = errors.Join(last.Err, context.Cause(req.Context()))
	}
	return last
}

// send makes one attempt. It returns nil on success, else the error and
// whether it is worth retrying.
func (c *Client) send(req *http.Request, ep endpoint, decode decodeFunc) (*Error, bool) {
	ctx := req.Context()
	r := req
	if req.GetBody != nil {
		// A previous attempt consumed the body.
		body, err := req.GetBody()
		if err != nil {
			return c.newError(ep, 0, ErrInvalidResponse, "", err), false
		}
		r = req.Clone(ctx)
		r.Body = body
	}
	if !withinBudget(ctx) {
		return c.newError(ep, 0, ErrOverBudget, "", nil), false
	}
	resp, err := c.httpClient.Do(r)
	if err != nil {
		return c.transportError(ctx, ep, err)
	}
	defer func() {
		// Draining a little lets the connection be reused; a drain that
		// fails only costs that reuse, the answer is already read.
		_, _ = io.CopyN(io.Discard, resp.Body, 4<<10)
		_ = resp.Body.Close()
	}()
	if resp.StatusCode == http.StatusNotModified && conditional(r) {
		return c.notModified(resp, ep, decode)
	}

	ok := resp.StatusCode >= 200 && resp.StatusCode < 300
	limit := int64(maxErrorBodyBytes)
	if ok {
		limit = c.maxBodyBytes
	}
	if ok && resp.ContentLength > limit {
		return c.newError(ep, resp.StatusCode, ErrInvalidResponse, "", fmt.Errorf("response body of %d bytes exceeds the %d byte limit", resp.ContentLength, limit)), false
	}
	buf := c.getBuffer()
	defer c.putBuffer(buf)
	body, err := readBody(io.LimitReader(resp.Body, limit+1), (*buf)[:0], resp.ContentLength, limit)
	*buf = body
	if err != nil {
		e, retry := c.transportError(ctx, ep, fmt.Errorf("read response body: %w", err))
		e.StatusCode = resp.StatusCode
		return e, retry
	}
	if int64(len(body)) > limit {
		if !ok {
			// The message is cut short anyway.
			body = body[:limit]
		} else {
			return c.newError(ep, resp.StatusCode, ErrInvalidResponse, "", fmt.Errorf("response body exceeds the %d byte limit", limit)), false
		}
	}
	if !ok {
		return c.checkResponse(resp, body, ep)
	}
	if err := decode(resp, body); err != nil {
		if e, ok := errors.AsType[*Error](err); ok {
			return e, false
		}
		return c.newError(ep, resp.StatusCode, ErrInvalidResponse, "", err), false
	}
	return nil, false
}

// readBody reads r to the end into buf, reusing its capacity. sizeHint is
// the Content-Length (-1 when unknown); trusting it up to limit lets a body
// be read with a single allocation, or none when buf is big enough.
func readBody(r io.Reader, buf []byte, sizeHint, limit int64) ([]byte, error) {
	if sizeHint > 0 && sizeHint <= limit {
		// One spare byte, so the read that reports EOF needs no growth.
		buf = slices.Grow(buf, int(sizeHint)+1)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// transportError classifies an error from sending a request or reading its
// answer: always ErrUnavailable, except a refused redirect
// (ErrInvalidResponse). It is retried unless the caller's context is done,
// the redirect was refused or the server's certificate was rejected, none
// of which a retry can fix.
func (c *Client) transportError(ctx context.Context, ep endpoint, err error) (*Error, bool) {
	if errors.Is(err, errCrossOriginRedirect) {
		return c.newError(ep, 0, ErrInvalidResponse, "", err), false
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		if !errors.Is(err, ctxErr) {
			// Keep errors.Is(err, context.DeadlineExceeded) true whatever
			// the transport reported.
			err = fmt.Errorf("%w: %w", ctxErr, err)
		}
		return c.newError(ep, 0, ErrUnavailable, "", err), false
	}
	var certErr *tls.CertificateVerificationError
	return c.newError(ep, 0, ErrUnavailable, "", err), !errors.As(err, &certErr)
}

// checkResponse turns a non-2xx answer into an *Error and says whether it is
// worth retrying.
func (c *Client) checkResponse(resp *http.Response, body []byte, ep endpoint) (*Error, bool) {
	code := resp.StatusCode
	var kind error
	retry := false
	switch {
	case code == http.StatusUnauthorized:
		kind = ErrUnauthorized
	case code == http.StatusForbidden:
		kind = ErrForbidden
	case code == http.StatusNotFound || code == http.StatusGone:
		kind = ErrNotFound
	case code == http.StatusTooManyRequests:
		kind, retry = ErrRateLimited, true
	case code >= 500:
		kind = ErrUnavailable
		retry = code == http.StatusBadGateway || code == http.StatusServiceUnavailable || code == http.StatusGatewayTimeout
	case code >= 400:
		kind = ErrBadRequest
	default: // 1xx or a redirect that was not followed
		kind = ErrInvalidResponse
	}
	e := c.newError(ep, code, kind, c.errorMessage(resp.Header.Get("Content-Type"), body), nil)
	if kind == ErrForbidden {
		e.Scope = ep.scope
	}
	if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
		e.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), c.now())
	}
	if code == http.StatusTooManyRequests && e.RetryAfter > 0 {
		c.held.extend(c.now().Add(min(e.RetryAfter, maxRetryAfter)))
	}
	return e, retry
}

// parseRetryAfter reads a Retry-After value: delay seconds or an HTTP-date.
// It returns 0 when v is absent, malformed or in the past.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		// Beyond a day it is nonsense; saturate instead of overflowing.
		return time.Duration(min(secs, 86400)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d.Round(time.Second)
		}
	}
	return 0
}

// newError builds an *Error, redacting the API key from the message and
// from the cause so that Error() can never reveal it.
func (c *Client) newError(ep endpoint, code int, kind error, msg string, cause error) *Error {
	if cause != nil && strings.Contains(cause.Error(), c.apiKey) {
		cause = redacted{cause, c.apiKey}
	}
	return &Error{
		Kind:       kind,
		Method:     ep.method,
		Endpoint:   ep.path,
		StatusCode: code,
		Message:    strings.ReplaceAll(msg, c.apiKey, "[redacted]"),
		Err:        cause,
	}
}

// redacted hides a secret in the text of the error it wraps.
type redacted struct {
	err    error
	secret string
}

func (r redacted) Error() string { return strings.ReplaceAll(r.err.Error(), r.secret, "[redacted]") }
func (r redacted) Unwrap() error { return r.err }

// errorMessage extracts the server's message from an error body: from a
// JSON string, or from a JSON object's human-readable fields before its
// error code: "message", "detail", "error_description", "error.message",
// "errors[0].message", "errors[0].detail", "errors[0].title" (JSON:API) or
// "errors[0]" as a string, "error" (a string, often
// a code such as "not_found"), "title"; else the body as plain text unless
// it is HTML (a proxy's error page says nothing the status code does not).
// The result is cleaned by cleanMessage.
func (c *Client) errorMessage(contentType string, body []byte) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return ""
	}
	if body[0] == '{' || body[0] == '"' {
		d := c.getDecoder()
		defer c.putDecoder(d, len(body))
		if v, err := d.p.ParseBytes(body); err == nil {
			return cleanMessage(jsonMessage(v))
		}
	}
	// Only type/subtype matters (case-insensitive, RFC 9110 §8.3.1), not
	// parameters, which a proxy's error page may get wrong.
	mt, _, _ := strings.Cut(contentType, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	if mt == "text/html" || mt == "application/xhtml+xml" || body[0] == '<' {
		return ""
	}
	return cleanMessage(string(body))
}

func jsonMessage(v *fastjson.Value) string {
	if b := strBytes(v); b != nil {
		return string(b)
	}
	o := object(v)
	if o == nil {
		return ""
	}
	for _, k := range []string{"message", "detail", "error_description"} {
		if b := strBytes(o.Get(k)); len(b) > 0 {
			return string(b)
		}
	}
	if eo := object(o.Get("error")); eo != nil {
		if b := strBytes(eo.Get("message")); len(b) > 0 {
			return string(b)
		}
	}
	if errs := o.Get("errors"); errs != nil && errs.Type() == fastjson.TypeArray {
		if arr := errs.GetArray(); len(arr) > 0 {
			if b := strBytes(arr[0]); len(b) > 0 {
				return string(b)
			}
			if eo := object(arr[0]); eo != nil {
				// JSON:API error objects carry "detail" and "title"
				// (https://jsonapi.org/format/#error-objects).
				for _, k := range []string{"message", "detail", "title"} {
					if b := strBytes(eo.Get(k)); len(b) > 0 {
						return string(b)
					}
				}
			}
		}
	}
	for _, k := range []string{"error", "title"} {
		if b := strBytes(o.Get(k)); len(b) > 0 {
			return string(b)
		}
	}
	return ""
}

// cleanMessage makes a server message safe for a log line or a chat
// message: invalid UTF-8 is dropped, control and format characters (which
// could forge log lines or reorder text) become spaces, runs of spaces
// collapse, and the result is cut to maxMessageLen bytes on a rune boundary,
// ending in "…" when cut.
func cleanMessage(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToValidUTF8(s, "") {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if b.Len()+utf8.RuneLen(r) > maxMessageLen {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
	}
	return b.String()
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
