package bot_test

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/store"
)

// visibleIDs are the meetings of committee ("" for all) with published
// minutes, dated no later than now.
func (h *harness) visibleIDs(committee string) map[string]bool {
	out := map[string]bool{}
	for _, min := range h.data.Minutes {
		if min.Status != "approved" && min.Status != "published_draft" {
			continue
		}
		m := h.demoMeeting(min.MeetingID)
		if (committee == "" || m.Committee == committee) && !m.Date.After(time.Now()) {
			out[m.ID] = true
		}
	}
	return out
}

// The archive's search box finds minutes in the store's index, as
// /minutes search does: stemmed words, the matches marked, never minutes
// that may not be shown, and whatever is typed is a page, never an error.
func TestMinutesArchiveSearchesTheIndex(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newSearchHarness(t, st)
		r := h.fetchPage("", "/minutes?q=budgets", nil)
		require.Equal(t, http.StatusOK, r.status, r.body)
		assert.Contains(t, r.body, "Minutes mentioning “budgets”")
		assert.Regexp(t, `(?i)<mark>budget</mark>`, r.body, "the matched word marked (stemmed: budgets finds budget)")
		assert.NotContains(t, r.body, "zanzibar", "minutes in review are never found")
		assertNoActiveContent(t, r.body)
		assert.Contains(t, h.fetchPage("", "/minutes?q=zanzibar", nil).body, "No published minutes mention “zanzibar”.")
		assert.Contains(t, h.fetchPage("", "/minutes?q="+url.QueryEscape(`"the zanzibar"`), nil).body,
			"No published minutes mention &#34;the zanzibar&#34;.", "a phrase in its own quotes, not in “\"…\"”")
		for _, typed := range []string{`"open`, `NEAR(budget`, `budget*`, `-budget`, `a:b`, `((`, `committee:`, `<script>`} {
			r := h.fetchPage("", "/minutes?q="+url.QueryEscape(typed), nil)
			assert.Equal(t, http.StatusOK, r.status, "typed %q", typed)
		}
	})
}

// withFineArts adds a Fine Arts committee with published minutes, so "fin"
// is the start of two committees' names.
func withFineArts() harnessOption {
	return withDataset(func(d *recordstest.Dataset) {
		day := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -3)
		d.Meetings = append(d.Meetings, recordstest.Meeting{ID: "mtg_fine_arts", Title: "Fine Arts meeting", Committee: "Fine Arts", Date: day.Add(18 * time.Hour)})
		d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: "mtg_fine_arts", Status: "approved", Body: "The mural was approved.", UpdatedAt: day.AddDate(0, 0, 1)})
	})
}

// TestMinutesArchiveHeadingsDoNotSkipALevel: the archive's headings go
// h1, h2, h3 without a gap (WCAG 1.3.1), listed or searched.
func TestMinutesArchiveHeadingsDoNotSkipALevel(t *testing.T) {
	t.Parallel()
	onEachStore(t, func(t *testing.T, st *store.Store) {
		h := newSearchHarness(t, st)
		for _, path := range []string{"/minutes", "/minutes?committee=Finance", "/minutes?q=budget"} {
			r := h.fetchPage("", path, nil)
			require.Equal(t, http.StatusOK, r.status, path)
			level := 0
			for _, m := range regexp.MustCompile(`<h([1-6])[ >]`).FindAllStringSubmatch(r.body, -1) {
				next := int(m[1][0] - '0')
				assert.LessOrEqual(t, next, level+1, "%s: an h%d after an h%d", path, next, level)
				level = next
			}
			assert.Equal(t, 3, level, "%s ends in entries (h3)", path)
		}
	})
}
