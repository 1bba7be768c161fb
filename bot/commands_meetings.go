package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
)

// maxMeetingPages bounds how many pages of meetings one answer reads.
const maxMeetingPages = 10

// meetingsCursor is where a meeting list continues; it travels, as JSON, in
// the value of the "Next" button.
type meetingsCursor struct {
	Committee string `json:"c,omitempty"`
	Next      string `json:"n,omitempty"` // the records page to read
	Skip      int    `json:"k,omitempty"` // meetings of that page already shown
}

func (mu *minutesUI) commandMeetings(ctx context.Context, cmd command) *reply {
	arg := cmd.Args.argument()
	if strings.EqualFold(arg, "help") {
		return ephemeral(blocks.Help("/meetings", ""))
	}
	if arg != "" {
		m, err := mu.records.GetMeeting(ctx, arg)
		if err == nil {
			return ephemeral(blocks.Meeting(mu.meetingRow(m)))
		}
		if !isNotFound(err) {
			return notice(mu.say(ctx, "get meeting", err))
		}
	}
	return mu.meetingsPage(ctx, meetingsCursor{Committee: arg})
}

// meetingsPage collects up to one page of meetings from cur on, reading as
// many records pages as that takes (bounded).
func (mu *minutesUI) meetingsPage(ctx context.Context, cur meetingsCursor) *reply {
	var rows []blocks.MeetingRow
	var nextValue string
	token, skip := cur.Next, cur.Skip
	for page := 0; page < maxMeetingPages; page++ {
		p, err := mu.records.ListMeetings(ctx, &apiclient.ListMeetingsOptions{Next: token})
		if err != nil {
			return notice(mu.say(ctx, "list meetings", err))
		}
		full := false
		for i := skip; i < len(p.Meetings); i++ {
			m := &p.Meetings[i]
			if !committeeMatches(m.Committee, cur.Committee) {
				continue
			}
			if len(rows) == mu.pageSize {
				nextValue = encodeCursor(meetingsCursor{Committee: cur.Committee, Next: token, Skip: i})
				full = true
				break
			}
			rows = append(rows, meetingRow(m))
		}
		if full {
			break
		}
		token, skip = p.Next, 0
		if token == "" {
			break
		}
		if len(rows) == mu.pageSize {
			nextValue = encodeCursor(meetingsCursor{Committee: cur.Committee, Next: token})
			break
		}
	}
	if len(rows) == 0 && cur.Committee != "" && cur.Next == "" {
		return ephemeral(blocks.Help("/meetings", fmt.Sprintf("I found no meeting or committee called `%s`.", blocks.EscapeTyped(cur.Committee))))
	}
	title := "Recent meetings"
	if cur.Committee != "" {
		title = "Recent meetings: " + cur.Committee
	}
	return ephemeral(blocks.Meetings(blocks.MeetingList{Title: title, Meetings: rows, NextValue: nextValue, Empty: "No meetings found."}))
}

// encodeCursor returns the button value for c, or "" when it would not fit
// in a button value (Slack's limit is 2000 characters): the list then ends
// at this page instead of carrying a broken cursor.
func encodeCursor(c meetingsCursor) string {
	b, err := json.Marshal(c)
	if err != nil || len(b) > 2000 {
		return ""
	}
	return string(b)
}

// meetingRow is meetingRow with the meeting's "Add to calendar" link
// (the public calendar's one-event feed, when on).
func (mu *minutesUI) meetingRow(m *apiclient.Meeting) blocks.MeetingRow {
	r := meetingRow(m)
	r.CalendarURL = mu.cal.AddURL(m)
	return r
}

func meetingRow(m *apiclient.Meeting) blocks.MeetingRow {
	r := blocks.MeetingRow{
		ID: m.ID, Reference: m.Reference, Title: m.Name(), Committee: m.Committee,
		Date: m.Date, DateHasTime: m.DateHasTime, Location: m.Location,
	}
	for _, it := range m.Agenda {
		r.Agenda = append(r.Agenda, blocks.AgendaRow{Number: it.Number, Title: it.Title, Description: it.Description})
	}
	return r
}
