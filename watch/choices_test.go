package watch_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/store"
)

// TestFollowChoicesAreHeard: a channel that does not hear drafts gets no
// post for a draft, and one top-level post when it is approved; a channel
// that does not hear approvals keeps its draft's post as it is, with no
// update and no thread reply. FOLLOW_DEFAULTS applies where a channel has
// not chosen.
func TestFollowChoicesAreHeard(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		d, err := store.ParseFollowDefaults("approvals,digest,briefs") // drafts off by default
		require.NoError(t, err)
		w := env.watcher("w1", func(c *watchConfig) { c.Follows.Defaults = d })
		env.followNow(w, finChannel, "Finance") // the default: no drafts
		env.followNow(w, allChannel, "Finance")
		_, err = w.deps.Store.SetFollowChoice(t.Context(), allChannel, "finance", store.HearDrafts, true)
		require.NoError(t, err)
		_, err = w.deps.Store.SetFollowChoice(t.Context(), allChannel, "finance", store.HearApprovals, false)
		require.NoError(t, err)

		env.records.AddMeeting(recordstest.Meeting{ID: "M-5", Title: "Finance Committee, Extra", Committee: "Finance", Date: env.today})
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-5", Status: "published_draft", Body: "Draft."})
		sum := env.mustPoll(w)
		assert.Equal(t, 1, sum.Announced)
		assert.Empty(t, env.posts(finChannel), "drafts off")
		require.Len(t, env.posts(allChannel), 1, "drafts on")
		draftTS := env.posts(allChannel)[0].TS

		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-5", Status: "approved", Body: "Final."})
		sum = env.mustPoll(w)
		assert.Equal(t, 1, sum.Announced)
		assert.Zero(t, sum.Approved)
		require.Len(t, env.posts(finChannel), 1, "approvals on: the approved minutes, posted new")
		assert.Contains(t, env.posts(finChannel)[0].text, "Final.")
		require.Len(t, env.posts(allChannel), 1)
		assert.Contains(t, env.posts(allChannel)[0].text, "Draft.", "approvals off: the draft's post stays as it was")
		assert.Empty(t, env.replies(allChannel, draftTS), "and no thread reply")

		sum = env.mustPoll(w)
		assert.Zero(t, sum.Announced+sum.Approved, "nothing pending")
		assert.Len(t, env.posts(finChannel), 1)
	})
}
