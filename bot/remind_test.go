package bot_test

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
	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/remind"
)

// remindNow is when the reminder tests run: a Wednesday morning, so the
// window of three days ends on Saturday 21 November.
var remindNow = time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC)

// remindDataset is a small organisation whose deadlines sit on both sides
// of every edge of the reminder window, seen from remindNow.
func remindDataset(d *recordstest.Dataset) {
	date := func(day int) time.Time { return time.Date(2026, 11, day, 0, 0, 0, 0, time.UTC) }
	at := func(day, hour, minute int) time.Time { return time.Date(2026, 11, day, hour, minute, 0, 0, time.UTC) }
	act := func(id, name, email, status string, due time.Time, dateOnly bool) recordstest.Action {
		return recordstest.Action{ID: id, Title: "Task " + id, Status: status, AssigneeName: name, AssigneeEmail: email, Deadline: due, DateOnly: dateOnly}
	}
	*d = recordstest.Dataset{
		People: []recordstest.Person{
			{Name: "Alice Adams", Email: "alice@example.org", SlackID: "U0ALICE"},
			{Name: "Bob Brown", Email: "bob@example.org", SlackID: "U0BOB"},
			{Name: "Carol Chen", Email: "carol@example.org", SlackID: "U0CAROL"},
			// Known to the records by name only: matched through USER_MAP.
			{Name: "Dee Mapped", SlackID: "U0DEE"},
		},
		Actions: []recordstest.Action{
			act("A-1", "Alice Adams", "alice@example.org", "open", date(10), true),              // overdue
			act("A-2", "Alice Adams", "alice@example.org", "in_progress", date(21), true),       // last day of the window
			act("A-3", "Alice Adams", "alice@example.org", "open", date(22), true),              // the day after it
			act("A-4", "Alice Adams", "alice@example.org", "complete", date(1), true),           // done
			act("A-5", "Bob Brown", "bob@example.org", "open", date(18), true),                  // due today, not overdue
			act("A-6", "Bob Brown", "bob@example.org", "open", at(18, 9, 0), false),             // an hour overdue
			act("A-7", "Bob Brown", "bob@example.org", "deferred", date(1), true),               // not to do
			act("A-8", "Carol Chen", "carol@example.org", "open", time.Time{}, false),           // no deadline
			act("A-9", "Una Known", "una@nowhere.example", "open", date(17), true),              // nobody in Slack
			act("A-10", "Dee Mapped", "", "open", at(20, 17, 0), false),                         // due soon
			act("A-11", "Carol Chen", "carol@example.org", "open", at(21, 23, 59), false),       // the window's last minute
			act("A-12", "Carol Chen", "carol@example.org", "in_progress", date(22), true),       // outside
			act("A-13", "", "", "open", date(12), true),                                         // nobody's
			act("A-14", "Alice Adams", "ALICE@example.org", "in_progress", at(19, 8, 0), false), // same person, other case
		},
	}
}

// remindRun is one run of the reminder job against the harness's fakes.
type remindRun struct {
	sum remind.Summary
	err error
	out string
}

// remindWorld is the reminder tests' organisation: remindDataset, with
// USER_MAP naming Dee, who the records know by name only. USER_MAP is the
// action domain's, which the bot and the job share.
func remindWorld(s harnessSetup) {
	withDataset(remindDataset)(s)
	s.actions.UserMap = actions.NewUserMap(map[string]string{"Dee Mapped": "U0DEE"})
}

// remind runs the job with cfg, filling in the clock (remindNow) when cfg
// leaves it out, with the harness's action domain. The job paces itself to
// Slack's tiers on a clock 1,000 times faster than real time, as the
// harness's fake has no tiers; remindRealTime paces in real time.
func (h *harness) remind(cfg remind.Config) remindRun {
	h.t.Helper()
	return h.remindOn(slacktest.NewScaledClock(time.Now(), 1000), cfg)
}

func (h *harness) remindRealTime(cfg remind.Config) remindRun {
	h.t.Helper()
	return h.remindOn(nil, cfg)
}

func (h *harness) remindOn(clock remind.Clock, cfg remind.Config) remindRun {
	h.t.Helper()
	if cfg.Now.IsZero() {
		cfg.Now = remindNow
	}
	rc, err := apiclient.NewClient(h.records.URL, recordstest.DefaultKey)
	require.NoError(h.t, err)
	var out bytes.Buffer
	sum, err := remind.Run(h.t.Context(), cfg, remind.Deps{
		Records: rc,
		Actions: h.actions,
		Slack:   slack.New(slacktest.DefaultToken, slack.OptionAPIURL(h.slack.APIURL())),
		Logger:  testLogger(h.t),
		Out:     &out,
		Clock:   clock,
		Store:   h.jobStore(),
	})
	return remindRun{sum: sum, err: err, out: out.String()}
}

// dm returns the only message in a DM channel, parsed.
func (h *harness) dm(channel string) (slacktest.Message, msg) {
	h.t.Helper()
	msgs := h.slack.Messages(channel)
	require.Len(h.t, msgs, 1, "messages in %s", channel)
	body, err := json.Marshal(map[string]any{"text": msgs[0].Text, "blocks": msgs[0].Blocks})
	require.NoError(h.t, err)
	return msgs[0], parseMsg(h.t, body)
}

// outline is a reminder's structure: its group labels and the IDs of its
// rows, in order, such as ["Overdue", "A-1", "Due soon", "A-2"].
func outline(t *testing.T, m msg) []string {
	t.Helper()
	var out []string
	for _, b := range m.Blocks {
		var blk struct {
			BlockID string `json:"block_id"`
			Text    struct {
				Text string `json:"text"`
			} `json:"text"`
		}
		require.NoError(t, json.Unmarshal(b, &blk))
		switch {
		case strings.HasPrefix(blk.BlockID, "action:"):
			out = append(out, strings.TrimPrefix(stableBlockID(blk.BlockID), "action:"))
		case blk.Text.Text == "*Overdue*", blk.Text.Text == "*Due soon*":
			out = append(out, strings.Trim(blk.Text.Text, "*"))
		}
	}
	return out
}

// posts counts successful chat.postMessage calls.
func (h *harness) posts() int {
	n := 0
	for _, c := range h.slack.Calls("chat.postMessage") {
		if c.Status == http.StatusOK && c.Error == "" {
			n++
		}
	}
	return n
}

func TestRemindSendsOneDMPerUserWithTheirDueActions(t *testing.T) {
	t.Parallel()
	h := newHarness(t, remindWorld)
	run := h.remind(remind.Config{Days: 3})
	require.NoError(t, run.err)

	assert.Equal(t, "2026-11-18", run.sum.Date)
	assert.Equal(t, 4, run.sum.Reminded, "alice, bob, carol and dee")
	assert.Equal(t, 7, run.sum.Actions)
	assert.Equal(t, []remind.UnmatchedAssignee{{Assignee: "Una Known <una@nowhere.example>", Actions: 1}}, run.sum.Unmatched)
	assert.Empty(t, run.sum.Failed)
	assert.Equal(t, 4, h.posts(), "one DM per user")

	_, alice := h.dm("DU0ALICE")
	assert.Equal(t, []string{"Overdue", "A-1", "Due soon", "A-14", "A-2"}, outline(t, alice),
		"overdue first, then by deadline; the upper-case email is the same person")
	assert.Contains(t, alice.Text, "You have 1 overdue action and 2 due within 3 days.")
	_, bob := h.dm("DU0BOB")
	assert.Equal(t, []string{"Overdue", "A-6", "Due soon", "A-5"}, outline(t, bob))
	_, carol := h.dm("DU0CAROL")
	assert.Equal(t, []string{"Due soon", "A-11"}, outline(t, carol))
	_, dee := h.dm("DU0DEE")
	assert.Equal(t, []string{"Due soon", "A-10"}, outline(t, dee), "matched through USER_MAP, by name")

	// Every row has the buttons of /actions, and no assignee name (it is
	// the reader's own list).
	for _, id := range []string{"A-1", "A-14", "A-2"} {
		assert.Contains(t, alice.all(), `"complete|`+id+`|"`)
	}
	assert.NotContains(t, alice.all(), "Assigned to")

	// Who is who comes from one users.list page; only una, whom it does
	// not hold, is looked up by email, and nobody's DM is opened.
	assert.Len(t, h.slack.Calls("users.list"), 1)
	lookups := h.slack.Calls("users.lookupByEmail")
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
			now:  remindNow.Add(24 * time.Hour),
			want: map[string][]string{
				"DU0ALICE": {"Overdue", "A-1", "A-14"},
				"DU0BOB":   {"Overdue", "A-6", "A-5"}, // A-6 passed at 09:00 yesterday, A-5 at midnight
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, remindWorld)
			run := h.remind(remind.Config{Days: tc.days, Now: tc.now})
			require.NoError(t, run.err)
			got := map[string][]string{}
			for _, m := range h.slack.Messages("") {
				_, parsed := h.dm(m.Channel)
				got[m.Channel] = outline(t, parsed)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestRemindOnceADay(t *testing.T) {
	t.Parallel()
	h := newHarness(t, remindWorld)
	cfg := remind.Config{Days: 3, ReportChannel: "C0REPORTS"}

	first := h.remind(cfg)
	require.NoError(t, first.err)
	require.Equal(t, 4, first.sum.Reminded)
	require.Equal(t, 5, h.posts(), "four reminders and the report")
	stored, _ := h.dm("DU0ALICE")
	assert.JSONEq(t, `{"event_type":"action_reminder","event_payload":{"key":"remind:U0ALICE:2026-11-18","date":"2026-11-18","action_ids":"A-1,A-14,A-2","action_count":3}}`,
		string(stored.Metadata))

	// An hour later, the same day: nothing new goes out.
	cfg.Now = remindNow.Add(time.Hour)
	second := h.remind(cfg)
	require.NoError(t, second.err)
	assert.Equal(t, 0, second.sum.Reminded)
	assert.Equal(t, 4, second.sum.Skipped)
	assert.Equal(t, 5, h.posts(), "no reminder and no report posted twice")
	for _, c := range h.slack.Calls("conversations.history") {
		assert.Equal(t, "1", c.Params.Get("include_all_metadata"))
	}
	assert.Contains(t, second.sum.String(), "0 users reminded, 0 actions included, 4 skipped as already reminded, 1 unmatched, 0 failed")

	// The next day everyone is reminded again.
	cfg.Now = remindNow.Add(24 * time.Hour)
	third := h.remind(cfg)
	require.NoError(t, third.err)
	assert.Equal(t, 0, third.sum.Skipped)
	assert.Equal(t, 4, third.sum.Reminded)
	assert.Equal(t, 5+4+1, h.posts(), "four reminders and the day's report")
}

func TestRemindReportsUnmatchedAssignees(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withDataset(remindDataset))
	run := h.remind(remind.Config{Days: 3, ReportChannel: "C0REPORTS"})
	require.NoError(t, run.err)
	require.Len(t, run.sum.Unmatched, 2, "without USER_MAP, dee matches nobody either")
	assert.Equal(t, "Dee Mapped", run.sum.Unmatched[0].Assignee)
	assert.Equal(t, "Una Known <una@nowhere.example>", run.sum.Unmatched[1].Assignee)
	assert.Equal(t, 3, run.sum.Reminded)

	report := h.slack.Messages("C0REPORTS")
	require.Len(t, report, 1)
	assert.Contains(t, report[0].Text, "2 assignees with due actions match no Slack user")
	assert.Contains(t, report[0].Text, "• Dee Mapped: 1 action")
	assert.Contains(t, report[0].Text, "• Una Known &lt;una@nowhere.example&gt;: 1 action", "escaped for mrkdwn")
	assert.Contains(t, string(report[0].Metadata), `"event_type":"action_reminder_report"`)
}

func TestRemindWaitsForRetryAfter(t *testing.T) {
	t.Parallel()
	h := newHarness(t, remindWorld)
	h.slack.InjectFault(slacktest.Fault{Method: "chat.postMessage", HTTPStatus: http.StatusTooManyRequests, RetryAfter: 1, Times: 1})
	h.slack.InjectFault(slacktest.Fault{Method: "users.lookupByEmail", HTTPStatus: http.StatusTooManyRequests, RetryAfter: 1, Times: 1})
	run := h.remindRealTime(remind.Config{Days: 3})
	require.NoError(t, run.err)
	assert.Equal(t, 4, run.sum.Reminded, "everyone is reminded in the end")
	require.Len(t, run.sum.Unmatched, 1, "a rate-limited lookup is not a miss")
	assert.Equal(t, "Una Known <una@nowhere.example>", run.sum.Unmatched[0].Assignee)

	calls := h.slack.Calls("chat.postMessage")
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
	h := newHarness(t, remindWorld)
	// The report goes to a DM that also gets a reminder: two posts to one
	// channel in one run.
	run := h.remindRealTime(remind.Config{Days: 3, ReportChannel: "DU0ALICE"})
	require.NoError(t, run.err)
	var at []time.Time
	for _, c := range h.slack.Calls("chat.postMessage") {
		if ch := c.Params.Get("channel"); ch == "DU0ALICE" || ch == "U0ALICE" {
			at = append(at, c.At)
		}
	}
	require.Len(t, at, 2, "alice's reminder and the report")
	assert.GreaterOrEqual(t, at[1].Sub(at[0]), time.Second, "a second apart, as Slack allows one message a second per channel")
}

func TestRemindPartialFailure(t *testing.T) {
	t.Parallel()
	h := newHarness(t, remindWorld)
	h.slack.InjectFault(slacktest.Fault{Method: "chat.postMessage", Error: "fatal_error", Times: 1})
	run := h.remind(remind.Config{Days: 3})
	require.ErrorIs(t, run.err, remind.ErrRemindersFailed)
	require.Len(t, run.sum.Failed, 1)
	failed := run.sum.Failed[0].Who
	assert.ErrorContains(t, run.sum.Failed[0].Err, "fatal_error")
	assert.Equal(t, 3, run.sum.Reminded, "the others still go out")
	assert.Equal(t, 3, h.posts())
	assert.Contains(t, run.sum.String(), "3 users reminded")
	assert.Contains(t, run.sum.String(), "1 failed")

	// A rerun sends only the one that failed.
	again := h.remind(remind.Config{Days: 3})
	require.NoError(t, again.err)
	assert.Equal(t, 1, again.sum.Reminded)
	assert.Equal(t, 3, again.sum.Skipped)
	assert.Len(t, h.slack.Messages("D"+failed), 1)
}

func TestRemindLookupFailureIsAFailureNotAMiss(t *testing.T) {
	t.Parallel()
	h := newHarness(t, remindWorld)
	// Without the directory every assignee is looked up by email, and
	// those lookups fail too.
	h.slack.InjectFault(slacktest.Fault{Method: "users.list", HTTPStatus: http.StatusInternalServerError})
	h.slack.InjectFault(slacktest.Fault{Method: "users.lookupByEmail", HTTPStatus: http.StatusInternalServerError})
	run := h.remind(remind.Config{Days: 3})
	require.ErrorIs(t, run.err, remind.ErrRemindersFailed)
	assert.Len(t, run.sum.Failed, 4, "alice, bob, carol and una could not be looked up")
	assert.Empty(t, run.sum.Unmatched)
	assert.Equal(t, 1, run.sum.Reminded, "dee, matched through USER_MAP, still is")
}

func TestRemindDryRun(t *testing.T) {
	t.Parallel()
	h := newHarness(t, remindWorld)
	run := h.remind(remind.Config{Days: 3, DryRun: true, ReportChannel: "C0REPORTS"})
	require.NoError(t, run.err)
	assert.True(t, run.sum.DryRun)
	assert.Equal(t, 4, run.sum.Reminded)
	assert.Equal(t, 7, run.sum.Actions)
	for _, method := range []string{"chat.postMessage", "conversations.open", "conversations.history"} {
		assert.Empty(t, h.slack.Calls(method), "a dry run makes no %s call", method)
	}

	out := run.out
	assert.Contains(t, out, "Dry run for 2026-11-18: nothing is sent")
	assert.Contains(t, out, "Reminder for Alice Adams (U0ALICE)\nYou have 1 overdue action and 2 due within 3 days.\n\nOverdue:\n  - Task A-1 (due 2026-11-10, Open) [A-1]\n")
	assert.Contains(t, out, "Reminder for Dee Mapped (U0DEE)")
	assert.Less(t, strings.Index(out, "Alice Adams"), strings.Index(out, "Bob Brown"), "in a stable order")
	assert.Contains(t, out, "  - Una Known <una@nowhere.example> (1 action)\nThis list would be posted to C0REPORTS.")
	assert.Contains(t, run.sum.String(), "(dry run, nothing sent): 4 users to remind, 7 actions included, 1 unmatched, 0 failed")
}

func TestRemindSkipsWeekends(t *testing.T) {
	t.Parallel()
	saturday := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	h := newHarness(t, remindWorld)
	run := h.remind(remind.Config{Days: 3, SkipWeekends: true, Now: saturday})
	require.NoError(t, run.err)
	assert.Equal(t, 4, run.sum.Weekend, "Saturday morning in London for all four")
	assert.Contains(t, run.sum.String(), "0 users reminded, 0 actions included, 0 skipped as already reminded, 4 on their weekend")
	assert.Empty(t, h.slack.Calls("chat.postMessage"))

	run = h.remind(remind.Config{Days: 3, Now: saturday})
	require.NoError(t, run.err)
	assert.Zero(t, run.sum.Weekend)
	assert.Positive(t, run.sum.Reminded, "without SkipWeekends, Saturday is a day like any other")
}

// TestRemindButtonsWorkInTheDM presses a button of a reminder exactly as
// Slack would (the DM's real blocks and ts, a non-ephemeral container) and
// checks that `serve` changes the action and updates that DM in place.
func TestRemindButtonsWorkInTheDM(t *testing.T) {
	t.Parallel()
	h := newHarness(t, remindWorld)
	require.NoError(t, h.remind(remind.Config{Days: 3}).err)
	stored, dm := h.dm("DU0ALICE")

	blockID, el, _ := dm.element(t, "status:complete", "complete|A-1|")
	r, err := h.send.Click(t.Context(), slacktest.Click{
		User: h.users["U0ALICE"], ChannelID: "DU0ALICE",
		MessageTS: stored.TS, MessageBlocks: stored.Blocks,
		BlockID: blockID, Element: el,
	})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.Status)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	require.NoError(t, h.slack.Wait(ctx, func() bool { return len(h.slack.Calls("chat.update")) > 0 }))

	got, _ := h.records.Action("A-1")
	assert.Equal(t, "complete", got.Status, "the records service has the new status")
	assert.Equal(t, 1, h.records.Count(http.MethodPut, "/actions/"))
	updates := h.slack.Calls("chat.update")
	require.Len(t, updates, 1)
	assert.Equal(t, "DU0ALICE", updates[0].Params.Get("channel"))
	assert.Equal(t, stored.TS, updates[0].Params.Get("ts"), "the reminder itself is updated")

	after, updated := h.dm("DU0ALICE")
	assert.True(t, after.Edited)
	s := updated.all()
	assert.Contains(t, s, "Marked complete by <@U0ALICE>", "the row says who changed it")
	assert.NotContains(t, s, `"complete|A-1|"`, "no Complete button on a completed action")
	assert.Contains(t, s, `"open|A-1|"`, "but Reopen")
	assert.Contains(t, s, `"complete|A-2|"`, "the other rows keep their buttons")
	assert.Equal(t, outline(t, dm), outline(t, updated), "every row stays where it was")
	assert.Equal(t, string(stored.Metadata), string(after.Metadata), "the update keeps the metadata")

	// So the once-a-day rule still holds after a click.
	again := h.remind(remind.Config{Days: 3})
	require.NoError(t, again.err)
	assert.Equal(t, 4, again.sum.Skipped)
}

// slackIDRecords serves the records with some assignees rewritten to a bare
// Slack ID, a form recordstest does not produce but the Records API may.
type slackIDRecords struct {
	remind.Records
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
	h := newHarness(t, withDataset(remindDataset))
	rc, err := apiclient.NewClient(h.records.URL, recordstest.DefaultKey)
	require.NoError(t, err)
	sum, err := remind.Run(t.Context(), remind.Config{Days: 3, Now: remindNow}, remind.Deps{
		Records: slackIDRecords{Records: rc, ids: map[string]string{"Dee Mapped": "U0DEE", "Bob Brown": "U0NOSUCH"}},
		Actions: h.actions,
		Slack:   slack.New(slacktest.DefaultToken, slack.OptionAPIURL(h.slack.APIURL())),
		Logger:  testLogger(t),
		Store:   h.jobStore(),
	})
	require.ErrorIs(t, err, remind.ErrRemindersFailed)
	_, dee := h.dm("DU0DEE")
	assert.Equal(t, []string{"Due soon", "A-10"}, outline(t, dee), "no USER_MAP needed")
	require.Len(t, sum.Failed, 1, "a Slack ID Slack does not know")
	assert.Equal(t, "U0NOSUCH", sum.Failed[0].Who)
	assert.ErrorContains(t, sum.Failed[0].Err, "channel_not_found", "Slack's answer to a post to a user ID it does not know")
}

// TestReminderRecountsWhenARowChanges: Complete clicked on a reminder DM's
// rows, signed as Slack signs them, leaves the DM Slack holds saying what
// is still to do: "1 overdue action and 2 due" becomes "2 due" after the
// overdue one is done, then "1 action due" after one due soon is too, and
// Reopen counts it again. The rows stay, redrawn with who changed them.
func TestReminderRecountsWhenARowChanges(t *testing.T) {
	t.Parallel()
	h := newHarness(t, remindWorld)
	require.NoError(t, h.remind(remind.Config{Days: 3}).err)
	alice := h.users["U0ALICE"]
	held := func() (slacktest.Message, msg) {
		t.Helper()
		msgs := h.slack.Messages("DU0ALICE")
		require.Len(t, msgs, 1, "the reminder is updated in place")
		body, err := json.Marshal(map[string]any{"text": msgs[0].Text, "blocks": msgs[0].Blocks})
		require.NoError(t, err)
		return msgs[0], parseMsg(t, body)
	}
	press := func(actionID, value string) msg {
		t.Helper()
		stored, dm := held()
		updates := len(h.slack.Calls("chat.update"))
		blockID, el, _ := dm.element(t, actionID, value)
		r, err := h.send.Click(t.Context(), slacktest.Click{User: alice, ChannelID: "DU0ALICE",
			MessageTS: stored.TS, MessageBlocks: stored.Blocks, MessageText: stored.Text, BlockID: blockID, Element: el})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, r.Status)
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		require.NoError(t, h.slack.Wait(ctx, func() bool { return len(h.slack.Calls("chat.update")) > updates }))
		_, dm = held()
		return dm
	}
	_, dm := held()
	require.Contains(t, dm.all(), "You have *1 overdue action* and *2* due within 3 days.")

	dm = press("status:complete", "complete|A-1|")
	assert.Contains(t, dm.all(), "You have *2 actions* due within 3 days.", "the overdue one is done")
	assert.NotContains(t, dm.all(), "overdue action")
	assert.Contains(t, dm.all(), "*Task A-1*", "its row stays, redrawn")

	dm = press("status:complete", "complete|A-2|")
	assert.Contains(t, dm.all(), "You have *1 action* due within 3 days.")

	dm = press("status:open", "open|A-1|")
	assert.Contains(t, dm.all(), "You have *1 overdue action* and *1* due within 3 days.", "reopened: counted again")
	assert.Empty(t, h.slack.BlockIDReuse(), "each version under new block IDs")
}
