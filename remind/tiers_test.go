package remind_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/remind"
)

// The job against Slack's tiers: who is who in one users.list page, a post
// to each user ID and nothing else a person, paced so Slack never answers
// 429, and projected within 1.25× of what the posts alone cost.
func TestRemindFitsTheTiers(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, eng engine) {
		var people []slacktest.User
		for i := range 60 {
			people = append(people, person(i, "Europe/London"))
		}
		now := time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC)
		e := newTierEnvOn(t, eng, people, nil, time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC), 200)
		sum, err := remind.Run(t.Context(), remind.Config{Days: 3, Now: now}, e.deps(nil))
		require.NoError(t, err)
		assert.Equal(t, 60, sum.Reminded)

		r := e.fake.TierReport()
		assert.Equal(t, map[string]int{"users.list": 1, "chat.postMessage": 60}, r.Calls, "no lookup, open or history per person")
		assert.Empty(t, r.Limited, "paced by design, not by 429s")
		assert.Zero(t, e.limited())
		assert.LessOrEqual(t, float64(r.Projected), 1.25*float64(r.PostFloor), "projected %s, floor %s", r.Projected, r.PostFloor)
		for _, c := range e.fake.Calls("chat.postMessage") {
			assert.True(t, strings.HasPrefix(c.Params.Get("channel"), "U"), "posted to the user ID, not a DM opened first")
		}
		for ch, n := range e.dms() {
			assert.True(t, strings.HasPrefix(ch, "DU"), "Slack delivers a post to a user ID in the bot's DM")
			assert.Equal(t, 1, n, ch)
		}

		// A rerun the same day sends nothing and asks Slack for nothing but
		// the directory.
		e.fake.ResetTiers()
		again, err := remind.Run(t.Context(), remind.Config{Days: 3, Now: now.Add(time.Hour)}, e.deps(nil))
		require.NoError(t, err)
		assert.Equal(t, 60, again.Skipped)
		assert.Equal(t, map[string]int{"users.list": 1}, e.fake.TierReport().Calls)
		assert.Len(t, e.fake.Messages(""), 60, "no duplicates")
	})
}

// A 429 on a method pauses every worker's calls of it until Retry-After
// has passed, not just the worker that met it.
func TestRemindOneSharedPauseAfterA429(t *testing.T) {
	t.Parallel()
	var people []slacktest.User
	for i := range 12 {
		people = append(people, person(i, "UTC"))
	}
	now := time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC)
	// A clock twice as fast as real time: one post every 200 ms of Slack
	// time is 100 ms of real time.
	e := newTierEnv(t, people, nil, time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC), 2)
	e.fake.InjectFault(slacktest.Fault{Method: "chat.postMessage", HTTPStatus: http.StatusTooManyRequests, RetryAfter: 2, Times: 1})

	// The rule is about what the job does once it knows. Arrival times at
	// the fake cannot tell that: on a busy machine a post the pacer
	// released before the refusal got back arrives after it (this test
	// failed that way, 4 runs in 8 under load). So the job's side of the
	// wire is watched: when each post was sent and when the 429 came back,
	// on the test's clock. Between the answer's arrival and the pacer
	// taking note of it lie a few milliseconds in which one post already
	// due may go; with the pause not shared, every worker would go on
	// posting every 200 ms of Slack time, about ten posts in the 2 s.
	w := &postWatch{clock: e.clock.Now}
	deps := e.deps(nil)
	deps.Slack = slack.New(slacktest.DefaultToken, slack.OptionAPIURL(e.fake.APIURL()),
		slack.OptionHTTPClient(&http.Client{Transport: w}))
	sum, err := remind.Run(t.Context(), remind.Config{Days: 3, Now: now, Concurrency: 8}, deps)
	require.NoError(t, err)
	assert.Equal(t, 12, sum.Reminded)

	calls := e.fake.Calls("chat.postMessage")
	require.Len(t, calls, 13, "twelve posts and the refused one")
	require.Equal(t, http.StatusTooManyRequests, calls[0].Status)
	known, sent := w.result()
	require.False(t, known.IsZero(), "the job saw the 429")
	var early, after []time.Duration
	for _, at := range sent {
		switch d := at.Sub(known); {
		case d < 0: // on its way before the answer came back
		case d < 2*time.Second:
			early = append(early, d)
		default:
			after = append(after, d)
		}
	}
	assert.LessOrEqual(t, len(early), 1,
		"no worker posts before Retry-After has passed (posts went %v after the 429 was seen)", early)
	assert.NotEmpty(t, after, "the posts after the pause were sent after it")
}

// postWatch is the Slack client's transport in a test: it notes, on the
// test's clock, when each chat.postMessage was sent and when the first 429
// came back.
type postWatch struct {
	clock func() time.Time
	mu    sync.Mutex
	sent  []time.Time
	known time.Time
}

func (w *postWatch) RoundTrip(r *http.Request) (*http.Response, error) {
	post := strings.HasSuffix(r.URL.Path, "/chat.postMessage")
	if post {
		w.mu.Lock()
		w.sent = append(w.sent, w.clock())
		w.mu.Unlock()
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	if post && err == nil && resp.StatusCode == http.StatusTooManyRequests {
		w.mu.Lock()
		if w.known.IsZero() {
			w.known = w.clock()
		}
		w.mu.Unlock()
	}
	return resp, err
}

func (w *postWatch) result() (known time.Time, sent []time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.known, slices.Clone(w.sent)
}

// The same date-only deadline, read by someone in Auckland and someone in
// Los Angeles: each is reminded once on each of their own days, at their
// own 09:00, and what is overdue follows the organisation's midnight.
func TestRemindTimeZones(t *testing.T) {
	t.Parallel()
	nz, la := person(1, "Pacific/Auckland"), person(2, "America/Los_Angeles")
	deadline := time.Date(2026, 11, 18, 0, 0, 0, 0, time.UTC) // "2026-11-18": ends at midnight UTC
	e := newTierEnv(t, []slacktest.User{nz, la}, nil, deadline, 500)
	start := time.Date(2026, 11, 18, 18, 0, 0, 0, time.UTC)
	sentAt := map[string][]time.Time{}
	for h := range 24 {
		now := start.Add(time.Duration(h) * time.Hour)
		before := e.dms()
		_, err := remind.Run(t.Context(), remind.Config{Days: 1, Now: now}, e.deps(nil))
		require.NoError(t, err)
		for ch, n := range e.dms() {
			if n > before[ch] {
				sentAt[ch] = append(sentAt[ch], now)
			}
		}
	}
	// Auckland is UTC+13: 09:00 on the 19th is 20:00 UTC on the 18th, and
	// its next morning is outside the day of runs.
	assert.Equal(t, []time.Time{time.Date(2026, 11, 18, 20, 0, 0, 0, time.UTC)}, sentAt["D"+nz.ID])
	// Los Angeles is UTC−8: the first run (10:00 on the 18th there) and
	// 09:00 on the 19th (17:00 UTC).
	assert.Equal(t, []time.Time{start, time.Date(2026, 11, 19, 17, 0, 0, 0, time.UTC)}, sentAt["D"+la.ID])

	heading := func(m slacktest.Message) string {
		s := string(m.Blocks)
		switch {
		case strings.Contains(s, "*Overdue*"):
			return "overdue"
		case strings.Contains(s, "*Due soon*"):
			return "due soon"
		}
		return s
	}
	nzMsgs, laMsgs := e.fake.Messages("D"+nz.ID), e.fake.Messages("D"+la.ID)
	require.Len(t, nzMsgs, 1)
	require.Len(t, laMsgs, 2)
	assert.Equal(t, "due soon", heading(nzMsgs[0]), "at 20:00 UTC the deadline has four hours to go")
	assert.Equal(t, "due soon", heading(laMsgs[0]))
	assert.Equal(t, "overdue", heading(laMsgs[1]), "the next morning in Los Angeles it has passed")
	var md struct {
		EventPayload map[string]any `json:"event_payload"`
	}
	require.NoError(t, json.Unmarshal(nzMsgs[0].Metadata, &md))
	assert.Equal(t, "remind:"+nz.ID+":2026-11-19", md.EventPayload["key"], "keyed by the reader's local date")
}

// Weekends are the reader's: a Friday evening in UTC is Saturday morning
// in Auckland. A person's own weekdays-only setting works the same way.
func TestRemindWeekendsInTheUsersZone(t *testing.T) {
	t.Parallel()
	nz, la := person(1, "Pacific/Auckland"), person(2, "America/Los_Angeles")
	friday := time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC) // Sat 09:00 in Auckland, Fri 12:00 in LA
	deadline := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)

	e := newTierEnv(t, []slacktest.User{nz, la}, nil, deadline, 500)
	sum, err := remind.Run(t.Context(), remind.Config{Days: 3, Now: friday, SkipWeekends: true}, e.deps(nil))
	require.NoError(t, err)
	assert.Equal(t, 1, sum.Weekend)
	assert.Equal(t, map[string]int{"D" + la.ID: 1}, e.dms())

	// Without REMIND_SKIP_WEEKENDS, only who asked for weekdays only.
	e = newTierEnv(t, []slacktest.User{nz, la}, nil, deadline, 500)
	prefs := settingsFunc(func(id string) remind.Preferences { return remind.Preferences{WeekdaysOnly: id == nz.ID} })
	sum, err = remind.Run(t.Context(), remind.Config{Days: 3, Now: friday}, e.deps(prefs))
	require.NoError(t, err)
	assert.Equal(t, 1, sum.Weekend)
	assert.Equal(t, map[string]int{"D" + la.ID: 1}, e.dms())

	// And their own reminder time: LA asked for 13:00, so not yet at noon.
	e = newTierEnv(t, []slacktest.User{nz, la}, nil, deadline, 500)
	prefs = settingsFunc(func(id string) remind.Preferences {
		return remind.Preferences{RemindAt: map[bool]clocktime.Time{true: clocktime.Of(13, 0)}[id == la.ID]}
	})
	sum, err = remind.Run(t.Context(), remind.Config{Days: 3, Now: friday}, e.deps(prefs))
	require.NoError(t, err)
	assert.Equal(t, 1, sum.NotYet)
	assert.Equal(t, map[string]int{"D" + nz.ID: 1}, e.dms())
}

// A run killed half-way, and started again, sends the rest and nobody
// twice: at once (what was in flight is someone else's lease), and an hour
// later (expired leases are checked against the DM's history).
func TestRemindRestartMidRun(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, eng engine) {
		var people []slacktest.User
		for i := range 40 {
			people = append(people, person(i, "UTC"))
		}
		now := time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC)
		e := newTierEnvOn(t, eng, people, nil, time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC), 50,
			slacktest.WithScopes("chat:write", "users:read", "users:read.email", "im:write", "im:history", "metadata.message:read"))

		// Killed once 15 are sent and one more post is held unanswered
		// (Slack not answering in time), so the run dies with work in
		// flight: that post's claim is left to its lease.
		ctx, kill := context.WithCancel(t.Context())
		go func() {
			_ = e.fake.Wait(ctx, func() bool { return len(e.fake.Messages("")) >= 15 })
			e.fake.InjectFault(slacktest.Fault{Method: "chat.postMessage", Hang: true, Times: 1})
			_ = e.fake.Wait(ctx, func() bool { return e.fake.FaultsLeft() == 0 })
			kill()
		}()
		first, err := remind.Run(ctx, remind.Config{Days: 3, Now: now, Owner: "run-1"}, e.deps(nil))
		require.Error(t, err, "killed")
		sentFirst := len(e.fake.Messages(""))
		require.Less(t, sentFirst, 40, "killed before the end")
		t.Logf("first run: %d sent before the kill, summary %s", sentFirst, first)

		second, err := remind.Run(t.Context(), remind.Config{Days: 3, Now: now.Add(time.Minute), Owner: "run-2"}, e.deps(nil))
		require.NoError(t, err)
		e.advance(time.Hour)
		third, err := remind.Run(t.Context(), remind.Config{Days: 3, Now: now.Add(time.Hour), Owner: "run-3"},
			e.deps(nil))
		require.NoError(t, err)
		t.Logf("second: %s; third: %s", second, third)

		// By the third run, an hour on, every lease the killed run left has
		// lapsed.
		dms := e.dms()
		require.Len(t, dms, 40, "everyone reminded in the end")
		for ch, n := range dms {
			assert.Equal(t, 1, n, "%s reminded once", ch)
		}
		assert.Positive(t, second.Busy, "what the killed run had in flight is left to its lease")
		assert.Equal(t, second.Busy, third.Reminded+third.Recovered,
			"after the lease, each is either found in the DM or sent")
	})
}

// When users.list cannot be read, each assignee is looked up by email
// instead, and still reminded; the next hour's run finds them reminded in
// the ledger and asks Slack nothing about their DMs.
func TestRemindDirectoryFallback(t *testing.T) {
	t.Parallel()
	people := []slacktest.User{person(1, "UTC"), person(2, "UTC"), person(3, "UTC")}
	e := newTierEnv(t, people, nil, time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC), 500)
	e.fake.InjectFault(slacktest.Fault{Method: "users.list", Error: "missing_scope"})
	sum, err := remind.Run(t.Context(), remind.Config{Days: 3, Now: time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC)}, e.deps(nil))
	require.NoError(t, err)
	assert.Equal(t, 3, sum.Reminded)
	r := e.fake.TierReport()
	assert.Equal(t, 3, r.Calls["users.lookupByEmail"])
	assert.Zero(t, r.Calls["conversations.history"], "no DM is read without an expired claim")

	e.fake.ResetTiers()
	again, err := remind.Run(t.Context(), remind.Config{Days: 3, Now: time.Date(2026, 11, 18, 11, 0, 0, 0, time.UTC)}, e.deps(nil))
	require.NoError(t, err)
	assert.Equal(t, 3, again.Skipped)
	r = e.fake.TierReport()
	assert.Zero(t, r.Calls["conversations.history"]+r.Calls["conversations.open"])
	assert.Len(t, e.fake.Messages(""), 3)
}

// TestUsersListPaging checks the directory is read page by page, a
// cursor at a time, at users.list's tier.
func TestRemindReadsTheDirectoryInPages(t *testing.T) {
	t.Parallel()
	var people []slacktest.User
	for i := range 450 {
		people = append(people, person(i, "UTC"))
	}
	e := newTierEnv(t, people, nil, time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC), 500)
	sum, err := remind.Run(t.Context(), remind.Config{Days: 3, Now: time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC), DryRun: true},
		e.deps(nil))
	require.NoError(t, err)
	assert.Equal(t, 450, sum.Reminded)
	pages := e.fake.Calls("users.list")
	require.Len(t, pages, 3, "450 members and the bot, 200 a page")
	assert.Empty(t, pages[0].Params.Get("cursor"))
	assert.NotEmpty(t, pages[1].Params.Get("cursor"))
	for _, p := range pages {
		assert.Equal(t, "200", p.Params.Get("limit"))
	}
	assert.Empty(t, e.fake.Calls("users.lookupByEmail"))
	assert.Zero(t, e.limited())
}
