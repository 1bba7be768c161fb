package watch_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/watch"
)

// followNow follows committee in channel as /minutes follow does: the
// follow, then its baseline at once.
func (e *env) followNow(w *watcher, channel, committee string) {
	e.t.Helper()
	f := store.Follow{ChannelID: channel, Committee: committee, CommitteeKey: strings.ToLower(committee), By: alice.ID}
	_, err := w.deps.Store.Follow(e.t.Context(), f)
	require.NoError(e.t, err)
	require.NoError(e.t, watch.Baseline(e.t.Context(), w.cfg, w.deps, f))
}

// TestFollowBaselineAtFollowTime: what is visible when the follow is made
// is old news; minutes published or approved between the follow and the
// watcher's next poll are announced by that poll. Without the baseline at
// follow time they were swallowed into the poll's baseline.
func TestFollowBaselineAtFollowTime(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")
		env.followNow(w, finChannel, "Finance") // M-1 approved, M-2 a draft: old news
		env.clock.Advance(time.Minute)

		env.records.AddMeeting(recordstest.Meeting{ID: "M-5", Title: "Finance Committee, Extra", Committee: "Finance", Date: env.today})
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-5", Status: "published_draft", Body: "Draft."})
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-2", Status: "approved", Body: "Approved."})
		sum := env.mustPoll(w)
		assert.Zero(t, sum.Baselined, "taken when the follow was made")
		assert.Equal(t, 2, sum.Announced, "the draft published and the draft approved since the follow")
		posts := env.posts(finChannel)
		require.Len(t, posts, 2)
		for _, p := range posts {
			assert.NotContains(t, p.text, "October", "M-1 was approved before the follow")
		}
		env.mustPoll(w)
		assert.Len(t, env.posts(finChannel), 2, "nothing twice")
	})
}

// TestFollowBaselineReadsBehindTheHorizon: the watcher's horizon has
// moved to two weeks back when a channel follows a committee whose draft
// is a month old. Its approval, after the follow, is still announced: the
// first poll after a follow reads the whole lookback.
func TestFollowBaselineReadsBehindTheHorizon(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")
		env.followNow(w, allChannel, "Events")
		env.mustPoll(w)
		env.mustPoll(w)
		env.records.AddMeeting(recordstest.Meeting{ID: "M-8", Title: "Audit Committee, October", Committee: "Audit", Date: env.today.AddDate(0, 0, -30)})
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-8", Status: "published_draft", Body: "Draft."})

		env.followNow(w, finChannel, "Audit")
		env.clock.Advance(time.Minute)
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-8", Status: "approved", Body: "Final."})
		sum := env.mustPoll(w)
		assert.Equal(t, 1, sum.Announced)
		require.Len(t, env.posts(finChannel), 1)
		assert.Contains(t, env.posts(finChannel)[0].text, "Final.")
	})
}
