package blocks

import (
	"flag"
	"testing"
	"time"

	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"

	"github.com/recordsbot/recordsbot/internal/golden"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/minutes"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// now is the fixed time of every test.
var now = time.Date(2026, 3, 2, 14, 30, 0, 0, time.UTC)

// day is a date-only value as the API client returns it: midnight UTC.
func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// payload is a message as the bot would post it.
func payload(m Message) any {
	return map[string]any{"text": m.Text, "blocks": m.Blocks}
}

// assertGolden compares v with testdata/<name>.golden.json (package
// golden), rewriting the file first under -update.
func assertGolden(t *testing.T, name string, v any) {
	t.Helper()
	golden.AssertJSON(t, name, v, *update)
}

// readableJSON is v as the golden files hold it.
func readableJSON(t *testing.T, v any) []byte { return golden.JSON(t, v) }

func sampleRows() []ActionRow {
	return []ActionRow{
		{
			ID:        "A-101",
			Title:     "Circulate the revised budget to all trustees",
			Status:    "open",
			Deadline:  day(2026, 3, 9),
			Meeting:   "Budget meeting",
			Committee: "Finance",
			CanChange: true,
		},
		{
			ID:              "A-102",
			Title:           "Book the hall for the AGM",
			Status:          "in_progress",
			Deadline:        time.Date(2026, 3, 4, 17, 0, 0, 0, time.UTC),
			DeadlineHasTime: true,
			Committee:       "Events",
			Assignee:        "Sam Lee",
			CanChange:       true,
		},
		{
			ID:        "A-103",
			Title:     "Review the safeguarding policy",
			Status:    "deferred",
			Committee: "Governance",
			CanChange: true,
		},
	}
}

// withContext sets the page context of every row.
func withContext(rows []ActionRow, context string) []ActionRow {
	for i := range rows {
		rows[i].Context = context
	}
	return rows
}

func sampleMinutes() MinutesView {
	return MinutesView{
		Display: minutes.Display{
			MeetingID: "M-7",
			Title:     "Finance Committee, March",
			Committee: "Finance",
			Date:      day(2026, 2, 26),
			Body: "Present: A. Jones (chair), B. Patel, C. Wu.\n\n\n" +
				"1. Apologies were received from D. Smith.\r\n\r\n" +
				"2. The budget for 2026/27 was discussed & agreed subject to <minor> changes.\n\n" +
				"3. Any other business: none.",
			URL: "https://records.example.org/meetings/M-7/minutes?format=html&lang=en",
		},
		Shareable: true,
	}
}

func sampleMeeting() MeetingRow {
	return MeetingRow{
		ID:          "M-7",
		Reference:   "FIN-2026-03",
		Title:       "Finance Committee, March",
		Committee:   "Finance",
		Date:        time.Date(2026, 3, 12, 18, 30, 0, 0, time.UTC),
		DateHasTime: true,
		Location:    "Room 2, Town Hall",
		Agenda: []AgendaRow{
			{Number: "1", Title: "Apologies"},
			{Number: "2", Title: "Minutes of the last meeting", Description: "To approve the minutes of 26 February."},
			{Number: "3a", Title: "Budget 2026/27", Description: "Report of the treasurer.\nPaper F-12 attached."},
			{Title: "Any other business"},
		},
	}
}

func TestGolden(t *testing.T) {
	t.Parallel()

	changed := sampleRows()[:1]
	changed[0].Status = "complete"
	changed[0].Changed = &Change{By: "U0123ABCD", At: now, Status: "complete"}

	overdue := sampleRows()[:2]
	overdue[0].Overdue = true
	overdue[0].Deadline = day(2026, 2, 20)

	hostile := ActionRow{
		ID:        "A-666",
		Title:     "<!channel> <@U123> & co",
		Status:    "<!here>",
		Meeting:   "<https://evil.example|click me>",
		Committee: "<#C0123|general>",
		Assignee:  "<!subteam^S123>",
		CanChange: true,
		Changed:   &Change{By: "<!everyone>", At: now, Status: "complete"},
	}

	// Record text that would display reversed or hide characters: the
	// golden file has none of the controls.
	invisibles := ActionRow{
		ID:        "A-667",
		Title:     "\u202Egnp.exe",
		Status:    "open",
		Meeting:   "Fin\u200Bance \u2066review\u2069",
		Committee: "\u202Bgnidliub\u202C",
		Assignee:  "sam\u200D@example.org\uFEFF",
		CanChange: true,
	}
	bidiMeeting := sampleMeeting()
	bidiMeeting.Title = "\u202EBoard meeting"

	draft := sampleMinutes()
	draft.Draft = true
	shared := sampleMinutes()
	shared.Shareable = false
	shared.SharedBy = "U0123ABCD"
	noURL := sampleMinutes()
	noURL.URL = ""
	noURL.Shareable = false

	meetings := MeetingList{Title: "Finance meetings", NextValue: "committee=Finance&offset=10"}
	for i, m := range []MeetingRow{sampleMeeting(), sampleMeeting()} {
		m.Agenda = nil
		if i == 1 {
			m.ID, m.Reference, m.Title, m.Location = "M-6", "", "Finance Committee, February", ""
			m.Date, m.DateHasTime = day(2026, 2, 26), false
		}
		meetings.Meetings = append(meetings.Meetings, m)
	}

	home := HomeView{
		User:       "U0123ABCD",
		Actions:    ActionList{Rows: sampleRows()[:2], Total: 5},
		MoreOffset: 2,
		Minutes: []MinutesView{
			sampleMinutes(),
			{Display: minutes.Display{Title: "Events Committee, February", Committee: "Events", Date: day(2026, 2, 10), Draft: true, URL: "javascript:alert(1)"}},
		},
	}

	reminder := Reminder{
		User:    "U0123ABCD",
		Days:    7,
		Overdue: overdue[:1],
		DueSoon: sampleRows()[1:2],
	}

	cases := []struct {
		name string
		got  any
	}{
		{"actions_normal", payload(Actions(ActionList{Title: "Your open actions", Rows: sampleRows(), Total: 3}))},
		{"actions_empty", payload(Actions(ActionList{Title: "Your open actions", Empty: "You have no open actions. :tada:"}))},
		{"actions_paginated", payload(Actions(ActionList{
			Title: "Your open actions", Rows: withContext(sampleRows()[:2], "open:10"), Offset: 10, Total: 23,
			MoreValue: "status=open&offset=12", Truncated: true,
		}))},
		{"actions_truncated", payload(Actions(ActionList{Title: "All your actions", Rows: sampleRows()[:1], Total: 1, Truncated: true, Read: 500, Available: 1250}))},
		{"actions_changed", payload(Actions(ActionList{Title: "Your actions", Rows: changed, Total: 1}))},
		{"actions_overdue", payload(Actions(ActionList{Title: "Overdue actions", Rows: overdue, Total: 2}))},
		{"actions_hostile", payload(Actions(ActionList{Title: "Actions for <!channel>", Rows: []ActionRow{hostile}}))},
		{"actions_invisible", payload(Actions(ActionList{Title: "Actions \u202Efor\u202C you", Rows: []ActionRow{invisibles}}))},
		{"meeting_invisible", payload(Meeting(bidiMeeting))},
		{"minutes_approved", payload(Minutes(sampleMinutes()))},
		{"minutes_draft", payload(Minutes(draft))},
		{"minutes_shared", payload(Minutes(shared))},
		{"minutes_no_url", payload(Minutes(noURL))},
		{"meetings_next", payload(Meetings(meetings))},
		{"meetings_empty", payload(Meetings(MeetingList{Title: "Finance meetings", Empty: "No meetings for Finance."}))},
		{"meeting_agenda", payload(Meeting(sampleMeeting()))},
		{"meeting_add_to_calendar", payload(Meeting(func() MeetingRow {
			m := sampleMeeting()
			m.CalendarURL = "https://bot.example.org/calendar/meeting/" + m.ID + ".ics"
			return m
		}()))},
		{"help_actions", payload(Help(lang.English, "/actions", ""))},
		{"help_minutes", payload(Help(lang.English, "/minutes", ""))},
		{"help_meetings", payload(Help(lang.English, "meetings", ""))},
		{"help_all", payload(Help(lang.English, "", "I didn't understand `/actions frobnicate`."))},
		// In the reader's language, with its command aliases beside the
		// English keywords.
		{"help_actions_fr", payload(Help(mustLang("fr"), "/actions", ""))},
		{"help_minutes_de", payload(Help(mustLang("de"), "/minutes", ""))},
		{"help_all_es", payload(Help(mustLang("es"), "", "No entendí `frobnicar`."))},
		{"notice", payload(Notice(":white_check_mark: Shared the minutes in <#C0123>."))},
		{"home_normal", Home(home)},
		{"home_unmapped", Home(HomeView{User: "U0123ABCD", Unmapped: "I couldn't find you in the records service (sam@example.org).", Minutes: home.Minutes[:1]})},
		{"home_error", Home(HomeView{User: "U0123ABCD", RecordsError: "The records service is not answering right now; try again in a minute."})},
		{"reminder", payload(ReminderMessage(reminder))},
		{"home_settings", Home(HomeView{User: "U0123ABCD", Minutes: home.Minutes[:1], Search: true, Notifications: &NotificationSettings{
			RemindOn: true, RemindAt: clocktime.Of(9, 0), AssignDMs: true,
		}})},
		{"home_settings_changed", Home(HomeView{User: "U0123ABCD", Notifications: &NotificationSettings{
			RemindOn: false, RemindAt: clocktime.Of(7, 30), RemindAtOwn: true, WeekdaysOnly: true, AssignDMs: false,
			Note: ":white_check_mark: Daily reminders are off.",
		}})},
		{"home_settings_unavailable", Home(HomeView{User: "U0123ABCD", Notifications: &NotificationSettings{
			Unavailable: ":warning: I can't reach my database right now, so your notification settings can't be shown or changed. Try again in a few minutes.",
		}})},
		{"home_calendar_get", Home(HomeView{User: "U0123ABCD", Calendar: &HomeCalendar{Public: "https://bot.example.org/calendar.ics"}})},
		{"home_calendar_link", Home(HomeView{User: "U0123ABCD", Calendar: &HomeCalendar{
			Private: "https://bot.example.org/calendar/u/abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrst.ics",
			Note:    ":white_check_mark: Here is your calendar link. Paste it into your calendar application as a subscription.",
		}})},
		{"unfurl", UnfurlMinutes(draft)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assertGolden(t, tc.name, tc.got)
			assert.NoError(t, checkAny(tc.got))
			assertEncodesAsJSON(t, blocksOf(t, tc.got))
		})
	}
}

// checkAny runs the Check that fits a golden value.
func checkAny(v any) error {
	switch v := v.(type) {
	case map[string]any:
		return CheckMessage(Message{Text: v["text"].(string), Blocks: v["blocks"].([]slack.Block)})
	case slack.HomeTabViewRequest:
		return CheckView(v)
	case slack.Attachment:
		return Check(v.Blocks.BlockSet)
	}
	panic("unknown golden value")
}

func TestFollowingGolden(t *testing.T) {
	t.Parallel()
	options := []HearOption{{"drafts", "Drafts published"}, {"approvals", "Approvals"}, {"digest", "Weekly digest"}}
	since := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	follows := []FollowRow{
		{Committee: "Audit & Risk", Key: "audit & risk", By: "U0ALICE", Since: since, Hears: map[string]bool{"approvals": true, "digest": true},
			DigestOption: "digest", DigestDefault: &clocktime.Weekly{On: true, Day: time.Monday, At: clocktime.Of(9, 0)}},
		{Committee: "Finance", Key: "finance", By: "U0BOB", Since: since, Hears: map[string]bool{"drafts": true, "approvals": true},
			Digest: &clocktime.Weekly{On: true, Day: time.Friday, At: clocktime.Of(16, 30)}, DigestMentions: true, DigestOption: "digest"},
	}
	assertGolden(t, "following_change", payload(FollowingMessage(Following{Follows: follows, Options: options, CanChange: true, Rev: "1",
		Note: ":white_check_mark: *Finance* now hears drafts published and approvals."})))
	assertGolden(t, "following_read_only", payload(FollowingMessage(Following{Follows: follows, Options: options,
		ChangeNote: "Only admins may change what this channel hears (`FOLLOW_ADMINS_ONLY`).", Rev: "1"})))
	key, ok := FollowKeyOf(FollowBlockID("audit & risk", "7"))
	assert.True(t, ok)
	assert.Equal(t, "audit & risk", key)
}

// mustLang is the shipped language of code.
func mustLang(code string) lang.Lang {
	l, err := lang.Parse(code)
	if err != nil {
		panic(err)
	}
	return l
}
