package watch_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/store"
)

// briefs are the pre-meeting briefs posted in channel, oldest first.
func (e *env) briefs(channel string) []post {
	var out []post
	for _, p := range e.posts(channel) {
		if strings.HasPrefix(metadataKey(e.t, p.Message), "brief/") {
			out = append(out, p)
		}
	}
	return out
}

// nextFinance is Finance's next meeting, tomorrow at 18:00 UTC (33 hours
// after the harness's clock), with an agenda.
func nextFinance(e *env) recordstest.Meeting {
	return recordstest.Meeting{ID: "M-9", Title: "Finance Committee, December", Committee: "Finance", Location: "Room 2",
		Date:   e.today.AddDate(0, 0, 1).Add(18 * time.Hour),
		Agenda: []recordstest.AgendaItem{{Number: 1, Title: "Apologies"}, {Number: 2, Title: "The budget"}}}
}

// TestBriefAtLeadTime: the brief is posted BRIEF_LEAD (24h) before the
// meeting, once, with the agenda, the committee's open actions by
// assignee (named, not pinged) and the latest minutes; when the meeting
// moves, the same message is updated in place, not posted again.
func TestBriefAtLeadTime(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")
		env.followNow(w, finChannel, "Finance")
		m := nextFinance(env)
		env.records.AddMeeting(m)

		sum := env.mustPoll(w)
		assert.Equal(t, 1, sum.Upcoming)
		assert.Empty(t, env.briefs(finChannel), "33 hours ahead: not yet")

		env.clock.Set(m.Date.Add(-24 * time.Hour))
		sum = env.mustPoll(w)
		assert.Equal(t, 1, sum.Briefs)
		got := env.briefs(finChannel)
		require.Len(t, got, 1)
		b := got[0]
		assert.Equal(t, "brief/"+finChannel+"/finance/M-9", metadataKey(t, b.Message))
		assert.Contains(t, b.text, "Brief: Finance Committee, December")
		assert.Contains(t, b.text, "1. Apologies")
		assert.Contains(t, b.text, "2. The budget")
		assert.Contains(t, b.text, "*Actions still open*")
		assert.Contains(t, b.text, "*Alice Jones* (1)")
		assert.Contains(t, b.text, "Circulate the accounts")
		assert.NotContains(t, b.text, "Book the hall", "another committee's action")
		assert.NotContains(t, b.text, "<@", "names, not mentions")
		assert.Contains(t, b.text, "Latest minutes: <https://bot.example.org/minutes/M-2|Finance Committee, November>")
		assert.Contains(t, b.text, "Room 2")

		env.clock.Advance(time.Hour)
		sum = env.mustPoll(w)
		assert.Zero(t, sum.Briefs+sum.BriefsUpdated)
		assert.Len(t, env.briefs(finChannel), 1, "once per meeting")

		// The meeting moves a day later: the brief is updated, not posted
		// again, even though the new date is more than the lead away.
		m.Date = m.Date.AddDate(0, 0, 1)
		env.records.AddMeeting(m)
		sum = env.mustPoll(w)
		assert.Zero(t, sum.Briefs)
		assert.Equal(t, 1, sum.BriefsUpdated)
		got = env.briefs(finChannel)
		require.Len(t, got, 1, "moved: updated in place")
		assert.Equal(t, b.TS, got[0].TS)
		assert.True(t, got[0].Edited)
		assert.NotEqual(t, b.text, got[0].text, "it shows the new date")

		sum = env.mustPoll(w)
		assert.Zero(t, sum.Briefs+sum.BriefsUpdated, "up to date")
	})
}

// TestBriefLateAndStarted: a meeting that appears in the records within
// the lead gets its brief at once; one that has started (a date-only
// meeting today, a meeting earlier this morning) never does.
func TestBriefLateAndStarted(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")
		env.followNow(w, finChannel, "Finance")
		env.mustPoll(w)
		now := env.clock.Now()
		env.records.AddMeeting(recordstest.Meeting{ID: "M-7", Title: "Finance, this morning", Committee: "Finance", Date: now.Add(-30 * time.Minute)})
		env.records.AddMeeting(recordstest.Meeting{ID: "M-8", Title: "Finance, this afternoon", Committee: "Finance", Date: now.Add(3 * time.Hour)})
		sum := env.mustPoll(w)
		assert.Equal(t, 1, sum.Briefs)
		got := env.briefs(finChannel)
		require.Len(t, got, 1, "late: posted at once; started: none")
		assert.Equal(t, "brief/"+finChannel+"/finance/M-8", metadataKey(t, got[0].Message))
		assert.Contains(t, got[0].text, "Finance, this afternoon")

		env.clock.Set(now.Add(4 * time.Hour))
		env.mustPoll(w)
		assert.Len(t, env.briefs(finChannel), 1)
	})
}

// TestBriefChoiceOff: a channel that turned briefs off in /minutes
// following hears none; another following the same committee does.
func TestBriefChoiceOff(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")
		env.followNow(w, finChannel, "Finance")
		env.followNow(w, allChannel, "Finance")
		_, err := w.deps.Store.SetFollowChoice(t.Context(), allChannel, "finance", store.HearBriefs, false)
		require.NoError(t, err)
		m := nextFinance(env)
		env.records.AddMeeting(m)
		env.clock.Set(m.Date.Add(-time.Hour))
		sum := env.mustPoll(w)
		assert.Equal(t, 1, sum.Briefs)
		assert.Len(t, env.briefs(finChannel), 1)
		assert.Empty(t, env.briefs(allChannel), "briefs off")
	})
}

// TestBriefTwoWatchers: two workers polling at once, and then in turn,
// post one brief.
func TestBriefTwoWatchers(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w1, w2 := env.watcher("w1"), env.watcher("w2")
		env.followNow(w1, finChannel, "Finance")
		m := nextFinance(env)
		env.records.AddMeeting(m)
		env.clock.Set(m.Date.Add(-2 * time.Hour))
		var wg sync.WaitGroup
		for _, w := range []*watcher{w1, w2} {
			wg.Go(func() {
				_, err := w.poll(t)
				assert.NoError(t, err)
			})
		}
		wg.Wait()
		env.mustPoll(w2)
		env.mustPoll(w1)
		assert.Len(t, env.briefs(finChannel), 1)
	})
}

// TestBriefFollowsWhatItShows: until the meeting starts, a posted brief
// is updated in place (one chat.update, the same message) when its
// agenda changes, an action it shows is completed, a new one is assigned
// or newer minutes are published; a poll that finds nothing changed
// calls Slack not at all; once the meeting has started, the brief is
// left as it is.
func TestBriefFollowsWhatItShows(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")
		env.followNow(w, finChannel, "Finance")
		m := nextFinance(env)
		env.records.AddMeeting(m)
		env.clock.Set(m.Date.Add(-20 * time.Hour))
		require.Equal(t, 1, env.mustPoll(w).Briefs)
		first := env.briefs(finChannel)[0]
		assert.Contains(t, first.text, "2. The budget")
		assert.Contains(t, first.text, "Circulate the accounts")
		assert.Contains(t, first.text, "Latest minutes: <https://bot.example.org/minutes/M-2|Finance Committee, November>")

		updates := func() int { return len(env.slack.Calls("chat.update")) }
		// step polls once and says what the brief now shows, requiring
		// want updates of the one message and no other post.
		step := func(what string, want int) string {
			t.Helper()
			before, calls := updates(), len(env.slack.Calls(""))
			sum := env.mustPoll(w)
			got := env.briefs(finChannel)
			require.Len(t, got, 1, "%s: never posted again", what)
			assert.Equal(t, first.TS, got[0].TS)
			assert.Zero(t, sum.Briefs, what)
			assert.Equal(t, want, sum.BriefsUpdated, what)
			assert.Equal(t, want, updates()-before, "%s: chat.update calls", what)
			if want == 0 {
				assert.Equal(t, calls, len(env.slack.Calls("")), "%s: no Slack call at all", what)
			}
			return got[0].text
		}

		step("nothing changed", 0)
		step("nothing changed, again", 0)

		m.Agenda = append(m.Agenda, recordstest.AgendaItem{Number: 3, Title: "The new auditors"})
		env.records.AddMeeting(m)
		text := step("agenda item added", 1)
		assert.Contains(t, text, "3. The new auditors")
		assert.Contains(t, text, "2. The budget")
		assert.True(t, env.briefs(finChannel)[0].Edited)
		step("agenda unchanged since", 0)

		all := env.records.Actions()
		for i := range all {
			if all[i].ID == "A-1" {
				all[i].Status = "complete"
			}
		}
		env.records.SetActions(all)
		text = step("the action shown completed", 1)
		assert.NotContains(t, text, "Circulate the accounts")
		assert.Contains(t, text, "None from earlier meetings")

		env.records.SetActions(append(all, recordstest.Action{ID: "A-9", Title: "Brief the new auditors", Status: "open",
			AssigneeEmail: carol.Email, AssigneeName: carol.RealName, MeetingID: "M-2"}))
		text = step("a new action assigned", 1)
		assert.Contains(t, text, "*Carol Wu* (1)")
		assert.Contains(t, text, "Brief the new auditors")

		env.records.AddMeeting(recordstest.Meeting{ID: "M-5", Title: "Finance Committee, extraordinary", Committee: "Finance", Date: env.today.AddDate(0, 0, -2)})
		env.records.SetMinutes(recordstest.Minutes{MeetingID: "M-5", Status: "approved", Body: "Present: all."})
		text = step("newer minutes published", 1)
		assert.Contains(t, text, "Latest minutes: <https://bot.example.org/minutes/M-5|Finance Committee, extraordinary>")
		step("up to date", 0)

		// The meeting starts: its brief is what it was then.
		env.clock.Set(m.Date.Add(time.Minute))
		m.Agenda = append(m.Agenda, recordstest.AgendaItem{Number: 4, Title: "Any other business"})
		env.records.AddMeeting(m)
		sum := env.mustPoll(w)
		assert.Zero(t, sum.Briefs+sum.BriefsUpdated, "started: left as it is")
		assert.NotContains(t, env.briefs(finChannel)[0].text, "Any other business")
	})
}

// TestBriefOverdueFirst: each person's open actions in the brief come as
// in the digest, overdue first, then soonest, undated last, whatever the
// order the records list them in.
func TestBriefOverdueFirst(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")
		env.followNow(w, finChannel, "Finance")
		env.records.AddAction(recordstest.Action{ID: "A-5", Title: "Find a new auditor", Status: "open",
			AssigneeEmail: alice.Email, AssigneeName: alice.RealName, MeetingID: "M-2"})
		env.records.AddAction(recordstest.Action{ID: "A-6", Title: "Chase the bank", Status: "open",
			AssigneeEmail: alice.Email, AssigneeName: alice.RealName, MeetingID: "M-2", Deadline: env.today.AddDate(0, 0, -3), DateOnly: true})
		m := nextFinance(env)
		env.records.AddMeeting(m)
		env.clock.Set(m.Date.Add(-24 * time.Hour))
		env.mustPoll(w)
		got := env.briefs(finChannel)
		require.Len(t, got, 1)
		text := got[0].text
		overdue, soon, undated := strings.Index(text, "Chase the bank"), strings.Index(text, "Circulate the accounts"), strings.Index(text, "Find a new auditor")
		require.True(t, overdue >= 0 && soon >= 0 && undated >= 0, "all three shown: %s", text)
		assert.Less(t, overdue, soon, "overdue first")
		assert.Less(t, soon, undated, "undated last")
	})
}

// TestBriefLatestMinutesPastNamesakes: the index lists minutes by
// committee prefix, so a committee whose name begins with the followed
// one's ("Finance Audit") can have many newer minutes in between; the
// brief still links Finance's own latest minutes.
func TestBriefLatestMinutesPastNamesakes(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, e engine) {
		env := newEnv(t, e)
		w := env.watcher("w1")
		env.followNow(w, finChannel, "Finance")
		m := nextFinance(env)
		env.records.AddMeeting(m)
		env.mustPoll(w) // indexes Finance's November minutes (M-2)
		for i := range 120 {
			require.NoError(t, w.deps.Store.IndexMinutes(t.Context(), store.MinutesDoc{
				MeetingID: fmt.Sprintf("FA-%d", i), Title: fmt.Sprintf("Finance Audit %d", i), Committee: "Finance Audit",
				Date: env.today.AddDate(0, 0, -1).Add(-time.Duration(i) * time.Minute), Body: "The audit plan.",
			}))
		}

		env.clock.Set(m.Date.Add(-24 * time.Hour))
		require.Equal(t, 1, env.mustPoll(w).Briefs)
		got := env.briefs(finChannel)
		require.Len(t, got, 1)
		assert.Contains(t, got[0].text, "Latest minutes: <https://bot.example.org/minutes/M-2|Finance Committee, November>")
		assert.NotContains(t, got[0].text, "Finance Audit")
	})
}
