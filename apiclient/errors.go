package apiclient

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// Sentinel errors, one per kind of failure. Every error a Client method
// returns wraps exactly one of them (test with errors.Is); most are an
// *Error carrying the detail (test with errors.As).
var (
	// ErrUnauthorized: the API key was refused (HTTP 401).
	ErrUnauthorized = errors.New("unauthorized")
	// ErrForbidden: the key lacks the endpoint's scope (HTTP 403); see
	// Error.Scope.
	ErrForbidden = errors.New("forbidden")
	// ErrNotFound: no such record (HTTP 404), or minutes that are not
	// visible.
	ErrNotFound = errors.New("not found")
	// ErrRateLimited: HTTP 429; see Error.RetryAfter.
	ErrRateLimited = errors.New("rate limited")
	// ErrUnavailable: 5xx, a network error or a timeout.
	ErrUnavailable = errors.New("unavailable")
	// ErrInvalidResponse: malformed JSON, an unexpected shape, or a body over
	// the size cap.
	ErrInvalidResponse = errors.New("invalid response")
	// ErrInvalidStatus: the status given to UpdateActionStatus (or as the
	// ListActions filter) is not one of the documented ones; nothing was
	// sent.
	ErrInvalidStatus = errors.New("invalid status")
	// ErrBadRequest: any other 4xx (such as 400 for a status the server
	// refuses).
	ErrBadRequest = errors.New("bad request")
	// ErrOverBudget: the call budget the context carries (WithCallBudget)
	// is used up; nothing was sent.
	ErrOverBudget = errors.New("over the caller's call budget")
)

// Error is a failed call to the Records API.
type Error struct {
	Kind       error  // one of the sentinel errors above
	Method     string // HTTP method
	Endpoint   string // path template, such as "/actions/{id}"
	StatusCode int    // 0 when no HTTP answer was received
	Message    string // the server's message, truncated; may be empty
	// Scope is the scope the endpoint needs, set on ErrForbidden.
	Scope string
	// RetryAfter is the server's Retry-After, set when a 429 or 503 answer
	// gives one.
	RetryAfter time.Duration
	Err        error // the underlying cause, if any
}

// Error returns a one-line description such as
//
//	records api: PUT /actions/{id}: 403 forbidden: missing scope actions:write
//
// It never contains the API key: the client redacts the key from the
// server's message and from the cause before it builds an Error.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("records api: ")
	if e.Method != "" {
		b.WriteString(e.Method)
		b.WriteByte(' ')
	}
	b.WriteString(e.Endpoint)
	b.WriteString(": ")
	// A 2xx code next to a failure (minutes that are hidden, a body that
	// does not parse) would only confuse the reader, so only error codes are
	// shown.
	if e.StatusCode >= 300 {
		b.WriteString(strconv.Itoa(e.StatusCode))
		b.WriteByte(' ')
	}
	if e.Kind != nil {
		b.WriteString(e.Kind.Error())
	} else {
		b.WriteString("error")
	}
	// A message that only repeats the kind ("forbidden", "not_found") adds
	// nothing.
	if e.Message != "" && (e.Kind == nil || !strings.EqualFold(strings.ReplaceAll(e.Message, "_", " "), e.Kind.Error())) {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Scope != "" && !strings.Contains(e.Message, e.Scope) {
		b.WriteString(" (needs scope ")
		b.WriteString(e.Scope)
		b.WriteByte(')')
	}
	if e.RetryAfter > 0 {
		b.WriteString(" (retry after ")
		b.WriteString(e.RetryAfter.String())
		b.WriteByte(')')
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the kind and the cause, so errors.Is matches both.
func (e *Error) Unwrap() []error { return []error{e.Kind, e.Err} }
