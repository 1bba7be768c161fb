package bot_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
