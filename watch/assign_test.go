package watch_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/store"
)

// TestAssignmentDMs: the first poll is the baseline (no DMs for what
// existed); then three actions from one meeting make one DM to Carol, an
// action for Bob from another meeting makes his own DM, and a
// reassignment DMs the new assignee and nobody else.
func TestAssignmentDMs(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")

		sum := env.mustPoll(w)
		assert.True(t, sum.ActionsBaseline)
		for _, u := range []string{alice.ID, bob.ID, carol.ID} {
			assert.Empty(t, env.dms(u), "no DMs for actions that existed before the first run")
		}

		for _, id := range []string{"A-10", "A-11", "A-12"} {
			env.records.AddAction(recordstest.Action{ID: id, Title: "Task " + id, Status: "open", AssigneeEmail: carol.Email, AssigneeName: carol.RealName, MeetingID: "M-2"})
		}
		env.records.AddAction(recordstest.Action{ID: "A-13", Title: "Order chairs", Status: "open", AssigneeEmail: bob.Email, MeetingID: "M-3"})
		sum = env.mustPoll(w)
		assert.Equal(t, 2, sum.DMs)

		dms := env.dms(carol.ID)
		require.Len(t, dms, 1, "several at once from one meeting are one DM")
		for _, id := range []string{"A-10", "A-11", "A-12"} {
			assert.Contains(t, dms[0].text, "Task "+id)
			assert.Contains(t, dms[0].text, "complete|"+id+"|", "each row has its status buttons")
		}
		assert.Contains(t, dms[0].text, "Finance")
		assert.Contains(t, dms[0].text, "Finance Committee, November", "which meeting assigned it")
		assert.Contains(t, dms[0].Text, "assigned you 3 actions")
		require.Len(t, env.dms(bob.ID), 1)
		assert.Contains(t, env.dms(bob.ID)[0].text, "Order chairs")
		assert.Empty(t, env.dms(alice.ID))

		// Nothing new: nothing sent.
		env.mustPoll(w)
		assert.Len(t, env.dms(carol.ID), 1)
		assert.Len(t, env.dms(bob.ID), 1)

		// A-1 moves from Alice to Carol: her snooze of it ends with it
		// hers; Bob's snooze of his own A-13 stays.
		st, err := store.Open(t.Context(), env.url)
		require.NoError(t, err)
		t.Cleanup(func() { _ = st.Close() })
		require.NoError(t, st.Snooze(t.Context(), alice.ID, "A-1", "2026-12-01"))
		require.NoError(t, st.Snooze(t.Context(), bob.ID, "A-13", "2026-12-01"))
		actions := env.records.Actions()
		for i := range actions {
			if actions[i].ID == "A-1" {
				actions[i].AssigneeEmail, actions[i].AssigneeName = carol.Email, carol.RealName
			}
		}
		env.records.SetActions(actions)
		env.mustPoll(w)
		dms = env.dms(carol.ID)
		require.Len(t, dms, 2)
		assert.Contains(t, dms[1].text, "Circulate the accounts")
		assert.Contains(t, dms[1].Text, "reassigned an action to you")
		assert.Empty(t, env.dms(alice.ID), "the previous assignee is not DMed")
		snoozes, err := st.Snoozes(t.Context(), alice.ID)
		require.NoError(t, err)
		assert.Empty(t, snoozes, "reassigned: Alice's snooze of it ended")
		snoozes, err = st.Snoozes(t.Context(), bob.ID)
		require.NoError(t, err)
		assert.Contains(t, snoozes, "A-13", "not reassigned: Bob's snooze stays")
	})
}

// TestAssignmentDMsHonourSettings: a person who turned new-assignment DMs
// off gets none; the organisation default applies to everyone else, and
// an "on" choice wins over an "off" default.
func TestAssignmentDMsHonourSettings(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")
		env.mustPoll(w)
		off, on := false, true
		require.NoError(t, w.deps.Store.SaveSettings(t.Context(), carol.ID, store.Settings{AssignDMs: &off}))
		env.records.AddAction(recordstest.Action{ID: "A-20", Title: "For Carol", Status: "open", AssigneeEmail: carol.Email, MeetingID: "M-2"})
		env.records.AddAction(recordstest.Action{ID: "A-21", Title: "For Bob", Status: "open", AssigneeEmail: bob.Email, MeetingID: "M-2"})
		sum := env.mustPoll(w)
		assert.Equal(t, 1, sum.DMsOff)
		assert.Empty(t, env.dms(carol.ID), "Carol turned them off")
		assert.Len(t, env.dms(bob.ID), 1, "Bob has the default, on")

		// Turning them back on later does not replay what was skipped.
		require.NoError(t, w.deps.Store.SaveSettings(t.Context(), carol.ID, store.Settings{AssignDMs: &on}))
		env.mustPoll(w)
		assert.Empty(t, env.dms(carol.ID))

		// Default off: only those who chose on hear.
		quiet := env.watcher("w2", func(c *watchConfig) { c.Notify.AssignDMsOff = true })
		env.records.AddAction(recordstest.Action{ID: "A-22", Title: "Carol again", Status: "open", AssigneeEmail: carol.Email, MeetingID: "M-3"})
		env.records.AddAction(recordstest.Action{ID: "A-23", Title: "Bob again", Status: "open", AssigneeEmail: bob.Email, MeetingID: "M-3"})
		env.mustPoll(quiet)
		assert.Len(t, env.dms(carol.ID), 1, "her own choice, on, wins over the default")
		assert.Len(t, env.dms(bob.ID), 1, "default off")
	})
}

// TestAssignmentUnmatchedAndUserMap: an assignee Slack does not know gets
// no DM and is not retried forever; USER_MAP routes an assignee whose
// records email is not their Slack one.
func TestAssignmentUnmatchedAndUserMap(t *testing.T) {
	t.Parallel()
	env := newEnv(t, engines[0])
	w := env.watcher("w1", func(c *watchConfig) {
		c.Actions.UserMap = userMap(map[string]string{"a.jones@council.example": alice.ID})
	})
	env.mustPoll(w)
	env.records.AddAction(recordstest.Action{ID: "A-30", Title: "Ghost", Status: "open", AssigneeEmail: "nobody@example.org", MeetingID: "M-2"})
	env.records.AddAction(recordstest.Action{ID: "A-31", Title: "Mapped", Status: "open", AssigneeEmail: "a.jones@council.example", MeetingID: "M-2"})
	sum := env.mustPoll(w)
	assert.Equal(t, 1, sum.Unmatched)
	require.Len(t, env.dms(alice.ID), 1)
	assert.Contains(t, env.dms(alice.ID)[0].text, "Mapped")
	sum = env.mustPoll(w)
	assert.Zero(t, sum.Unmatched, "an unmatched assignee is looked up once, not every poll")
}

// TestAssignmentDMInTheAssigneesLanguage: an assignee whose Slack locale
// is fr-FR gets the assignment DM in French, plural by CLDR; one whose
// locale recordsbot does not ship reads ORG_LANGUAGE (English here).
func TestAssignmentDMInTheAssigneesLanguage(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		require.True(t, env.slack.SetLocale(carol.ID, "fr-FR"))
		require.True(t, env.slack.SetLocale(bob.ID, "ja-JP"))
		w := env.watcher("w1")
		env.mustPoll(w)

		for _, id := range []string{"A-10", "A-11"} {
			env.records.AddAction(recordstest.Action{ID: id, Title: "Task " + id, Status: "open", AssigneeEmail: carol.Email, AssigneeName: carol.RealName, MeetingID: "M-2"})
		}
		env.records.AddAction(recordstest.Action{ID: "A-13", Title: "Order chairs", Status: "open", AssigneeEmail: bob.Email, MeetingID: "M-3"})
		env.mustPoll(w)

		dms := env.dms(carol.ID)
		require.Len(t, dms, 1)
		assert.Contains(t, dms[0].Text, "vous a confié 2 actions")
		assert.NotContains(t, dms[0].text, "assigned you")
		require.Len(t, env.dms(bob.ID), 1)
		assert.Contains(t, env.dms(bob.ID)[0].Text, "assigned you an action", "ja-JP is not shipped: ORG_LANGUAGE")
	})
}
