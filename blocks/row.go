package blocks

import (
	"strings"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/apiclient"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// What a row shows is decided here once, for every surface that shows an
// action: the lists and the row a click redraws (ActionRowBlocks), the
// reminder DM and its plain text (ReminderText), digests and briefs. They
// all draw an ActionRow that RowOf built; what differs per surface is in
// the row (CanChange: buttons; Assignee: named or not) or in the form its
// medium needs (rowForm: a section, a line under a heading, plain text),
// never in a second function that picks the words again.

// rowForm is how a row is laid out in its medium. Every form draws the
// same row with the same pieces (writeTitle, rowDate, rowStatus, rowText
// and the catalogue's row.* words); a line says less, as its heading says
// the rest.
type rowForm int

const (
	// formSection is a list's row (ActionRowBlocks): the title in bold
	// on its own line, then overdue, the deadline, the status, the
	// committee, the meeting and the assignee after " · ", then the
	// change a click made and the snooze, each on a line in italics.
	formSection rowForm = iota
	// formLine is one line under a heading that already says whose
	// actions and which committee's (a digest's and a brief's lists):
	// :red_circle: when overdue, the title, then " — " and, after ", ",
	// in progress, the deadline of an action still to do ("was due"
	// when overdue) and the assignee.
	formLine
	// formPlain is plain text with no mrkdwn (ReminderText): the title,
	// the section's facts in brackets after ", ", then the ID in square
	// brackets.
	formPlain
)

// Widths of a row's parts in a line, in escaped characters: a digest's
// line has room for a longer title and name than a list's row.
const (
	lineTitleMax    = 150
	lineAssigneeMax = 80
)

// writeRow writes what r shows in form f, in l, to b, its title cut to
// titleMax characters (section and line forms).
func writeRow(b *strings.Builder, l lang.Lang, r ActionRow, f rowForm, titleMax int) {
	writeTitle(b, l, r, f, titleMax)
	switch f {
	case formLine:
		writeLineFacts(&rowFacts{b: b, lead: " — ", sep: ", "}, l, r)
	case formPlain:
		writeFacts(&rowFacts{b: b, lead: " (", sep: ", ", tail: ")"}, l, r, f)
		if id := oneLine(r.ID); id != "" {
			b.WriteString(" [")
			b.WriteString(id)
			b.WriteString("]")
		}
	default:
		writeFacts(&rowFacts{b: b, sep: " · "}, l, r, f)
		writeNotes(b, l, r)
	}
}

// writeFacts writes a section's or plain text's facts: overdue (in a
// section: plain text is listed under "Overdue"), the deadline or none,
// the status, the committee, the meeting when it is not the committee,
// and the assignee when the row names them.
func writeFacts(facts *rowFacts, l lang.Lang, r ActionRow, f rowForm) {
	b := facts.b
	if r.Overdue && f == formSection {
		facts.add(l.T("row.overdue"))
	}
	if d := rowDate(l, r, f); d != "" {
		facts.next()
		l.WriteF(b, "row.due", "date", d)
	} else {
		facts.add(l.T("row.no_deadline"))
	}
	if s := rowStatus(l, r.Status, f); s != "" {
		facts.add(s)
	}
	committee := rowText(r.Committee, rowCommitteeMax, f)
	if committee != "" {
		facts.add(committee)
	}
	if m := rowText(r.Meeting, rowMeetingMax, f); m != "" && m != committee {
		facts.add(m)
	}
	if a := rowText(r.Assignee, rowAssigneeMax, f); a != "" {
		facts.next()
		l.WriteF(b, "row.assigned_to", "who", a)
	}
	facts.end()
}

// writeLineFacts writes a line's facts: in progress, the deadline of an
// action still to do (a finished action's is no longer news), and the
// assignee's name alone when the row names them (under its heading it
// reads clearly). The committee and the meeting are the heading's.
func writeLineFacts(facts *rowFacts, l lang.Lang, r ActionRow) {
	b := facts.b
	if r.Status == statusInProgress {
		facts.add(l.T("row.line.in_progress"))
	}
	if d := rowDate(l, r, formLine); d != "" && actions.StillToDo(apiclient.Status(r.Status)) {
		facts.next()
		if r.Overdue {
			l.WriteF(b, "row.line.was_due", "date", d)
		} else {
			l.WriteF(b, "row.line.due", "date", d)
		}
	}
	if a := rowText(r.Assignee, lineAssigneeMax, formLine); a != "" {
		facts.add(a)
	}
	facts.end()
}

// writeTitle writes r's title: escaped and shortened to titleMax in
// mrkdwn, with the row's link on it when it can carry one; bold in a
// section, after :red_circle: in a line when overdue. An untitled action
// says so.
func writeTitle(b *strings.Builder, l lang.Lang, r ActionRow, f rowForm, titleMax int) {
	if f == formPlain {
		b.WriteString(plainTitle(l, r))
		return
	}
	title := cmpOr(inline(r.Title, titleMax), l, "row.untitled")
	switch {
	case f == formSection:
		b.WriteString("*")
	case r.Overdue:
		b.WriteString(":red_circle: ")
	}
	if linkOnTitle(r.Link) {
		b.WriteString("<")
		b.WriteString(Escape(r.Link))
		b.WriteString("|")
		b.WriteString(title)
		b.WriteString(">")
	} else {
		b.WriteString(title)
	}
	if f == formSection {
		b.WriteString("*\n")
	}
}

// plainTitle is r's title as plain text, one line; an untitled action
// says so.
func plainTitle(l lang.Lang, r ActionRow) string {
	return cmpOr(oneLine(r.Title), l, "row.untitled")
}

// cmpOr is s, or the catalogue's words for key when s is empty.
func cmpOr(s string, l lang.Lang, key lang.Key) string {
	if s != "" {
		return s
	}
	return l.T(key)
}

// writeNotes writes a section row's lines about the change a click just
// made ("Marked complete by @x today at 3:04 PM") and its snooze.
func writeNotes(b *strings.Builder, l lang.Lang, r ActionRow) {
	if c := r.Changed; c != nil {
		b.WriteString("\n_")
		b.WriteString(strings.TrimSpace(changedLine(l, c.Status, mention(l, c.By), dateTime(l, c.At))))
		b.WriteString("_")
	}
	if !r.SnoozedUntil.IsZero() {
		b.WriteString("\n_")
		l.WriteF(b, "row.snoozed_until", "date", l.WeekdayDate(r.SnoozedUntil))
		b.WriteString("_")
	}
}

// rowDate is r's deadline as form f writes dates: Slack's date token in
// mrkdwn, a readable date in plain text; "" for none.
func rowDate(l lang.Lang, r ActionRow, f rowForm) string {
	if f == formPlain {
		return plainDate(l, r.Deadline, r.DeadlineHasTime)
	}
	return Date(l, r.Deadline, r.DeadlineHasTime)
}

// rowStatus is how status reads in form f.
func rowStatus(l lang.Lang, status string, f rowForm) string {
	if f == formPlain {
		return plainStatus(l, status)
	}
	return statusWord(l, status)
}

// rowText is record text for form f: one line, and in mrkdwn escaped and
// shortened to max.
func rowText(s string, max int, f rowForm) string {
	if f == formPlain {
		return oneLine(s)
	}
	return inline(s, max)
}

// rowFacts writes a row's facts to b: lead before the first, sep between
// two, tail after the last, nothing when there are none.
type rowFacts struct {
	b               *strings.Builder
	lead, sep, tail string
	some            bool
}

// next starts a fact.
func (f *rowFacts) next() {
	if f.some {
		f.b.WriteString(f.sep)
	} else {
		f.b.WriteString(f.lead)
	}
	f.some = true
}

// add writes the fact s.
func (f *rowFacts) add(s string) {
	f.next()
	f.b.WriteString(s)
}

// end closes the facts.
func (f *rowFacts) end() {
	if f.some {
		f.b.WriteString(f.tail)
	}
}

// rowLine is r as one line under a heading (formLine), as digests and
// briefs list it.
func rowLine(l lang.Lang, r ActionRow) string {
	var b strings.Builder
	writeRow(&b, l, r, formLine, lineTitleMax)
	return b.String()
}

// rowPlain is r as plain text (formPlain): "Title (Due Mar 1, 2026, Open,
// Finance, Budget meeting) [A-17]".
func rowPlain(l lang.Lang, r ActionRow) string {
	var b strings.Builder
	writeRow(&b, l, r, formPlain, 0)
	return b.String()
}
