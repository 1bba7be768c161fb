package watch_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/store"
)

// found is the meetings a search for typed finds in w's store.
func found(t *testing.T, st *store.Store, typed string) []string {
	t.Helper()
	page, err := st.SearchMinutes(t.Context(), minutes.ParseQuery(typed), 0, 50)
	require.NoError(t, err)
	ids := []string{}
	for _, h := range page.Hits {
		ids = append(ids, h.MeetingID)
	}
	return ids
}

// TestPollIndexesMinutesForSearch: after one poll, with no follows at
// all, minutes that became visible are searchable; hidden minutes never
// are; minutes withdrawn leave the index; and a poll with follows reads
// each minutes once for announcements and search together.
func TestPollIndexesMinutesForSearch(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")
		st := w.deps.Store
		// Within the last 14 days: M-2 (a published draft, "budget") and
		// M-3 (no minutes). M-1 is 40 days old: the backfill's.
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-3", Status: "in_review", Body: "The budget of the secret party."})
		sum := env.mustPoll(w)
		assert.Equal(t, 1, sum.Indexed)
		assert.Equal(t, []string{"M-2"}, found(t, st, "budgets"))
		assert.Empty(t, found(t, st, "secret"), "minutes in review are not indexed")
		assert.Contains(t, sum.String(), "indexed 1 minutes for search")

		// Events publishes; Finance withdraws its draft.
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-3", Status: "approved", Body: "The party budget was approved."})
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-2", Status: "in_review", Body: "Present: most.\n\nThe budget was discussed."})
		env.clock.Advance(time.Minute)
		env.mustPoll(w)
		assert.Equal(t, []string{"M-3"}, found(t, st, "budget"), "newly visible in, withdrawn out, after one poll")

		// Approved minutes indexed are not read again.
		env.records.ResetRequests()
		env.clock.Advance(time.Minute)
		env.mustPoll(w)
		assert.Zero(t, env.records.Count("GET", "/meetings/M-3/minutes"))
		assert.Equal(t, 1, env.records.Count("GET", "/meetings/M-2/minutes"), "not indexed and recent: read again")

		// With a follow, announcements and search share the reads.
		env.follow(w, finChannel, "Finance")
		env.records.ResetRequests()
		env.clock.Advance(time.Minute)
		env.mustPoll(w)
		assert.Equal(t, 1, env.records.Count("GET", "/meetings/M-2/minutes"), "read once for both")
		assert.Equal(t, 1, env.records.Count("GET", "/meetings/M-1/minutes"), "the baseline's read indexes too")
		assert.Equal(t, []string{"M-1"}, found(t, st, "accounts"))
	})
}
