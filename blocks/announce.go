package blocks

import (
	"cmp"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/internal/lang"

	"github.com/slack-go/slack"
)

// ActionMeetingActions is the Actions button of a minutes announcement;
// its value is the meeting ID. The bot answers it as `/actions meeting
// <id>` would, to the person who clicked.
const ActionMeetingActions = "meeting:actions"

// Metadata event types of the watcher's posts. Each carries its ledger key
// in event_payload.key, so a watcher that stopped between posting and
// recording finds the post in the conversation's history instead of
// posting it again.
const (
	EventMinutesAnnounced = "recordsbot_minutes_announced"
	EventActionsAssigned  = "recordsbot_actions_assigned"
	// EventMinutesShared marks minutes a person shared with Share in
	// channel; its key names the click (see ShareMetadata).
	EventMinutesShared = "recordsbot_minutes_shared"
)

const (
	// announceExcerptMax keeps an announcement in a busy channel short: the
	// first lines, and a link or /minutes for the rest.
	announceExcerptMax = 500
)

// Announcement is a channel post saying that a followed committee's
// minutes can now be read.
type Announcement struct {
	// Lang is the channel's language (ORG_LANGUAGE or the follow's).
	Lang    lang.Lang
	Minutes MinutesView
	// NowApproved marks a post first made for a published draft and
	// updated in place when the minutes were approved.
	NowApproved bool
}

// AnnouncementMessage builds a minutes announcement: a header "New
// minutes: <title>", fields for committee, date and status (a draft is
// marked ":warning: Draft — not yet approved"), the first lines of the
// body (about 500 characters), then "Read the full minutes" (a link button,
// when Minutes.URL is an http(s) URL), Agenda (ActionMeetingAgenda) and
// Actions (ActionMeetingActions), both valued the meeting ID and left off
// when it is empty. A post updated on approval says so in a closing line.
func AnnouncementMessage(a Announcement) Message {
	v := a.Minutes
	l := a.Lang
	v.Lang = l
	title := cmp.Or(oneLine(v.Title), l.T("minutes.untitled"))
	head := truncate(l.F("announce.header", "title", title), MaxHeaderText)
	if v.Draft {
		head = truncate(l.F("announce.header_draft", "title", title), MaxHeaderText)
	}
	blocks := []slack.Block{header(head)}

	blocks = append(blocks, minutesSummary(v, announceExcerptMax)...)
	buttons := readButton(v)
	if v.MeetingID != "" && len(v.MeetingID) <= MaxButtonValue {
		buttons = append(buttons, button(ActionMeetingAgenda, v.MeetingID, l.T("button.agenda")), button(ActionMeetingActions, v.MeetingID, l.T("button.actions")))
	}
	if len(buttons) > 0 {
		blocks = append(blocks, slack.NewActionBlock("", buttons...))
	}
	if a.NowApproved && !v.Draft {
		blocks = append(blocks, contextLine(l.T("announce.now_approved")))
	}
	return Message{Text: minutesFallback(v, title), Blocks: blocks}
}

// ApprovedReply is the short thread reply under an announcement whose
// draft has been approved: "<title> is now approved", in l, and what the
// approval changed of the draft the channel heard of: changes places
// (0: "as drafted"; negative: not known, nothing said).
func ApprovedReply(l lang.Lang, title string, changes int) Message {
	t := cmp.Or(inline(title, 200), l.T("announce.these_minutes"))
	reply := l.F("announce.approved_reply", "title", t)
	switch {
	case changes == 0:
		reply = l.F("versions.reply_as_drafted", "title", t)
	case changes > 0:
		reply = l.N("versions.reply_changes", changes, "title", t)
	}
	return Message{
		Text:   l.F("announce.approved_fallback", "title", t),
		Blocks: []slack.Block{section(reply)},
	}
}

// ShareMetadata is the message metadata of minutes a person shared in a
// channel: a key for that one click, so that when Slack's answer to the
// post is lost the bot can find the post in the channel's history instead
// of inviting a second one; and the meeting.
func ShareMetadata(key, meetingID string) slack.SlackMetadata {
	return slack.SlackMetadata{EventType: EventMinutesShared, EventPayload: map[string]any{"key": key, "meeting_id": meetingID}}
}

// AnnouncementMetadata is the message metadata of an announcement: its
// ledger key, the meeting and the minutes status announced. Slack holds
// event_payload values to strings, numbers, booleans and objects
// (https://docs.slack.dev/messaging/message-metadata; @slack/types
// MessageMetadataEventPayloadObject).
func AnnouncementMetadata(key, meetingID, status string) slack.SlackMetadata {
	return slack.SlackMetadata{EventType: EventMinutesAnnounced, EventPayload: map[string]any{
		"key": key, "meeting_id": meetingID, "status": status,
	}}
}

// Assignment is one DM telling a person about actions newly assigned to
// them at one meeting.
type Assignment struct {
	Lang        lang.Lang // the assignee's language
	Committee   string
	Meeting     string // the meeting's title or ID; may be empty
	Date        time.Time
	DateHasTime bool
	// Reassigned is set when every row was someone else's before.
	Reassigned bool
	Rows       []ActionRow
}

// AssignmentMessage builds the new-assignment DM: a header, "<Committee>
// assigned you N actions at <meeting> (<date>)." (or "reassigned … to
// you"), then each row as ActionRowBlocks draws it (buttons when the
// caller set CanChange). Rows that do not fit one message are left off
// with "…and K more — use /actions to see them all".
func AssignmentMessage(a Assignment) Message {
	n := len(a.Rows)
	l := a.Lang
	key, keyAt := lang.Key("assign.assigned"), lang.Key("assign.assigned_at")
	if a.Reassigned {
		key, keyAt = "assign.reassigned", "assign.reassigned_at"
	}
	who := cmp.Or(inline(a.Committee, 100), l.T("assign.a_committee"))
	var at, plainAt []string
	if m := inline(a.Meeting, 150); m != "" && m != inline(a.Committee, 100) {
		at, plainAt = append(at, "*"+m+"*"), append(plainAt, m)
	}
	if d := Date(l, a.Date, a.DateHasTime); d != "" {
		at, plainAt = append(at, d), append(plainAt, plainDate(l, a.Date, a.DateHasTime))
	}
	line := l.N(key, n, "committee", "*"+who+"*")
	fallback := l.N(key, n, "committee", who)
	if len(at) > 0 {
		line = l.N(keyAt, n, "committee", "*"+who+"*", "where", strings.Join(at, ", "))
		fallback = l.N(keyAt, n, "committee", who, "where", strings.Join(plainAt, ", "))
	}

	blocks := []slack.Block{header(l.N("assign.header", n)), section(line)}
	more := contextLine(l.N("list.and_more", n))
	// Stop these / Settings, as under a reminder: people control these DMs.
	stop := NotifyButtons(l, NotifyAssignments)
	maxBlocks := MaxMessageBlocks - len(blocks) - 2
	maxText := MaxMessageText - runes(fallback) - measure(blocks...) - measure(more) - measure(stop)
	rows, shown, _ := fitRows(l, a.Rows, maxBlocks, maxText, map[string]bool{})
	blocks = append(blocks, rows...)
	if hidden := n - shown; hidden > 0 {
		blocks = append(blocks, contextLine(l.N("list.and_more", hidden)))
	}
	blocks = append(blocks, stop)
	return Message{Text: fallback, Blocks: blocks}
}

// AssignmentMetadata is the message metadata of an assignment DM: its
// ledger key, the meeting, the action IDs (comma-separated: Slack takes no
// array of strings in event_payload) and their count.
func AssignmentMetadata(key, meetingID string, actionIDs []string) slack.SlackMetadata {
	return slack.SlackMetadata{EventType: EventActionsAssigned, EventPayload: map[string]any{
		"key": key, "meeting_id": meetingID, "action_ids": MetadataIDs(actionIDs), "action_count": len(actionIDs),
	}}
}
