package blocks

import (
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
)

// Action and block IDs of snoozing.
//
// A row's Snooze choices are options of its menu (ActionRowMenu), after
// its rarer status changes, and its date picker follows the menu, all in
// its buttons block (BlockActionButtons): a row stays two blocks (a page
// of 20 rows within MaxMessageBlocks, a Home tab within MaxViewBlocks)
// and a click's redraw (ReplaceRow) replaces them with the rest of the
// row. Their values name no action: the block ID does (ActionOfRowBlock).
// That lets every row share one set of choices per language, built once
// (snoozeControls), so a page of rows costs no allocation for them.
//
// Messages sent before that carry a Snooze select menu (ActionSnooze) in
// the buttons block, or a block of their own, "snooze:<id>~<rev>"
// (SnoozeActionOfBlock), with values "<when>|<id>" (ParseSnoozeValue);
// the bot still answers them.
const (
	// ActionSnoozePrefix starts every snooze control's action ID.
	ActionSnoozePrefix = "snooze:"
	// ActionSnooze is the select menu of Snooze choices (SnoozeTomorrow,
	// …) of messages sent before ActionRowMenu held them.
	ActionSnooze = "snooze:when"
	// ActionSnoozeDate is the date picker: snoozed until the day picked.
	ActionSnoozeDate = "snooze:date"
	// ActionUnsnooze ends a snooze.
	ActionUnsnooze = "snooze:end"
	// BlockSnooze starts the block ID of an older message's snooze block.
	BlockSnooze = "snooze:"

	SnoozeTomorrow    = "tomorrow"
	SnoozeWorkingDay  = "workday"
	SnoozeNextWeek    = "week"
	snoozeValueSep    = "|"
	snoozeBlockRevSep = "~"
)

// SnoozeActionOfBlock is the action ID an older message's snooze block ID
// ("snooze:<id>~<rev>") names; ok is false for another block.
func SnoozeActionOfBlock(blockID string) (id string, ok bool) {
	rest, ok := strings.CutPrefix(blockID, BlockSnooze)
	i := strings.LastIndex(rest, snoozeBlockRevSep)
	if !ok || i <= 0 {
		return "", false
	}
	return rest[:i], true
}

// ActionOfRowBlock is the action ID a row's buttons block ID names
// (RowBlockID(BlockActionButtons, id, rev)), or, for an older message, its
// snooze block's; ok is false for another block. A row offers Snooze only
// when its block ID reads back unambiguously (snoozable).
func ActionOfRowBlock(blockID string) (id string, ok bool) {
	if id, ok := SnoozeActionOfBlock(blockID); ok {
		return id, true
	}
	rest, ok := strings.CutPrefix(blockID, BlockActionButtons)
	if !ok || rest == "" {
		return "", false
	}
	if i := strings.LastIndex(rest, revSep); i >= 0 {
		rest = rest[:i]
	}
	return rest, rest != ""
}

// snoozable reports whether r's buttons block ID reads back as r.ID
// (ActionOfRowBlock): with a revision it always does; without one, only
// when the ID holds no revision separator.
func snoozable(r ActionRow) bool {
	return r.Rev != "" || !strings.Contains(r.ID, revSep)
}

// ParseSnoozeValue splits an older message's Snooze choice value,
// "<when>|<action id>"; ok is false for a bare choice.
func ParseSnoozeValue(v string) (when, id string, ok bool) {
	when, id, ok = strings.Cut(v, snoozeValueSep)
	return when, id, ok && id != ""
}

// IsSnoozeChoice reports whether v is a Snooze choice's value, which a
// row's menu (ActionRowMenu) holds besides status changes.
func IsSnoozeChoice(v string) bool {
	return v == SnoozeTomorrow || v == SnoozeWorkingDay || v == SnoozeNextWeek
}

// snoozeSet is one language's Snooze controls, shared by every row: the
// choices (tomorrow, the next working day, next week) for the row's menu
// and a date picker after it, or Unsnooze. The date picker has no
// initial_date: the day it would show (tomorrow, in the reader's zone)
// changes at midnight, and a memoised list (bot/actions_memo.go) would
// keep yesterday's. Slack then shows the placeholder and sends the day
// picked as selected_date
// (https://docs.slack.dev/reference/block-kit/block-elements/date-picker-element).
// Never modify them: every message being built holds them.
type snoozeSet struct {
	choices [3]*slack.OptionBlockObject
	picker  [1]slack.BlockElement
	unsnooz [1]slack.BlockElement
}

// snoozeSets are the shipped languages' controls, built once.
var snoozeSets = func() []snoozeSet {
	ls := lang.Shipped()
	out := make([]snoozeSet, len(ls))
	for i, l := range ls {
		out[i] = buildSnoozeSet(l)
	}
	return out
}()

func buildSnoozeSet(l lang.Lang) snoozeSet {
	opt := func(when string, k lang.Key) *slack.OptionBlockObject {
		return slack.NewOptionBlockObject(when, plain(truncate(l.T(k), MaxOptionText)), nil)
	}
	picker := slack.NewDatePickerBlockElement(ActionSnoozeDate)
	picker.Placeholder = plain(l.T("row.snooze.date"))
	return snoozeSet{
		choices: [3]*slack.OptionBlockObject{opt(SnoozeTomorrow, "row.snooze.tomorrow"), opt(SnoozeWorkingDay, "row.snooze.workday"), opt(SnoozeNextWeek, "row.snooze.week")},
		picker:  [1]slack.BlockElement{picker},
		unsnooz: [1]slack.BlockElement{button(ActionUnsnooze, "", l.T("row.unsnooze"))},
	}
}

// snoozeControls are r's Snooze choices, for its menu, and the elements
// its buttons block ends with: the date picker, or Unsnooze (and no
// choices) when r is snoozed; none when r offers no Snooze.
func snoozeControls(l lang.Lang, r ActionRow) (choices []*slack.OptionBlockObject, tail []slack.BlockElement) {
	if !r.MaySnooze || !snoozable(r) {
		return nil, nil
	}
	var set *snoozeSet
	if int(l) < len(snoozeSets) {
		set = &snoozeSets[l]
	} else {
		built := buildSnoozeSet(l) // lang.Pseudo, in tests
		set = &built
	}
	if !r.SnoozedUntil.IsZero() {
		return nil, set.unsnooz[:]
	}
	return set.choices[:], set.picker[:]
}

// SnoozeDeadline is where an action's deadline stands against a snooze,
// which the snooze's confirmation mentions.
type SnoozeDeadline int

// The places SnoozedText tells apart.
const (
	// DeadlineAfterSnooze: no deadline, or it passes after the snooze
	// ends; nothing to say.
	DeadlineAfterSnooze SnoozeDeadline = iota
	// DeadlineInsideSnooze: the deadline passes while the reminders are
	// quiet.
	DeadlineInsideSnooze
	// DeadlinePassed: the action is already overdue; a snooze quiets its
	// reminders all the same.
	DeadlinePassed
)

// SnoozedText is the confirmation of a snooze until day: "Snoozed
// *Budget report* until Tue 2 Dec: no reminders of it before then." with
// a word on the deadline when it falls inside the snooze or has already
// passed, in l. title is escaped here.
func SnoozedText(l lang.Lang, title string, day time.Time, deadline SnoozeDeadline) string {
	s := l.F("snooze.done", "title", Escape(inline(title, rowTitleMax)), "date", l.WeekdayDate(day))
	switch deadline {
	case DeadlineInsideSnooze:
		s += " " + l.T("snooze.deadline_inside")
	case DeadlinePassed:
		s += " " + l.T("snooze.overdue")
	}
	return s
}
