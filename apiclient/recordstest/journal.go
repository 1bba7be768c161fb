package recordstest

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
)

// Request is one request the server received, as [Server.Requests] reports
// it.
type Request struct {
	Method string
	// Path is the escaped path as sent on the wire, including /api/v1:
	// "/api/v1/actions/A%2F1".
	Path string
	// Query is the raw query string, without "?".
	Query string
	// Authorized reports whether the request carried an API key the server
	// accepts, whatever its scopes (a key without the endpoint's scope
	// shows as Status 403).
	Authorized bool
	// Status is the status code answered, injected faults included; 0 when
	// nothing was answered, such as when the client gave up during an
	// injected latency.
	Status int
	// Body is the request body; bodies over 1 MiB are cut there and
	// answered 413.
	Body string
}

// maxRequestBody caps the request bodies the server reads; larger ones get
// 413. The API's only body is a few bytes.
const maxRequestBody = 1 << 20

// Journal records every request a records service receives, in arrival
// order: a [Server]'s, or with [Journal.Middleware] a recordsfake
// server's that a test did not build itself (the demo's). The zero
// Journal is ready to use.
type Journal struct {
	base string // set when the server is built
	mu   sync.Mutex
	// reqs holds pointers so that a request's status can be filled in
	// when it is answered; ResetRequests drops them, and a late answer
	// then writes to a record nobody sees.
	reqs []*Request
}

// Middleware records each request before passing it to next, buffering
// the body so it can be both recorded and read by next; give it to
// recordsfake.WithMiddleware, outermost.
func (j *Journal) Middleware(next http.Handler, sur recordsfake.Surround) http.Handler {
	j.base = sur.Base
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &Request{
			Method:     r.Method,
			Path:       r.URL.EscapedPath(),
			Query:      r.URL.RawQuery,
			Authorized: sur.Authorized(r),
		}
		j.mu.Lock()
		j.reqs = append(j.reqs, rec)
		j.mu.Unlock()

		sw := &statusWriter{ResponseWriter: w, mu: &j.mu, rec: rec}
		body, err := io.ReadAll(http.MaxBytesReader(sw, r.Body, maxRequestBody))
		j.mu.Lock()
		rec.Body = string(body)
		j.mu.Unlock()
		if err != nil {
			if _, tooLarge := errors.AsType[*http.MaxBytesError](err); tooLarge {
				recordsfake.WriteError(sw, http.StatusRequestEntityTooLarge, "request body too large")
			} else {
				recordsfake.WriteError(sw, http.StatusBadRequest, "could not read request body")
			}
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(sw, r)
	})
}

// Requests returns every request received since the server started or
// [Journal.Reset] was last called, in arrival order.
func (j *Journal) Requests() []Request {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]Request, len(j.reqs))
	for i, r := range j.reqs {
		out[i] = *r
	}
	return out
}

// Count returns how many received requests have that method (empty: any)
// and an escaped path that, after /api/v1, starts with pathPrefix (empty:
// any).
func (j *Journal) Count(method, pathPrefix string) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := 0
	for _, r := range j.reqs {
		if method != "" && r.Method != method {
			continue
		}
		if pathPrefix != "" {
			rel, ok := recordsfake.RelPath(j.base, r.Path)
			if !ok || !strings.HasPrefix(rel, pathPrefix) {
				continue
			}
		}
		n++
	}
	return n
}

// Reset forgets the requests received so far.
func (j *Journal) Reset() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.reqs = nil
}

// statusWriter records the status of a response in its Request as the
// header is written, before any byte reaches the client, so a test that
// has read the response always sees the status recorded.
type statusWriter struct {
	http.ResponseWriter
	mu          *sync.Mutex
	rec         *Request
	wroteHeader bool
}

func (w *statusWriter) WriteHeader(code int) {
	// 1xx answers are interim; the final status comes later.
	if !w.wroteHeader && code >= 200 {
		w.wroteHeader = true
		w.mu.Lock()
		w.rec.Status = code
		w.mu.Unlock()
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's Flush and
// Hijack.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
