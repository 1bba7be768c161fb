package bot_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/internal/pagetest"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/watch"
)

// Minutes the records service stops serving (withdrawn, or back to
// draft) are gone from every search surface after one watch run, however
// old their meeting (the watcher does not read old approved minutes
// again), and leave the index.
func TestWithdrawnMinutesLeaveEverySearch(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		old := time.Now().AddDate(0, -4, 0).UTC()
		h := newSearchHarnessWith(t, st, func(d *recordstest.Dataset) {
			for _, id := range []string{"OLD-1", "OLD-2"} {
				d.Meetings = append(d.Meetings, recordstest.Meeting{ID: id, Title: "Finance Committee: " + id, Committee: "Finance", Date: old})
				d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: id, Status: "approved", Body: "The quokka sanctuary grant " + id + " was agreed."})
			}
		})
		alice := h.person("alice")
		indexed, err := st.IndexedMinutes(t.Context(), []string{"OLD-1", "OLD-2"})
		require.NoError(t, err)
		require.Len(t, indexed, 2, "precondition: indexed")

		// One withdrawn (back in review), one no longer served at all.
		h.records.SetMinutes(recordstest.Minutes{MeetingID: "OLD-1", Status: "in_review", Body: "The quokka sanctuary grant was agreed."})
		h.records.SetMinutes(recordstest.Minutes{MeetingID: "OLD-2", Status: "withdrawn", Body: "Withdrawn."})

		wdeps := h.watcherDeps(t, st)
		_, err = watch.Poll(t.Context(), watch.Config{}, wdeps)
		require.NoError(t, err)

		slash := h.search("quokka").all()
		assert.NotContains(t, slash, "OLD-1", "/minutes search")
		assert.NotContains(t, slash, "OLD-2", "/minutes search")
		assert.Contains(t, slash, "No minutes mention")

		modal := h.openSearchModal(t, alice)
		h.submitSearch(t, alice, modal.ID, "quokka")
		now, ok := h.slack.Modal(modal.ID)
		require.True(t, ok)
		assert.NotContains(t, modalText(now), "OLD-1", "Home search")
		assert.NotContains(t, modalText(now), "OLD-2", "Home search")

		page := h.fetchPage("", "/minutes?q=quokka", nil)
		require.Equal(t, http.StatusOK, page.status)
		assert.NotContains(t, page.body, "OLD-1", "GET /minutes?q=")
		assert.NotContains(t, page.body, "OLD-2", "GET /minutes?q=")

		indexed, err = st.IndexedMinutes(t.Context(), []string{"OLD-1", "OLD-2"})
		require.NoError(t, err)
		assert.Empty(t, indexed, "out of the index too")
	})
}

// Approved minutes withdrawn after a search has seen them served (the
// answer the archive and the pages share for a minute) are gone from every
// search surface as soon as a watch run has passed, not a minute later:
// no search trusts an answer read before the last poll began, and the
// poll itself reads no approved minutes again.
func TestWithdrawnMinutesLeaveSearchAtTheWatchRun(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		recent := time.Now().AddDate(0, 0, -3).UTC()
		h := newSearchHarnessWith(t, st, func(d *recordstest.Dataset) {
			d.Meetings = append(d.Meetings, recordstest.Meeting{ID: "NEW-1", Title: "Finance Committee: NEW-1", Committee: "Finance", Date: recent})
			d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: "NEW-1", Status: "approved", Body: "The wallaby fund was agreed."})
		})
		// The bot on a clock of the test's: the domain reads the watcher's
		// mark at most five times a second.
		clock := newStepClock()
		h.rebuild(bot.Deps{Store: st, Now: clock.Now})
		alice := h.person("alice")
		// Every surface has seen it served: the answer is cached.
		require.Contains(t, h.fetchPage("", "/minutes?q=wallaby", nil).body, "NEW-1", "precondition: found")
		require.Contains(t, h.search("wallaby").all(), "NEW-1", "precondition: found in Slack")
		for _, path := range []string{"/minutes", "/minutes/feed.atom", "/minutes/feed.atom?q=wallaby", "/minutes/NEW-1"} {
			require.Contains(t, h.fetchPage("", path, nil).body, "NEW-1", "precondition: %s", path)
		}

		h.records.SetMinutes(recordstest.Minutes{MeetingID: "NEW-1", Status: "withdrawn", Body: "Withdrawn."})
		h.records.ResetRequests()
		_, err := watch.Poll(t.Context(), watch.Config{}, h.watcherDeps(t, st))
		require.NoError(t, err)
		assert.Zero(t, h.records.Count("GET", "/meetings/NEW-1/minutes"), "the poll reads no approved minutes again")
		clock.Advance(time.Second) // well within the cache's minute

		page := h.fetchPage("", "/minutes?q=wallaby", nil)
		require.Equal(t, http.StatusOK, page.status)
		assert.NotContains(t, page.body, "NEW-1", "GET /minutes?q= within the cache's minute")
		assert.NotContains(t, h.search("wallaby").all(), "NEW-1", "/minutes search")
		modal := h.openSearchModal(t, alice)
		h.submitSearch(t, alice, modal.ID, "wallaby")
		now, ok := h.slack.Modal(modal.ID)
		require.True(t, ok)
		assert.NotContains(t, modalText(now), "NEW-1", "Home search")
		indexed, err := st.IndexedMinutes(t.Context(), []string{"NEW-1"})
		require.NoError(t, err)
		assert.Empty(t, indexed, "out of the index")
		// Nor does any other public surface answer from before the poll.
		for _, path := range []string{"/minutes", "/minutes/feed.atom", "/minutes/feed.atom?q=wallaby"} {
			assert.NotContains(t, h.fetchPage("", path, nil).body, "NEW-1", path)
		}
		assert.Equal(t, http.StatusNotFound, h.fetchPage("", "/minutes/NEW-1", nil).status, "its page")
	})
}

// A hit that cannot be checked, because the public pages' budget of
// records calls is spent, is not shown: the index may hold minutes
// withdrawn since. It is shown again once it can be checked.
func TestSearchHidesHitsItCannotCheck(t *testing.T) {
	t.Parallel()
	st := openTestStore(t, "sqlite")
	old := time.Now().AddDate(0, -5, 0).UTC()
	h := newSearchHarnessWith(t, st, func(d *recordstest.Dataset) {
		d.Meetings = append(d.Meetings, recordstest.Meeting{ID: "CHK-1", Title: "Finance Committee: CHK-1", Committee: "Finance", Date: old})
		d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: "CHK-1", Status: "approved", Body: "The numbat survey was agreed."})
	})
	h.records.SetMinutes(recordstest.Minutes{MeetingID: "CHK-1", Status: "withdrawn", Body: "Withdrawn."})
	// A public budget of one call, spent by a page: nothing is left to
	// check a hit with.
	h.rebuild(bot.Deps{Store: st}, withConfig(func(c *bot.Config) {
		c.Public = bot.PublicLimits{RecordsCalls: 1e-9, RecordsBurst: 1, UnheldCalls: 1e-9, UnheldBurst: 1}
	}))
	ids := h.realPages(1)
	require.Equal(t, http.StatusServiceUnavailable, h.fetchPage("", pagetest.MinutesPath(ids[0]), nil).status, "precondition: the budget is spent")

	page := h.fetchPage("", "/minutes?q=numbat", nil)
	require.Equal(t, http.StatusOK, page.status)
	assert.NotContains(t, page.body, "CHK-1", "an unchecked hit is hidden")
	indexed, err := st.IndexedMinutes(t.Context(), []string{"CHK-1"})
	require.NoError(t, err)
	assert.NotEmpty(t, indexed, "unchecked is not gone: still indexed")

	// In Slack the check has no public budget to spend: it is made, and
	// the withdrawn minutes leave the index.
	assert.NotContains(t, h.search("numbat").all(), "CHK-1")
	indexed, err = st.IndexedMinutes(t.Context(), []string{"CHK-1"})
	require.NoError(t, err)
	assert.Empty(t, indexed)
}
