// Package clocktest is a clock a test moves by hand, so that what waits,
// expires or is stamped with the time does so by the test's steps, never
// by how fast the machine runs it. Tests only: nothing in the binary
// imports it.
package clocktest

import (
	"sync"
	"time"
)

// Clock stands still until [Clock.Advance] or [Clock.Set] moves it. It is safe for
// concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// New returns a Clock reading start.
func New(start time.Time) *Clock { return &Clock{now: start} }

// Now is the time the Clock reads; pass it where a func() time.Time goes.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the Clock d forward.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Set moves the Clock to t, forward or back.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}
