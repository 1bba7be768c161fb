// Package retry is recordsbot's one retry loop: try, and on a failure
// worth retrying wait (the server's Retry-After when it gave one, else a
// jittered backoff) and try again, within a number of attempts and never
// past the caller's deadline. The records client, response_url posts and
// the reminder job's Slack calls all retry through it.
package retry

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// Policy says how often and how long to retry. The zero value tries once.
type Policy struct {
	// Attempts is the most tries in all; less than 1 counts as 1.
	Attempts int
	// Base and Max shape the backoff when the server gives no Retry-After:
	// Base doubled per attempt, capped at Max, with "equal jitter"
	// (between half and all of it) so that many clients do not retry in
	// lockstep. A zero Base means no wait of our own.
	Base, Max time.Duration
	// MaxWait is the longest Retry-After worth waiting for; a longer one
	// ends the loop with the error. Zero means no limit.
	MaxWait time.Duration
	// Now and Sleep are the clock; defaults time.Now and a timer.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Result is what one attempt says: Err is nil on success; Retry says the
// failure is worth another attempt; After is the server's Retry-After (zero
// when it gave none).
type Result struct {
	Err   error
	Retry bool
	After time.Duration
}

// Do calls attempt until it succeeds, its failure is final, the attempts
// run out, or the next wait would end past ctx's deadline; it returns the
// last attempt's error (joined with ctx's error when ctx ended a wait).
func Do(ctx context.Context, p Policy, attempt func(ctx context.Context, n int) Result) error {
	now, sleep := p.Now, p.Sleep
	if now == nil {
		now = time.Now
	}
	if sleep == nil {
		sleep = Sleep
	}
	for n := 0; ; n++ {
		r := attempt(ctx, n)
		if r.Err == nil {
			return nil
		}
		if !r.Retry || n+1 >= max(p.Attempts, 1) {
			return r.Err
		}
		wait := r.After
		if p.MaxWait > 0 && wait > p.MaxWait {
			return r.Err
		}
		if wait <= 0 {
			wait = p.backoff(n)
		}
		if deadline, ok := ctx.Deadline(); ok && !now().Add(wait).Before(deadline) {
			return r.Err
		}
		if wait > 0 {
			if err := sleep(ctx, wait); err != nil {
				return errors.Join(r.Err, err)
			}
		}
	}
}

// backoff is the wait before attempt n+2 when the server named none.
func (p Policy) backoff(n int) time.Duration {
	if p.Base <= 0 {
		return 0
	}
	d := p.Max
	if n < 32 {
		if b := p.Base << n; b > 0 && (d <= 0 || b < d) {
			d = b
		}
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// Sleep waits for d or until ctx is done.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
