package bot_test

import (
	"encoding/xml"
	"net/http"
	"net/url"
	"regexp"
	"strings"
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

// atom is Atom 1.0 as a strict reader takes it (RFC 4287).
type (
	atomFeed struct {
		XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
		ID      string      `xml:"http://www.w3.org/2005/Atom id"`
		Title   string      `xml:"http://www.w3.org/2005/Atom title"`
		Updated string      `xml:"http://www.w3.org/2005/Atom updated"`
		Authors []atomName  `xml:"http://www.w3.org/2005/Atom author"`
		Links   []atomLink  `xml:"http://www.w3.org/2005/Atom link"`
		Entries []atomEntry `xml:"http://www.w3.org/2005/Atom entry"`
	}
	atomName struct {
		Name string `xml:"http://www.w3.org/2005/Atom name"`
	}
	atomLink struct {
		Rel  string `xml:"rel,attr"`
		Type string `xml:"type,attr"`
		Href string `xml:"href,attr"`
	}
	atomEntry struct {
		ID         string     `xml:"http://www.w3.org/2005/Atom id"`
		Title      string     `xml:"http://www.w3.org/2005/Atom title"`
		Updated    string     `xml:"http://www.w3.org/2005/Atom updated"`
		Authors    []atomName `xml:"http://www.w3.org/2005/Atom author"`
		Links      []atomLink `xml:"http://www.w3.org/2005/Atom link"`
		Categories []struct {
			Term string `xml:"term,attr"`
		} `xml:"http://www.w3.org/2005/Atom category"`
		Summary string `xml:"http://www.w3.org/2005/Atom summary"`
	}
)

// parseAtom decodes body strictly and checks what RFC 4287 requires: a
// feed and each entry have an id (an absolute IRI), a title and an
// RFC 3339 updated; the feed an author (or each entry one) and a self
// link; each entry an alternate link.
func parseAtom(t *testing.T, body string) atomFeed {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(body))
	dec.Strict = true
	var f atomFeed
	require.NoError(t, dec.Decode(&f), "well-formed Atom")
	requireIRI := func(what, s string) {
		u, err := url.Parse(s)
		require.NoError(t, err, what)
		require.True(t, u.IsAbs(), "%s %q is an absolute IRI", what, s)
	}
	requireIRI("feed id", f.ID)
	require.NotEmpty(t, strings.TrimSpace(f.Title), "feed title")
	_, err := time.Parse(time.RFC3339, f.Updated)
	require.NoError(t, err, "feed updated")
	self := false
	for _, l := range f.Links {
		self = self || l.Rel == "self" && l.Href != ""
	}
	require.True(t, self, "a feed links to itself")
	for _, e := range f.Entries {
		requireIRI("entry id", e.ID)
		require.NotEmpty(t, strings.TrimSpace(e.Title), "entry title")
		_, err := time.Parse(time.RFC3339, e.Updated)
		require.NoError(t, err, "entry updated")
		require.True(t, len(f.Authors) > 0 && f.Authors[0].Name != "" || len(e.Authors) > 0, "an author for every entry")
		alt := false
		for _, l := range e.Links {
			alt = alt || (l.Rel == "alternate" || l.Rel == "") && l.Href != ""
		}
		require.True(t, alt, "entry %s links to its page", e.ID)
	}
	return f
}
