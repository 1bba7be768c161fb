package bot

import (
	"context"
	"time"

	"github.com/recordsbot/recordsbot/actions"
	"github.com/recordsbot/recordsbot/blocks"
	"github.com/recordsbot/recordsbot/internal/clocktime"
	"github.com/recordsbot/recordsbot/internal/lang"
	"github.com/recordsbot/recordsbot/store"
)

// homeAwayRhythm is the Home tab's "Away and rhythm" section for me, nil
// without a store.
func (su *settingsUI) homeAwayRhythm(ctx context.Context, me actions.Member) *blocks.AwayRhythm {
	if su.store == nil {
		return nil
	}
	set, err := su.store.Settings(ctx, me.ID)
	if err != nil {
		return &blocks.AwayRhythm{Unavailable: lang.FromContext(ctx).T("settings.down")}
	}
	away, err := su.store.AwayOf(ctx, me.ID)
	if err != nil {
		return &blocks.AwayRhythm{Unavailable: lang.FromContext(ctx).T("settings.down")}
	}
	eff := su.notify.Effective(set)
	s := &blocks.AwayRhythm{Cadence: eff.Cadence, At: eff.RemindAt}
	zone := cmpZone(me.Zone, time.UTC)
	if today := su.now().In(zone).Format(time.DateOnly); away.On(today) {
		if s.AwayUntil, err = time.ParseInLocation(time.DateOnly, away.LastDay, zone); err != nil {
			// The store checks the day when it is saved: a row changed by
			// hand. The section then offers to set one.
			su.log.WarnContext(ctx, "away: stored last day unreadable", "last_day", away.LastDay, "error", err)
		}
	}
	return s
}

// clickAway answers the section's controls and redraws the Home tab with
// the answer atop Notifications.
func (c *clicks) clickAway(ctx context.Context, in *interaction, actionID, value string) {
	note := c.settings.applyAwayRhythm(ctx, in.User.ID, actionID, value, c.acts.actions)
	if in.Container.Type != "view" {
		c.tell(ctx, in, notice(note))
		return
	}
	c.answerOnHome(ctx, in, homeState{settingsNote: note})
}

// applyAwayRhythm applies one of the section's controls and says what it did, or
// why nothing changed (nothing is stored then).
func (su *settingsUI) applyAwayRhythm(ctx context.Context, user, actionID, value string, svc *actions.Service) string {
	if su.store == nil {
		return lang.FromContext(ctx).T("settings.none")
	}
	lg := lang.FromContext(ctx)
	me, err := svc.Who(ctx, user)
	if err != nil {
		return su.say(ctx, "away", err)
	}
	zone := cmpZone(me.Zone, svc.Zone())
	now := su.now().In(zone)
	today := now.Format(time.DateOnly)
	switch actionID {
	case blocks.ActionAwaySet:
		day, err := time.ParseInLocation(time.DateOnly, value, zone)
		switch {
		case err != nil:
			return staleButton(ctx)
		case day.Format(time.DateOnly) < today:
			return lg.T("steer.away_past")
		case day.After(now.AddDate(0, 0, maxSnooze)):
			return lg.T("steer.away_too_far")
		}
		if err := su.store.SetAway(ctx, user, value); err != nil {
			return su.say(ctx, "set away", err)
		}
		return lg.F("steer.away_set", "date", lg.WeekdayDate(day))
	case blocks.ActionAwayEnd:
		ok, err := su.store.EndAway(ctx, user, today)
		switch {
		case err != nil:
			return su.say(ctx, "end away", err)
		case !ok:
			return lg.T("steer.not_away")
		}
		return lg.T("steer.welcome_back")
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
			return lg.T("steer.now_daily")
		}
		return lg.F("steer.now_weekly", "weekday", lg.Weekday(w.Day), "time", w.At.String())
	}
	return staleButton(ctx)
}

// markSnoozed marks the rows of me's own actions they snoozed with the
// day the snooze ends; a failure to read leaves the rows as they are
// (running logs it).
func (st *snoozing) markSnoozed(ctx context.Context, me actions.Member, rows []blocks.ActionRow) {
	if len(rows) == 0 {
		return
	}
	until := st.running(ctx, me)
	for i := range rows {
		if day, ok := until[rows[i].ID]; ok {
			rows[i].SnoozedUntil = day
		}
	}
}
