// Package health watches the services recordsbot depends on (the records
// service, Slack, the store) from inside a running process, and keeps an
// outage to a few log lines.
//
// It is not readiness: /readyz says whether this process can take
// requests, which an outage of a dependency every replica shares does not
// change (taking every replica out of the Service would only swap the
// bot's own "the records service is not answering" for Slack's generic
// timeout). Dependencies are reported as the gauge
// recordsbot_dependency_up, in the logs (once per change of state, with
// the reason, and a reminder while it lasts) and by `recordsbot doctor`.
package health

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// Probe checks one dependency once; nil means it works.
type Probe func(ctx context.Context) error

// Checker checks each dependency in the background and remembers the
// result. Build it with [NewChecker].
type Checker struct {
	// Interval is the time between checks while every dependency is up.
	// Default 30 s.
	Interval time.Duration
	// RetryInterval is the time between checks while one is down, shorter
	// so that recovery is seen soon. Default 5 s.
	RetryInterval time.Duration
	// Timeout bounds each round of checks. Default 5 s.
	Timeout time.Duration

	probes map[string]Probe
	order  []string
	set    func(name string, up bool)
	logs   map[string]*Outage

	mu    sync.Mutex
	state map[string]error
	// wake asks Run for a check now: a failure met elsewhere (SetOutage)
	// starts the quicker RetryInterval checks at once.
	wake chan struct{}
}

// NewChecker returns a checker of the named probes. set, which may be nil,
// is told each result (the gauge); log gets one line per change of state
// and a reminder every remind while a dependency stays down.
func NewChecker(log *slog.Logger, set func(name string, up bool), remind time.Duration, probes map[string]Probe) *Checker {
	c := &Checker{Interval: 30 * time.Second, RetryInterval: 5 * time.Second, Timeout: 5 * time.Second,
		probes: probes, set: set, logs: map[string]*Outage{}, state: map[string]error{}, wake: make(chan struct{}, 1)}
	for name := range probes {
		c.order = append(c.order, name)
		c.logs[name] = NewOutage(log, name, remind)
	}
	return c
}

// SetOutage makes out the log of the dependency name's failures, so that
// its failures met elsewhere (a request that found the store down) and the
// checker's keep one state and one set of lines. When out logs that the
// dependency is down, the gauge says so at once (not at the next check,
// up to Interval later) and a check runs now, then every RetryInterval
// until the probe passes again. Call it before Run.
func (c *Checker) SetOutage(name string, out *Outage) {
	if _, ok := c.probes[name]; !ok {
		return
	}
	c.logs[name] = out
	out.mu.Lock()
	defer out.mu.Unlock()
	out.onDown = func(err error) { c.down(name, err) }
}

// down records that dependency name failed elsewhere than in a check.
func (c *Checker) down(name string, err error) {
	c.mu.Lock()
	c.state[name] = err
	c.mu.Unlock()
	if c.set != nil {
		c.set(name, false)
	}
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// errNotChecked is a dependency's state before its first check.
var errNotChecked = errors.New("not checked yet")

// State returns each dependency's last result: nil when it worked, else
// why not ("not checked yet" before the first check).
func (c *Checker) State() map[string]error {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]error, len(c.probes))
	for _, name := range c.order {
		err, ok := c.state[name]
		if !ok {
			err = errNotChecked
		}
		out[name] = err
	}
	return out
}

// Check runs every probe once, at the same time so that a slow one does
// not eat the others' timeout, records and reports the results, and
// returns the failures joined (nil when all work).
func (c *Checker) Check(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, or(c.Timeout, 5*time.Second))
	defer cancel()
	results := make([]error, len(c.order))
	var wg sync.WaitGroup
	for i, name := range c.order {
		wg.Go(func() { results[i] = c.probes[name](ctx) })
	}
	wg.Wait()
	c.mu.Lock()
	for i, name := range c.order {
		c.state[name] = results[i]
	}
	c.mu.Unlock()
	var errs []error
	for i, name := range c.order {
		if c.set != nil {
			c.set(name, results[i] == nil)
		}
		if results[i] != nil {
			c.logs[name].Failed(ctx, results[i])
			errs = append(errs, results[i])
		} else {
			c.logs[name].OK(ctx)
		}
	}
	return errors.Join(errs...)
}

// Run checks now, then every Interval while all are up and every
// RetryInterval while one is down, and at once when an outage log given
// to SetOutage goes down, until ctx ends.
func (c *Checker) Run(ctx context.Context) {
	for {
		next := or(c.Interval, 30*time.Second)
		if c.Check(ctx) != nil {
			next = min(next, or(c.RetryInterval, 5*time.Second))
		}
		t := time.NewTimer(next)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		case <-c.wake:
			t.Stop()
		}
	}
}

func or(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
