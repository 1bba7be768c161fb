package watch_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
)

// TestSeenActionsKeepNoEmails: what the watcher keeps of an assignee to
// notice a new one is a hash, never their email (store/doc.go: ids, names,
// timestamps and statuses only); new assignments are still noticed.
func TestSeenActionsKeepNoEmails(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")
		env.mustPoll(w)
		env.records.AddAction(recordstest.Action{ID: "A-40", Title: "Carol's", Status: "open", AssigneeEmail: carol.Email, MeetingID: "M-2"})
		sum := env.mustPoll(w)
		assert.Equal(t, 1, sum.DMs)
		seen, err := w.deps.Store.SeenAssignees(t.Context())
		require.NoError(t, err)
		require.Len(t, seen, 3)
		for id, who := range seen {
			assert.NotContains(t, who, "@", "action %s", id)
			assert.NotContains(t, strings.ToLower(who), "carol", "action %s", id)
		}
	})
}

// TestPruneOnceADay: the first poll of each day prunes the store, with the
// retention configured; the other polls of the day do not.
func TestPruneOnceADay(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		a, b := env.watcher("pod-a"), env.watcher("pod-b")
		env.news(a) // follows, a baseline poll (which pruned today's)
		first := env.mustPoll(a)
		assert.Nil(t, first.Pruned, "today's prune was done by the baseline poll")
		env.clock.Advance(24 * time.Hour)
		sum := env.mustPoll(b)
		require.NotNil(t, sum.Pruned, "a new day: whichever replica polls first prunes")
		assert.Contains(t, sum.String(), "pruned")
		assert.Nil(t, env.mustPoll(a).Pruned)

		// 100 days on, the announcement and the DMs of the first day go
		// from the ledger; nothing is posted again.
		env.clock.Advance(100 * 24 * time.Hour)
		sum = env.mustPoll(a)
		require.NotNil(t, sum.Pruned)
		assert.Positive(t, sum.Pruned.Ledger)
		env.mustPoll(a)
		env.assertEachOnce()
	})
}
