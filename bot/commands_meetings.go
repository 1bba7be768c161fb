package bot

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/lang"
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
	cmd.Args = cmd.Args.withKeyword("help")
	arg := cmd.Args.argument()
	if strings.EqualFold(arg, "help") {
		return ephemeral(blocks.Help(lang.FromContext(ctx), "/meetings", ""))
	}
	if arg != "" {
		m, err := mu.svc.Meeting(ctx, arg)
		if err == nil {
			return ephemeral(blocks.Meeting(mu.meetingRow(lang.FromContext(ctx), m)))
		}
		if !isNotFound(err) {
			return notice(mu.say(ctx, "get meeting", err))
		}
	}
	return mu.meetingsPage(ctx, meetingsCursor{Committee: arg})
}

// meetingsPage collects up to one page of meetings from cur on, reading as
// many records pages as that takes (bounded), in the reader's language.
func (mu *minutesUI) meetingsPage(ctx context.Context, cur meetingsCursor) *reply {
	lg := lang.FromContext(ctx)
	var rows []blocks.MeetingRow
	var nextValue string
	token, skip := cur.Next, cur.Skip
	for page := 0; page < maxMeetingPages; page++ {
		p, err := mu.svc.Meetings(ctx, token)
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
			rows = append(rows, meetingRow(lg, m))
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
		return ephemeral(blocks.Help(lg, "/meetings", lg.F("cmd.no_such", "name", blocks.EscapeTyped(cur.Committee))))
	}
	title := lg.T("meetings.recent")
	if cur.Committee != "" {
		title = lg.F("meetings.recent_of", "committee", cur.Committee)
	}
	return ephemeral(blocks.Meetings(blocks.MeetingList{Lang: lg, Title: title, Meetings: rows, NextValue: nextValue, Empty: lg.T("meetings.none")}))
}

// encodeCursor returns the button value for c, or "" when it would not fit
// in a button value (blocks.MaxButtonValue): the list then ends
// at this page instead of carrying a broken cursor.
func encodeCursor(c meetingsCursor) string {
	b, err := json.Marshal(c)
	if err != nil || len(b) > blocks.MaxButtonValue {
		return ""
	}
	return string(b)
}

// meetingRow is meetingRow with the meeting's "Add to calendar" link
// (the public calendar's one-event feed, when on).
func (mu *minutesUI) meetingRow(lg lang.Lang, m *apiclient.Meeting) blocks.MeetingRow {
	r := meetingRow(lg, m)
	r.CalendarURL = mu.cal.AddURL(m)
	return r
}

func meetingRow(lg lang.Lang, m *apiclient.Meeting) blocks.MeetingRow {
	r := blocks.MeetingRow{
		Lang: lg,
		ID:   m.ID, Reference: m.Reference, Title: m.Name(), Committee: m.Committee,
		Date: m.Date, DateHasTime: m.DateHasTime, Location: m.Location,
	}
	for _, it := range m.Agenda {
		r.Agenda = append(r.Agenda, blocks.AgendaRow{Number: it.Number, Title: it.Title, Description: it.Description})
	}
	return r
}
