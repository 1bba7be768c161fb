package blocks

import (
	"fmt"
	"strings"

	"github.com/recordsbot/recordsbot/internal/words"

	"github.com/slack-go/slack"
)

// reminderSummary is "You have 2 overdue actions and 3 actions due within
// 7 days." in plain words; bold marks the counts when bold is set.
func reminderSummary(r Reminder, bold bool) string {
	b := func(s string) string {
		if bold {
			return "*" + s + "*"
		}
		return s
	}
	window := "soon"
	if r.Days > 0 {
		window = "within " + words.Count(r.Days, "day", "days")
	}
	overdue, due := len(r.Overdue), len(r.DueSoon)
	if r.Away != nil {
		s := fmt.Sprintf("Welcome back. Since %s, %s assigned to you and %s overdue.", r.Away.Since.Format("Mon 2 Jan"),
			b(words.Count(len(r.Away.Assigned), "action was", "actions were")), b(words.Count(r.Away.BecameOverdue, "action became", "actions became")))
		if overdue+due > 0 {
			s += fmt.Sprintf(" In all, %s overdue and %s due %s.", b(fmt.Sprint(overdue)), b(fmt.Sprint(due)), window)
		}
		return s
	}
	if r.Weekly {
		window = "within the next week"
	}
	switch {
	case overdue > 0 && due > 0:
		return fmt.Sprintf("You have %s and %s due %s.", b(words.Count(overdue, "overdue action", "overdue actions")), b(fmt.Sprint(due)), window)
	case overdue > 0:
		return fmt.Sprintf("You have %s.", b(words.Count(overdue, "overdue action", "overdue actions")))
	case due > 0:
		return fmt.Sprintf("You have %s due %s.", b(words.Count(due, "action", "actions")), window)
	}
	return "You have no overdue actions and none due " + window + "."
}

// ReminderMessage builds the reminder DM: a header, the summary ("You have
// 2 overdue actions and 3 due within 7 days."), then "Overdue" and "Due
// soon" with their rows as in ActionRowBlocks (buttons when the caller set
// CanChange). Rows that do not fit one message are left off, overdue ones
// last, and a closing line says "…and K more — use /actions to see them
// all". Last come the *Stop these* and *Settings* buttons (NotifyButtons
// with NotifyReminders), so nobody gets a DM they cannot turn off.
func ReminderMessage(r Reminder) Message {
	fallback := reminderSummary(r, false)
	title := ":alarm_clock: Action reminder"
	switch {
	case r.Away != nil:
		title = ":wave: While you were away"
	case r.Weekly:
		title = ":spiral_calendar_pad: Your week's actions"
	}
	blocks := []slack.Block{
		header(title),
		section(reminderSummary(r, true)),
	}
	assigned := awayRows(r)
	more := contextLine(fmt.Sprintf("…and %d more — use `/actions` to see them all", len(r.Overdue)+len(r.DueSoon)))
	stop := NotifyButtons(NotifyReminders)
	// Two labels, the closing line and the buttons are always kept free.
	maxBlocks := MaxMessageBlocks - len(blocks) - 4
	maxText := MaxMessageText - runes(fallback) - measure(blocks...) - measure(more) - measure(stop) - 2*len("*Due soon*")

	used := make(map[string]bool)
	hidden := 0
	for _, group := range []struct {
		label string
		rows  []ActionRow
	}{
		{"*Assigned while you were away*", assigned},
		{"*Overdue*", r.Overdue},
		{"*Due soon*", r.DueSoon},
	} {
		if len(group.rows) == 0 {
			continue
		}
		rows, shown, text := fitRows(group.rows, maxBlocks, maxText, used)
		hidden += len(group.rows) - shown
		if shown == 0 {
			continue
		}
		blocks = append(blocks, section(group.label))
		blocks = append(blocks, rows...)
		maxBlocks -= len(rows)
		maxText -= text
	}
	if hidden > 0 {
		blocks = append(blocks, contextLine(fmt.Sprintf("…and %d more — use `/actions` to see them all", hidden)))
	}
	blocks = append(blocks, stop)
	return Message{Text: fallback, Blocks: blocks}
}

// ReminderText renders a reminder as readable plain text (for --dry-run):
// no mrkdwn, no escaping, dates as YYYY-MM-DD (with the time in UTC when
// the deadline has one).
func ReminderText(r Reminder) string {
	var b strings.Builder
	if r.User != "" {
		fmt.Fprintf(&b, "Reminder for %s\n", r.User)
	}
	b.WriteString(reminderSummary(r, false) + "\n")
	for _, group := range []struct {
		label string
		rows  []ActionRow
	}{
		{"Assigned while you were away", awayRows(r)},
		{"Overdue", r.Overdue},
		{"Due soon", r.DueSoon},
	} {
		if len(group.rows) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s:\n", group.label)
		for _, row := range group.rows {
			b.WriteString("  - " + reminderTextRow(row) + "\n")
		}
	}
	return b.String()
}

// reminderTextRow is one row for ReminderText: "Title (due 2026-03-01,
// Open, Finance, Budget meeting) [A-17]".
func reminderTextRow(r ActionRow) string {
	title := oneLine(r.Title)
	if title == "" {
		title = "Untitled action"
	}
	var about []string
	if d := isoDate(r.Deadline, r.DeadlineHasTime); d != "" {
		about = append(about, "due "+d)
	} else {
		about = append(about, "no deadline")
	}
	if r.Status != "" {
		about = append(about, plainStatus(r.Status))
	}
	committee := oneLine(r.Committee)
	if committee != "" {
		about = append(about, committee)
	}
	if m := oneLine(r.Meeting); m != "" && m != committee {
		about = append(about, m)
	}
	if a := oneLine(r.Assignee); a != "" {
		about = append(about, "assigned to "+a)
	}
	line := title + " (" + strings.Join(about, ", ") + ")"
	if r.ID != "" {
		line += " [" + oneLine(r.ID) + "]"
	}
	return line
}

// awayRows is the rows assigned while away, none for a reminder that is
// not a catch-up.
func awayRows(r Reminder) []ActionRow {
	if r.Away == nil {
		return nil
	}
	return r.Away.Assigned
}
