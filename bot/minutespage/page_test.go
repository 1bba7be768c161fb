package minutespage_test

import (
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot/minutespage"
	"github.com/recordsbot/recordsbot/internal/pagetest"
	"github.com/recordsbot/recordsbot/minutes"
)

// demoMinutes returns the first minutes of the dataset that match, with
// their meeting.
func (h *harness) demoMinutes(match func(recordstest.Minutes) bool) (recordstest.Meeting, recordstest.Minutes) {
	h.t.Helper()
	return pagetest.FindMinutes(h.t, h.data, match)
}

func TestMinutesPageShowsTheMeetingAndItsMinutes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m, _ := h.demoMinutes(pagetest.PlainApproved)

	r := h.fetchPage("", pagetest.MinutesPath(m.ID), nil)
	require.Equal(t, http.StatusOK, r.status, r.body)
	assert.Equal(t, "text/html; charset=utf-8", r.header.Get("Content-Type"))
	pagetest.AssertHeaders(t, r.header)
	pagetest.AssertNoActiveContent(t, r.body)

	esc := html.EscapeString
	assert.Contains(t, r.body, `<html lang="en">`)
	assert.Contains(t, r.body, "<title>"+esc(m.Title)+" – minutes</title>")
	assert.Contains(t, r.body, `<h1 id="record-title">`+esc(m.Title)+"</h1>")
	assert.Contains(t, r.body, "<dd>"+esc(m.Committee)+"</dd>")
	assert.Contains(t, r.body, "<dd>"+esc(m.Location)+"</dd>")
	assert.Contains(t, r.body, "<dd>"+esc(m.Reference)+"</dd>")
	assert.Contains(t, r.body, `<time datetime="`+m.Date.UTC().Format(time.RFC3339)+`">`+
		m.Date.UTC().Format("Monday 2 January 2006")+`, <span class="clock">`+m.Date.UTC().Format("15:04")+" UTC</span></time>")
	assert.Contains(t, r.body, "<dd>Approved</dd>")
	assert.NotContains(t, r.body, "draft-banner", "approved minutes have no draft banner")
	assert.NotContains(t, r.body, "noindex", "approved minutes may be indexed")

	// The agenda is an ordered list in a nav, in the record's order.
	agenda := pagetest.Between(t, r.body, `<nav class="agenda"`, "</nav>")
	assert.Contains(t, agenda, "<ol>")
	last := -1
	for _, it := range m.Agenda {
		i := strings.Index(agenda, `<li value="`+strconv.Itoa(it.Number)+`"><span class="agenda-title">`+esc(it.Title)+"</span>")
		require.Greater(t, i, last, "agenda item %d %q in order", it.Number, it.Title)
		last = i
		assert.Contains(t, agenda, esc(it.Description))
	}

	// The Markdown body is rendered, its headings below the page's own.
	body := pagetest.Between(t, r.body, `<div class="minutes-body">`, "</section>")
	assert.Contains(t, body, "<h3>"+esc(m.Committee)+" Committee, ", "the body's # heading is an h3 under the page's h1 and h2")
	assert.Contains(t, body, "<h4>1. Welcome and apologies</h4>")
	assert.Contains(t, body, "<strong>Present:</strong>")
	assert.NotContains(t, r.body, "<h1>", "one h1 per page")

	// The stylesheet the page links is served, with the same headers.
	href := pagetest.Between(t, r.body, `<link rel="stylesheet" href="`, `"`)
	ref, err := url.Parse(html.UnescapeString(href))
	require.NoError(t, err)
	base, err := url.Parse(h.http.URL + pagetest.MinutesPath(m.ID))
	require.NoError(t, err)
	css := h.fetchPage("", base.ResolveReference(ref).RequestURI(), nil)
	require.Equal(t, http.StatusOK, css.status, "GET %s", base.ResolveReference(ref))
	assert.Equal(t, "text/css; charset=utf-8", css.header.Get("Content-Type"))
	assert.Contains(t, css.body, "@media print")
	assert.NotEmpty(t, css.header.Get("ETag"))
	assert.Equal(t, "public, max-age=86400", css.header.Get("Cache-Control"))
	pagetest.AssertHeaders(t, css.header)
}

func TestMinutesPageEscapesRecordText(t *testing.T) {
	t.Parallel()
	const hostileID = "mtg_hostile"
	h := newHarness(t, withDataset(func(d *recordstest.Dataset) {
		d.Meetings = append(d.Meetings, recordstest.Meeting{
			ID:        hostileID,
			Title:     `Budget <b>bold</b> & "quotes"`,
			Committee: "Finance <i>",
			Location:  `<img src=x onerror=alert(0)>`,
			Date:      time.Date(2026, 1, 5, 18, 30, 0, 0, time.UTC),
			Agenda: []recordstest.AgendaItem{
				{Number: 1, Title: "<script>alert(1)</script>", Description: `<img src=x onerror=alert(2)>`},
				{Number: 2, Title: `"><a href="javascript:alert(3)">x</a>`},
			},
		})
		d.Minutes = append(d.Minutes, recordstest.Minutes{
			MeetingID: hostileID,
			Status:    "approved",
			Body: "# Minutes\n\n<script>alert(4)</script>\n\n<iframe src=\"https://evil.example\"></iframe>\n\n" +
				"[harmless](https://example.org/ok) and [click me](javascript:alert(5)) and " +
				"<a href=\"https://example.org\" onclick=\"alert(6)\">inline</a>\n\n" +
				"| Item | Owner |\n|---|---|\n| Budget | Alice |\n",
		})
	}))

	r := h.fetchPage("", pagetest.MinutesPath(hostileID), nil)
	require.Equal(t, http.StatusOK, r.status, r.body)
	pagetest.AssertNoActiveContent(t, r.body)
	assert.Contains(t, r.body, "&lt;script&gt;alert(1)&lt;/script&gt;", "the agenda item appears as text")
	assert.Contains(t, r.body, "&lt;img src=x onerror=alert(2)&gt;", "the description appears as text")
	assert.Contains(t, r.body, "Budget &lt;b&gt;bold&lt;/b&gt; &amp; &#34;quotes&#34;")
	assert.Contains(t, r.body, "<dd>Finance &lt;i&gt;</dd>")
	assert.NotContains(t, r.body, "<b>bold")
	assert.NotContains(t, r.body, "alert(4)", "raw HTML in Markdown is dropped, not shown")
	assert.Contains(t, r.body, `<a href="https://example.org/ok" rel="nofollow noreferrer">harmless</a>`, "safe links survive")
	assert.Contains(t, r.body, "click me", "a dangerous link keeps its text")
	assert.Contains(t, r.body, "<table>", "GitHub-style tables render")
	assert.Contains(t, r.body, "<td>Alice</td>")
}

func TestMinutesPageSanitisesHTMLBodies(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m, min := h.demoMinutes(func(m recordstest.Minutes) bool { return m.HTML })
	require.Contains(t, min.Body, "<script>", "the dataset's HTML body is hostile on purpose")
	require.Contains(t, min.Body, "onclick=")

	r := h.fetchPage("", pagetest.MinutesPath(m.ID), nil)
	require.Equal(t, http.StatusOK, r.status, r.body)
	pagetest.AssertNoActiveContent(t, r.body)
	assert.NotContains(t, r.body, "track(", "neither the script nor the handler survives, even as text")
	body := pagetest.Between(t, r.body, `<div class="minutes-body">`, "</section>")
	assert.Contains(t, body, "<table>")
	assert.Contains(t, body, "<th>Present</th>")
	assert.Contains(t, body, `<a href="https://records.example.org/" rel="nofollow noreferrer">Back to all minutes</a>`)
}

func TestMinutesPageMarksDrafts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m, _ := h.demoMinutes(func(m recordstest.Minutes) bool { return m.Status == "published_draft" })

	r := h.fetchPage("", pagetest.MinutesPath(m.ID), nil)
	require.Equal(t, http.StatusOK, r.status, r.body)
	banner := pagetest.Between(t, r.body, `<div class="draft-banner" role="status">`, "</div>")
	assert.Contains(t, banner, ">Draft</span>", "the banner says Draft in words, not colour alone")
	assert.Contains(t, banner, "not been approved")
	assert.Contains(t, r.body, "<dd>Draft, not yet approved</dd>")
	assert.Contains(t, r.body, "<title>Draft: ")
	assert.Contains(t, r.body, `<meta name="robots" content="noindex">`)
	assert.Equal(t, "no-cache", r.header.Get("Cache-Control"), "caches must revalidate a draft every time")

	approved, _ := h.demoMinutes(pagetest.PlainApproved)
	r = h.fetchPage("", pagetest.MinutesPath(approved.ID), nil)
	require.Equal(t, http.StatusOK, r.status)
	assert.Equal(t, "public, max-age=60", r.header.Get("Cache-Control"))
}

// assertNotFoundPage checks a friendly 404 (pagetest.AssertNotFound).
func assertNotFoundPage(t *testing.T, r pageResponse) {
	t.Helper()
	pagetest.AssertNotFound(t, r.status, r.header, r.body)
}

func TestMinutesPageHidesEverythingButPublishedMinutes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	hidden := func(status string) (string, string) {
		m, min := h.demoMinutes(func(m recordstest.Minutes) bool { return m.Status == status })
		return m.ID, min.Body
	}
	draftID, draftBody := hidden("draft")
	reviewID, reviewBody := hidden("in_review")
	var future recordstest.Meeting
	for _, m := range h.data.Meetings {
		if m.Date.After(h.now) {
			future = m
		}
	}
	require.NotEmpty(t, future.ID, "the dataset has meetings to come")

	tests := []struct {
		name, path, secret string
	}{
		{"draft minutes", pagetest.MinutesPath(draftID), firstLine(draftBody)},
		{"minutes in review", pagetest.MinutesPath(reviewID), firstLine(reviewBody)},
		{"a meeting without minutes", pagetest.MinutesPath(future.ID), ""},
		{"an unknown meeting", pagetest.MinutesPath("mtg_0000"), ""},
		{"an ID no record has", "/minutes/" + strings.Repeat("x", 300), ""},
		{"a dot segment", "/minutes/%2E%2E", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := h.fetchPage("", tt.path, nil)
			assertNotFoundPage(t, r)
			if tt.secret != "" {
				assert.NotContains(t, r.body, html.EscapeString(tt.secret))
			}
		})
	}
	assert.Zero(t, h.records.Count("", "/meetings/"+strings.Repeat("x", 300)), "an over-long ID costs no records call")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

func TestMinutesPageRecordsOutageIs503(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	clk := newOffsetClock()
	h.rebuild(withSite(func(o *minutespage.Options) { o.Now = clk.now }))
	m, _ := h.demoMinutes(pagetest.PlainApproved)
	h.records.InjectFault(recordstest.Fault{PathPrefix: "/meetings/", Status: http.StatusBadGateway})

	r := h.fetchPage("", pagetest.MinutesPath(m.ID), nil)
	assert.Equal(t, http.StatusServiceUnavailable, r.status)
	assert.Equal(t, "text/html; charset=utf-8", r.header.Get("Content-Type"))
	assert.Contains(t, r.body, "The minutes are unavailable just now")
	assert.Contains(t, r.body, "try again in a minute")
	assert.Equal(t, "no-store", r.header.Get("Cache-Control"))
	assert.Equal(t, "30", r.header.Get("Retry-After"))
	pagetest.AssertHeaders(t, r.header)

	// The failure is kept only for a moment, so a burst during an outage
	// is not multiplied by retries; once the records are back and the
	// moment has passed, so is the page.
	h.records.ClearFaults()
	h.records.ResetRequests()
	r = h.fetchPage("", pagetest.MinutesPath(m.ID), nil)
	assert.Equal(t, http.StatusServiceUnavailable, r.status, "within OutageTTL")
	assert.Zero(t, h.records.Count("", ""), "the outage answer is kept for a moment")
	clk.add(minutes.OutageTTL)
	r = h.fetchPage("", pagetest.MinutesPath(m.ID), nil)
	assert.Equal(t, http.StatusOK, r.status)
}

// offsetClock is the real clock moved forward by a test, so signed Slack
// requests still verify while cached answers age.
type offsetClock struct{ offset atomic.Int64 }

func newOffsetClock() *offsetClock { return &offsetClock{} }

func (c *offsetClock) now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

func (c *offsetClock) add(d time.Duration) { c.offset.Add(int64(d)) }

func TestMinutesPageConditionalRequestsAndHEAD(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m, _ := h.demoMinutes(pagetest.PlainApproved)
	path := pagetest.MinutesPath(m.ID)

	first := h.fetchPage("", path, nil)
	require.Equal(t, http.StatusOK, first.status)
	tag := first.header.Get("ETag")
	require.Regexp(t, `^"[0-9a-f]{32}"$`, tag, "a strong ETag")
	again := h.fetchPage("", path, nil)
	assert.Equal(t, tag, again.header.Get("ETag"), "the same page has the same ETag")
	assert.Equal(t, first.body, again.body)

	tests := []struct {
		name        string
		ifNoneMatch string
		want        int
	}{
		{"the current tag", tag, http.StatusNotModified},
		{"the tag in a list", `"0123", ` + tag, http.StatusNotModified},
		{"the tag, weak", "W/" + tag, http.StatusNotModified},
		{"any tag", "*", http.StatusNotModified},
		{"another tag", `"0123456789abcdef0123456789abcdef"`, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := h.fetchPage("", path, http.Header{"If-None-Match": {tt.ifNoneMatch}})
			assert.Equal(t, tt.want, r.status)
			assert.Equal(t, tag, r.header.Get("ETag"))
			if tt.want == http.StatusNotModified {
				assert.Empty(t, r.body)
				pagetest.AssertHeaders(t, r.header)
			} else {
				assert.Equal(t, first.body, r.body)
			}
		})
	}

	head := h.fetchPage(http.MethodHead, path, nil)
	assert.Equal(t, http.StatusOK, head.status)
	assert.Empty(t, head.body)
	assert.Equal(t, strconv.Itoa(len(first.body)), head.header.Get("Content-Length"))
	assert.Equal(t, tag, head.header.Get("ETag"))
	pagetest.AssertHeaders(t, head.header)

	missing := h.fetchPage(http.MethodHead, pagetest.MinutesPath("mtg_0000"), nil)
	assert.Equal(t, http.StatusNotFound, missing.status)
	assert.Empty(t, missing.body)

	other, _ := h.demoMinutes(func(min recordstest.Minutes) bool { return pagetest.PlainApproved(min) && min.MeetingID != m.ID })
	assert.NotEqual(t, tag, h.fetchPage("", pagetest.MinutesPath(other.ID), nil).header.Get("ETag"), "another page, another ETag")
}

func TestMinutesPageBurstIsOneRecordsLoad(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m, _ := h.demoMinutes(pagetest.PlainApproved)
	// Slow records make the requests overlap, as in a busy channel.
	h.records.InjectFault(recordstest.Fault{PathPrefix: "/meetings/", Latency: 100 * time.Millisecond})

	const readers = 50
	var wg sync.WaitGroup
	results := make([]pageResponse, readers)
	for i := range readers {
		wg.Go(func() { results[i] = h.fetchPage("", pagetest.MinutesPath(m.ID), nil) })
	}
	wg.Wait()
	for i, r := range results {
		assert.Equal(t, http.StatusOK, r.status, "reader %d", i)
		assert.Equal(t, results[0].header.Get("ETag"), r.header.Get("ETag"), "reader %d", i)
	}
	assert.LessOrEqual(t, h.records.Count(http.MethodGet, "/meetings/"), 2, "one meeting and one minutes call serve all %d readers", readers)
}

func TestMinutesPageKeepsTheRecordsAgendaNumbers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m, _ := h.demoMinutes(pagetest.PlainApproved)
	// A records service that numbers items as people do: the meeting
	// comes first (then the minutes, unfaulted).
	h.records.InjectFault(recordstest.Fault{
		Method: http.MethodGet, PathPrefix: "/meetings/" + m.ID, Times: 1,
		Body: `{"data":{"id":"` + m.ID + `","title":"Numbered by hand","agenda":[` +
			`{"number":"4a","title":"First part"},{"number":"4b","title":"Second part"},{"title":"Unnumbered"}]}}`,
	})
	r := h.fetchPage("", pagetest.MinutesPath(m.ID), nil)
	require.Equal(t, http.StatusOK, r.status, r.body)
	agenda := pagetest.Between(t, r.body, `<nav class="agenda"`, "</nav>")
	assert.Contains(t, agenda, `<ol class="own-numbers">`, "no list numbers of its own")
	assert.Contains(t, agenda, `<li><span class="agenda-number">4a</span> <span class="agenda-title">First part</span>`)
	assert.Contains(t, agenda, `<li><span class="agenda-number">4b</span> <span class="agenda-title">Second part</span>`)
	assert.Contains(t, agenda, `<li><span class="agenda-title">Unnumbered</span>`)
	assert.NotContains(t, agenda, "value=")
}

func TestMinutesPageIDsAreEscapedPathSegments(t *testing.T) {
	t.Parallel()
	const id = "mtg/2026 ü%1"
	h := newHarness(t, withDataset(func(d *recordstest.Dataset) {
		d.Meetings = append(d.Meetings, recordstest.Meeting{ID: id, Title: "Odd ID meeting", Committee: "Finance"})
		d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: id, Status: "approved", Body: "Odd minutes."})
	}))
	r := h.fetchPage("", pagetest.MinutesPath(id), nil)
	require.Equal(t, http.StatusOK, r.status, r.body)
	assert.Contains(t, r.body, "Odd ID meeting")
	assert.Contains(t, r.body, "Odd minutes.")
	assert.NotContains(t, r.body, "<dt>Date</dt>", "a meeting without a date shows none")
}

// An unknown meeting, or one whose minutes are hidden, is one records
// lookup for HiddenTTL however often it is asked for, and concurrent asks
// share one lookup.
func TestMinutesPageUnknownAndHiddenAreLookedUpOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	clk := newOffsetClock()
	h.rebuild(withSite(func(o *minutespage.Options) { o.Now = clk.now }))
	hidden, _ := h.demoMinutes(func(min recordstest.Minutes) bool { return min.Status == "draft" })
	// Slow records make the first requests overlap.
	h.records.InjectFault(recordstest.Fault{PathPrefix: "/meetings/", Latency: 50 * time.Millisecond})

	for _, id := range []string{"mtg_unknown", hidden.ID} {
		h.records.ResetRequests()
		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() { assertNotFoundPage(t, h.fetchPage("", pagetest.MinutesPath(id), nil)) })
		}
		wg.Wait()
		for range 180 {
			assertNotFoundPage(t, h.fetchPage("", pagetest.MinutesPath(id), nil))
		}
		assert.LessOrEqual(t, h.records.Count(http.MethodGet, "/meetings/"), 2, "200 hits on %s: one lookup (meeting, minutes)", id)
	}
	assert.Zero(t, h.records.Count(http.MethodGet, "/meetings/mtg_unknown"), "an ID not in the meetings list: no lookup at all")

	// Past HiddenTTL the meeting is looked up again.
	clk.add(minutes.HiddenTTL)
	h.records.ResetRequests()
	assertNotFoundPage(t, h.fetchPage("", pagetest.MinutesPath(hidden.ID), nil))
	assert.Equal(t, 2, h.records.Count(http.MethodGet, "/meetings/"+hidden.ID), "the meeting and its minutes, once")
}
