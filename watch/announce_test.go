package watch_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/store"
)

// TestAnnounceLifecycle follows Finance in a channel and walks a meeting's
// minutes from hidden to published draft to approved: nothing from before
// the follow, nothing while hidden, one post for the draft, the same post
// updated in place with a thread reply on approval, and nothing after.
func TestAnnounceLifecycle(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")
		env.follow(w, finChannel, "Finance")

		// The baseline: M-1 (approved) and M-2 (draft) were visible before
		// the follow, so nothing is announced.
		sum := env.mustPoll(w)
		assert.Equal(t, 1, sum.Baselined)
		assert.Empty(t, env.posts(finChannel), "following starts now: nothing from the past")
		follows, err := w.deps.Store.FollowsInChannel(t.Context(), finChannel)
		require.NoError(t, err)
		require.Len(t, follows, 1)
		assert.True(t, follows[0].Baselined)

		// A new meeting whose minutes are still in review: not visible,
		// never announced.
		env.records.AddMeeting(recordstest.Meeting{ID: "M-4", Title: "Finance Committee, December", Committee: "Finance", Date: env.today.AddDate(0, 0, -1)})
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-4", Status: "in_review", Body: "Secret deliberations."})
		env.mustPoll(w)
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-4", Status: "draft", Body: "Secret deliberations."})
		env.mustPoll(w)
		assert.Empty(t, env.posts(finChannel), "minutes in review or draft are never announced")

		// Published as a draft: one post, clearly a draft, with the link and
		// the buttons.
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-4", Status: "published_draft", Body: "Present: all.\n\nThe budget was agreed."})
		sum = env.mustPoll(w)
		assert.Equal(t, 1, sum.Announced)
		posts := env.posts(finChannel)
		require.Len(t, posts, 1)
		p := posts[0]
		assert.Contains(t, p.text, "Finance Committee, December")
		assert.Contains(t, p.text, "Draft")
		assert.Contains(t, p.text, "The budget was agreed.")
		assert.Contains(t, p.text, "https://bot.example.org/minutes/M-4")
		assert.NotContains(t, p.text, "Secret")
		assert.Contains(t, string(p.Blocks), `"action_id":"meeting:agenda"`)
		assert.Contains(t, string(p.Blocks), `"action_id":"meeting:actions"`)
		assert.Equal(t, "announce/"+finChannel+"/M-4/published_draft", metadataKey(t, p.Message))

		// Polling again says nothing new.
		env.mustPoll(w)
		assert.Len(t, env.posts(finChannel), 1)

		// Approved: the same post now says approved, and a thread reply
		// says so; no second post.
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-4", Status: "approved", Body: "Present: all.\n\nThe budget was agreed."})
		sum = env.mustPoll(w)
		assert.Equal(t, 1, sum.Approved)
		posts = env.posts(finChannel)
		require.Len(t, posts, 1, "the approval updates the post in place")
		assert.True(t, posts[0].Edited)
		assert.Equal(t, p.TS, posts[0].TS)
		assert.NotContains(t, posts[0].text, "Draft")
		assert.Contains(t, posts[0].text, "Approved")
		replies := env.replies(finChannel, p.TS)
		require.Len(t, replies, 1)
		assert.Contains(t, replies[0].Text, "approved")

		env.mustPoll(w)
		assert.Len(t, env.posts(finChannel), 1)
		assert.Len(t, env.replies(finChannel, p.TS), 1)
		a, ok, err := w.deps.Store.Announcement(t.Context(), finChannel, "M-4")
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, store.Announcement{ChannelID: finChannel, MeetingID: "M-4", Status: "approved", TS: p.TS, ThreadPosted: true}, withoutTime(a))
	})
}

// withoutTime drops the store's timestamp, which the test does not pin.
func withoutTime(a store.Announcement) store.Announcement {
	return store.Announcement{ChannelID: a.ChannelID, MeetingID: a.MeetingID, Status: a.Status, TS: a.TS, ThreadPosted: a.ThreadPosted}
}

// TestAnnounceOnlyFollowingChannelsAndCommittees: Events news does not go
// to the Finance channel; two channels following Finance each get one post;
// a baselined draft later approved is announced, as it was never posted.
func TestAnnounceOnlyFollowingChannelsAndCommittees(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")
		env.follow(w, finChannel, "Finance")
		env.follow(w, allChannel, "finance") // the key is case-insensitive
		env.mustPoll(w)

		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-3", Status: "approved", Body: "Events."})
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-2", Status: "approved", Body: "Approved now."})
		sum := env.mustPoll(w)
		assert.Equal(t, 2, sum.Announced)
		for _, ch := range []string{finChannel, allChannel} {
			posts := env.posts(ch)
			require.Len(t, posts, 1, ch)
			assert.Contains(t, posts[0].text, "Finance Committee, November")
			assert.NotContains(t, posts[0].text, "Events")
		}
	})
}

// TestAnnounceCostIsBounded: once the horizon is set, a poll reads the
// newest meetings down to the oldest one still pending, and the minutes
// of followed meetings that are not yet approved everywhere, not the whole
// history.
func TestAnnounceCostIsBounded(t *testing.T) {
	t.Parallel()
	env := newEnv(t, engines[0])
	w := env.watcher("w1")
	for i := range 30 {
		env.records.AddMeeting(recordstest.Meeting{ID: "OLD-" + itoa(i), Title: "Old", Committee: "Finance", Date: env.today.AddDate(0, 0, -50-i)})
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "OLD-" + itoa(i), Status: "approved", Body: "Old."})
	}
	env.follow(w, finChannel, "Finance")
	first := env.mustPoll(w)
	// The baseline reads back the whole lookback (60 days).
	assert.Greater(t, first.Meetings, 10)

	env.records.ResetRequests()
	sum := env.mustPoll(w)
	// M-2's draft (10 days ago) is the oldest pending, within the 14 days
	// of backfill: the poll stops at the first meeting older than those.
	assert.LessOrEqual(t, sum.Meetings, 4, "meetings read")
	assert.Equal(t, 1, sum.Minutes, "only M-2, the draft, is read again")
	assert.Equal(t, 1, env.records.Count("GET", "/meetings/M-2/minutes"))
	assert.Equal(t, 0, env.records.Count("GET", "/meetings/M-1/minutes"), "approved and announced: not read again")
	assert.Equal(t, env.clock.Now().Add(-time.Minute).AddDate(0, 0, -14), sum.Horizon)
}

func itoa(n int) string { return strconv.Itoa(n) }
