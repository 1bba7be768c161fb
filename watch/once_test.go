package watch_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/watch"
)

// news sets up, after a baseline poll by w, one announcement (M-2's draft
// approved, for Finance followers) and two DMs (Carol and Bob).
func (e *env) news(w *watcher) {
	e.t.Helper()
	e.follow(w, finChannel, "Finance")
	e.follow(w, allChannel, "Finance")
	e.mustPoll(w)
	e.records.SetMinutes(recordstest.Minutes{MeetingID: "M-2", Status: "approved", Body: "Approved."})
	e.records.AddAction(recordstest.Action{ID: "A-40", Title: "Carol's", Status: "open", AssigneeEmail: carol.Email, MeetingID: "M-2"})
	e.records.AddAction(recordstest.Action{ID: "A-41", Title: "Bob's", Status: "open", AssigneeEmail: bob.Email, MeetingID: "M-2"})
}

// assertEachOnce checks that the news went out exactly once.
func (e *env) assertEachOnce() {
	e.t.Helper()
	for _, ch := range []string{finChannel, allChannel} {
		assert.Equal(e.t, 1, len(e.posts(ch)), "announcements in %s", ch)
	}
	assert.Equal(e.t, 1, len(e.dms(carol.ID)), "DMs to Carol")
	assert.Equal(e.t, 1, len(e.dms(bob.ID)), "DMs to Bob")
	assert.Equal(e.t, 0, len(e.dms(alice.ID)), "DMs to Alice")
}

// TestTwoWatchersAtOnce runs two watchers (their own Stores on one
// database, as two pods would) against each other for several rounds.
func TestTwoWatchersAtOnce(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		a, b := env.watcher("pod-a"), env.watcher("pod-b")
		env.news(a)
		busy := 0
		for range 5 {
			var wg sync.WaitGroup
			var sums [2]watch.Summary
			var errs [2]error
			for i, w := range []*watcher{a, b} {
				wg.Go(func() { sums[i], errs[i] = w.poll(t) })
			}
			wg.Wait()
			require.NoError(t, errors.Join(errs[:]...))
			for _, s := range sums {
				if s.Busy {
					busy++
				}
			}
			env.clock.Advance(time.Minute)
		}
		env.assertEachOnce()
		t.Logf("%d of 10 polls found the other holding the lock", busy)
	})
}

// blockingSlack holds the first chat.postMessage until released, so a
// second watcher can run while the first is mid-poll.
type blockingSlack struct {
	watch.Slack
	once    sync.Once
	entered chan struct{}
	release chan struct{}
}

func (s *blockingSlack) PostMessageContext(ctx context.Context, channel string, opts ...slack.MsgOption) (string, string, error) {
	s.once.Do(func() {
		close(s.entered)
		<-s.release
	})
	return s.Slack.PostMessageContext(ctx, channel, opts...)
}

// TestSecondWatcherWhileFirstIsStuck: the first watcher stalls in Slack
// past its lock's ttl, so a second takes the lock and polls. The ledger
// keeps the second off the work the first holds; when the first resumes,
// nothing goes out twice, and the next poll leaves nothing missing.
func TestSecondWatcherWhileFirstIsStuck(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		// a is frozen, heartbeat and all, as a stopped process is.
		short := func(c *watchConfig) { c.LockTTL = time.Minute; c.Lease = 5 * time.Minute; c.Heartbeat = -1 }
		a, b := env.watcher("pod-a", short), env.watcher("pod-b", short)
		env.news(a)

		stuck := &blockingSlack{Slack: a.deps.Slack, entered: make(chan struct{}), release: make(chan struct{})}
		a.deps.Slack = stuck
		done := make(chan error, 1)
		go func() { _, err := a.poll(t); done <- err }()
		<-stuck.entered

		env.clock.Advance(2 * time.Minute) // a's lock lapses; its lease does not
		sum, err := b.poll(t)
		require.NoError(t, err)
		require.False(t, sum.Busy, "the lock lapsed, so b polls")

		close(stuck.release)
		require.NoError(t, <-done)
		env.clock.Advance(time.Minute)
		env.mustPoll(b)
		env.assertEachOnce()
	})
}

// crashingSlack posts, then reports the run as killed before the watcher
// can record the post: what a pod killed between posting and Done leaves.
type crashingSlack struct {
	watch.Slack
	mu      sync.Mutex
	crashes int // posts still to "crash" after
}

func (s *crashingSlack) PostMessageContext(ctx context.Context, channel string, opts ...slack.MsgOption) (string, string, error) {
	ch, ts, err := s.Slack.PostMessageContext(ctx, channel, opts...)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil && s.crashes > 0 {
		s.crashes--
		return "", "", context.Canceled
	}
	return ch, ts, err
}

// TestCrashBetweenPostAndRecord: every post of a poll lands in Slack but
// none is recorded. Until the leases lapse the work is held; after, the
// next watcher finds each post in the channel's or DM's history by its
// metadata and records it without posting again.
func TestCrashBetweenPostAndRecord(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		a, b := env.watcher("pod-a"), env.watcher("pod-b")
		env.news(a)
		a.deps.Slack = &crashingSlack{Slack: a.deps.Slack, crashes: 100}
		_, err := a.poll(t)
		require.Error(t, err)
		env.assertEachOnce()

		// Within the lease the work is someone else's: b waits.
		env.clock.Advance(time.Minute)
		sum, err := b.poll(t)
		require.NoError(t, err)
		assert.Zero(t, sum.Recovered)
		env.assertEachOnce()

		env.clock.Advance(5 * time.Minute) // past the 2-minute lease
		sum = env.mustPoll(b)
		assert.Equal(t, 4, sum.Recovered, "two announcements and two DMs found in history")
		assert.Zero(t, sum.Announced+sum.Approved+sum.DMs)
		env.assertEachOnce()
		for _, ch := range []string{finChannel, allChannel} {
			ann, ok, err := b.deps.Store.Announcement(t.Context(), ch, "M-2")
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, env.posts(ch)[0].TS, ann.TS, "the post found is recorded, for a later approval's update")
		}
		env.mustPoll(b)
		env.assertEachOnce()
	})
}

// TestSlackFailingMidway: Slack refuses the second post of a poll, then
// fails another with a 500 (which may or may not have posted). Everything
// else goes out; the refused post goes out on the next poll, the 500 one
// once its lease lapses and the history shows it missing. Nothing twice,
// nothing lost.
func TestSlackFailingMidway(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")
		env.news(w)
		env.slack.InjectFault(slacktest.Fault{Method: "chat.postMessage", Error: "fatal_error", Times: 1})
		env.slack.InjectFault(slacktest.Fault{Method: "chat.postMessage", HTTPStatus: 500, Times: 1})
		sum, err := w.poll(t)
		require.ErrorIs(t, err, watch.ErrPartial)
		assert.Equal(t, 2, sum.Failed)
		env.clock.Advance(time.Minute)

		sum = env.mustPoll(w)
		assert.Equal(t, 1, sum.Announced+sum.DMs, "the refused post goes out at once")
		env.clock.Advance(5 * time.Minute)
		env.mustPoll(w)
		env.assertEachOnce()
	})
}

// TestApprovalReplyRefused: the in-place update succeeds but Slack refuses
// the thread reply; the next poll updates again (to the same content) and
// replies once.
func TestApprovalReplyRefused(t *testing.T) {
	t.Parallel()
	env := newEnv(t, engines[0])
	w := env.watcher("w1")
	env.follow(w, finChannel, "Finance")
	env.mustPoll(w)
	env.records.AddMeeting(recordstest.Meeting{ID: "M-5", Title: "Finance Committee, Extra", Committee: "Finance", Date: env.today})
	env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-5", Status: "published_draft", Body: "Draft."})
	env.mustPoll(w)
	require.Len(t, env.posts(finChannel), 1)
	ts := env.posts(finChannel)[0].TS

	env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-5", Status: "approved", Body: "Final."})
	env.slack.InjectFault(slacktest.Fault{Method: "chat.postMessage", Error: "ratelimited", Times: 1})
	_, err := w.poll(t)
	require.ErrorIs(t, err, watch.ErrPartial)
	env.clock.Advance(time.Minute)
	sum := env.mustPoll(w)
	assert.Equal(t, 1, sum.Approved)
	assert.Len(t, env.posts(finChannel), 1)
	assert.Len(t, env.replies(finChannel, ts), 1)
	assert.Contains(t, env.posts(finChannel)[0].text, "Final.")
}

// TestCrashAroundTheApprovalReply: a watcher killed right after the
// approval's thread reply landed (before recording it), and one killed
// between the update and the reply. Either way the next watcher, once the
// lease has lapsed, leaves exactly one reply in the thread: it finds the
// first among the thread's replies by its metadata (conversations.replies),
// and posts the second, which was never sent.
func TestCrashAroundTheApprovalReply(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		for _, tt := range []struct {
			name      string
			crashes   int // posts that "crash" after landing
			failReply bool
		}{
			{name: "killed after the reply landed", crashes: 1},
			{name: "killed before the reply", failReply: true},
		} {
			t.Run(tt.name, func(t *testing.T) {
				env := newEnv(t, e)
				a, b := env.watcher("pod-a"), env.watcher("pod-b")
				env.follow(a, finChannel, "Finance")
				env.mustPoll(a)
				env.records.AddMeeting(recordstest.Meeting{ID: "M-7", Title: "Finance Committee, Special", Committee: "Finance", Date: env.today})
				env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-7", Status: "published_draft", Body: "Draft."})
				env.mustPoll(a)
				require.Len(t, env.posts(finChannel), 1)
				ts := env.posts(finChannel)[0].TS

				env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-7", Status: "approved", Body: "Final."})
				orig := a.deps.Slack
				a.deps.Slack = &crashingSlack{Slack: orig, crashes: tt.crashes}
				if tt.failReply {
					// The reply's post "hangs" past the run: it may or may
					// not have landed; here it did not.
					env.slack.InjectFault(slacktest.Fault{Method: "chat.postMessage", HTTPStatus: 500, Times: 1})
				}
				_, err := a.poll(t)
				require.Error(t, err)
				a.deps.Slack = orig

				env.clock.Advance(5 * time.Minute) // past the lease
				env.mustPoll(b)
				env.mustPoll(b)
				assert.Len(t, env.replies(finChannel, ts), 1, "one reply in the thread, never two, never none")
				assert.Contains(t, env.posts(finChannel)[0].text, "Final.")
			})
		}
	})
}
