package calendar_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/calendar"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackusers"
	"github.com/recordsbot/recordsbot/minutes"
	"github.com/recordsbot/recordsbot/publication"
	"github.com/recordsbot/recordsbot/store"
)

// now is when the calendar tests run.
var now = time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC)

// clock is a clock the test moves.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

// env is the calendar over the minutes domain over the in-memory records
// service, as wire builds it.
type env struct {
	records *recordstest.Server
	rc      *apiclient.Client
	clock   *clock
	cal     *calendar.Service
	min     *minutes.Service
}

// dataset: two Finance meetings in the 90-day window (one to come, one
// past), one of Events, one Finance meeting before
// the window, and one with no date.
func dataset() recordstest.Dataset {
	return recordstest.Dataset{
		Meetings: []recordstest.Meeting{
			{ID: "M-1", Title: "Budget review", Committee: "Finance", Date: time.Date(2026, 11, 25, 17, 0, 0, 0, time.UTC), Location: "Room 2"},
			{ID: "M-2", Title: "Finance Committee, October", Committee: "Finance", Date: time.Date(2026, 10, 14, 0, 0, 0, 0, time.UTC)},
			{ID: "M-3", Title: "Summer fair", Committee: "Events", Date: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)},
			{ID: "M-4", Title: "Finance Committee, March", Committee: "Finance", Date: time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)},
			{ID: "M-5", Title: "To be arranged", Committee: "Finance"},
		},
		Minutes: []recordstest.Minutes{{MeetingID: "M-2", Status: "approved", Body: "Present: all."}},
	}
}

func newEnv(t *testing.T, cfg calendar.Config) *env {
	t.Helper()
	e := &env{clock: &clock{t: now}}
	e.records = recordstest.NewServer(recordstest.WithDataset(dataset()), recordstest.WithPageSize(2))
	t.Cleanup(e.records.Close)
	rc, err := apiclient.NewClient(e.records.URL, recordstest.DefaultKey)
	require.NoError(t, err)
	e.rc = rc
	cfg.Minutes = minutes.New(rc, minutes.Config{PublicURL: "https://bot.example.org", Public: true, Now: e.clock.Now})
	e.min = cfg.Minutes
	cfg.Now = e.clock.Now
	e.cal = calendar.New(cfg)
	t.Cleanup(e.cal.Wait)
	return e
}

var public = calendar.Config{Schedule: publication.Every(), PublicURL: "https://bot.example.org/", OrgName: "Hill Trust"}

// events are the UIDs of a feed's events, in order.
func events(body []byte) []string {
	var out []string
	for line := range strings.SplitSeq(string(body), "\r\n") {
		if uid, ok := strings.CutPrefix(line, "UID:"); ok {
			out = append(out, uid)
		}
	}
	return out
}

func TestAllIsTheWindowOldestFirst(t *testing.T) {
	t.Parallel()
	e := newEnv(t, public)
	// A reader has just read M-2's minutes: the minutes domain knows its
	// page shows them.
	_, err := e.min.Get(t.Context(), "M-2")
	require.NoError(t, err)
	f, err := e.cal.All(t.Context(), lang.English)
	require.NoError(t, err)
	assert.Equal(t, []string{"meeting-M-2@bot.example.org", "meeting-M-3@bot.example.org", "meeting-M-1@bot.example.org"}, events(f.Body),
		"oldest first; before the window and undated left out")
	body := string(f.Body)
	assert.Contains(t, body, "SUMMARY:Finance: Budget review\r\n", "the committee named when the title does not")
	assert.Contains(t, body, "SUMMARY:Finance Committee\\, October\r\n")
	assert.Contains(t, body, "DTSTART:20261125T170000Z\r\n")
	assert.Contains(t, body, "URL:https://bot.example.org/minutes/M-2\r\n", "the minutes domain's page")
	assert.Contains(t, body, "Hill Trust")
	assert.NotEmpty(t, f.ETag)

	again, err := e.cal.All(t.Context(), lang.English)
	require.NoError(t, err)
	assert.Equal(t, f.ETag, again.ETag)
	assert.Equal(t, f.Modified, again.Modified)
}

func TestCommitteeAndMeetingFeeds(t *testing.T) {
	t.Parallel()
	e := newEnv(t, public)
	ctx := t.Context()
	f, name, err := e.cal.Committee(ctx, "fin", lang.English)
	require.NoError(t, err)
	assert.Equal(t, "Finance", name, "a unique prefix, spelt as the records spell it")
	assert.Equal(t, []string{"meeting-M-2@bot.example.org", "meeting-M-1@bot.example.org"}, events(f.Body))

	_, _, err = e.cal.Committee(ctx, "Governance", lang.English)
	assert.ErrorIs(t, err, calendar.ErrNotFound, "no meeting in the window")

	f, err = e.cal.Meeting(ctx, "M-1", lang.English)
	require.NoError(t, err)
	assert.Equal(t, []string{"meeting-M-1@bot.example.org"}, events(f.Body))
	_, err = e.cal.Meeting(ctx, "M-4", lang.English)
	assert.ErrorIs(t, err, calendar.ErrNotFound, "before the window")

	assert.Equal(t, "https://bot.example.org/calendar.ics", e.cal.FeedURL(""))
	assert.Equal(t, "https://bot.example.org/calendar/Finance.ics", e.cal.FeedURL("Finance"))
	assert.Equal(t, "https://bot.example.org/calendar/meeting/M-1.ics", e.cal.AddURL(&apiclient.Meeting{ID: "M-1", Date: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)}))
	assert.Empty(t, e.cal.AddURL(&apiclient.Meeting{ID: "M-4", Date: time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)}), "no link to a meeting the feeds leave out")
}

func TestPublicFeedsOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t, calendar.Config{PublicURL: "https://bot.example.org"})
	ctx := t.Context()
	_, err := e.cal.All(ctx, lang.English)
	assert.ErrorIs(t, err, calendar.ErrNotFound)
	_, _, err = e.cal.Committee(ctx, "Finance", lang.English)
	assert.ErrorIs(t, err, calendar.ErrNotFound)
	_, err = e.cal.Meeting(ctx, "M-1", lang.English)
	assert.ErrorIs(t, err, calendar.ErrNotFound)
	assert.Empty(t, e.cal.FeedURL(""))
	assert.Empty(t, e.cal.AddURL(&apiclient.Meeting{ID: "M-1", Date: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)}))
	assert.Zero(t, e.records.Count(http.MethodGet, "/meetings"), "nothing read")
}

// The meetings are read through the minutes domain once per CacheTTL for
// every feed, and a feed is still served, as it was, while the records
// cannot be read.
func TestFeedsReadOncePerTTLAndOutliveAnOutage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, public)
	ctx := t.Context()
	first, err := e.cal.All(ctx, lang.English)
	require.NoError(t, err)
	_, _, err = e.cal.Committee(ctx, "Events", lang.English)
	require.NoError(t, err)
	_, err = e.cal.Meeting(ctx, "M-3", lang.English)
	require.NoError(t, err)
	pages := e.records.Count(http.MethodGet, "/meetings")
	assert.Equal(t, 2, pages, "the pages up to the first meeting before the window (two a page), read once for the three feeds")

	e.records.InjectFault(recordstest.Fault{Status: http.StatusServiceUnavailable})
	e.clock.add(calendar.DefaultCacheTTL + time.Minute)
	down, err := e.cal.All(ctx, lang.English)
	require.NoError(t, err)
	assert.Equal(t, first.Body, down.Body, "the feed as it was")
}

// slackWith is the fake Slack with alice, in Paris, speaking French.
func slackWith(t *testing.T) *slack.Client {
	t.Helper()
	fake := slacktest.NewServer(slacktest.WithUsers(slacktest.User{ID: "U0ALICE", Name: "alice", RealName: "Alice Adams", Email: "alice@example.org", TZ: "Europe/Paris", Locale: "fr-FR"}))
	t.Cleanup(fake.Close)
	return slack.New(slacktest.DefaultToken, slack.OptionAPIURL(fake.APIURL()))
}

// A person's private feed: their own dated actions still to do, in their
// language, from a token only their URL carries; a reset URL stops the
// old one.
func TestPrivateDeadlines(t *testing.T) {
	t.Parallel()
	e := newEnv(t, calendar.Config{PublicURL: "https://bot.example.org"})
	for _, a := range []recordstest.Action{
		{ID: "A-1", Title: "Circulate the accounts", Status: "open", AssigneeName: "Alice Adams", AssigneeEmail: "alice@example.org", Deadline: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), DateOnly: true},
		{ID: "A-2", Title: "Book the hall", Status: "in_progress", AssigneeName: "Alice Adams", AssigneeEmail: "alice@example.org", Deadline: time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)},
		{ID: "A-3", Title: "No date yet", Status: "open", AssigneeName: "Alice Adams", AssigneeEmail: "alice@example.org"},
		{ID: "A-4", Title: "Done already", Status: "complete", AssigneeName: "Alice Adams", AssigneeEmail: "alice@example.org", Deadline: time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC), DateOnly: true},
		{ID: "A-5", Title: "Bob's", Status: "open", AssigneeName: "Bob Brown", AssigneeEmail: "bob@example.org", Deadline: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), DateOnly: true},
	} {
		e.records.AddAction(a)
	}
	st, err := store.Open(t.Context(), "sqlite::memory:")
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	e.cal.EnablePrivate(calendar.Private{Key: []byte("test key"), Tokens: st,
		Actions: actions.New(e.rc, slackusers.Directory(slackWith(t)), actions.Config{Now: e.clock.Now})})
	require.True(t, e.cal.PrivateOn())
	ctx := context.WithoutCancel(t.Context())

	link, err := e.cal.EnsurePrivateURL(ctx, "U0ALICE")
	require.NoError(t, err)
	tok, ok := strings.CutPrefix(link, "https://bot.example.org/calendar/u/")
	require.True(t, ok, link)
	tok = strings.TrimSuffix(tok, ".ics")
	f, err := e.cal.Deadlines(ctx, tok)
	require.NoError(t, err)
	assert.Equal(t, []string{"action-A-2@bot.example.org", "action-A-1@bot.example.org"}, events(f.Body),
		"her dated actions still to do, soonest first")
	assert.NotContains(t, string(f.Body), "Bob's")

	_, err = e.cal.Deadlines(ctx, strings.Repeat("a", len(tok)))
	assert.ErrorIs(t, err, calendar.ErrNotFound, "a made-up token")
	reset, err := e.cal.ResetPrivateURL(ctx, "U0ALICE")
	require.NoError(t, err)
	assert.NotEqual(t, link, reset)
	_, err = e.cal.Deadlines(ctx, tok)
	assert.ErrorIs(t, err, calendar.ErrNotFound, "the old URL stops")
}

// One publication rule: a meeting the records mark cancelled, private,
// confidential or not public is in no feed and has no one-event calendar
// or "Add to calendar" link; PUBLIC_CALENDAR may name the committees whose
// schedules are published; and an event links only to a page that
// exists: no upcoming meeting's, no meeting's whose minutes are not known
// to be shown.
func TestPublicFeedsFollowThePublicationRule(t *testing.T) {
	t.Parallel()
	no := false
	marked := []recordstest.Meeting{
		{ID: "X-cancelled", Title: "Cancelled", Committee: "Finance", Date: now.AddDate(0, 0, 3), Status: "cancelled", Visibility: "private"},
		{ID: "X-confidential", Title: "Confidential", Committee: "Finance", Date: now.AddDate(0, 0, 4), Confidential: true},
		{ID: "X-restricted", Title: "Restricted", Committee: "Finance", Date: now.AddDate(0, 0, 5), Visibility: "members-only"},
		{ID: "X-notpublic", Title: "Not public", Committee: "Events", Date: now.AddDate(0, 0, 6), Public: &no},
	}
	newMarked := func(cfg calendar.Config) *env {
		e := &env{clock: &clock{t: now}}
		d := dataset()
		d.Meetings = append(d.Meetings, marked...)
		e.records = recordstest.NewServer(recordstest.WithDataset(d), recordstest.WithPageSize(2))
		t.Cleanup(e.records.Close)
		rc, err := apiclient.NewClient(e.records.URL, recordstest.DefaultKey)
		require.NoError(t, err)
		e.min = minutes.New(rc, minutes.Config{PublicURL: "https://bot.example.org", Public: true, Now: e.clock.Now})
		cfg.Minutes, cfg.Now = e.min, e.clock.Now
		e.cal = calendar.New(cfg)
		t.Cleanup(e.cal.Wait)
		return e
	}
	ctx := t.Context()

	e := newMarked(public)
	f, err := e.cal.All(ctx, lang.English)
	require.NoError(t, err)
	assert.Equal(t, []string{"meeting-M-2@bot.example.org", "meeting-M-3@bot.example.org", "meeting-M-1@bot.example.org"}, events(f.Body),
		"no marked meeting")
	assert.NotContains(t, string(f.Body), "URL:", "no page is known to exist yet: no link")
	for _, m := range marked {
		_, err := e.cal.Meeting(ctx, m.ID, lang.English)
		assert.ErrorIs(t, err, calendar.ErrNotFound, m.ID)
		assert.Empty(t, e.cal.AddURL(&apiclient.Meeting{ID: m.ID, Committee: m.Committee, Date: m.Date, Status: m.Status,
			Visibility: m.Visibility, Confidential: m.Confidential, NotPublic: m.Public != nil && !*m.Public}), m.ID)
	}
	assert.NotEmpty(t, e.cal.AddURL(&apiclient.Meeting{ID: "M-1", Committee: "Finance", Date: now.AddDate(0, 0, 7)}))

	// PUBLIC_CALENDAR=Events: Finance's schedule is not published.
	e = newMarked(calendar.Config{Schedule: publication.ParseSchedule(" events "), PublicURL: "https://bot.example.org/"})
	f, err = e.cal.All(ctx, lang.English)
	require.NoError(t, err)
	assert.Equal(t, []string{"meeting-M-3@bot.example.org"}, events(f.Body), "only the listed committee's")
	_, _, err = e.cal.Committee(ctx, "Finance", lang.English)
	assert.ErrorIs(t, err, calendar.ErrNotFound)
	_, err = e.cal.Meeting(ctx, "M-1", lang.English)
	assert.ErrorIs(t, err, calendar.ErrNotFound)
	assert.Empty(t, e.cal.AddURL(&apiclient.Meeting{ID: "M-1", Committee: "Finance", Date: now.AddDate(0, 0, 7)}))
}

// The private feeds read the actions domain's own list, with no copy of
// their own: a change made through the bot (written into that list at
// once) is in the next feed built, even within the calendar's cache time,
// and a hundred feeds still cost one list.
func TestPrivateFeedsReadTheActionsDomainsList(t *testing.T) {
	t.Parallel()
	e := newEnv(t, calendar.Config{PublicURL: "https://bot.example.org"})
	for _, a := range []recordstest.Action{
		{ID: "A-1", Title: "Circulate the accounts", Status: "open", AssigneeName: "Alice Adams", AssigneeEmail: "alice@example.org", Deadline: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), DateOnly: true},
		{ID: "A-5", Title: "Bob's", Status: "open", AssigneeName: "Bob Brown", AssigneeEmail: "bob@example.org", Deadline: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), DateOnly: true},
	} {
		e.records.AddAction(a)
	}
	fake := slacktest.NewServer(slacktest.WithUsers(
		slacktest.User{ID: "U0ALICE", Name: "alice", RealName: "Alice Adams", Email: "alice@example.org"},
		slacktest.User{ID: "U0BOB", Name: "bob", RealName: "Bob Brown", Email: "bob@example.org"}))
	t.Cleanup(fake.Close)
	st, err := store.Open(t.Context(), "sqlite::memory:")
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	acts := actions.New(e.rc, slackusers.Directory(slack.New(slacktest.DefaultToken, slack.OptionAPIURL(fake.APIURL()))), actions.Config{Now: e.clock.Now})
	e.cal.EnablePrivate(calendar.Private{Key: []byte("test key"), Tokens: st, Actions: acts})
	ctx := context.WithoutCancel(t.Context())
	feed := func(user string) []string {
		link, err := e.cal.EnsurePrivateURL(ctx, user)
		require.NoError(t, err)
		tok := strings.TrimSuffix(strings.TrimPrefix(link, "https://bot.example.org/calendar/u/"), ".ics")
		f, err := e.cal.Deadlines(ctx, tok)
		require.NoError(t, err)
		return events(f.Body)
	}
	assert.Equal(t, []string{"action-A-1@bot.example.org"}, feed("U0ALICE"))

	e.clock.add(time.Minute)
	_, _, err = acts.SetStatus(ctx, "U0BOB", "A-5", apiclient.StatusComplete)
	require.NoError(t, err)
	lists := e.records.Count(http.MethodGet, "/actions")
	assert.Empty(t, feed("U0BOB"), "Bob's feed, built after he completed A-5 through the bot")
	assert.Equal(t, lists, e.records.Count(http.MethodGet, "/actions"), "no list read again within the calendar's time")
}
