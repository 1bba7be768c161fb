package bot

import (
	"context"
	"time"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/store"
)

const (
	msgAwayPast   = ":calendar: That day has already gone. Pick your last day away from today on."
	msgAwayTooFar = ":calendar: That is more than a year away. Pick a last day away within the next year."
)

// homeSteering is the Home tab's "Away and rhythm" section for me, nil
// without a store.
func (su *settingsUI) homeSteering(ctx context.Context, me actions.Member) *blocks.Steering {
	if su.store == nil {
		return nil
	}
	set, err := su.store.Settings(ctx, me.ID)
	if err != nil {
		return &blocks.Steering{Unavailable: msgSettingsDown}
	}
	away, err := su.store.AwayOf(ctx, me.ID)
	if err != nil {
		return &blocks.Steering{Unavailable: msgSettingsDown}
	}
	eff := su.notify.Effective(set)
	s := &blocks.Steering{Cadence: eff.Cadence, At: eff.RemindAt}
	zone := cmpZone(me.Zone, time.UTC)
	if today := su.now().In(zone).Format(time.DateOnly); away.On(today) {
		s.AwayUntil, _ = time.ParseInLocation(time.DateOnly, away.LastDay, zone)
	}
	return s
}

// clickAway answers the section's controls and redraws the Home tab with
// the answer atop Notifications.
func (c *clicks) clickAway(ctx context.Context, in *interaction, actionID, value string) {
	note := c.settings.steer(ctx, in.User.ID, actionID, value, c.acts.dom)
	if in.Container.Type != "view" {
		c.tell(ctx, in, notice(note))
		return
	}
	c.answerOnHome(ctx, in, homeState{settingsNote: note})
}

// steer applies one of the section's controls and says what it did, or
// why nothing changed (nothing is stored then).
func (su *settingsUI) steer(ctx context.Context, user, actionID, value string, dom *actions.Service) string {
	if su.store == nil {
		return msgSettingsNone
	}
	me, err := dom.Who(ctx, user)
	if err != nil {
		return su.say(ctx, "away", err)
	}
	zone := cmpZone(me.Zone, dom.Zone())
	now := su.now().In(zone)
	today := now.Format(time.DateOnly)
	switch actionID {
	case blocks.ActionAwaySet:
		day, err := time.ParseInLocation(time.DateOnly, value, zone)
		switch {
		case err != nil:
			return staleButton(ctx)
		case day.Format(time.DateOnly) < today:
			return msgAwayPast
		case day.After(now.AddDate(0, 0, maxSnooze)):
			return msgAwayTooFar
		}
		if err := su.store.SetAway(ctx, user, value); err != nil {
			return su.say(ctx, "set away", err)
		}
		return ":palm_tree: You're away until " + day.Format("Mon 2 Jan") + ": no reminders or assignment DMs until then, and one DM of what you missed the day after."
	case blocks.ActionAwayEnd:
		ok, err := su.store.EndAway(ctx, user, today)
		switch {
		case err != nil:
			return su.say(ctx, "end away", err)
		case !ok:
			return ":information_source: You weren't away: reminders come as usual."
		}
		return ":wave: Welcome back. What you missed comes in one DM with the next reminder run."
	case blocks.ActionCadence:
		var w clocktime.Weekly
		if value != blocks.CadenceDaily {
			if w, err = clocktime.ParseWeekly(value); err != nil || !w.On {
				return staleButton(ctx)
			}
		}
		if err := su.store.ChangeSettings(ctx, user, store.Settings{Cadence: &w}); err != nil {
			return su.say(ctx, "save settings", err)
		}
		if !w.On {
			return ":white_check_mark: Reminders now come daily. It applies from the next one."
		}
		return ":white_check_mark: Reminders now come once a week, " + w.Day.String() + " from " + w.At.String() + ": everything overdue or due within the week."
	}
	return staleButton(ctx)
}

// markSnoozed marks the rows of me's own actions they snoozed with the
// day the snooze ends; a failure to read leaves the rows as they are.
func (st *steering) markSnoozed(ctx context.Context, me actions.Member, rows []blocks.ActionRow) {
	if st == nil || st.store == nil || len(rows) == 0 {
		return
	}
	snoozes, err := st.store.Snoozes(ctx, me.ID)
	if err != nil || len(snoozes) == 0 {
		return
	}
	zone := cmpZone(me.Zone, st.dom.Zone())
	today := st.now().In(zone).Format(time.DateOnly)
	for i := range rows {
		if sn, ok := snoozes[rows[i].ID]; ok && sn.Until > today {
			rows[i].SnoozedUntil, _ = time.ParseInLocation(time.DateOnly, sn.Until, zone)
		}
	}
}
