// Package cache is recordsbot's one cache: a keyed store of values that
// live for a TTL, whose concurrent misses on one key are collapsed into one
// load. The action list, Slack profiles, minutes pages and the Home tab's
// latest minutes all go through it, so a burst of requests costs one call
// per key per TTL.
package cache

import (
	"context"
	"errors"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// DefaultLoadTimeout bounds a load when the caller's context has no
// deadline.
const DefaultLoadTimeout = 10 * time.Second

// maxEntries bounds a cache: past it, everything is dropped rather than
// tracking recency; a refill costs one load per key.
const maxEntries = 1000

// TTL caches values of type V by key for a fixed time. Errors are not
// cached unless KeepFor says so. The zero value is not usable; build one
// with New. A TTL of zero or less caches nothing (every Get loads), but
// concurrent loads of a key are still collapsed.
type TTL[V any] struct {
	ttl    time.Duration
	stale  time.Duration
	keep   func(V, error) time.Duration
	now    func() time.Time
	flight singleflight.Group
	// refreshing counts the background refreshes under way (GetStale).
	refreshing sync.WaitGroup

	mu       sync.Mutex
	entries  map[string]entry[V]
	inflight map[string]bool // keys GetStale is refreshing
}

type entry[V any] struct {
	v   V
	err error // a load's error, kept because KeepFor said so
	at  time.Time
	// ttl is how long this entry lives; zero means the cache's TTL.
	ttl time.Duration
}

// fresh reports whether e is still to be served at now, by the cache's ttl
// unless e has its own.
func (e entry[V]) fresh(now time.Time, ttl time.Duration) bool {
	if e.ttl > 0 {
		ttl = e.ttl
	}
	return now.Sub(e.at) < ttl
}

// New returns a cache whose values live for ttl by the clock now
// (time.Now when nil).
func New[V any](ttl time.Duration, now func() time.Time) *TTL[V] {
	if now == nil {
		now = time.Now
	}
	return &TTL[V]{ttl: ttl, now: now, entries: map[string]entry[V]{}, inflight: map[string]bool{}}
}

// ServeStale lets GetStale answer with a value up to d older than the
// TTL while one refresh runs in the background; it returns c.
func (c *TTL[V]) ServeStale(d time.Duration) *TTL[V] {
	c.stale = d
	return c
}

// KeepFor lets a load's result live for its own time: f returns how long
// to keep a value or an error (such as "not found") that a load returned.
// Zero means the default: a value lives for the TTL, an error is not kept.
// A kept error is returned by Get, Peek excepted, until it expires; it is
// how a cache answers a burst of lookups of something that does not exist
// with one load. It returns c.
func (c *TTL[V]) KeepFor(f func(v V, err error) time.Duration) *TTL[V] {
	c.keep = f
	return c
}

// GetStale is Get, except that a value past its TTL but within the grace
// set by ServeStale is returned at once while one background load
// (collapsed with any other) refreshes it: callers never wait for a
// refresh of a value they already have. Without a cached value, or past
// the grace, it waits for the load as Get does. The refresh runs on a
// context detached from ctx, bounded by DefaultLoadTimeout.
func (c *TTL[V]) GetStale(ctx context.Context, key string, load func(ctx context.Context) (V, error)) (V, error) {
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	age := c.now().Sub(e.at)
	switch {
	case ok && e.err != nil && e.fresh(c.now(), c.ttl):
		return e.v, e.err
	case ok && e.err == nil && e.fresh(c.now(), c.ttl):
		return e.v, nil
	case ok && e.err == nil && age < c.ttl+c.stale:
		// Start one refresh unless one is under way, and do not wait for
		// it; an error keeps the old value and the next call tries again.
		c.mu.Lock()
		start := !c.inflight[key]
		if start {
			c.inflight[key] = true
			c.refreshing.Add(1)
		}
		c.mu.Unlock()
		if start {
			go func() {
				defer c.refreshing.Done()
				defer func() { c.mu.Lock(); delete(c.inflight, key); c.mu.Unlock() }()
				// Nobody waits for this load: on an error the old value is
				// served on, the next call tries again, and past the grace
				// a caller's own load returns the error.
				_, _ = c.Load(context.WithoutCancel(ctx), key, load)
			}()
		}
		return e.v, nil
	}
	return c.Load(ctx, key, load)
}

// Wait blocks until the background refreshes GetStale started are over
// (for shutdown and tests).
func (c *TTL[V]) Wait() { c.refreshing.Wait() }

// Get returns the value cached for key, or loads it. A load runs on a
// context detached from its caller, so one caller who gives up does not
// fail the others waiting for the same key; it ends at the first caller's
// deadline (DefaultLoadTimeout without one), so an outage is reported
// within that caller's budget. A caller who joined a load that timed out
// and still has time of its own gets one load of its own rather than
// someone else's timeout. Each caller stops waiting when its own ctx ends.
func (c *TTL[V]) Get(ctx context.Context, key string, load func(ctx context.Context) (V, error)) (V, error) {
	if e, ok := c.lookup(key); ok {
		return e.v, e.err
	}
	return c.Load(ctx, key, load)
}

// GetSince is Get, except that a value (or kept error) cached before since
// is loaded again: for a caller that knows something may have changed at
// since, and must not answer from before it.
func (c *TTL[V]) GetSince(ctx context.Context, key string, since time.Time, load func(ctx context.Context) (V, error)) (V, error) {
	if e, ok := c.lookup(key); ok && !e.at.Before(since) {
		return e.v, e.err
	}
	return c.Load(ctx, key, load)
}

// PeekWithin returns the value cached for key when it is less than maxAge
// old, whatever the TTL: for a caller content with an older value (one
// that polls, such as a calendar rebuilt every quarter of an hour), which
// reads the cache's value rather than keep a copy of its own. A kept
// error is not a value.
func (c *TTL[V]) PeekWithin(key string, maxAge time.Duration) (V, bool) {
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && e.err == nil && c.now().Sub(e.at) < maxAge {
		return e.v, true
	}
	var zero V
	return zero, false
}

// Peek returns the fresh value cached for key, if there is one; a kept
// error is not a value.
func (c *TTL[V]) Peek(key string) (V, bool) {
	if e, ok := c.lookup(key); ok && e.err == nil {
		return e.v, true
	}
	var zero V
	return zero, false
}

// lookup returns the fresh entry for key: a value or a kept error.
func (c *TTL[V]) lookup(key string) (entry[V], bool) {
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && e.fresh(c.now(), c.ttl) {
		return e, true
	}
	return entry[V]{}, false
}

// Load loads key afresh (collapsed with any load of key under way) and
// caches the result; see Get.
func (c *TTL[V]) Load(ctx context.Context, key string, load func(ctx context.Context) (V, error)) (V, error) {
	var zero V
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			if e, ok := c.lookup(key); ok {
				return e.v, e.err // another caller's retry loaded it meanwhile
			}
		}
		ch := c.flight.DoChan(key, c.loader(ctx, key, load))
		select {
		case r := <-ch:
			if r.Err == nil {
				return r.Val.(V), nil
			}
			if attempt == 0 && r.Shared && ctx.Err() == nil && errors.Is(r.Err, context.DeadlineExceeded) {
				continue
			}
			if v, ok := r.Val.(V); ok {
				zero = v
			}
			return zero, r.Err
		case <-ctx.Done():
			return zero, ctx.Err()
		}
	}
}

// loader is the singleflight function that loads key: on a context
// detached from ctx, ending at ctx's deadline (DefaultLoadTimeout without
// one), caching what it loads.
func (c *TTL[V]) loader(ctx context.Context, key string, load func(ctx context.Context) (V, error)) func() (any, error) {
	return func() (any, error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), DefaultLoadTimeout)
		defer cancel()
		if dl, ok := ctx.Deadline(); ok {
			lctx, cancel = context.WithDeadline(lctx, dl)
			defer cancel()
		}
		v, err := load(lctx)
		var keep time.Duration
		if c.keep != nil {
			keep = c.keep(v, err)
		}
		switch {
		case err != nil && keep > 0:
			c.put(key, entry[V]{v: v, err: err, ttl: keep})
		case err == nil:
			c.put(key, entry[V]{v: v, ttl: keep})
		}
		return v, err
	}
}

// Put caches v for key from now on.
func (c *TTL[V]) Put(key string, v V) { c.put(key, entry[V]{v: v}) }

func (c *TTL[V]) put(key string, e entry[V]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= maxEntries {
		c.entries = map[string]entry[V]{}
	}
	e.at = c.now()
	c.entries[key] = e
}

// Update replaces the value cached for key with f's result, keeping its
// age, when there is one; f must not modify its argument.
func (c *TTL[V]) Update(key string, f func(V) V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok && e.err == nil {
		e.v = f(e.v)
		c.entries[key] = e
	}
}

// Forget drops key, so the next Get loads it.
func (c *TTL[V]) Forget(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, key)
}
