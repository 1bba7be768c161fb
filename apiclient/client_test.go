package apiclient

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewClient(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		baseURL string
		key     string
		wantErr string
	}{
		{name: "https", baseURL: "https://records.example.org/api/v1", key: "k"},
		{name: "prefix and trailing slash", baseURL: "http://127.0.0.1:8080/x/api/v1/", key: "k"},
		{name: "not absolute", baseURL: "/api/v1", key: "k", wantErr: "scheme"},
		{name: "ftp", baseURL: "ftp://h/api/v1", key: "k", wantErr: "scheme"},
		{name: "no host", baseURL: "http:///api/v1", key: "k", wantErr: "no host"},
		{name: "wrong version", baseURL: "https://h/api/v2", key: "k", wantErr: "/api/v1"},
		{name: "query", baseURL: "https://h/api/v1?x=1", key: "k", wantErr: "query"},
		{name: "user info", baseURL: "https://u:p@h/api/v1", key: "k", wantErr: "user info"},
		{name: "unparseable", baseURL: "https://h/api/v1\x7f", key: "k", wantErr: "base url"},
		{name: "empty key", baseURL: "https://h/api/v1", key: "", wantErr: "empty"},
		{name: "key with newline", baseURL: "https://h/api/v1", key: "k\nX-Evil: 1", wantErr: "control"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := NewClient(tt.baseURL, tt.key)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.Nil(t, c)
				return
			}
			require.NoError(t, err)
			assert.True(t, strings.HasSuffix(c.base.Path, "/api/v1"), "base path %q", c.base.Path)
		})
	}
}

func TestDefaultHTTPClient(t *testing.T) {
	t.Parallel()
	c, err := NewClient("https://records.example.org/api/v1", "k")
	require.NoError(t, err)
	tr, ok := c.httpClient.Transport.(*http.Transport)
	require.True(t, ok, "default transport is %T", c.httpClient.Transport)
	assert.GreaterOrEqual(t, tr.MaxIdleConnsPerHost, 256)
	assert.False(t, tr.DisableKeepAlives)
	assert.NotZero(t, tr.TLSHandshakeTimeout)
	assert.NotZero(t, tr.ResponseHeaderTimeout)
	assert.NotZero(t, c.httpClient.Timeout)
	assert.Equal(t, "recordsbot/dev", c.userAgent)
	assert.NotNil(t, c.httpClient.CheckRedirect)
}

func TestWithTransport(t *testing.T) {
	t.Parallel()
	srv := newAPIServer(t, serveJSON(200, `[{"id":"1"}]`))
	var seen atomic.Int32
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen.Add(1)
		return DefaultTransport().RoundTrip(r)
	})
	c, err := NewClient(srv.URL+basePath, testKey, WithTransport(rt))
	require.NoError(t, err)
	_, err = c.ListActions(t.Context(), nil)
	require.NoError(t, err)
	assert.Equal(t, int32(1), seen.Load())
	assert.NotZero(t, c.httpClient.Timeout, "the default client's settings are kept")
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestEndpoints checks each method's HTTP method, path, headers and body.
func TestEndpoints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		body     string
		call     func(context.Context, *Client) error
		method   string
		uri      string
		wantBody string
	}{
		{
			name: "list actions", body: `[]`, method: http.MethodGet, uri: basePath + "/actions",
			call: func(ctx context.Context, c *Client) error { _, err := c.ListActions(ctx, nil); return err },
		},
		{
			name: "list actions by status", body: `[]`, method: http.MethodGet, uri: basePath + "/actions?status=in_progress",
			call: func(ctx context.Context, c *Client) error {
				_, err := c.ListActions(ctx, &ListActionsOptions{Status: StatusInProgress})
				return err
			},
		},
		{
			name: "update action status", body: `{"id":"a1","status":"complete"}`, method: http.MethodPut, uri: basePath + "/actions/a1",
			wantBody: `{"status":"complete"}`,
			call: func(ctx context.Context, c *Client) error {
				_, err := c.UpdateActionStatus(ctx, "a1", StatusComplete)
				return err
			},
		},
		{
			name: "list meetings", body: `[]`, method: http.MethodGet, uri: basePath + "/meetings",
			call: func(ctx context.Context, c *Client) error { _, err := c.ListMeetings(ctx, nil); return err },
		},
		{
			name: "get meeting", body: `{"id":"m1"}`, method: http.MethodGet, uri: basePath + "/meetings/m1",
			call: func(ctx context.Context, c *Client) error { _, err := c.GetMeeting(ctx, "m1"); return err },
		},
		{
			name: "get minutes", body: `{"status":"approved","body":"x"}`, method: http.MethodGet, uri: basePath + "/meetings/m1/minutes",
			call: func(ctx context.Context, c *Client) error { _, err := c.GetMinutes(ctx, "m1"); return err },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, serveJSON(http.StatusOK, tt.body))
			c := newTestClient(t, srv, WithUserAgent("recordsbot/1.2.3"))
			require.NoError(t, tt.call(t.Context(), c))
			rs := srv.requests()
			require.Len(t, rs, 1)
			r := rs[0]
			assert.Equal(t, tt.method, r.Method)
			assert.Equal(t, tt.uri, r.RequestURI)
			assert.Equal(t, "Bearer "+testKey, r.Header.Get("Authorization"))
			assert.Equal(t, "application/json", r.Header.Get("Accept"))
			assert.Equal(t, "recordsbot/1.2.3", r.Header.Get("User-Agent"))
			if tt.wantBody != "" {
				assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
				assert.JSONEq(t, tt.wantBody, r.Body)
			} else {
				assert.Empty(t, r.Body)
			}
		})
	}
}

// TestPathEscaping checks that opaque ids reach the server as one escaped
// path segment: "/" travels as %2F, not as a path separator.
func TestPathEscaping(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		id      string
		wantURI string
	}{
		{name: "slash", id: "2026/03/row 7", wantURI: "2026%2F03%2Frow%207"},
		{name: "space", id: "FIN 12", wantURI: "FIN%2012"},
		{name: "non-ascii", id: "réunion-ü", wantURI: "r%C3%A9union-%C3%BC"},
		{name: "percent query fragment", id: "50%?x=1#f", wantURI: "50%25%3Fx=1%23f"},
		// Dots that are no whole segment ("a/../b" is refused: see
		// TestRequestTextStaysOnTheEndpoint).
		{name: "dots inside", id: "a/..b/c.", wantURI: "a%2F..b%2Fc."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if strings.HasSuffix(r.URL.Path, "/minutes") {
					_, _ = fmt.Fprint(w, `{"status":"approved","body":"b"}`)
					return
				}
				_, _ = fmt.Fprint(w, `{"status":"open"}`)
			})
			c := newTestClient(t, srv)
			ctx := t.Context()
			_, err := c.UpdateActionStatus(ctx, tt.id, StatusOpen)
			require.NoError(t, err)
			m, err := c.GetMeeting(ctx, tt.id)
			require.NoError(t, err)
			assert.Equal(t, tt.id, m.ID, "a missing id is filled with the one asked for")
			min, err := c.GetMinutes(ctx, tt.id)
			require.NoError(t, err)
			assert.Equal(t, tt.id, min.MeetingID)

			rs := srv.requests()
			require.Len(t, rs, 3)
			assert.Equal(t, basePath+"/actions/"+tt.wantURI, rs[0].RequestURI)
			assert.Equal(t, basePath+"/actions/"+tt.id, rs[0].Path)
			assert.Equal(t, basePath+"/meetings/"+tt.wantURI, rs[1].RequestURI)
			assert.Equal(t, basePath+"/meetings/"+tt.wantURI+"/minutes", rs[2].RequestURI)
		})
	}
}

func TestInvalidIDsSendNothing(t *testing.T) {
	t.Parallel()
	srv := newAPIServer(t, serveJSON(http.StatusOK, `{}`))
	c := newTestClient(t, srv)
	for _, id := range []string{"", ".", ".."} {
		t.Run(fmt.Sprintf("%q", id), func(t *testing.T) {
			ctx := t.Context()
			_, err := c.UpdateActionStatus(ctx, id, StatusOpen)
			assert.ErrorIs(t, err, ErrNotFound)
			_, err = c.GetMeeting(ctx, id)
			assert.ErrorIs(t, err, ErrNotFound)
			_, err = c.GetMinutes(ctx, id)
			assert.ErrorIs(t, err, ErrNotFound)
		})
	}
	assert.Empty(t, srv.requests())
}

func TestInvalidStatusSendsNothing(t *testing.T) {
	t.Parallel()
	srv := newAPIServer(t, serveJSON(http.StatusOK, `{}`))
	c := newTestClient(t, srv)
	for _, st := range []Status{"", "done", "OPEN", "open "} {
		t.Run(string(st), func(t *testing.T) {
			_, err := c.UpdateActionStatus(t.Context(), "a1", st)
			require.ErrorIs(t, err, ErrInvalidStatus)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, http.MethodPut, e.Method)
			assert.Equal(t, "/actions/{id}", e.Endpoint)
		})
	}
	_, err := c.ListActions(t.Context(), &ListActionsOptions{Status: "done"})
	assert.ErrorIs(t, err, ErrInvalidStatus)
	assert.Empty(t, srv.requests())
}

func TestUpdateActionStatusResponse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		body   string
		want   Action
	}{
		{name: "bare", status: 200, body: `{"id":"a1","title":"T","status":"complete"}`, want: Action{ID: "a1", Title: "T", Status: StatusComplete}},
		{name: "under data", status: 200, body: `{"data":{"id":"a1","title":"T","status":"complete"}}`, want: Action{ID: "a1", Title: "T", Status: StatusComplete}},
		{name: "under action", status: 200, body: `{"action":{"row_id":7,"status":"complete"},"ok":true}`, want: Action{ID: "7", Status: StatusComplete}},
		{name: "jsend envelope", status: 200, body: `{"status":"success","data":{"id":"a1","status":"complete","title":"T"}}`, want: Action{ID: "a1", Title: "T", Status: StatusComplete}},
		{name: "record with a data field is not unwrapped", status: 200, body: `{"id":"a1","status":"open","data":{"id":"x","status":"complete"}}`, want: Action{ID: "a1", Status: StatusOpen}},
		{name: "no content", status: 204, body: ``, want: Action{ID: "a1", Status: StatusComplete}},
		{name: "empty 200", status: 200, body: " \n", want: Action{ID: "a1", Status: StatusComplete}},
		{name: "ack only", status: 200, body: `{"ok":true}`, want: Action{ID: "a1", Status: StatusComplete}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, serveJSON(tt.status, tt.body))
			c := newTestClient(t, srv)
			got, err := c.UpdateActionStatus(t.Context(), "a1", StatusComplete)
			require.NoError(t, err)
			got.Raw = nil
			assert.Equal(t, tt.want, *got)
		})
	}
}

func TestListActionsFiltersClientSide(t *testing.T) {
	t.Parallel()
	// This server ignores ?status=.
	srv := newAPIServer(t, serveJSON(200, `[{"id":"1","status":"open"},{"id":"2","status":"complete"},{"id":"3","status":"Open"}]`))
	c := newTestClient(t, srv)
	list, err := c.ListActions(t.Context(), &ListActionsOptions{Status: StatusOpen})
	require.NoError(t, err)
	require.Len(t, list.Actions, 2)
	assert.Equal(t, "1", list.Actions[0].ID)
	assert.Equal(t, "3", list.Actions[1].ID)
	assert.False(t, list.Truncated)
}

func TestErrorKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		status      int
		header      map[string]string
		body        string
		wantKind    error
		wantMessage string
		wantRetry   time.Duration
	}{
		{name: "401 error string", status: 401, body: `{"error":"invalid api key"}`, wantKind: ErrUnauthorized, wantMessage: "invalid api key"},
		{name: "403 message", status: 403, body: `{"message":"missing scope"}`, wantKind: ErrForbidden, wantMessage: "missing scope"},
		{name: "404 detail", status: 404, body: `{"detail":"no such row"}`, wantKind: ErrNotFound, wantMessage: "no such row"},
		{name: "410 gone", status: 410, body: ``, wantKind: ErrNotFound},
		{name: "400 error.message", status: 400, body: `{"error":{"code":"bad_status","message":"status not allowed"}}`, wantKind: ErrBadRequest, wantMessage: "status not allowed"},
		{name: "422 errors[0].message", status: 422, body: `{"errors":[{"message":"first"},{"message":"second"}]}`, wantKind: ErrBadRequest, wantMessage: "first"},
		{name: "403 JSON:API errors[0].detail", status: 403, body: `{"errors":[{"status":"403","title":"Forbidden","detail":"key lacks meetings:read"}]}`, wantKind: ErrForbidden, wantMessage: "key lacks meetings:read"},
		{name: "400 JSON:API errors[0].title", status: 400, body: `{"errors":[{"status":"400","title":"Invalid status"}]}`, wantKind: ErrBadRequest, wantMessage: "Invalid status"},
		{name: "409 errors[0] string", status: 409, body: `{"errors":["conflict"]}`, wantKind: ErrBadRequest, wantMessage: "conflict"},
		{name: "message beats error code", status: 400, body: `{"error":"bad_request","message":"unknown status"}`, wantKind: ErrBadRequest, wantMessage: "unknown status"},
		{name: "error_description beats error code", status: 401, body: `{"error":"invalid_token","error_description":"token expired"}`, wantKind: ErrUnauthorized, wantMessage: "token expired"},
		{name: "detail beats title", status: 400, body: `{"title":"Bad Request","detail":"no such status"}`, wantKind: ErrBadRequest, wantMessage: "no such status"},
		{name: "problem json title", status: 400, body: `{"type":"about:blank","title":"Bad Request"}`, wantKind: ErrBadRequest, wantMessage: "Bad Request"},
		{name: "json string", status: 400, body: `"nope"`, wantKind: ErrBadRequest, wantMessage: "nope"},
		{name: "plain text", status: 500, header: map[string]string{"Content-Type": "text/plain"}, body: "database is down\n", wantKind: ErrUnavailable, wantMessage: "database is down"},
		{name: "html page ignored", status: 502, header: map[string]string{"Content-Type": "text/html"}, body: "<html><body><h1>502 Bad Gateway</h1></body></html>", wantKind: ErrUnavailable},
		{name: "control chars stripped", status: 400, body: "{\"error\":\"line1\\nline2\\u001b[31m\\u202e\"}", wantKind: ErrBadRequest, wantMessage: "line1 line2 [31m"},
		{name: "long message truncated", status: 400, body: `{"error":"` + strings.Repeat("x", 500) + `"}`, wantKind: ErrBadRequest, wantMessage: strings.Repeat("x", 200) + "…"},
		{name: "429 seconds", status: 429, header: map[string]string{"Retry-After": "7"}, body: `{"error":"slow down"}`, wantKind: ErrRateLimited, wantMessage: "slow down", wantRetry: 7 * time.Second},
		{name: "429 without retry-after", status: 429, wantKind: ErrRateLimited},
		{name: "503", status: 503, header: map[string]string{"Retry-After": "3"}, wantKind: ErrUnavailable, wantRetry: 3 * time.Second},
		{name: "504", status: 504, wantKind: ErrUnavailable},
		{name: "302 not followed", status: 302, wantKind: ErrInvalidResponse},
		{name: "200 malformed", status: 200, body: `[{"id":`, wantKind: ErrInvalidResponse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				_, _ = fmt.Fprint(w, tt.body)
			})
			c := newTestClient(t, srv, WithRetry(0, 0, 0))
			_, err := c.ListActions(t.Context(), nil)
			require.Error(t, err)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.ErrorIs(t, err, tt.wantKind)
			assert.Equal(t, tt.wantKind, e.Kind)
			assert.Equal(t, tt.status, e.StatusCode)
			assert.Equal(t, http.MethodGet, e.Method)
			assert.Equal(t, "/actions", e.Endpoint)
			assert.Equal(t, tt.wantMessage, e.Message)
			assert.Equal(t, tt.wantRetry, e.RetryAfter)
			for _, other := range []error{ErrUnauthorized, ErrForbidden, ErrNotFound, ErrRateLimited, ErrUnavailable, ErrInvalidResponse, ErrInvalidStatus, ErrBadRequest} {
				if other != tt.wantKind {
					assert.NotErrorIs(t, err, other, "an error wraps exactly one kind")
				}
			}
		})
	}
}

func TestForbiddenScope(t *testing.T) {
	t.Parallel()
	srv := newAPIServer(t, serveJSON(403, `{"error":"forbidden"}`))
	c := newTestClient(t, srv)
	ctx := t.Context()
	tests := []struct {
		name      string
		call      func() error
		wantScope string
		wantText  string
	}{
		{name: "list actions", call: func() error { _, err := c.ListActions(ctx, nil); return err }, wantScope: "actions:read",
			wantText: "records api: GET /actions: 403 forbidden (needs scope actions:read)"},
		{name: "update action", call: func() error { _, err := c.UpdateActionStatus(ctx, "a/1", StatusOpen); return err }, wantScope: "actions:write",
			wantText: "records api: PUT /actions/{id}: 403 forbidden (needs scope actions:write)"},
		{name: "list meetings", call: func() error { _, err := c.ListMeetings(ctx, nil); return err }, wantScope: "meetings:read"},
		{name: "get meeting", call: func() error { _, err := c.GetMeeting(ctx, "m"); return err }, wantScope: "meetings:read"},
		{name: "get minutes", call: func() error { _, err := c.GetMinutes(ctx, "m"); return err }, wantScope: "meetings:read",
			wantText: "records api: GET /meetings/{id}/minutes: 403 forbidden (needs scope meetings:read)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			require.ErrorIs(t, err, ErrForbidden)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.wantScope, e.Scope)
			if tt.wantText != "" {
				assert.Equal(t, tt.wantText, err.Error())
			}
		})
	}
}

func TestErrorNeverContainsKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		h    http.HandlerFunc
		// truncated: the call succeeds with the list cut short, and the
		// reason must not carry the key either.
		truncated bool
	}{
		{name: "json message echoes key", h: serveJSON(401, `{"error":"invalid key `+testKey+`"}`)},
		{name: "plain text echoes header", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(400)
			_, _ = fmt.Fprintf(w, "bad header %s", r.Header.Get("Authorization"))
		}},
		{name: "next link carries key", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Link", `<https://evil.example/steal?k=`+testKey+`>; rel="next"`)
			serveJSON(200, `[]`)(w, r)
		}, truncated: true},
		{name: "malformed json around key", h: serveJSON(200, `{"`+testKey+`": [`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, tt.h)
			c := newTestClient(t, srv, WithRetry(0, 0, 0))
			list, err := c.ListActions(t.Context(), nil)
			if tt.truncated {
				require.NoError(t, err)
				require.True(t, list.Truncated)
				assert.Contains(t, list.TruncatedReason, "evil.example")
				assert.NotContains(t, list.TruncatedReason, testKey)
				assert.Len(t, srv.requests(), 1)
				return
			}
			require.Error(t, err)
			assert.NotContains(t, err.Error(), testKey)
			assert.NotContains(t, fmt.Sprintf("%+v", err), testKey)
		})
	}
}

// A next-page token and an id are request text the bot passes on (a
// public cursor, a button value, a typed id): neither may take the API key
// anywhere but the meetings list, or out of the API's base path.
func TestRequestTextStaysOnTheEndpoint(t *testing.T) {
	t.Parallel()
	srv := newAPIServer(t, serveJSON(http.StatusOK, `{"meetings":[]}`))
	c := newTestClient(t, srv)
	for _, next := range []string{
		basePath + "/../../admin/secret?x=1",
		basePath + "/meetings/../../admin",
		basePath + "/meetings/%2e%2e/%2E%2E/admin",
		basePath + "/meetings/./x",
		// Path parameters: Tomcat and Jetty resolve "..;" as "..".
		basePath + "/meetings/..;/actions",
		basePath + "/meetings/..;x/..;/admin",
		basePath + "/meetings/%2e%2e%3b/actions",
		basePath + "/meetings/.;/x",
		basePath + "/actions?limit=500",
		basePath + "/meetingsx",
		"/admin/secret",
		"/prefix/api/v2/meetings",
		"//evil.example/x",
		"http://evil.example" + basePath + "/meetings",
	} {
		_, err := c.ListMeetings(t.Context(), &ListMeetingsOptions{Next: next})
		assert.ErrorIs(t, err, ErrBadRequest, "next %q", next)
	}
	for _, id := range []string{"a/../b", "../admin", "a/..", "./a", `a\..\b`, "..;", "a/..;x/b", ".;"} {
		_, err := c.GetMeeting(t.Context(), id)
		assert.ErrorIs(t, err, ErrNotFound, "id %q", id)
		_, err = c.GetMinutes(t.Context(), id)
		assert.ErrorIs(t, err, ErrNotFound, "id %q", id)
		_, err = c.UpdateActionStatus(t.Context(), id, StatusOpen)
		assert.ErrorIs(t, err, ErrNotFound, "id %q", id)
	}
	assert.Empty(t, srv.requests(), "nothing sent")

	// The records' own tokens still work: the list's path with a query,
	// and a path below it.
	for _, next := range []string{basePath + "/meetings?page=2", basePath + "/meetings/page/3"} {
		_, err := c.ListMeetings(t.Context(), &ListMeetingsOptions{Next: next})
		assert.NoError(t, err, "next %q", next)
	}
	_, err := c.GetMeeting(t.Context(), "FIN-2026-09/2")
	assert.NoError(t, err, "an id with a slash")
}
