package blocks

import (
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// Action and block IDs of snoozing (issue 31). The choices' values are
// "<when>|<action id>"; the date picker cannot carry a value, so its
// block ID names the action (SnoozeBlockID).
const (
	// ActionSnoozePrefix starts every snooze control's action ID.
	ActionSnoozePrefix = "snooze:"
	// ActionSnooze is the menu of Snooze choices (SnoozeTomorrow, …).
	ActionSnooze = "snooze:when"
	// ActionSnoozeDate is the date picker: snoozed until the day picked.
	ActionSnoozeDate = "snooze:date"
	// ActionUnsnooze ends a snooze; its value is the action ID.
	ActionUnsnooze = "snooze:end"
	// BlockSnooze starts the block ID of a row's snooze controls.
	BlockSnooze = "snooze:"

	SnoozeTomorrow    = "tomorrow"
	SnoozeWorkingDay  = "workday"
	SnoozeNextWeek    = "week"
	snoozeValueSep    = "|"
	snoozeBlockRevSep = "~"
)

// SnoozeBlockID is the block ID of action id's snooze controls in
// revision rev: "snooze:<id>~<rev>" (the separator always there, so an
// ID holding "~" still splits at the last one).
func SnoozeBlockID(id, rev string) string { return BlockSnooze + id + snoozeBlockRevSep + rev }

// SnoozeActionOfBlock is the action ID a snooze block ID names; ok is
// false for another block.
func SnoozeActionOfBlock(blockID string) (id string, ok bool) {
	rest, ok := strings.CutPrefix(blockID, BlockSnooze)
	i := strings.LastIndex(rest, snoozeBlockRevSep)
	if !ok || i <= 0 {
		return "", false
	}
	return rest[:i], true
}

// SnoozeValue is the value of a Snooze choice: "<when>|<action id>".
func SnoozeValue(when, id string) string { return when + snoozeValueSep + id }

// ParseSnoozeValue splits a Snooze choice's value.
func ParseSnoozeValue(v string) (when, id string, ok bool) {
	when, id, ok = strings.Cut(v, snoozeValueSep)
	return when, id, ok && id != ""
}

// SnoozeBlock is a row's snooze controls, for its assignee: a menu
// (tomorrow, the next working day, next week) and a date picker, or
// *Unsnooze* when the row is snoozed, in l.
func SnoozeBlock(l lang.Lang, r ActionRow) *slack.ActionBlock {
	id := SnoozeBlockID(r.ID, r.Rev)
	if !r.SnoozedUntil.IsZero() {
		return slack.NewActionBlock(id, button(ActionUnsnooze, r.ID, l.T("snooze.unsnooze")))
	}
	menu := slack.NewOverflowBlockElement(ActionSnooze,
		slack.NewOptionBlockObject(SnoozeValue(SnoozeTomorrow, r.ID), plain(l.T("snooze.tomorrow")), nil),
		slack.NewOptionBlockObject(SnoozeValue(SnoozeWorkingDay, r.ID), plain(l.T("snooze.workday")), nil),
		slack.NewOptionBlockObject(SnoozeValue(SnoozeNextWeek, r.ID), plain(l.T("snooze.week")), nil),
	)
	picker := slack.NewDatePickerBlockElement(ActionSnoozeDate)
	picker.Placeholder = plain(l.T("snooze.until"))
	return slack.NewActionBlock(id, menu, picker)
}

// SnoozedText is the confirmation of a snooze until day: "Snoozed
// *Budget report* until Tue 2 Dec: no reminders of it before then." with
// a word when the deadline falls inside the snooze, in l. title is
// escaped here.
func SnoozedText(l lang.Lang, title string, day time.Time, deadlineInside bool) string {
	s := l.F("snooze.done", "title", Escape(inline(title, rowTitleMax)), "date", l.WeekdayDate(day))
	if deadlineInside {
		s += " " + l.T("snooze.deadline_inside")
	}
	return s
}
