// Package blocks builds recordsbot's Slack messages and views from plain
// values. It does no I/O. Every builder keeps within Block Kit's limits (see
// limits.go); text from records or users is escaped for mrkdwn.
package blocks

import (
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/minutes"
)

// Action IDs of the interactive elements. The bot routes clicks by them, so
// they are shared constants between the builders and the handlers.
const (
	// ActionStatusPrefix starts the action_id of every status button:
	// "status:complete", "status:in_progress", "status:deferred",
	// "status:cancelled", "status:open". The value of a status button is
	// StatusValue: "<status>|<action id>|<context>".
	ActionStatusPrefix = "status:"
	// ActionRowMenu is a row's overflow menu: its rarer status changes
	// (Mark cancelled, Reopen), each valued StatusValue as a button is,
	// then its Snooze choices, valued SnoozeTomorrow, SnoozeWorkingDay or
	// SnoozeNextWeek (IsSnoozeChoice tells them apart).
	ActionRowMenu = "row:menu"
	// ActionStatusMenu is the overflow menu of rarer changes in messages
	// sent before ActionRowMenu; its options are valued as buttons are.
	ActionStatusMenu = "status:menu"
	// ActionActionsMore is the "Show more" button of an action list; its
	// value is the opaque ActionList.MoreValue.
	ActionActionsMore = "actions:more"
	// ActionMeetingsNext is the "Next" button of a meeting list; value is
	// MeetingList.NextValue.
	ActionMeetingsNext = "meetings:next"
	// ActionMeetingAgenda and ActionMeetingMinutes are the per-meeting
	// buttons; value is the meeting ID.
	ActionMeetingAgenda  = "meeting:agenda"
	ActionMeetingMinutes = "meeting:minutes"
	// ActionMinutesShare is "Share in channel" on a minutes message; value is
	// the meeting ID.
	ActionMinutesShare = "minutes:share"
	// ActionOpenLink is a link button (url set); clicks need no handling but
	// Slack still sends them.
	ActionOpenLink = "link:open"
	// ActionHomeMore is "Show more" on the App Home actions; value is the
	// next offset as a decimal string.
	ActionHomeMore = "home:more"
)

// BlockIDs of action rows start with this prefix followed by the action ID
// (and the render revision, see RowBlockID), so an in-place update can
// find the row to replace.
const (
	BlockActionRow     = "action:"
	BlockActionButtons = "action-buttons:"
)

// revSep separates a row block ID's stable part from its render revision.
const revSep = "~"

// RowBlockID is the block_id of a row's block: prefix (BlockActionRow or
// BlockActionButtons) and the action ID, then "~" and rev when rev is set.
// Slack's Block Kit reference: "block_id should be unique for each message
// and each iteration of a message. If a message is updated, use a new
// block_id." (https://docs.slack.dev/reference/block-kit/blocks; the
// block_id of @slack/types Block). The stable part finds the row again
// (see matchesRow); the revision makes each version new.
func RowBlockID(prefix, actionID, rev string) string {
	if rev == "" {
		return prefix + actionID
	}
	return prefix + actionID + revSep + rev
}

// matchesRow reports whether blockID is the block prefix+actionID in any
// render revision, or with none (a message drawn before revisions).
func matchesRow(blockID, prefix, actionID string) bool {
	stable := prefix + actionID
	if blockID == stable {
		return true
	}
	rev, ok := strings.CutPrefix(blockID, stable+revSep)
	return ok && rev != "" && !strings.Contains(rev, revSep)
}

// Message is a message's blocks plus the plain-text fallback Slack shows in
// notifications.
type Message struct {
	Text   string
	Blocks []slack.Block
}

// Change records who changed an action's status and when, shown on the row
// after a click.
type Change struct {
	By     string // Slack user ID
	At     time.Time
	Status string // the status set
}

// ActionRow is one action as shown in a list.
type ActionRow struct {
	ID    string
	Title string
	// Link is the action's own link (actions.Service.Link), on its title,
	// for a person to copy and paste elsewhere, where it unfurls as the
	// action's card; "" for none.
	Link            string
	Status          string
	Deadline        time.Time // zero: no deadline
	DeadlineHasTime bool
	Overdue         bool
	Meeting         string // meeting title or ID; may be empty
	Committee       string
	Assignee        string // shown when the list is not the reader's own
	// AssigneeSlackID is the assignee's Slack user ID when the records
	// give it and Assignee is shown: a card names them as a Slack user.
	AssigneeSlackID string
	// CanChange puts status buttons on the row.
	CanChange bool
	// MaySnooze ends the row's buttons block with the Snooze choices (a
	// menu and a date picker), or Unsnooze when SnoozedUntil is set (see
	// blocks/snooze.go). Set for the action's assignee only.
	MaySnooze bool
	// SnoozedUntil, when set, is the local day the viewer's snooze of it
	// ends: the row says "Snoozed until Tue 2 Dec".
	SnoozedUntil time.Time
	// Changed, when set, adds a context line "Marked complete by @x at …".
	Changed *Change
	// Context is carried in the row's status button values (see
	// StatusValue): the bot's page state, so a click can redraw the page.
	// It must not contain '|'.
	Context string
	// Rev is the render revision of the row's block IDs (see RowBlockID);
	// "" renders the bare IDs. Slack asks for a new block_id in each
	// version of a message, so a caller that redraws a message gives each
	// render a fresh Rev.
	Rev string
	// Lang is the reader's language when the row is drawn on its own
	// (ActionRowBlocks, ReplaceRow); in a list the list's Lang is used.
	Lang lang.Lang
}

// ActionList is a page of actions.
type ActionList struct {
	// Lang is the reader's language; the zero value is English.
	Lang   lang.Lang
	Title  string // header, such as "Your open actions"
	Rows   []ActionRow
	Offset int // index of Rows[0] in the whole list
	Total  int // size of the whole list
	// Left counts the rows of the whole list whose action has left it (the
	// one a click just changed, completed in a list of open actions, kept
	// on the page so the clicker sees what happened): the header's count
	// leaves them out, so it says how many the list still holds.
	Left      int
	MoreValue string
	// Empty is the text shown when there are no rows.
	Empty string
	// Truncated says the records service had more actions than the client
	// reads; shown as a note.
	Truncated bool
	// Read and Available, when both are set with Read < Available, say
	// how many of the records service's actions recordsbot could read:
	// the truncation note then says "N of M" rather than leaving the list
	// quietly short.
	Read, Available int
}

// MinutesView is a meeting's minutes as shown in Slack: what the minutes
// domain decided to show (minutes.Display; its Body's opening is shown as
// Slack text, see Mrkdwn) and how this message offers it.
type MinutesView struct {
	minutes.Display
	Lang lang.Lang // the reader's (or the channel's) language
	// Shareable adds the "Share in channel" button (ephemeral replies).
	Shareable bool
	// SharedBy, when set, adds "Shared by @user" (the message posted to a
	// channel).
	SharedBy string
}

// MeetingRow is one meeting in a list or in detail.
type MeetingRow struct {
	Lang        lang.Lang // the reader's language
	ID          string
	Reference   string
	Title       string
	Committee   string
	Date        time.Time
	DateHasTime bool
	Location    string
	Agenda      []AgendaRow
	// CalendarURL is the meeting's one-event calendar ("Add to
	// calendar"); "" for none.
	CalendarURL string
}

// AgendaRow is one agenda item.
type AgendaRow struct {
	Number      string
	Title       string
	Description string
}

// MeetingList is a page of meetings.
type MeetingList struct {
	Lang      lang.Lang // the reader's language
	Title     string    // such as "Recent meetings" or "Finance meetings"
	Meetings  []MeetingRow
	NextValue string // "" = no Next button
	Empty     string
}

// HomeView is the App Home dashboard of one user.
type HomeView struct {
	Lang         lang.Lang // the reader's language; Actions.Lang is ignored
	User         string    // Slack user ID
	Actions      ActionList
	MoreOffset   int           // >0 adds "Show more" with this offset
	Minutes      []MinutesView // latest per committee
	Unmapped     string        // non-empty: a note that the user's records identity is unknown (mrkdwn, escaped by the writer)
	RecordsError string        // non-empty: a note that the records service could not be read (mrkdwn, escaped by the writer)
	// Notifications, when set, adds the Notifications section (see
	// NotificationSettings) before the help line.
	Notifications *NotificationSettings
	// Search adds a "Search minutes" button (ActionHomeSearch) under the
	// latest minutes' header: set when the bot has a search index.
	Search bool
	// Topics are the viewer's topic watches, each with Stop, and "Watch a
	// topic"; nil (no store) leaves the section off.
	Topics *[]TopicWatch
	// Calendar, when set, adds the Calendar section (HomeCalendar) after
	// Notifications.
	Calendar *HomeCalendar
	// RecentChanges, when set (admins), adds the audit trail's latest
	// changes before the help line (blocks/home_audit.go).
	RecentChanges *RecentChanges
	// AwayRhythm, when set, adds the "Away and rhythm" section
	// (blocks/home_steer.go).
	AwayRhythm *AwayRhythm
}

// Reminder is one DM listing a user's overdue and due-soon actions.
type Reminder struct {
	Lang    lang.Lang // the person's language
	User    string
	Overdue []ActionRow
	DueSoon []ActionRow
	Days    int // the due-soon window in days
	// Weekly marks the weekly summary (a person's weekly cadence).
	Weekly bool
	// Away, when set, makes it the one DM after time away.
	Away *AwayCatchUp
}

// AwayCatchUp is what the DM after time away adds to a reminder.
type AwayCatchUp struct {
	// Since is when they said they were away, in their zone.
	Since time.Time
	// Assigned are the actions assigned to them meanwhile (their
	// assignment DMs were held), listed first.
	Assigned []ActionRow
	// BecameOverdue counts the overdue rows whose deadline passed while
	// they were away.
	BecameOverdue int
}
