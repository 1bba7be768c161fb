package bot_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/store"
	"github.com/recordsbot/recordsbot/watch"
)

// Minutes the records service stops serving (withdrawn, or back to
// draft) are gone from every search surface after one watch run, however
// old their meeting (the watcher does not read old approved minutes
// again), and leave the index (issue 28 §2).
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
