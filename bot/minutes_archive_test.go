package bot_test

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/pagetest"
	"github.com/recordsbot/recordsbot/store"
)

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
		pagetest.AssertNoActiveContent(t, r.body)
		assert.Contains(t, h.fetchPage("", "/minutes?q=zanzibar", nil).body, "No published minutes mention “zanzibar”.")
		assert.Contains(t, h.fetchPage("", "/minutes?q="+url.QueryEscape(`"the zanzibar"`), nil).body,
			"No published minutes mention &#34;the zanzibar&#34;.", "a phrase in its own quotes, not in “\"…\"”")
		for _, typed := range []string{`"open`, `NEAR(budget`, `budget*`, `-budget`, `a:b`, `((`, `committee:`, `<script>`} {
			r := h.fetchPage("", "/minutes?q="+url.QueryEscape(typed), nil)
			assert.Equal(t, http.StatusOK, r.status, "typed %q", typed)
		}
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
