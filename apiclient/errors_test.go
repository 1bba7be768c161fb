package apiclient

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestErrorString(t *testing.T) {
	t.Parallel()
	cause := errors.New("dial tcp 10.0.0.1:443: connect: connection refused")
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{
			name: "forbidden with message naming the scope",
			err:  &Error{Kind: ErrForbidden, Method: "PUT", Endpoint: "/actions/{id}", StatusCode: 403, Message: "missing scope actions:write", Scope: "actions:write"},
			want: "records api: PUT /actions/{id}: 403 forbidden: missing scope actions:write",
		},
		{
			name: "forbidden without message",
			err:  &Error{Kind: ErrForbidden, Method: "GET", Endpoint: "/meetings", StatusCode: 403, Scope: "meetings:read"},
			want: "records api: GET /meetings: 403 forbidden (needs scope meetings:read)",
		},
		{
			name: "rate limited",
			err:  &Error{Kind: ErrRateLimited, Method: "GET", Endpoint: "/actions", StatusCode: 429, RetryAfter: 2 * time.Second},
			want: "records api: GET /actions: 429 rate limited (retry after 2s)",
		},
		{
			name: "network",
			err:  &Error{Kind: ErrUnavailable, Method: "GET", Endpoint: "/actions", Err: cause},
			want: "records api: GET /actions: unavailable: dial tcp 10.0.0.1:443: connect: connection refused",
		},
		{
			name: "hidden minutes on a 200",
			err:  &Error{Kind: ErrNotFound, Method: "GET", Endpoint: "/meetings/{id}/minutes", StatusCode: 200, Message: "minutes are not published"},
			want: "records api: GET /meetings/{id}/minutes: not found: minutes are not published",
		},
		{
			name: "message repeating the kind is left out",
			err:  &Error{Kind: ErrNotFound, Method: "GET", Endpoint: "/meetings/{id}", StatusCode: 404, Message: "Not_Found"},
			want: "records api: GET /meetings/{id}: 404 not found",
		},
		{
			name: "zero value",
			err:  &Error{},
			want: "records api: : error",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.err.Error())
		})
	}
}

func TestErrorUnwrap(t *testing.T) {
	t.Parallel()
	err := error(&Error{Kind: ErrUnavailable, Err: context.DeadlineExceeded})
	assert.ErrorIs(t, err, ErrUnavailable)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.NotErrorIs(t, err, ErrNotFound)
	assert.ErrorIs(t, &Error{Kind: ErrNotFound}, ErrNotFound, "a nil cause is fine")
}

func TestNewErrorRedactsKey(t *testing.T) {
	t.Parallel()
	c, err := NewClient("https://h/api/v1", testKey)
	require.NoError(t, err)
	cause := errors.New("bad token " + testKey)
	e := c.newError(endpoint{"GET", "/actions", scopeActionsRead}, 401, ErrUnauthorized, "key "+testKey+" revoked", cause)
	assert.NotContains(t, e.Error(), testKey)
	assert.Equal(t, "key [redacted] revoked", e.Message)
	assert.ErrorIs(t, e, cause, "the redacted cause still unwraps")
}

func TestCleanMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "plain", in: "no such action", want: "no such action"},
		{name: "newlines and tabs", in: "  line1\r\n\tline2  ", want: "line1 line2"},
		{name: "escape sequences", in: "red\x1b[31m text\x00", want: "red [31m text"},
		{name: "bidi override", in: "abc\u202edef", want: "abc def"},
		{name: "invalid utf-8", in: "ok\xff\xfe!", want: "ok!"},
		{name: "cut on a rune boundary", in: strings.Repeat("é", 150), want: strings.Repeat("é", 100) + "…"},
		{name: "empty", in: "", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, cleanMessage(tt.in))
		})
	}
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{in: "", want: 0},
		{in: "0", want: 0},
		{in: "5", want: 5 * time.Second},
		{in: " 12 ", want: 12 * time.Second},
		{in: "-3", want: 0},
		{in: "99999999999999", want: 24 * time.Hour},
		{in: now.Add(90 * time.Second).Format(http.TimeFormat), want: 90 * time.Second},
		{in: now.Add(-time.Hour).Format(http.TimeFormat), want: 0},
		{in: "soon", want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, parseRetryAfter(tt.in, now))
		})
	}
}
