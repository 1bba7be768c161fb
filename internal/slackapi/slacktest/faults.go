package slacktest

import (
	"math"
	"net/http"
	"time"
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

// InjectFault makes the Server refuse calls to f.Method as f describes. When
// several faults match a call, the one injected first applies.
func (s *Server) InjectFault(f Fault) {
	left := f.Times
	if left <= 0 {
		left = -1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &activeFault{Fault: f, left: left})
	s.signalLocked()
}

// ClearFaults removes every injected fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
	s.signalLocked()
}

// takeFaultLocked returns the fault that refuses a call to method, counting
// the call against it, and false when none does. s.mu must be held.
func (s *Server) takeFaultLocked(method string) (Fault, bool) {
	for i, f := range s.faults {
		if f.Method != method {
			continue
		}
		if f.left > 0 {
			f.left--
			if f.left == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		return f.Fault, true
	}
	return Fault{}, false
}

// answer returns what the Server sends for a call f refuses.
func (f Fault) answer() answer {
	status := f.HTTPStatus
	if status == 0 {
		status = http.StatusOK
	}
	code := f.Error
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
	a.retryAfter = f.RetryAfter
	a.hang = f.Hang
	if status == http.StatusTooManyRequests {
		a.retryAfter = max(a.retryAfter, 1)
	}
	return a
}

// channelLimiter is a token bucket per channel, refilled by the clock.
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
