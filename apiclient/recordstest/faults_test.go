package recordstest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFaultLatency(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	const latency = 50 * time.Millisecond
	srv.InjectFault(Fault{Latency: latency, Times: 1})

	start := time.Now()
	resp := get(t, srv, "/actions")
	assert.GreaterOrEqual(t, time.Since(start), latency)
	require.Equal(t, http.StatusOK, resp.status)
	assert.Len(t, decode[actionPage](t, resp.body).Data, 4, "latency alone delays the real answer")

	start = time.Now()
	get(t, srv, "/actions")
	assert.Less(t, time.Since(start), latency, "Times: 1 delays one request only")
}

// Hold holds the answer until the channel is closed, then answers for
// real.
func TestFaultHold(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	hold := make(chan struct{})
	srv.InjectFault(Fault{Hold: hold, Times: 1})
	done := make(chan response, 1)
	go func() { done <- get(t, srv, "/actions") }()
	select {
	case <-done:
		t.Fatal("answered while held")
	case <-time.After(20 * time.Millisecond):
	}
	close(hold)
	resp := <-done
	require.Equal(t, http.StatusOK, resp.status)
	assert.Len(t, decode[actionPage](t, resp.body).Data, 4)
}

func TestFaultLatencyClientGivesUp(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	srv.InjectFault(Fault{Latency: time.Hour})

	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/actions", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+DefaultKey)
	_, err = http.DefaultClient.Do(req)
	require.ErrorIs(t, err, context.DeadlineExceeded)

	// The handler notices the client left; Status stays 0 as nothing was
	// answered.
	require.Eventually(t, func() bool { return len(srv.Requests()) == 1 }, time.Second, time.Millisecond)
	assert.Zero(t, srv.Requests()[0].Status)
}

func TestFaultLatencyEndsOnClose(t *testing.T) {
	t.Parallel()
	srv := NewServer()
	t.Cleanup(srv.Close)
	srv.InjectFault(Fault{Latency: time.Hour})

	errc := make(chan error, 1)
	go func() {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/actions", nil)
		if err != nil {
			errc <- err
			return
		}
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	require.Eventually(t, func() bool { return len(srv.Requests()) == 1 }, time.Second, time.Millisecond)

	closed := make(chan struct{})
	go func() { srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close waited for an injected latency")
	}
	assert.Error(t, <-errc, "the request in flight is cut off")
	srv.Close() // a second Close is harmless
}

func TestFaultStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name            string
		fault           Fault
		wantStatus      int
		wantContentType string
		wantBody        string
		wantRetryAfter  string
	}{
		{
			name:  "rate limited",
			fault: Fault{Status: http.StatusTooManyRequests, RetryAfter: "7"}, wantStatus: http.StatusTooManyRequests,
			wantContentType: "application/json", wantRetryAfter: "7",
			wantBody: `{"error": "too_many_requests", "message": "injected fault: Too Many Requests"}`,
		},
		{
			name:  "server error",
			fault: Fault{Status: http.StatusInternalServerError}, wantStatus: http.StatusInternalServerError,
			wantContentType: "application/json",
			wantBody:        `{"error": "internal_server_error", "message": "injected fault: Internal Server Error"}`,
		},
		{
			name:  "unavailable with a date",
			fault: Fault{Status: http.StatusServiceUnavailable, RetryAfter: "Wed, 21 Oct 2026 07:28:00 GMT"}, wantStatus: http.StatusServiceUnavailable,
			wantContentType: "application/json", wantRetryAfter: "Wed, 21 Oct 2026 07:28:00 GMT",
			wantBody: `{"error": "service_unavailable", "message": "injected fault: Service Unavailable"}`,
		},
		{
			name:  "proxy error page",
			fault: Fault{Status: http.StatusBadGateway, Body: "<html><body>Bad gateway</body></html>"}, wantStatus: http.StatusBadGateway,
			wantContentType: "text/html; charset=utf-8",
			wantBody:        "<html><body>Bad gateway</body></html>",
		},
		{
			name:  "unexpected shape with 200",
			fault: Fault{Body: `{"items": []}`}, wantStatus: http.StatusOK,
			wantContentType: "application/json",
			wantBody:        `{"items": []}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newFixtureServer(t)
			srv.InjectFault(tt.fault)
			for range 2 { // Times 0 lasts until cleared
				resp := get(t, srv, "/actions")
				require.Equal(t, tt.wantStatus, resp.status)
				assert.Equal(t, tt.wantContentType, resp.header.Get("Content-Type"))
				assert.Equal(t, tt.wantRetryAfter, resp.header.Get("Retry-After"))
				if json.Valid([]byte(tt.wantBody)) {
					assert.JSONEq(t, tt.wantBody, string(resp.body))
				} else {
					assert.Equal(t, tt.wantBody, string(resp.body))
				}
			}
			for _, r := range srv.Requests() {
				assert.Equal(t, tt.wantStatus, r.Status, "the injected status is recorded")
			}
			srv.ClearFaults()
			assert.Equal(t, http.StatusOK, get(t, srv, "/actions").status)
		})
	}
}

func TestFaultMalformed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		fault      Fault
		wantStatus int
	}{
		{name: "real answer", fault: Fault{Malformed: true}, wantStatus: http.StatusOK},
		{name: "injected answer", fault: Fault{Malformed: true, Status: http.StatusTooManyRequests, RetryAfter: "1"}, wantStatus: http.StatusTooManyRequests},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newFixtureServer(t)
			full := get(t, srv, "/actions")
			if tt.fault.Status != 0 {
				srv.InjectFault(Fault{Status: tt.fault.Status, Times: 1})
				full = get(t, srv, "/actions")
			}
			srv.InjectFault(tt.fault)

			resp := get(t, srv, "/actions")
			require.Equal(t, tt.wantStatus, resp.status)
			assert.Equal(t, "application/json", resp.header.Get("Content-Type"))
			assert.Equal(t, tt.fault.RetryAfter, resp.header.Get("Retry-After"))
			assert.False(t, json.Valid(resp.body), "body %s is valid JSON", resp.body)
			assert.Equal(t, full.body[:len(full.body)/2], resp.body, "the first half of the real body")
			assert.Equal(t, strconv.Itoa(len(resp.body)), resp.header.Get("Content-Length"))
		})
	}
}

func TestFaultResetMidBody(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	srv.InjectFault(Fault{ResetMidBody: true, Malformed: true, Times: 1})

	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/actions", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+DefaultKey)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err, "the header arrives whole")
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	body, err := io.ReadAll(resp.Body)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, resp.ContentLength/2, int64(len(body)), "half the announced body arrives")

	assert.Equal(t, http.StatusOK, get(t, srv, "/actions").status, "the next request is served")
	assert.Equal(t, []int{200, 200}, statuses(srv.Requests()))
}

func TestResetConnectionWithoutHijacker(t *testing.T) {
	t.Parallel()
	// Under HTTP/2 the connection cannot be hijacked; aborting the handler
	// is how the stream gets reset there.
	assert.PanicsWithValue(t, http.ErrAbortHandler, func() { resetConnection(httptest.NewRecorder()) })
}

func TestFaultTimes(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	srv.InjectFault(Fault{Status: http.StatusServiceUnavailable, Times: 2})
	for range 4 {
		get(t, srv, "/meetings")
	}
	assert.Equal(t, []int{503, 503, 200, 200}, statuses(srv.Requests()))
}

func TestFaultMatching(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	srv.InjectFault(Fault{Method: http.MethodPut, PathPrefix: "/actions/", Status: http.StatusInternalServerError})
	srv.InjectFault(Fault{PathPrefix: "/meetings/mtg-1", Status: http.StatusBadGateway, Times: 1})
	// Never reached while the first fault matches: the first injected
	// wins.
	srv.InjectFault(Fault{Method: http.MethodPut, Status: http.StatusTeapot})

	tests := []struct {
		method, path string
		wantStatus   int
	}{
		{http.MethodGet, "/actions", http.StatusOK},
		{http.MethodPut, "/actions/A-1", http.StatusInternalServerError},
		{http.MethodPut, "/actions/A-1", http.StatusInternalServerError},
		{http.MethodGet, "/meetings", http.StatusOK},
		{http.MethodGet, "/meetings/mtg-2", http.StatusOK},
		{http.MethodGet, "/meetings/mtg-1/minutes", http.StatusBadGateway},
		{http.MethodGet, "/meetings/mtg-1/minutes", http.StatusOK},
	}
	for _, tt := range tests {
		resp := send(t, tt.method, srv.URL+tt.path, DefaultKey, `{"status":"open"}`)
		assert.Equal(t, tt.wantStatus, resp.status, "%s %s", tt.method, tt.path)
	}
	a, _ := srv.Action("A-1")
	assert.Equal(t, "open", a.Status, "a faulted update does not reach the store")
}

func TestFaultBeforeAuthentication(t *testing.T) {
	t.Parallel()
	srv := newFixtureServer(t)
	srv.InjectFault(Fault{Status: http.StatusServiceUnavailable, Times: 1})
	resp := send(t, http.MethodGet, srv.URL+"/actions", "", "")
	assert.Equal(t, http.StatusServiceUnavailable, resp.status)
	assert.Equal(t, http.StatusUnauthorized, send(t, http.MethodGet, srv.URL+"/actions", "", "").status)
}

func statuses(reqs []Request) []int {
	out := make([]int, len(reqs))
	for i, r := range reqs {
		out[i] = r.Status
	}
	return out
}
