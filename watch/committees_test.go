package watch_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/clocktest"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
)

// committeesMonday is 08:00 UTC on Monday 23 November 2026, when the
// committees world is followed; digests are due at 09:00 and each
// committee meets tomorrow at 08:30, so at 09:00 its brief is due too
// (23½ hours ahead, within the 24-hour BRIEF_LEAD).
var committeesMonday = time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)

// committeeName is the k-th committee of the committees world.
func committeeName(k int) string { return fmt.Sprintf("Committee %02d", k) }

// committeesWorld is an organisation of n committees, each with a meeting
// ten days ago whose minutes are approved, a meeting tomorrow at 08:30
// with an agenda, and two actions still to do from the past meeting, one
// overdue; alice and bob share them.
func committeesWorld(n int) recordstest.Dataset {
	today := committeesMonday.Truncate(24 * time.Hour)
	var ds recordstest.Dataset
	for k := 1; k <= n; k++ {
		c := committeeName(k)
		past, next := fmt.Sprintf("M-%02d-past", k), fmt.Sprintf("M-%02d-next", k)
		ds.Meetings = append(ds.Meetings,
			recordstest.Meeting{ID: past, Title: c + ", November", Committee: c, Date: today.AddDate(0, 0, -10)},
			recordstest.Meeting{ID: next, Title: c + ", December", Committee: c, Date: today.AddDate(0, 0, 1).Add(8*time.Hour + 30*time.Minute),
				Agenda: []recordstest.AgendaItem{{Number: 1, Title: "Apologies"}, {Number: 2, Title: "Matters arising"}}})
		ds.Minutes = append(ds.Minutes, recordstest.Minutes{MeetingID: past, Status: "approved", Body: "Present: all.\n\nAgreed."})
		ds.Actions = append(ds.Actions,
			recordstest.Action{ID: fmt.Sprintf("A-%02d-1", k), Title: "Circulate the papers", Status: "open", AssigneeEmail: alice.Email,
				AssigneeName: alice.RealName, MeetingID: past, Deadline: today.AddDate(0, 0, -1), DateOnly: true},
			recordstest.Action{ID: fmt.Sprintf("A-%02d-2", k), Title: "Book the room", Status: "in_progress", AssigneeEmail: bob.Email,
				AssigneeName: bob.RealName, MeetingID: past, Deadline: today.AddDate(0, 0, 7), DateOnly: true})
	}
	return ds
}

// newCommitteesEnv starts the committees world of n committees on engine
// eng, with the records' default page size and the fake Slack built with
// opts; its clock reads committeesMonday.
func newCommitteesEnv(t *testing.T, eng engine, n int, opts ...slacktest.Option) *env {
	t.Helper()
	c := clocktest.New(committeesMonday)
	rs := recordstest.NewServer(recordstest.WithDataset(committeesWorld(n)), recordstest.WithClock(c.Now))
	t.Cleanup(rs.Close)
	ss := slacktest.NewServer(append([]slacktest.Option{slacktest.WithUsers(alice, bob, carol)}, opts...)...)
	t.Cleanup(ss.Close)
	t.Cleanup(func() { require.Empty(t, ss.MarkdownInMrkdwn(), "standard Markdown sent as mrkdwn") })
	return &env{t: t, records: rs, slack: ss, url: eng.NewURL(t), clock: c, today: committeesMonday.Truncate(24 * time.Hour)}
}

// mondayDigests is the weekly digest at 09:00 UTC on Mondays.
func mondayDigests(c *watchConfig) {
	c.Follows.Digest = &clocktime.Weekly{On: true, Day: time.Monday, At: clocktime.Of(9, 0)}
}

// followCommittees has each of channels follow committees 1 to n, then
// takes the baseline poll at 08:00: nothing is posted, no digest or brief
// is due yet.
func (e *env) followCommittees(w *watcher, n int, channels ...string) {
	e.t.Helper()
	for _, ch := range channels {
		for k := 1; k <= n; k++ {
			e.follow(w, ch, committeeName(k))
		}
	}
	sum := e.mustPoll(w)
	require.Zero(e.t, sum.Announced+sum.Digests+sum.Briefs+sum.DMs, "the baseline posts nothing: %s", sum)
}

// channelOf is the channel a post was made to.
func channelOf(c slacktest.Call) string { return strings.TrimSpace(c.Params.Get("channel")) }
