package watch_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
)

// TestPollSkipsWhileAnotherHoldsTheLock: a poll that finds the lock held
// does nothing and says so, without an error.
func TestPollSkipsWhileAnotherHoldsTheLock(t *testing.T) {
	t.Parallel()
	env := newEnv(t, engines[0])
	w := env.watcher("w1")
	env.follow(w, finChannel, "Finance")
	got, err := w.deps.Store.TryLock(t.Context(), "watch", "someone-else", time.Hour)
	require.NoError(t, err)
	require.True(t, got)

	env.records.ResetRequests()
	sum, err := w.poll(t)
	require.NoError(t, err)
	assert.True(t, sum.Busy)
	assert.Equal(t, "watch: another poll is running; nothing done", sum.String())
	assert.Zero(t, len(env.records.Requests()), "a skipped poll reads nothing")
}

// TestRecordsDownForMeetings: with the meetings endpoint failing, the
// follow is not baselined (a half-read baseline would replay the past
// later), the DMs still go out, and the poll reports the error.
func TestRecordsDownForMeetings(t *testing.T) {
	t.Parallel()
	env := newEnv(t, engines[0])
	w := env.watcher("w1")
	env.mustPoll(w) // the actions baseline, with no follows
	env.follow(w, finChannel, "Finance")
	env.records.AddAction(recordstest.Action{ID: "A-50", Title: "New", Status: "open", AssigneeEmail: carol.Email, MeetingID: "M-2"})
	env.records.InjectFault(recordstest.Fault{Method: "GET", PathPrefix: "/meetings", Status: 503})
	_, err := w.poll(t)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "announcements")
	assert.Len(t, env.dms(carol.ID), 1, "assignment DMs do not wait for the meetings")
	follows, err := w.deps.Store.FollowsInChannel(t.Context(), finChannel)
	require.NoError(t, err)
	assert.False(t, follows[0].Baselined)

	env.records.ClearFaults()
	env.clock.Advance(time.Minute)
	sum := env.mustPoll(w)
	assert.Equal(t, 1, sum.Baselined)
	assert.Empty(t, env.posts(finChannel), "the baseline, taken late, still announces nothing from the past")
}

// TestScheduledMeetingDoesNotHideToday: a meeting scheduled next month is
// the newest in the list; minutes published later for an older meeting are
// still found.
func TestScheduledMeetingDoesNotHideToday(t *testing.T) {
	t.Parallel()
	env := newEnv(t, engines[0])
	w := env.watcher("w1")
	env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-2", Status: "approved", Body: "Done."})
	env.records.AddMeeting(recordstest.Meeting{ID: "M-FUT", Title: "Finance Committee, next month", Committee: "Finance", Date: env.today.AddDate(0, 1, 0)})
	env.follow(w, finChannel, "Finance")
	env.mustPoll(w)
	env.mustPoll(w)

	env.records.AddMeeting(recordstest.Meeting{ID: "M-NOW", Title: "Finance Committee, today", Committee: "Finance", Date: env.today})
	env.mustPoll(w)
	env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-NOW", Status: "approved", Body: "Today's."})
	env.mustPoll(w)
	posts := env.posts(finChannel)
	require.Len(t, posts, 1)
	assert.Contains(t, posts[0].text, "Finance Committee, today")
}

// TestApprovalReachesAChannelThatUnfollowed: a channel that had the draft
// and unfollowed since still sees its post updated on approval.
func TestApprovalReachesAChannelThatUnfollowed(t *testing.T) {
	t.Parallel()
	env := newEnv(t, engines[0])
	w := env.watcher("w1")
	env.follow(w, finChannel, "Finance")
	env.follow(w, allChannel, "Finance")
	env.mustPoll(w)
	env.records.AddMeeting(recordstest.Meeting{ID: "M-6", Title: "Finance Committee, special", Committee: "Finance", Date: env.today})
	env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-6", Status: "published_draft", Body: "<p>Draft <b>text</b></p><p>Second &amp; last.</p>", HTML: true})
	env.mustPoll(w)
	require.Len(t, env.posts(allChannel), 1)
	assert.Contains(t, env.posts(allChannel)[0].text, "Draft *text*\n\nSecond &amp; last.", "an HTML body is shown as Slack text")
	_, err := w.deps.Store.Unfollow(t.Context(), allChannel, "finance")
	require.NoError(t, err)

	env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-6", Status: "approved", Body: "Final."})
	sum := env.mustPoll(w)
	assert.Equal(t, 2, sum.Approved)
	for _, ch := range []string{finChannel, allChannel} {
		posts := env.posts(ch)
		require.Len(t, posts, 1, ch)
		assert.True(t, posts[0].Edited, ch)
		assert.Contains(t, posts[0].text, "Approved", ch)
	}
}

// TestPendingMeetingHoldsTheHorizon: a meeting 30 days old whose minutes
// are still in review stays watched (beyond the 14 days of backfill) until
// they are published; a meeting entered late, within the backfill, is
// found too.
func TestPendingMeetingHoldsTheHorizon(t *testing.T) {
	t.Parallel()
	env := newEnv(t, engines[0])
	w := env.watcher("w1")
	env.records.AddMeeting(recordstest.Meeting{ID: "M-OLD", Title: "Finance Committee, long ago", Committee: "Finance", Date: env.today.AddDate(0, 0, -30)})
	env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-OLD", Status: "in_review", Body: "Slow."})
	env.follow(w, finChannel, "Finance")
	env.mustPoll(w)
	sum := env.mustPoll(w)
	assert.Equal(t, env.today.AddDate(0, 0, -30), sum.Horizon)

	env.records.AddMeeting(recordstest.Meeting{ID: "M-LATE", Title: "Finance Committee, entered late", Committee: "Finance", Date: env.today.AddDate(0, 0, -12)})
	env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-LATE", Status: "approved", Body: "Late."})
	env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-OLD", Status: "approved", Body: "At last."})
	sum = env.mustPoll(w)
	assert.Equal(t, 2, sum.Announced)
	require.Len(t, env.posts(finChannel), 2)
}
