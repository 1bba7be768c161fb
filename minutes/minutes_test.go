package minutes_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/minutes"
)

var now = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

// world is a records service with a few committees' meetings: approved,
// draft, hidden and future minutes.
func world(t *testing.T) (*recordstest.Server, *apiclient.Client) {
	t.Helper()
	day := func(n int) time.Time { return now.AddDate(0, 0, n) }
	srv := recordstest.NewServer(recordstest.WithClock(func() time.Time { return now }), recordstest.WithDataset(recordstest.Dataset{
		Meetings: []recordstest.Meeting{
			{ID: "fin-3", Title: "Finance, December", Committee: "Finance", Date: day(10)},
			{ID: "fin-2", Title: "Finance, November", Committee: "Finance ", Date: day(-2)},
			{ID: "fin-1", Title: "Finance, October", Committee: "finance", Date: day(-30)},
			{ID: "gov-1", Title: "Governance, November", Committee: "Governance", Date: day(-5)},
			{ID: "hr-1", Title: "HR, November", Committee: "HR", Date: day(-6)},
			{ID: "undated", Title: "Undated", Committee: "Audit"},
		},
		Minutes: []recordstest.Minutes{
			{MeetingID: "fin-3", Status: "approved", Body: "From the future."},
			{MeetingID: "fin-2", Status: "in_review", Body: "Hidden."},
			{MeetingID: "fin-1", Status: "approved", Body: "October's minutes.", URL: "https://records.example.org/fin-1"},
			{MeetingID: "gov-1", Status: "published_draft", Body: "<p>Draft <b>text</b></p><p>Second</p>", HTML: true},
			{MeetingID: "undated", Status: "approved", Body: "Undated.", UpdatedAt: day(-1)},
		},
	}))
	t.Cleanup(srv.Close)
	rc, err := apiclient.NewClient(srv.URL, recordstest.DefaultKey)
	require.NoError(t, err)
	return srv, rc
}

func TestCommitteeKey(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"Finance", "finance", " Finance ", "FINANCE\t"} {
		assert.Equal(t, "finance", minutes.CommitteeKey(name), "CommitteeKey(%q)", name)
	}
	assert.True(t, minutes.CommitteeMatches(" Finance", "fin"))
	assert.True(t, minutes.CommitteeMatches("Finance", ""))
	assert.False(t, minutes.CommitteeMatches("Finance", "gov"))
}

func TestURLs(t *testing.T) {
	t.Parallel()
	on := minutes.New(nil, minutes.Config{PublicURL: "https://bot.example.org/rb/", Public: true})
	off := minutes.New(nil, minutes.Config{PublicURL: "https://bot.example.org/rb/"})
	own := &apiclient.Minutes{URL: "https://records.example.org/m/1"}

	assert.Equal(t, "https://bot.example.org/rb/minutes/a%2Fb", on.PageURL("a/b"))
	assert.Equal(t, "", off.PageURL("a/b"), "no pages, no links to them")
	// The one link rule: the bot's page while it serves them, else the
	// record's own URL, else none.
	assert.Equal(t, "https://bot.example.org/rb/minutes/m1", on.URL("m1", own), "the bot's page, known to work for whoever reads it, before the record's URL")
	assert.Equal(t, "https://bot.example.org/rb/minutes/m1", on.URL("m1", &apiclient.Minutes{}))
	assert.Equal(t, "https://bot.example.org/rb/minutes/m1", on.URL("m1", nil))
	assert.Equal(t, own.URL, off.URL("m1", own), "no pages: the record's own URL")
	assert.Equal(t, "", off.URL("m1", &apiclient.Minutes{}))
	assert.Equal(t, "", off.URL("m1", nil))

	id, ok := on.PageID(on.PageURL("a/b"))
	assert.True(t, ok)
	assert.Equal(t, "a/b", id, "a page's link names its meeting")
	for _, link := range []string{
		"https://elsewhere.example.org/rb/minutes/m1",
		"https://bot.example.org/minutes/m1",
		"https://bot.example.org/rb/minutes/",
		"https://bot.example.org/rb/minutes/m1/more",
	} {
		_, ok := on.PageID(link)
		assert.False(t, ok, "PageID(%q)", link)
	}
}

func TestGetIsCachedAndVisibleOnly(t *testing.T) {
	t.Parallel()
	srv, rc := world(t)
	svc := minutes.New(rc, minutes.Config{Now: func() time.Time { return now }})

	e, err := svc.Get(t.Context(), "fin-1")
	require.NoError(t, err)
	require.NotNil(t, e.Minutes)
	assert.Equal(t, "October's minutes.", e.Minutes.Body)
	_, err = svc.Get(t.Context(), "fin-1")
	require.NoError(t, err)
	assert.Equal(t, 1, srv.Count(http.MethodGet, "/meetings/fin-1/minutes"), "one records call per TTL")

	e, err = svc.Get(t.Context(), "fin-2")
	require.NoError(t, err)
	assert.Nil(t, e.Minutes, "minutes in review are never shown")
	assert.Equal(t, "Finance, November", e.Meeting.Title)

	_, err = svc.Read(t.Context(), "nope")
	assert.ErrorIs(t, err, apiclient.ErrNotFound)
}

func TestLatest(t *testing.T) {
	t.Parallel()
	_, rc := world(t)
	svc := minutes.New(rc, minutes.Config{Now: func() time.Time { return now }})

	e, seen, err := svc.Latest(t.Context(), "fin")
	require.NoError(t, err)
	require.NotNil(t, e.Meeting)
	assert.Equal(t, "fin-1", e.Meeting.ID, "the future meeting and the hidden minutes are skipped")
	assert.Equal(t, 2, seen)

	e, _, err = svc.Latest(t.Context(), "")
	require.NoError(t, err)
	assert.Equal(t, "gov-1", e.Meeting.ID)

	e, seen, err = svc.Latest(t.Context(), "hr")
	require.NoError(t, err)
	assert.Nil(t, e.Meeting)
	assert.Equal(t, 1, seen)

	all, err := svc.LatestPerCommittee(t.Context())
	require.NoError(t, err)
	var ids []string
	for _, e := range all {
		ids = append(ids, e.Meeting.ID)
	}
	assert.Equal(t, []string{"undated", "gov-1", "fin-1"}, ids,
		"one per committee (however the records spell it), newest first, an undated meeting by its minutes' date")
}

func TestView(t *testing.T) {
	t.Parallel()
	_, rc := world(t)
	svc := minutes.New(rc, minutes.Config{PublicURL: "https://bot.example.org", Public: true, Now: func() time.Time { return now }})

	e, err := svc.Read(t.Context(), "undated")
	require.NoError(t, err)
	v := svc.View(e)
	assert.Equal(t, now.AddDate(0, 0, -1), v.Date.UTC(), "a meeting without a date shows the minutes' own")
	assert.True(t, v.DateHasTime)
	assert.Equal(t, "https://bot.example.org/minutes/undated", v.URL)

	e, err = svc.Read(t.Context(), "gov-1")
	require.NoError(t, err)
	v = svc.View(e)
	assert.True(t, v.Draft)
	assert.Equal(t, "Governance, November", v.Title)
	assert.Equal(t, "Governance", v.Committee)
	assert.Equal(t, apiclient.FormatHTML, v.Format, "blocks writes HTML minutes as Slack text")
	assert.Equal(t, "Draft *text*\n\nSecond", blocks.Mrkdwn(v.Body, v.Format, 0), "HTML minutes read as Slack text")
}
