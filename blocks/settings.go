package blocks

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/slack-go/slack"

	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/lang"
)

// Action IDs of the App Home's Notifications section and of the buttons
// under every reminder DM and assignment DM. The bot routes clicks by them,
// and the watcher's assignment DMs carry the same buttons (NotifyButtons).
const (
	// ActionSettingsRemind turns daily reminders on or off; value "on" or
	// "off", the state the click asks for.
	ActionSettingsRemind = "settings:remind"
	// ActionSettingsRemindAt is the menu of reminder times; the chosen
	// option's value is "HH:MM".
	ActionSettingsRemindAt = "settings:remind_at"
	// ActionSettingsWeekdays turns "weekdays only" on or off; value "on"
	// or "off".
	ActionSettingsWeekdays = "settings:weekdays"
	// ActionSettingsAssignDMs turns new-assignment DMs on or off; value
	// "on" or "off".
	ActionSettingsAssignDMs = "settings:assign_dms"
	// ActionNotifyStop is "Stop these" under a reminder or assignment DM;
	// value NotifyReminders or NotifyAssignments, the kind of DM to stop.
	ActionNotifyStop = "notify:stop"
	// ActionNotifySettings is "Settings" under a reminder or assignment DM:
	// it points the reader at the Home tab. Value as ActionNotifyStop.
	ActionNotifySettings = "notify:settings"
)

// The kinds of DM NotifyButtons can stop: the value of ActionNotifyStop.
const (
	NotifyReminders   = "reminders"
	NotifyAssignments = "assignments"
)

// NotificationSettings is a person's notification settings as the Home tab
// shows them: each value is their own choice, or the organisation's default
// where they have made none.
type NotificationSettings struct {
	RemindOn bool           // daily reminder DMs
	RemindAt clocktime.Time // their local time
	// RemindAtOwn is set when RemindAt is the person's own choice; unset,
	// it is the organisation's (REMIND_AT), and the Home tab says so: a
	// time nobody chose, such as 00:00, otherwise reads as a fault.
	RemindAtOwn  bool
	WeekdaysOnly bool // no reminders on Saturday and Sunday
	AssignDMs    bool // a DM when an action is newly assigned to them
	// Note, when set, is shown under the header: the confirmation of a
	// change (mrkdwn written by the bot; not escaped again).
	Note string
	// Unavailable, when set, is shown instead of the controls: the
	// settings could not be read (mrkdwn written by the bot).
	Unavailable string
}

// NotifyButtons is the row of buttons under a reminder DM (kind
// NotifyReminders) or an assignment DM (NotifyAssignments): *Stop these*
// (ActionNotifyStop, value kind) and *Settings* (ActionNotifySettings).
func NotifyButtons(l lang.Lang, kind string) *slack.ActionBlock {
	// No block_id: Slack assigns one, and a message redrawn after a
	// status click must not send the same block_id again.
	return slack.NewActionBlock("",
		button(ActionNotifyStop, kind, l.T("notify.stop")),
		button(ActionNotifySettings, kind, l.T("notify.settings")),
	)
}

// settingsBlocks is the Home tab's Notifications section: a divider, the
// header, the note, then one section per setting with the control that
// changes it (a button to flip it, a menu of times for RemindAt).
func settingsBlocks(l lang.Lang, s NotificationSettings) []slack.Block {
	out := []slack.Block{slack.NewDividerBlock(), header(l.T("settings.header"))}
	if note := strings.TrimSpace(s.Note); note != "" {
		out = append(out, contextLine(truncateMrkdwn(note, MaxSectionText)))
	}
	if u := strings.TrimSpace(s.Unavailable); u != "" {
		return append(out, section(truncateMrkdwn(u, MaxSectionText)))
	}
	onOff := func(on bool) (state, flip, label string) {
		if on {
			return l.T("settings.on"), "off", l.T("settings.turn_off")
		}
		return l.T("settings.off"), "on", l.T("settings.turn_on")
	}
	state, flip, label := onOff(s.RemindOn)
	remind := slack.NewSectionBlock(mrkdwn(l.F("settings.remind", "state", state)), nil,
		slack.NewAccessory(button(ActionSettingsRemind, flip, label)))
	atText := l.F("settings.remind_at_default", "time", s.RemindAt.String())
	if s.RemindAtOwn {
		atText = l.F("settings.remind_at", "time", s.RemindAt.String())
	}
	at := slack.NewSectionBlock(mrkdwn(atText), nil,
		slack.NewAccessory(timeMenu(l, s.RemindAt)))
	wstate, wflip, wlabel := onOff(s.WeekdaysOnly)
	weekdays := slack.NewSectionBlock(mrkdwn(l.F("settings.weekdays", "state", wstate)), nil,
		slack.NewAccessory(button(ActionSettingsWeekdays, wflip, wlabel)))
	dstate, dflip, dlabel := onOff(s.AssignDMs)
	dms := slack.NewSectionBlock(mrkdwn(l.F("settings.assign_dms", "state", dstate)), nil,
		slack.NewAccessory(button(ActionSettingsAssignDMs, dflip, dlabel)))
	return append(out, remind, at, weekdays, dms, contextLine(l.T("settings.footer")))
}

// timeMenu is the menu of reminder times: every hour, plus the current
// time when it is not on the hour (set through an admin's REMIND_AT, say),
// which is selected.
func timeMenu(l lang.Lang, at clocktime.Time) *slack.SelectBlockElement {
	current := at.String()
	times := make([]string, 0, 25)
	for h := range 24 {
		times = append(times, clocktime.Of(h, 0).String())
	}
	if current != "" && !slices.Contains(times, current) {
		times = append(times, current)
		slices.Sort(times) // "HH:MM" sorts as time
	}
	var opts []*slack.OptionBlockObject
	var initial *slack.OptionBlockObject
	for _, v := range times {
		o := slack.NewOptionBlockObject(v, plain(v), nil)
		if v == current {
			initial = o
		}
		opts = append(opts, o)
	}
	menu := slack.NewOptionsSelectBlockElement(slack.OptTypeStatic, plain(l.T("settings.choose_time")), ActionSettingsRemindAt, opts...)
	menu.InitialOption = initial
	return menu
}

// ReplaceNotifyButtons returns msg (a message's blocks as Slack sent them
// back) with the block holding the *Stop these* button (ActionNotifyStop)
// replaced by a context line of note, bot-written mrkdwn. The update is a
// new version of the message, so every other block's block_id is revised
// as ReplaceRow does with rev: rows get their IDs in revision rev, IDs of
// other origins are dropped for Slack to assign afresh. ok is false when
// msg holds no such button.
func ReplaceNotifyButtons(msg []json.RawMessage, note, rev string) (out []json.RawMessage, ok bool) {
	line, err := json.Marshal(contextLine(truncateMrkdwn(note, MaxSectionText)))
	if err != nil {
		// Unreachable: a slack-go type built here.
		return nil, false
	}
	out = make([]json.RawMessage, 0, len(msg))
	for _, raw := range msg {
		switch {
		case !ok && holdsStop(raw):
			out, ok = append(out, line), true
		case rev != "":
			out = append(out, reviseBlockID(raw, rev))
		default:
			out = append(out, raw)
		}
	}
	if !ok {
		return nil, false
	}
	return out, true
}

// holdsStop reports whether raw, a block as Slack sent it back, holds the
// *Stop these* button; a block that is not an object with elements holds
// no buttons.
func holdsStop(raw json.RawMessage) bool {
	var b struct {
		Elements []struct {
			ActionID string `json:"action_id"`
		} `json:"elements"`
	}
	if json.Unmarshal(raw, &b) != nil {
		return false
	}
	for _, e := range b.Elements {
		if e.ActionID == ActionNotifyStop {
			return true
		}
	}
	return false
}
