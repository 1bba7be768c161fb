package bot

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// ttlCache is a small keyed cache with a TTL whose misses are collapsed, so
// that a link shared in a busy channel or a Home tab opened by many people
// at once costs one records call per key per TTL. Errors are not cached.
type ttlCache[V any] struct {
	ttl    time.Duration
	now    func() time.Time
	flight singleflight.Group

	mu      sync.Mutex
	entries map[string]ttlEntry[V]
}

type ttlEntry[V any] struct {
	v  V
	at time.Time
}

func newTTLCache[V any](ttl time.Duration, now func() time.Time) *ttlCache[V] {
	return &ttlCache[V]{ttl: ttl, now: now, entries: map[string]ttlEntry[V]{}}
}

// get returns the cached value for key or loads it.
func (c *ttlCache[V]) get(ctx context.Context, key string, load func(ctx context.Context) (V, error)) (V, error) {
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && c.now().Sub(e.at) < c.ttl {
		return e.v, nil
	}
	ch := c.flight.DoChan(key, func() (any, error) {
		// The shared load outlives any one caller who gives up.
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		v, err := load(lctx)
		if err != nil {
			return v, err
		}
		c.mu.Lock()
		if len(c.entries) > 1000 {
			// Bounded: drop everything rather than track recency; a
			// refill costs one call per key.
			c.entries = map[string]ttlEntry[V]{}
		}
		c.entries[key] = ttlEntry[V]{v: v, at: c.now()}
		c.mu.Unlock()
		return v, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			var zero V
			if v, ok := r.Val.(V); ok {
				zero = v
			}
			return zero, r.Err
		}
		return r.Val.(V), nil
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}
