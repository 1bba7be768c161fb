package minutespage_test

import (
	"context"
	"fmt"
	"github.com/recordsbot/recordsbot/internal/atomtest"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/bot/minutespage"
	"github.com/recordsbot/recordsbot/internal/pagetest"
	"github.com/recordsbot/recordsbot/minutes"
)

// entryLinkRE finds the meetings an archive page lists, in order.
var entryLinkRE = regexp.MustCompile(`<h3 class="entry-title"><a href="minutes/([^"]+)">`)

// nextLinkRE finds the archive's "Older minutes" link.
var nextLinkRE = regexp.MustCompile(`<a rel="next" href="([^"]+)">`)

// archiveIDs returns the meeting IDs an archive page lists and its next
// page's path ("" on the last).
func archiveIDs(t *testing.T, body string) (ids []string, next string) {
	t.Helper()
	for _, m := range entryLinkRE.FindAllStringSubmatch(body, -1) {
		id, err := url.PathUnescape(m[1])
		require.NoError(t, err)
		ids = append(ids, id)
	}
	if m := nextLinkRE.FindStringSubmatch(body); m != nil {
		next = "/minutes" + strings.ReplaceAll(m[1], "&amp;", "&")
	}
	return ids, next
}

// withAuditHistory adds 30 past Audit meetings, each with approved
// minutes, a day apart, and one whose minutes are in review.
func withAuditHistory() harnessOption {
	return withDataset(func(d *recordstest.Dataset) {
		start := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -40)
		for i := range 30 {
			id := fmt.Sprintf("mtg_audit_%02d", i)
			d.Meetings = append(d.Meetings, recordstest.Meeting{ID: id, Title: fmt.Sprintf("Audit meeting %d", i), Committee: "Audit", Date: start.AddDate(0, 0, i).Add(18 * time.Hour)})
			d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: id, Status: "approved", Body: fmt.Sprintf("# Audit %d\n\nThe accounts were **approved**.", i), UpdatedAt: start.AddDate(0, 0, i+2)})
		}
		d.Meetings = append(d.Meetings, recordstest.Meeting{ID: "mtg_audit_hidden", Title: "Audit, in review", Committee: "Audit", Date: start.AddDate(0, 0, 35)})
		d.Minutes = append(d.Minutes, recordstest.Minutes{MeetingID: "mtg_audit_hidden", Status: "in_review", Body: "Not yet."})
	})
}

// walkArchive follows the archive from path to its last page.
func (h *harness) walkArchive(t *testing.T, path string) (ids []string, pages int) {
	t.Helper()
	for path != "" && pages < 20 {
		r := h.fetchPage("", path, nil)
		require.Equal(t, http.StatusOK, r.status, r.body)
		pagetest.AssertHeaders(t, r.header)
		pagetest.AssertNoActiveContent(t, r.body)
		got, next := archiveIDs(t, r.body)
		assert.LessOrEqual(t, len(got), minutes.ArchivePageSize)
		ids = append(ids, got...)
		path, pages = next, pages+1
	}
	return ids, pages
}

func TestMinutesArchiveListsEveryPublishedMinutesNewestFirst(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withAuditHistory())
	ids, pages := h.walkArchive(t, "/minutes")
	assert.Greater(t, pages, 1, "the archive is paged")
	want := pagetest.VisibleIDs(t, h.data, "")
	seen := map[string]bool{}
	var last time.Time
	for _, id := range ids {
		assert.False(t, seen[id], "%s listed twice", id)
		seen[id] = true
		m := pagetest.FindMeeting(h.t, h.data, id)
		if !m.Date.IsZero() {
			assert.False(t, !last.IsZero() && m.Date.After(last), "%s (%s) after a newer one", id, m.Date)
			last = m.Date
		}
	}
	assert.Equal(t, want, seen, "every published minutes, nothing else (no hidden, no future)")
	assert.False(t, seen["mtg_audit_hidden"])
}

func TestMinutesArchiveFiltersByCommittee(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withAuditHistory())
	first := h.fetchPage("", "/minutes?committee=audit", nil)
	require.Equal(t, http.StatusOK, first.status)
	assert.Contains(t, first.body, "<h1 id=\"archive-title\">Audit minutes</h1>")
	assert.Contains(t, first.body, `href="minutes/feed.atom?committee=Audit"`, "the committee's feed is offered")
	ids, _ := h.walkArchive(t, "/minutes?committee=audit")
	got := map[string]bool{}
	for _, id := range ids {
		got[id] = true
	}
	assert.Equal(t, pagetest.VisibleIDs(t, h.data, "Audit"), got, "the committee, matched however it is spelt, and only it")
	assert.Len(t, ids, 30)
}

// An empty page that is not the last does not say there are none: the
// archive reads a bounded number of meetings a page, so a committee whose
// minutes are older may yet have some.
func TestMinutesArchiveEmptyPageWithOlder(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withAuditHistory())
	r := h.fetchPage("", "/minutes?committee=nosuch", nil)
	require.Equal(t, http.StatusNotFound, r.status, "no committee with recent minutes")
	ids, next := archiveIDs(t, r.body)
	require.Empty(t, ids)
	require.NotEmpty(t, next, "the history is longer than one page reads")
	assert.Contains(t, r.body, "No committee called “nosuch” has published minutes among the most recent meetings")
	assert.Contains(t, next, "committee=nosuch")
	assert.NotContains(t, r.body, "have been published", "an older page may have some")
}

func TestMinutesArchiveShowsTheOrganisationAndApprovalDates(t *testing.T) {
	t.Parallel()
	london, err := time.LoadLocation("Europe/London")
	require.NoError(t, err)
	// The organisation's time zone (RECORDS_TIMEZONE): bot passes the
	// action domain's, the one serve builds.
	h := newHarness(t, withAuditHistory(), withOrgName("Riverside & Co Trust"), withSite(func(o *minutespage.Options) { o.Zone = london }))
	r := h.fetchPage("", "/minutes?committee=Audit", nil)
	require.Equal(t, http.StatusOK, r.status)
	assert.Contains(t, r.body, `<span class="org-name">Riverside &amp; Co Trust</span>`)
	assert.Contains(t, r.body, `<p class="print-org">Riverside &amp; Co Trust · Committee minutes</p>`, "the organisation is named in print too")
	assert.Contains(t, r.body, `<link rel="alternate" type="application/atom+xml" href="minutes/feed.atom?committee=Audit"`, "the page offers its feed")
	assert.Contains(t, r.body, `<link rel="stylesheet" href="minutes/assets/style.css?v=`, "the stylesheet, relative to /minutes")
	assert.Contains(t, r.body, "approved on <time")
	assert.Contains(t, r.body, "The accounts were approved.", "an excerpt of the minutes, as text")

	page := h.fetchPage("", pagetest.MinutesPath("mtg_audit_29"), nil)
	require.Equal(t, http.StatusOK, page.status)
	assert.Contains(t, page.body, "Approved on <time")
	assert.Regexp(t, `<span class="clock">18:00 (GMT|BST)</span>`, page.body, "times in RECORDS_TIMEZONE")
	assert.Contains(t, page.body, `<a href="../minutes">All minutes</a>`)
}

func TestMinutesArchiveRefusesCursorsItDidNotMake(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	assertNotFoundPage(t, h.fetchPage("", "/minutes?after=not-a-cursor", nil))
}

func TestMinutesArchiveSearchBox(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := h.fetchPage("", "/minutes?q=insurance", nil)
	require.Equal(t, http.StatusOK, r.status)
	assert.Contains(t, r.body, `<form class="archive-search" method="get" action="" role="search">`, "a search box that works without script")
	assert.Contains(t, html.UnescapeString(r.body), "Search isn't available here yet", "without a search, the archive says so")
	assert.Contains(t, r.header.Get("Content-Security-Policy"), "form-action 'self'", "the CSP lets the search box submit to the bot only")

	var asked string
	h.rebuild(withSite(func(o *minutespage.Options) {
		o.Search = func(_ context.Context, typed string) ([]minutespage.SearchHit, error) {
			asked = typed
			return []minutespage.SearchHit{{
				MeetingID: "mtg/1", Title: "Finance <b>", Committee: "Finance", Date: time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC),
				Snippet: []minutespage.SnippetPart{{Text: "renewed the "}, {Text: "insurance", Match: true}, {Text: " <script>"}},
			}}, nil
		}
	}))
	r = h.fetchPage("", "/minutes?q="+url.QueryEscape(`insurance "open`), nil)
	require.Equal(t, http.StatusOK, r.status)
	assert.Equal(t, `insurance "open`, asked, "the search gets the text as typed")
	assert.Contains(t, r.body, `<a href="minutes/mtg%2F1">Finance &lt;b&gt;</a>`)
	assert.Contains(t, r.body, "renewed the <mark>insurance</mark> &lt;script&gt;")
	pagetest.AssertNoActiveContent(t, r.body)

	h.rebuild(withSite(func(o *minutespage.Options) {
		o.Search = func(context.Context, string) ([]minutespage.SearchHit, error) { return nil, nil }
	}))
	r = h.fetchPage("", "/minutes?q=zebra", nil)
	assert.Contains(t, r.body, "No published minutes mention “zebra”.")
}

func TestMinutesFeedIsAtom(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withAuditHistory(), withOrgName("Riverside Trust"))
	r := h.fetchPage("", "/minutes/feed.atom", nil)
	require.Equal(t, http.StatusOK, r.status, r.body)
	assert.Equal(t, "application/atom+xml; charset=utf-8", r.header.Get("Content-Type"))
	f := atomtest.Parse(t, r.body)
	assert.Equal(t, "Riverside Trust: Committee minutes", f.Title)
	assert.Equal(t, "Riverside Trust", f.Authors[0].Name)
	require.NotEmpty(t, f.Entries)
	assert.LessOrEqual(t, len(f.Entries), minutes.ArchivePageSize)
	drafts := 0
	for _, e := range f.Entries {
		require.True(t, strings.HasPrefix(e.ID, "https://records-bot.example.org/minutes/"), e.ID)
		id, err := url.PathUnescape(strings.TrimPrefix(e.ID, "https://records-bot.example.org/minutes/"))
		require.NoError(t, err)
		assert.Equal(t, e.ID, e.Links[0].Href, "an entry links to its page on the bot")
		var min recordstest.Minutes
		for _, m := range h.data.Minutes {
			if m.MeetingID == id {
				min = m
			}
		}
		if !min.UpdatedAt.IsZero() {
			assert.Equal(t, min.UpdatedAt.UTC().Format(time.RFC3339), e.Updated, "updated is when the minutes were approved")
		}
		if min.Status == "published_draft" {
			drafts++
			assert.True(t, strings.HasPrefix(e.Title, "Draft: "), "a draft says so: %q", e.Title)
			assert.Equal(t, "draft", e.Categories[0].Term)
		} else {
			assert.Equal(t, "approved", e.Categories[0].Term)
		}
	}

	one := atomtest.Parse(t, h.fetchPage("", "/minutes/feed.atom?committee=Audit", nil).body)
	assert.Equal(t, "Riverside Trust: Audit minutes", one.Title)
	for _, e := range one.Entries {
		assert.Contains(t, e.Title, "Audit meeting")
		assert.Contains(t, e.Summary, "The accounts were approved.", "the summary is the minutes as text")
	}
}

// With PUBLIC_MINUTES=false every public page answers 404 and reads
// nothing from the records.
func TestPublicMinutesOffHidesEveryPage(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withMinutes(func(c *minutes.Config) { c.Public = false }))
	m, _ := h.demoMinutes(pagetest.PlainApproved)
	calls := h.records.Count("", "")
	for _, path := range []string{"/minutes", "/minutes?committee=Finance", "/minutes?q=budget", "/minutes/feed.atom",
		"/minutes/feed.atom?committee=Finance", pagetest.MinutesPath(m.ID), "/accessibility"} {
		r := h.fetchPage("", path, nil)
		assertNotFoundPage(t, r)
		pagetest.AssertHeaders(t, r.header)
		assert.Equal(t, http.StatusNotFound, h.fetchPage(http.MethodHead, path, nil).status, "HEAD %s", path)
	}
	assert.Equal(t, calls, h.records.Count("", ""), "pages that are off make no records call")
}

// The archive and the feed resolve ?committee= as Slack does
// (minutes.MatchCommittee): exact, else a unique prefix in any case; a
// prefix is redirected to the committee's own address.
func TestMinutesArchiveCommitteeByPrefix(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	want := pagetest.VisibleIDs(t, h.data, "Finance")
	require.NotEmpty(t, want)
	for name, typed := range map[string]string{"prefix": "fin", "upper case, spaces": "FIN ", "whole name": "Finance", "other case": "finance"} {
		r := h.fetchPage("", "/minutes?committee="+url.QueryEscape(typed), nil)
		require.Equal(t, http.StatusOK, r.status, name)
		assert.Contains(t, r.body, `<h1 id="archive-title">Finance minutes</h1>`, name)
		assert.Contains(t, r.body, `<option value="Finance" selected>Finance</option>`, "%s: the menu selects the committee", name)
		assert.Contains(t, r.body, `href="minutes/feed.atom?committee=Finance"`, "%s: the feed link is canonical", name)
		ids, _ := archiveIDs(t, r.body)
		require.NotEmpty(t, ids, name)
		for _, id := range ids {
			assert.True(t, want[id], "%s: %s is Finance's", name, id)
		}
	}

	// The redirect itself: 302 to the canonical address, other parameters kept.
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, h.http.URL+"/minutes?committee=FIN+&q=budget", nil)
	require.NoError(t, err)
	client := *h.http.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusFound, resp.StatusCode)
	assert.Equal(t, "?committee=Finance&q=budget", resp.Header.Get("Location"))

	f := atomtest.Parse(t, h.fetchPage("", "/minutes/feed.atom?committee=fin", nil).body)
	assert.Equal(t, "Finance minutes", f.Title)
	require.NotEmpty(t, f.Entries)
	for _, l := range f.Links {
		if l.Rel == "self" {
			assert.Equal(t, "https://records-bot.example.org/minutes/feed.atom?committee=Finance", l.Href)
		}
	}
	for _, e := range f.Entries {
		id, err := url.PathUnescape(strings.TrimPrefix(e.ID, "https://records-bot.example.org/minutes/"))
		require.NoError(t, err)
		assert.True(t, want[id], "feed entry %s is Finance's", id)
	}
}

func TestMinutesArchiveAmbiguousCommittee(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withDataset(pagetest.AddFineArts))
	r := h.fetchPage("", "/minutes?committee=fin", nil)
	require.Equal(t, http.StatusOK, r.status, r.body)
	assert.Contains(t, html.UnescapeString(r.body), "“fin” is the start of several committees' names")
	assert.Contains(t, r.body, `<a href="minutes?committee=Finance">Finance minutes</a>`)
	assert.Contains(t, r.body, `<a href="minutes?committee=Fine%20Arts">Fine Arts minutes</a>`)
	ids, _ := archiveIDs(t, r.body)
	assert.Empty(t, ids, "nothing listed until one is picked")

	fa := h.fetchPage("", "/minutes?committee=fine", nil)
	require.Equal(t, http.StatusOK, fa.status)
	assert.Contains(t, fa.body, `<h1 id="archive-title">Fine Arts minutes</h1>`)

	feed := h.fetchPage("", "/minutes/feed.atom?committee=fin", nil)
	assert.Equal(t, http.StatusNotFound, feed.status, "an ambiguous feed is no feed")
}

func TestMinutesArchiveUnknownCommittee(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := h.fetchPage("", "/minutes?committee=nosuch", nil)
	require.Equal(t, http.StatusNotFound, r.status, r.body)
	assert.Contains(t, r.body, "No committee called “nosuch” has published minutes")
	assert.Contains(t, r.body, `<a href="minutes">See all the minutes</a>`)
	assert.Contains(t, r.body, `<h1 id="archive-title">Minutes</h1>`)
	pagetest.AssertHeaders(t, r.header)

	feed := h.fetchPage("", "/minutes/feed.atom?committee=nosuch", nil)
	assert.Equal(t, http.StatusNotFound, feed.status)
}

// TestMinutesArchiveWithATrailingSlash: /minutes/ is the archive typed
// with a slash; it is sent on to /minutes, its query kept, not answered
// 404.
func TestMinutesArchiveWithATrailingSlash(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	client := *h.http.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, h.http.URL+"/minutes/?committee=Finance", nil)
	require.NoError(t, err)
	resp, err := client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode)
	loc, err := resp.Location()
	require.NoError(t, err)
	assert.Equal(t, "/minutes?committee=Finance", loc.RequestURI())

	r := h.fetchPage("", "/minutes/", nil)
	assert.Equal(t, http.StatusOK, r.status)
	assert.Contains(t, r.body, `<h1 id="archive-title">Minutes</h1>`)
}

// TestMinutesTopicFeed: /minutes/feed.atom?q= is a topic as a feed: the
// archive search's hits, newest first, titled with the words; no search
// index answers 404.
func TestMinutesTopicFeed(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)
	var asked string
	h := newHarness(t, withOrgName("Riverside Trust"), withSite(func(o *minutespage.Options) {
		o.Search = func(_ context.Context, typed string) ([]minutespage.SearchHit, error) {
			asked = typed
			return []minutespage.SearchHit{
				{MeetingID: "mtg_old", Title: "Finance, March", Committee: "Finance", Date: day,
					Snippet: []minutespage.SnippetPart{{Text: "the "}, {Text: "library levy", Match: true}, {Text: " was set"}}},
				{MeetingID: "mtg_new", Title: "Library Trustees <b>", Committee: "Library", Date: day.AddDate(0, 1, 0), Draft: true},
			}, nil
		}
	}))
	r := h.fetchPage("", "/minutes/feed.atom?q="+url.QueryEscape(`"library levy"`), nil)
	require.Equal(t, http.StatusOK, r.status, r.body)
	assert.Equal(t, `"library levy"`, asked, "the words as typed, to the one search")
	f := atomtest.Parse(t, r.body)
	assert.Equal(t, `Riverside Trust: Minutes mentioning "library levy"`, f.Title)
	require.Len(t, f.Entries, 2)
	assert.Equal(t, "Draft: Library Trustees <b>", f.Entries[0].Title, "newest first; text is text")
	assert.Equal(t, "https://records-bot.example.org/minutes/mtg_old", f.Entries[1].ID)
	assert.Equal(t, "the library levy was set", f.Entries[1].Summary)

	h.rebuild(withSite(func(o *minutespage.Options) { o.Search = nil }))
	assert.Equal(t, http.StatusNotFound, h.fetchPage("", "/minutes/feed.atom?q=levy", nil).status)
}
