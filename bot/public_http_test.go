package bot_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/pagetest"
	"github.com/recordsbot/recordsbot/minutes"
)

// Every public answer follows the one HTTP rule (bot/publicweb): no cache
// downstream keeps it longer than the bot's own cache keeps what it shows
// (the minutes domain's for the pages and the feed, the calendar's for the
// feeds), and none says Accept-Ranges or answers a Range: a page or a
// feed is always sent whole.
func TestPublicAnswersShareOneHTTPRule(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withMinutes(func(c *minutes.Config) { c.CacheTTL = 2 * time.Minute }),
		withCalendar(nil, nil), func(s harnessSetup) { s.calendar.cfg.CacheTTL = 20 * time.Minute })
	m, _ := h.demoMinutes(pagetest.PlainApproved)
	var inWindow string
	for id := range h.inWindow(m.Committee) {
		inWindow = id
		break
	}
	require.NotEmpty(t, inWindow)
	routes := map[string]string{
		pagetest.MinutesPath(m.ID): "public, max-age=120",
		"/minutes/feed.atom":       "public, max-age=120",
		"/calendar.ics":            "public, max-age=1200",
		"/calendar/" + url.PathEscape(m.Committee) + ".ics":      "public, max-age=1200",
		"/calendar/meeting/" + url.PathEscape(inWindow) + ".ics": "public, max-age=1200",
	}
	for path, cacheControl := range routes {
		whole := h.fetchPage("", path, nil)
		require.Equal(t, http.StatusOK, whole.status, path)
		assert.Equal(t, cacheControl, whole.header.Get("Cache-Control"), "%s: kept downstream as long as the bot keeps it", path)
		assert.Empty(t, whole.header.Get("Accept-Ranges"), "%s: ranges are not offered", path)
		assert.Equal(t, "Accept-Language", whole.header.Get("Vary"), path)
		r := h.fetchPage("", path, http.Header{"Range": {"bytes=0-10,20-30"}})
		assert.Equal(t, http.StatusOK, r.status, "%s: not 206", path)
		assert.Empty(t, r.header.Get("Accept-Ranges"), path)
		assert.Equal(t, whole.body, r.body, "%s: the whole answer", path)
		nm := h.fetchPage("", path, http.Header{"If-None-Match": {whole.header.Get("ETag")}})
		assert.Equal(t, http.StatusNotModified, nm.status, path)
		assert.Empty(t, nm.header.Get("Accept-Ranges"), path)
	}
}

// One publication rule over HTTP: the records mark one meeting cancelled
// and private, another confidential; neither is on a public page, in the
// archive or the feeds, nor in a calendar, and each one-meeting calendar
// is 404. No calendar event links to a minutes page that is not there.
func TestPublicRoutesFollowThePublicationRule(t *testing.T) {
	t.Parallel()
	soon, past := time.Now().Add(72*time.Hour).Truncate(time.Hour), time.Now().Add(-72*time.Hour).Truncate(time.Hour)
	h := newHarness(t, withCalendar(nil, nil), withDataset(func(d *recordstest.Dataset) {
		d.Meetings = append(d.Meetings,
			recordstest.Meeting{ID: "hush-1", Title: "Hushed cancelled", Committee: "Finance", Date: soon, Status: "cancelled", Visibility: "private"},
			recordstest.Meeting{ID: "hush-2", Title: "Hushed confidential", Committee: "Finance", Date: past, Confidential: true})
		d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: "hush-2", Status: "approved", Body: "Hushed minutes."})
	}))
	assert.Equal(t, http.StatusNotFound, h.fetchPage("", "/minutes/hush-2", nil).status, "withheld minutes: no page")
	for _, path := range []string{"/minutes", "/minutes/feed.atom", "/calendar.ics", "/calendar/Finance.ics"} {
		r := h.fetchPage("", path, nil)
		require.Equal(t, http.StatusOK, r.status, path)
		assert.NotContains(t, r.body, "Hushed", path)
		assert.NotContains(t, r.body, "hush-", path)
	}
	for _, id := range []string{"hush-1", "hush-2"} {
		assert.Equal(t, http.StatusNotFound, h.fetchPage("", "/calendar/meeting/"+id+".ics", nil).status, id)
	}
	// Every link a calendar event carries is a page that answers 200.
	cal := h.fetchPage("", "/calendar.ics", nil)
	for _, line := range strings.Split(cal.body, "\r\n") {
		if u, ok := strings.CutPrefix(line, "URL:"); ok {
			p, err := url.Parse(u)
			require.NoError(t, err)
			assert.Equal(t, http.StatusOK, h.fetchPage("", p.Path, nil).status, "an event links to %s", u)
		}
	}
}
