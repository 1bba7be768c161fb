package minutespage_test

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/minutes"
)

// archiveNeeds matches the records requests an archive page may make: the
// meetings list (the records' own next-page query) and one meeting's
// minutes. Anything else, above all a path that leaves the API's base
// (/api/v1/../admin) or another endpoint (/actions), is a request the
// page had no business making with the bot's API key.
var archiveNeeds = regexp.MustCompile(`^/api/v1/meetings(/[^/]+/minutes)?$`)

// assertOnlyArchiveRequests fails for each records request since the last
// reset that an archive page does not need.
func (h *harness) assertOnlyArchiveRequests(t *testing.T) {
	t.Helper()
	for _, r := range h.records.Requests() {
		ok := r.Method == http.MethodGet && archiveNeeds.MatchString(r.Path) &&
			!strings.Contains(r.Path, "..") && !strings.Contains(strings.ToLower(r.Path), "%2e")
		assert.True(t, ok, "records request %s %s?%s is not one an archive page needs", r.Method, r.Path, r.Query)
	}
}

// The archive's ?after= is the bot's own: a forged, altered, expired or
// over-long cursor answers 404 and makes no records call at all, and the
// cursors the bot does make lead only to the requests a page needs.
func TestMinutesArchiveCursorIsTheBotsOwn(t *testing.T) {
	t.Parallel()
	var now atomic.Int64
	now.Store(time.Now().UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()) }
	h := newHarness(t, withAuditHistory(), withMinutes(func(c *minutes.Config) { c.Now = clock }))

	first := h.fetchPage("", "/minutes", nil)
	require.Equal(t, http.StatusOK, first.status)
	_, next := archiveIDs(t, first.body)
	require.NotEmpty(t, next, "the archive is paged")
	u, err := url.Parse(next)
	require.NoError(t, err)
	cursor := u.Query().Get("after")
	require.NotEmpty(t, cursor)
	second := h.fetchPage("", next, nil)
	require.Equal(t, http.StatusOK, second.status, "the bot's own cursor is followed")
	h.assertOnlyArchiveRequests(t)

	b64 := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	flip := []byte(cursor)
	i := len(flip) / 2
	if flip[i] == 'A' {
		flip[i] = 'B'
	} else {
		flip[i] = 'A'
	}
	forged := map[string]string{
		"a path out of the API":       b64(`{"n":"/api/v1/../../admin/secret?x=1"}`),
		"another endpoint":            b64(`{"n":"/api/v1/actions?limit=500"}`),
		"an absolute URL":             b64(`{"n":"http://evil.example/api/v1/meetings"}`),
		"a skip past the page":        b64(`{"k":100000}`),
		"the bot's cursor, altered":   string(flip),
		"the bot's cursor, cut short": cursor[:len(cursor)-3],
		"the bot's cursor, extended":  cursor + "AA",
		"over-long":                   strings.Repeat("A", 4096),
		"not base64":                  "%%%",
	}
	for name, c := range forged {
		h.records.ResetRequests()
		r := h.fetchPage("", "/minutes?after="+url.QueryEscape(c), nil)
		assert.Equal(t, http.StatusNotFound, r.status, name)
		assert.Empty(t, h.records.Requests(), "%s: no records call", name)
	}

	// A cursor from another committee's list is not this one's.
	h.records.ResetRequests()
	r := h.fetchPage("", "/minutes?committee=Audit&after="+url.QueryEscape(cursor), nil)
	assert.Equal(t, http.StatusNotFound, r.status, "a cursor is bound to its list")
	assert.Empty(t, h.records.Requests())

	// Expired: the bot's own cursor, a day and more later.
	now.Add(int64(minutes.CursorLifetime + time.Minute))
	h.records.ResetRequests()
	r = h.fetchPage("", next, nil)
	assert.Equal(t, http.StatusNotFound, r.status, "an expired cursor")
	assert.Empty(t, h.records.Requests(), "an expired cursor: no records call")
}
