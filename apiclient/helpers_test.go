package apiclient

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// testKey is long and distinctive so that a leak is easy to spot.
const testKey = "sk_test_7f3a9c1e5b2d4f6a8c0e"

// basePath is where the test servers mount the API: a prefix before
// /api/v1 makes any URL built from the host alone miss.
const basePath = "/prefix/api/v1"

// request is what a test server saw.
type request struct {
	Method     string
	RequestURI string // as sent on the wire, escapes included
	Path       string // decoded
	Query      string
	Header     http.Header
	Body       string
}

// apiServer is an httptest server that records requests and answers them
// with handler.
type apiServer struct {
	*httptest.Server
	t  *testing.T
	mu sync.Mutex
	rs []request
}

func (s *apiServer) requests() []request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]request(nil), s.rs...)
}

// newAPIServer starts a server whose handler only sees requests under
// basePath; any other request fails the test.
func newAPIServer(t *testing.T, handler http.HandlerFunc) *apiServer {
	t.Helper()
	s := &apiServer{t: t}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.rs = append(s.rs, request{
			Method:     r.Method,
			RequestURI: r.RequestURI,
			Path:       r.URL.Path,
			Query:      r.URL.RawQuery,
			Header:     r.Header.Clone(),
			Body:       string(body),
		})
		s.mu.Unlock()
		if !strings.HasPrefix(r.URL.EscapedPath(), basePath+"/") {
			t.Errorf("request outside the base path: %s %s", r.Method, r.RequestURI)
			http.NotFound(w, r)
			return
		}
		handler(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// sleeper records the waits of the retry loop instead of sleeping.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeper) recorded() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// withSleeper makes retries instant and recorded.
func withSleeper(s *sleeper) Option { return func(c *Client) { c.sleep = s.sleep } }

// newTestClient returns a client for srv whose retries do not sleep.
func newTestClient(t *testing.T, srv *apiServer, opts ...Option) *Client {
	t.Helper()
	opts = append([]Option{withSleeper(new(sleeper))}, opts...)
	c, err := NewClient(srv.URL+basePath, testKey, opts...)
	require.NoError(t, err)
	return c
}

// serveJSON answers every request with status and body.
func serveJSON(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// noRaw returns the actions without Raw, for comparisons by value.
func noRaw(as []Action) []Action {
	out := make([]Action, len(as))
	for i, a := range as {
		a.Raw = nil
		out[i] = a
	}
	return out
}
