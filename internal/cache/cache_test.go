package cache

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestConcurrentMissesLoadOnce(t *testing.T) {
	t.Parallel()
	c := New[int](time.Minute, nil)
	var loads atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := c.Get(t.Context(), "k", func(context.Context) (int, error) {
				loads.Add(1)
				<-release
				return 42, nil
			})
			assert.NoError(t, err)
			assert.Equal(t, 42, v)
		}()
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	assert.Equal(t, int32(1), loads.Load())
}

func TestValuesLiveForTheTTLAndErrorsAreNotCached(t *testing.T) {
	t.Parallel()
	clk := &clock{t: time.Unix(1e9, 0)}
	c := New[string](time.Minute, clk.now)
	n := 0
	load := func(context.Context) (string, error) {
		n++
		if n == 1 {
			return "", errors.New("down")
		}
		return "v", nil
	}
	_, err := c.Get(t.Context(), "k", load)
	require.Error(t, err)
	v, err := c.Get(t.Context(), "k", load)
	require.NoError(t, err)
	assert.Equal(t, "v", v)
	clk.add(59 * time.Second)
	_, _ = c.Get(t.Context(), "k", load)
	assert.Equal(t, 2, n, "fresh: not loaded again")
	clk.add(2 * time.Second)
	_, _ = c.Get(t.Context(), "k", load)
	assert.Equal(t, 3, n, "stale: loaded again")

	c.Update("k", func(s string) string { return s + "!" })
	v, _ = c.Get(t.Context(), "k", load)
	assert.Equal(t, "v!", v)
	c.Forget("k")
	_, _ = c.Get(t.Context(), "k", load)
	assert.Equal(t, 4, n)
}

// A caller who joined a load that ran out of its first caller's time gets
// a load of its own while it has time left.
func TestJoinerWithTimeLeftLoadsAgain(t *testing.T) {
	t.Parallel()
	c := New[int](time.Minute, nil)
	var loads atomic.Int32
	short, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	slowFirst := func(ctx context.Context) (int, error) {
		if loads.Add(1) == 1 {
			<-ctx.Done()
			return 0, ctx.Err()
		}
		return 7, nil
	}
	done := make(chan error, 1)
	go func() { _, err := c.Get(short, "k", slowFirst); done <- err }()
	for loads.Load() == 0 {
		time.Sleep(time.Millisecond) // the first caller's load is under way
	}
	v, err := c.Get(t.Context(), "k", slowFirst)
	require.NoError(t, err)
	assert.Equal(t, 7, v)
	<-done // the first caller ran out of time (or, at the very edge of it, joined the second load)
	assert.Equal(t, int32(2), loads.Load(), "one load timed out, one more served the caller with time left")
}

// A value past its TTL but within the grace is served at once while one
// background load refreshes it; past the grace, callers wait.
func TestGetStaleServesTheOldValueWhileRefreshing(t *testing.T) {
	t.Parallel()
	clk := &clock{t: time.Unix(1e9, 0)}
	c := New[int](time.Minute, clk.now).ServeStale(time.Minute)
	var loads atomic.Int32
	release := make(chan struct{})
	load := func(context.Context) (int, error) {
		n := loads.Add(1)
		if n > 1 {
			<-release
		}
		return int(n), nil
	}
	v, err := c.GetStale(t.Context(), "k", load)
	require.NoError(t, err)
	assert.Equal(t, 1, v)

	clk.add(90 * time.Second) // stale, within the grace
	for range 5 {
		v, err = c.GetStale(t.Context(), "k", load)
		require.NoError(t, err)
		assert.Equal(t, 1, v, "the old value, at once")
	}
	close(release)
	c.Wait()
	assert.Equal(t, int32(2), loads.Load(), "one refresh for five callers")
	v, _ = c.GetStale(t.Context(), "k", load)
	assert.Equal(t, 2, v, "the refreshed value")

	clk.add(3 * time.Minute) // past the grace: wait for the load
	v, _ = c.GetStale(t.Context(), "k", load)
	assert.Equal(t, 3, v)
}

// KeepFor keeps an answer such as "not found" for its own time, so a
// burst of lookups of something that does not exist is one load; other
// errors are still not kept, and values may get a lifetime of their own.
func TestKeepForKeepsChosenErrorsAndLifetimes(t *testing.T) {
	t.Parallel()
	clk := &clock{t: time.Unix(1e9, 0)}
	errGone := errors.New("gone")
	c := New[string](time.Minute, clk.now).KeepFor(func(v string, err error) time.Duration {
		switch {
		case errors.Is(err, errGone):
			return 5 * time.Minute
		case err == nil && v == "hidden":
			return 5 * time.Minute
		}
		return 0
	})
	var loads atomic.Int32
	answer := func(v string, err error) func(context.Context) (string, error) {
		return func(context.Context) (string, error) { loads.Add(1); return v, err }
	}

	for range 200 {
		_, err := c.Get(t.Context(), "missing", answer("", errGone))
		require.ErrorIs(t, err, errGone)
	}
	assert.Equal(t, int32(1), loads.Load(), "200 lookups of a missing key: one load")
	_, ok := c.Peek("missing")
	assert.False(t, ok, "a kept error is no value")
	clk.add(4 * time.Minute)
	_, err := c.Get(t.Context(), "missing", answer("found", nil))
	require.ErrorIs(t, err, errGone, "still kept after 4 minutes")
	clk.add(2 * time.Minute)
	v, err := c.Get(t.Context(), "missing", answer("found", nil))
	require.NoError(t, err, "expired after 5 minutes")
	assert.Equal(t, "found", v)

	loads.Store(0)
	for range 3 {
		_, err = c.Get(t.Context(), "down", answer("", errors.New("down")))
		require.Error(t, err)
	}
	assert.Equal(t, int32(3), loads.Load(), "other errors are not kept")

	_, _ = c.Get(t.Context(), "h", answer("hidden", nil))
	clk.add(2 * time.Minute)
	v, _ = c.Get(t.Context(), "h", answer("shown", nil))
	assert.Equal(t, "hidden", v, "a value with its own lifetime outlives the TTL")
	_, _ = c.Get(t.Context(), "plain", answer("a", nil))
	clk.add(2 * time.Minute)
	v, _ = c.Get(t.Context(), "plain", answer("b", nil))
	assert.Equal(t, "b", v, "other values live for the TTL")
}

// GetSince answers from the cache only what was loaded at or after since.
func TestGetSinceLoadsWhatIsOlder(t *testing.T) {
	t.Parallel()
	clk := &clock{t: time.Unix(1e9, 0)}
	c := New[int](time.Minute, clk.now)
	n := 0
	load := func(context.Context) (int, error) { n++; return n, nil }
	loadedAt := clk.now()
	v, err := c.GetSince(t.Context(), "k", time.Time{}, load)
	require.NoError(t, err)
	assert.Equal(t, 1, v)
	clk.add(10 * time.Second)
	v, _ = c.GetSince(t.Context(), "k", loadedAt, load)
	assert.Equal(t, 1, v, "loaded at since: from the cache")
	v, _ = c.GetSince(t.Context(), "k", loadedAt.Add(time.Second), load)
	assert.Equal(t, 2, v, "loaded before since: loaded again")
	v, _ = c.Get(t.Context(), "k", load)
	assert.Equal(t, 2, v, "and kept")
}
