package bot

import (
	"cmp"
	"context"
	"fmt"
	"net/url"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/store"
)

const (
	msgSettingsDown = ":warning: I can't reach my database right now, so your notification settings can't be shown or changed. Nothing is lost: reopen this tab in a few minutes."
	msgSettingsNone = ":warning: Notification settings need recordsbot's database, which this installation runs without. Please tell the app's admin (DATABASE_URL)."
)

// homeNotifications is the Notifications section of user's Home tab, with
// note (the answer to a change) on top, or nil when the bot has no store.
func (su *settingsUI) homeNotifications(ctx context.Context, user, note string) *blocks.NotificationSettings {
	if su.store == nil {
		return nil
	}
	set, err := su.store.Settings(ctx, user)
	if err != nil {
		su.log.WarnContext(ctx, "app home: read settings", "user", user, "error", err)
		return &blocks.NotificationSettings{Note: note, Unavailable: msgSettingsDown}
	}
	eff := homeSettings(su.notify, set)
	eff.Note = note
	return &eff
}

// clickSetting saves one change made on the Home tab's Notifications
// section and republishes the Home tab with the new state and a note. The
// person's other choices are kept as they were, defaults included: a nil
// field stays nil, so an admin's later change of a default still reaches
// what they never chose.
func (c *clicks) clickSetting(ctx context.Context, in *interaction, actionID, value string) {
	note, _ := c.settings.saveSetting(ctx, in.User.ID, actionID, value)
	if in.Container.Type != "view" {
		// Only the Home tab has these controls; answer anyway.
		c.tell(ctx, in, notice(note))
		return
	}
	c.answerOnHome(ctx, in, homeState{settingsNote: note})
}

// saveSetting applies one control's value to user's settings and returns
// the confirmation and true, or why nothing changed and false.
func (su *settingsUI) saveSetting(ctx context.Context, user, actionID, value string) (string, bool) {
	if su.store == nil {
		return msgSettingsNone, false
	}
	on := value == "on"
	if actionID != blocks.ActionSettingsRemindAt && value != "on" && value != "off" {
		return staleButton(ctx), false
	}
	// Only the field clicked is sent: the others stay as stored, defaults
	// included, even when another change lands at the same moment.
	var set store.Settings
	var note string
	switch actionID {
	case blocks.ActionSettingsRemind:
		set.RemindEnabled = &on
		note = map[bool]string{true: ":white_check_mark: Daily reminders are on.", false: ":white_check_mark: Daily reminders are off: I won't DM you about due actions."}[on]
	case blocks.ActionSettingsRemindAt:
		at, err := clocktime.Parse(value)
		if err != nil {
			return staleButton(ctx), false
		}
		set.RemindAt = at
		note = fmt.Sprintf(":white_check_mark: Reminders now arrive from %s, your local time.", at)
	case blocks.ActionSettingsWeekdays:
		set.WeekdaysOnly = &on
		note = map[bool]string{true: ":white_check_mark: Reminders now come on weekdays only.", false: ":white_check_mark: Reminders now come every day, weekends too."}[on]
	case blocks.ActionSettingsAssignDMs:
		set.AssignDMs = &on
		note = map[bool]string{true: ":white_check_mark: I'll DM you when an action is assigned to you.", false: ":white_check_mark: New-assignment DMs are off."}[on]
	default:
		return staleButton(ctx), false
	}
	if err := su.store.ChangeSettings(ctx, user, set); err != nil {
		return su.say(ctx, "save settings", err), false
	}
	return note + " It applies from the next one.", true
}

// clickNotifyStop is *Stop these* under a reminder or assignment DM: the
// setting is saved off, and the buttons of the message give way to a line
// saying so (chat.update), or, when the message cannot be updated, the
// clicker is told ephemerally.
func (c *clicks) clickNotifyStop(ctx context.Context, in *interaction, kind string) {
	action := map[string]string{blocks.NotifyReminders: blocks.ActionSettingsRemind, blocks.NotifyAssignments: blocks.ActionSettingsAssignDMs}[kind]
	if action == "" {
		c.tell(ctx, in, notice(staleButton(ctx)))
		return
	}
	note, saved := c.settings.saveSetting(ctx, in.User.ID, action, "off")
	if !saved || in.Container.Type == "view" || in.Container.IsEphemeral || in.Message == nil {
		c.tell(ctx, in, notice(note))
		return
	}
	note = ":white_check_mark: " + map[string]string{
		blocks.NotifyReminders:   "Daily reminders are off.",
		blocks.NotifyAssignments: "New-assignment DMs are off.",
	}[kind] + " Turn them back on under *Notifications* on my Home tab."
	replaced, ok := blocks.ReplaceNotifyButtons(in.Message.Blocks, note, c.acts.revs.next())
	if !ok {
		c.tell(ctx, in, notice(note))
		return
	}
	err := c.updateMessage(ctx, in.channelID(), in.Message.TS, cmp.Or(in.Message.Text, note), blocks.RawBlocks(replaced))
	if err != nil && !echoUnreadable(err) {
		c.log.ErrorContext(ctx, "stop these: chat.update failed", "error", err)
		c.tell(ctx, in, notice(note))
	}
}

// clickNotifySettings is *Settings* under a reminder or assignment DM: the
// settings live on the Home tab, so the answer points there, with a deep
// link when the payload names the team and the app
// (slack://app?team={TEAM_ID}&id={APP_ID}&tab=home, "Open an App Home" in
// https://api.slack.com/reference/deep-linking). The Home tab is
// republished first so it shows the current settings.
func (c *clicks) clickNotifySettings(ctx context.Context, in *interaction) {
	c.home.publishHomeLogged(ctx, in.User.ID, homeState{})
	text := ":gear: Your notification settings are under *Notifications* on my *Home* tab: click recordsbot in the sidebar, then *Home*."
	if in.Team.ID != "" && in.APIAppID != "" {
		q := url.Values{"team": {in.Team.ID}, "id": {in.APIAppID}, "tab": {"home"}}
		text += " <slack://app?" + q.Encode() + "|Open it now>."
	}
	c.tell(ctx, in, notice(text))
}
