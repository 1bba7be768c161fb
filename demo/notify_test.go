package demo

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/slackapi/slacktest"
	"github.com/recordsbot/recordsbot/watch"
)

// announcements returns the bot's posts in #general that show the
// minutes titled title (thread replies excluded).
func announcements(env *demoEnv, title string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range env.slack.Messages(demoChannel) {
		if !isReply(m) && strings.Contains(string(m.Blocks), title) {
			out = append(out, m)
		}
	}
	return out
}

func TestDemoFollowPublishApproveWatch(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{},
		"/minutes follow finance", "publish finance", "watch", "approve finance", "watch", "watch")
	require.NoError(t, err, all)

	assert.Contains(t, out["/minutes follow finance"], "recordsbot · in #general")
	assert.Contains(t, out["/minutes follow finance"], "@alice made this channel follow Finance")

	publish := out["publish finance"]
	assert.NotContains(t, publish, "baselined", "the follow took its baseline when it was made: no poll is needed first")
	assert.Contains(t, publish, "Finance Committee: Insurance renewal")
	assert.Contains(t, publish, "as a published draft")

	first := out["watch"]
	assert.Contains(t, first, "The watcher looked for new or approved minutes in the ")
	assert.Contains(t, first, "New: 1 announcement of new minutes.")
	assert.Contains(t, first, "recordsbot · in #general")
	assert.Contains(t, first, "New draft minutes: Finance Committee: Insurance renewal")
	assert.Contains(t, first, "Draft — not yet approved")
	assert.Regexp(t, `\[\d+\] Agenda`, first, "the announcement's buttons are numbered")
	require.Len(t, announcements(env, "Finance Committee: Insurance renewal"), 1, "one announcement in #general")

	assert.Contains(t, out["approve finance"], "as approved")

	approved := out["watch#2"]
	assert.Contains(t, approved, "New: 1 announcement updated on approval.")
	assert.Contains(t, approved, "recordsbot · in #general · updated", "the announcement is updated in place")
	assert.Contains(t, approved, "First posted as a draft; these minutes are now approved.")
	assert.NotContains(t, approved, "Draft — not yet approved")
	assert.NotContains(t, approved, "Draft minutes, subject to approval", "approval took the draft note out")
	assert.Contains(t, approved, "reply in the thread of an earlier post")
	assert.Contains(t, approved, "Finance Committee: Insurance renewal is now approved, with 1 change since the draft",
		"approval took the draft note out: one change, said in the thread")
	assert.Less(t, strings.Index(approved, "· updated"), strings.Index(approved, "reply in the thread"),
		"the reply reads below the post it answers")

	posts := announcements(env, "Finance Committee: Insurance renewal")
	require.Len(t, posts, 1, "still one announcement: updated, not posted again")
	assert.True(t, posts[0].Edited, "with chat.update")
	var replies []slacktest.Message
	for _, m := range env.slack.Messages(demoChannel) {
		if isReply(m) {
			replies = append(replies, m)
		}
	}
	require.Len(t, replies, 1)
	assert.Equal(t, posts[0].TS, replies[0].ThreadTS, "the reply is in the announcement's thread")

	again := out["watch#3"]
	assert.NotContains(t, again, "New:")
	assert.Contains(t, again, "nothing new")
	assert.NotContains(t, again, "recordsbot · in #general")
}

func TestDemoWatchWithoutAFollowAnnouncesNothing(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "publish finance", "watch")
	require.NoError(t, err, all)
	assert.NotContains(t, out["publish finance"], "baselined", "no follow, no catch-up poll")
	assert.Contains(t, out["watch"], "no channel follows a committee, so it looked for no minutes")
	assert.Contains(t, out["watch"], "nothing new")
	assert.Empty(t, env.slack.Messages(demoChannel))
}

func TestDemoNotifyCommandErrors(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, _, err := runScript(t, env, consoleOptions{},
		"publish", "publish zzz", "approve zzz", "approve finance", "approve finance")
	assert.EqualError(t, err, "4 commands of the demo script failed")
	assert.Contains(t, out["publish"], "publish which committee? For example: publish finance")
	assert.Contains(t, out["publish zzz"], `there is no committee "zzz" in the demo`)
	assert.Contains(t, out["approve zzz"], `there is no committee "zzz" in the demo`)
	assert.Contains(t, out["approve finance"], "Bank mandate and signatories", "the latest published draft")
	assert.Contains(t, out["approve finance"], "as approved")
	assert.Contains(t, out["approve finance#2"], "Finance has no published draft to approve; publish finance publishes one")
}

// buttonNumber returns the number of the first control labelled label
// after the line holding after in section.
func buttonNumber(t *testing.T, section, after, label string) string {
	t.Helper()
	i := strings.Index(section, after)
	require.GreaterOrEqual(t, i, 0, "no %q in:\n%s", after, section)
	m := regexp.MustCompile(`\[(\d+)\] (?:▾ )?` + regexp.QuoteMeta(label)).FindStringSubmatch(section[i:])
	require.Len(t, m, 2, "no control %q after %q in:\n%s", label, after, section)
	return m[1]
}

func TestDemoHomeNotificationSettings(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "home")
	require.NoError(t, err, all)
	home := out["home"]
	assert.Contains(t, home, "Notifications")
	assert.Contains(t, home, "Daily reminders: On")
	off := buttonNumber(t, home, "Daily reminders: On", "Turn off")
	menu := buttonNumber(t, home, "Reminder time:", "00:00")

	out, all, err = runScript(t, env, consoleOptions{},
		"home", "click "+off, "remind", "click "+menu, "click "+menu+" 25:00", "click "+menu+" 10:00")
	require.EqualError(t, err, "2 commands of the demo script failed", all)

	click := out["click "+off]
	assert.Contains(t, click, "@alice clicks “Turn off”")
	assert.Contains(t, click, "your Home tab", "the Home tab is redrawn")
	assert.Contains(t, click, "Daily reminders are off")
	assert.Contains(t, click, "Daily reminders: Off")
	set, err := env.store.Settings(t.Context(), "U0ALICE")
	require.NoError(t, err)
	require.NotNil(t, set.RemindEnabled, "the choice is saved")
	assert.False(t, *set.RemindEnabled)

	remind := out["remind"]
	assert.Contains(t, remind, "DMs to other people", "the others are still reminded")
	assert.NotContains(t, remind, "DM to you", "alice turned hers off")
	assert.Empty(t, env.slack.Messages("DU0ALICE"))

	assert.Contains(t, out["click "+menu], "is a menu: say which option, like: click "+menu+" 01:00")
	assert.Contains(t, out["click "+menu+" 25:00"], `has no option "25:00"`)
	chosen := out["click "+menu+" 10:00"]
	assert.Contains(t, chosen, "@alice clicks “10:00”")
	assert.Contains(t, chosen, "Reminders now arrive from 10:00")
	assert.Contains(t, chosen, "Reminder time: 10:00")
	assert.Contains(t, chosen, "Daily reminders: Off", "the earlier choice is kept")
}

func TestDemoAssignmentDMs(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "watch", "home")
	require.NoError(t, err, all)
	assert.NotContains(t, out["watch"], "assignment DM", "the story's actions were the baseline, taken when the demo started")
	assert.Contains(t, out["watch"], "nothing new")
	dmsOff := buttonNumber(t, out["home"], "New-assignment DMs: On", "Turn off")

	out, all, err = runScript(t, env, consoleOptions{},
		"home",
		"assign bob Book the hall for the AGM", "assign alice Order the new chairs", "watch",
		"home", "click "+dmsOff, "assign alice Sort the archive", "watch",
		"assign", "assign nobody Do it")
	require.EqualError(t, err, "2 commands of the demo script failed", all)

	sent := out["watch"]
	assert.Contains(t, sent, "New: 2 assignment DMs.")
	assert.Contains(t, sent, "recordsbot · DM to you")
	assert.Contains(t, sent, "New action for you")
	assert.Contains(t, sent, "Order the new chairs")
	assert.Regexp(t, `\[\d+\] Complete`, sent, "the DM has the action's buttons")
	assert.Contains(t, sent, "DMs to other people")
	assert.Contains(t, sent, "@bob ")
	require.Len(t, env.slack.Messages("DU0BOB"), 1)
	assert.Contains(t, string(env.slack.Messages("DU0BOB")[0].Blocks), "Book the hall for the AGM")

	assert.Contains(t, out["click "+dmsOff], "New-assignment DMs: Off")
	off := out["watch#2"]
	assert.Contains(t, off, "New: 1 assignment DM not sent (its person turned them off).", "alice's choice on the Home tab is obeyed")
	assert.NotContains(t, off, "DM to you")
	assert.Len(t, env.slack.Messages("DU0ALICE"), 1, "only the DM from before she turned them off")

	assert.Contains(t, out["assign"], "assign whom what? For example: assign bob Book the hall for the AGM")
	assert.Contains(t, out["assign nobody Do it"], `there is no one called "nobody"`)
}

// The demo's /minutes following shows each follow's checkboxes, and a
// click ticks or unticks one in place.
func TestDemoFollowingCheckboxes(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{},
		"/minutes follow finance", "/minutes following", "click 1")
	require.NoError(t, err, all)
	list := out["/minutes following"]
	assert.Contains(t, list, "Finance")
	assert.Contains(t, list, "[1] ☑ Drafts published")
	assert.Contains(t, list, "[2] ☑ Approvals")
	assert.Contains(t, list, "[3] ☑ Weekly digest (every Monday 09:00, the usual time)", "the digest's schedule beside its box")
	assert.Contains(t, list, "[4] ☑ Pre-meeting briefs")
	clicked := out["click 1"]
	assert.Contains(t, clicked, "[1] ☐ Drafts published", "redrawn in place with the box unticked")
	assert.Contains(t, clicked, "[2] ☑ Approvals")
	assert.Contains(t, clicked, "[3] ☑ Weekly digest")
	assert.Contains(t, clicked, "[4] ☑ Pre-meeting briefs")
	assert.Contains(t, clicked, "now brings approvals, weekly digest and pre-meeting briefs here")
}

// TestPollReport: the demo says what a poll checked (how far back, so two
// polls' different counts make sense) and what was new, in plain words,
// not the job's log line ("read 16 meetings (4 pages)").
func TestPollReport(t *testing.T) {
	t.Parallel()
	since := time.Date(2026, 10, 28, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		sum  watch.Summary
		want string
	}{
		{"no follows", watch.Summary{Actions: 36, MeetingPages: 4},
			"The watcher looked for new assignments among the 36 actions still to do; no channel follows a committee, so it looked for no minutes."},
		{"topic watches, no follows", watch.Summary{Actions: 36, TopicWatches: 1, TopicPosts: 1},
			"The watcher looked for new assignments among the 36 actions still to do, and for the words of 1 topic watch in newly published minutes and new agendas; no channel follows a committee, so it announced no minutes.\n" +
				"New: 1 topic match."},
		{"nothing new", watch.Summary{Since: since, Meetings: 16, MeetingPages: 4, Actions: 1},
			"The watcher looked for new or approved minutes in the 16 meetings dated Oct 28 or later, and for new assignments among the 1 action still to do."},
		{"news", watch.Summary{Since: since, Meetings: 1, Actions: 2, Announced: 1, Approved: 2, DMs: 1, DMsOff: 2, Briefs: 1, Failed: 1},
			"The watcher looked for new or approved minutes in the 1 meeting dated Oct 28 or later, and for new assignments among the 2 actions still to do.\n" +
				"New: 1 announcement of new minutes, 2 announcements updated on approval, 1 assignment DM, 2 assignment DMs not sent (their people turned them off), 1 pre-meeting brief.\n" +
				"Not sent: 1 (the next watch tries again)."},
		{"busy", watch.Summary{Busy: true}, "The watcher did nothing: another poll was running."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := pollReport(tt.sum, time.UTC)
			assert.Equal(t, tt.want, got)
			assert.NotContains(t, got, "page", "pages are the job's business")
		})
	}
}

// TestDemoTopicWatch: the README's topic walk. #general watches "levy";
// the Finance draft mentions the insurance premium tax levy; the next
// poll tells #general once, with the words in bold.
func TestDemoTopicWatch(t *testing.T) {
	t.Parallel()
	env := startTestDemo(t)
	out, all, err := runScript(t, env, consoleOptions{}, "/minutes watch levy", "publish finance", "watch", "watch")
	require.NoError(t, err, all)
	assert.Contains(t, out["/minutes watch levy"], "set this channel to hear when “levy” comes up")
	first := out["watch"]
	assert.Contains(t, first, "New: 1 topic match.")
	assert.Contains(t, first, "“levy” comes up in the minutes of Finance Committee: Insurance renewal")
	assert.NotContains(t, out["watch#2"], "topic match", "told once")
}
