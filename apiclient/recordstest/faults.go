package recordstest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
)

// Fault is a failure the server injects into the requests it matches, to
// test how a client copes. Faults act before authentication, as a gateway
// or load balancer in front of the real service would.
//
// A fault with only Latency (or Hold) delays the real answer. With Status or Body
// set, the fault's answer replaces the real one. Malformed and ResetMidBody
// then spoil whichever answer is sent.
type Fault struct {
	// Method is the request method to match; empty matches any.
	Method string
	// PathPrefix matches requests whose escaped path after /api/v1 starts
	// with it, such as "/actions/" for every action update; empty matches
	// all requests.
	PathPrefix string
	// Latency delays the answer. The wait ends early, with no answer, when
	// the client gives up or the server is closed.
	Latency time.Duration
	// Hold, when set, holds the answer until it is closed, as a service
	// hung for as long as the test wants, on no clock; the wait ends early
	// as Latency's does.
	Hold <-chan struct{}
	// Status, when not 0, is answered instead of the real response, with
	// Body or, when Body is empty, a JSON error body
	// {"error": "too_many_requests", "message": "..."}.
	Status int
	// RetryAfter, when set, is sent as the Retry-After header ("2", or an
	// HTTP date).
	RetryAfter string
	// Body, when set, is answered instead of the real response, with Status
	// or 200. It is labelled application/json when it is valid JSON, and
	// sniffed (text/html, text/plain...) otherwise.
	Body string
	// Malformed sends only the first half of the body, with a
	// Content-Length to match: a complete HTTP response carrying truncated
	// JSON.
	Malformed bool
	// ResetMidBody announces the full Content-Length, sends half the body,
	// then closes the connection: the client sees an unexpected EOF. It
	// wins over Malformed.
	ResetMidBody bool
	// Times is how many matching requests the fault applies to; 0 (or
	// less) keeps it until [Server.ClearFaults].
	Times int
}

func (f *Fault) matches(base, method, escapedPath string) bool {
	if f.Method != "" && f.Method != method {
		return false
	}
	if f.PathPrefix == "" {
		return true
	}
	rel, ok := recordsfake.RelPath(base, escapedPath)
	return ok && strings.HasPrefix(rel, f.PathPrefix)
}

// faultSet holds the injected faults, first injected first matched.
type faultSet struct {
	// base and done are set when the server is built; done is closed
	// when it closes, to end injected latencies so that Close does not
	// wait for them.
	base string
	done <-chan struct{}

	mu     sync.Mutex
	faults []*Fault
}

func (fs *faultSet) inject(f Fault) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.faults = append(fs.faults, &f)
}

func (fs *faultSet) clear() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.faults = nil
}

// take returns the first fault matching the request and uses up one of its
// Times, dropping it when none are left.
func (fs *faultSet) take(method, escapedPath string) (Fault, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, f := range fs.faults {
		if !f.matches(fs.base, method, escapedPath) {
			continue
		}
		if f.Times > 0 {
			f.Times--
			if f.Times == 0 {
				fs.faults = append(fs.faults[:i:i], fs.faults[i+1:]...)
			}
		}
		return *f, true
	}
	return Fault{}, false
}

// middleware applies the first matching fault to each request; requests
// no fault matches go straight to next.
func (fs *faultSet) middleware(next http.Handler, sur recordsfake.Surround) http.Handler {
	fs.base, fs.done = sur.Base, sur.Done
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := fs.take(r.Method, r.URL.EscapedPath())
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		if f.Latency > 0 || f.Hold != nil {
			var waited <-chan time.Time // nil: never
			if f.Latency > 0 {
				t := time.NewTimer(f.Latency)
				defer t.Stop()
				waited = t.C
			}
			select {
			case <-waited:
			case <-f.Hold:
			case <-r.Context().Done():
				return
			case <-fs.done:
				// Drop the connection: the client sees what a server
				// going away looks like, and Close need not wait.
				panic(http.ErrAbortHandler)
			}
		}
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		answer := next
		if f.Status != 0 || f.Body != "" {
			answer = faultAnswer(f.Status, f.Body)
		}
		if !f.Malformed && !f.ResetMidBody {
			answer.ServeHTTP(w, r)
			return
		}

		rec := httptest.NewRecorder()
		answer.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		half := body[:len(body)/2]
		if f.ResetMidBody {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(rec.Code)
			_, _ = w.Write(half) // the connection is dropped next anyway
			resetConnection(w)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(half)))
		w.WriteHeader(rec.Code)
		_, _ = w.Write(half) // the client hung up; nothing to do
	})
}

// faultAnswer answers status (200 when 0) with body, or with a JSON error
// when body is empty.
func faultAnswer(status int, body string) http.Handler {
	status = cmp.Or(status, http.StatusOK)
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if body == "" {
			recordsfake.WriteError(w, status, "injected fault: "+http.StatusText(status))
			return
		}
		ct := "application/json"
		if !json.Valid([]byte(body)) {
			ct = http.DetectContentType([]byte(body))
		}
		w.Header().Set("Content-Type", ct)
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body)) // the client hung up; nothing to do
	})
}

// resetConnection sends what was written so far and closes the connection
// under the response.
func resetConnection(w http.ResponseWriter) {
	rc := http.NewResponseController(w)
	// Hijack flushes the header but not the body bytes buffered in the
	// response, so flush first.
	if err := rc.Flush(); err == nil {
		if conn, _, err := rc.Hijack(); err == nil {
			_ = conn.Close() // closing is the point; its error says nothing
			return
		}
	}
	// The connection cannot be hijacked (HTTP/2): abort the handler, which
	// resets the stream or closes the connection.
	panic(http.ErrAbortHandler)
}
