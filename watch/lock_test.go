package watch_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/watch"
)

// TestDeadPollerReplacedWithinAMinute: a live poll stuck in Slack for
// minutes keeps its lock by its heartbeat, so no second poll starts; a
// poller killed mid-poll renews nothing, and the next poll runs once its
// one-minute ttl has passed (it was 10 minutes before the heartbeat).
func TestDeadPollerReplacedWithinAMinute(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		// The heartbeat ticks in real time, fast, while the test moves
		// the stores' clock; each step below waits for a renewal.
		fast := func(c *watchConfig) { c.Heartbeat = 5 * time.Millisecond }
		a, b := env.watcher("pod-a", fast), env.watcher("pod-b", fast)
		env.news(a)

		stuck := &blockingSlack{Slack: a.deps.Slack, entered: make(chan struct{}), release: make(chan struct{})}
		a.deps.Slack = stuck
		done := make(chan error, 1)
		go func() { _, err := a.poll(t); done <- err }()
		<-stuck.entered
		for range 5 { // two and a half minutes, past the ttl twice over
			env.clock.Advance(30 * time.Second)
			require.Eventually(t, func() bool {
				owner, until, err := b.deps.Store.LockHolder(t.Context(), "watch")
				return err == nil && owner == "pod-a" && !until.Before(env.clock.Now().Add(59*time.Second))
			}, 10*time.Second, time.Millisecond, "the stuck poll renews its lock")
			sum, err := b.poll(t)
			require.NoError(t, err)
			assert.True(t, sum.Busy, "a live poll keeps the lock")
		}
		close(stuck.release)
		require.NoError(t, <-done)
		env.assertEachOnce()

		// A poller killed mid-poll leaves the lock as it last renewed it.
		got, err := a.deps.Store.TryLock(t.Context(), "watch", "killed-pod", time.Minute)
		require.NoError(t, err)
		require.True(t, got)
		env.clock.Advance(30 * time.Second)
		sum, err := b.poll(t)
		require.NoError(t, err)
		assert.True(t, sum.Busy, "within the ttl the dead poller's lock holds")
		env.clock.Advance(31 * time.Second)
		sum, err = b.poll(t)
		require.NoError(t, err)
		assert.False(t, sum.Busy, "61 s after its last renewal the dead poller is replaced")
	})
}

// ctxBlockingSlack holds the first post until its context ends.
type ctxBlockingSlack struct {
	watch.Slack
	once    sync.Once
	entered chan struct{}
}

func (s *ctxBlockingSlack) PostMessageContext(ctx context.Context, channel string, opts ...slack.MsgOption) (string, string, error) {
	blocked := false
	s.once.Do(func() { close(s.entered); blocked = true })
	if blocked {
		<-ctx.Done()
		return "", "", context.Cause(ctx)
	}
	return s.Slack.PostMessageContext(ctx, channel, opts...)
}

// TestPollStopsWhenItsLockIsTakenOver: a poll whose lock another poller
// has taken (its process stalled past the ttl) stops at its next
// heartbeat rather than racing the new poller; the next poll sends what
// it left, once.
func TestPollStopsWhenItsLockIsTakenOver(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		beat := func(c *watchConfig) { c.Heartbeat = 100 * time.Millisecond }
		a, b := env.watcher("pod-a", beat), env.watcher("pod-b", beat)
		env.news(a)
		stuck := &ctxBlockingSlack{Slack: a.deps.Slack, entered: make(chan struct{})}
		a.deps.Slack = stuck
		done := make(chan error, 1)
		go func() { _, err := a.poll(t); done <- err }()
		<-stuck.entered

		// As if a stalled past its ttl: its lock lapses and b takes it
		// before a's next beat (tried again if a beat came between).
		require.Eventually(t, func() bool {
			env.clock.Advance(2 * time.Minute)
			got, err := b.deps.Store.TryLock(t.Context(), "watch", "pod-b", time.Hour)
			return err == nil && got
		}, 10*time.Second, time.Millisecond)
		select {
		case err := <-done:
			assert.Error(t, err, "a's poll stopped")
		case <-time.After(10 * time.Second):
			t.Fatal("a's poll went on without its lock")
		}
		_, err := b.deps.Store.Unlock(t.Context(), "watch", "pod-b")
		require.NoError(t, err)
		env.clock.Advance(5 * time.Minute) // a's claims lapse
		env.mustPoll(b)
		env.assertEachOnce()
	})
}
