package slacktest

import (
	"math"
	"sync"
	"time"

	"github.com/recordsbot/recordsbot/internal/slackapi/slackfake"
)

// Fault makes the Server refuse calls to one method, to test how the bot
// copes with Slack failing. A fault is checked before anything else, the
// token included, and the refused call is still recorded.
type Fault struct {
	// Method is the Web API method to refuse, such as "chat.update", or
	// [ResponseMethod] for posts to a response_url.
	Method string
	// HTTPStatus is the status to answer, such as 429 or 500; 0 means 200,
	// which makes sense only with Error.
	HTTPStatus int
	// RetryAfter is the Retry-After header in seconds. With HTTPStatus 429 it
	// is always sent, at least 1, because slack-go only reports a 429 as a
	// *slack.RateLimitedError when the header is present. With other
	// statuses it is sent only when positive.
	RetryAfter int
	// Error is the Slack error code to answer in {"ok":false,"error":...},
	// such as "not_in_channel", "channel_not_found" or "invalid_auth". When
	// it is "", a 429 answers "ratelimited", a 200 answers "fatal_error",
	// and any other status answers a plain-text body, as Slack's 5xx pages
	// are not JSON.
	Error string
	// Times is how many calls to refuse; 0 means every call until
	// [Server.ClearFaults].
	Times int
	// AfterEffect runs the call as usual, then answers the fault instead
	// of its result: the answer lost on its way back (a gateway's 5xx or a
	// timeout after Slack posted), which leaves the caller unable to tell
	// whether the call took effect.
	AfterEffect bool
	// Hang holds the call unanswered until the client gives up (its
	// request is cancelled or times out) or the Server closes: Slack
	// that does not answer in time, as a client sees a timeout. Slack's
	// own answer to an overloaded call, when it does answer, is an error
	// such as internal_error or fatal_error ("likely due to a transient
	// issue on our end", https://docs.slack.dev/reference/methods/users.info
	// and every method's page list them under common errors); Error and
	// HTTPStatus model that.
	Hang bool
}

// activeFault is an injected Fault and how many more calls it refuses.
type activeFault struct {
	Fault
	left int // calls still to refuse; negative means no limit
}

// faultSet holds the injected faults, in injection order.
type faultSet struct {
	mu     sync.Mutex
	faults []*activeFault
}

// InjectFault makes the Server refuse calls to f.Method as f describes. When
// several faults match a call, the one injected first applies.
func (s *Server) InjectFault(f Fault) {
	left := f.Times
	if left <= 0 {
		left = -1
	}
	s.faults.mu.Lock()
	s.faults.faults = append(s.faults.faults, &activeFault{Fault: f, left: left})
	s.faults.mu.Unlock()
	s.Changed()
}

// ClearFaults removes every injected fault.
func (s *Server) ClearFaults() {
	s.faults.mu.Lock()
	s.faults.faults = nil
	s.faults.mu.Unlock()
	s.Changed()
}

// FaultsLeft is how many injected faults still refuse calls: those with
// calls left to refuse (a fault with Times 0 always has). A test that
// needs a fault to have struck, such as a call held by Hang, waits for
// this to fall.
func (s *Server) FaultsLeft() int {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	return len(s.faults.faults)
}

// take returns how the fault that refuses a call to method refuses it,
// counting the call against it, and false when none does.
func (fs *faultSet) take(method string) (slackfake.Refusal, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, f := range fs.faults {
		if f.Method != method {
			continue
		}
		if f.left > 0 {
			f.left--
			if f.left == 0 {
				fs.faults = append(fs.faults[:i:i], fs.faults[i+1:]...)
			}
		}
		return slackfake.Refusal{HTTPStatus: f.HTTPStatus, RetryAfter: f.RetryAfter, Error: f.Error, AfterEffect: f.AfterEffect, Hang: f.Hang}, true
	}
	return slackfake.Refusal{}, false
}

// WithChannelRateLimit limits chat.postMessage and chat.update to perSecond
// calls per channel with bursts of up to burst calls, as Slack limits posting
// to about one message a second per channel. A call over the limit is
// answered HTTP 429 with a Retry-After header (whole seconds, rounded up, at
// least 1) and {"ok":false,"error":"ratelimited"}; it does not use up the
// allowance. Channels are told apart by the "channel" argument as sent. The
// limit follows the clock given with [WithClock]. A perSecond of zero or
// less turns limiting off, which is the default; a burst below 1 counts as
// 1.
func WithChannelRateLimit(perSecond float64, burst int) Option {
	return func(c *config) { c.limiter = newChannelLimiter(perSecond, burst) }
}

// channelLimiter is a token bucket per channel, refilled by the clock. It
// is used with slackfake's lock held (Extension.Limit).
type channelLimiter struct {
	perSecond float64
	burst     float64
	buckets   map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// newChannelLimiter returns a limiter, or nil (no limit) when perSecond is
// not positive.
func newChannelLimiter(perSecond float64, burst int) *channelLimiter {
	if perSecond <= 0 {
		return nil
	}
	return &channelLimiter{
		perSecond: perSecond,
		burst:     float64(max(burst, 1)),
		buckets:   make(map[string]*bucket),
	}
}

// take spends one call's allowance on channel at now. When none is left it
// spends nothing and returns false with the whole seconds to wait, at least
// 1, as Slack's Retry-After does. A nil limiter allows everything.
func (l *channelLimiter) take(channel string, now time.Time) (retryAfter int, ok bool) {
	if l == nil {
		return 0, true
	}
	b, found := l.buckets[channel]
	if !found {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[channel] = b
	}
	// A clock that steps backwards refills nothing rather than draining.
	if elapsed := now.Sub(b.last); elapsed > 0 {
		b.tokens = min(l.burst, b.tokens+elapsed.Seconds()*l.perSecond)
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return 0, true
	}
	wait := math.Ceil((1 - b.tokens) / l.perSecond)
	return max(int(wait), 1), false
}
