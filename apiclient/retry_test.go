package apiclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRetries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		statuses  []int // answers in turn; the last repeats
		header    string
		wantCalls int
		wantErr   error
		wantWaits []time.Duration // exact, when set
	}{
		{name: "503 then ok", statuses: []int{503, 503, 200}, wantCalls: 3},
		{name: "502 and 504 then ok", statuses: []int{502, 504, 200}, wantCalls: 3},
		{name: "429 honours retry-after", statuses: []int{429, 200}, header: "2", wantCalls: 2, wantWaits: []time.Duration{2 * time.Second}},
		{name: "503 honours retry-after", statuses: []int{503, 200}, header: "1", wantCalls: 2, wantWaits: []time.Duration{time.Second}},
		{name: "gives up after max retries", statuses: []int{503}, wantCalls: 4, wantErr: ErrUnavailable},
		{name: "retry-after too long returned at once", statuses: []int{429}, header: "3600", wantCalls: 1, wantErr: ErrRateLimited, wantWaits: []time.Duration{}},
		{name: "500 not retried", statuses: []int{500}, wantCalls: 1, wantErr: ErrUnavailable, wantWaits: []time.Duration{}},
		{name: "404 not retried", statuses: []int{404}, wantCalls: 1, wantErr: ErrNotFound, wantWaits: []time.Duration{}},
		{name: "401 not retried", statuses: []int{401}, wantCalls: 1, wantErr: ErrUnauthorized, wantWaits: []time.Duration{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var calls atomic.Int32
			srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
				n := int(calls.Add(1))
				st := tt.statuses[min(n, len(tt.statuses))-1]
				if st != 200 && tt.header != "" {
					w.Header().Set("Retry-After", tt.header)
				}
				serveJSON(st, `[{"id":"1"}]`)(w, r)
			})
			sl := new(sleeper)
			c := newTestClient(t, srv, WithRetry(3, 100*time.Millisecond, 2*time.Second), withSleeper(sl))
			list, err := c.ListActions(t.Context(), nil)
			assert.Equal(t, tt.wantCalls, int(calls.Load()))
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
			} else {
				require.NoError(t, err)
				assert.Len(t, list.Actions, 1)
			}
			waits := sl.recorded()
			if tt.wantWaits != nil {
				assert.Equal(t, tt.wantWaits, append([]time.Duration{}, waits...))
				return
			}
			assert.Len(t, waits, tt.wantCalls-1)
			for i, w := range waits {
				full := min(100*time.Millisecond<<i, 2*time.Second)
				assert.GreaterOrEqual(t, w, full/2, "wait %d", i)
				assert.LessOrEqual(t, w, full, "wait %d", i)
			}
		})
	}
}

func TestRetryPUT(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			serveJSON(503, `{}`)(w, r)
			return
		}
		serveJSON(200, `{"id":"a1","status":"complete"}`)(w, r)
	})
	c := newTestClient(t, srv)
	a, err := c.UpdateActionStatus(t.Context(), "a1", StatusComplete)
	require.NoError(t, err)
	assert.Equal(t, StatusComplete, a.Status)
	rs := srv.requests()
	require.Len(t, rs, 2)
	for _, r := range rs {
		assert.JSONEq(t, `{"status":"complete"}`, r.Body, "the body is sent again on retry")
	}
}

func TestRetryConnectionError(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close() // the connection drops without an answer
			}
			return
		}
		serveJSON(200, `[]`)(w, r)
	})
	sl := new(sleeper)
	c := newTestClient(t, srv, withSleeper(sl))
	_, err := c.ListActions(t.Context(), nil)
	require.NoError(t, err)
	assert.Equal(t, int32(2), calls.Load())
	assert.Len(t, sl.recorded(), 1)
}

// TestRetryWouldPassDeadline checks that a wait which would end after the
// context's deadline is not started: the error comes back at once.
func TestRetryWouldPassDeadline(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		status   int
		header   string
		wantKind error
	}{
		{name: "retry-after", status: 429, header: "10", wantKind: ErrRateLimited},
		{name: "http-date retry-after", status: 503, header: time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat), wantKind: ErrUnavailable},
		{name: "backoff", status: 503, wantKind: ErrUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var calls atomic.Int32
			srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				if tt.header != "" {
					w.Header().Set("Retry-After", tt.header)
				}
				serveJSON(tt.status, `{"error":"busy"}`)(w, r)
			})
			slept := false
			c := newTestClient(t, srv, WithRetry(3, 5*time.Second, 10*time.Second), func(c *Client) {
				c.sleep = func(ctx context.Context, d time.Duration) error { slept = true; return nil }
			})
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
			defer cancel()
			start := time.Now()
			_, err := c.ListActions(ctx, nil)
			require.ErrorIs(t, err, tt.wantKind)
			assert.Less(t, time.Since(start), time.Second)
			assert.False(t, slept, "no wait past the deadline is started")
			assert.Equal(t, int32(1), calls.Load())
		})
	}
}

func TestContextDeadline(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	t.Cleanup(func() { close(release) })
	c, err := NewClient(srv.URL+basePath, testKey) // real sleeping
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = c.ListActions(ctx, nil)
	assert.Less(t, time.Since(start), 2*time.Second)
	require.ErrorIs(t, err, ErrUnavailable)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.NotErrorIs(t, err, ErrInvalidResponse)

	cctx, ccancel := context.WithCancel(t.Context())
	ccancel()
	_, err = c.GetMeeting(cctx, "m")
	require.ErrorIs(t, err, ErrUnavailable)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestConnectionRefused(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there now
	sl := new(sleeper)
	c, err := NewClient("http://"+addr+basePath, testKey, withSleeper(sl))
	require.NoError(t, err)
	_, err = c.ListMeetings(t.Context(), nil)
	require.ErrorIs(t, err, ErrUnavailable)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Zero(t, e.StatusCode)
	assert.Len(t, sl.recorded(), 3, "connection errors are retried")
	assert.NotContains(t, err.Error(), testKey)
}

func TestResponseSizeCap(t *testing.T) {
	t.Parallel()
	big := `[` + strings.Repeat(`{"id":"x"},`, 200) + `{"id":"y"}]`
	tests := []struct {
		name    string
		chunked bool
	}{
		{name: "content-length"},
		{name: "chunked", chunked: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
				if !tt.chunked {
					w.Header().Set("Content-Length", fmt.Sprint(len(big)))
				}
				_, _ = fmt.Fprint(w, big)
				if tt.chunked {
					w.(http.Flusher).Flush()
				}
			})
			c := newTestClient(t, srv, WithMaxResponseBytes(1024))
			_, err := c.ListActions(t.Context(), nil)
			require.ErrorIs(t, err, ErrInvalidResponse)
			assert.Contains(t, err.Error(), "1024 byte limit")

			ok := newTestClient(t, srv, WithMaxResponseBytes(int64(len(big))))
			list, err := ok.ListActions(t.Context(), nil)
			require.NoError(t, err)
			assert.Len(t, list.Actions, 201)
		})
	}
}

func TestRedirects(t *testing.T) {
	t.Parallel()
	var evilCalls atomic.Int32
	evil := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
		evilCalls.Add(1)
		serveJSON(200, `[]`)(w, r)
	})
	srv := newAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/actions") {
			http.Redirect(w, r, basePath+"/actions2", http.StatusFound)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/actions2") {
			assert.Equal(t, "Bearer "+testKey, r.Header.Get("Authorization"))
			serveJSON(200, `[{"id":"1"}]`)(w, r)
			return
		}
		http.Redirect(w, r, evil.URL+basePath+"/meetings", http.StatusFound)
	})
	c := newTestClient(t, srv)
	list, err := c.ListActions(t.Context(), nil)
	require.NoError(t, err, "same-origin redirects are followed")
	assert.Len(t, list.Actions, 1)

	_, err = c.ListMeetings(t.Context(), nil)
	require.ErrorIs(t, err, ErrInvalidResponse)
	assert.Zero(t, evilCalls.Load(), "the key never goes to another host")
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	body := string(stubActions(t, 50))
	srv := newAPIServer(t, serveJSON(200, body))
	c := newTestClient(t, srv)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			list, err := c.ListActions(t.Context(), nil)
			if err == nil && len(list.Actions) != 50 {
				err = fmt.Errorf("got %d actions, want 50", len(list.Actions))
			}
			if err == nil && list.Actions[49].ID != "act-000050" {
				err = errors.New("records mixed up between calls")
			}
			errs <- err
		}()
	}
	for range 8 {
		assert.NoError(t, <-errs)
	}
}

func TestNewRequestRefusesOtherHosts(t *testing.T) {
	t.Parallel()
	c, err := NewClient("https://records.example.org/x/api/v1", testKey)
	require.NoError(t, err)
	for _, ref := range []string{"https://evil.example/x/api/v1/actions", "http://records.example.org/x/api/v1/actions", "https://u@records.example.org/x/api/v1/actions"} {
		_, err := c.newRequest(t.Context(), http.MethodGet, ref, nil)
		assert.Error(t, err, ref)
	}
	req, err := c.newRequest(t.Context(), http.MethodGet, "https://RECORDS.example.org:443/x/api/v1/actions?page=2", nil)
	require.NoError(t, err, "same origin, spelt differently")
	assert.Equal(t, "Bearer "+testKey, req.Header.Get("Authorization"))
}

func TestUntrustedCertificateNotRetried(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(serveJSON(200, `[]`))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
	srv.StartTLS()
	t.Cleanup(srv.Close)
	sl := new(sleeper)
	// The default HTTP client does not trust the test server's certificate.
	c, err := NewClient(srv.URL+basePath, testKey, withSleeper(sl))
	require.NoError(t, err)
	_, err = c.ListActions(t.Context(), nil)
	require.ErrorIs(t, err, ErrUnavailable)
	assert.Empty(t, sl.recorded(), "a retry cannot fix a certificate")

	trusting, err := NewClient(srv.URL+basePath, testKey, WithHTTPClient(srv.Client()))
	require.NoError(t, err)
	_, err = trusting.ListActions(t.Context(), nil)
	assert.NoError(t, err)
}
