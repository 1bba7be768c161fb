package remind_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/apiclient/recordstest"
	"github.com/recordsbot/recordsbot/internal/sampleorg"
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/internal/slackapi/slackusers"
	"github.com/recordsbot/recordsbot/internal/testlog"
	"github.com/recordsbot/recordsbot/remind"
	"github.com/recordsbot/recordsbot/remind/remindtest"
	"github.com/recordsbot/recordsbot/store"
)

// runEnv is the reminder job against the fakes: the records serving
// remindtest's organisation, the fake Slack holding its people, and the
// job's ledger, all on one clock a thousand times faster than real time,
// so that Slack's Retry-After and the one-post-a-second pacing are waited
// for on it, not in real time.
type runEnv struct {
	t       *testing.T
	clock   *slacktest.ScaledClock
	records *recordstest.Server
	slack   *slacktest.Server
	st      *store.Store
	// org is the action domain's configuration (USER_MAP).
	org actions.Config
}

// newRunEnv starts the env; withUserMap gives the action domain
// remindtest's USER_MAP.
func newRunEnv(t *testing.T, withUserMap bool) *runEnv {
	t.Helper()
	data := remindtest.Dataset()
	e := &runEnv{t: t, clock: slacktest.NewScaledClock(time.Now(), 1000)}
	if withUserMap {
		e.org.UserMap = remindtest.UserMap()
	}
	e.records = recordstest.NewServer(recordstest.WithDataset(data))
	t.Cleanup(e.records.Close)
	e.slack = slacktest.NewServer(slacktest.WithUsers(sampleorg.SlackUsers(data.People)...), slacktest.WithClock(e.clock.Now))
	t.Cleanup(e.slack.Close)
	st, err := store.Open(t.Context(), engines[0].NewURL(t))
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	e.st = st
	return e
}

// run is one run of the job with cfg, at remindtest.Now when cfg leaves
// the time out, reading the actions through a new action domain (as each
// `recordsbot remind` process builds its own).
func (e *runEnv) run(cfg remind.Config) remindRun {
	e.t.Helper()
	return e.runWith(cfg, nil)
}

// runWith is run with the records read through wrap(client) when wrap is
// set.
func (e *runEnv) runWith(cfg remind.Config, wrap func(actions.Records) actions.Records) remindRun {
	e.t.Helper()
	if cfg.Now.IsZero() {
		cfg.Now = remindtest.Now
	}
	rc, err := apiclient.NewClient(e.records.URL, recordstest.DefaultKey)
	require.NoError(e.t, err)
	var records actions.Records = rc
	if wrap != nil {
		records = wrap(rc)
	}
	api := slack.New(slacktest.DefaultToken, slack.OptionAPIURL(e.slack.APIURL()))
	var out bytes.Buffer
	sum, err := remind.Run(e.t.Context(), cfg, remind.Deps{
		Actions: actions.New(records, slackusers.Directory(api), e.org),
		Slack:   api,
		Logger:  testlog.New(e.t),
		Out:     &out,
		Clock:   e.clock,
		Store:   e.st,
	})
	return remindRun{sum: sum, err: err, out: out.String()}
}

// remindRun is one run's summary, error and output.
type remindRun struct {
	sum remind.Summary
	err error
	out string
}

// dm returns the only message in a DM channel, its outline and its JSON
// as text.
func (e *runEnv) dm(channel string) (slacktest.Message, []string, string) {
	e.t.Helper()
	msgs := e.slack.Messages(channel)
	require.Len(e.t, msgs, 1, "messages in %s", channel)
	var blocks []json.RawMessage
	require.NoError(e.t, json.Unmarshal(msgs[0].Blocks, &blocks))
	return msgs[0], remindtest.Outline(e.t, blocks), msgs[0].Text + string(msgs[0].Blocks)
}

// posts counts successful chat.postMessage calls.
func (e *runEnv) posts() int {
	n := 0
	for _, c := range e.slack.Calls("chat.postMessage") {
		if c.Status == http.StatusOK && c.Error == "" {
			n++
		}
	}
	return n
}

func TestRemindSendsOneDMPerUserWithTheirDueActions(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, true)
	run := e.run(remind.Config{Days: 3})
	require.NoError(t, run.err)

	assert.Equal(t, "2026-11-18", run.sum.Date)
	assert.Equal(t, 4, run.sum.Reminded, "alice, bob, carol and dee")
	assert.Equal(t, 7, run.sum.Actions)
	assert.Equal(t, []remind.UnmatchedAssignee{{Assignee: "Una Known <una@nowhere.example>", Actions: 1}}, run.sum.Unmatched)
	assert.Empty(t, run.sum.Failed)
	assert.Equal(t, 4, e.posts(), "one DM per user")

	_, alice, aliceAll := e.dm("DU0ALICE")
	assert.Equal(t, []string{"Overdue", "A-1", "Due soon", "A-14", "A-2"}, alice,
		"overdue first, then by deadline; the upper-case email is the same person")
	assert.Contains(t, aliceAll, "You have 1 overdue action and 2 due within 3 days.")
	_, bob, _ := e.dm("DU0BOB")
	assert.Equal(t, []string{"Overdue", "A-6", "Due soon", "A-5"}, bob)
	_, carol, _ := e.dm("DU0CAROL")
	assert.Equal(t, []string{"Due soon", "A-11"}, carol)
	_, dee, _ := e.dm("DU0DEE")
	assert.Equal(t, []string{"Due soon", "A-10"}, dee, "matched through USER_MAP, by name")

	// Every row has the buttons of /actions, and no assignee name (it is
	// the reader's own list).
	for _, id := range []string{"A-1", "A-14", "A-2"} {
		assert.Contains(t, aliceAll, `"complete|`+id+`|"`)
	}
	assert.NotContains(t, aliceAll, "Assigned to")
	// Each row reads as the same action's row in /actions: the title,
	// overdue, the deadline in the reader's own zone and the status.
	assert.Contains(t, aliceAll, `"text":"*Task A-1*\n:warning: *Overdue* · Due \u003c!date^1794312000^{date_short_pretty}|Nov 10, 2026\u003e · Open"`)
	assert.Contains(t, aliceAll, `"text":"*Task A-14*\nDue \u003c!date^1795075200^{date_short_pretty} at {time}|Nov 19, 2026 at 08:00 UTC\u003e · In progress"`)

	// Who is who comes from one users.list page; only una, whom it does
	// not hold, is looked up by email, and nobody's DM is opened.
	assert.Len(t, e.slack.Calls("users.list"), 1)
	lookups := e.slack.Calls("users.lookupByEmail")
	require.Len(t, lookups, 1)
	assert.Equal(t, "una@nowhere.example", lookups[0].Params.Get("email"))
}

func TestRemindDeadlineWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		days int
		now  time.Time
		want map[string][]string // DM channel -> outline
	}{
		{
			name: "days 0: overdue and due today",
			days: 0,
			want: map[string][]string{
				"DU0ALICE": {"Overdue", "A-1"},
				"DU0BOB":   {"Overdue", "A-6", "Due soon", "A-5"},
			},
		},
		{
			name: "days 1 reaches tomorrow",
			days: 1,
			want: map[string][]string{
				"DU0ALICE": {"Overdue", "A-1", "Due soon", "A-14"},
				"DU0BOB":   {"Overdue", "A-6", "Due soon", "A-5"},
			},
		},
		{
			name: "days 4 reaches the next day",
			days: 4,
			want: map[string][]string{
				"DU0ALICE": {"Overdue", "A-1", "Due soon", "A-14", "A-2", "A-3"},
				"DU0BOB":   {"Overdue", "A-6", "Due soon", "A-5"},
				"DU0CAROL": {"Due soon", "A-11", "A-12"},
				"DU0DEE":   {"Due soon", "A-10"},
			},
		},
		{
			name: "the next morning, what was due today is overdue",
			days: 0,
			now:  remindtest.Now.Add(24 * time.Hour),
			want: map[string][]string{
				"DU0ALICE": {"Overdue", "A-1", "A-14"},
				"DU0BOB":   {"Overdue", "A-6", "A-5"}, // A-6 passed at 09:00 yesterday, A-5 at midnight
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newRunEnv(t, true)
			run := e.run(remind.Config{Days: tc.days, Now: tc.now})
			require.NoError(t, run.err)
			got := map[string][]string{}
			for _, m := range e.slack.Messages("") {
				_, outline, _ := e.dm(m.Channel)
				got[m.Channel] = outline
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestRemindOnceADay(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, true)
	cfg := remind.Config{Days: 3, ReportChannel: "C0REPORTS"}

	first := e.run(cfg)
	require.NoError(t, first.err)
	require.Equal(t, 4, first.sum.Reminded)
	require.Equal(t, 5, e.posts(), "four reminders and the report")
	stored, _, _ := e.dm("DU0ALICE")
	assert.JSONEq(t, `{"event_type":"action_reminder","event_payload":{"key":"remind:U0ALICE:2026-11-18","date":"2026-11-18","action_ids":"A-1,A-14,A-2","action_count":3}}`,
		string(stored.Metadata))

	// An hour later, the same day: nothing new goes out.
	cfg.Now = remindtest.Now.Add(time.Hour)
	second := e.run(cfg)
	require.NoError(t, second.err)
	assert.Equal(t, 0, second.sum.Reminded)
	assert.Equal(t, 4, second.sum.Skipped)
	assert.Equal(t, 5, e.posts(), "no reminder and no report posted twice")
	for _, c := range e.slack.Calls("conversations.history") {
		assert.Equal(t, "1", c.Params.Get("include_all_metadata"))
	}
	assert.Contains(t, second.sum.String(), "0 users reminded, 0 actions included, 4 skipped as already reminded, 1 unmatched, 0 failed")

	// The next day everyone is reminded again.
	cfg.Now = remindtest.Now.Add(24 * time.Hour)
	third := e.run(cfg)
	require.NoError(t, third.err)
	assert.Equal(t, 0, third.sum.Skipped)
	assert.Equal(t, 4, third.sum.Reminded)
	assert.Equal(t, 5+4+1, e.posts(), "four reminders and the day's report")
}

func TestRemindReportsUnmatchedAssignees(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, false)
	run := e.run(remind.Config{Days: 3, ReportChannel: "C0REPORTS"})
	require.NoError(t, run.err)
	require.Len(t, run.sum.Unmatched, 2, "without USER_MAP, dee matches nobody either")
	assert.Equal(t, "Dee Mapped", run.sum.Unmatched[0].Assignee)
	assert.Equal(t, "Una Known <una@nowhere.example>", run.sum.Unmatched[1].Assignee)
	assert.Equal(t, 3, run.sum.Reminded)

	report := e.slack.Messages("C0REPORTS")
	require.Len(t, report, 1)
	assert.Contains(t, report[0].Text, "2 assignees with due actions match no Slack user")
	assert.Contains(t, report[0].Text, "• Dee Mapped: 1 action")
	assert.Contains(t, report[0].Text, "• Una Known &lt;una@nowhere.example&gt;: 1 action", "escaped for mrkdwn")
	assert.Contains(t, string(report[0].Metadata), `"event_type":"action_reminder_report"`)
}

// Slack's Retry-After is waited for, on the job's clock (the fake's too),
// before the refused call is made again.
func TestRemindWaitsForRetryAfter(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, true)
	e.slack.InjectFault(slacktest.Fault{Method: "chat.postMessage", HTTPStatus: http.StatusTooManyRequests, RetryAfter: 1, Times: 1})
	e.slack.InjectFault(slacktest.Fault{Method: "users.lookupByEmail", HTTPStatus: http.StatusTooManyRequests, RetryAfter: 1, Times: 1})
	run := e.run(remind.Config{Days: 3})
	require.NoError(t, run.err)
	assert.Equal(t, 4, run.sum.Reminded, "everyone is reminded in the end")
	require.Len(t, run.sum.Unmatched, 1, "a rate-limited lookup is not a miss")
	assert.Equal(t, "Una Known <una@nowhere.example>", run.sum.Unmatched[0].Assignee)

	calls := e.slack.Calls("chat.postMessage")
	require.Len(t, calls, 5)
	refused := calls[0]
	assert.Equal(t, http.StatusTooManyRequests, refused.Status)
	var retried *slacktest.Call
	for i := range calls[1:] {
		if c := calls[1+i]; c.Params.Get("channel") == refused.Params.Get("channel") {
			retried = &c
		}
	}
	require.NotNil(t, retried, "the refused post is sent again")
	assert.Equal(t, http.StatusOK, retried.Status)
	assert.GreaterOrEqual(t, retried.At.Sub(refused.At), time.Second, "after Retry-After")
}

func TestRemindPacesPostsToOneChannel(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, true)
	// The report goes to a DM that also gets a reminder: two posts to one
	// channel in one run.
	run := e.run(remind.Config{Days: 3, ReportChannel: "DU0ALICE"})
	require.NoError(t, run.err)
	var at []time.Time
	for _, c := range e.slack.Calls("chat.postMessage") {
		if ch := c.Params.Get("channel"); ch == "DU0ALICE" || ch == "U0ALICE" {
			at = append(at, c.At)
		}
	}
	require.Len(t, at, 2, "alice's reminder and the report")
	assert.GreaterOrEqual(t, at[1].Sub(at[0]), time.Second, "a second apart, as Slack allows one message a second per channel")
}

func TestRemindPartialFailure(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, true)
	e.slack.InjectFault(slacktest.Fault{Method: "chat.postMessage", Error: "fatal_error", Times: 1})
	run := e.run(remind.Config{Days: 3})
	require.ErrorIs(t, run.err, remind.ErrRemindersFailed)
	require.Len(t, run.sum.Failed, 1)
	failed := run.sum.Failed[0].Who
	assert.ErrorContains(t, run.sum.Failed[0].Err, "fatal_error")
	assert.Equal(t, 3, run.sum.Reminded, "the others still go out")
	assert.Equal(t, 3, e.posts())
	assert.Contains(t, run.sum.String(), "3 users reminded")
	assert.Contains(t, run.sum.String(), "1 failed")

	// A rerun sends only the one that failed.
	again := e.run(remind.Config{Days: 3})
	require.NoError(t, again.err)
	assert.Equal(t, 1, again.sum.Reminded)
	assert.Equal(t, 3, again.sum.Skipped)
	assert.Len(t, e.slack.Messages("D"+failed), 1)
}

func TestRemindLookupFailureIsAFailureNotAMiss(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, true)
	// Without the directory every assignee is looked up by email, and
	// those lookups fail too.
	e.slack.InjectFault(slacktest.Fault{Method: "users.list", HTTPStatus: http.StatusInternalServerError})
	e.slack.InjectFault(slacktest.Fault{Method: "users.lookupByEmail", HTTPStatus: http.StatusInternalServerError})
	run := e.run(remind.Config{Days: 3})
	require.ErrorIs(t, run.err, remind.ErrRemindersFailed)
	assert.Len(t, run.sum.Failed, 4, "alice, bob, carol and una could not be looked up")
	assert.Empty(t, run.sum.Unmatched)
	assert.Equal(t, 1, run.sum.Reminded, "dee, matched through USER_MAP, still is")
}

func TestRemindDryRun(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, true)
	run := e.run(remind.Config{Days: 3, DryRun: true, ReportChannel: "C0REPORTS"})
	require.NoError(t, run.err)
	assert.True(t, run.sum.DryRun)
	assert.Equal(t, 4, run.sum.Reminded)
	assert.Equal(t, 7, run.sum.Actions)
	for _, method := range []string{"chat.postMessage", "conversations.open", "conversations.history"} {
		assert.Empty(t, e.slack.Calls(method), "a dry run makes no %s call", method)
	}

	out := run.out
	assert.Contains(t, out, "Dry run for 2026-11-18: nothing is sent")
	assert.Contains(t, out, "Reminder for Alice Adams (U0ALICE)\nYou have 1 overdue action and 2 due within 3 days.\n\nOverdue\n  - Task A-1 (Due Nov 10, 2026, Open) [A-1]\n")
	assert.Contains(t, out, "Reminder for Dee Mapped (U0DEE)")
	assert.Less(t, strings.Index(out, "Alice Adams"), strings.Index(out, "Bob Brown"), "in a stable order")
	assert.Contains(t, out, "  - Una Known <una@nowhere.example> (1 action)\nThis list would be posted to C0REPORTS.")
	assert.Contains(t, run.sum.String(), "(dry run, nothing sent): 4 users to remind, 7 actions included, 1 unmatched, 0 failed")
}

func TestRemindSkipsWeekends(t *testing.T) {
	t.Parallel()
	saturday := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	e := newRunEnv(t, true)
	run := e.run(remind.Config{Days: 3, SkipWeekends: true, Now: saturday})
	require.NoError(t, run.err)
	assert.Equal(t, 4, run.sum.Weekend, "Saturday morning in London for all four")
	assert.Contains(t, run.sum.String(), "0 users reminded, 0 actions included, 0 skipped as already reminded, 4 on their weekend")
	assert.Empty(t, e.slack.Calls("chat.postMessage"))

	run = e.run(remind.Config{Days: 3, Now: saturday})
	require.NoError(t, run.err)
	assert.Zero(t, run.sum.Weekend)
	assert.Positive(t, run.sum.Reminded, "without SkipWeekends, Saturday is a day like any other")
}

// slackIDRecords serves the records with some assignees rewritten to a bare
// Slack ID, a form recordstest does not produce but the Records API may.
type slackIDRecords struct {
	actions.Records
	ids map[string]string // assignee name -> Slack ID
}

func (r slackIDRecords) ListActions(ctx context.Context, opts *apiclient.ListActionsOptions) (*apiclient.ActionList, error) {
	l, err := r.Records.ListActions(ctx, opts)
	if err != nil {
		return nil, err
	}
	for i := range l.Actions {
		if id, ok := r.ids[l.Actions[i].Assignee.Name]; ok {
			l.Actions[i].Assignee = apiclient.Person{SlackID: id}
		}
	}
	return l, nil
}

func TestRemindAssigneeGivenBySlackID(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, false)
	run := e.runWith(remind.Config{Days: 3}, func(r actions.Records) actions.Records {
		return slackIDRecords{Records: r, ids: map[string]string{"Dee Mapped": "U0DEE", "Bob Brown": "U0NOSUCH"}}
	})
	require.ErrorIs(t, run.err, remind.ErrRemindersFailed)
	_, dee, _ := e.dm("DU0DEE")
	assert.Equal(t, []string{"Due soon", "A-10"}, dee, "no USER_MAP needed")
	require.Len(t, run.sum.Failed, 1, "a Slack ID Slack does not know")
	assert.Equal(t, "U0NOSUCH", run.sum.Failed[0].Who)
	assert.ErrorContains(t, run.sum.Failed[0].Err, "channel_not_found", "Slack's answer to a post to a user ID it does not know")
}
