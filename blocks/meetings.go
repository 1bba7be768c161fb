package blocks

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/recordsbot/recordsbot/internal/lang"

	"github.com/slack-go/slack"
)

// Sizes of meeting text, in escaped characters.
const (
	meetingTitleMax     = 150
	meetingCommitteeMax = 60
	meetingLocationMax  = 80
	meetingRefMax       = 40
	agendaNumberMax     = 10
	agendaTitleMax      = 200
	agendaDescMax       = 300
	// agendaTextMax caps the agenda of one meeting message, so a
	// thousand-item agenda does not crowd out the rest; beyond it the
	// message says how many items are left.
	agendaTextMax = 6000
)

// meetingButtons is a meeting's buttons, one for each of actions
// (ActionMeetingAgenda, ActionMeetingMinutes) with the meeting's ID as its
// value; nil when the ID cannot be a button value.
func meetingButtons(lg lang.Lang, id string, actions ...string) *slack.ActionBlock {
	if id == "" || len(id) > MaxButtonValue {
		return nil
	}
	els := make([]slack.BlockElement, 0, len(actions))
	for _, a := range actions {
		label := lg.T("button.minutes")
		if a == ActionMeetingAgenda {
			label = lg.T("button.agenda")
		}
		els = append(els, button(a, id, label))
	}
	return slack.NewActionBlock("", els...)
}

// meetingTitle is the bold title line of a meeting.
func meetingTitle(lg lang.Lang, m MeetingRow) string {
	if t := inline(m.Title, meetingTitleMax); t != "" {
		return "*" + t + "*"
	}
	return "*" + lg.T("meeting.untitled") + "*"
}

// meetingLine is "<date> · <committee> · <location> · ref <reference>",
// leaving out what the record lacks.
func meetingLine(lg lang.Lang, m MeetingRow) string {
	var parts []string
	if d := Date(lg, m.Date, m.DateHasTime); d != "" {
		parts = append(parts, d)
	}
	if c := inline(m.Committee, meetingCommitteeMax); c != "" {
		parts = append(parts, c)
	}
	if l := inline(m.Location, meetingLocationMax); l != "" {
		parts = append(parts, l)
	}
	if r := inline(m.Reference, meetingRefMax); r != "" {
		parts = append(parts, lg.F("meeting.ref", "ref", r))
	}
	return strings.Join(parts, " · ")
}

// Meetings builds a meeting list: a header (l.Title, default "Meetings"),
// per meeting a section with the title and "<date> · <committee> ·
// <location> · ref <reference>" and an actions block with Agenda
// (ActionMeetingAgenda) and Minutes (ActionMeetingMinutes), both valued the
// meeting ID and left off when the ID is empty; then Next
// (ActionMeetingsNext, value l.NextValue) when NextValue is set. Pages of up
// to 10 meetings always fit; meetings beyond the message's limits are left
// off with a note. No meetings shows l.Empty ("No meetings found." when
// empty) as plain text.
func Meetings(l MeetingList) Message {
	lg := l.Lang
	title := truncate(cmp.Or(oneLine(l.Title), lg.T("meetings.title")), MaxHeaderText)
	blocks := []slack.Block{header(title)}
	fallback := Escape(title)
	if len(l.Meetings) == 0 {
		blocks = append(blocks, section(escapeTrunc(cmp.Or(strings.TrimSpace(l.Empty), lg.T("meetings.none")), MaxSectionText)))
		return Message{Text: fallback, Blocks: blocks}
	}
	fallback += " (" + lg.Int(len(l.Meetings)) + ")"

	var footer []slack.Block
	if l.NextValue != "" && len(l.NextValue) <= MaxButtonValue {
		footer = append(footer, slack.NewActionBlock("", button(ActionMeetingsNext, l.NextValue, lg.T("meetings.next"))))
	}
	left := leftOff(lg, len(l.Meetings))
	maxBlocks := MaxMessageBlocks - len(blocks) - len(footer) - 1
	maxText := MaxMessageText - runes(fallback) - measure(blocks...) - measure(footer...) - measure(left)

	shown := 0
	for _, m := range l.Meetings {
		bl := []slack.Block{section(meetingTitle(lg, m) + "\n" + cmp.Or(meetingLine(lg, m), lg.T("meeting.no_date")))}
		if b := meetingButtons(lg, m.ID, ActionMeetingAgenda, ActionMeetingMinutes); b != nil {
			bl = append(bl, b)
		}
		n := measure(bl...)
		if len(bl) > maxBlocks || n > maxText {
			break
		}
		blocks = append(blocks, bl...)
		maxBlocks -= len(bl)
		maxText -= n
		shown++
	}
	if rest := len(l.Meetings) - shown; rest > 0 {
		blocks = append(blocks, leftOff(lg, rest))
	}
	blocks = append(blocks, footer...)
	return Message{Text: fallback, Blocks: blocks}
}

// leftOff is the note for list items that did not fit.
func leftOff(lg lang.Lang, n int) *slack.ContextBlock {
	return contextLine(lg.N("meetings.left_off", n))
}

// Meeting builds one meeting: a header with the title, fields for
// committee, date, location and reference (those the record has), the
// agenda as numbered items (title in bold, description after it) in
// sections of at most 3000 characters, and a Minutes button
// (ActionMeetingMinutes, value m.ID) when the ID is set, with an "Add to
// calendar" link button when m.CalendarURL is a safe URL. The agenda shows at
// most about 6000 characters; the rest is summed up as "…and N more items".
func Meeting(m MeetingRow) Message {
	lg := m.Lang
	title := truncate(cmp.Or(oneLine(m.Title), lg.T("brief.meeting")), MaxHeaderText)
	blocks := []slack.Block{header(title)}
	fallback := Escape(title)
	if d := plainDate(lg, m.Date, m.DateHasTime); d != "" {
		fallback += ", " + d
	}

	var fields []*slack.TextBlockObject
	add := func(name, value string) {
		if value != "" {
			fields = append(fields, mrkdwn("*"+name+"*\n"+value))
		}
	}
	add(lg.T("minutes.field.committee"), inline(m.Committee, 200))
	add(lg.T("minutes.field.date"), Date(lg, m.Date, m.DateHasTime))
	add(lg.T("meeting.location"), inline(m.Location, 500))
	add(lg.T("meeting.reference"), inline(m.Reference, 200))
	if len(fields) > 0 {
		blocks = append(blocks, slack.NewSectionBlock(nil, fields, nil))
	}

	var footer []slack.Block
	if b := meetingButtons(lg, m.ID, ActionMeetingMinutes); b != nil {
		if safeURL(m.CalendarURL, MaxURL) {
			add := button(ActionOpenLink, "", lg.T("calendar.add"))
			add.URL = m.CalendarURL
			b.Elements.ElementSet = append(b.Elements.ElementSet, add)
		}
		footer = append(footer, b)
	}
	more := contextLine(lg.N("meeting.more_items", len(m.Agenda)))
	maxBlocks := MaxMessageBlocks - len(blocks) - len(footer) - 2 // agenda label, "more" note
	maxText := MaxMessageText - runes(fallback) - measure(blocks...) - measure(footer...) - measure(more)
	maxText = min(maxText, agendaTextMax)

	if len(m.Agenda) == 0 {
		blocks = append(blocks, contextLine(lg.T("meeting.no_agenda")))
	} else {
		blocks = append(blocks, section(lg.T("brief.agenda")))
		chunks, shown := agendaSections(lg, m.Agenda, maxBlocks, maxText)
		blocks = append(blocks, chunks...)
		if rest := len(m.Agenda) - shown; rest > 0 {
			blocks = append(blocks, contextLine(lg.N("meeting.more_items", rest)))
		}
	}
	blocks = append(blocks, footer...)
	return Message{Text: fallback, Blocks: blocks}
}

// agendaItem is one agenda item as mrkdwn.
func agendaItem(lg lang.Lang, i int, a AgendaRow) string {
	num := inline(a.Number, agendaNumberMax)
	if num == "" {
		num = strconv.Itoa(i + 1)
	}
	line := "*" + num + ". " + cmp.Or(inline(a.Title, agendaTitleMax), lg.T("meeting.untitled_item")) + "*"
	if d := inline(a.Description, agendaDescMax); d != "" {
		line += "\n" + d
	}
	return line
}

// agendaSections packs agenda items into sections of at most MaxSectionText
// characters, using at most maxBlocks sections and maxText characters. It
// returns the sections and how many items they hold.
func agendaSections(lg lang.Lang, items []AgendaRow, maxBlocks, maxText int) (out []slack.Block, shown int) {
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, section(cur.String()))
			cur.Reset()
		}
	}
	used, curRunes := 0, 0
	for i, a := range items {
		item := agendaItem(lg, i, a)
		n := runes(item)
		sep := 0
		if curRunes > 0 {
			sep = 1
		}
		if curRunes+sep+n > MaxSectionText {
			flush()
			curRunes, sep = 0, 0
		}
		blocksNeeded := len(out) + 1
		if used+sep+n > maxText || blocksNeeded > maxBlocks {
			break
		}
		if sep > 0 {
			cur.WriteByte('\n')
		}
		cur.WriteString(item)
		curRunes += sep + n
		used += sep + n
		shown++
	}
	flush()
	return out, shown
}
