package watch_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/clocktime/clocktimetest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/store"
)

// digests are the weekly digests posted in channel, oldest first.
func (e *env) digests(channel string) []post {
	var out []post
	for _, p := range e.posts(channel) {
		if strings.HasPrefix(metadataKey(e.t, p.Message), "digest/") {
			out = append(out, p)
		}
	}
	return out
}

// newYork is the organisation's zone in the digest tests: daylight
// saving ends there on Sunday 1 November 2026 (09:00 EDT is 13:00 UTC the
// Monday before, 09:00 EST 14:00 UTC the Monday after).
func newYork(t *testing.T) *time.Location {
	t.Helper()
	z, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	return z
}

func digestConfig(z *time.Location) func(*watchConfig) {
	return func(c *watchConfig) {
		c.Actions.Zone = z
		c.Follows.Digest = &clocktime.Weekly{On: true, Day: time.Monday, At: clocktime.Of(9, 0)}
	}
}

// TestDigestWeekly posts Finance's digest at 09:00 local on Mondays, on
// either side of the end of daylight saving, once a week, with what
// changed since the last: an action completed, one newly assigned, one
// newly overdue, the minutes announced meanwhile.
func TestDigestWeekly(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		z := newYork(t)
		env.clock.Set(time.Date(2026, 10, 26, 12, 0, 0, 0, time.UTC)) // Monday 08:00 EDT
		w := env.watcher("w1", digestConfig(z))
		env.follow(w, finChannel, "Finance")
		env.records.AddAction(recordstest.Action{ID: "A-3", Title: "Chase the auditors", Status: "in_progress", AssigneeEmail: bob.Email, AssigneeName: bob.RealName,
			MeetingID: "M-2", Deadline: time.Date(2026, 10, 30, 0, 0, 0, 0, time.UTC), DateOnly: true})

		env.mustPoll(w)
		assert.Empty(t, env.digests(finChannel), "08:00 local: not yet")

		env.clock.Set(time.Date(2026, 10, 26, 13, 0, 0, 0, time.UTC)) // 09:00 EDT
		sum := env.mustPoll(w)
		assert.Equal(t, 1, sum.Digests)
		got := env.digests(finChannel)
		require.Len(t, got, 1)
		first := got[0].text
		assert.Contains(t, first, "Weekly digest: Finance")
		assert.Contains(t, first, "*2 actions* open")
		assert.Contains(t, first, "Circulate the accounts")
		assert.Contains(t, first, "Chase the auditors")
		assert.NotContains(t, first, "Book the hall", "another committee's action")
		assert.Contains(t, first, "Alice Jones")
		assert.NotContains(t, first, "<@", "names without pinging by default")
		assert.Contains(t, string(got[0].Blocks), `"action_id":"digest:mine"`)
		assert.Equal(t, "digest/"+finChannel+"/finance/2026-10-26", metadataKey(t, got[0].Message))

		env.clock.Advance(3 * time.Hour)
		env.mustPoll(w)
		assert.Len(t, env.digests(finChannel), 1, "once a week")

		// During the week: A-1 done, A-4 assigned to Carol, A-3's deadline
		// passes, M-4's minutes are announced.
		env.clock.Set(time.Date(2026, 10, 29, 15, 0, 0, 0, time.UTC))
		all := env.records.Actions()
		for i := range all {
			if all[i].ID == "A-1" {
				all[i].Status = "complete"
			}
		}
		env.records.SetActions(append(all, recordstest.Action{ID: "A-4", Title: "Draft the budget", Status: "open",
			AssigneeEmail: carol.Email, AssigneeName: carol.RealName, MeetingID: "M-2"}))
		env.records.AddMeeting(recordstest.Meeting{ID: "M-4", Title: "Finance Committee, extraordinary", Committee: "Finance", Date: time.Date(2026, 10, 28, 0, 0, 0, 0, time.UTC)})
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-4", Status: "approved", Body: "Present: all."})
		env.mustPoll(w)

		// Monday after the change: 08:30 EST is 13:30 UTC, past last
		// week's UTC time but not yet 09:00 local.
		env.clock.Set(time.Date(2026, 11, 2, 13, 30, 0, 0, time.UTC))
		env.mustPoll(w)
		assert.Len(t, env.digests(finChannel), 1, "09:00 local is 14:00 UTC after daylight saving ends")
		env.clock.Set(time.Date(2026, 11, 2, 14, 0, 0, 0, time.UTC))
		env.mustPoll(w)
		got = env.digests(finChannel)
		require.Len(t, got, 2)
		second := got[1].text
		assert.Equal(t, "digest/"+finChannel+"/finance/2026-11-02", metadataKey(t, got[1].Message))
		assert.Contains(t, second, "1 completed, 1 newly assigned, 1 newly overdue, 1 minutes published")
		// Each line is the action's row as the channel sees it: a change
		// names the assignee, a list under a name does not say it again,
		// and a completed action's deadline is no longer news.
		wasDue := "was due <!date^1793361600^{date_short_pretty}|Oct 30, 2026>"
		assert.Contains(t, second, "Completed* (1)\n• Circulate the accounts — Alice Jones\n")
		assert.Contains(t, second, "Newly assigned* (1)\n• Draft the budget — Carol Wu\n")
		assert.Contains(t, second, "Newly overdue* (1)\n• :red_circle: Chase the auditors — in progress, "+wasDue+", Bob Patel\n")
		assert.Contains(t, second, "*Bob Patel* (1)\n• :red_circle: Chase the auditors — in progress, "+wasDue+"\n")
		assert.Contains(t, second, "Finance Committee, extraordinary")
		assert.Contains(t, second, "*1 overdue*")
		assert.Less(t, strings.Index(second, "*Bob Patel*"), strings.Index(second, "*Carol Wu*"), "overdue first")
	})
}

// TestDigestExactlyOnce: two watchers at the slot post one digest, even
// when the first is cut off between posting and recording it.
func TestDigestExactlyOnce(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		z := newYork(t)
		env.clock.Set(time.Date(2026, 10, 26, 12, 0, 0, 0, time.UTC))
		w1, w2 := env.watcher("w1", digestConfig(z)), env.watcher("w2", digestConfig(z))
		env.follow(w1, finChannel, "Finance")
		env.mustPoll(w1)
		env.clock.Set(time.Date(2026, 10, 26, 13, 5, 0, 0, time.UTC))

		// The post lands, its answer is lost: w1 cannot tell.
		env.slack.InjectFault(slacktest.Fault{Method: "chat.postMessage", HTTPStatus: 500, Times: 1, AfterEffect: true})
		sum, err := w1.poll(t)
		require.Error(t, err)
		assert.Equal(t, 1, sum.Failed)
		require.Len(t, env.digests(finChannel), 1)

		sum, err = w2.poll(t)
		require.NoError(t, err)
		assert.Zero(t, sum.Digests, "w1's claim is still held")
		env.clock.Advance(3 * time.Minute) // the claim's lease lapses
		sum, err = w2.poll(t)
		require.NoError(t, err)
		assert.Equal(t, 1, sum.Recovered, "found in the channel's history")
		env.mustPoll(w1)
		env.mustPoll(w2)
		assert.Len(t, env.digests(finChannel), 1)
	})
}

// TestDigestChoices: a channel's own schedule, mentions on, and off.
func TestDigestChoices(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		z := newYork(t)
		env.clock.Set(time.Date(2026, 10, 26, 12, 0, 0, 0, time.UTC))
		w := env.watcher("w1", digestConfig(z))
		env.follow(w, finChannel, "Finance")
		env.follow(w, allChannel, "Finance")
		ctx := t.Context()
		require.NoError(t, w.deps.Store.SetDigestChoice(ctx, finChannel, "finance", clocktimetest.Weekly(t, "off"), false))
		require.NoError(t, w.deps.Store.SetDigestChoice(ctx, allChannel, "finance", clocktimetest.Weekly(t, "tue 10:30"), true))
		const quiet = "C0QUIET"
		env.follow(w, quiet, "Finance")
		_, err := w.deps.Store.SetFollowChoice(ctx, quiet, "finance", store.HearDigest, false)
		require.NoError(t, err)
		env.mustPoll(w)

		env.clock.Set(time.Date(2026, 10, 26, 14, 0, 0, 0, time.UTC)) // Monday 10:00 EDT
		env.mustPoll(w)
		assert.Empty(t, env.digests(finChannel), "off")
		assert.Empty(t, env.digests(allChannel), "its own day: Tuesday")

		env.clock.Set(time.Date(2026, 10, 27, 14, 30, 0, 0, time.UTC)) // Tuesday 10:30 EDT
		env.mustPoll(w)
		assert.Empty(t, env.digests(finChannel))
		assert.Empty(t, env.digests(quiet), "the channel does not hear digests (/minutes following)")
		got := env.digests(allChannel)
		require.Len(t, got, 1)
		assert.Contains(t, got[0].text, "<@"+alice.ID+">", "mentions on")
		assert.NotContains(t, got[0].text, "*Alice Jones*")
	})
}

// TestDigestMovedMidWeek: at most one digest a calendar week (Monday to
// Sunday, in RECORDS_TIMEZONE). Moved from Monday to Thursday after
// Monday's digest, the next comes on Thursday of the week after, not a
// second this week; moved from Thursday to Monday after Thursday's, the
// next comes on the Monday after. Both across the end of daylight saving
// in New York (Sunday 1 November 2026): 09:00 local is 13:00 UTC in the
// week of the change and 14:00 UTC the week after.
func TestDigestMovedMidWeek(t *testing.T) {
	t.Parallel()
	utc := func(mo time.Month, d, h, m int) time.Time { return time.Date(2026, mo, d, h, m, 0, 0, time.UTC) }
	for _, tc := range []struct {
		name, from, to string
		// first is the first digest's slot (09:00 EDT); moved when the
		// channel changes it; quiet the polls that post nothing, next
		// the next digest's slot (09:00 EST) and its date.
		first, moved time.Time
		quiet        []time.Time
		next         time.Time
		nextDate     string
	}{
		{
			name: "Monday to Thursday", from: "mon 09:00", to: "thu 09:00",
			first: utc(10, 26, 13, 0), moved: utc(10, 27, 15, 0),
			quiet: []time.Time{utc(10, 29, 13, 0), utc(10, 30, 13, 0), utc(11, 1, 23, 0), utc(11, 2, 14, 0), utc(11, 5, 13, 30)},
			next:  utc(11, 5, 14, 0), nextDate: "2026-11-05",
		},
		{
			name: "Thursday to Monday", from: "thu 09:00", to: "mon 09:00",
			first: utc(10, 29, 13, 0), moved: utc(10, 30, 15, 0),
			quiet: []time.Time{utc(10, 31, 13, 0), utc(11, 1, 23, 0), utc(11, 2, 13, 30)},
			next:  utc(11, 2, 14, 0), nextDate: "2026-11-02",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			eachEngine(t, func(t *testing.T, e engine) {
				env := newEnv(t, e)
				env.clock.Set(utc(10, 26, 12, 0)) // Monday 08:00 EDT
				w := env.watcher("w1", digestConfig(newYork(t)))
				env.follow(w, finChannel, "Finance")
				ctx := t.Context()
				require.NoError(t, w.deps.Store.SetDigestChoice(ctx, finChannel, "finance", clocktimetest.Weekly(t, tc.from), false))
				env.mustPoll(w)

				env.clock.Set(tc.first)
				assert.Equal(t, 1, env.mustPoll(w).Digests, "the first digest, at %s", tc.from)
				env.clock.Set(tc.moved)
				require.NoError(t, w.deps.Store.SetDigestChoice(ctx, finChannel, "finance", clocktimetest.Weekly(t, tc.to), false))
				for _, at := range tc.quiet {
					env.clock.Set(at)
					assert.Zero(t, env.mustPoll(w).Digests, "%s: no second digest this week, none before 09:00 local", at)
				}
				env.clock.Set(tc.next)
				assert.Equal(t, 1, env.mustPoll(w).Digests, "the next at %s, 09:00 local", tc.to)
				env.clock.Advance(time.Hour)
				assert.Zero(t, env.mustPoll(w).Digests)
				got := env.digests(finChannel)
				require.Len(t, got, 2)
				assert.Equal(t, "digest/"+finChannel+"/finance/"+tc.nextDate, metadataKey(t, got[1].Message))
			})
		})
	}
}

// TestDigestReadsWhatItLists: the minutes a digest lists carry their
// meeting's title however far back the poll that posts it reads the
// meetings: the digest asks the minutes domain, not what earlier phases
// of the poll happened to read.
func TestDigestReadsWhatItLists(t *testing.T) {
	t.Parallel()
	env := newEnv(t, engines[0])
	z := newYork(t)
	env.clock.Set(time.Date(2026, 10, 26, 12, 0, 0, 0, time.UTC)) // Monday 08:00 EDT
	w := env.watcher("w1", digestConfig(z), func(c *watchConfig) { c.Lookback = 2 * 24 * time.Hour })
	env.follow(w, finChannel, "Finance")
	env.clock.Set(time.Date(2026, 10, 26, 13, 0, 0, 0, time.UTC))
	env.mustPoll(w)
	require.Len(t, env.digests(finChannel), 1, "the first digest")

	// M-4's minutes are announced on Thursday; two meetings after it
	// push it to a page the Monday poll, reading two days back, never
	// reaches (two meetings a page).
	env.clock.Set(time.Date(2026, 10, 29, 15, 0, 0, 0, time.UTC))
	env.records.AddMeeting(recordstest.Meeting{ID: "M-4", Title: "Finance Committee, extraordinary", Committee: "Finance", Date: time.Date(2026, 10, 28, 0, 0, 0, 0, time.UTC)})
	env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-4", Status: "approved", Body: "Present: all."})
	env.mustPoll(w)
	for i, day := range []int{30, 31} {
		env.records.AddMeeting(recordstest.Meeting{ID: fmt.Sprintf("M-%d", 5+i), Title: "Events Committee, an extra", Committee: "Events", Date: time.Date(2026, 10, day, 0, 0, 0, 0, time.UTC)})
	}

	env.clock.Set(time.Date(2026, 11, 2, 14, 0, 0, 0, time.UTC)) // Monday 09:00 EST
	sum := env.mustPoll(w)
	require.Equal(t, 1, sum.Digests)
	got := env.digests(finChannel)
	require.Len(t, got, 2)
	assert.Contains(t, got[1].text, "1 minutes published")
	assert.Contains(t, got[1].text, "Finance Committee, extraordinary", "the title, read through the minutes domain")
	assert.Contains(t, string(got[1].Blocks), "https://bot.example.org/minutes/M-4")
}

// TestChannelCountsActionsUnderOwn: under ACTIONS_VISIBILITY own (the
// default) a channel's digest and brief count the committee's actions and
// name none of them nor their assignees, since everyone in the channel
// reads them and a member sees only their own; each person is pointed to
// their own list.
func TestChannelCountsActionsUnderOwn(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		z := newYork(t)
		env.clock.Set(time.Date(2026, 10, 26, 13, 0, 0, 0, time.UTC)) // Monday 09:00 EDT
		w := env.watcher("w1", digestConfig(z), func(c *watchConfig) { c.Actions.Visibility = actions.VisibleOwn })
		env.follow(w, finChannel, "Finance")
		env.records.AddAction(recordstest.Action{ID: "A-3", Title: "Chase the auditors", Status: "in_progress", AssigneeEmail: bob.Email, AssigneeName: bob.RealName,
			MeetingID: "M-2", Deadline: time.Date(2026, 10, 30, 0, 0, 0, 0, time.UTC), DateOnly: true})

		assert.Equal(t, 1, env.mustPoll(w).Digests)
		got := env.digests(finChannel)
		require.Len(t, got, 1)
		d := got[0].text
		assert.Contains(t, d, "Weekly digest: Finance")
		assert.Contains(t, d, "*2 actions* open", "counted")
		assert.Contains(t, d, "Each person sees their own with `/actions`.")
		assert.Contains(t, string(got[0].Blocks), `"action_id":"digest:mine"`, "each person's own list is a click away")
		for _, named := range []string{"Circulate the accounts", "Chase the auditors", "Alice Jones", bob.RealName} {
			assert.NotContains(t, d, named, "a channel's digest names nobody's actions under own")
		}

		m := nextFinance(env)
		env.records.AddMeeting(m)
		env.clock.Set(m.Date.Add(-24 * time.Hour))
		assert.Equal(t, 1, env.mustPoll(w).Briefs)
		briefs := env.briefs(finChannel)
		require.Len(t, briefs, 1)
		b := briefs[0].text
		assert.Contains(t, b, "*Actions still open*")
		assert.Contains(t, b, "Each person sees their own with `/actions`.")
		assert.Contains(t, b, "2. The budget", "the agenda is public")
		for _, named := range []string{"Circulate the accounts", "Alice Jones"} {
			assert.NotContains(t, b, named, "a channel's brief names nobody's actions under own")
		}
	})
}
