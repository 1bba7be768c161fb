package blocks

import (
	"fmt"
	"strings"

	"github.com/recordsbot/recordsbot/internal/lang"

	"github.com/slack-go/slack"
)

// plainReminderSummary is reminderSummary without the bold marks, for
// plain-text fallbacks (the marks only ever surround counts here).
func plainReminderSummary(r Reminder) string {
	return strings.ReplaceAll(reminderSummary(r), "*", "")
}

// reminderSummary is "You have *2 overdue actions* and *3* due within 7
// days." in r.Lang, the counts in bold as the catalogue writes them.
func reminderSummary(r Reminder) string {
	l := r.Lang
	overdue, due := len(r.Overdue), len(r.DueSoon)
	if r.Away != nil {
		window := l.T("remind.soon")
		if r.Days > 0 {
			window = l.N("remind.within", r.Days)
		}
		s := l.F("remind.away.summary", "since", l.WeekdayDate(r.Away.Since),
			"assigned", l.N("remind.away.assigned", len(r.Away.Assigned)), "overdue", l.N("remind.away.overdue", r.Away.BecameOverdue))
		if overdue+due > 0 {
			s += " " + l.F("remind.away.in_all", "overdue", l.Int(overdue), "due", l.Int(due), "window", window)
		}
		return s
	}
	return countSentence(l, reminderCount{Overdue: overdue, Due: due, Days: r.Days, Weekly: r.Weekly})
}

// reminderCount is what a daily or weekly reminder's opening sentence
// counts: its overdue actions and those due within its window.
type reminderCount struct {
	Overdue, Due int
	Days         int  // the due-soon window in days; 0 says "soon"
	Weekly       bool // the window is the next week
}

// countSentence is a daily or weekly reminder's opening sentence for c,
// in l.
func countSentence(l lang.Lang, c reminderCount) string {
	window := l.T("remind.soon")
	switch {
	case c.Weekly:
		window = l.T("remind.next_week")
	case c.Days > 0:
		window = l.N("remind.within", c.Days)
	}
	overdue, due := c.Overdue, c.Due
	switch {
	case overdue > 0 && due > 0:
		return l.F("remind.summary.both", "overdue", l.N("remind.n_overdue", overdue), "due", l.Int(due), "window", window)
	case overdue > 0:
		return l.F("remind.summary.overdue", "overdue", l.N("remind.n_overdue", overdue))
	case due > 0:
		return l.F("remind.summary.due", "due", l.N("remind.n_due", due), "window", window)
	}
	return l.F("remind.summary.none", "window", window)
}

// ReminderMessage builds the reminder DM in r.Lang: a header, the summary
// ("You have 2 overdue actions and 3 due within 7 days."), then "Overdue"
// and "Due soon" with their rows as in ActionRowBlocks (buttons when the
// caller set CanChange). Rows that do not fit one message are left off,
// overdue ones last, and a closing line says "…and K more — use /actions
// to see them all". Last come the *Stop these* and *Settings* buttons
// (NotifyButtons with NotifyReminders), so nobody gets a DM they cannot
// turn off.
func ReminderMessage(r Reminder) Message {
	l := r.Lang
	fallback := plainReminderSummary(r)
	title := l.T("remind.header")
	switch {
	case r.Away != nil:
		title = l.T("remind.header_away")
	case r.Weekly:
		title = l.T("remind.header_weekly")
	}
	summary := section(reminderSummary(r))
	if r.Away == nil {
		// The sentence is recounted when a row changes (RecountReminder).
		summary.BlockID = reminderSummaryID(reminderCount{Overdue: len(r.Overdue), Due: len(r.DueSoon), Days: r.Days, Weekly: r.Weekly})
	}
	blocks := []slack.Block{header(title), summary}
	assigned := awayRows(r)
	more := contextLine(l.N("list.and_more", len(r.Overdue)+len(r.DueSoon)))
	stop := NotifyButtons(l, NotifyReminders)
	awayLabel, overdueLabel, dueLabel := l.T("remind.away_label"), l.T("remind.overdue_label"), l.T("remind.due_soon_label")
	// Two labels, the closing line and the buttons are always kept free.
	maxBlocks := MaxMessageBlocks - len(blocks) - 4
	maxText := MaxMessageText - runes(fallback) - measure(blocks...) - measure(more) - measure(stop) - 2*max(runes(overdueLabel), runes(dueLabel), runes(awayLabel))

	used := make(map[string]bool)
	hidden := 0
	for _, group := range []struct {
		label, id string
		rows      []ActionRow
	}{
		{awayLabel, blockReminderAway, assigned},
		{overdueLabel, blockReminderOverdue, r.Overdue},
		{dueLabel, blockReminderDue, r.DueSoon},
	} {
		if len(group.rows) == 0 {
			continue
		}
		rows, shown, text := fitRows(l, group.rows, maxBlocks, maxText, used)
		hidden += len(group.rows) - shown
		if shown == 0 {
			continue
		}
		label := section(group.label)
		label.BlockID = group.id
		blocks = append(blocks, label)
		blocks = append(blocks, rows...)
		maxBlocks -= len(rows)
		maxText -= text
	}
	if hidden > 0 {
		blocks = append(blocks, contextLine(l.N("list.and_more", hidden)))
	}
	blocks = append(blocks, stop)
	return Message{Text: fallback, Blocks: blocks}
}

// ReminderText renders a reminder as readable plain text (for --dry-run):
// the operator's line naming the recipient, in English like the logs,
// then the reminder as its reader will read it, in r.Lang: the summary,
// and each group's rows as the DM draws them (rowPlain: the same facts in
// the same words), without mrkdwn or escaping, dates written out.
func ReminderText(r Reminder) string {
	l := r.Lang
	var b strings.Builder
	if r.User != "" {
		fmt.Fprintf(&b, "Reminder for %s\n", r.User)
	}
	b.WriteString(plainReminderSummary(r) + "\n")
	for _, group := range []struct {
		label lang.Key
		rows  []ActionRow
	}{
		{"remind.away_label", awayRows(r)},
		{"remind.overdue_label", r.Overdue},
		{"remind.due_soon_label", r.DueSoon},
	} {
		if len(group.rows) == 0 {
			continue
		}
		// The labels are bold in the DM; the marks only ever surround
		// the whole label. A colon after it would be punctuated each
		// language's way (French puts a space before it): the indented
		// list says the label is its heading.
		b.WriteString("\n" + strings.ReplaceAll(l.T(group.label), "*", "") + "\n")
		for _, row := range group.rows {
			b.WriteString("  - " + rowPlain(l, row) + "\n")
		}
	}
	return b.String()
}

// awayRows is the rows assigned while away, none for a reminder that is
// not a catch-up.
func awayRows(r Reminder) []ActionRow {
	if r.Away == nil {
		return nil
	}
	return r.Away.Assigned
}
