// Package pagetest reads the public minutes pages as the tests of bot
// (the pages behind its public guard) and bot/minutespage (the pages
// alone) do: one fetch, one dataset lookup and one set of checks every
// page must pass, so the two packages' tests hold the pages to the same
// rules.
package pagetest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
)

// Fetch requests path from srv with method (GET when empty) and the
// given headers, and returns the answer's status, headers and body.
func Fetch(t testing.TB, srv *httptest.Server, method, path string, header http.Header) (int, http.Header, string) {
	t.Helper()
	if method == "" {
		method = http.MethodGet
	}
	req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+path, nil)
	require.NoError(t, err)
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := srv.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, string(b)
}

// MinutesPath is the page of a meeting.
func MinutesPath(meetingID string) string { return "/minutes/" + url.PathEscape(meetingID) }

// FindMinutes returns the first minutes of data that match, with their
// meeting.
func FindMinutes(t testing.TB, data recordstest.Dataset, match func(recordstest.Minutes) bool) (recordstest.Meeting, recordstest.Minutes) {
	t.Helper()
	for _, min := range data.Minutes {
		if match(min) {
			return FindMeeting(t, data, min.MeetingID), min
		}
	}
	t.Fatal("no such minutes in the dataset")
	return recordstest.Meeting{}, recordstest.Minutes{}
}

// FindMeeting returns data's meeting id.
func FindMeeting(t testing.TB, data recordstest.Dataset, id string) recordstest.Meeting {
	t.Helper()
	for _, m := range data.Meetings {
		if m.ID == id {
			return m
		}
	}
	t.Fatalf("no meeting %s in the dataset", id)
	return recordstest.Meeting{}
}

// VisibleIDs are the meetings of committee ("" for all) with published
// minutes, dated no later than now: what the archive lists.
func VisibleIDs(t testing.TB, data recordstest.Dataset, committee string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, min := range data.Minutes {
		if min.Status != "approved" && min.Status != "published_draft" {
			continue
		}
		m := FindMeeting(t, data, min.MeetingID)
		if (committee == "" || m.Committee == committee) && !m.Date.After(time.Now()) {
			out[m.ID] = true
		}
	}
	return out
}

// PlainApproved picks approved Markdown minutes without a URL of their
// own.
func PlainApproved(m recordstest.Minutes) bool {
	return m.Status == "approved" && !m.HTML && m.URL == ""
}

// AddFineArts adds a Fine Arts committee with published minutes to d, so
// "fin" is the start of two committees' names.
func AddFineArts(d *recordstest.Dataset) {
	day := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -3)
	d.Meetings = append(d.Meetings, recordstest.Meeting{ID: "mtg_fine_arts", Title: "Fine Arts meeting", Committee: "Fine Arts", Date: day.Add(18 * time.Hour)})
	d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: "mtg_fine_arts", Status: "approved", Body: "The mural was approved.", UpdatedAt: day.AddDate(0, 0, 1)})
}

// AssertHeaders checks the headers every public page carries.
func AssertHeaders(t testing.TB, header http.Header) {
	t.Helper()
	csp := header.Get("Content-Security-Policy")
	assert.Contains(t, csp, "default-src 'none'")
	assert.Contains(t, csp, "style-src 'self'")
	assert.NotContains(t, csp, "script-src", "no script is allowed at all (default-src 'none')")
	assert.NotContains(t, csp, "unsafe-inline")
	assert.Contains(t, csp, "frame-ancestors 'none'")
	assert.Equal(t, "nosniff", header.Get("X-Content-Type-Options"))
	assert.Equal(t, "no-referrer", header.Get("Referrer-Policy"))
}

// activeContent matches what a browser would run or load into a page:
// script, style and frame elements, event-handler and style attributes,
// and javascript: URLs in attributes. Escaped record text ("&lt;script")
// does not match: it has no '<'.
var activeContent = regexp.MustCompile(`(?i)<(script|style|iframe|object|embed)\b|<[^>]*\s(on[a-z]+|style)\s*=|<[^>]*=\s*["']?\s*javascript:`)

// jsonLD is a page's one JSON-LD data block (eventLD).
var jsonLD = regexp.MustCompile(`(?s)<script type="application/ld\+json">\{[^<]*\}</script>`)

// AssertNoActiveContent checks that a page carries nothing a browser
// would run.
func AssertNoActiveContent(t testing.TB, body string) {
	t.Helper()
	// The schema.org JSON-LD block is data, never run: browsers run no
	// script of type application/ld+json, and the CSP allows none anyway.
	body = jsonLD.ReplaceAllString(body, "")
	assert.Empty(t, activeContent.FindAllString(body, -1), "active content in the page")
}

// AssertNotFound checks a friendly 404: a page of its own, never cached,
// with every page's headers and nothing active.
func AssertNotFound(t testing.TB, status int, header http.Header, body string) {
	t.Helper()
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, "text/html; charset=utf-8", header.Get("Content-Type"))
	assert.Contains(t, body, "No published minutes here")
	assert.Contains(t, body, `<meta name="robots" content="noindex">`)
	assert.Contains(t, body, `<link rel="stylesheet"`)
	assert.Equal(t, "no-cache", header.Get("Cache-Control"))
	assert.Empty(t, header.Get("ETag"))
	AssertHeaders(t, header)
	AssertNoActiveContent(t, body)
}

// Between returns the text of s after the first start up to the next end.
func Between(t testing.TB, s, start, end string) string {
	t.Helper()
	_, rest, ok := strings.Cut(s, start)
	require.True(t, ok, "no %q in %s", start, s)
	in, _, ok := strings.Cut(rest, end)
	require.True(t, ok, "no %q after %q", end, start)
	return in
}
