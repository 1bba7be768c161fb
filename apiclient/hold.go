package apiclient

import (
	"context"
	"sync"
	"time"
)

// hold is the pause a 429's Retry-After asks of the whole client, not
// only of the request that got it. The records service's quota is shared
// by every caller (public pages, /actions, the Home tab, the watcher); a
// server that says "wait 30 s" means all of them, and a caller who asks
// again meanwhile only spends the quota further and earns a longer wait.
type hold struct {
	mu    sync.Mutex
	until time.Time
}

// extend holds the client until t, unless it is already held longer.
// The caller caps t at maxRetryAfter from now: a server asking for an hour
// is then probed by one call a minute, not trusted to be right for an
// hour.
func (h *hold) extend(t time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t.After(h.until) {
		h.until = t
	}
}

// remaining is how long the client is still held at now; zero when not.
func (h *hold) remaining(now time.Time) time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return max(h.until.Sub(now), 0)
}

// awaitHold waits out the client's hold before a call's first request.
// A hold that would end past ctx's deadline is not waited out: the call fails at once
// with ErrRateLimited (Error.RetryAfter says how long is left), and no
// request is sent. A call's own retries after a 429 wait in the retry
// loop instead, which covers the same time.
func (c *Client) awaitHold(ctx context.Context, ep endpoint) *Error {
	d := c.held.remaining(c.now())
	if d <= 0 {
		return nil
	}
	const msg = "held by an earlier 429 from the records service"
	if deadline, ok := ctx.Deadline(); ok && !c.now().Add(d).Before(deadline) {
		e := c.newError(ep, 0, ErrRateLimited, msg, nil)
		e.RetryAfter = d.Round(time.Second)
		return e
	}
	if err := c.sleep(ctx, d); err != nil {
		return c.newError(ep, 0, ErrRateLimited, msg, err)
	}
	return nil
}
