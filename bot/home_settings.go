package bot

import (
	"cmp"
	"context"
	"net/url"

	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/store"
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
		return &blocks.NotificationSettings{Note: note, Unavailable: lang.FromContext(ctx).T("settings.down")}
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
		return lang.FromContext(ctx).T("settings.none"), false
	}
	on := value == "on"
	if actionID != blocks.ActionSettingsRemindAt && value != "on" && value != "off" {
		return staleButton(ctx), false
	}
	// Only the field clicked is sent: the others stay as stored, defaults
	// included, even when another change lands at the same moment.
	var set store.Settings
	var note lang.Key
	var at clocktime.Time
	lg := lang.FromContext(ctx)
	pick := func(on bool, yes, no lang.Key) lang.Key {
		if on {
			return yes
		}
		return no
	}
	switch actionID {
	case blocks.ActionSettingsRemind:
		set.RemindEnabled = &on
		note = pick(on, "settings.saved.remind_on", "settings.saved.remind_off")
	case blocks.ActionSettingsRemindAt:
		var err error
		if at, err = clocktime.Parse(value); err != nil {
			return staleButton(ctx), false
		}
		set.RemindAt = at
		note = "settings.saved.remind_at"
	case blocks.ActionSettingsWeekdays:
		set.WeekdaysOnly = &on
		note = pick(on, "settings.saved.weekdays_on", "settings.saved.weekdays_off")
	case blocks.ActionSettingsAssignDMs:
		set.AssignDMs = &on
		note = pick(on, "settings.saved.assign_on", "settings.saved.assign_off")
	default:
		return staleButton(ctx), false
	}
	if err := su.store.ChangeSettings(ctx, user, set); err != nil {
		return su.say(ctx, "save settings", err), false
	}
	return lg.F("settings.applies", "note", lg.F(note, "time", at.String())), true
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
	lg := lang.FromContext(ctx)
	note = lg.F(map[string]lang.Key{
		blocks.NotifyReminders:   "notify.stopped.reminders",
		blocks.NotifyAssignments: "notify.stopped.assignments",
	}[kind], "section", lg.T("settings.header"))
	replaced, ok := blocks.ReplaceNotifyButtons(in.Message.Blocks, note, c.acts.revs.next())
	if !ok {
		c.tell(ctx, in, notice(note))
		return
	}
	if !c.redraw(ctx, in, &reply{Text: cmp.Or(in.Message.Text, note), Blocks: blocks.RawBlocks(replaced)}) {
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
	lg := lang.FromContext(ctx)
	text := lg.F("notify.where", "section", lg.T("settings.header"))
	if in.Team.ID != "" && in.APIAppID != "" {
		q := url.Values{"team": {in.Team.ID}, "id": {in.APIAppID}, "tab": {"home"}}
		text += " <slack://app?" + q.Encode() + "|" + lg.T("notify.open_now") + ">."
	}
	c.tell(ctx, in, notice(text))
}
