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

// assertGolden compares render's English with testdata/<name>.golden.json
// (package golden), rewriting the file first under -update, and renders it
// in lang.Pseudo too, failing on English that escaped the catalogue
// (pseudo_test.go). render is a func(l lang.Lang) any that draws the
// golden in l: every golden of this package is a scenario in every
// language, so one added later is checked without a list to keep.
func assertGolden(t *testing.T, name string, render any) {
	t.Helper()
	r, ok := render.(func(lang.Lang) any)
	if !ok {
		t.Errorf("golden %s: pass a func(l lang.Lang) any that draws it in l, so it is checked in the pseudo-language too (docs/languages.md)", name)
		golden.AssertJSON(t, name, render, *update)
		return
	}
	golden.AssertJSON(t, name, r(lang.English), *update)
	assertNoEnglish(t, name, r(lang.Pseudo))
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

	// The main surfaces have a golden in each shipped language
	// (assertGoldenIn).
	everyLanguage := map[string]bool{"actions_normal": true, "home_normal": true, "reminder": true, "actions_snooze": true,
		"help_actions": true, "help_minutes": true, "help_all": true}
	// The assignee's own rows: Snooze (a menu and a date picker) after
	// the status controls, Unsnooze on a snoozed one; a row that may not
	// change still offers Snooze.
	snooze := sampleRows()
	for i := range snooze {
		snooze[i].MaySnooze, snooze[i].Rev = true, "r1"
	}
	snooze[1].SnoozedUntil = day(2026, 3, 10)
	snooze[2].CanChange = false
	cases := []struct {
		name   string
		render func(l lang.Lang) any
	}{
		{"actions_snooze", func(l lang.Lang) any {
			return payload(Actions(ActionList{Lang: l, Title: l.T("actions.title.mine.open"), Rows: snooze, Total: 3}))
		}},
		{"actions_normal", func(l lang.Lang) any {
			return payload(Actions(ActionList{Lang: l, Title: l.T("actions.title.mine.open"), Rows: sampleRows(), Total: 3}))
		}},
		{"actions_empty", func(l lang.Lang) any {
			return payload(Actions(ActionList{Lang: l, Title: l.T("actions.title.mine.open"), Empty: l.T("home.nothing_open")}))
		}},
		{"actions_paginated", func(l lang.Lang) any {
			return payload(Actions(ActionList{
				Lang: l, Title: l.T("actions.title.mine.open"), Rows: withContext(sampleRows()[:2], "open:10"), Offset: 10, Total: 23,
				MoreValue: "status=open&offset=12", Truncated: true,
			}))
		}},
		{"actions_truncated", func(l lang.Lang) any {
			return payload(Actions(ActionList{Lang: l, Title: l.T("actions.title.mine.all"), Rows: sampleRows()[:1], Total: 1, Truncated: true, Read: 500, Available: 1250}))
		}},
		{"actions_changed", func(l lang.Lang) any {
			return payload(Actions(ActionList{Lang: l, Title: l.T("home.your_actions"), Rows: changed, Total: 1}))
		}},
		{"actions_overdue", func(l lang.Lang) any {
			return payload(Actions(ActionList{Lang: l, Title: l.T("actions.title.mine.overdue"), Rows: overdue, Total: 2}))
		}},
		{"actions_hostile", func(l lang.Lang) any {
			return payload(Actions(ActionList{Lang: l, Title: l.F("actions.title.other.open", "name", "<!channel>"), Rows: []ActionRow{hostile}}))
		}},
		{"actions_invisible", func(l lang.Lang) any {
			return payload(Actions(ActionList{Lang: l, Title: l.F("actions.title.other.open", "name", "Sam \u202ELee\u202C"), Rows: []ActionRow{invisibles}}))
		}},
		{"meeting_invisible", func(l lang.Lang) any { m := bidiMeeting; m.Lang = l; return payload(Meeting(m)) }},
		{"minutes_approved", func(l lang.Lang) any { return payload(Minutes(minutesIn(l, sampleMinutes()))) }},
		{"minutes_draft", func(l lang.Lang) any { return payload(Minutes(minutesIn(l, draft))) }},
		{"minutes_shared", func(l lang.Lang) any { return payload(Minutes(minutesIn(l, shared))) }},
		{"minutes_no_url", func(l lang.Lang) any { return payload(Minutes(minutesIn(l, noURL))) }},
		{"meetings_next", func(l lang.Lang) any {
			m := meetings
			m.Lang, m.Title = l, l.T("meetings.title")
			return payload(Meetings(m))
		}},
		{"meetings_empty", func(l lang.Lang) any {
			return payload(Meetings(MeetingList{Lang: l, Title: "Finance", Empty: l.T("meetings.none")}))
		}},
		{"meeting_agenda", func(l lang.Lang) any { m := sampleMeeting(); m.Lang = l; return payload(Meeting(m)) }},
		{"meeting_add_to_calendar", func(l lang.Lang) any {
			m := sampleMeeting()
			m.Lang = l
			m.CalendarURL = "https://bot.example.org/calendar/meeting/" + m.ID + ".ics"
			return payload(Meeting(m))
		}},
		{"help_actions", func(l lang.Lang) any { return payload(Help(l, "/actions", "")) }},
		{"help_minutes", func(l lang.Lang) any { return payload(Help(l, "/minutes", "")) }},
		{"help_meetings", func(l lang.Lang) any { return payload(Help(l, "meetings", "")) }},
		{"help_all", func(l lang.Lang) any { return payload(Help(l, "", l.F("actions.parse.unknown", "word", "frobnicate"))) }},
		{"notice", func(l lang.Lang) any { return payload(Notice(StatusDone(l, "complete", "Book the hall for the AGM"))) }},
		{"home_normal", func(l lang.Lang) any { h := home; h.Lang = l; return Home(h) }},
		{"home_unmapped", func(l lang.Lang) any {
			return Home(HomeView{Lang: l, User: "U0123ABCD", Unmapped: l.T("actions.unmapped.self"), Minutes: home.Minutes[:1]})
		}},
		{"home_error", func(l lang.Lang) any {
			return Home(HomeView{Lang: l, User: "U0123ABCD", RecordsError: l.T("err.records_down")})
		}},
		{"reminder", func(l lang.Lang) any { r := reminder; r.Lang = l; return payload(ReminderMessage(r)) }},
		{"home_settings", func(l lang.Lang) any {
			return Home(HomeView{Lang: l, User: "U0123ABCD", Minutes: home.Minutes[:1], Search: true, Notifications: &NotificationSettings{
				RemindOn: true, RemindAt: clocktime.Of(9, 0), AssignDMs: true,
			}})
		}},
		{"home_settings_changed", func(l lang.Lang) any {
			return Home(HomeView{Lang: l, User: "U0123ABCD", Notifications: &NotificationSettings{
				RemindOn: false, RemindAt: clocktime.Of(7, 30), RemindAtOwn: true, WeekdaysOnly: true, AssignDMs: false,
				Note: l.T("settings.footer"),
			}})
		}},
		{"home_settings_unavailable", func(l lang.Lang) any {
			return Home(HomeView{Lang: l, User: "U0123ABCD", Notifications: &NotificationSettings{
				Unavailable: l.T("err.store_down"),
			}})
		}},
		{"home_calendar_get", func(l lang.Lang) any {
			return Home(HomeView{Lang: l, User: "U0123ABCD", Calendar: &HomeCalendar{Public: "https://bot.example.org/calendar.ics"}})
		}},
		{"home_calendar_link", func(l lang.Lang) any {
			return Home(HomeView{Lang: l, User: "U0123ABCD", Calendar: &HomeCalendar{
				Private: "https://bot.example.org/calendar/u/abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrst.ics",
				Note:    l.T("calendar.help"),
			}})
		}},
		{"unfurl", func(l lang.Lang) any { return UnfurlMinutes(minutesIn(l, draft)) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if everyLanguage[tc.name] {
				assertGoldenIn(t, tc.name, tc.render)
			} else {
				assertGolden(t, tc.name, tc.render)
			}
			got := tc.render(lang.English)
			assert.NoError(t, checkAny(got))
			assertEncodesAsJSON(t, blocksOf(t, got))
		})
	}
}

// minutesIn is v to be read in l.
func minutesIn(l lang.Lang, v MinutesView) MinutesView {
	v.Lang = l
	return v
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
	options := []string{"drafts", "approvals", "digest"}
	since := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	follows := []FollowRow{
		{Committee: "Audit & Risk", Key: "audit & risk", By: "U0ALICE", Since: since, Hears: map[string]bool{"approvals": true, "digest": true},
			DigestOption: "digest", DigestDefault: &clocktime.Weekly{On: true, Day: time.Monday, At: clocktime.Of(9, 0)}},
		{Committee: "Finance", Key: "finance", By: "U0BOB", Since: since, Hears: map[string]bool{"drafts": true, "approvals": true},
			Digest: &clocktime.Weekly{On: true, Day: time.Friday, At: clocktime.Of(16, 30)}, DigestMentions: true, DigestOption: "digest"},
	}
	// The Finance follow's posts are in German, whoever reads the list,
	// its own choice; Audit & Risk's are in the organisation's English.
	// The list itself is in each shipped language (the schedule's
	// weekday too).
	follows[1].LanguageChosen = true
	assertGoldenIn(t, "following_change", func(l lang.Lang) any {
		follows[0].Language, follows[1].Language = l.T("follow.language.en"), l.T("follow.language.de")
		return payload(FollowingMessage(Following{Lang: l, Follows: follows, Options: HearOptions(l, options), CanChange: true, Rev: "1",
			Note: l.F("follow.changed", "who", "<@U0BOB>", "committee", "Finance", "what",
				l.F("follow.list.and", "list", l.T("follow.heard.drafts"), "last", l.T("follow.heard.approvals")))}))
	})
	assertGolden(t, "following_read_only", func(l lang.Lang) any {
		follows[0].Language, follows[1].Language = l.T("follow.language.en"), l.T("follow.language.de")
		return payload(FollowingMessage(Following{Lang: l, Follows: follows, Options: HearOptions(l, options),
			ChangeNote: l.T("follow.choices_admins_only"), Rev: "1"}))
	})
	key, ok := FollowKeyOf(FollowBlockID("audit & risk", "7"))
	assert.True(t, ok)
	assert.Equal(t, "audit & risk", key)
}
