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
	blocks := []slack.Block{
		header(":alarm_clock: Action reminder"),
		section(reminderSummary(r, true)),
	}
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
