package slackfake

import (
	"net/http"
	"net/url"
	"time"
)

// What tests add to the Server (package slacktest: injected faults,
// rate limits and Slack's tiers, Socket Mode, the Markdown and block_id
// checks) plugs in through an
// [Extension], so that `recordsbot demo` links the model of Slack and
// nothing only tests switch on.

// Extension is what a test's server adds to the Server. Every hook may be
// nil. Hooks that run with the Server's lock held must not block or call
// back into the Server.
type Extension struct {
	// Refuse runs first for every Web API call, before its body, method
	// or token are looked at, and for every response_url post (method
	// [ResponseMethod]), with the lock held: ok answers r instead. The
	// refused call is recorded like any other.
	Refuse func(method string) (r Refusal, ok bool)
	// Limit runs for a call whose token and scope passed, just before the
	// method runs, with the lock held: ok false answers HTTP 429 with
	// Retry-After retryAfter (whole seconds, at least 1), and the method
	// does not run.
	Limit func(c LimitedCall) (retryAfter int, ok bool)
	// AppToken is the app-level token the AppMethods take instead of the
	// bot token.
	AppToken string
	// AppMethods are further Web API methods, called with AppToken (Socket
	// Mode's apps.connections.open): they answer the fields beside
	// "ok":true, or an error, answered "internal_error". They run with the
	// lock held.
	AppMethods map[string]func() (map[string]any, error)
	// Called is told of each Web API call the Server carried out (not
	// refused), with its arguments, with the lock held.
	Called func(method string, params url.Values)
	// Shown is told of each message body the app answered with that a
	// user sees (JSON): a response_url post the Server accepted (where
	// is [ResponseMethod]) and the ack of a slash command ("ack"), with
	// the lock held.
	Shown func(where string, body []byte)
	// Revised is told of each new version the app sent of a message or a
	// view over the one before (chat.update, a response_url
	// replace_original, views.publish, views.update, a view_submission's
	// update), with the block_ids of both versions and those Slack keeps
	// from one version to the next on purpose (a modal's inputs, which is
	// how Slack keeps what was typed in them), with the lock held.
	Revised func(where string, before, after, kept []string)
	// Mount adds routes beside /api/ and /response/.
	Mount func(mux *http.ServeMux)
	// Listening is told the Server's URL ("http://127.0.0.1:PORT") once it
	// listens.
	Listening func(url string)
	// Close runs first when the Server closes, for what outlives
	// httptest's Close (hijacked connections).
	Close func()
}

// LimitedCall is a call a [Extension.Limit] may refuse.
type LimitedCall struct {
	Method string
	// Channel is the "channel" argument as sent; ChannelKey the
	// conversation it names (a user ID's DM is "D"+ID), so that two
	// spellings of one DM share its limit.
	Channel, ChannelKey string
	// Now is the Server's clock (WithClock).
	Now time.Time
}

// Refusal is how Slack refuses a call it does not carry out.
type Refusal struct {
	// HTTPStatus is the status to answer, such as 429 or 500; 0 means 200,
	// which makes sense only with Error.
	HTTPStatus int
	// RetryAfter is the Retry-After header in seconds. With HTTPStatus 429
	// it is always sent, at least 1, because slack-go only reports a 429
	// as a *slack.RateLimitedError when the header is present. With other
	// statuses it is sent only when positive.
	RetryAfter int
	// Error is the Slack error code to answer in {"ok":false,"error":...}.
	// When it is "", a 429 answers "ratelimited", a 200 answers
	// "fatal_error", and any other status answers a plain-text body, as
	// Slack's 5xx pages are not JSON.
	Error string
	// AfterEffect runs the call as usual, then answers the refusal
	// instead of its result: the answer lost on its way back.
	AfterEffect bool
	// Hang holds the call unanswered until the client gives up or the
	// Server closes.
	Hang bool
}

// WithExtension adds e to the Server; a later one replaces it.
func WithExtension(e Extension) Option {
	return func(s *Server) { s.ext = e }
}

// Changed wakes whatever waits on [Server.Notify], for a change an
// extension made to what the Server does (a fault injected or cleared).
func (s *Server) Changed() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.signalLocked()
}

// answer returns what the Server sends for a call r refuses.
func (r Refusal) answer() answer {
	status := r.HTTPStatus
	if status == 0 {
		status = http.StatusOK
	}
	code := r.Error
	if code == "" {
		switch status {
		case http.StatusTooManyRequests:
			code = "ratelimited"
		case http.StatusOK:
			code = "fatal_error"
		}
	}
	var a answer
	if code == "" {
		a = textAnswer(status, http.StatusText(status))
	} else {
		a = errorAnswer(code)
		a.status = status
	}
	a.retryAfter = r.RetryAfter
	a.hang = r.Hang
	if status == http.StatusTooManyRequests {
		a.retryAfter = max(a.retryAfter, 1)
	}
	return a
}
